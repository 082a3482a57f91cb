package provider

import "testing"

// A state of the builds whose workers were a list becomes the map keyed by each worker's
// WAS server; a state whose workers are a map already stays as it is.
func TestWorkersAsMap(t *testing.T) {
	list := `{"id":"SYS-0001/web-01/web-1","web_server_id":"SYS-0001/web-01/web-1","workers":[` +
		`{"was_server_id":"SYS-0001/app-01/was-1","host":"10.0.0.21","ajp_port":8009,"lb_factor":1},` +
		`{"was_server_id":"SYS-0001/app-01/was-2","host":"10.0.1.21","ajp_port":8010,"lb_factor":3}]}`
	want := `{"id":"SYS-0001/web-01/web-1","web_server_id":"SYS-0001/web-01/web-1","workers":{` +
		`"SYS-0001/app-01/was-1":{"ajp_port":8009,"host":"10.0.0.21","lb_factor":1},` +
		`"SYS-0001/app-01/was-2":{"ajp_port":8010,"host":"10.0.1.21","lb_factor":3}}}`
	got, err := workersAsMap([]byte(list))
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(got, []byte(want)) {
		t.Errorf("upgraded to %s, want %s", got, want)
	}
	if got, err := workersAsMap([]byte(want)); err != nil || !sameJSON(got, []byte(want)) {
		t.Errorf("a map state became %s (%v), want it unchanged", got, err)
	}
	if _, err := workersAsMap([]byte(`{"workers":[{"host":"10.0.0.21"}]}`)); err == nil {
		t.Error("a worker without its WAS server was upgraded; want an error naming it")
	}
}
