package apmsim

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// fingerprint is all the sim keeps of a password (users' and databases'): it is never
// returned, and the state file holds only this. It is PBKDF2-HMAC-SHA256 with a random
// 16-byte salt, written as
//
//	$pbkdf2-sha256$i=<iterations>$<salt>$<key>        (salt and key in unpadded base64)
//
// so that a leaked state file neither shows equal passwords nor lets a guess be checked
// with one hash. The sim itself checks no password against it, it records that one was
// set or changed; tests check through Sim.UserPasswordMatches.
type fingerprint string

const (
	fingerprintScheme = "$pbkdf2-sha256$"
	// fingerprintIterations makes a guess cost 10,000 HMAC-SHA256 rounds (about 2 ms)
	// instead of one hash. More would be due for real passwords, but tests set many
	// passwords on two shared cores (the property test some 500: 100,000 rounds made it
	// 10 s slower); apmsim is for test passwords (README.md, Security). Each fingerprint
	// records its count, so it can change.
	fingerprintIterations = 10_000
	fingerprintSaltLen    = 16
	fingerprintKeyLen     = 32
	// legacyParam marks a fingerprint migrated from an older state file, which kept one
	// SHA-256 (hex) over owner, a NUL byte and the password: the key is derived from that
	// hex string instead of the password, the password being unknown.
	legacyParam = ",pre=owner-sha256"
)

// legacyFingerprintText is the fingerprint of older state files: 64 hex digits.
var legacyFingerprintText = regexp.MustCompile(`^[0-9a-f]{64}$`)

// newFingerprint fingerprints a password with a fresh salt. It is slow on purpose: call
// it outside the world's lock.
func newFingerprint(secret string) fingerprint {
	return deriveFingerprint(secret, "")
}

// demoFingerprint is the fingerprint of demoPassword, made once per process: the demo
// seed's four passwords are documented anyway, and a demo-seeded sim starts often in
// tests.
var demoFingerprint = sync.OnceValue(func() fingerprint { return newFingerprint(demoPassword) })

// deriveFingerprint derives a key from input with a fresh salt and writes it in the
// layout above, with param (legacyParam or "") after the iteration count.
func deriveFingerprint(input, param string) fingerprint {
	salt := make([]byte, fingerprintSaltLen)
	_, _ = rand.Read(salt) // never fails: crypto/rand crashes the program instead
	key, err := pbkdf2.Key(sha256.New, input, salt, fingerprintIterations, fingerprintKeyLen)
	if err != nil {
		// Key fails only for a key length out of range or, in FIPS 140-only mode, a salt
		// under 16 bytes; both are constants here.
		panic(fmt.Errorf("apmsim: password fingerprint: %w", err))
	}
	enc := base64.RawStdEncoding
	return fingerprint(fingerprintScheme + "i=" + strconv.Itoa(fingerprintIterations) + param +
		"$" + enc.EncodeToString(salt) + "$" + enc.EncodeToString(key))
}

// UnmarshalJSON reads a fingerprint from a state file and migrates an older version's
// unsalted SHA-256 (see legacyParam), so that it does not stay on disk (New saves the
// state file after loading it).
func (f *fingerprint) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("password fingerprint: %w", err)
	}
	switch {
	case strings.HasPrefix(s, fingerprintScheme):
		*f = fingerprint(s)
	case legacyFingerprintText.MatchString(s):
		*f = deriveFingerprint(s, legacyParam)
	default:
		return errors.New("password fingerprint: neither " + fingerprintScheme + "... nor an older version's SHA-256")
	}
	return nil
}

// legacySHA256 is the fingerprint of older versions: one SHA-256 over owner ("user/<id>",
// "database/<name>"), a NUL byte and the secret, in hex.
func legacySHA256(owner, secret string) string {
	sum := sha256.Sum256([]byte(owner + "\x00" + secret))
	return hex.EncodeToString(sum[:])
}

// matches reports whether f is a fingerprint of secret, derived once more with f's salt
// and iterations; owner is needed for one migrated from an older version. Only tests
// need this (through Sim.UserPasswordMatches): the sim never checks passwords.
func (f fingerprint) matches(owner, secret string) bool {
	rest, ok := strings.CutPrefix(string(f), fingerprintScheme)
	parts := strings.Split(rest, "$") // parameters, salt, key
	if !ok || len(parts) != 3 {
		return false
	}
	params, migrated := strings.CutSuffix(parts[0], legacyParam)
	if migrated {
		secret = legacySHA256(owner, secret)
	}
	iterText, _ := strings.CutPrefix(params, "i=")
	iter, err := strconv.Atoi(iterText)
	salt, saltErr := base64.RawStdEncoding.DecodeString(parts[1])
	want, keyErr := base64.RawStdEncoding.DecodeString(parts[2])
	if err != nil || saltErr != nil || keyErr != nil {
		return false
	}
	key, err := pbkdf2.Key(sha256.New, secret, salt, iter, len(want))
	return err == nil && subtle.ConstantTimeCompare(key, want) == 1
}
