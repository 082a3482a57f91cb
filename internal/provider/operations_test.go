package provider

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// managesAnObject reports whether a resource schema is of a resource that manages an
// object of the manager, rather than an operation resource (engine.Operation), which has
// no identity, import, list resource or discovery.
func managesAnObject(s *tfprotov6.Schema) bool {
	return !slices.ContainsFunc(s.Block.Attributes, func(a *tfprotov6.SchemaAttribute) bool { return a.Name == engine.OperationOutcomeAttr })
}
