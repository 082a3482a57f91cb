package engine

import (
	"fmt"
	"strings"
	"time"
)

// Blocker is an object that holds another one: the manager refuses the other's delete
// (409) while it is there.
type Blocker struct {
	What string // how errors name it, such as `server "was-1" (E, running)`
	// ID is its id in a Terraform state, with which `terraform state list -id=` finds the
	// resource that manages it; "" when no resource manages it by itself.
	ID string
	// ReleasedBy are the objects whose delete releases it, each a resource type and an
	// import ID, as claimKey writes them ("apm_was_server SYS-1/app-01/was-1").
	ReleasedBy []string
}

// HeldBy is a blocker that a resource of one of types manages under id, whose delete
// releases the object. Several types fit when the manager's listing does not tell which
// (the servers of a node).
func HeldBy(what, id string, types ...string) Blocker {
	b := Blocker{What: what, ID: id}
	for _, t := range types {
		b.ReleasedBy = append(b.ReleasedBy, t+" "+id)
	}
	return b
}

// AlsoReleasedBy adds another object whose delete releases b (a user, whose delete
// removes its grants).
func (b Blocker) AlsoReleasedBy(typ, id string) Blocker {
	b.ReleasedBy = append(b.ReleasedBy, typ+" "+id)
	return b
}

// DefaultBlockedGrace is how long a refused delete keeps trying while the same blockers,
// none of them deleted by this process, hold its object: long enough for a delete that
// Terraform starts a moment later (its -parallelism makes some wait their turn) to begin.
const DefaultBlockedGrace = 5 * time.Second

// blockedWatch judges, refusal after refusal, whether a delete can still hope: it can
// while this process deletes one of the blockers, or while they keep changing.
type blockedWatch struct {
	inFlight *deletesInFlight
	grace    time.Duration
	last     []Blocker // the blockers of the last refusal
	seen     string    // the same, as setOf writes them, to tell a change
	since    time.Time // since when they are unchanged and none is being deleted here
	refusals int
}

// newBlockedWatch judges over the deletes of inFlight; a grace of 0 is DefaultBlockedGrace.
func newBlockedWatch(inFlight *deletesInFlight, grace time.Duration) *blockedWatch {
	if grace == 0 {
		grace = DefaultBlockedGrace
	}
	return &blockedWatch{inFlight: inFlight, grace: grace}
}

// hopeless records one refusal with its blockers (nil when they could not be listed) and
// reports whether waiting can no longer help: the same blockers for the grace, and none
// of them deleted by this process. A refusal with no known blockers keeps the hope that
// the timeout bounds.
func (w *blockedWatch) hopeless(now time.Time, blockers []Blocker) bool {
	w.refusals++
	if len(blockers) == 0 {
		w.seen, w.since = "", now
		return false
	}
	w.last = blockers
	if seen := setOf(blockers); seen != w.seen || w.anyReleasing() {
		w.seen, w.since = seen, now
		return false
	}
	return now.Sub(w.since) >= w.grace
}

// setOf is blockers as one comparable value.
func setOf(blockers []Blocker) string {
	var b strings.Builder
	for _, x := range blockers {
		fmt.Fprintf(&b, "%s\x00%s\x00", x.What, x.ID)
	}
	return b.String()
}

func (w *blockedWatch) anyReleasing() bool {
	for _, b := range w.last {
		if w.inFlight.releasing(b) {
			return true
		}
	}
	return false
}

// list names the last blockers, each with its id and whether this run is deleting it.
func (w *blockedWatch) list() string {
	names := make([]string, len(w.last))
	for i, x := range w.last {
		var notes []string
		if x.ID != "" {
			notes = append(notes, "id "+x.ID)
		}
		if w.inFlight.releasing(x) {
			notes = append(notes, "which this run is deleting")
		}
		names[i] = x.What
		if len(notes) > 0 {
			names[i] += " (" + strings.Join(notes, ", ") + ")"
		}
	}
	return strings.Join(names, ", ")
}

// findAdvice says how to find the resources that manage blockers: the provider is never
// told resource addresses, but a state knows them by id.
const findAdvice = "`terraform state list -id=<id>` shows the address of the resource that manages one of them in a configuration's state " +
	"(run it where that configuration is); an object no state lists was made outside Terraform."

// heldAdvice is what to do about blockers that nothing in the run deletes.
const heldAdvice = "Delete or move them first (with the configuration that manages them, or in the manager), " +
	"or destroy without -target so that this run deletes them too. " + findAdvice

// heldOutside is the error of a delete that waiting cannot help.
func (w *blockedWatch) heldOutside(what string, conflict error) error {
	return fmt.Errorf("%s is held by %s, and nothing in this run deletes them (the manager refused the delete %d times, "+
		"with the same holders for %s): %w.\n\n%s", what, w.list(), w.refusals, FormatDuration(w.grace), conflict, heldAdvice)
}

// interrupted is the error of a wait for blockers that the run's interrupt stopped: the
// delete was sent, and refused.
func (w *blockedWatch) interrupted(what string, waited time.Duration, conflict error) error {
	held := ""
	if len(w.last) > 0 {
		held = "; it is held by " + w.list()
	}
	return fmt.Errorf("interrupted after %s of waiting: the delete of %s was sent %d times and refused each time (%w)%s. "+
		"Nothing was deleted. %s", FormatDuration(waited.Round(time.Second)), what, w.refusals, conflict, held, findAdvice)
}
