// Package chaos holds the fault and interruption tests of the provider on a real CLI. They
// are behind the build tag chaos and run by `make chaos` (scripts/chaos.sh): applies of about
// 100 objects against an in-process apmsim over HTTPS that fails requests, loses answers after
// changing the world, or sees the CLI interrupted or killed mid-apply. Afterwards the manager
// and the state must agree: no orphans, no duplicates, an empty plan.
//
// This file has no build tag so that the package exists for `go vet ./...` and friends
// without the tag; everything else is in _test.go files behind it.
package chaos
