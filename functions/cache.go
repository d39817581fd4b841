package functions

import "sync"

// cache keeps immutable values by id for the life of the process, loading each
// once; a failed load is not kept.
type cache[V any] struct {
	mu   sync.Mutex
	vals map[string]V
}

// Get returns the value for id, calling load the first time.
func (c *cache[V]) Get(id string, load func() (V, error)) (V, error) {
	c.mu.Lock()
	v, ok := c.vals[id]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if c.vals == nil {
		c.vals = map[string]V{}
	}
	c.vals[id] = v
	c.mu.Unlock()
	return v, nil
}
