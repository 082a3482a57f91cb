package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"
)

func serverDataSources() []func() datasource.DataSource { return nil }
