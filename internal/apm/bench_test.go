package apm

import (
	"context"
	"net"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

// countingListener counts accepted connections, to show that the client reuses them.
type countingListener struct {
	net.Listener
	accepted atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

// benchNode starts a demo-seeded apmsim over loopback and returns a client for it.
func benchNode(b *testing.B) (*Client, *countingListener) {
	b.Helper()
	sim, err := apmsim.New(apmsim.Options{AdminKey: "bench-key", Seed: apmsim.SeedDemo})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(sim.Handler())
	counting := &countingListener{Listener: srv.Listener}
	srv.Listener = counting
	srv.Start()
	b.Cleanup(srv.Close)
	c, err := New(Config{Endpoint: srv.URL, APIKey: "bench-key"})
	if err != nil {
		b.Fatal(err)
	}
	return c, counting
}

// BenchmarkGetNode is the cost of one refresh of one node: a single detail GET.
// conns/op must stay near 0: the connection is reused.
func BenchmarkGetNode(b *testing.B) {
	c, listener := benchNode(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.GetNode(ctx, "shop", "web-01"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(listener.accepted.Load())/float64(b.N), "conns/op")
}

// BenchmarkGetNodeParallel refreshes nodes from many goroutines, as Terraform does with
// -parallelism: throughput must scale without a lock around requests, on a bounded
// number of connections.
func BenchmarkGetNodeParallel(b *testing.B) {
	c, listener := benchNode(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.GetNode(ctx, "shop", "web-01"); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(listener.accepted.Load()), "conns")
}
