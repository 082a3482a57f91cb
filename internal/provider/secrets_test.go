package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// With TF_LOG=TRACE the log (the harness writes the CLI's and the in-process provider's
// lines to TF_ACC_LOG_PATH) must show the provider's requests, and never the API key.
func TestAccSecrets_keyNeverLogged(t *testing.T) {
	env := newAccEnv(t)
	dir := t.TempDir()
	cliLog := filepath.Join(dir, "cli.log")
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG_PATH", cliLog)
	t.Setenv(envEndpoint, env.sim.URL)
	t.Setenv(envAPIKey, env.sim.AdminKey)

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: `provider "apm" {}` + nodeConfig("shop", "10.0.0.11", 7730)},
			{
				// A failed request logs too: an out-of-band delete, then the 404 on refresh.
				PreConfig:          func() { env.deleteNode("shop", "web-01") },
				Config:             `provider "apm" {}` + nodeConfig("shop", "10.0.0.11", 7730),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})

	data, err := os.ReadFile(cliLog)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"APM API request", "apm_path=/rest/nodes", "apm_status=404"} {
		if !strings.Contains(text, want) {
			t.Errorf("the TRACE log lacks %q (%d bytes); the check below would prove nothing", want, len(data))
		}
	}
	if strings.Contains(text, env.sim.AdminKey) {
		t.Error("the TRACE log contains the API key")
	}
}
