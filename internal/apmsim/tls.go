package apmsim

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"strings"
	"time"
)

// PEM block types of the CA files.
const (
	pemTypeCertificate = "CERTIFICATE"
	pemTypePrivateKey  = "PRIVATE KEY" // PKCS #8
)

// defaultTLSHosts are always in the leaf certificate, so local clients
// verify whichever loopback name they use.
var defaultTLSHosts = []string{"127.0.0.1", "::1", "localhost"}

// SelfSignedTLS makes a throw-away certificate authority and a server
// certificate it signs (both ECDSA P-256, valid for a year) for 127.0.0.1,
// ::1, localhost and the given hosts (IP addresses or DNS names; "[::1]"
// brackets are accepted). It returns a server tls.Config and the CA
// certificate in PEM: a client that adds that PEM to its RootCAs verifies
// the server. Nothing is written to disk; the keys live only in memory.
func SelfSignedTLS(hosts []string) (*tls.Config, []byte, error) {
	now := time.Now()
	ca, err := makeCA(now)
	if err != nil {
		return nil, nil, err
	}
	return serverTLS(ca, hosts, now)
}

// certAuthority is a CA that signs server certificates.
type certAuthority struct {
	cert *x509.Certificate // cert.Raw is its DER form
	key  crypto.Signer
}

func makeCA(now time.Time) (certAuthority, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return certAuthority{}, fmt.Errorf("apmsim: CA key: %w", err)
	}
	serial, err := randomSerial()
	if err != nil {
		return certAuthority{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "apmsim test CA", Organization: []string{"apmsim"}},
		NotBefore:             now.Add(-time.Hour), // tolerate clock skew
		NotAfter:              now.AddDate(1, 0, 0),
		IsCA:                  true,
		BasicConstraintsValid: true,
		MaxPathLenZero:        true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return certAuthority{}, fmt.Errorf("apmsim: create CA certificate: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return certAuthority{}, fmt.Errorf("apmsim: CA certificate: %w", err)
	}
	return certAuthority{cert: cert, key: key}, nil
}

// serverTLS signs a fresh server certificate with ca and returns the server's config and
// the CA certificate in PEM.
func serverTLS(ca certAuthority, hosts []string, now time.Time) (*tls.Config, []byte, error) {
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("apmsim: server key: %w", err)
	}
	leafTmpl, err := leafTemplate(now, append(append([]string{}, defaultTLSHosts...), hosts...))
	if err != nil {
		return nil, nil, err
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, ca.cert, &leafKey.PublicKey, ca.key)
	if err != nil {
		return nil, nil, fmt.Errorf("apmsim: sign server certificate: %w", err)
	}
	leaf, err := x509.ParseCertificate(leafDER)
	if err != nil {
		return nil, nil, fmt.Errorf("apmsim: server certificate: %w", err)
	}
	cfg := &tls.Config{
		MinVersion: tls.VersionTLS12,
		Certificates: []tls.Certificate{{
			Certificate: [][]byte{leafDER, ca.cert.Raw},
			PrivateKey:  leafKey,
			Leaf:        leaf,
		}},
	}
	return cfg, pemCertificate(ca.cert), nil
}

func pemCertificate(cert *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: pemTypeCertificate, Bytes: cert.Raw})
}

func leafTemplate(now time.Time, hosts []string) (*x509.Certificate, error) {
	serial, err := randomSerial()
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "apmsim", Organization: []string{"apmsim"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(1, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	seen := map[string]bool{}
	for _, h := range hosts {
		h = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(h), "["), "]")
		if h == "" || seen[h] {
			continue
		}
		seen[h] = true
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	return tmpl, nil
}

func randomSerial() (*big.Int, error) {
	return rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
}
