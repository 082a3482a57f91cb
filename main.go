// Command terraform-provider-apm serves the APM Terraform provider over plugin protocol 6.
package main

import (
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/apmplatform/terraform-provider-apm/internal/provider"
)

// version is set at build time: -ldflags "-X main.version=1.2.3".
var version = "dev"

// registryAddress is the provider's address in the registry; dev_overrides and examples use it.
const registryAddress = "registry.terraform.io/apmplatform/apm"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "set to true to run the provider with support for debuggers like delve")
	flag.Parse()

	provider.QuietUnlessLogsRequested()
	provider.TuneGC()
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	if err := tf6server.Serve(registryAddress, provider.NewProtocol6Server(version), opts...); err != nil {
		log.Fatal(err.Error())
	}
}
