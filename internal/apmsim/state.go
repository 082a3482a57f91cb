package apmsim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// stateFormat is the version of the state file layout; bump it when the
// layout changes incompatibly.
const stateFormat = 1

// stateFile is the JSON layout of the state file (encodeWorld writes the
// same layout by hand). Area states outside the core live under "areas".
type stateFile struct {
	Format  int                        `json:"format"`
	Seq     map[string]int             `json:"seq"`
	Systems []*system                  `json:"systems"`
	Nodes   []*node                    `json:"nodes"`
	Areas   map[string]json.RawMessage `json:"areas,omitempty"`
}

// encodeWorld renders w as a state file. The caller holds the lock.
//
// It writes compact JSON with one entity per line: readable and diffable,
// at a third of the cost of json.MarshalIndent, which matters because
// the whole world is written after every change.
func encodeWorld(w *world) ([]byte, error) {
	areas := make(map[string]json.RawMessage, len(w.ext)+len(w.unknownExt))
	for name, raw := range w.unknownExt {
		areas[name] = raw
	}
	for name, v := range w.ext {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encode area %s: %w", name, err)
		}
		areas[name] = raw
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"format\":%d,\n\"seq\":", stateFormat)
	if err := appendJSON(&b, w.seq); err != nil {
		return nil, err
	}
	b.WriteString(",\n\"systems\":")
	if err := appendLines(&b, sortedByID(w.systems, func(s *system) string { return s.ID })); err != nil {
		return nil, err
	}
	b.WriteString(",\n\"nodes\":")
	if err := appendLines(&b, sortedByID(w.nodes, func(n *node) string { return n.ID })); err != nil {
		return nil, err
	}
	b.WriteString(",\n\"areas\":")
	if err := appendJSON(&b, areas); err != nil {
		return nil, err
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// sortedByID returns the map's values in ID order, which is creation
// order and cheap to sort.
func sortedByID[T any](m map[string]T, id func(T) string) []T {
	out := make([]T, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b T) int { return strings.Compare(id(a), id(b)) })
	return out
}

// appendLines writes a JSON array with one element per line.
func appendLines[T any](b *bytes.Buffer, items []T) error {
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		if err := appendJSON(b, it); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}

func appendJSON(b *bytes.Buffer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b.Write(data)
	return nil
}

// decodeWorld parses a state file and checks that its references hold.
func decodeWorld(data []byte) (*world, error) {
	var f stateFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	if f.Format != stateFormat {
		return nil, fmt.Errorf("unsupported format %d (want %d)", f.Format, stateFormat)
	}
	w := newWorld()
	if f.Seq != nil {
		w.seq = f.Seq
	}
	for _, s := range f.Systems {
		if s == nil || s.ID == "" || w.systems[s.ID] != nil {
			return nil, errors.New("system without ID or with a duplicate ID")
		}
		w.systems[s.ID] = s
	}
	for _, n := range f.Nodes {
		if n == nil || n.ID == "" || w.nodes[n.ID] != nil {
			return nil, errors.New("node without ID or with a duplicate ID")
		}
		if w.systems[n.SystemID] == nil {
			return nil, fmt.Errorf("node %s refers to unknown system %q", n.ID, n.SystemID)
		}
		w.nodes[n.ID] = n
	}
	for name, raw := range f.Areas {
		v, known := w.ext[name]
		if !known {
			w.unknownExt[name] = slices.Clone(raw)
			continue
		}
		if err := json.Unmarshal(raw, v); err != nil {
			return nil, fmt.Errorf("area %s: %w", name, err)
		}
	}
	return w, nil
}

// loadState reads the state file at path. found is false when the file
// does not exist, which is not an error: the sim then starts from its seed.
func loadState(path string) (w *world, found bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	w, err = decodeWorld(data)
	if err != nil {
		return nil, true, fmt.Errorf("state file %s: %w", path, err)
	}
	return w, true, nil
}

// writeFileAtomic replaces path with data so that a reader (or a crash)
// never sees a half-written file: it writes a temporary file in the same
// directory and renames it over path. It does not fsync: the state file
// has to survive a restart of the sim, not a power cut.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
