package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/apmplatform/terraform-provider-apm/internal/tfserver"
)

// NewProtocol6Server is the provider's protocol 6 server as Terraform talks to it, in
// main and in the acceptance tests alike: the framework's server, wrapped so that it
// lets go of each request once answered (internal/tfserver).
func NewProtocol6Server(version string) func() tfprotov6.ProviderServer {
	return tfserver.Wrap(providerserver.NewProtocol6(New(version)()))
}
