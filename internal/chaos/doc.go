// Package chaos holds the fault and interruption tests of the provider on a real CLI. They
// are behind the build tag chaos and run by `make chaos` (scripts/chaos.sh): applies of a
// fleet of 120 objects (10 systems of 9 nodes, a running WAS server and a session server on
// each system) against an in-process apmsim over HTTPS that fails requests, loses answers
// after changing the world (installs, starts, stops and uninstalls of servers included), or
// sees the CLI interrupted or killed mid-apply, amid the nodes or amid the servers.
// Afterwards the manager and the state must agree: no orphans, no duplicates, every server
// on its node with its port and, where declared, its running state, and an empty plan; and
// a destroy, under faults too, must leave nothing behind.
//
// This file has no build tag so that the package exists for `go vet ./...` and friends
// without the tag; everything else is in _test.go files behind it.
package chaos
