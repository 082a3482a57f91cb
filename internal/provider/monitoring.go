package provider

import "github.com/hashicorp/terraform-plugin-framework/datasource"

func monitoringDataSources() []func() datasource.DataSource { return nil }
