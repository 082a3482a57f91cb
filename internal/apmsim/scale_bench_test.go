package apmsim

import (
	"fmt"
	"net/http"
	"testing"
)

// BenchmarkRegisterNodeAmongMany is the cost of registering one node in a manager that
// already has thousands: it must not grow with them (a fleet of 10,000 nodes is
// registered in seconds, not minutes).
func BenchmarkRegisterNodeAmongMany(b *testing.B) {
	for _, existing := range []int{100, 5000} {
		b.Run(fmt.Sprintf("existing=%d", existing), func(b *testing.B) {
			s := newTestSim(b)
			h := s.Handler()
			call(b, h, http.MethodPost, admin("/rest/systems"), `{"systemName":"fleet"}`)
			register := func(i int) {
				body := fmt.Sprintf(`{"nodeName":"n%d","systemName":"fleet","hostIp":"10.0.0.1","agentPort":7000}`, i)
				if r := call(b, h, http.MethodPost, admin("/rest/nodes"), body); r.status != http.StatusOK {
					b.Fatalf("register n%d: %d %s", i, r.status, r.body)
				}
			}
			for i := range existing {
				register(i)
			}
			b.ResetTimer()
			i := existing
			for b.Loop() {
				register(i)
				i++
			}
		})
	}
}
