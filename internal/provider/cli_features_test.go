package provider

import (
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
)

// needs skips an acceptance test whose CLI lacks one of features, naming the feature and
// the version that has it. It calls accCLI, so it also skips without TF_ACC. Every version
// gate of the tests goes through the feature table (internal/clifeatures) so that README.md's
// support matrix, rendered from it, says what the tests prove on each CLI; the rule is
// enforced by internal/repocheck's TestVersionGatesGoThroughTheFeatureTable.
func needs(t *testing.T, features ...clifeatures.Feature) (cli, version string) {
	t.Helper()
	cli, version = accCLI(t)
	for _, f := range features {
		if why := f.Missing(version); why != "" {
			t.Skip(why)
		}
	}
	return cli, version
}
