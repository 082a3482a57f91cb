// Command terraform-provider-apm serves the APM Terraform provider over plugin protocol 6.
package main

import (
	"flag"
	"log"

	"github.com/apmplatform/terraform-provider-apm/internal/provider"
	"github.com/apmplatform/terraform-provider-apm/internal/tfserver"
)

// version is set at build time: -ldflags "-X main.version=1.2.3".
var version = "dev"

// registryAddress is the provider's address in the registry; dev_overrides and examples use it.
const registryAddress = "registry.terraform.io/apmplatform/apm"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "set to true to run the provider with support for debuggers like delve")
	flag.Parse()

	if err := tfserver.Serve(registryAddress, provider.NewProtocol6Server(version), debug); err != nil {
		log.Fatal(err.Error())
	}
}
