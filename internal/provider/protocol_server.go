package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// NewProtocol6Server is the provider's protocol 6 server as Terraform talks to it, in
// main and in the acceptance tests alike: the framework's server, wrapped so that it
// lets go of each request once answered (context_release.go).
func NewProtocol6Server(version string) func() tfprotov6.ProviderServer {
	framework := providerserver.NewProtocol6(New(version)())
	return func() tfprotov6.ProviderServer {
		// The framework's server offers every optional part; a version that does not
		// fails here, in every test, rather than losing list resources or actions.
		return releasingServer{framework().(fullServer)} //nolint:forcetypeassert // see above
	}
}
