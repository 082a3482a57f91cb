package apmsim

import (
	"bytes"
	"encoding/json"
	"math"
	"net/netip"
	"strconv"
)

// Name rules. The spec does not give them; api/decisions.md gives the system rule
// and the node rule is the sim's own (a host-name-like label). Only ASCII
// letters count as letters.
const (
	maxSystemNameLen = 20
	maxNodeNameLen   = 63
	systemNameRule   = "1-20 characters: letters, digits, '-' and '_'"
	nodeNameRule     = "1-63 characters: letters, digits, '.', '-' and '_'"
)

func validSystemName(name string) error {
	if !nameOK(name, maxSystemNameLen, "-_") {
		return badRequest("Invalid systemName: %s (allowed: %s)", name, systemNameRule)
	}
	return nil
}

func validNodeName(name string) error {
	if !nameOK(name, maxNodeNameLen, ".-_") {
		return badRequest("Invalid nodeName: %s (allowed: %s)", name, nodeNameRule)
	}
	return nil
}

// nameOK reports whether name has 1..maxLen bytes, each an ASCII letter, a
// digit or one of extra. "." and ".." never pass: as a path segment they are
// cleaned away, so an object of that name could never be read or deleted.
func nameOK(name string, maxLen int, extra string) bool {
	if len(name) == 0 || len(name) > maxLen || name == "." || name == ".." {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			bytes.IndexByte([]byte(extra), c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// validHostIP accepts IPv4 and IPv6 addresses (no host names, no ports).
// The value is stored as sent, not normalised, so that what a client
// reads back equals what it wrote.
func validHostIP(ip string) error {
	if _, err := netip.ParseAddr(ip); err != nil {
		return badRequest("Invalid hostIp: %s", ip)
	}
	return nil
}

// intField reads an integer body field sent as a JSON number or a numeric
// string (lenient, as api/decisions.md asks clients to be). present is false
// for an absent field, null or "".
func intField(field string, raw json.RawMessage) (v int, present bool, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" || string(raw) == `""` {
		return 0, false, nil
	}
	text := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &text); err != nil {
			return 0, true, badRequest("%s must be an integer", field)
		}
	}
	if n, err := strconv.Atoi(text); err == nil {
		return n, true, nil
	}
	// Integral numbers in float notation (8080.0, 8.08e3) are still integers.
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
		return 0, true, badRequest("%s must be an integer", field)
	}
	// Clamp huge values so that range checks, not overflow, reject them.
	return int(max(min(f, math.MaxInt32), math.MinInt32)), true, nil
}

// validPort checks a TCP port number.
func validPort(field string, port int) error {
	if port < 1 || port > 65535 {
		return badRequest("%s must be between 1 and 65535", field)
	}
	return nil
}
