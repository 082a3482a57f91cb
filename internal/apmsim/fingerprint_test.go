package apmsim

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fingerprintText is the layout of a stored password fingerprint: scheme, parameters
// (iterations, and pre=owner-sha256 for one migrated from an old state file), salt and
// derived key, the last two in unpadded base64.
var fingerprintText = regexp.MustCompile(`^\$pbkdf2-sha256\$i=([0-9]+)(,pre=owner-sha256)?\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$`)

// legacyFingerprint is what older versions stored: one SHA-256 over owner and secret.
func legacyFingerprint(owner, secret string) string {
	sum := sha256.Sum256([]byte(owner + "\x00" + secret))
	return hex.EncodeToString(sum[:])
}

// fingerprintMatches checks a guess the only way the layout allows: derive the key again
// with the stored salt and iterations. owner is used only for a migrated fingerprint.
func fingerprintMatches(t *testing.T, fp, owner, secret string) bool {
	t.Helper()
	m := fingerprintText.FindStringSubmatch(fp)
	if m == nil {
		t.Fatalf("fingerprint %q does not have the documented layout", fp)
	}
	iter, _ := strconv.Atoi(m[1])
	if iter < 10_000 {
		t.Fatalf("fingerprint %q: %d iterations make guesses cheap", fp, iter)
	}
	if m[2] != "" {
		secret = legacyFingerprint(owner, secret)
	}
	salt, err := base64.RawStdEncoding.DecodeString(m[3])
	if err != nil || len(salt) < 16 {
		t.Fatalf("fingerprint %q: salt %v, %d bytes", fp, err, len(salt))
	}
	key, err := pbkdf2.Key(sha256.New, secret, salt, iter, 32)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawStdEncoding.EncodeToString(key) == m[4]
}

// storedFingerprints returns the fingerprints in a state file, users' and databases'.
func storedFingerprints(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile(`"(?:usrPwSha256|passwordSha256)":"([^"]*)"`).FindAllStringSubmatch(string(data), -1) {
		out = append(out, m[1])
	}
	return out
}

// Fingerprints are salted at random and stretched: a state file that leaks does not
// let a guess be checked with one hash, nor show that two passwords are equal, not even
// the same password set twice.
func TestFingerprintsAreSaltedAndStretched(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	h := newTestSim(t, stateOpts(path)).Handler()
	const pw = "Same-Passw0rd!"
	mustOK(t, h, "POST", admin("/rest/admin/user"), `{"usrId":"bob","usrNm":"Bob","usrPw":"`+pw+`"}`)
	first := storedFingerprints(t, path)
	mustOK(t, h, "PUT", admin("/rest/admin/user/bob"), `{"usrPw":"`+pw+`"}`)
	second := storedFingerprints(t, path)
	if len(first) != 1 || len(second) != 1 {
		t.Fatalf("fingerprints %q, then %q", first, second)
	}
	if first[0] == second[0] {
		t.Errorf("the same password set twice has the same fingerprint %q: no random salt", first[0])
	}
	if first[0] == legacyFingerprint("user/bob", pw) {
		t.Errorf("fingerprint %q is one SHA-256 of owner and password", first[0])
	}
	for _, fp := range append(first, second...) {
		if !fingerprintMatches(t, fp, "", pw) || fingerprintMatches(t, fp, "", pw+"x") {
			t.Errorf("fingerprint %q does not tell the password from another", fp)
		}
	}
}

// A state file of an older version holds one SHA-256 per password. It still loads, and
// its fingerprints are migrated at once: salted and stretched over the old value, and
// written back, so no unsalted one stays on disk.
func TestStateFileMigratesLegacyFingerprints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	newTestSim(t, stateOpts(path), func(o *Options) { o.Seed = SeedDemo })
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	owners := map[string]string{"ops.admin": "user/ops.admin", "operator": "user/operator",
		"orders-db": "database/orders-db", "reports-db": "database/reports-db"}
	old := string(data)
	for name, owner := range owners {
		old = regexp.MustCompile(`("`+regexp.QuoteMeta(name)+`".*?"(?:usrPwSha256|passwordSha256)":")[^"]*"`).
			ReplaceAllString(old, `${1}`+legacyFingerprint(owner, demoPassword)+`"`)
	}
	for _, fp := range storedFingerprintsOf(t, path, old) {
		if fingerprintText.MatchString(fp) {
			t.Fatalf("test setup: %q is not a legacy fingerprint", fp)
		}
	}

	h := newTestSim(t, stateOpts(path)).Handler()
	expect(t, call(t, h, "GET", admin("/rest/admin/user/operator"), ""), 200, "")
	migrated := storedFingerprints(t, path)
	if len(migrated) != len(owners) {
		t.Fatalf("fingerprints after the load: %q", migrated)
	}
	for _, fp := range migrated {
		if !strings.Contains(fp, ",pre=owner-sha256$") {
			t.Errorf("fingerprint %q was not migrated", fp)
		}
	}
	// Each still stands for the demo password of its owner.
	for name, owner := range owners {
		fp := regexp.MustCompile(`"` + regexp.QuoteMeta(name) + `".*?"(?:usrPwSha256|passwordSha256)":"([^"]*)"`).FindStringSubmatch(string(mustReadFile(t, path)))
		if fp == nil || !fingerprintMatches(t, fp[1], owner, demoPassword) {
			t.Errorf("%s: migrated fingerprint %v does not match its password", name, fp)
		}
	}
}

// storedFingerprintsOf writes content to path and returns its fingerprints.
func storedFingerprintsOf(t *testing.T, path, content string) []string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return storedFingerprints(t, path)
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A fingerprint that is neither the current layout nor an old SHA-256 stops the load.
func TestStateFileRejectsUnknownFingerprint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	h := newTestSim(t, stateOpts(path)).Handler()
	mustOK(t, h, "POST", admin("/rest/admin/user"), `{"usrId":"bob","usrNm":"Bob","usrPw":"Some-Passw0rd!"}`)
	data := regexp.MustCompile(`"usrPwSha256":"[^"]*"`).ReplaceAll(mustReadFile(t, path), []byte(`"usrPwSha256":"plain-text-password"`))
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := New(Options{AdminKey: testAdminKey, StateFile: path})
	if err == nil || !strings.Contains(err.Error(), "password fingerprint") {
		t.Fatalf("New = %v, want an error about the password fingerprint", err)
	}
}

// Tests of other packages check a user's password through the sim, for new and for
// migrated fingerprints alike.
func TestUserPasswordMatches(t *testing.T) {
	s := newTestSim(t, func(o *Options) { o.Seed = SeedDemo })
	h := s.Handler()
	mustOK(t, h, "POST", admin("/rest/admin/user"), `{"usrId":"bob","usrNm":"Bob","usrPw":"Bobs-Passw0rd!"}`)
	err := s.update(func(wd *world) error { // as if loaded from an older state file
		return json.Unmarshal([]byte(`"`+legacyFingerprint("user/operator", demoPassword)+`"`), &adminState.of(wd).Users["operator"].Password)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		user, pw string
		want     bool
	}{
		{"bob", "Bobs-Passw0rd!", true},
		{"bob", "Bobs-Passw0rd?", false},
		{"ops.admin", demoPassword, true},
		{"operator", demoPassword, true}, // migrated
		{"operator", "Demo-Passw0rd?", false},
		{"nobody", demoPassword, false},
	} {
		if got := s.UserPasswordMatches(tc.user, tc.pw); got != tc.want {
			t.Errorf("UserPasswordMatches(%q, %q) = %v, want %v", tc.user, tc.pw, got, tc.want)
		}
	}
}
