package engine

import "sync"

// deletesInFlight is the set of objects whose delete this provider process is running.
// Terraform applies every delete of a run through one provider process, so a delete that
// the manager refuses while other objects hold it (409) can tell whether waiting helps:
// a holder that this process is deleting goes away (the ordinary case of a parent and its
// children destroyed together, in parallel when no reference orders them); a holder that
// nothing here deletes stays, and the wait would only run out its timeout.
type deletesInFlight struct {
	mu      sync.Mutex
	running map[string]int // claimKey -> how many deletes of it are running
}

// deleting is the provider process's registry: every provider configuration of the
// process shares it, since two aliases may manage objects of one manager.
var deleting = newDeletesInFlight()

func newDeletesInFlight() *deletesInFlight { return &deletesInFlight{running: map[string]int{}} }

// start records that a delete of the object key runs; done records that it ended,
// whatever its outcome (a failed delete no longer releases anything).
func (d *deletesInFlight) start(key string) (done func()) {
	d.mu.Lock()
	d.running[key]++
	d.mu.Unlock()
	return func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.running[key]--; d.running[key] <= 0 {
			delete(d.running, key)
		}
	}
}

// releasing reports whether a delete that this process runs will release b.
func (d *deletesInFlight) releasing(b Blocker) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, key := range b.ReleasedBy {
		if d.running[key] > 0 {
			return true
		}
	}
	return false
}
