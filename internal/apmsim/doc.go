// Package apmsim is a stateful stand-in for the application platform
// manager's HTTP/JSON management API (api/rest-interface.md, with the gaps
// filled by api/decisions.md). Every acceptance test of the Terraform
// provider and the demo run against it, so it follows the spec's status
// codes, error bodies and messages exactly, answers with the documented
// fields only, and documents each decision the spec leaves open in
// README.md.
//
// The API is split into areas (systems, nodes, public, ...), one file each,
// listed in areas.go. All areas share one in-memory world guarded by a
// single RWMutex; writes go through Sim.update, which persists the world to
// the optional state file after every successful change.
package apmsim
