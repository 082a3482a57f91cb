package provider

import "github.com/hashicorp/terraform-plugin-framework/datasource"

func metricsDataSources() []func() datasource.DataSource { return nil }
