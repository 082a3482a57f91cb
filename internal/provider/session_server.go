package provider

import (
	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// apm_session_server, its data sources apm_session_servers and apm_session_server: a
// server that keeps the sessions of clustered WAS servers (apm_was_session_cluster). The
// flow is every kind's (servers.go).
var sessionServerKind = &serverKind{
	kind: apm.KindSession, name: "session_server", label: "session server", example: "shop/app-01/session-1",
	ports: []serverPort{sessionPort},
}

// sessionPort is the one port of a session server.
var sessionPort = serverPort{"server_port", "Port of the session server, 1 to 65535.", engine.Everywhere,
	func(s *apm.Server) int64 { return s.ServerPort },
	func(spec *apm.ServerSpec, set *apm.ServerSettings, p int64) { spec.ServerPort, set.ServerPort = p, p }}
