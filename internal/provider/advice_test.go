package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// The advice of errors that the manager's answers cause, on the real CLIs (issue 21 items
// 10 and 11): a NOT_FOUND for an object that another one refers to names both, and each
// kind of 409 gets its own advice. ExpectError only tells what an error says; what it must
// not say (an import where importing is wrong, a wrong endpoint where the manager
// answered) is asserted on the diagnostics that the provider returned (saidErrors).

// saidErrors records the errors and warnings that the provider returns to the CLI in one
// test (a data source that finds nothing warns).
type saidErrors struct {
	mu    sync.Mutex
	texts []string
}

func (s *saidErrors) add(diags []*tfprotov6.Diagnostic) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range diags {
		if d != nil && d.Severity != tfprotov6.DiagnosticSeverityInvalid {
			s.texts = append(s.texts, d.Summary+"\n\n"+d.Detail)
		}
	}
}

// check is a step's check, and the PreConfig of the step after an ExpectError step: the
// errors said so far that contain marker exist, and none says any of wrong. It forgets
// them, so that the next step's errors are its own.
func (s *saidErrors) check(t *testing.T, marker string, wrong ...string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	found := 0
	for _, text := range s.texts {
		if !strings.Contains(text, marker) {
			continue
		}
		found++
		for _, w := range wrong {
			if strings.Contains(text, w) {
				t.Errorf("the error says %q, which is wrong advice here:\n%s", w, text)
			}
		}
	}
	if found == 0 {
		t.Errorf("no error said %q; the errors were:\n%s", marker, strings.Join(s.texts, "\n----\n"))
	}
	s.texts = nil
}

// recordingServer is the provider's server, recording the errors of the calls that meet
// the manager.
type recordingServer struct {
	tfprotov6.ProviderServer
	said *saidErrors
}

func (r recordingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := r.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		r.said.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recordingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := r.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		r.said.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recordingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	resp, err := r.ProviderServer.ReadDataSource(ctx, req)
	if resp != nil {
		r.said.add(resp.Diagnostics)
	}
	return resp, err
}

// testRecorded is test, with the provider's errors recorded in said.
func (e *accEnv) testRecorded(said *saidErrors, steps []resource.TestStep) {
	e.t.Helper()
	accTest(e.t, resource.TestCase{
		PreCheck: func() { testAccPreCheck(e.t) },
		ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
			"apm": func() (tfprotov6.ProviderServer, error) { //nolint:unparam // the harness's factory type
				return recordingServer{NewProtocol6Server("test")(), said}, nil
			},
		},
		CheckDestroy: e.checkAllGone,
		Steps:        steps,
	})
}

// The advice that belongs to a 404 from something other than the manager, and to the
// kinds of 409: an error of another kind must say none of them.
const (
	adviceEndpoint = "without a path prefix"
	adviceImport   = "terraform import"
	adviceAdopt    = "adopt_existing"
	advicePort     = "Choose a free port"
	adviceInUse    = "Remove them first"
)

// A NOT_FOUND for the object that another refers to names the object and the one that
// refers to it, with what to do, and never suspects the endpoint: a database named by a
// datasource and a role named by apm_user_role (at apply, where plan cannot look:
// skip_connection_check), a system named in the apm_node data source (which warns: a destroy must
// get past it).
func TestAccAdvice_missingReferences(t *testing.T) {
	env := newAccEnv(t)
	said := &saidErrors{}
	ds, db, alice, nosuchRole, nosuchSystem := env.name("orders-ds"), env.name("nosuch-db"), env.name("alice"), env.name("nosuch"), env.name("nosuch-sys")
	unchecked := providerConfig(t, env.sim.URL, "api_key", env.sim.AdminKey, "skip_connection_check", true)
	env.testRecorded(said, []resource.TestStep{
		{
			Config: unchecked + datasourceTF(t, ds, "database_id", db),
			ExpectError: errorMatching(fmt.Sprintf("Failed to create datasource %q", ds), "Database not found: "+db,
				fmt.Sprintf("The manager says that Database %q, which this refers to, does not exist", db), "apm_database.example.id"),
		},
		{
			PreConfig: func() { said.check(t, fmt.Sprintf("Database %q", db), adviceEndpoint, adviceImport, adviceInUse) },
			// Unchecked: plan refuses a role the manager lacks (references.go); the advice
			// under test is the manager's NOT_FOUND at apply.
			Config: unchecked + userTF(t, alice, "Alice", "password", userPw1) + tf(t, "user_role/one.tf", "user_id", hclExpr("apm_user.a.id"), "role_id", nosuchRole),
			ExpectError: errorMatching(fmt.Sprintf("grant of role %q to user %q", nosuchRole, alice), "Role not found: "+nosuchRole,
				fmt.Sprintf("The manager says that Role %q, which this refers to, does not exist", nosuchRole), "apm_role.example.id"),
		},
		{
			PreConfig: func() {
				said.check(t, fmt.Sprintf("Role %q", nosuchRole), adviceEndpoint, adviceImport, adviceInUse, "apm_database")
			},
			Config:            env.config(tf(t, "data_sources/node.tf", "system_name", nosuchSystem, "name", "web-01")),
			ConfigStateChecks: notFound("data.apm_node.test", nosuchSystem+"/web-01", "host_ip"),
			Check: func(*terraform.State) error {
				said.check(t, fmt.Sprintf("system_name %q: not found in the manager", nosuchSystem), adviceEndpoint, adviceImport, adviceInUse)
				return nil
			},
		},
	})
}

// Each kind of 409 at apply gets its own advice, and no other: an object that exists
// already (made between plan and apply; here plan cannot look: skip_connection_check)
// the import ID; a port in use (taken between plan and apply; unchecked too) the server
// that holds it; a delete refused while others
// use the object what to remove first.
func TestAccAdvice_conflictKinds(t *testing.T) {
	env := newAccEnv(t)
	said := &saidErrors{}
	shop, db, ds := env.shop(), env.name("orders-db"), env.name("orders-ds")
	unchecked := providerConfig(t, env.sim.URL, "api_key", env.sim.AdminKey, "skip_connection_check", true)
	holder := env.shopRef(apm.KindWeb, "web-x")
	database := databaseTF(t, db, "10.0.2.15", "password", dbPassword1, "timeouts", hclExpr(`{ delete = "1s" }`))
	env.testRecorded(said, []resource.TestStep{
		{
			PreConfig: func() { env.must(env.admin.CreateSystem(env.ctx(), shop)) },
			Config:    unchecked + tf(t, "system/one.tf", "name", shop),
			ExpectError: errorMatching(fmt.Sprintf("Failed to create system %q", shop), "System already exists: "+shop,
				"terraform import apm_system.<name> "+shop),
		},
		{
			PreConfig: func() {
				said.check(t, "System already exists", adviceEndpoint, advicePort, adviceInUse)
				env.must(env.admin.DeleteSystem(env.ctx(), shop))
			},
			Config: env.shopNode(),
		},
		{
			PreConfig: func() {
				env.must(env.admin.InstallServer(env.ctx(), apm.KindWeb, apm.ServerSpec{ServerID: holder.ServerID, NodeName: holder.NodeName, SystemName: shop, HTTPPort: 8080}))
			},
			// Unchecked: plan refuses a port another server holds (server_ports.go); the
			// advice under test is the manager's 409 at apply.
			Config: unchecked + env.shopNodeTF() + serverTF(t, apm.KindWAS, "http_port", 8080),
			ExpectError: errorMatching(`Failed to create WAS server "was-1" on node "app-01"`, "Port 8080 is already used by web-x on node app-01",
				"Another server on the node, named above, already uses the port. Choose a free port"),
		},
		{
			PreConfig: func() {
				said.check(t, "Port 8080 is already used", adviceEndpoint, adviceImport, adviceAdopt, adviceInUse)
				env.must(env.admin.UninstallServer(env.ctx(), holder))
			},
			Config: env.config(database),
		},
		{
			PreConfig: func() {
				env.must(env.admin.CreateDatasource(env.ctx(), apm.DatasourceSpec{ResourceName: ds, DatabaseResourceName: db}))
			},
			Config: env.config(""),
			ExpectError: errorMatching(fmt.Sprintf("Failed to delete database %q", db), fmt.Sprintf("still held by datasource %q", ds),
				fmt.Sprintf("Database %s is used by datasource(s) %s; delete them first", db, ds), adviceInUse),
		},
		{
			PreConfig: func() {
				said.check(t, "is used by datasource(s)", adviceEndpoint, adviceImport, adviceAdopt, advicePort)
				env.must(env.admin.DeleteDatasource(env.ctx(), ds))
			},
			Config: env.config(""),
		},
	})
}
