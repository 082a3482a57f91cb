// Package bench measures the provider at scale on a real CLI: the wall time of apply, plan
// and plan -refresh-only for N apm_node resources next to the same number of builtin
// terraform_data resources of the same shape, the requests the provider makes per object
// and its peak memory. It runs against an in-process apmsim over plain HTTP.
//
// Everything but this file is behind the build tag bench and run by `make bench`
// (scripts/bench.sh); docs/performance.md explains the figures. It is a benchmark, not a
// test: it fails only when a run fails, never on a figure.
//
// This file has no build tag so that the package exists for `go vet ./...` and friends
// without the tag.
package bench
