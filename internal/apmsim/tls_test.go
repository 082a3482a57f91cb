package apmsim

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

func TestSelfSignedTLS(t *testing.T) {
	cfg, caPEM, err := SelfSignedTLS([]string{"apm.example", "[2001:db8::7]", "10.9.8.7", ""})
	if err != nil {
		t.Fatal(err)
	}
	leaf := cfg.Certificates[0].Leaf
	if !slices.Equal(leaf.DNSNames, []string{"localhost", "apm.example"}) {
		t.Fatalf("DNS names %v", leaf.DNSNames)
	}
	var ips []string
	for _, ip := range leaf.IPAddresses {
		ips = append(ips, ip.String())
	}
	if !slices.Equal(ips, []string{"127.0.0.1", "::1", "2001:db8::7", "10.9.8.7"}) {
		t.Fatalf("IP addresses %v", ips)
	}

	srv := httptest.NewUnstartedServer(newTestSim(t).Handler())
	srv.TLS = cfg
	srv.StartTLS()
	defer srv.Close()

	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		t.Fatal("CA PEM does not parse")
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	defer client.CloseIdleConnections()
	resp, err := client.Get(srv.URL + "/rest/public/managerInfo")
	if err != nil {
		t.Fatalf("client trusting the CA: %v", err)
	}
	defer resp.Body.Close()
	var info managerInfoJSON
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil || info.Version != ManagerVersion || info.Status != "running" {
		t.Fatalf("managerInfo %+v %v", info, err)
	}

	// The certificate also verifies under the name localhost.
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	conn, err := tls.Dial("tcp", "127.0.0.1:"+port, &tls.Config{RootCAs: roots, ServerName: "localhost"})
	if err != nil {
		t.Fatalf("localhost: %v", err)
	}
	conn.Close()

	// A client without the CA is refused.
	plain := &http.Client{Transport: &http.Transport{}}
	if resp, err := plain.Get(srv.URL + "/rest/public/managerInfo"); err == nil {
		_ = resp.Body.Close()
		t.Fatal("a client without the CA connected")
	}
}
