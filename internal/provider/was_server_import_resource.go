package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// apm_was_server_import_resource imports a resource registered in the manager into a WAS
// server (POST .../resource). It is an action rather than a resource because the
// manager has no inverse and no answer shows imports (api/decisions.md): Terraform could
// neither destroy nor read what it made.

// importableResourceTypes are the kinds the interface names (JMS and JTA as
// api/decisions.md spells them in the body).
var importableResourceTypes = []string{
	string(apm.ResourceDatasource), string(apm.ResourceApplication), string(apm.ResourceJMS), string(apm.ResourceJTA),
}

var wasServerImportResourceAction = actionType{
	Name: "was_server_import_resource",
	Description: "Imports a resource registered in the manager (a datasource, an application, a JMS or a JTA resource) into a WAS server. " +
		"The manager has no way to undo an import, and no answer shows imports, so this is an action rather than a resource; importing again what is imported changes nothing. " +
		"To attach a datasource under Terraform's management, with drift detection and detach on destroy, use `apm_was_datasource` instead. " +
		"For Terraform 1.14 and later: run it with `terraform apply -invoke=action.apm_was_server_import_resource.<name>`, or from a resource's `lifecycle { action_trigger }`.",
	Fields: []engine.Field[engine.Attrs]{
		serverActionTarget(wasServerKind),
		engine.InputField[engine.Attrs](attrResourceType, "What kind of resource to import: `datasource`, `application`, `jms` or `jta`.", tftypes.String).
			Validate(stringvalidator.OneOf(importableResourceTypes...)),
		engine.InputField[engine.Attrs](attrResourceName, "The name of the resource in the manager, such as `apm_datasource.example.name` for a datasource.", tftypes.String).
			Validate(stringvalidator.LengthAtLeast(1)),
	},
	Describe: func(config engine.Attrs) string {
		return fmt.Sprintf("import %s %q into %s", config.Str(attrResourceType), config.Str(attrResourceName), wasServerNamed(config.Str(attrServerID)))
	},
	Invoke: func(ctx context.Context, c *conn, config engine.Attrs, progress engine.Progress) error {
		kind, name := apm.ResourceType(config.Str(attrResourceType)), config.Str(attrResourceName)
		return c.onServerRef(ctx, apm.KindWAS, config.Str(attrServerID), func(ref apm.ServerRef) error {
			progress.Say("Importing %s %q into %s.", kind, name, serverNamed(ref))
			if err := c.ImportResource(ctx, ref, kind, name); err != nil {
				return fmt.Errorf("importing %s %q: %w", kind, name, err)
			}
			progress.Say("Imported %s %q into %s.", kind, name, serverNamed(ref))
			return nil
		})
	},
}
