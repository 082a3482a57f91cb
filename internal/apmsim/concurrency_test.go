package apmsim

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// TestConcurrentNodeChurn creates and deletes nodes from many goroutines
// while others read; run with -race. The end state must be exact.
func TestConcurrentNodeChurn(t *testing.T) {
	const workers, perWorker = 8, 40
	s := newTestSim(t, stateOpts(filepath.Join(t.TempDir(), "state.json")))
	h := s.Handler()
	createSystem(t, h, "c")
	s.ResetRequestCounts()

	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				// A detail is read under one lock, so its node list is a
				// snapshot: sorted, without duplicates, whatever writers do.
				var d systemDetailJSON
				if err := json.Unmarshal([]byte(call(t, h, "GET", viewer("/rest/systems/c"), "").body), &d); err != nil {
					t.Error(err)
					return
				}
				for i := 1; i < len(d.Nodes); i++ {
					if d.Nodes[i-1].NodeName >= d.Nodes[i].NodeName {
						t.Errorf("detail nodes out of order: %+v", d.Nodes)
						return
					}
				}
				call(t, h, "GET", viewer("/rest/nodes"), "")
				_ = s.RequestCounts()
			}
		})
	}

	var writers sync.WaitGroup
	for w := range workers {
		writers.Go(func() {
			for i := range perWorker {
				name := fmt.Sprintf("w%d-n%02d", w, i)
				createNode(t, h, "c", name, "10.0.0.1", 7000+i)
				if i%2 == 1 {
					continue
				}
				// Look the nodeId up, as a client must, and delete by it.
				var n nodeDetailJSON
				got := call(t, h, "GET", admin("/rest/nodes/"+name+"/systems/c"), "")
				if err := json.Unmarshal([]byte(got.body), &n); err != nil || n.NodeID == "" {
					t.Errorf("detail of %s: %d %s", name, got.status, got.body)
					return
				}
				mustOK(t, h, "DELETE", admin("/rest/nodes/"+n.NodeID+"/systems/c"), "")
			}
		})
	}
	writers.Wait()
	close(stop)
	readers.Wait()

	var list struct{ Nodes []nodeJSON }
	if err := json.Unmarshal([]byte(call(t, h, "GET", admin("/rest/nodes"), "").body), &list); err != nil {
		t.Fatal(err)
	}
	const want = workers * perWorker / 2
	ids := map[string]bool{}
	for _, n := range list.Nodes {
		ids[getAs[nodeDetailJSON](t, h, "/rest/nodes/"+n.NodeName+"/systems/c").NodeID] = true
	}
	if len(list.Nodes) != want || len(ids) != want {
		t.Fatalf("%d nodes with %d distinct IDs, want %d", len(list.Nodes), len(ids), want)
	}
	expect(t, call(t, h, "GET", admin("/rest/systems"), ""), 200, fmt.Sprintf(
		`{"systems":[{"systemId":"SYS-0001","systemName":"c","nodeCount":%d,"webCount":0,"appCount":0,"sessionCount":0,"cacheCount":0}]}`, want))
	counts := s.RequestCounts()
	if counts["POST /rest/nodes"] != workers*perWorker || counts["DELETE /rest/nodes/{nodeId}/systems/{systemName}"] != want {
		t.Fatalf("counts %v", counts)
	}

	// The state file ended up with the same world.
	h2 := newTestSim(t, stateOpts(s.stateFile)).Handler()
	if a, b := call(t, h, "GET", admin("/rest/nodes"), "").body, call(t, h2, "GET", admin("/rest/nodes"), "").body; a != b {
		t.Fatalf("reloaded node list differs")
	}
}
