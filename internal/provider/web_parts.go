package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

func webPartResources() []func() resource.Resource { return nil }
