// Command doclists writes the generated blocks of README.md and templates/index.md.tmpl:
// the docs index's list of the types the provider serves, from its registry (README.md links
// the index instead of carrying the list), and README.md's support
// matrix, from the acceptance tests' feature table (internal/clifeatures). scripts/docs.sh
// runs it before tfplugindocs reads templates/; internal/repocheck fails when the files
// differ from what it writes.
//
//	doclists [-root DIR]   DIR is the repository (default: the working directory)
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apmplatform/terraform-provider-apm/internal/doclists"
)

func main() {
	root := flag.String("root", ".", "the repository's root directory")
	flag.Parse()
	if err := run(context.Background(), *root, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "doclists:", err)
		os.Exit(1)
	}
}

// run writes every generated block under root that differs from what the provider and the
// feature table give, naming each one it writes on out.
func run(ctx context.Context, root string, out io.Writer) error {
	types, err := doclists.Served(ctx, root)
	if err != nil {
		return err
	}
	return write(root, doclists.Blocks(types), out)
}

// write puts each block's body into its file, leaving a file whose blocks are up to date
// untouched.
func write(root string, blocks []doclists.Block, out io.Writer) error {
	for _, b := range blocks {
		path := filepath.Join(root, filepath.FromSlash(b.File))
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("reading %s: %w", b.File, err)
		}
		text, err := b.Replace(string(data))
		if err != nil {
			return err
		}
		if text == string(data) {
			continue
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil { //nolint:gosec // a tracked text file
			return fmt.Errorf("writing %s: %w", b.File, err)
		}
		fmt.Fprintf(out, "%s: wrote %s\n", b.File, b.What)
	}
	return nil
}
