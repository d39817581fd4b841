package store

import "sync"

// fifo is a bounded map of values that never change once put (a game's
// seed, the steps of a packed log): when full, the oldest half goes. Its
// zero value holds nothing until max is set.
type fifo[V any] struct {
	max   int
	mu    sync.Mutex
	m     map[string]V
	order []string
}

// get is key's value; the caller must not change it.
func (c *fifo[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

// put keeps v for key, unless key has a value already.
func (c *fifo[V]) put(key string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.max <= 0 {
		return
	}
	if c.m == nil {
		c.m = map[string]V{}
	}
	if _, ok := c.m[key]; ok {
		return
	}
	if len(c.order) >= c.max {
		half := max(c.max/2, 1)
		for _, k := range c.order[:half] {
			delete(c.m, k)
		}
		c.order = append([]string(nil), c.order[half:]...)
	}
	c.m[key] = v
	c.order = append(c.order, key)
}
