package provider

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// leaveLoadBalancers takes the WAS server out of the workers of every web server that
// forwards to it: the web servers are listed, and each one read (one GET each). A web
// server that is gone by the time it is read forwards to nobody: the same run may be
// deleting it, its node or its system (a 404 for any of them, as the manager names the
// first part of the path it does not find).
func (c *conn) leaveLoadBalancers(ctx context.Context, ref apm.ServerRef) error {
	webs, err := c.ListServers(ctx, apm.KindWeb)
	if err != nil {
		return fmt.Errorf("listing the web servers that may forward to WAS server %q: %w", ref.ServerID, err)
	}
	for _, w := range webs {
		web := apm.ServerRef{Kind: apm.KindWeb, ServerID: w.ServerID, NodeName: w.NodeName, SystemName: w.SystemName}
		if err := c.leaveLoadBalancer(ctx, ref, web); err != nil {
			return err
		}
	}
	return nil
}

// leaveLoadBalancer takes the WAS server out of one web server's workers: a read and a
// write of the whole list, which no other write of the list may come between (two WAS
// servers scaled in at once would each write back the other).
func (c *conn) leaveLoadBalancer(ctx context.Context, ref, web apm.ServerRef) error {
	s, err := c.takeOutOf(ctx, ref, web)
	if s != nil {
		c.seats.add(ref, *s)
	}
	return err
}

// takeOutOf takes the WAS server out of web's workers and returns the seat it had
// there; nil when web does not forward to it (or is gone).
func (c *conn) takeOutOf(ctx context.Context, ref, web apm.ServerRef) (*seat, error) {
	defer c.balancers.lock(web)()
	detail, err := c.GetServer(ctx, web)
	if engine.GoneWithParent(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the workers of web server %q on node %q: %w", web.ServerID, web.NodeName, err)
	}
	i := slices.IndexFunc(detail.Workers, func(wk apm.Worker) bool { return sameWAS(wk, ref) })
	if i < 0 {
		return nil, nil
	}
	kept := slices.DeleteFunc(slices.Clone(detail.Workers), func(wk apm.Worker) bool { return sameWAS(wk, ref) })
	if err := c.SetWorkers(ctx, web, kept); err != nil {
		return nil, fmt.Errorf("taking WAS server %q out of the workers of web server %q on node %q: %w", ref.ServerID, web.ServerID, web.NodeName, err)
	}
	return &seat{web: web, index: i, worker: detail.Workers[i]}, nil
}

// rejoinLoadBalancers puts a WAS server created in place of one that left load balancers
// earlier in this run (a replacement: the same server id on the same node) back into
// them, where it stood, with the worker settings it had. The worker list that names it
// cannot: its ids read the same before and after, so Terraform sends it no update.
func (c *conn) rejoinLoadBalancers(ctx context.Context, ref apm.ServerRef) error {
	for _, seat := range c.seats.take(ref) {
		if err := c.rejoinLoadBalancer(ctx, ref, seat); err != nil {
			return err
		}
	}
	return nil
}

// rejoinLoadBalancer puts the WAS server back into the workers of the seat's web server,
// with the list's read and write kept together as in leaveLoadBalancer.
func (c *conn) rejoinLoadBalancer(ctx context.Context, ref apm.ServerRef, seat seat) error {
	defer c.balancers.lock(seat.web)()
	detail, err := c.GetServer(ctx, seat.web)
	if err != nil {
		return fmt.Errorf("reading the workers of web server %q on node %q to put WAS server %q back: %w", seat.web.ServerID, seat.web.NodeName, ref.ServerID, err)
	}
	if slices.ContainsFunc(detail.Workers, func(w apm.Worker) bool { return sameWAS(w, ref) }) {
		return nil
	}
	workers := slices.Insert(slices.Clone(detail.Workers), min(seat.index, len(detail.Workers)), seat.worker)
	if err := c.SetWorkers(ctx, seat.web, workers); err != nil {
		return fmt.Errorf("putting WAS server %q back into the workers of web server %q on node %q: %w", ref.ServerID, seat.web.ServerID, seat.web.NodeName, err)
	}
	return nil
}

// balancerLocks hold one lock per web server, around each read-and-write of its workers
// in this provider process: the interface only writes the whole list. Other web servers'
// requests are not held up.
type balancerLocks struct {
	mu    sync.Mutex
	byWeb map[apm.ServerRef]*sync.Mutex
}

// lock locks web's workers and returns the unlock.
func (b *balancerLocks) lock(web apm.ServerRef) func() {
	b.mu.Lock()
	if b.byWeb == nil {
		b.byWeb = map[apm.ServerRef]*sync.Mutex{}
	}
	l, ok := b.byWeb[web]
	if !ok {
		l = &sync.Mutex{}
		b.byWeb[web] = l
	}
	b.mu.Unlock()
	l.Lock()
	return l.Unlock
}

func sameWAS(w apm.Worker, ref apm.ServerRef) bool {
	return w.ServerID == ref.ServerID && w.NodeName == ref.NodeName && w.SystemName == ref.SystemName
}

// seats remembers, for one provider process (one run), the load balancers that WAS
// servers left when deleted, so that a server created in place of one rejoins them.
type seats struct {
	mu    sync.Mutex
	byWAS map[apm.ServerRef][]seat
}

// seat is a WAS server's place in a web server's workers.
type seat struct {
	web    apm.ServerRef
	index  int
	worker apm.Worker
}

// add records that ref left a seat.
func (s *seats) add(ref apm.ServerRef, st seat) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byWAS == nil {
		s.byWAS = map[apm.ServerRef][]seat{}
	}
	s.byWAS[ref] = append(s.byWAS[ref], st)
}

// take returns and forgets the seats ref left.
func (s *seats) take(ref apm.ServerRef) []seat {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.byWAS[ref]
	delete(s.byWAS, ref)
	return out
}
