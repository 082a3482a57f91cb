package apmsim_test

// Property test of the store under concurrent writers, and the world checker it shares
// with the fuzz targets (fuzz_test.go). Both drive the sim only through its HTTP handler
// and check the world only through the API, as a client would see it.
//
// This file is in package apmsim_test (not apmsim) on purpose: it uses nothing but the
// exported API, and its helpers cannot collide with the package's own test helpers.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

// ---- driving the sim through its handler ----

// simAPI sends requests to a Sim's handler with the admin key.
type simAPI struct {
	h   http.Handler
	key string
}

type simResp struct {
	status int
	body   []byte
	header http.Header
}

func (r simResp) String() string { return fmt.Sprintf("%d %s", r.status, r.body) }

// send performs one request. escapedPath is the path as it goes on the wire (segments
// escaped); rawQuery is appended after the key, so a "key" in it cannot replace the admin
// key. A nil body sends none; a non-empty contentType is set as Content-Type.
func (a simAPI) send(method, escapedPath, rawQuery string, body []byte, contentType string) simResp {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req := httptest.NewRequest(method, "/", rd)
	p, err := url.PathUnescape(escapedPath)
	if err != nil {
		p = escapedPath
	}
	req.URL.Path, req.URL.RawPath = p, escapedPath
	req.URL.RawQuery = "key=" + url.QueryEscape(a.key)
	if rawQuery != "" {
		req.URL.RawQuery += "&" + rawQuery
	}
	req.RequestURI = req.URL.RequestURI()
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	a.h.ServeHTTP(rec, req)
	return simResp{status: rec.Code, body: rec.Body.Bytes(), header: rec.Header()}
}

// sendJSON sends v (nil: no body) as application/json.
func (a simAPI) sendJSON(method, escapedPath, rawQuery string, v any) simResp {
	if v == nil {
		return a.send(method, escapedPath, rawQuery, nil, "")
	}
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // test bug: every value sent is marshallable
	}
	return a.send(method, escapedPath, rawQuery, data, "application/json")
}

// getJSON reads escapedPath into out; anything but a 200 JSON answer is an error.
func (a simAPI) getJSON(escapedPath string, out any) error {
	r := a.send(http.MethodGet, escapedPath, "", nil, "")
	if r.status != http.StatusOK {
		return fmt.Errorf("GET %s: %s", escapedPath, r)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		return fmt.Errorf("GET %s: content type %q", escapedPath, ct)
	}
	if err := json.Unmarshal(r.body, out); err != nil {
		return fmt.Errorf("GET %s: %v: %s", escapedPath, err, r.body)
	}
	return nil
}

// ---- answer shapes ----

// errorCodes is the error code that goes with each error status of the sim.
var errorCodes = map[int]string{
	http.StatusBadRequest:            "BAD_REQUEST",
	http.StatusUnauthorized:          "UNAUTHORIZED",
	http.StatusForbidden:             "FORBIDDEN",
	http.StatusNotFound:              "NOT_FOUND",
	http.StatusMethodNotAllowed:      "METHOD_NOT_ALLOWED",
	http.StatusConflict:              "CONFLICT",
	http.StatusRequestEntityTooLarge: "PAYLOAD_TOO_LARGE",
	http.StatusUnsupportedMediaType:  "UNSUPPORTED_MEDIA_TYPE",
	http.StatusInternalServerError:   "INTERNAL_ERROR",
}

// jsonObject decodes a body that must be one JSON object, keeping the values raw.
func jsonObject(body []byte) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("body is not a JSON object: %v", err)
	}
	if obj == nil {
		return nil, errors.New("body is null, not an object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON object")
	}
	return obj, nil
}

// stringField returns obj[name] as a non-empty string.
func stringField(obj map[string]json.RawMessage, name string) (string, error) {
	raw, ok := obj[name]
	if !ok {
		return "", fmt.Errorf("no %q", name)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%q is not a string: %s", name, raw)
	}
	if strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("%q is empty", name)
	}
	return s, nil
}

// checkErrorShape checks a non-2xx answer: exactly {"error": non-empty, "code": the code of
// the status}, as JSON.
func checkErrorShape(r simResp) error {
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		return fmt.Errorf("content type %q", ct)
	}
	obj, err := jsonObject(r.body)
	if err != nil {
		return err
	}
	if len(obj) != 2 {
		return fmt.Errorf("error body has %d fields, want error and code", len(obj))
	}
	if _, err := stringField(obj, "error"); err != nil {
		return fmt.Errorf("error body: %v", err)
	}
	code, err := stringField(obj, "code")
	if err != nil {
		return fmt.Errorf("error body: %v", err)
	}
	if want := errorCodes[r.status]; code != want {
		return fmt.Errorf("code %q with status %d, want %q", code, r.status, want)
	}
	return nil
}

// checkWriteAnswer checks the answer to a create, modify or delete: 200 with
// {"actionResult":"Y"} or {"actionResult":"N","message":"<why>"}, or an error body.
func checkWriteAnswer(r simResp) error {
	if r.status != http.StatusOK {
		return checkErrorShape(r)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		return fmt.Errorf("content type %q", ct)
	}
	obj, err := jsonObject(r.body)
	if err != nil {
		return err
	}
	result, err := stringField(obj, "actionResult")
	if err != nil {
		return err
	}
	switch {
	case result == "Y" && len(obj) == 1:
		return nil
	case result == "N" && len(obj) == 2:
		if _, err := stringField(obj, "message"); err != nil {
			return fmt.Errorf("actionResult N: %v", err)
		}
		return nil
	}
	return errors.New("not an ActionResult")
}

// ---- the world as the API shows it ----

type apiSystem struct {
	SystemID     string `json:"systemId"`
	SystemName   string `json:"systemName"`
	NodeCount    int    `json:"nodeCount"`
	WebCount     int    `json:"webCount"`
	AppCount     int    `json:"appCount"`
	SessionCount int    `json:"sessionCount"`
	CacheCount   int    `json:"cacheCount"`
}

type apiSystemDetail struct {
	SystemID   string          `json:"systemId"`
	SystemName string          `json:"systemName"`
	Nodes      []apiSystemNode `json:"nodes"`
}

type apiSystemNode struct {
	NodeName string `json:"nodeName"`
	HostIP   string `json:"hostIp"`
	Status   string `json:"status"`
}

type apiNode struct {
	NodeName   string `json:"nodeName"`
	SystemName string `json:"systemName"`
	HostIP     string `json:"hostIp"`
	AgentPort  int    `json:"agentPort"`
	Status     string `json:"status"`
}

type apiNodeDetail struct {
	NodeID string `json:"nodeId"`
	apiNode
	Servers []apiNodeServer `json:"servers"`
}

type apiNodeServer struct {
	ServerID   string `json:"serverId"`
	ServerType string `json:"serverType"`
	Status     string `json:"status"`
}

// apiServer holds the fields of every kind's list element and detail.
type apiServer struct {
	ServerID   string      `json:"serverId"`
	NodeName   string      `json:"nodeName"`
	SystemName string      `json:"systemName"`
	Status     string      `json:"status"`
	HTTPPort   int         `json:"httpPort"`
	AJPPort    int         `json:"ajpPort"`
	HTTPSPort  int         `json:"httpsPort"`
	ServerPort int         `json:"serverPort"`
	Workers    []apiWorker `json:"workers"`
	// WAS only.
	Datasources []string `json:"datasources"`
}

type apiWorker struct {
	ServerID   string `json:"serverId"`
	NodeName   string `json:"nodeName"`
	SystemName string `json:"systemName"`
}

// ports returns the server's non-zero ports.
func (s apiServer) ports() []int {
	var out []int
	for _, p := range []int{s.HTTPPort, s.AJPPort, s.HTTPSPort, s.ServerPort} {
		if p != 0 {
			out = append(out, p)
		}
	}
	return out
}

var serverKinds = []string{"was", "web", "session"}

func serverPath(kind, serverID, nodeName, systemName string) string {
	return "/rest/" + kind + "/servers/" + url.PathEscape(serverID) + "/nodes/" + url.PathEscape(nodeName) +
		"/systems/" + url.PathEscape(systemName)
}

func nodePath(nodeName, systemName string) string {
	return "/rest/nodes/" + url.PathEscape(nodeName) + "/systems/" + url.PathEscape(systemName)
}

type apiDatasource struct {
	ResourceName         string `json:"resourceName"`
	DatabaseResourceName string `json:"databaseResourceName"`
}

type apiUser struct {
	UsrID string   `json:"usrId"`
	Roles []string `json:"roles"`
}

type apiRole struct {
	AuthID string `json:"authId"`
}

// traceLogLen returns the number of entries of the action trace log.
func traceLogLen(a simAPI) (int, error) {
	var logs struct {
		Logs []json.RawMessage `json:"logs"`
	}
	err := a.getJSON("/rest/admin/actionTraceLogList", &logs)
	return len(logs.Logs), err
}

// checkWorld reads the whole world through the API and checks that its views agree. It
// must run while nothing changes the world (views are read one request at a time):
//   - every list and every detail of a listed object answers 200 JSON;
//   - every system's nodeCount, appCount, webCount and sessionCount match the node list and
//     the WAS, web and session server lists, in the system list and the system detail;
//   - the system detail lists exactly the system's nodes of the node list;
//   - every node and server refers to an existing system (and node);
//   - a node's detail lists exactly the servers the three lists give for it, with the same
//     status as the lists and the server details;
//   - no two ports on one node are the same (across servers and port fields);
//   - every web worker names an existing WAS server;
//   - every datasource's database exists, every datasource attached to a WAS server
//     exists, and every role granted to a user exists.
func checkWorld(a simAPI) error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	var systems struct {
		Systems []apiSystem `json:"systems"`
	}
	var nodes struct {
		Nodes []apiNode `json:"nodes"`
	}
	if err := a.getJSON("/rest/systems", &systems); err != nil {
		return err
	}
	if err := a.getJSON("/rest/nodes", &nodes); err != nil {
		return err
	}
	servers := map[string][]apiServer{}
	for _, kind := range serverKinds {
		var list struct {
			Servers []apiServer `json:"servers"`
		}
		if err := a.getJSON("/rest/"+kind+"/servers", &list); err != nil {
			return err
		}
		servers[kind] = list.Servers
	}

	// Systems: counts from the lists, detail against list.
	type nodeKey struct{ system, node string }
	nodesBySystem := map[string][]apiSystemNode{}
	nodeSet := map[nodeKey]apiNode{}
	for _, n := range nodes.Nodes {
		nodesBySystem[n.SystemName] = append(nodesBySystem[n.SystemName], apiSystemNode{n.NodeName, n.HostIP, n.Status})
		if _, dup := nodeSet[nodeKey{n.SystemName, n.NodeName}]; dup {
			fail("node %s listed twice in system %s", n.NodeName, n.SystemName)
		}
		nodeSet[nodeKey{n.SystemName, n.NodeName}] = n
	}
	kindCount := map[string]map[string]int{}
	for kind, list := range servers {
		for _, s := range list {
			if kindCount[s.SystemName] == nil {
				kindCount[s.SystemName] = map[string]int{}
			}
			kindCount[s.SystemName][kind]++
		}
	}
	systemSet := map[string]bool{}
	for _, sys := range systems.Systems {
		systemSet[sys.SystemName] = true
		want := apiSystem{
			SystemID: sys.SystemID, SystemName: sys.SystemName, NodeCount: len(nodesBySystem[sys.SystemName]),
			AppCount: kindCount[sys.SystemName]["was"], WebCount: kindCount[sys.SystemName]["web"],
			SessionCount: kindCount[sys.SystemName]["session"], CacheCount: sys.CacheCount,
		}
		if sys != want {
			fail("system list entry %+v, but the node and server lists give %+v", sys, want)
		}
		var d apiSystemDetail
		if err := a.getJSON("/rest/systems/"+url.PathEscape(sys.SystemName), &d); err != nil {
			fail("%v", err)
			continue
		}
		if d.SystemID != sys.SystemID || d.SystemName != sys.SystemName {
			fail("system detail %s/%s differs from its list entry %+v", d.SystemID, d.SystemName, sys)
		}
		if !sameElements(d.Nodes, nodesBySystem[sys.SystemName]) {
			fail("system %s detail lists nodes %+v, the node list %+v", sys.SystemName, d.Nodes, nodesBySystem[sys.SystemName])
		}
	}
	for _, n := range nodes.Nodes {
		if !systemSet[n.SystemName] {
			fail("node %s is in system %s, which is not listed", n.NodeName, n.SystemName)
		}
	}

	// Servers: each detail, ports per node, node detail against the lists.
	serversByNode := map[nodeKey][]apiNodeServer{}
	portsByNode := map[nodeKey]map[int]string{}
	wasSet := map[[3]string]bool{}
	attached := map[string][]string{} // datasource name -> WAS servers it is attached to
	for _, s := range servers["was"] {
		wasSet[[3]string{s.SystemName, s.NodeName, s.ServerID}] = true
	}
	for _, kind := range serverKinds {
		for _, s := range servers[kind] {
			k := nodeKey{s.SystemName, s.NodeName}
			if _, ok := nodeSet[k]; !ok {
				fail("%s server %s is on node %s of system %s, which is not listed", kind, s.ServerID, s.NodeName, s.SystemName)
			}
			serversByNode[k] = append(serversByNode[k], apiNodeServer{s.ServerID, kind, s.Status})
			var d apiServer
			if err := a.getJSON(serverPath(kind, s.ServerID, s.NodeName, s.SystemName), &d); err != nil {
				fail("%v", err)
				continue
			}
			if d.ServerID != s.ServerID || d.NodeName != s.NodeName || d.SystemName != s.SystemName || d.Status != s.Status ||
				d.HTTPPort != s.HTTPPort || d.ServerPort != s.ServerPort {
				fail("%s server detail %+v differs from its list entry %+v", kind, d, s)
			}
			if portsByNode[k] == nil {
				portsByNode[k] = map[int]string{}
			}
			for _, p := range d.ports() {
				if other, taken := portsByNode[k][p]; taken {
					fail("port %d on node %s of system %s is used by %s and by %s server %s", p, s.NodeName, s.SystemName, other, kind, s.ServerID)
				}
				portsByNode[k][p] = kind + " server " + s.ServerID
			}
			for _, ds := range d.Datasources {
				attached[ds] = append(attached[ds], kind+" server "+s.ServerID+" on node "+s.NodeName+" of system "+s.SystemName)
			}
			for _, w := range d.Workers {
				if !wasSet[[3]string{w.SystemName, w.NodeName, w.ServerID}] {
					fail("web server %s has worker %+v, which is no listed WAS server", s.ServerID, w)
				}
			}
		}
	}
	for _, n := range nodes.Nodes {
		var d apiNodeDetail
		if err := a.getJSON(nodePath(n.NodeName, n.SystemName), &d); err != nil {
			fail("%v", err)
			continue
		}
		if d.apiNode != n {
			fail("node detail %+v differs from its list entry %+v", d.apiNode, n)
		}
		if want := serversByNode[nodeKey{n.SystemName, n.NodeName}]; !sameElements(d.Servers, want) {
			fail("node %s of system %s: detail lists servers %+v, the server lists %+v", n.NodeName, n.SystemName, d.Servers, want)
		}
	}

	// Resources: datasources need their database.
	var dbs struct {
		Databases []struct {
			ResourceName string `json:"resourceName"`
		} `json:"databases"`
	}
	var dss struct {
		Datasources []apiDatasource `json:"datasources"`
	}
	if err := a.getJSON("/rest/resource/databases", &dbs); err != nil {
		return errors.Join(append(errs, err)...)
	}
	if err := a.getJSON("/rest/resource/datasources", &dss); err != nil {
		return errors.Join(append(errs, err)...)
	}
	dbSet := map[string]bool{}
	for _, db := range dbs.Databases {
		dbSet[db.ResourceName] = true
		var d json.RawMessage
		if err := a.getJSON("/rest/resource/databases/"+url.PathEscape(db.ResourceName), &d); err != nil {
			fail("%v", err)
		}
	}
	dsSet := map[string]bool{}
	for _, ds := range dss.Datasources {
		dsSet[ds.ResourceName] = true
	}
	for _, name := range slices.Sorted(maps.Keys(attached)) {
		if !dsSet[name] {
			fail("datasource %s is attached to %s, but not listed", name, strings.Join(attached[name], ", "))
		}
	}
	for _, ds := range dss.Datasources {
		if !dbSet[ds.DatabaseResourceName] {
			fail("datasource %s is on database %s, which is not listed", ds.ResourceName, ds.DatabaseResourceName)
		}
		var d json.RawMessage
		if err := a.getJSON("/rest/resource/datasources/"+url.PathEscape(ds.ResourceName), &d); err != nil {
			fail("%v", err)
		}
	}

	// Administration: granted roles exist.
	var users struct {
		Users []apiUser `json:"users"`
	}
	var roles struct {
		Auths []apiRole `json:"auths"`
	}
	if err := a.getJSON("/rest/admin/users", &users); err != nil {
		return errors.Join(append(errs, err)...)
	}
	if err := a.getJSON("/rest/admin/auth", &roles); err != nil {
		return errors.Join(append(errs, err)...)
	}
	roleSet := map[string]bool{}
	for _, ro := range roles.Auths {
		roleSet[ro.AuthID] = true
		var d json.RawMessage
		if err := a.getJSON("/rest/admin/auth/"+url.PathEscape(ro.AuthID), &d); err != nil {
			fail("%v", err)
		}
	}
	for _, u := range users.Users {
		for _, ro := range u.Roles {
			if !roleSet[ro] {
				fail("user %s has role %s, which is not listed", u.UsrID, ro)
			}
		}
		var d json.RawMessage
		if err := a.getJSON("/rest/admin/user/"+url.PathEscape(u.UsrID), &d); err != nil {
			fail("%v", err)
		}
	}
	return errors.Join(errs...)
}

// sameElements reports whether a and b hold the same elements, in any order.
func sameElements[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[T]int{}
	for _, x := range a {
		count[x]++
	}
	for _, x := range b {
		count[x]--
		if count[x] < 0 {
			return false
		}
	}
	return true
}

// ---- the property test ----

// propertySeedEnv names the environment variable that fixes the base seed of
// TestConcurrentWritersKeepWorldConsistent; without it the seed is random (and logged when
// the test fails).
const propertySeedEnv = "APMSIM_PROPERTY_SEED"

const propertyAdminKey = "property-admin-key"

// TestConcurrentWritersKeepWorldConsistent runs random mixed writes from several
// goroutines (each with its own seeded generator) against one Sim, accepts any 2xx or 4xx
// answer of the right shape (never a 5xx), and checks the world with checkWorld
// periodically during the run (writers paused) and at the end, together with the action
// trace log: one entry per write request sent. A lock-free reader meanwhile checks what
// must hold within a single answer.
func TestConcurrentWritersKeepWorldConsistent(t *testing.T) {
	const (
		writers      = 6
		opsPerWriter = 500
		checkEvery   = 50 * time.Millisecond
	)
	base := uint64(time.Now().UnixNano())
	if v := os.Getenv(propertySeedEnv); v != "" {
		var err error
		if base, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("%s=%q: %v", propertySeedEnv, v, err)
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("base seed %d (writer i uses PCG(%d, i)); rerun with %s=%d", base, base, propertySeedEnv, base)
		}
	})

	sim, err := apmsim.New(apmsim.Options{AdminKey: propertyAdminKey, Seed: apmsim.SeedDemo, TransitionDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	api := simAPI{h: sim.Handler(), key: propertyAdminKey}
	initialLog, err := traceLogLen(api)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkWorld(api); err != nil {
		t.Fatalf("the demo world is inconsistent before any write: %v", err)
	}

	var (
		gate    sync.RWMutex // writers hold it shared per operation; the checker exclusively
		writes  atomic.Int64 // write requests answered so far
		failed  atomic.Bool
		checks  atomic.Int64
		stopped = make(chan struct{})
	)
	failf := func(format string, args ...any) {
		failed.Store(true)
		t.Errorf(format, args...)
	}
	checkNow := func(when string) {
		gate.Lock()
		defer gate.Unlock()
		checks.Add(1)
		if err := checkWorld(api); err != nil {
			failf("%s: %v", when, err)
		}
		n, err := traceLogLen(api)
		if want := initialLog + int(writes.Load()); err != nil || n != want {
			failf("%s: action trace log has %d entries (err %v), want %d (%d before + %d writes)", when, n, err, want, initialLog, writes.Load())
		}
	}

	var background sync.WaitGroup
	background.Go(func() { // the periodic checker: a pause of checkEvery between checks
		for {
			select {
			case <-stopped:
				return
			case <-time.After(checkEvery):
				if !failed.Load() {
					checkNow("during the run")
				}
			}
		}
	})
	background.Go(func() { // the lock-free reader: what one answer must show by itself
		for {
			select {
			case <-stopped:
				return
			default:
			}
			if err := checkSingleAnswers(api); err != nil {
				failf("concurrent read: %v", err)
				return
			}
			time.Sleep(time.Millisecond) // leave the CPUs to the writers
		}
	})

	start := time.Now()
	var wg sync.WaitGroup
	var answersMu sync.Mutex
	answers := map[string]int{}
	for i := range writers {
		wg.Go(func() {
			w := &propWriter{api: api, rng: rand.New(rand.NewPCG(base, uint64(i))), id: i, answers: map[string]int{}}
			defer func() {
				answersMu.Lock()
				defer answersMu.Unlock()
				for k, n := range w.answers {
					answers[k] += n
				}
			}()
			for op := 0; op < opsPerWriter && !failed.Load(); op++ {
				gate.RLock()
				err := w.step()
				writes.Add(int64(w.pendingWrites))
				w.pendingWrites = 0
				gate.RUnlock()
				if err != nil {
					failf("writer %d (seed PCG(%d, %d)), operation %d: %v", i, base, i, op, err)
				}
			}
		})
	}
	wg.Wait()
	close(stopped)
	background.Wait()
	checkNow("after the run")
	t.Logf("%d writers x %d operations: %d write requests in %v, %d world checks; answers %v",
		writers, opsPerWriter, writes.Load(), time.Since(start).Round(time.Millisecond), checks.Load(), answers)
}

// checkSingleAnswers checks what holds within one answer even while writers run: a system
// detail names the system asked for and lists each node once, and lists and details
// answer 200.
func checkSingleAnswers(a simAPI) error {
	var systems struct {
		Systems []apiSystem `json:"systems"`
	}
	if err := a.getJSON("/rest/systems", &systems); err != nil {
		return err
	}
	for _, sys := range systems.Systems {
		r := a.send(http.MethodGet, "/rest/systems/"+url.PathEscape(sys.SystemName), "", nil, "")
		if r.status == http.StatusNotFound { // renamed or deleted since the list
			continue
		}
		var d apiSystemDetail
		if r.status != http.StatusOK || json.Unmarshal(r.body, &d) != nil {
			return fmt.Errorf("system detail of %s: %s", sys.SystemName, r)
		}
		if d.SystemName != sys.SystemName {
			return fmt.Errorf("system detail of %s names %s", sys.SystemName, d.SystemName)
		}
		seen := map[string]bool{}
		for _, n := range d.Nodes {
			if seen[n.NodeName] {
				return fmt.Errorf("system %s detail lists node %s twice", sys.SystemName, n.NodeName)
			}
			seen[n.NodeName] = true
		}
	}
	var nodes struct {
		Nodes []apiNode `json:"nodes"`
	}
	if err := a.getJSON("/rest/nodes", &nodes); err != nil {
		return err
	}
	for _, kind := range serverKinds {
		var list struct {
			Servers []apiServer `json:"servers"`
		}
		if err := a.getJSON("/rest/"+kind+"/servers", &list); err != nil {
			return err
		}
	}
	return nil
}

// propWriter is one writer goroutine: a seeded generator choosing operations on small,
// shared name pools, so that writers collide on names, nodes and ports.
type propWriter struct {
	api           simAPI
	rng           *rand.Rand
	id            int
	pendingWrites int
	answers       map[string]int // "200 Y", "200 N", "404", ...: how the writes were answered
}

var (
	propSystems   = []string{"shop", "batch", "s0", "s1"}
	propNodes     = []string{"web-01", "app-01", "n0"}
	propServerIDs = []string{"x0", "x1", "was-01", "web-01", "session-01"}
	propRegIDs    = map[string]string{"was": "was-reg-1", "web": "web-reg-1", "session": "session-reg-1"}
	propDatabases = []string{"orders-db", "reports-db", "db0", "db1"}
	propDSs       = []string{"orders-ds", "ds0", "ds1", "ds2"}
	propUsers     = []string{"ops.admin", "operator", "u0", "u1"}
	propRoles     = []string{"admins", "auditors", "operators", "r0", "r1"}
)

func pick[T any](rng *rand.Rand, items []T) T { return items[rng.IntN(len(items))] }

// port picks from a small range so that port conflicts happen.
func (w *propWriter) port() int { return 8000 + w.rng.IntN(8) }

// write sends one write and checks its answer: 200, 400, 404 or 409 with the right shape.
func (w *propWriter) write(method, escapedPath, rawQuery string, body any) error {
	r := w.api.sendJSON(method, escapedPath, rawQuery, body)
	w.pendingWrites++
	switch r.status {
	case http.StatusOK, http.StatusBadRequest, http.StatusNotFound, http.StatusConflict:
	default:
		return fmt.Errorf("%s %s?%s %v: unexpected status: %s", method, escapedPath, rawQuery, body, r)
	}
	if err := checkWriteAnswer(r); err != nil {
		return fmt.Errorf("%s %s?%s %v: %v: %s", method, escapedPath, rawQuery, body, err, r)
	}
	answer := strconv.Itoa(r.status)
	if r.status == http.StatusOK {
		answer += " N"
		if bytes.Contains(r.body, []byte(`"Y"`)) {
			answer = "200 Y"
		}
	}
	w.answers[answer]++
	return nil
}

// nodeID looks a node's id up by name, as a client must before PUT or DELETE; "" when it
// does not exist (now).
func (w *propWriter) nodeID(system, node string) (string, error) {
	r := w.api.send(http.MethodGet, nodePath(node, system), "", nil, "")
	switch r.status {
	case http.StatusNotFound:
		return "", checkErrorShape(r)
	case http.StatusOK:
		var d apiNodeDetail
		if err := json.Unmarshal(r.body, &d); err != nil || d.NodeID == "" {
			return "", fmt.Errorf("node detail: %s", r)
		}
		return d.NodeID, nil
	}
	return "", fmt.Errorf("GET %s: %s", nodePath(node, system), r)
}

// listedServer picks a server of kind from the current list, as a client acting on what it
// read would; ok is false when there is none.
func (w *propWriter) listedServer(kind string) (s apiServer, ok bool, err error) {
	var list struct {
		Servers []apiServer `json:"servers"`
	}
	if err := w.api.getJSON("/rest/"+kind+"/servers", &list); err != nil || len(list.Servers) == 0 {
		return s, false, err
	}
	return pick(w.rng, list.Servers), true, nil
}

// step performs one random operation. Operations on servers act on a listed server three
// times out of four, else on a random (often unknown) one.
func (w *propWriter) step() error {
	rng := w.rng
	sys, node := pick(rng, propSystems), pick(rng, propNodes)
	kind, id := pick(rng, serverKinds), pick(rng, propServerIDs)
	op := rng.IntN(100)
	if op >= 40 && op < 70 && rng.IntN(4) != 0 {
		if op >= 64 {
			kind = "web" // workers
		}
		if op >= 68 {
			kind = "was" // datasources
		}
		s, ok, err := w.listedServer(kind)
		if err != nil {
			return err
		}
		if ok {
			id, node, sys = s.ServerID, s.NodeName, s.SystemName
		}
	}
	srv := serverPath(kind, id, node, sys)
	var err error
	switch {
	// systems
	case op < 4:
		err = w.write("POST", "/rest/systems", "", map[string]any{"systemName": sys})
	case op < 6:
		err = w.write("PUT", "/rest/systems/"+sys, "", map[string]any{"systemName": pick(rng, propSystems)})
	case op < 8:
		err = w.write("DELETE", "/rest/systems/"+sys, "", nil)
	// nodes
	case op < 16:
		err = w.write("POST", "/rest/nodes", "", map[string]any{
			"nodeName": node, "systemName": sys, "hostIp": fmt.Sprintf("10.0.%d.%d", w.id, rng.IntN(4)), "agentPort": 7000 + rng.IntN(3),
		})
	case op < 22:
		var nid string
		if nid, err = w.nodeID(sys, node); err != nil || nid == "" {
			break
		}
		if op < 19 {
			err = w.write("PUT", "/rest/nodes/"+nid+"/systems/"+sys, "", map[string]any{"hostIp": "10.1.0." + strconv.Itoa(rng.IntN(9)), "agentPort": 7100 + rng.IntN(3)})
		} else {
			err = w.write("DELETE", "/rest/nodes/"+nid+"/systems/"+sys, "", nil)
		}
	// servers
	case op < 34:
		body := map[string]any{"type": "install", "serverId": id, "nodeName": node, "systemName": sys}
		switch kind {
		case "was":
			body["httpPort"], body["ajpPort"] = w.port(), w.port()
		case "web":
			body["httpPort"] = w.port()
			if rng.IntN(2) == 0 {
				body["httpsPort"] = w.port()
			}
		default:
			body["serverPort"] = w.port()
		}
		err = w.write("POST", "/rest/"+kind+"/servers", "", body)
	case op < 40:
		if rng.IntN(2) == 0 {
			id = propRegIDs[kind]
		}
		body := map[string]any{"type": "register", "serverId": id, "nodeName": node, "systemName": sys}
		field := map[string]string{"was": "httpPort", "web": "httpPort", "session": "serverPort"}[kind]
		body[field] = w.port()
		err = w.write("POST", "/rest/"+kind+"/servers", "", body)
	case op < 52:
		body := map[string]any{"action": pick(rng, []string{"start", "stop"})}
		if kind == "was" && rng.IntN(3) == 0 {
			body["force"] = true
		}
		err = w.write("POST", srv+"/action", "", body)
	case op < 60:
		err = w.write("DELETE", srv, "type="+pick(rng, []string{"uninstall", "deregister"}), nil)
	case op < 64:
		field := map[string]string{"was": "ajpPort", "web": "httpsPort", "session": "serverPort"}[kind]
		err = w.write("PUT", srv, "", map[string]any{field: w.port()})
	case op < 68:
		workers := []map[string]any{}
		for range rng.IntN(3) {
			was, ok, lerr := w.listedServer("was")
			if lerr != nil {
				return lerr
			}
			if !ok || rng.IntN(4) == 0 {
				was = apiServer{ServerID: pick(rng, propServerIDs), NodeName: pick(rng, propNodes), SystemName: pick(rng, propSystems)}
			}
			workers = append(workers, map[string]any{"serverId": was.ServerID, "nodeName": was.NodeName, "systemName": was.SystemName})
		}
		err = w.write("PUT", srv+"/worker", "", map[string]any{"workers": workers})
	case op < 70:
		err = w.write("POST", srv+"/datasource", "", map[string]any{"resourceName": pick(rng, propDSs)})
	// resources
	case op < 74:
		err = w.write("POST", "/rest/resource/databases", "", map[string]any{
			"resourceName": pick(rng, propDatabases), "databaseType": "MySQL", "host": "db.example", "port": 3306,
			"databaseName": "d", "userName": "u", "password": "p",
		})
	case op < 76:
		err = w.write("DELETE", "/rest/resource/databases/"+pick(rng, propDatabases), "", nil)
	case op < 80:
		err = w.write("POST", "/rest/resource/datasources", "", map[string]any{
			"resourceName": pick(rng, propDSs), "databaseResourceName": pick(rng, propDatabases), "maxPoolSize": 1 + rng.IntN(20),
		})
	case op < 82:
		err = w.write("PUT", "/rest/resource/datasource/"+pick(rng, propDSs), "", map[string]any{"minPoolSize": rng.IntN(5), "maxPoolSize": 1 + rng.IntN(20)})
	case op < 84:
		err = w.write("DELETE", "/rest/resource/datasources/"+pick(rng, propDSs), "", nil)
	// administration
	case op < 87:
		err = w.write("POST", "/rest/admin/user", "", map[string]any{"usrId": pick(rng, propUsers), "usrNm": "User", "usrPw": "Passw0rd!"})
	case op < 89:
		err = w.write("DELETE", "/rest/admin/user/"+pick(rng, propUsers), "", nil)
	case op < 92:
		err = w.write("POST", "/rest/admin/auth", "", map[string]any{"authId": pick(rng, propRoles), "authNm": "Role", "actionTypes": []string{"READ"}})
	case op < 94:
		err = w.write("DELETE", "/rest/admin/auth/"+pick(rng, propRoles), "", nil)
	default:
		verb := pick(rng, []string{"grant", "revoke"})
		err = w.write("POST", "/rest/admin/user/"+pick(rng, propUsers)+"/auth/"+verb, "", map[string]any{"authId": pick(rng, propRoles)})
	}
	return err
}
