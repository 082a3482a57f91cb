package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// The registry: every Terraform type the provider serves, each declared in the file named
// after it. Tests, docs checks and the examples check iterate these lists; nothing else
// lists the types.

func (p *apmProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		newSystemResource,
		newNodeResource,
		wasServerKind.resource(),
		webServerKind.resource(),
		sessionServerKind.resource(),
		engine.NewResource(wasSessionClusterType),
		engine.NewResource(wasDatasourceType),
		engine.NewResource(wasApplicationType),
		engine.NewResource(webWorkersType),
		engine.NewResource(webURIPatternsType),
		engine.NewResource(webSSLType),
		engine.NewResource(databaseType),
		engine.NewResource(datasourceType),
		engine.NewResource(userType),
		engine.NewResource(roleType),
		engine.NewResource(userRoleType),
		engine.NewOperation(wasRollout),
	}
}

func (p *apmProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		// system.go, node.go
		newSystemsDataSource, newSystemDataSource,
		newNodesDataSource, newNodeDataSource,
		// was_server.go, web_server.go, session_server.go
		wasServerKind.listDataSource(), wasServerKind.dataSource(),
		webServerKind.listDataSource(), webServerKind.dataSource(),
		sessionServerKind.listDataSource(), sessionServerKind.dataSource(),
		newRegisterableServersDataSource,
		newContainerServersDataSource,
		// the parts of a server and the grants, for adoption: was_application.go,
		// was_datasource.go, was_session_cluster.go, web_workers.go, web_uri_patterns.go,
		// web_ssl.go, user_role.go
		newWASApplicationsDataSource, newWASDatasourcesDataSource, newWASSessionClustersDataSource,
		newWebWorkersDataSource, newWebURIPatternsDataSource, newWebSSLsDataSource,
		newUserRolesDataSource,
		// database.go, datasource.go
		newDatabasesDataSource, newDatabaseDataSource,
		newDatasourcesDataSource, newDatasourceDataSource,
		// user.go, role.go
		newUsersDataSource, newUserDataSource,
		newRolesDataSource, newRoleDataSource,
		// public.go
		newPublicNodesDataSource,
		newManagerInfoDataSource,
		// metrics.go
		newNodesMetricsDataSource, newNodeMetricsDataSource,
		newWASServerMetricsDataSource, newWebServerMetricsDataSource, newSessionServerMetricsDataSource,
		newWASContainerMetricsDataSource, newWebContainerMetricsDataSource,
		// licenses.go, notifications.go, events.go, trace_logs.go
		newLicensesDataSource,
		newNotificationsDataSource,
		newAnalysisEventsDataSource, newAnalysisEventDataSource,
		newActionTraceLogsDataSource,
	}
}

// Functions are the parse_ and build_ functions of the composite IDs that the resources
// hand out, made from their import ID declarations.
func (p *apmProvider) Functions(ctx context.Context) []func() function.Function {
	return engine.IDFunctions(p.Resources(ctx))
}

// ListResources are the list resources of the managed types, one for each, made from the
// list data sources whose items are their objects.
func (p *apmProvider) ListResources(ctx context.Context) []func() list.ListResource {
	var out []func() list.ListResource
	for _, newDataSource := range p.DataSources(ctx) {
		if d, ok := newDataSource().(interface {
			ListResource() func() list.ListResource
		}); ok && d.ListResource() != nil {
			out = append(out, d.ListResource())
		}
	}
	return out
}

var _ provider.ProviderWithActions = (*apmProvider)(nil)

// Actions are the day-two operations (Terraform 1.14 and later): the power actions of each
// server kind (server_actions.go), and the operations on a WAS server's applications and
// resources.
func (p *apmProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{
		wasServerKind.action(serverStart), wasServerKind.action(serverStop), wasServerKind.action(serverRestart),
		webServerKind.action(serverStart), webServerKind.action(serverStop), webServerKind.action(serverRestart),
		sessionServerKind.action(serverStart), sessionServerKind.action(serverStop), sessionServerKind.action(serverRestart),
		engine.NewAction(wasApplicationRedeployAction),
		engine.NewAction(wasServersRollingRestartAction),
		engine.NewAction(wasApplicationRollingRedeployAction),
		engine.NewAction(wasServerImportResourceAction),
	}
}
