package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

func wasPartResources() []func() resource.Resource { return nil }

func wasPartDataSources() []func() datasource.DataSource { return nil }
