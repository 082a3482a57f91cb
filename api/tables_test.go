package api

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The spec's sections 4.2 to 4.9 list 81 endpoints, each once.
func TestEndpointsAreEightyOne(t *testing.T) {
	endpoints, err := Endpoints()
	if err != nil {
		t.Fatal(err)
	}
	if len(endpoints) != 81 {
		t.Errorf("%d endpoints, want 81", len(endpoints))
	}
	perSection := map[string]int{}
	seen := map[string]bool{}
	for _, e := range endpoints {
		perSection[e.Section]++
		if seen[e.Route] {
			t.Errorf("%s listed twice", e.Route)
		}
		seen[e.Route] = true
	}
	// The counts of the spec's tables, so that a table the parser skips shows.
	want := map[string]int{"4.2": 16, "4.3": 11, "4.4": 7, "4.5": 9, "4.6": 11, "4.7": 14, "4.8": 8, "4.9": 5}
	for s, n := range want {
		if perSection[s] != n {
			t.Errorf("section %s: %d endpoints, want %d", s, perSection[s], n)
		}
	}
}

// Every endpoint has exactly one row in coverage.md, under its own section, and every
// row is an endpoint; each row names at least one client call and one type.
func TestCoverageHasOneRowPerEndpoint(t *testing.T) {
	endpoints, err := Endpoints()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Coverage()
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range coverageMismatches(endpoints, rows) {
		t.Error(msg)
	}
}

// coverageMismatches is what is wrong with rows as the coverage of endpoints.
func coverageMismatches(endpoints []Endpoint, rows []Row) []string {
	var out []string
	type key struct{ method, path string }
	bySpec := map[key]Endpoint{}
	for _, e := range endpoints {
		bySpec[key{e.Method, e.Path}] = e
	}
	rowsOf := map[key]int{}
	for _, r := range rows {
		k := key{r.Method, r.Path}
		rowsOf[k]++
		e, ok := bySpec[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("coverage.md line %d: %s %s is no endpoint of rest-interface.md", r.Line, r.Method, r.Path))
		case e.Section != r.Section:
			out = append(out, fmt.Sprintf("coverage.md line %d: %s %s is in section %s, not %s", r.Line, r.Method, r.Path, e.Section, r.Section))
		}
		if len(r.Calls) == 0 || len(r.Types) == 0 {
			out = append(out, fmt.Sprintf("coverage.md line %d: no client call or no type", r.Line))
		}
	}
	for _, e := range endpoints {
		if n := rowsOf[key{e.Method, e.Path}]; n != 1 {
			out = append(out, fmt.Sprintf("%s %s (%s) has %d rows in coverage.md, want 1", e.Method, e.Path, e.Section, n))
		}
	}
	return out
}

// The check above finds each kind of wrong table.
func TestCoverageMismatchesFindsWrongTables(t *testing.T) {
	endpoints := []Endpoint{{Section: "4.6", Method: "GET", Path: "/rest/nodes"}, {Section: "4.6", Method: "POST", Path: "/rest/nodes"}}
	row := func(line int, section, method, path string) Row {
		return Row{Line: line, Section: section, Method: method, Path: path,
			Calls: []string{"(*apm.Client).ListNodes"}, Types: []TypeRef{{Kind: "data source", Name: "apm_nodes"}}}
	}
	for name, tc := range map[string]struct {
		rows []Row
		want string
	}{
		"missing":       {[]Row{row(1, "4.6", "GET", "/rest/nodes")}, "POST /rest/nodes (4.6) has 0 rows"},
		"twice":         {[]Row{row(1, "4.6", "GET", "/rest/nodes"), row(2, "4.6", "POST", "/rest/nodes"), row(3, "4.6", "POST", "/rest/nodes")}, "POST /rest/nodes (4.6) has 2 rows"},
		"not in spec":   {[]Row{row(1, "4.6", "GET", "/rest/nodes"), row(2, "4.6", "POST", "/rest/nodes"), row(3, "4.6", "PUT", "/rest/nodes")}, "line 3: PUT /rest/nodes is no endpoint"},
		"wrong section": {[]Row{row(1, "4.6", "GET", "/rest/nodes"), row(2, "4.5", "POST", "/rest/nodes")}, "is in section 4.6, not 4.5"},
		"no type":       {[]Row{row(1, "4.6", "GET", "/rest/nodes"), {Line: 2, Section: "4.6", Method: "POST", Path: "/rest/nodes", Calls: []string{"x"}}}, "line 2: no client call or no type"},
	} {
		t.Run(name, func(t *testing.T) {
			got := coverageMismatches(endpoints, tc.rows)
			if len(got) != 1 || !strings.Contains(got[0], tc.want) {
				t.Errorf("mismatches %q, want one containing %q", got, tc.want)
			}
		})
	}
	if got := coverageMismatches(endpoints, []Row{row(1, "4.6", "GET", "/rest/nodes"), row(2, "4.6", "POST", "/rest/nodes")}); len(got) != 0 {
		t.Errorf("a right table: %q", got)
	}
}

func TestParseEndpoints(t *testing.T) {
	md := strings.Join([]string{
		"### 4.1 Conventions", "| GET | /not/an/endpoint | x |",
		"### 4.2 WAS servers", "| Method | Path | Purpose |", "|---|---|---|",
		"| GET | /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName} | detail |",
		"| POST | .../systems/{systemName}/session | session |",
		"### 4.8 Metrics (all GET)", "| Path | Purpose |", "|---|---|", "| /meters/nodes | all |",
		"### 4.10 Bodies", "| GET /rest/x | none |",
	}, "\n")
	got, err := parseEndpoints(md)
	if err != nil {
		t.Fatal(err)
	}
	want := []Endpoint{
		{"4.2", "GET", "/rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}", "GET /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}"},
		{"4.2", "POST", ".../systems/{systemName}/session", "POST /rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}/session"},
		{"4.8", "GET", "/meters/nodes", "GET /meters/nodes"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	for name, tc := range map[string]struct{ md, want string }{
		"no tables":         {"### 4.2 WAS servers\ntext", "no endpoint tables"},
		"no method column":  {"### 4.2 WAS servers\n| Path | Purpose |\n|---|---|\n| /x | y |", "without Method and Path columns"},
		"bad method":        {"### 4.2 WAS servers\n| Method | Path |\n|---|---|\n| FETCH | /x |", `no HTTP method: "FETCH"`},
		"... with no start": {"### 4.2 WAS servers\n| Method | Path |\n|---|---|\n| POST | .../systems/{s}/session |", "no earlier full path of its section"},
		"relative path":     {"### 4.2 WAS servers\n| Method | Path |\n|---|---|\n| GET | rest/x |", "neither absolute"},
	} {
		if _, err := parseEndpoints(tc.md); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
}

func TestParseCoverage(t *testing.T) {
	table := func(rows ...string) string {
		return "| Test | Checks |\n|---|---|\n| a | b |\n\n| § | Method | Path | Client calls | Reached from |\n|---|---|---|---|---|\n" +
			strings.Join(rows, "\n") + "\n"
	}
	got, err := parseCoverage(table("| 4.2 | POST | /rest/was/servers | `(*apm.Client).InstallServer`, `(*apm.Client).RegisterServer` | " +
		"resource `apm_was_server` (create, update); action `apm_was_server_start`; list resource `apm_was_server`; data source `apm_was_servers` |"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{{Line: 7, Section: "4.2", Method: "POST", Path: "/rest/was/servers",
		Calls: []string{"(*apm.Client).InstallServer", "(*apm.Client).RegisterServer"},
		Types: []TypeRef{{"resource", "apm_was_server", "create, update"}, {"action", "apm_was_server_start", ""},
			{"list resource", "apm_was_server", ""}, {"data source", "apm_was_servers", ""}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
	for name, tc := range map[string]struct{ md, want string }{
		"no table":       {"# nothing\n", "0 tables"},
		"two tables":     {table() + "\n" + table(), "2 tables"},
		"call unmarked":  {table("| 4.6 | GET | /rest/nodes | ListNodes | data source `apm_nodes` |"), `client call "ListNodes"`},
		"call of other":  {table("| 4.6 | GET | /rest/nodes | `(*apm.Sim).ListNodes` | data source `apm_nodes` |"), "client call"},
		"unknown kind":   {table("| 4.6 | GET | /rest/nodes | `(*apm.Client).ListNodes` | ephemeral `apm_nodes` |"), `type "ephemeral`},
		"comma in types": {table("| 4.6 | GET | /rest/nodes | `(*apm.Client).ListNodes` | data source `apm_nodes`, list resource `apm_node` |"), "type"},
		"cells":          {table("| 4.6 | GET | /rest/nodes | `(*apm.Client).ListNodes` |"), "4 cells, want 5"},
	} {
		if _, err := parseCoverage(tc.md); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
}
