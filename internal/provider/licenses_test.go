package provider

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// Licenses carry what the manager reads, and their days left count from today in the
// configured zone; a check block can compare them.
func TestAccLicenses_daysUntilExpiry(t *testing.T) {
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo))
	// A third node has a trial license that ran out a week before its registration.
	env.must(env.admin.CreateNode(env.ctx(), apm.CreateNodeRequest{NodeName: "batch-01", SystemName: "shop", HostIP: "10.0.0.31", AgentPort: 7730}))
	licenses, err := env.admin.ListLicenses(env.ctx())
	env.must(err)
	if len(licenses) == 0 {
		t.Fatal("the demo seed has no licenses")
	}
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	env.must(err)

	checks := []resource.TestCheckFunc{resource.TestCheckResourceAttr("data.apm_licenses.all", "licenses.#", strconv.Itoa(len(licenses)))}
	byName := map[string]apm.License{}
	for _, l := range licenses {
		byName[l.NodeName] = l
	}
	expired := 0
	for i, n := range slices.Sorted(maps.Keys(byName)) {
		l := byName[n]
		days := *daysUntil(l.ExpireDate, time.Now(), tokyo)
		if days < 0 {
			expired++
		}
		checks = append(checks, attrValues("data.apm_licenses.all", fmt.Sprintf("licenses.%d.", i), map[string]string{
			"node_name":         l.NodeName,
			"license_type":      l.LicenseType,
			"expire_date":       l.ExpireDate.Raw,
			"max_cpu":           strconv.FormatInt(l.MaxCPU, 10),
			"days_until_expiry": strconv.FormatInt(days, 10),
		})...)
	}
	if expired == 0 {
		t.Fatalf("the demo seed should have an expired (trial) license: %+v", licenses)
	}
	checks = append(checks, resource.TestCheckOutput("expired", strconv.Itoa(expired)))

	runAcc(t, nil, []resource.TestStep{{
		Config: env.zonedConfig("Asia/Tokyo", tf(t, "licenses/all.tf")+tf(t, "licenses/expiry_check.tf")),
		Check:  resource.ComposeAggregateTestCheckFunc(checks...),
	}})
}

// A bad time zone fails at validate time: nothing is asked of the manager.
func TestAccLicenses_badTimeZone(t *testing.T) {
	licenses := tf(t, "licenses/all.tf")
	testBadFilters(t, []badFilter{
		{"Mars/Olympus_Mons", licenses, []string{"Invalid time zone", "Mars/Olympus_Mons"}},
		{"Local", licenses, []string{"Invalid time zone"}},
	})
}
