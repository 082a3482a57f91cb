package apmsim

import (
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// The files of PersistentTLS's certificate authority, in its directory.
const (
	caCertFile = "ca.pem"     // the CA certificate, PEM "CERTIFICATE"
	caKeyFile  = "ca-key.pem" // its key, PEM "PRIVATE KEY" (PKCS #8), mode 0600
)

// PersistentTLS is SelfSignedTLS with a certificate authority that survives restarts: the
// CA's certificate and key are kept in dir as ca.pem and ca-key.pem (PKCS #8, mode 0600;
// dir is made with mode 0700 if missing). The first call creates them; later calls load them
// and sign a fresh server certificate for the given hosts, so that a client that trusts
// the CA PEM of one run still verifies the server after a restart. A file that does not
// parse, a key that does not belong to the certificate, an expired CA or one file without
// the other is an error naming the file: the CA is never replaced behind the back of the
// clients that trust it.
func PersistentTLS(dir string, hosts []string) (*tls.Config, []byte, error) {
	now := time.Now()
	ca, err := loadOrCreateCA(dir, now)
	if err != nil {
		return nil, nil, err
	}
	return serverTLS(ca, hosts, now)
}

func loadOrCreateCA(dir string, now time.Time) (certAuthority, error) {
	certPath, keyPath := filepath.Join(dir, caCertFile), filepath.Join(dir, caKeyFile)
	certThere, err := fileExists(certPath)
	if err != nil {
		return certAuthority{}, err
	}
	keyThere, err := fileExists(keyPath)
	if err != nil {
		return certAuthority{}, err
	}
	switch {
	case certThere && keyThere:
		return loadCA(certPath, keyPath, now)
	case certThere:
		return certAuthority{}, fmt.Errorf("apmsim: CA key %s is missing next to %s; remove both to make a new CA", keyPath, certPath)
	case keyThere:
		return certAuthority{}, fmt.Errorf("apmsim: CA certificate %s is missing next to %s; remove both to make a new CA", certPath, keyPath)
	}
	return createCA(dir, certPath, keyPath, now)
}

func fileExists(path string) (bool, error) {
	_, err := os.Lstat(path)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("apmsim: %w", err)
}

func createCA(dir, certPath, keyPath string, now time.Time) (certAuthority, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return certAuthority{}, fmt.Errorf("apmsim: TLS directory: %w", err)
	}
	ca, err := makeCA(now)
	if err != nil {
		return certAuthority{}, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(ca.key)
	if err != nil {
		return certAuthority{}, fmt.Errorf("apmsim: encode CA key: %w", err)
	}
	// The key goes first: should the certificate not follow, the next start finds a key
	// alone and says so, instead of trusting a certificate whose key was lost.
	if err := writeNewFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: pemTypePrivateKey, Bytes: keyDER}), 0o600); err != nil {
		return certAuthority{}, err
	}
	if err := writeNewFile(certPath, pemCertificate(ca.cert), 0o644); err != nil {
		return certAuthority{}, err
	}
	return ca, nil
}

// writeNewFile writes a file that must not exist yet, so that two sims starting on one
// directory at once cannot overwrite each other's CA. A file left half-written is removed.
func writeNewFile(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("apmsim: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
		return fmt.Errorf("apmsim: write %s: %w", path, err)
	}
	return nil
}

func loadCA(certPath, keyPath string, now time.Time) (certAuthority, error) {
	cert, err := readCACert(certPath, now)
	if err != nil {
		return certAuthority{}, err
	}
	key, err := readCAKey(keyPath)
	if err != nil {
		return certAuthority{}, err
	}
	pub, ok := key.Public().(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !pub.Equal(cert.PublicKey) {
		return certAuthority{}, fmt.Errorf("apmsim: CA key %s does not belong to the certificate in %s", keyPath, certPath)
	}
	return certAuthority{cert: cert, key: key}, nil
}

func readCACert(path string, now time.Time) (*x509.Certificate, error) {
	der, err := readPEM(path, pemTypeCertificate)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("apmsim: CA certificate %s: %w", path, err)
	}
	if !cert.IsCA {
		return nil, fmt.Errorf("apmsim: %s is not a CA certificate", path)
	}
	// Signing with an expired CA would only move the failure to every client's handshake.
	if now.After(cert.NotAfter) {
		return nil, fmt.Errorf("apmsim: CA certificate %s expired on %s; remove it and its key to make a new CA",
			path, cert.NotAfter.Format(time.DateOnly))
	}
	return cert, nil
}

func readCAKey(path string) (crypto.Signer, error) {
	der, err := readPEM(path, pemTypePrivateKey)
	if err != nil {
		return nil, err
	}
	key, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("apmsim: CA key %s: %w", path, err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("apmsim: CA key %s: a %T cannot sign", path, key)
	}
	return signer, nil
}

// readPEM returns the bytes of the first PEM block in the file, which must be of type typ.
func readPEM(path, typ string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("apmsim: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != typ {
		return nil, fmt.Errorf("apmsim: %s: no PEM %q block", path, typ)
	}
	return block.Bytes, nil
}
