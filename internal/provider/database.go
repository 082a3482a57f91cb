package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

func databaseResources() []func() resource.Resource { return nil }

func databaseDataSources() []func() datasource.DataSource { return nil }
