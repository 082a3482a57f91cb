package provider

import (
	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// apm_web_server, its data sources apm_web_servers and apm_web_server: a web server that
// balances to WAS servers. The flow is every kind's (servers.go); its parts are
// apm_web_workers, apm_web_uri_patterns and apm_web_ssl.
var webServerKind = &serverKind{
	kind: apm.KindWeb, name: "web_server", label: "web server", example: "shop/web-01/web-1",
	ports: []serverPort{httpPort, httpsPort},
	settings: []engine.Field[serverObject]{
		engine.StringField(attrInstallRootPath, "Path the server is installed under.",
			func(s *serverObject) string { return s.InstallRootPath }).In(engine.InDetail),
	},
}

// httpsPort is a web server's TLS port.
var httpsPort = serverPort{attrHTTPSPort, "HTTPS port of the server, 1 to 65535. Defaults to the manager's choice. `apm_web_ssl` sets it too: manage it in one place.", engine.InResource | engine.InDetail,
	func(s *apm.Server) int64 { return s.HTTPSPort },
	func(spec *apm.ServerSpec, set *apm.ServerSettings, p int64) { spec.HTTPSPort, set.HTTPSPort = p, p }}
