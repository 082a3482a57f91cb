package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// webSSLKey is the SSL set-up's private key, a secret input.
var webSSLKey = engine.Secret{
	Name: "private_key_pem", What: "the certificate's private key, PEM-encoded (`-----BEGIN PRIVATE KEY-----`)",
	Change: "Sent again with the certificate.", Rules: []validator.String{pemValidator{kind: "PRIVATE KEY"}},
}

var webSSLFields = append([]engine.Field[webPart]{
	webPartIDField("SSL set-up"),
	webServerRefField("SSL set-up"),
	engine.Int64Field("https_port", "HTTPS port the web server serves on, 1 to 65535. The web server's own `https_port` is this port too: "+
		"set both to the same value (or this one to `apm_web_server.example.https_port`), or the two resources undo each other's change.",
		func(p *webPart) int64 { return p.HTTPSPort }).In(engine.InResource | engine.InList).Input().ValidateInt64(portValidators()...),
	engine.InputField[webPart]("certificate_pem", "The server certificate, PEM-encoded (`-----BEGIN CERTIFICATE-----`), for example `file(\"server.crt\")`. "+
		"The manager does not report it: state keeps what was applied.", tftypes.String).Validate(pemValidator{kind: "CERTIFICATE"}),
	engine.InputField[webPart]("ca_chain_pem", "The certificates of the chain above the server certificate, PEM-encoded, one after the other. "+
		"The manager does not report it: state keeps what was applied.", tftypes.String).OptionalInput().Validate(pemValidator{kind: "CERTIFICATE"}),
}, engine.SecretFields[webPart](webSSLKey)...)

// webSSLDeleteWarning is said on every destroy of an apm_web_ssl.
const webSSLDeleteWarning = "The manager has no operation that turns SSL off, so destroying apm_web_ssl only removes it from the Terraform state: " +
	"the web server keeps serving HTTPS on its port, with the certificate last applied, until SSL is configured again " +
	"or the web server is deregistered or uninstalled."

var webSSLType = resourceType[webPart]{
	Noun:             "SSL set-up",
	IdempotentCreate: true,
	Name:             "web_ssl",
	Description: "The SSL set-up of a web server: its HTTPS port, certificate and private key. Every change is applied in place by sending the set-up again. " +
		"The manager never reports the certificate or the key, so state keeps what was applied; give the key as the write-only `private_key_pem_wo` " +
		"where the CLI supports it (Terraform 1.11 or later, OpenTofu), which keeps it out of plan and state. " +
		"The manager cannot turn SSL off: destroying this resource only removes it from the state.",
	Fields:     webSSLFields,
	ImportID:   webPartIdentity,
	Describe:   func(a engine.Attrs) string { return "SSL set-up of " + webPartServer(a) },
	Validators: webSSLKey.Validators(),
	Create:     configureWebSSL,
	Read:       readWebSSL,
	Update: func(ctx context.Context, m *conn, plan, _ engine.Attrs) error {
		return configureWebSSL(ctx, m, plan)
	},
	Delete:        func(context.Context, *conn, engine.Attrs) error { return nil },
	DeleteWarning: webSSLDeleteWarning,
}

// configureWebSSL sends the whole SSL set-up; the key comes from the write-only value
// (the engine adds it from the configuration) or the sensitive one.
func configureWebSSL(ctx context.Context, m *conn, plan engine.Attrs) error {
	cfg := apm.SSLConfig{HTTPSPort: plan.Int64("https_port"), CertificatePEM: plan.Str("certificate_pem"),
		PrivateKeyPEM: webSSLKey.Value(plan), CAChainPEM: plan.Str("ca_chain_pem")}
	return onWebServer(ctx, m, plan, func(ref apm.ServerRef) error { return m.ConfigureSSL(ctx, ref, cfg) })
}

// errSSLOff says that the manager reports SSL off for the web server.
var errSSLOff = fmt.Errorf("SSL is not enabled on the web server: %w", engine.ErrGone)

// readWebSSL reads the web server's HTTPS port; SSL reported off is gone (configured
// again by the next apply).
func readWebSSL(ctx context.Context, m *conn, a engine.Attrs) (*webPart, error) {
	p, err := readWebPart(ctx, m, a)
	if err != nil {
		return nil, err
	}
	if p.Reported.SSLEnabled && !p.SSLEnabled {
		return nil, errSSLOff
	}
	return p, nil
}

// pemValidator checks that a value is PEM of the kind (CERTIFICATE, PRIVATE KEY), so that
// a swapped certificate and key fail at plan. Its messages never quote the value.
type pemValidator struct{ kind string }

func (v pemValidator) Description(context.Context) string {
	return fmt.Sprintf("must be PEM-encoded, with a -----BEGIN ...%s----- line", v.kind)
}

func (v pemValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v pemValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	text := req.ConfigValue.ValueString()
	begin := regexp.MustCompile(`-----BEGIN ([A-Z0-9 ]+)-----`).FindAllStringSubmatch(text, -1)
	ok := len(begin) > 0
	for _, b := range begin {
		if !strings.HasSuffix(b[1], v.kind) {
			ok = false
		}
	}
	if !ok {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid PEM", fmt.Sprintf(
			"%s must be PEM-encoded %s data, starting with a line such as -----BEGIN %s-----, for example file(\"...\"); the value given is not (it is not shown here).",
			req.Path, v.kind, v.kind))
	}
}

// webSSLList lists the SSL set-up of a web server: one when SSL is on.
var webSSLList = webPartList{
	read:     readWebPart,
	reported: func(p *webPart) bool { return p.Reported.SSLEnabled },
	present:  func(p *webPart) bool { return p.SSLEnabled },
	what:     "SSL state", typeName: "apm_web_ssl",
}

var newWebSSLsDataSource = engine.NewListDataSource(listDataSourceType[webPart]{
	Name: "web_ssls",
	Description: "Lists the SSL set-up of one web server, with the ID to import it as `apm_web_ssl`: one item when SSL is on, none when it is off. " +
		"The manager never reports the certificate or the key.",
	ListName:        "ssl_setups",
	ListDescription: "The web server's SSL set-up: at most one.",
	Fields:          webSSLFields,
	Filters:         webServerFilter("SSL set-up"),
	List: func(ctx context.Context, m *conn, config engine.Attrs) ([]webPart, error) {
		return webSSLList.list(ctx, m, config.Str("web_server_id"))
	},
	Imports: webSSLType.Target(),
})
