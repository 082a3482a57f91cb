package apmsim

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// licensesArea serves GET /rest/licenses (spec 4.9): one license per node, derived from
// the node rather than stored, so that it needs no upkeep when nodes come and go.
type licensesArea struct{ s *Sim }

func (a licensesArea) register(r *router) {
	r.handle("GET /rest/licenses", a.list)
}

// licenseJSON is an element of "licenses" (api/rest-interface.md part 2). Like the spec,
// it names the node but not its system.
type licenseJSON struct {
	NodeName    string `json:"nodeName"`
	LicenseType string `json:"licenseType"`
	ExpireDate  string `json:"expireDate"`
	MaxCPU      int    `json:"maxCpu"`
}

// licensePlans cycle with the node's number (ND-0001 is 1): the first node's license runs
// out within 30 days, the second's a year after registration, the third's (a trial) ran out
// a week before its registration. So any three consecutive nodes show every case a
// provider has to handle.
var licensePlans = []struct {
	licenseType string
	days        int // expiry, relative to the node's registration day
	maxCPU      int
}{
	{"Trial", -7, 4},
	{"Standard", 20, 8},
	{"Enterprise", 365, 32},
}

func (a licensesArea) list(w http.ResponseWriter, r *http.Request) {
	answerRead(a.s, w, func(wd *world, _ time.Time) (any, error) {
		out := make([]licenseJSON, 0, len(wd.nodes))
		for _, n := range wd.sortedNodes() {
			out = append(out, licenseOf(n))
		}
		return map[string]any{"licenses": out}, nil
	})
}

func licenseOf(n *node) licenseJSON {
	p := licensePlans[nodeNumber(n)%uint64(len(licensePlans))]
	return licenseJSON{
		NodeName:    n.Name,
		LicenseType: p.licenseType,
		ExpireDate:  n.CreatedAt.UTC().AddDate(0, 0, p.days).Format(time.DateOnly),
		MaxCPU:      p.maxCPU,
	}
}

// nodeNumber is the number of a generated nodeId ("ND-0007" is 7), or a hash of an id of
// another shape (a state file written by hand).
func nodeNumber(n *node) uint64 {
	if digits, ok := strings.CutPrefix(n.ID, "ND-"); ok {
		if k, err := strconv.ParseUint(digits, 10, 64); err == nil {
			return k
		}
	}
	return seriesHash(n.ID)
}
