package provider

import (
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// requiredString is a required argument of a data source.
func requiredString(description string, rules ...validator.String) dschema.Attribute {
	return dschema.StringAttribute{MarkdownDescription: description, Required: true, Validators: rules}
}

// optionalString is a data source filter.
func optionalString(description string, rules ...validator.String) dschema.Attribute {
	return dschema.StringAttribute{MarkdownDescription: description, Optional: true, Validators: rules}
}
