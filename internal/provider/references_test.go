package provider

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// referenceCases are, for every attribute of a registered type that names a parent by its
// id (engine.Reference), a configuration that names, by a literal, a parent the manager
// does not have. The manager has the system shop (var.system_id) and its node app-01.
var referenceCases = map[string]string{
	"apm_node.system_id":                    "references/apm_node.system_id.tf",
	"apm_was_server.node_id":                "references/apm_was_server.node_id.tf",
	"apm_web_server.node_id":                "references/apm_web_server.node_id.tf",
	"apm_session_server.node_id":            "references/apm_session_server.node_id.tf",
	"apm_was_session_cluster.was_server_id": "references/apm_was_session_cluster.was_server_id.tf",
	"apm_was_application.was_server_id":     "references/apm_was_application.was_server_id.tf",
	"apm_was_datasource.was_server_id":      "references/apm_was_datasource.was_server_id.tf",
	"apm_was_datasource.datasource_name":    "references/apm_was_datasource.datasource_name.tf",
	"apm_web_workers.web_server_id":         "references/apm_web_workers.web_server_id.tf",
	"apm_web_uri_patterns.web_server_id":    "references/apm_web_uri_patterns.web_server_id.tf",
	"apm_web_ssl.web_server_id":             "references/apm_web_ssl.web_server_id.tf",
	"apm_datasource.database_id":            "references/apm_datasource.database_id.tf",
	"apm_user_role.user_id":                 "references/apm_user_role.user_id.tf",
	"apm_user_role.role_id":                 "references/apm_user_role.role_id.tf",
}

// referringTypes are the registered types' reference attributes, as "type.attribute".
func referringTypes() []string {
	var out []string
	for name, typ := range registeredTypes() {
		refs, ok := typ.(interface{ ReferenceAttrs() []string })
		if !ok {
			continue
		}
		for _, attr := range refs.ReferenceAttrs() {
			out = append(out, name+"."+attr)
		}
	}
	slices.Sort(out)
	return out
}

// Every registered type's references have their case, and every case is a reference.
func TestReferences_everyReferenceHasItsCase(t *testing.T) {
	declared := referringTypes()
	if len(declared) == 0 {
		t.Fatal("no registered type declares a reference")
	}
	for _, ref := range declared {
		if _, ok := referenceCases[ref]; !ok {
			t.Errorf("%s names a parent, and referenceCases has no configuration for it", ref)
		}
	}
	for _, ref := range slices.Sorted(maps.Keys(referenceCases)) {
		if !slices.Contains(declared, ref) {
			t.Errorf("referenceCases has %s, which no registered type declares as a reference", ref)
		}
	}
}

// On every registered type that names a parent by id, a literal naming a parent that the
// manager does not have fails the plan, naming the attribute and its value, and not one
// write reaches the manager.
func TestAccReferences_missingParentRefusedAtPlan(t *testing.T) {
	for _, ref := range referringTypes() {
		file, ok := referenceCases[ref]
		if !ok {
			continue // TestReferences_everyReferenceHasItsCase says so
		}
		t.Run(ref, func(t *testing.T) {
			env := newAccEnv(t)
			env.needsSim("counts the requests the manager received")
			shop := env.name("shop")
			env.must(env.admin.CreateSystem(env.ctx(), shop))
			env.createNode(shop, "app-01", "10.0.0.21", 7730)
			cert := newWebTestCert(t, "web-9.example", nil)
			config := tf(t, file, "system_id", env.systemID(shop), "certificate_pem", cert.certPEM, "private_key_pem", cert.keyPEM)
			_, attr, _ := strings.Cut(ref, ".")
			before := env.writes()
			env.test([]resource.TestStep{{
				// Not PlanOnly: were the plan to pass, apply would send the writes that
				// the count below must not see.
				Config:      env.config(config),
				ExpectError: regexp.MustCompile(`(?s)Error: Unknown .*` + regexp.QuoteMeta(attr) + `\s+is\s+"[^"]+",\s+but\s+the\s+manager\s+has\s+no`),
			}})
			if n := env.writes() - before; n != 0 {
				t.Errorf("%s: the plan failed after %d write requests, want none", ref, n)
			}
		})
	}
}
