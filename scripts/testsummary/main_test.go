package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestSummariseMixed(t *testing.T) {
	f, err := os.Open("testdata/mixed.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := summarise(f)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(s.Passed, ","), "TestAccPass,TestAccParallel"; got != want {
		t.Errorf("passed = %q, want %q", got, want)
	}
	if got, want := strings.Join(s.Failed, ","), "TestAccFail"; got != want {
		t.Errorf("failed = %q, want %q", got, want)
	}
	if got, want := strings.Join(s.Unfinished, ","), "TestAccExit"; got != want {
		t.Errorf("unfinished = %q, want %q", got, want)
	}
	if got, want := s.SkipReasons["TestAccSkip"], "Terraform CLI version 1.5.7 is below minimum version 1.8.0"; got != want {
		t.Errorf("skip reason = %q, want %q", got, want)
	}
	if len(s.BuildFailures) != 1 || !strings.HasPrefix(s.BuildFailures[0], "tsdemo/b") {
		t.Errorf("build failures = %q, want tsdemo/b", s.BuildFailures)
	}
	if len(s.PackageFailures) != 0 {
		t.Errorf("package failures = %q, want none (every failure is explained)", s.PackageFailures)
	}
	if !strings.Contains(s.FailOutput["TestAccFail/sub"], "expected value 42") {
		t.Errorf("subtest output not kept: %q", s.FailOutput["TestAccFail/sub"])
	}
	if s.ok() {
		t.Error("ok() = true for a log with failures")
	}
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		files     []string
		ok        bool
		totalLine string
	}{
		{[]string{"pass.json"}, true, "acceptance: 1 passed, 0 failed, 0 skipped"},
		{[]string{"pass.json", "pass.json"}, true, "acceptance: 2 passed, 0 failed, 0 skipped"},
		{[]string{"none.json"}, false, "acceptance: 0 passed, 0 failed, 0 skipped"},              // no test ran
		{[]string{"pass.json", "none.json"}, false, "acceptance: 1 passed, 0 failed, 0 skipped"}, // one CLI ran none
		{[]string{"skipped.json"}, false, "acceptance: 0 passed, 0 failed, 1 skipped"},           // everything skipped
		{[]string{"mixed.json"}, false, "acceptance: 2 passed, 2 failed, 1 skipped"},
	} {
		args := []string{"-prefix", "acceptance"}
		for i, f := range tc.files {
			args = append(args, string(rune('a'+i))+"=testdata/"+f)
		}
		var out bytes.Buffer
		ok, err := run(args, &out)
		if err != nil {
			t.Fatalf("%v: %v", tc.files, err)
		}
		if ok != tc.ok {
			t.Errorf("%v: ok = %v, want %v\n%s", tc.files, ok, tc.ok, out.String())
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if last := lines[len(lines)-1]; last != tc.totalLine {
			t.Errorf("%v: total line = %q, want %q", tc.files, last, tc.totalLine)
		}
	}
}

// On the CLI named by -complete, a skip for want of a version fails the run; elsewhere it is
// only listed.
func TestRunComplete(t *testing.T) {
	for _, tc := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"newest=testdata/version_skip.json"}, true},
		{[]string{"-complete", "newest", "old=testdata/version_skip.json", "newest=testdata/pass.json"}, true},
		{[]string{"-complete", "newest", "newest=testdata/other_skip.json"}, true},
		{[]string{"-complete", "newest", "newest=testdata/version_skip.json"}, false},
		{[]string{"-complete", "newest", "newest=testdata/tfversion_skip.json"}, false}, // plugin-testing's wording
		{[]string{"-complete", "newest", "newest=testdata/feature_skip.json"}, false},   // the feature table's wording
	} {
		var out bytes.Buffer
		ok, err := run(tc.args, &out)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if ok != tc.ok {
			t.Errorf("%v: ok = %v, want %v\n%s", tc.args, ok, tc.ok, out.String())
		}
	}
}
