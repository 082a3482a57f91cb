// Package docsnippets finds the HCL in the prose docs. Every fenced block whose info string
// is terraform, hcl or tf in README.md, in templates/ (*.tmpl, the guides' and the front
// page's sources) and in docs/guides/ (a guide written there directly) is extracted; the
// files are found by walking those places, so a new guide is found without a change here.
// Two places check the blocks: internal/repocheck parses them all, and internal/provider's
// TestAccDocs_hclSnippets validates and applies the complete ones on a real CLI; this
// package is what they share.
//
// An HTML comment among those right before a block's opening fence (invisible once
// rendered; another comment, such as a guide test's <!-- snippet: name -->, may stand
// between it and the fence) says what the block is:
//
//	(none)                          a complete configuration: it parses, `validate` passes on
//	                                the CLI, it applies against an empty apmsim with an empty
//	                                plan afterwards, and it is destroyed
//	<!-- hcl: no-apply REASON -->   a complete configuration that cannot apply against an empty
//	                                apmsim, REASON saying why (it reads files, needs variables
//	                                or objects the manager must already have): parsed and
//	                                validated only
//	<!-- hcl: fragment -->          part of a configuration (it refers to variables or
//	                                resources it does not declare): parsed only
//	<!-- hcl: needs FEATURE -->     a complete configuration that needs a feature of the CLI
//	                                (the first words of its name in internal/clifeatures,
//	                                such as "actions"): validated on a CLI that has it,
//	                                parsed only on the others; never applied
//
// A block that is the text of a file under examples/ (a page's {{ tffile }}: a .tf file, or a
// module's .tftest.hcl test file) is parsed only: its directory is the configuration, which
// scripts/validate-examples.sh validates and the acceptance tests apply (or test).
//
// A complete configuration may have a terraform block with required_providers
// (source = "apmplatform/apm") and a provider "apm" block: the checks point both at the
// provider built from this tree.
package docsnippets

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Snippet is one fenced HCL block of the docs.
type Snippet struct {
	Where  string // file:line of its opening fence, relative to the repository
	Mode   string // "", "no-apply", "fragment", "example" or "needs"
	Reason string
	Text   string
}

var (
	fence      = regexp.MustCompile("^```(terraform|hcl|tf)\\s*$")
	snippetTag = regexp.MustCompile(`^<!--\s*hcl:\s*(\S+)\s*(.*?)\s*-->\s*$`)
)

// ProseDocs is README.md and the Markdown files and templates under dirs, wherever they
// are, in the repository at root: pages added later are read without a change here.
func ProseDocs(root string, dirs ...string) ([]string, error) {
	files := []string{filepath.Join(root, "README.md")}
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".tmpl")) {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("finding the prose docs: %w", err)
		}
	}
	return files, nil
}

// Find is every HCL block of the prose docs of the repository at root, each text once: a
// guide's template and the page generated from it hold the same blocks.
func Find(root string) ([]Snippet, error) {
	files, err := ProseDocs(root, "templates", filepath.Join("docs", "guides"))
	if err != nil {
		return nil, err
	}
	examples := map[string]bool{}
	err = filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".tf") && !strings.HasSuffix(path, ".tftest.hcl") {
			return err
		}
		data, err := os.ReadFile(path)
		examples[strings.TrimSpace(string(data))] = true
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading the examples: %w", err)
	}
	seen := map[string]bool{}
	var out []Snippet
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("reading the prose docs: %w", err)
		}
		lines := strings.Split(string(data), "\n")
		for i := 0; i < len(lines); i++ {
			if !fence.MatchString(lines[i]) {
				continue
			}
			s := Snippet{Where: fmt.Sprintf("%s:%d", filepath.ToSlash(strings.TrimPrefix(file, root+string(filepath.Separator))), i+1)}
			for j := i - 1; j >= 0 && strings.HasPrefix(strings.TrimSpace(lines[j]), "<!--"); j-- {
				if m := snippetTag.FindStringSubmatch(lines[j]); m != nil {
					s.Mode, s.Reason = m[1], m[2]
					break
				}
			}
			var body []string
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				body = append(body, lines[i])
			}
			s.Text = strings.Join(body, "\n") + "\n"
			if examples[strings.TrimSpace(s.Text)] {
				s.Mode = "example"
			}
			if !seen[s.Text] {
				seen[s.Text] = true
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// Marked is a snippet that a guide marks `<!-- snippet: <name> -->` for a test that runs it
// as written: the language of its fenced block ("terraform" for a file that the template
// includes with tffile) and its text. internal/provider's adoption guide tests run them on
// a CLI, and internal/repocheck checks that they adopt every type.
type Marked struct{ Lang, Text string }

// snippetMarker is a snippet's mark, followed by a fenced block or a tffile directive.
var snippetMarker = regexp.MustCompile("(?m)^<!-- snippet: ([a-z0-9-]+) -->\n" +
	"(?:```([a-z]*)\n((?s:.*?))^```$" + `|\{\{ tffile "([^"]+)" \}\})`)

// MarkedIn is the marked snippets of file (relative to the repository at root), by name.
// A mark that is twice, or that no fenced block or tffile directive follows, is an error.
func MarkedIn(root, file string) (map[string]Marked, error) {
	src, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return nil, fmt.Errorf("reading the guide: %w", err)
	}
	out := map[string]Marked{}
	for _, m := range snippetMarker.FindAllStringSubmatch(string(src), -1) {
		name := m[1]
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%s: snippet %s is marked twice", file, name)
		}
		if included := m[4]; included != "" {
			text, err := os.ReadFile(filepath.Join(root, included))
			if err != nil {
				return nil, fmt.Errorf("%s: snippet %s: %w", file, name, err)
			}
			out[name] = Marked{Lang: "terraform", Text: string(text)}
			continue
		}
		out[name] = Marked{Lang: m[2], Text: m[3]}
	}
	if n := strings.Count(string(src), "<!-- snippet: "); n != len(out) {
		return nil, fmt.Errorf("%s: %d snippet marks, but %d are followed by a fenced block or a tffile directive", file, n, len(out))
	}
	return out, nil
}
