package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

func userResources() []func() resource.Resource { return nil }

func userDataSources() []func() datasource.DataSource { return nil }
