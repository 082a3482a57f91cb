package provider

import "github.com/apmplatform/terraform-provider-apm/internal/provider/engine"

// The engine's declarations, bound to this provider's connection: every type's calls get
// the *manager.
type (
	resourceType[T any]       = engine.ResourceType[T, *manager]
	dataSourceType[T any]     = engine.DataSourceType[T, *manager]
	listDataSourceType[T any] = engine.ListDataSourceType[T, *manager]
	importID                  = engine.ImportID[*manager]
	idPart                    = engine.IDPart[*manager]
	providerData              = engine.Configured[*manager]
)
