package provider

import (
	"os/exec"
	"strings"
	"testing"
)

// The layers, as `go list -deps` sees them: the client knows nothing of Terraform, the
// engine nothing of the provider's types, and the Terraform glue reasons in the client's
// error kinds, not in HTTP.
func TestLayers(t *testing.T) {
	const module = "github.com/apmplatform/terraform-provider-apm/"
	rules := []struct {
		pkg    string
		deps   bool // all dependencies, else the package's own imports
		forbid []string
		why    string
	}{
		// The client logs through terraform-plugin-log (so that TF_LOG reaches it), and
		// knows nothing else of Terraform.
		{"internal/apm", true, []string{"github.com/hashicorp/terraform-plugin-framework", "github.com/hashicorp/terraform-plugin-go", module + "internal/provider"},
			"the API client has no Terraform types"},
		{"internal/provider/engine", true, []string{module + "internal/provider\n", module + "internal/apmsim"}, "the engine knows no type"},
		{"internal/provider", false, []string{"net/http\n", module + "internal/apmsim"}, "the glue gets error kinds from the client"},
		{"internal/provider/engine", false, []string{"net/http\n"}, "the engine gets error kinds from the client"},
		{"internal/tfserver", true, []string{module + "internal/"}, "the server wrapper serves any framework provider"},
	}
	for _, r := range rules {
		format := "{{range .Imports}}{{.}}\n{{end}}"
		if r.deps {
			format = "{{range .Deps}}{{.}}\n{{end}}"
		}
		out, err := exec.Command("go", "list", "-f", format, module+r.pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", r.pkg, err, out)
		}
		list := string(out)
		for _, f := range r.forbid {
			if strings.Contains(list, f) {
				t.Errorf("%s depends on %s, but %s", r.pkg, strings.TrimSpace(f), r.why)
			}
		}
	}
}
