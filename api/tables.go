// Package api holds the manager's interface (rest-interface.md) and the table of what
// reaches each of its endpoints (coverage.md), and reads their endpoint tables for the
// tests that hold the client, the emulator and the provider to them. Nothing outside the
// tests imports it.
package api

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

//go:embed rest-interface.md
var restInterface string

//go:embed coverage.md
var coverage string

// Endpoint is one row of the endpoint tables of rest-interface.md, sections 4.2 to 4.9.
type Endpoint struct {
	Section string // "4.2"
	Method  string
	Path    string // as written, perhaps starting with "..."
	// Route is "METHOD /full/path", with a leading "..." replaced by the path it stands
	// for: the spelling of internal/conformance's specEndpoints and of Go's ServeMux.
	Route string
}

// Row is one row of coverage.md.
type Row struct {
	Line    int // in coverage.md, for messages
	Section string
	Method  string
	Path    string   // as written in rest-interface.md
	Calls   []string // "(*apm.Client).StartServer"
	Types   []TypeRef
}

// TypeRef is one Terraform type that reaches an endpoint.
type TypeRef struct {
	Kind string // "resource", "data source", "list resource" or "action"
	Name string // "apm_was_server"
	Note string // what of the type reaches it ("create"), or ""
}

func (t TypeRef) String() string { return t.Kind + " " + t.Name }

// Endpoints reads the endpoints of the embedded rest-interface.md.
func Endpoints() ([]Endpoint, error) { return parseEndpoints(restInterface) }

// Coverage reads the rows of the embedded coverage.md.
func Coverage() ([]Row, error) { return parseCoverage(coverage) }

var (
	sectionHeading = regexp.MustCompile(`^### (4\.[2-9]) (.*)$`)
	separatorRow   = regexp.MustCompile(`^\|[-:| ]+\|$`)
	methodName     = regexp.MustCompile(`^(GET|POST|PUT|PATCH|DELETE)$`)
)

// parseEndpoints reads the tables of sections 4.2 to 4.9. A table has a Method and a Path
// column, or only a Path column under a heading that says "(all GET)". A path starting
// with "..." continues the first full path of its section that has the segment after the
// "...": in 4.2, ".../systems/{systemName}/session" continues the detail path
// "/rest/was/servers/{serverId}/nodes/{nodeName}/systems/{systemName}".
func parseEndpoints(md string) ([]Endpoint, error) {
	var (
		out       []Endpoint
		section   string
		allGET    bool
		methodCol = -1
		pathCol   = -1
		fullPaths []string // of the section
		inTable   bool
	)
	for i, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "### ") {
			m := sectionHeading.FindStringSubmatch(line)
			section, inTable, fullPaths = "", false, nil
			if m != nil {
				section, allGET = m[1], strings.Contains(m[2], "(all GET)")
			}
			continue
		}
		if section == "" || !strings.HasPrefix(line, "|") {
			inTable = false
			continue
		}
		cells := tableCells(line)
		switch {
		case !inTable:
			inTable, methodCol, pathCol = true, slices.Index(cells, "Method"), slices.Index(cells, "Path")
			if pathCol < 0 || (methodCol < 0 && !allGET) {
				return nil, fmt.Errorf("rest-interface.md line %d: section %s: a table without Method and Path columns: %s", i+1, section, line)
			}
			continue
		case separatorRow.MatchString(line):
			continue
		}
		if len(cells) <= max(methodCol, pathCol) {
			return nil, fmt.Errorf("rest-interface.md line %d: too few cells: %s", i+1, line)
		}
		e := Endpoint{Section: section, Method: "GET", Path: cells[pathCol]}
		if methodCol >= 0 {
			e.Method = cells[methodCol]
		}
		if !methodName.MatchString(e.Method) {
			return nil, fmt.Errorf("rest-interface.md line %d: no HTTP method: %q", i+1, e.Method)
		}
		full, err := expandPath(e.Path, fullPaths)
		if err != nil {
			return nil, fmt.Errorf("rest-interface.md line %d: %w", i+1, err)
		}
		if full == e.Path {
			fullPaths = append(fullPaths, full)
		}
		e.Route = e.Method + " " + full
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("rest-interface.md: no endpoint tables in sections 4.2 to 4.9")
	}
	return out, nil
}

// expandPath replaces a leading "..." of path by the part before the segment that follows
// the "..." of the first of fullPaths that has that segment.
func expandPath(path string, fullPaths []string) (string, error) {
	rest, ok := strings.CutPrefix(path, "...")
	if !ok {
		if !strings.HasPrefix(path, "/") {
			return "", fmt.Errorf("path %q is neither absolute nor continues another (a leading \"...\")", path)
		}
		return path, nil
	}
	seg, _, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
	for _, full := range fullPaths {
		if at := strings.LastIndex(full, "/"+seg+"/"); seg != "" && at >= 0 {
			return full[:at] + rest, nil
		}
	}
	return "", fmt.Errorf("path %q: no earlier full path of its section has the segment %q", path, seg)
}

var (
	callName = regexp.MustCompile("^`(\\(\\*apm\\.Client\\)\\.[A-Z][A-Za-z0-9]*)`$")
	typeRef  = regexp.MustCompile("^(resource|data source|list resource|action) `(apm_[a-z0-9_]+)`(?: \\(([^()]+)\\))?$")
)

// coverageHeader is the header row of the table in coverage.md.
var coverageHeader = []string{"§", "Method", "Path", "Client calls", "Reached from"}

// parseCoverage reads the table of coverage.md whose header is coverageHeader: calls
// separated by ", ", types by "; ", every cell in the form coverage.md describes. Other
// tables are left alone.
func parseCoverage(md string) ([]Row, error) {
	var (
		rows             []Row
		inTable, inOther bool
		tables           int
	)
	for i, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			inTable, inOther = false, false
			continue
		}
		cells := tableCells(line)
		switch {
		case inOther:
			continue
		case !inTable:
			inTable = slices.Equal(cells, coverageHeader)
			inOther = !inTable
			if inTable {
				tables++
			}
			continue
		case separatorRow.MatchString(line):
			continue
		}
		row, err := parseRow(cells)
		if err != nil {
			return nil, fmt.Errorf("coverage.md line %d: %w", i+1, err)
		}
		row.Line = i + 1
		rows = append(rows, row)
	}
	if tables != 1 {
		return nil, fmt.Errorf("coverage.md has %d tables with the header %q, want 1", tables, coverageHeader)
	}
	return rows, nil
}

func parseRow(cells []string) (Row, error) {
	if len(cells) != len(coverageHeader) {
		return Row{}, fmt.Errorf("%d cells, want %d", len(cells), len(coverageHeader))
	}
	row := Row{Section: cells[0], Method: cells[1], Path: cells[2]}
	for _, c := range strings.Split(cells[3], ", ") {
		m := callName.FindStringSubmatch(c)
		if m == nil {
			return Row{}, fmt.Errorf("client call %q is not `(*apm.Client).Method`", c)
		}
		row.Calls = append(row.Calls, m[1])
	}
	for _, c := range strings.Split(cells[4], "; ") {
		m := typeRef.FindStringSubmatch(c)
		if m == nil {
			return Row{}, fmt.Errorf("type %q is not resource|data source|list resource|action `apm_name` (note)", c)
		}
		row.Types = append(row.Types, TypeRef{Kind: m[1], Name: m[2], Note: m[3]})
	}
	return row, nil
}

// tableCells splits a Markdown table row into its trimmed cells.
func tableCells(line string) []string {
	cells := strings.Split(strings.Trim(line, "|"), "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}
