package provider

import (
	"context"
	"crypto/tls"
	"fmt"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// keyPairMatches refuses, at validate, an SSL set-up whose private key is not the key of
// its certificate (or either cannot be parsed), once both are known: the configuration
// alone shows it, and the manager would refuse the set-up at apply. Neither value is ever
// quoted, and the error of crypto/tls names no key material.
type keyPairMatches struct{}

func (keyPairMatches) Description(context.Context) string {
	return "the private key is the key of the certificate"
}

func (v keyPairMatches) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (keyPairMatches) ValidateResource(_ context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	config, err := engine.AttrsOf(req.Config.Raw)
	if err != nil {
		return // the framework reports a configuration it cannot decode
	}
	keyAttr := webSSLKey.Name + "_wo"
	if !config.Known(keyAttr) {
		keyAttr = webSSLKey.Name
	}
	if !config.Known(attrCertificatePEM) || !config.Known(keyAttr) || !pemBegin.MatchString(config.Str(keyAttr)) {
		return // not given yet, or not PEM at all (the attribute's own validator says so)
	}
	if _, err := tls.X509KeyPair([]byte(config.Str(attrCertificatePEM)), []byte(config.Str(keyAttr))); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root(keyAttr), "Private key does not fit the certificate", fmt.Sprintf(
			"%s and %s must be a pair: the private key of the certificate, which the manager would refuse otherwise. They are not (%s). "+
				"Give the key that the certificate was issued for, such as file(\"server.key\") beside file(\"server.crt\"); the values are not shown here.",
			keyAttr, attrCertificatePEM, strings.TrimPrefix(err.Error(), "tls: ")))
	}
}
