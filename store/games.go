package store

import (
	"slices"

	"github.com/meeple-games/meeple/domain"
)

// Games is the registry as the store uses it: each game's slots resolved,
// its effect handlers by event type.
type Games struct {
	reg      domain.Registry
	slots    map[string]*slots
	handlers map[string]map[string][]domain.Effect // kind → event type → handlers
}

// NewGames indexes a registry.
func NewGames(reg domain.Registry) *Games {
	g := &Games{reg: reg, slots: map[string]*slots{}, handlers: map[string]map[string][]domain.Effect{}}
	for _, e := range reg {
		k := e.Kind()
		g.slots[k] = newSlots(e.Game)
		g.handlers[k] = map[string][]domain.Effect{}
		for _, h := range e.Effects {
			g.handlers[k][h.Event] = append(g.handlers[k][h.Event], h)
		}
	}
	return g
}

// Registry returns the registry the store serves.
func (g *Games) Registry() domain.Registry {
	if g == nil {
		return nil
	}
	return g.reg
}

// Find returns the entry of a kind.
func (g *Games) Find(kind string) (domain.Entry, bool) {
	if g == nil {
		return domain.Entry{}, false
	}
	return g.reg.Find(kind)
}

func (st *Store) slotsOf(game domain.Game) *slots {
	if s, ok := st.Games.slotsByKind(game.Kind()); ok {
		return s
	}
	return newSlots(game)
}

func (g *Games) slotsByKind(kind string) (*slots, bool) {
	if g == nil {
		return nil, false
	}
	s, ok := g.slots[kind]
	return s, ok
}

// handlersOf returns the game's handlers of an event type.
func (g *Games) handlersOf(kind, event string) []domain.Effect {
	if g == nil {
		return nil
	}
	return g.handlers[kind][event]
}

// pending reports whether a record of these events has effects to run: the
// platform's stats for a gameOver of a game that keeps them, or a handler
// the game registered. (An event the game's projection names needs only its
// marker, which the action writes itself: projects.)
func (g *Games) pending(e domain.Entry, events []domain.Event) bool {
	return (e.Stats && overIn(events)) || g.handled(e, events)
}

// handled reports whether the game registered a handler for one of these
// events.
func (g *Games) handled(e domain.Entry, events []domain.Event) bool {
	for _, ev := range events {
		if len(g.handlersOf(e.Kind(), ev.Type)) > 0 {
			return true
		}
	}
	return false
}

// overIn reports whether one of events ends the game.
func overIn(events []domain.Event) bool {
	for _, ev := range events {
		if ev.Type == domain.EventGameOver {
			return true
		}
	}
	return false
}

// projects reports whether a record of these events holds one the game's
// projection names, so the tick's next pass must rebuild it (a game may
// derive a document from what its actions wrote, with no handler: Tile
// Race's leaderboard from its teams' points).
func (g *Games) projects(e domain.Entry, events []domain.Event) bool {
	if e.Projection == nil {
		return false
	}
	for _, ev := range events {
		if slices.Contains(e.Projection.Events, ev.Type) {
			return true
		}
	}
	return false
}

// eager reports whether a record of these events has an eager handler.
func (g *Games) eager(e domain.Entry, events []domain.Event) bool {
	for _, ev := range events {
		for _, h := range g.handlersOf(e.Kind(), ev.Type) {
			if h.Eager {
				return true
			}
		}
	}
	return false
}
