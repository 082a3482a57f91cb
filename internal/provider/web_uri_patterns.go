package provider

import (
	"context"
	"regexp"
	"slices"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

const webURIPatternsAttr = "patterns"

var webURIPatternsFields = []engine.Field[webPart]{
	webPartIDField("set of URI patterns"),
	webServerRefField("URI patterns"),
	engine.CustomField(webURIPatternsAttr, rschema.SetAttribute{
		MarkdownDescription: "The URI patterns the web server routes to its workers, such as `/api/*`, all of them: each starts with `/` and has no white space. " +
			"A pattern added outside Terraform shows in the next plan and apply removes it; one removed outside is added again. " +
			"Apply sends only the patterns added and removed. Updated in place.",
		ElementType: types.StringType, Required: true,
		Validators: []validator.Set{setvalidator.ValueStringsAre(
			stringvalidator.RegexMatches(regexp.MustCompile(`^/\S*$`), "must start with / and contain no white space"))},
	}, stringSetType, func(p *webPart) tftypes.Value { return stringSetValue(p.URIs) }).
		ReportedWhen(func(p *webPart) bool { return p.Reported.URIs }).
		WithDataAttribute(dschema.SetAttribute{MarkdownDescription: "The URI patterns the web server routes to its workers, such as `/api/*`.", ElementType: types.StringType, Computed: true}),
}

var webURIPatternsType = resourceType[webPart]{
	Noun:             "URI pattern set",
	IdempotentCreate: true,
	Name:             "web_uri_patterns",
	Description: "The URI patterns of a web server, such as `/api/*`: the requests it forwards to its load-balancer workers. The set is authoritative: " +
		"creating it removes the patterns the web server has beyond it, a pattern added outside Terraform shows in the next plan and apply removes it. " +
		"A web server has one such set; destroying it removes its patterns.",
	Fields:     webURIPatternsFields,
	References: []reference{refersTo(attrWebServerID, webServerParent)},
	ImportID:   webPartImportID,
	Describe:   func(a engine.Attrs) string { return "URI patterns of " + webPartServer(a) },
	Create:     createWebURIPatterns,
	Read:       readWebPart,
	Update: func(ctx context.Context, c *conn, plan, state engine.Attrs) error {
		return changeWebURIPatterns(ctx, c, plan, stringsOf(state[webURIPatternsAttr]), stringsOf(plan[webURIPatternsAttr]))
	},
	Delete: func(ctx context.Context, c *conn, state engine.Attrs) error {
		return changeWebURIPatterns(ctx, c, state, stringsOf(state[webURIPatternsAttr]), nil)
	},
}

// createWebURIPatterns makes the web server's patterns the plan's: those it has beyond
// them are removed. A manager that does not report its patterns gets the plan's added.
func createWebURIPatterns(ctx context.Context, c *conn, plan engine.Attrs) error {
	p, err := readWebPart(ctx, c, plan)
	if err != nil {
		return err
	}
	var have []string
	if p.Reported.URIs {
		have = p.URIs
	}
	return changeWebURIPatterns(ctx, c, plan, have, stringsOf(plan[webURIPatternsAttr]))
}

// changeWebURIPatterns sends what turns the patterns have into want: one request with
// the additions and one with the removals, each only when there are some.
func changeWebURIPatterns(ctx context.Context, c *conn, a engine.Attrs, have, want []string) error {
	var add, remove []string
	for _, u := range want {
		if !slices.Contains(have, u) {
			add = append(add, u)
		}
	}
	for _, u := range have {
		if !slices.Contains(want, u) {
			remove = append(remove, u)
		}
	}
	slices.Sort(add)
	slices.Sort(remove)
	return onWebServer(ctx, c, a, func(ref apm.ServerRef) error {
		if len(add) > 0 {
			if err := c.AddURIs(ctx, ref, add); err != nil {
				return err
			}
		}
		if len(remove) > 0 {
			return c.DeleteURIs(ctx, ref, remove)
		}
		return nil
	})
}

// webURIPatternsList lists the URI patterns of a web server: one set when it has any.
var webURIPatternsList = webPartList{
	read:     readWebPart,
	reported: func(p *webPart) bool { return p.Reported.URIs },
	present:  func(p *webPart) bool { return len(p.URIs) > 0 },
	what:     "URI patterns", typeName: "apm_web_uri_patterns",
}

var newWebURIPatternsDataSource = engine.NewListDataSource(listDataSourceType[webPart]{
	Name: "web_uri_patterns",
	Description: "Lists the URI patterns of one web server as the set that `apm_web_uri_patterns` manages, with the ID to import it: " +
		"one item when the web server has URI patterns, none when it has not.",
	ListName:        "pattern_sets",
	ListDescription: "The web server's set of URI patterns: at most one.",
	Fields:          webURIPatternsFields,
	Filters:         webServerFilter("URI patterns"),
	List: func(ctx context.Context, c *conn, config engine.Attrs) ([]webPart, error) {
		return webURIPatternsList.list(ctx, c, config.Str(attrWebServerID))
	},
	Imports: webURIPatternsType.Target(),
})
