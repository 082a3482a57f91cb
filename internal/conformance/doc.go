// Package conformance proves that the client (internal/apm) and the emulator
// (internal/apmsim) cover the whole management interface of the spec: every endpoint has a
// typed client method and an emulator route, and the two agree on paths, bodies and
// errors. The package holds only tests.
package conformance
