// Command testsummary summarises `go test -json` logs, one per Terraform CLI, for scripts/testacc.sh.
//
// Usage:
//
//	go run ./scripts/testsummary [-prefix acceptance] LABEL=FILE...
//
// For each log it prints the passed, failed and skipped top-level tests, the reason of every skip and
// the output of every failure. It ends with one total line, "[prefix: ]N passed, N failed, N skipped".
// It exits 1 when any test or package failed, a package did not build, a test started but never
// finished (panic, os.Exit, timeout), or a log holds no passing test (nothing ran, or everything skipped).
// With -complete LABEL it also fails when a test of that log skipped for want of a CLI version: on the
// newest CLI every test must run.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string // build-output and build-fail events
	FailedBuild string // package fail caused by a build failure
}

type testKey struct{ pkg, test string }

// summary is the result of one log.
type summary struct {
	Passed, Failed, Skipped []string
	SkipReasons             map[string]string // test -> reason
	FailOutput              map[string]string // test or package -> output
	PackageFailures         []string          // packages that failed without a failing test
	BuildFailures           []string
	Unfinished              []string // tests that started and never ended
}

func (s *summary) ok() bool {
	return len(s.Failed) == 0 && len(s.PackageFailures) == 0 && len(s.BuildFailures) == 0 &&
		len(s.Unfinished) == 0 && len(s.Passed) > 0
}

// versionSkip matches the reasons of skips for want of a CLI version or feature:
// plugin-testing's tfversion checks and the acceptance tests' feature table ("... is below
// minimum version 1.14 for actions", "Terraform has no ..."), and older wording ("... needs
// Terraform 1.14 or later").
var versionSkip = regexp.MustCompile(`below minimum version|^(Terraform|OpenTofu) has no |needs .* or later`)

// location matches the "file_test.go:123: " prefix of t.Log/t.Skip lines.
var location = regexp.MustCompile(`^\s*[\w.\-]+\.go:\d+: `)

// summarise reads one `go test -json` stream. Only top-level tests are counted; the output of
// a failing subtest is kept under its own name.
func summarise(r io.Reader) (*summary, error) {
	s := &summary{SkipReasons: map[string]string{}, FailOutput: map[string]string{}}
	output := map[testKey]*strings.Builder{}
	started := map[testKey]bool{}
	var order []testKey
	buildOutput := map[string]*strings.Builder{}
	pkgFailed := map[string]bool{}
	pkgHasTestFailure := map[string]bool{}

	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1024*1024), 64*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue // e.g. "FAIL" lines go prints outside the JSON stream on build errors
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			continue
		}
		switch e.Action {
		case "build-output":
			if buildOutput[e.ImportPath] == nil {
				buildOutput[e.ImportPath] = &strings.Builder{}
			}
			buildOutput[e.ImportPath].WriteString(e.Output)
			continue
		case "build-fail":
			s.BuildFailures = append(s.BuildFailures, e.ImportPath)
			continue
		}
		if e.Test == "" {
			if e.Action == "fail" {
				if e.FailedBuild == "" {
					pkgFailed[e.Package] = true
				} else if !contains(s.BuildFailures, e.FailedBuild) {
					s.BuildFailures = append(s.BuildFailures, e.FailedBuild)
				}
			}
			if e.Action == "output" {
				k := testKey{e.Package, ""}
				if output[k] == nil {
					output[k] = &strings.Builder{}
				}
				output[k].WriteString(e.Output)
			}
			continue
		}
		k := testKey{e.Package, e.Test}
		switch e.Action {
		case "run":
			if !started[k] {
				started[k] = true
				order = append(order, k)
			}
		case "output":
			if output[k] == nil {
				output[k] = &strings.Builder{}
			}
			output[k].WriteString(e.Output)
		case "pass", "fail", "skip":
			started[k] = false
			name := k.test
			topLevel := !strings.Contains(name, "/")
			switch e.Action {
			case "pass":
				if topLevel {
					s.Passed = append(s.Passed, name)
				}
			case "skip":
				if topLevel {
					s.Skipped = append(s.Skipped, name)
					s.SkipReasons[name] = skipReason(output[k])
				}
			case "fail":
				pkgHasTestFailure[e.Package] = true
				if topLevel {
					s.Failed = append(s.Failed, name)
				}
				if output[k] != nil {
					s.FailOutput[name] = output[k].String()
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, k := range order {
		if started[k] && !strings.Contains(k.test, "/") {
			pkgHasTestFailure[k.pkg] = true
			s.Unfinished = append(s.Unfinished, k.test)
			if output[k] != nil {
				s.FailOutput[k.test] = output[k].String()
			}
		}
	}
	for _, p := range s.BuildFailures {
		if b := buildOutput[p]; b != nil {
			s.FailOutput["build "+p] = b.String()
		}
	}
	var pkgs []string
	for p := range pkgFailed {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		if !pkgHasTestFailure[p] {
			s.PackageFailures = append(s.PackageFailures, p)
			if o := output[testKey{p, ""}]; o != nil {
				s.FailOutput["package "+p] = o.String()
			}
		}
	}
	return s, nil
}

// skipReason returns the message of t.Skip: the last logged line before "--- SKIP".
func skipReason(out *strings.Builder) string {
	if out == nil {
		return "(no reason given)"
	}
	var reason string
	for _, l := range strings.Split(out.String(), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		reason = strings.TrimSpace(location.ReplaceAllString(l, ""))
	}
	if reason == "" {
		return "(no reason given)"
	}
	return reason
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func indent(text string) string {
	text = strings.TrimRight(text, "\n")
	return "      " + strings.ReplaceAll(text, "\n", "\n      ")
}

func run(args []string, stdout io.Writer) (bool, error) {
	fs := flag.NewFlagSet("testsummary", flag.ContinueOnError)
	prefix := fs.String("prefix", "", "one word printed before the total line")
	complete := fs.String("complete", "", "the label of a log in which no test may skip for want of a CLI version")
	if err := fs.Parse(args); err != nil {
		return false, err
	}
	if fs.NArg() == 0 {
		return false, errors.New("usage: testsummary [-prefix WORD] LABEL=FILE")
	}
	allOK := true
	var passed, failed, skipped int
	for _, arg := range fs.Args() {
		label, file, found := strings.Cut(arg, "=")
		if !found {
			label, file = arg, arg
		}
		f, err := os.Open(file)
		if err != nil {
			return false, err
		}
		s, err := summarise(f)
		_ = f.Close()
		if err != nil {
			return false, fmt.Errorf("%s: %w", file, err)
		}
		passed += len(s.Passed)
		failed += len(s.Failed) + len(s.Unfinished)
		skipped += len(s.Skipped)

		status := "ok"
		if !s.ok() {
			status = "FAILED"
			allOK = false
		}
		fmt.Fprintf(stdout, "%s: %d passed, %d failed, %d skipped [%s] (log: %s)\n",
			label, len(s.Passed), len(s.Failed)+len(s.Unfinished), len(s.Skipped), status, file)
		for _, t := range s.Skipped {
			fmt.Fprintf(stdout, "  SKIP %s: %s\n", t, s.SkipReasons[t])
		}
		for _, t := range s.Failed {
			fmt.Fprintf(stdout, "  FAIL %s\n", t)
		}
		for _, t := range s.Unfinished {
			fmt.Fprintf(stdout, "  FAIL %s (started, never finished: panic, os.Exit or timeout)\n", t)
		}
		for _, p := range s.BuildFailures {
			fmt.Fprintf(stdout, "  BUILD FAILED %s\n", p)
		}
		for _, p := range s.PackageFailures {
			fmt.Fprintf(stdout, "  PACKAGE FAILED %s (no failing test reported)\n", p)
		}
		if len(s.Passed) == 0 {
			fmt.Fprintf(stdout, "  no test passed: nothing ran, or every test skipped\n")
		}
		if label == *complete {
			for _, t := range s.Skipped {
				if versionSkip.MatchString(s.SkipReasons[t]) {
					fmt.Fprintf(stdout, "  FAIL %s skipped for want of a version on the newest CLI\n", t)
					allOK = false
				}
			}
		}
		var keys []string
		for k := range s.FailOutput {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(stdout, "  --- output of %s:\n%s\n", k, indent(s.FailOutput[k]))
		}
	}
	total := fmt.Sprintf("%d passed, %d failed, %d skipped", passed, failed, skipped)
	if *prefix != "" {
		total = *prefix + ": " + total
	}
	fmt.Fprintln(stdout, total)
	return allOK, nil
}

func main() {
	ok, err := run(os.Args[1:], os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}
