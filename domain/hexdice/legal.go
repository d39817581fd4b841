package hexdice

import (
	"slices"

	"github.com/meeple-games/meeple/domain"
)

// preview returns a read-only step over g (no dice, no events kept).
func preview(g Game, m *Map) *step { return newStep(g, m, g.CreatedAt, nil) }

// Reachable lists the hexes troop id can move to from where it stands, with
// their movement cost (cheapest first): the client's blue highlight. It is
// geometry only: whether the troop may still move this turn is Legal's
// business. Nil for an unknown troop.
func Reachable(g Game, m *Map, id int) []Reach {
	s := preview(g, m)
	i := g.TroopByID(id)
	if i < 0 {
		return nil
	}
	return s.destinations(g.Troops[i], s.reach(g.Troops[i]), nil)
}

// Targets lists the hexes troop id could attack from hex from (its own hex
// or a hex it can reach): enemy troops and structures its side does not
// hold, within its range. The client's red highlight.
func Targets(g Game, m *Map, id int, from Hex) []Hex {
	s := preview(g, m)
	i := g.TroopByID(id)
	if i < 0 {
		return nil
	}
	return s.targets(g.Troops[i], from)
}

func (s *step) targets(t Troop, from Hex) []Hex {
	var out []Hex
	rng := s.unit(t).Range
	var vis []bool // fog: only what t's side sees
	if s.g.Fog {
		vis = s.vision(t.Owner)
	}
	for _, st := range s.g.Structures {
		if vis != nil && !vis[s.m.g.index(st.Hex)] {
			continue
		}
		if st.Owner != t.Owner && Distance(from, st.Hex) <= rng {
			out = append(out, st.Hex)
		}
	}
	for _, e := range s.g.Troops {
		if vis != nil && !vis[s.m.g.index(e.Hex)] {
			continue
		}
		if e.Owner != t.Owner && e.Hex != from && Distance(from, e.Hex) <= rng {
			out = append(out, e.Hex)
		}
	}
	slices.SortFunc(out, func(a, b Hex) int {
		if a.less(b) {
			return -1
		}
		return 1
	})
	return out
}

// BuyOption is a hex seat may buy a troop on, and the troops it can afford.
type BuyOption struct {
	Hex
	Units []UnitType `json:"units"`
}

// BuyOptions lists the free passable hexes next to seat's spawn structures,
// in (r, q) order, with the unit types seat's coins cover (possibly none).
func BuyOptions(g Game, m *Map, seat Seat) []BuyOption {
	if seat < 0 || int(seat) >= len(g.Players) {
		return nil
	}
	s := preview(g, m)
	var units []UnitType
	for _, u := range UnitTypes {
		if g.Config.Units[u].Cost <= g.Players[seat].Coins {
			units = append(units, u)
		}
	}
	var out []BuyOption
	for _, h := range s.spawnHexes(seat) {
		out = append(out, BuyOption{Hex: h, Units: units})
	}
	return out
}

// spawnHexes lists the hexes seat may buy on, in (r, q) order.
func (s *step) spawnHexes(seat Seat) []Hex {
	seen := map[Hex]bool{}
	var out []Hex
	for _, st := range s.g.Structures {
		if st.Owner != seat || !s.g.Config.Structures[st.Kind].Spawn {
			continue
		}
		for d := 0; d < 6; d++ {
			h := st.Hex.Neighbour(d)
			if !seen[h] && s.free(h) {
				seen[h] = true
				out = append(out, h)
			}
		}
	}
	slices.SortFunc(out, func(a, b Hex) int {
		if a.less(b) {
			return -1
		}
		return 1
	})
	return out
}

func hexPayload(h Hex) map[string]any { return map[string]any{"q": h.Q, "r": h.R} }

// Legal implements domain.Lister: every move listed is accepted by Apply in
// g. Listed: join (anyone not seated, while waiting); surrender (from its
// round; the host of a waiting room, who cancels it); in alternating mode
// on your turn, endTurn, a buy per spawn hex and affordable unit, a move per
// reachable hex of each troop that may still move, an attack per target of
// each troop that may still attack; in simultaneous mode before you
// submit, an "orders" draft per single troop order (a move, or an attack
// from where it stands) and per buy, and a submit of no orders. Heartbeats
// and emotes are not listed: they are not game moves, and an emote's
// legality depends on the clock (its rate limit).
func (r Rules) Legal(g Game, actor domain.Actor) []domain.Move {
	seat := g.SeatOf(actor.ID)
	switch g.Phase {
	case PhaseWaiting:
		if seat < 0 {
			if actor.ID == "" {
				return nil
			}
			return []domain.Move{{Type: ActionJoin}}
		}
		return []domain.Move{{Type: ActionSurrender}}
	case PhasePlaying:
	default:
		asked := seat >= 0 && int(seat) < len(g.RematchAsked) && g.RematchAsked[seat]
		if seat >= 0 && len(g.Players) == 2 && g.RematchID == "" && !asked && (g.Result == nil || g.Result.Reason != ReasonCancelled) {
			return []domain.Move{{Type: ActionRematch}}
		}
		return nil
	}
	if seat < 0 {
		return nil
	}
	m, err := r.MapOf(g)
	if err != nil {
		return nil
	}
	s := preview(g, m)
	var out []domain.Move
	if g.Round >= g.Config.SurrenderRound {
		out = append(out, domain.Move{Type: ActionSurrender})
	}
	if g.Mode == Alternating {
		if g.Current != seat {
			return out
		}
		out = append(out, domain.Move{Type: ActionEndTurn})
		for _, b := range BuyOptions(g, m, seat) {
			for _, u := range b.Units {
				p := hexPayload(b.Hex)
				p["unit"] = string(u)
				out = append(out, domain.Move{Type: ActionBuy, Payload: p})
			}
		}
		for _, t := range g.Troops {
			if t.Owner != seat || !t.Ready {
				continue
			}
			if !t.Moved && !t.Attacked {
				for _, d := range s.destinations(t, s.reach(t), nil) {
					p := hexPayload(d.Hex)
					p["troop"] = t.ID
					out = append(out, domain.Move{Type: ActionMove, Payload: p})
				}
			}
			if !t.Attacked && !s.noAttack() {
				for _, h := range s.targets(t, t.Hex) {
					p := hexPayload(h)
					p["troop"] = t.ID
					out = append(out, domain.Move{Type: ActionAttack, Payload: p})
				}
			}
		}
		return out
	}
	if g.Players[seat].Submitted {
		return out
	}
	draft := func(o map[string]any) domain.Move {
		return domain.Move{Type: ActionOrders, Payload: map[string]any{"orders": o, "submit": false}}
	}
	for _, t := range g.Troops {
		if t.Owner != seat {
			continue
		}
		for _, d := range s.destinations(t, s.reach(t), nil) {
			out = append(out, draft(map[string]any{"troops": []any{map[string]any{"troop": t.ID, "move": hexPayload(d.Hex)}}}))
		}
		for _, h := range s.targets(t, t.Hex) {
			out = append(out, draft(map[string]any{"troops": []any{map[string]any{"troop": t.ID, "attack": hexPayload(h)}}}))
		}
	}
	for _, b := range BuyOptions(g, m, seat) {
		for _, u := range b.Units {
			p := hexPayload(b.Hex)
			p["unit"] = string(u)
			out = append(out, draft(map[string]any{"buys": []any{p}}))
		}
	}
	out = append(out, domain.Move{Type: ActionOrders, Payload: map[string]any{"orders": map[string]any{}, "submit": true}})
	return out
}
