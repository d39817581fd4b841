package partyboard

import (
	"fmt"
	"sort"
	"sync"

	"github.com/meeple-games/meeple/domain"
)

// ProxyFunc is a board extension's rule (ruling 8): what a ProxyRule with its
// id does. It runs inside Apply for the current player, changes the game
// through c, and cannot wait for input (a proxy that needs a player's
// decision is a new rule type, not a proxy).
type ProxyFunc func(c *ProxyCall)

// ProxyCall is what a ProxyFunc works with.
type ProxyCall struct {
	// Game is the game being changed (the copy Apply works on). Positions and
	// effects may be changed freely; players may not be added or removed.
	// Positions are clamped to the board and counters to 0 or more afterwards.
	Game   *Game
	Board  *Board
	Player int    // index in Game.Players of the player the rule happened to
	Rule   *Rule  // the ProxyRule
	Path   string // its location, e.g. tiles[12].rule
	Dice   domain.Dice
	step   *step
}

// Emit records an event (Event.Player is the current player).
func (c *ProxyCall) Emit(typ string, data any) {
	c.step.emit(c.Game.Players[c.Player].ID, typ, data)
}

var (
	proxyMu sync.RWMutex
	proxies = map[string]ProxyFunc{}
)

// RegisterProxyRule makes a ProxyRule id known: boards naming it load, and
// the engine runs f when one happens. Register at init time, before boards
// load. It panics on an empty or already registered id.
func RegisterProxyRule(id string, f ProxyFunc) {
	proxyMu.Lock()
	defer proxyMu.Unlock()
	if id == "" || f == nil {
		panic("partyboard: RegisterProxyRule needs an id and a function")
	}
	if _, dup := proxies[id]; dup {
		panic(fmt.Sprintf("partyboard: proxy rule %q registered twice", id))
	}
	proxies[id] = f
}

// ProxyRuleIDs lists the registered ProxyRule ids, sorted.
func ProxyRuleIDs() []string {
	proxyMu.RLock()
	defer proxyMu.RUnlock()
	ids := make([]string, 0, len(proxies))
	for id := range proxies {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func proxyRule(id string) (ProxyFunc, bool) {
	proxyMu.RLock()
	defer proxyMu.RUnlock()
	f, ok := proxies[id]
	return f, ok
}
