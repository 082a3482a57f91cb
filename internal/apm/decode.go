package apm

// Lenient decoding (api/decisions.md rule 1): a real manager will not answer exactly like
// the emulator, so the wire structs use these helper types. Unknown fields are ignored by
// encoding/json already, missing fields stay zero, and the helpers below accept a number
// as a JSON number or a numeric string, and a string field given as a number or boolean.
// The public structs expose plain Go types; the helpers never leave this package.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

var jsonNull = []byte("null")

// unquote returns the content of a JSON string, or the raw token for any other value.
func unquote(b []byte) (s string, wasString bool, err error) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		err = json.Unmarshal(b, &s)
		return s, true, err
	}
	return string(b), false, nil
}

// shorten keeps offending values in error text short.
func shorten(s string) string {
	const limit = 64
	if len(s) > limit {
		return s[:limit] + "..."
	}
	return s
}

// numberText is the text of a JSON number that may arrive quoted and padded; empty is
// true for null and "", which the flex number types read as 0.
func numberText(b []byte) (s string, empty bool, err error) {
	s, _, err = unquote(b)
	if err != nil {
		return "", false, err
	}
	s = strings.TrimSpace(s)
	return s, s == "" || s == "null", nil
}

// flexInt is an integer given as 5, 5.0, "5" or " 5 "; null and "" are 0.
type flexInt int64

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s, empty, err := numberText(b)
	if err != nil || empty {
		*f = 0
		return err
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		*f = flexInt(n)
		return nil
	}
	// Some JSON encoders write integers as 5.0 or 5e3.
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x != math.Trunc(x) || math.Abs(x) >= 1<<63 {
		return fmt.Errorf("cannot use %q as an integer", shorten(s))
	}
	*f = flexInt(x)
	return nil
}

// flexFloat is a number given as 5, 5.5 or "5.5"; null and "" are 0. NaN and infinities
// are refused: JSON cannot carry them, so a string spelling them is a broken answer.
type flexFloat float64

func (f *flexFloat) UnmarshalJSON(b []byte) error {
	s, empty, err := numberText(b)
	if err != nil || empty {
		*f = 0
		return err
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("cannot use %q as a number", shorten(s))
	}
	*f = flexFloat(x)
	return nil
}

// flexString is a string that may arrive as a number (kept exactly as written, so that a
// version 9.50 stays "9.50") or a boolean; null is "".
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	s, wasString, err := unquote(b)
	if err != nil {
		return err
	}
	switch {
	case wasString:
		*f = flexString(s)
	case s == "null":
		*f = ""
	case s == "true" || s == "false" || isJSONNumber(s):
		*f = flexString(s)
	default:
		return fmt.Errorf("cannot use %s as a string", shorten(s))
	}
	return nil
}

func isJSONNumber(s string) bool {
	return json.Valid([]byte(s)) && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))
}

// flexBool is a boolean given as true/false, "true"/"false", "Y"/"N", "yes"/"no",
// "on"/"off" or 1/0 (as number or string); null and "" are false.
type flexBool bool

func (f *flexBool) UnmarshalJSON(b []byte) error {
	s, _, err := unquote(b)
	if err != nil {
		return err
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "y", "yes", "on", "1":
		*f = true
	case "false", "n", "no", "off", "0", "", "null":
		*f = false
	default:
		return fmt.Errorf("cannot use %s as a boolean", shorten(s))
	}
	return nil
}

// listOf decodes a list response. The manager wraps each list in an object under an
// endpoint-specific key ({"systems": [...]}); a bare array is accepted as well, the key is
// matched case-insensitively when it is not found exactly, and a missing key or null is an
// empty list.
type listOf[T any] struct {
	key   string
	Items []T
}

func newList[T any](key string) *listOf[T] { return &listOf[T]{key: key} }

func (l *listOf[T]) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Equal(b, jsonNull) {
		return nil
	}
	if b[0] == '[' {
		return json.Unmarshal(b, &l.Items)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return err
	}
	raw, ok := obj[l.key]
	if !ok {
		for k, v := range obj {
			if strings.EqualFold(k, l.key) {
				raw, ok = v, true
				break
			}
		}
	}
	if !ok || bytes.Equal(bytes.TrimSpace(raw), jsonNull) {
		return nil
	}
	if err := json.Unmarshal(raw, &l.Items); err != nil {
		return fmt.Errorf("field %q: %w", l.key, err)
	}
	return nil
}

// mapAll converts every item. The result is never nil: an empty list stays a list.
func mapAll[W, T any](items []W, conv func(W) T) []T {
	out := make([]T, 0, len(items))
	for _, w := range items {
		out = append(out, conv(w))
	}
	return out
}
