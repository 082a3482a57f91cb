// Package repocheck holds the tests that the repository keeps its promises: that README.md,
// CHANGELOG.md, the GNUmakefile's help, api/coverage.md, templates/, docs/ and examples/ say
// what the provider does and have a file for every type it serves, and that the acceptance
// tests gate CLI versions through the feature table and run every test file of a module under
// examples/. They read the repository, not the provider's behaviour, so they live apart from
// internal/provider's tests, which read no Markdown. The package has no code of its own; CI
// runs its tests with every other package's through `go test ./...`.
package repocheck
