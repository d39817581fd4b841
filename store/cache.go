package store

import (
	"encoding/json"
	"sync"
	"time"
)

// docCache keeps copies of configuration documents (domain.Slot.CacheFor)
// by path, with when they were read; nil JSON means the document did not
// exist. Its clock is the wall clock, not the store's: it is the instance's
// freshness, not a game's time.
type docCache struct {
	mu sync.Mutex
	m  map[string]cachedDoc
}

type cachedDoc struct {
	raw json.RawMessage
	at  time.Time
}

// get returns the copy of path read less than ttl ago.
func (c *docCache) get(path string, ttl time.Duration) (json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[path]
	if !ok || time.Since(d.at) >= ttl {
		return nil, false
	}
	return d.raw, true
}

func (c *docCache) put(path string, raw json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]cachedDoc{}
	}
	c.m[path] = cachedDoc{raw: raw, at: time.Now()}
}

func (c *docCache) forget(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, path)
}
