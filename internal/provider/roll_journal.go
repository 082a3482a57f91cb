package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// The manager keeps nothing of a roll, so a roll that stops writes down where it
// stopped, and the next run of the same roll carries on from there: the server it left
// out of its load balancers goes first and is put back where it stood once healthy, and
// the servers it finished are not rolled again. apm_was_rollout keeps the journal in its
// private state; an action, which has no state, in a file of the user's cache
// directory, so that invoking it again on the same machine carries on.

// rollJournal is what a stopped roll leaves for the next run.
type rollJournal struct {
	// Fingerprint is of what the roll does to each server (rollFingerprint): the next
	// run skips the servers in Done only when it does the same to them.
	Fingerprint string          `json:"fingerprint"`
	Done        []apm.ServerRef `json:"done,omitempty"`
	// Failed is the server the roll left out of its load balancers, and Seats where it
	// stood in them.
	Failed *apm.ServerRef `json:"failed,omitempty"`
	Seats  []journalSeat  `json:"seats,omitempty"`
}

type journalSeat struct {
	Web    apm.ServerRef `json:"web"`
	Index  int           `json:"index"`
	Worker apm.Worker    `json:"worker"`
}

// rollMemory keeps a roll's journal between runs.
type rollMemory interface {
	// recall is the journal the last run of this roll left, nil when it finished.
	recall() (*rollJournal, error)
	keep(j rollJournal) error
	forget() error
}

// rollFingerprint identifies what a roll does to each server: its operation, the
// application it deploys and, for apm_was_rollout, the triggers that made it run. How it
// goes (batches, drain, timeouts) does not count.
func rollFingerprint(op rollOperation, config engine.Attrs) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n", op.done, config.Str(attrSourcePath), config.Str(attrApplicationName))
	triggers := config.StrMap(attrTriggers)
	for _, k := range slices.Sorted(maps.Keys(triggers)) {
		fmt.Fprintf(h, "%q=%q\n", k, triggers[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// resume is the order in which the roll carries on from j: the server j left out first,
// then the servers not done, and the seats of the server left out. A journal whose
// server left out is not in this roll is not this roll's.
func (r roll) resume(j *rollJournal) (order, skipped []apm.ServerRef, carried map[apm.ServerRef][]seat) {
	if j == nil || j.Failed != nil && !slices.Contains(r.servers, *j.Failed) {
		return r.servers, nil, nil
	}
	if j.Failed != nil {
		seats := make([]seat, len(j.Seats))
		for i, s := range j.Seats {
			seats[i] = seat{web: s.Web, index: s.Index, worker: s.Worker}
		}
		order = []apm.ServerRef{*j.Failed}
		carried = map[apm.ServerRef][]seat{*j.Failed: seats}
	}
	for _, ref := range r.servers {
		switch {
		case j.Failed != nil && ref == *j.Failed:
		case j.Fingerprint == r.fingerprint && slices.Contains(j.Done, ref):
			skipped = append(skipped, ref)
		default:
			order = append(order, ref)
		}
	}
	return order, skipped, carried
}

// journalOf is what the roll leaves when it stops in f, with done finished.
func (r roll) journalOf(done []apm.ServerRef, f rollFailure) rollJournal {
	j := rollJournal{Fingerprint: r.fingerprint, Done: done, Failed: f.server}
	for _, s := range f.seats {
		j.Seats = append(j.Seats, journalSeat{Web: s.web, Index: s.index, Worker: s.worker})
	}
	return j
}

// memoMemory keeps the journal in an engine.Memo: apm_was_rollout's private state.
type memoMemory struct{ memo *engine.Memo }

func (m memoMemory) recall() (*rollJournal, error) {
	if len(m.memo.Prior) == 0 {
		return nil, nil
	}
	return decodeJournal(m.memo.Prior)
}

func (m memoMemory) keep(j rollJournal) error {
	b, err := json.Marshal(j)
	m.memo.Next = b
	return err
}

func (m memoMemory) forget() error {
	m.memo.Next = nil
	return nil
}

// fileMemory keeps the journal of an action's roll in a file named for the manager and
// the servers rolled.
type fileMemory struct{ path string }

// newFileMemory is the journal file of a roll of servers on the manager at endpoint, in
// the user's cache directory.
func newFileMemory(endpoint string, servers []apm.ServerRef) (fileMemory, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return fileMemory{}, fmt.Errorf("finding a directory for the roll's journal: %w", err)
	}
	ids := make([]string, len(servers))
	for i, ref := range servers {
		ids[i] = ref.String()
	}
	slices.Sort(ids)
	sum := sha256.Sum256([]byte(endpoint + "\n" + strings.Join(ids, "\n")))
	return fileMemory{path: filepath.Join(dir, "terraform-provider-apm", "rolls", hex.EncodeToString(sum[:16])+".json")}, nil
}

func (m fileMemory) recall() (*rollJournal, error) {
	b, err := os.ReadFile(m.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the journal of the last roll: %w", err)
	}
	return decodeJournal(b)
}

func (m fileMemory) keep(j rollJournal) error {
	b, err := json.Marshal(j)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(m.path), 0o700)
	}
	if err == nil {
		err = os.WriteFile(m.path, b, 0o600)
	}
	if err != nil {
		return fmt.Errorf("writing the roll's journal %s: %w", m.path, err)
	}
	return nil
}

func (m fileMemory) forget() error {
	if err := os.Remove(m.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing the journal of the finished roll: %w", err)
	}
	return nil
}

func decodeJournal(b []byte) (*rollJournal, error) {
	var j rollJournal
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("reading the journal of the last roll: %w", err)
	}
	return &j, nil
}
