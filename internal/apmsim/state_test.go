package apmsim

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func stateOpts(path string) func(*Options) {
	return func(o *Options) { o.StateFile = path }
}

func TestStateFileSaveAndReload(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	s1 := newTestSim(t, stateOpts(path))
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("state file not written at start: %v", err)
	}
	h1 := s1.Handler()
	createSystem(t, h1, "shop")
	createSystem(t, h1, "gone")
	createNode(t, h1, "shop", "web-01", "10.0.0.1", 7730)
	mustOK(t, h1, "PUT", admin("/rest/systems/shop"), `{"systemName":"store"}`)
	mustOK(t, h1, "DELETE", admin("/rest/systems/gone"), "")

	// A second sim on the same file sees everything, with the same IDs.
	h2 := newTestSim(t, stateOpts(path)).Handler()
	expect(t, call(t, h2, "GET", admin("/rest/systems"), ""), 200,
		`{"systems":[{"systemId":"SYS-0001","systemName":"store","nodeCount":1,"webCount":0,"appCount":0,"sessionCount":0,"cacheCount":0}]}`)
	expect(t, call(t, h2, "GET", admin("/rest/nodes/web-01/systems/store"), ""), 200,
		`{"nodeId":"ND-0001","nodeName":"web-01","systemName":"store","hostIp":"10.0.0.1","agentPort":7730,"status":"running","servers":[]}`)
	// ID sequences survive too: no reuse of SYS-0002 or ND-0001.
	createSystem(t, h2, "next")
	createNode(t, h2, "next", "n", "10.0.0.2", 1)
	expect(t, call(t, h2, "GET", admin("/rest/systems/next"), ""), 200,
		`{"systemId":"SYS-0003","systemName":"next","nodes":[{"nodeName":"n","hostIp":"10.0.0.2","status":"running"}]}`)
	expect(t, call(t, h2, "GET", admin("/rest/nodes/n/systems/next"), ""), 200,
		`{"nodeId":"ND-0002","nodeName":"n","systemName":"next","hostIp":"10.0.0.2","agentPort":1,"status":"running","servers":[]}`)

	// Only the state file is left in the directory: temp files are renamed.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "state.json" {
		t.Fatalf("directory holds %v", entries)
	}
	var f stateFile
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f.Format != 1 || len(f.Systems) != 2 || len(f.Nodes) != 2 || f.Seq["SYS"] != 3 || f.Seq["ND"] != 2 {
		t.Fatalf("state file: %s", data)
	}
	if got := f.Systems[1].CreatedAt; !got.Equal(testClock()) {
		t.Fatalf("createdAt = %v, want the test clock", got)
	}
}

func TestStateFileWinsOverSeed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	newTestSim(t, stateOpts(path)) // writes an empty world
	h := newTestSim(t, stateOpts(path), func(o *Options) { o.Seed = SeedDemo }).Handler()
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), 200, `{"systems":[]}`)
}

func TestStateFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct{ name, path, want string }{
		{"not JSON", write("a.json", "nope"), "invalid character"},
		{"other format", write("b.json", `{"format":2}`), "unsupported format 2 (want 1)"},
		{"dangling node", write("c.json", `{"format":1,"nodes":[{"nodeId":"ND-0001","systemId":"SYS-0009"}]}`),
			`node ND-0001 refers to unknown system "SYS-0009"`},
		{"duplicate system", write("d.json", `{"format":1,"systems":[{"systemId":"S"},{"systemId":"S"}]}`), "duplicate ID"},
		{"unwritable", filepath.Join(dir, "missing-dir", "state.json"), "no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(Options{AdminKey: "k", StateFile: tc.path})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestSaveFailureIs500(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sub")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	h := newTestSim(t, stateOpts(filepath.Join(dir, "state.json"))).Handler()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	got := call(t, h, "POST", admin("/rest/systems"), `{"systemName":"a"}`)
	if got.status != http.StatusInternalServerError ||
		!strings.Contains(got.body, `"code":"INTERNAL_ERROR"`) || !strings.Contains(got.body, "saving state") {
		t.Fatalf("got %d %s", got.status, got.body)
	}
}

func TestUnknownAreaStateIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(path, []byte(`{"format":1,"areas":{"mystery":{"x":1}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newTestSim(t, stateOpts(path)).Handler()
	createSystem(t, h, "a")
	var f stateFile
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var m map[string]int
	if err := json.Unmarshal(f.Areas["mystery"], &m); err != nil || len(m) != 1 || m["x"] != 1 {
		t.Fatalf("areas = %s", data)
	}
}

func TestDemoSeed(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	// The counts include the servers that the servers area seeds on web-01.
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), 200, `{"systems":[`+
		`{"systemId":"SYS-0002","systemName":"batch","nodeCount":0,"webCount":0,"appCount":0,"sessionCount":0,"cacheCount":0},`+
		`{"systemId":"SYS-0001","systemName":"shop","nodeCount":2,"webCount":2,"appCount":2,"sessionCount":1,"cacheCount":0}]}`)
	expect(t, call(t, h, "GET", admin("/rest/nodes"), ""), 200, `{"nodes":[`+
		`{"nodeName":"app-01","systemName":"shop","hostIp":"10.0.0.12","agentPort":7730,"status":"running"},`+
		`{"nodeName":"web-01","systemName":"shop","hostIp":"10.0.0.11","agentPort":7730,"status":"running"}]}`)

	for _, seed := range []string{"", SeedEmpty} {
		h := newTestSim(t, func(o *Options) { o.Seed = seed }).Handler()
		expect(t, call(t, h, "GET", admin("/rest/systems"), ""), 200, `{"systems":[]}`)
		expect(t, call(t, h, "GET", admin("/rest/nodes"), ""), 200, `{"nodes":[]}`)
	}
}
