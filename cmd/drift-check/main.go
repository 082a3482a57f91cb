// Command drift-check is the drift check of docs/guides/gitops.md, for Terraform 1.5 and
// later and OpenTofu. Run it in the directory of an initialised configuration:
//
//	drift-check [plan options]   plans (with refresh) and reports: the nightly drift job.
//	                             The options go to `plan` (-var-file=prod.tfvars, -lock=false).
//	drift-check --plan FILE      reports on a plan saved already (`plan -out=FILE`): the
//	                             pull-request job's summary of what the plan changes.
//
// It reads the plan with the CLI's own `show -json` (through hashicorp/terraform-json) and
// decides from that JSON alone, because the exit codes of `plan -detailed-exitcode` do not
// tell drift apart: Terraform 1.11 exits 2 for a refresh-only plan of any resource with a
// number attribute, Terraform 1.15 whenever the configuration has a data source, and the data
// sources of check blocks make every plan exit 2, while OpenTofu exits 0.
//
// Exit status:
//
//	0  no drift: the manager matches the state and the configuration, and every check passes
//	2  drift: names each resource changed outside Terraform or that apply would change, with
//	   the attributes (sensitive values hidden); failing checks are listed too
//	3  no drift, but a check block's assertion failed (a health check)
//	1  error: the plan failed, or its JSON could not be read
//
// The CLI is $DRIFT_CHECK_CLI, else `terraform`, else `tofu` on PATH.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"
)

// The exit statuses.
const (
	statusNone   = 0
	statusError  = 1
	statusDrift  = 2
	statusHealth = 3
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// request is what the command line asks for.
type request struct {
	cli       string
	savedPlan string   // a plan saved by someone else, expected to change things; "" to plan now
	planArgs  []string // options for `plan`
}

func run(args []string, stdout, stderr io.Writer) int {
	req, err := parseArgs(args)
	if err == nil {
		var status int
		status, err = check(req, stdout, stderr)
		if err == nil {
			return status
		}
	}
	fmt.Fprintln(stderr, "drift-check:", err)
	return statusError
}

func parseArgs(args []string) (request, error) {
	for _, arg := range args {
		if arg == "-detailed-exitcode" || arg == "-json" || strings.HasPrefix(arg, "-out=") {
			return request{}, fmt.Errorf("%s is drift-check's own business: leave it out", arg)
		}
	}
	req := request{cli: os.Getenv("DRIFT_CHECK_CLI"), planArgs: args}
	if len(args) > 0 && args[0] == "--plan" {
		if len(args) != 2 {
			return request{}, errors.New("usage: drift-check --plan FILE (a plan saved with plan -out=FILE; no plan options)")
		}
		req.savedPlan, req.planArgs = args[1], nil
		if _, err := os.Stat(req.savedPlan); err != nil {
			return request{}, fmt.Errorf("no saved plan at %s", req.savedPlan)
		}
	}
	if req.cli == "" {
		for _, name := range []string{"terraform", "tofu"} {
			if p, err := exec.LookPath(name); err == nil {
				req.cli = p
				break
			}
		}
		if req.cli == "" {
			return request{}, errors.New("no terraform or tofu on PATH; set DRIFT_CHECK_CLI")
		}
	}
	return req, nil
}

// check plans (unless a saved plan is given), reads the plan and reports.
func check(req request, stdout, stderr io.Writer) (int, error) {
	// A plan file holds the state and the values of variables: the one made here never
	// outlives the run.
	tmp, err := os.MkdirTemp("", "drift-check")
	if err != nil {
		return 0, fmt.Errorf("cannot create a temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)

	planFile := req.savedPlan
	if planFile == "" {
		planFile = filepath.Join(tmp, "drift.tfplan")
		args := append([]string{"plan", "-input=false", "-no-color", "-out=" + planFile}, req.planArgs...)
		if out, err := runCLI(req.cli, args...); err != nil {
			_, _ = stderr.Write(out)
			return 0, fmt.Errorf("%s plan failed", req.cli)
		}
	}
	out, err := runCLI(req.cli, "show", "-json", planFile)
	if err != nil {
		_, _ = stderr.Write(out)
		return 0, fmt.Errorf("%s show -json failed", req.cli)
	}
	var plan tfjson.Plan
	if err := plan.UnmarshalJSON(out); err != nil {
		return 0, fmt.Errorf("the output of show -json is no plan in JSON: %w", err)
	}
	version, _ := runCLI(req.cli, "version")
	first, _, _ := strings.Cut(string(version), "\n")
	return report(stdout, findings(&plan), req.savedPlan != "", strings.TrimSpace(first)), nil
}

// runCLI runs the CLI as in automation and returns its standard output, or its combined
// output when it fails.
func runCLI(cli string, args ...string) ([]byte, error) {
	cmd := exec.Command(cli, args...)
	cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return append(stdout.Bytes(), stderr.Bytes()...), fmt.Errorf("%s %s: %w", cli, args[0], err)
	}
	return stdout.Bytes(), nil
}

// report prints the findings by section and the verdict, and returns the exit status. A
// saved plan is worded as a plan under review, which is expected to change the manager.
func report(w io.Writer, all []finding, saved bool, version string) int {
	status := statusNone
	if section(w, all, kindDrift, "Changed outside Terraform (the refresh found these differences from the state):") {
		status = statusDrift
	}
	if section(w, all, kindChange, "Apply would change (the manager differs from the configuration):") {
		status = statusDrift
	}
	if section(w, all, kindCheck, "Failing checks:") && status == statusNone {
		status = statusHealth
	}
	verdicts := map[bool]map[int]string{
		false: {statusNone: "no drift, every check passes", statusDrift: "DRIFT: the manager differs from the state or the configuration",
			statusHealth: "no drift, but a health check fails"},
		true: {statusNone: "the plan changes nothing, every check passes", statusDrift: "the plan changes the manager",
			statusHealth: "the plan changes nothing, but a health check fails"},
	}
	fmt.Fprintf(w, "\ndrift-check: %s (%s)\n", verdicts[saved][status], version)
	return status
}

// section prints the findings of one kind under title, grouped by address; false when
// there are none.
func section(w io.Writer, all []finding, kind, title string) bool {
	found, last := false, ""
	for _, f := range all {
		if f.kind != kind {
			continue
		}
		if !found {
			fmt.Fprintf(w, "\n%s\n", title)
			found = true
		}
		if f.address != last {
			fmt.Fprintf(w, "  %s\n", f.address)
			last = f.address
		}
		fmt.Fprintf(w, "      %s\n", strings.ReplaceAll(f.detail, "\t", " "))
	}
	return found
}
