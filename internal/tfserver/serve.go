// Package tfserver serves a framework provider over plugin protocol 6 the way this
// provider needs it: request contexts released once answered (release.go), the SDK's
// loggers quiet unless logs were asked for, and the collector tuned for large plans
// (logging.go). It knows nothing of the provider it serves.
package tfserver

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// Wrap is the framework's server, wrapped so that it lets go of each request once
// answered.
func Wrap(framework func() tfprotov6.ProviderServer) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		// The framework's server offers every optional part; a version that does not
		// fails here, in every test, rather than losing list resources or actions.
		return releasingServer{framework().(fullServer)} //nolint:forcetypeassert // see above
	}
}

// Serve serves the provider at its registry address until Terraform stops it; debug
// runs it for a debugger (Terraform attaches through TF_REATTACH_PROVIDERS).
func Serve(address string, server func() tfprotov6.ProviderServer, debug bool) error {
	QuietUnlessLogsRequested()
	TuneGC()
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	return tf6server.Serve(address, server, opts...)
}
