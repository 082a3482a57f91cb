package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

func systemConfig(name string) string {
	return fmt.Sprintf(`
resource "apm_system" "test" {
  name = %q
}
`, name)
}

func TestAccSystem_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkSystemsGone("payments", "payments-v2"),
		Steps: []resource.TestStep{
			{
				Config: env.config(systemConfig("payments")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("apm_system.test", plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue("apm_system.test", tfjsonpath.New("id")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("apm_system.test", tfjsonpath.New("name"), knownvalue.StringExact("payments")),
					statecheck.ExpectKnownValue("apm_system.test", tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^\S+$`))),
					statecheck.ExpectKnownValue("apm_system.test", tfjsonpath.New("node_count"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue("apm_system.test", tfjsonpath.New("app_count"), knownvalue.Int64Exact(0)),
					sameID.AddStateValue("apm_system.test", tfjsonpath.New("id")),
				},
				Check: env.checkSystemExists("payments"),
			},
			{
				// A rename is an in-place update that keeps the manager's systemId.
				Config: env.config(systemConfig("payments-v2")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("apm_system.test", plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("apm_system.test", tfjsonpath.New("name"), knownvalue.StringExact("payments-v2")),
					sameID.AddStateValue("apm_system.test", tfjsonpath.New("id")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					env.checkSystemExists("payments-v2"),
					env.checkSystemsGone("payments"),
				),
			},
			{
				ResourceName:                         "apm_system.test",
				ImportState:                          true,
				ImportStateId:                        "payments-v2",
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "name",
			},
			{
				ResourceName:    "apm_system.test",
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportStateId:   "payments-v2",
			},
			{
				// Deleted outside Terraform: the next plan creates it again.
				PreConfig:          func() { env.must(env.admin.DeleteSystem(env.ctx(), "payments-v2")) },
				Config:             env.config(systemConfig("payments-v2")),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: env.config(systemConfig("payments-v2")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("apm_system.test", plancheck.ResourceActionCreate),
				}},
				Check: env.checkSystemExists("payments-v2"),
			},
		},
	})
}

func TestAccSystem_renamedOutOfBand(t *testing.T) {
	env := newAccEnv(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             env.checkSystemsGone("orders"),
		Steps: []resource.TestStep{
			{Config: env.config(systemConfig("orders"))},
			{
				// Someone renamed it in the manager: Terraform's name no longer exists.
				PreConfig: func() { env.must(env.admin.RenameSystem(env.ctx(), "orders", "orders-old")) },
				Config:    env.config(systemConfig("orders")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("apm_system.test", plancheck.ResourceActionCreate),
				}},
				Check: env.checkSystemExists("orders"),
			},
			{
				// Clean up the renamed copy so the case ends with nothing left.
				PreConfig: func() { env.must(env.admin.DeleteSystem(env.ctx(), "orders-old")) },
				Config:    env.config(systemConfig("orders")),
				PlanOnly:  true,
			},
		},
	})
}

func TestAccSystem_invalidNameFailsAtPlan(t *testing.T) {
	env := newAccEnv(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      env.config(systemConfig("has space")),
				ExpectError: errorMatching("Attribute name must be 1 to 20 characters", "got: has space"),
			},
			{
				Config:      env.config(systemConfig("a-name-longer-than-20-chars")),
				ExpectError: errorMatching("Attribute name must be 1 to 20 characters"),
			},
		},
	})
	if n := env.writes(); n != 0 {
		t.Errorf("invalid configuration reached the manager: %d write requests", n)
	}
}

func TestAccSystem_conflictSuggestsImport(t *testing.T) {
	env := newAccEnv(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { env.must(env.admin.CreateSystem(env.ctx(), "taken")) },
				Config:      env.config(systemConfig("taken")),
				ExpectError: errorMatching("System already exists: taken", "terraform import apm_system.<name> taken"),
			},
		},
	})
}

func TestAccSystem_viewerKeyIsForbidden(t *testing.T) {
	env := newAccEnv(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      env.configWithKey(env.sim.ViewerKey, systemConfig("readonly")),
				ExpectError: errorMatching("403", "Access denied", "APM_API_KEY"),
			},
		},
	})
	if err := env.checkSystemsGone("readonly")(nil); err != nil {
		t.Error(err)
	}
}

func TestAccProvider_wrongKeyIsUnauthorized(t *testing.T) {
	env := newAccEnv(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      env.configWithKey("not-a-key", systemConfig("nope")),
				ExpectError: errorMatching("401", "Unauthorized", "api_key argument of the provider or the APM_API_KEY"),
			},
		},
	})
}

func TestAccProvider_missingEndpointNamesEnvironment(t *testing.T) {
	t.Setenv(envEndpoint, "")
	t.Setenv(envAPIKey, "")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      `provider "apm" {}` + systemConfig("x"),
				ExpectError: errorMatching("Missing APM endpoint", "APM_ENDPOINT", "Missing APM API key", "APM_API_KEY"),
			},
		},
	})
}

func (e *accEnv) checkSystemExists(name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := e.admin.GetSystem(e.ctx(), name)
		return err
	}
}

// checkSystemsGone passes when none of the named systems exists in the manager.
func (e *accEnv) checkSystemsGone(names ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, name := range names {
			_, err := e.admin.GetSystem(e.ctx(), name)
			if err == nil {
				return fmt.Errorf("system %q still exists", name)
			}
			if !apm.IsNotFound(err) {
				return fmt.Errorf("checking system %q: %w", name, err)
			}
		}
		return nil
	}
}
