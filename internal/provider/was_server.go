package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// apm_was_server, its data sources apm_was_servers and apm_was_server: a Java application
// server. The flow is every kind's (servers.go); what is the WAS kind's own is here.
var wasServerKind = &serverKind{
	kind: apm.KindWAS, name: "was_server", label: "WAS server", example: "shop/app-01/was-1",
	ports: []serverPort{httpPort, ajpPort}, was: true,
	settings: []engine.Field[serverObject]{
		engine.StringField(attrServerType, "Edition of the WAS server: `Standard` or `Enterprise` (the manager's `S` and `E` mean the same). Defaults to the manager's choice (`Standard`).",
			func(s *serverObject) string { return string(s.Edition) }).DefaultedInput().Replacing().
			Validate(stringvalidator.OneOf(string(apm.EditionStandard), string(apm.EditionEnterprise))).SameString(sameEdition),
		engine.StringField(attrInstallRootPath, "Absolute path the server is installed under, with `mode = \"install\"` only. Defaults to the manager's choice.",
			func(s *serverObject) string { return s.InstallRootPath }).In(engine.InResource | engine.InDetail).DefaultedInput().Replacing().Validate(absolutePathValidator()),
		engine.StringField(attrJavaHome, "Absolute path of the Java installation the server runs on. Defaults to the manager's choice.",
			func(s *serverObject) string { return s.JavaHome }).In(engine.InResource | engine.InDetail).DefaultedInput().AppliedBySettle().Validate(absolutePathValidator()),
	},
}

// ajpPort is the port through which web servers forward to a WAS server.
var ajpPort = serverPort{attrAJPPort, "AJP port of the server, 1 to 65535, through which web servers forward to it. Defaults to the manager's choice: none in apmsim, and then null.", engine.InResource | engine.InDetail,
	func(s *apm.Server) int64 { return s.AJPPort },
	func(spec *apm.ServerSpec, set *apm.ServerSettings, p int64) { spec.AJPPort, set.AJPPort = p, p }}

// sameEdition keeps the configured spelling of an edition the manager spells otherwise.
func sameEdition(prior, fresh string) bool {
	p, errP := apm.ParseEdition(prior)
	f, errF := apm.ParseEdition(fresh)
	return errP == nil && errF == nil && p == f
}
