package engine

import "sync"

// claims is a set of object identities, each held by at most one resource at a time.
type claims struct {
	mu   sync.Mutex
	held map[string]bool
}

// claim takes key; false when another resource holds it.
func (c *claims) claim(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held[key] {
		return false
	}
	c.held[key] = true
	return true
}

func newClaims() *claims { return &claims{held: map[string]bool{}} }

// release gives key up: its create failed, or its object was deleted.
func (c *claims) release(key string) {
	c.mu.Lock()
	delete(c.held, key)
	c.mu.Unlock()
}
