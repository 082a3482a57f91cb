package provider

// The engine's declarations, bound to this provider's connection: every type's calls get
// the *manager.
type (
	resourceType[T any]       = ResourceType[T, *manager]
	dataSourceType[T any]     = DataSourceType[T, *manager]
	listDataSourceType[T any] = ListDataSourceType[T, *manager]
	importID                  = ImportID[*manager]
	idPart                    = IDPart[*manager]
	providerData              = Configured[*manager]
)
