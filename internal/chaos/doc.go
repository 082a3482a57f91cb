// Package chaos holds the fault and interruption tests of the provider on a real CLI. They
// are behind the build tag chaos and run by `make chaos` (scripts/chaos.sh): applies of a
// fleet of 171 objects against an in-process apmsim over HTTPS that fails requests, loses
// answers after changing the world, or sees the CLI interrupted or killed mid-apply, amid
// the nodes or amid the servers, or goes down for 20 s amid the servers' installs and
// starts (a TCP front refuses and cuts the CLI's connections; apmsim keeps its state, as a
// manager restarted with its state file does). The fleet is 10 systems of 9 nodes, each
// with a running WAS server and a session server, and on three of them a topology of every
// resource type:
// a web server balancing over two WAS servers (apm_web_workers) with URI patterns and SSL,
// session clustering over two session servers, a database, a datasource attached to each
// WAS server, an application on each, and a user granted a role; every server of a
// topology runs. After the applies under faults come two day-two changes under faults: a
// scale-in (a balanced WAS server and its worker removed in one change) and a replacement
// of a balanced WAS server.
//
// After each, the manager and the state must agree: no orphans, no duplicates, every
// server on its node with its port, server_type and, where declared, its running state,
// every part (workers, URI patterns, SSL, session clustering, datasource attachments,
// applications, grants) as declared, and an empty plan; and a destroy, under faults too,
// must leave nothing behind. After the outage, nothing the manager has may be tainted, and
// the next plan may replace or delete nothing.
//
// This file has no build tag so that the package exists for `go vet ./...` and friends
// without the tag; everything else is in _test.go files behind it.
package chaos
