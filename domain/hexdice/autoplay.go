package hexdice

import (
	"encoding/json"

	"github.com/meeple-games/meeple/domain"
)

// Autoplay is a scripted player with no lookahead: it drives whole games
// through the platform in end-to-end tests, the local stack's demo and the
// load scenario. It is not the bot opponent wanted after the MVP (ruling
// 14). Its choices are deterministic functions of the state.
//
// On its turn (alternating) it attacks while a troop has a target — the
// enemy HQ first, then other structures it does not hold, then the weakest
// enemy troop — then moves each troop that has none towards the nearest
// structure it does not hold, then buys while it has fewer than MaxTroops
// troops, then ends its turn. In simultaneous mode it gives the same orders
// at once and submits them.
type Autoplay struct {
	// Units are bought in turn (default hoverbike, marine).
	Units []UnitType
	// MaxTroops caps the troops it keeps (default 8).
	MaxTroops int
	// NoAttack: it never attacks (a standoff that lasts until sudden death).
	NoAttack bool
	// Passive: it only ends its turns and submits empty orders.
	Passive bool
}

func (p Autoplay) units() []UnitType {
	if len(p.Units) == 0 {
		return []UnitType{Hoverbike, Marine}
	}
	return p.Units
}

func (p Autoplay) maxTroops() int {
	if p.MaxTroops <= 0 {
		return 8
	}
	return p.MaxTroops
}

// Next returns actor's next action in g on map m: one action of its turn
// (alternating) or its submitted orders for the round (simultaneous).
// ok is false when actor has nothing to do now (not its turn, orders
// submitted, not playing, not seated).
func (p Autoplay) Next(g Game, m *Map, actor domain.Actor) (mv domain.Move, ok bool) {
	seat := g.SeatOf(actor.ID)
	if seat < 0 || g.Phase != PhasePlaying {
		return domain.Move{}, false
	}
	if g.Mode == Simultaneous {
		if g.Players[seat].Submitted {
			return domain.Move{}, false
		}
		o := Orders{}
		if !p.Passive {
			o = p.orders(g, m, seat)
		}
		var payload map[string]any
		b, _ := json.Marshal(map[string]any{"orders": o, "submit": true})
		_ = json.Unmarshal(b, &payload)
		return domain.Move{Type: ActionOrders, Payload: payload}, true
	}
	if g.Current != seat {
		return domain.Move{}, false
	}
	if p.Passive {
		return domain.Move{Type: ActionEndTurn}, true
	}
	s := preview(g, m)
	if !p.NoAttack && !s.noAttack() {
		for _, t := range g.Troops {
			if t.Owner != seat || !t.Ready || t.Attacked {
				continue
			}
			if h, found := p.bestTarget(s, t, t.Hex); found {
				return troopMove(ActionAttack, t.ID, h), true
			}
		}
	}
	for _, t := range g.Troops {
		if t.Owner != seat || !t.Ready || t.Moved || t.Attacked {
			continue
		}
		if _, found := p.bestTarget(s, t, t.Hex); found && !p.NoAttack {
			continue // it stays and attacks
		}
		if h, found := p.advance(s, t, nil); found {
			return troopMove(ActionMove, t.ID, h), true
		}
	}
	if b, found := p.buy(g, s, seat, g.Players[seat].Coins, nil, 0); found {
		pl := hexPayload(b.Hex)
		pl["unit"] = string(b.Unit)
		return domain.Move{Type: ActionBuy, Payload: pl}, true
	}
	return domain.Move{Type: ActionEndTurn}, true
}

func troopMove(typ string, troop int, h Hex) domain.Move {
	pl := hexPayload(h)
	pl["troop"] = troop
	return domain.Move{Type: typ, Payload: pl}
}

// bestTarget is what troop t would attack from hex from.
func (p Autoplay) bestTarget(s *step, t Troop, from Hex) (Hex, bool) {
	best, score, found := Hex{}, 0, false
	for _, h := range s.targets(t, from) {
		sc := 1000
		if si := s.structureAt(h); si >= 0 {
			sc = 100
			if s.g.Structures[si].Kind == HQ {
				sc = 0
			}
		} else if ti := s.troopAt(h); ti >= 0 {
			sc = 200 + s.g.Troops[ti].HP
		}
		if !found || sc < score {
			best, score, found = h, sc, true
		}
	}
	return best, found
}

// objective is the structure nearest to h that seat does not hold.
func objective(g Game, h Hex, seat Seat) (Hex, bool) {
	best, found := Hex{}, false
	for _, st := range g.Structures {
		if st.Owner == seat {
			continue
		}
		if !found || Distance(h, st.Hex) < Distance(h, best) {
			best, found = st.Hex, true
		}
	}
	return best, found
}

// advance is where troop t moves to get nearer its objective (a reachable
// hex not in taken), if anywhere.
func (p Autoplay) advance(s *step, t Troop, taken map[Hex]bool) (Hex, bool) {
	goal, ok := objective(s.g, t.Hex, t.Owner)
	if !ok {
		return Hex{}, false
	}
	rng := s.unit(t).Range
	here := Distance(t.Hex, goal)
	if here <= rng {
		return Hex{}, false
	}
	best, bestD, found := Hex{}, here, false
	for _, r := range s.destinations(t, s.reach(t), nil) {
		if taken[r.Hex] {
			continue
		}
		if d := Distance(r.Hex, goal); d < bestD {
			best, bestD, found = r.Hex, d, true
		}
	}
	return best, found
}

// buy is the troop seat buys next with coins, on a free spawn hex (not in
// taken) nearest its objective, pending buys being already ordered.
func (p Autoplay) buy(g Game, s *step, seat Seat, coins int, taken map[Hex]bool, pending int) (BuyOrder, bool) {
	own := pending
	for _, t := range g.Troops {
		if t.Owner == seat {
			own++
		}
	}
	if own >= p.maxTroops() {
		return BuyOrder{}, false
	}
	units := p.units()
	unit := units[own%len(units)]
	if g.Config.Units[unit].Cost > coins {
		unit = ""
		for _, u := range units {
			if c := g.Config.Units[u].Cost; c <= coins && (unit == "" || c < g.Config.Units[unit].Cost) {
				unit = u
			}
		}
		if unit == "" {
			return BuyOrder{}, false
		}
	}
	best, bestD, found := Hex{}, 0, false
	for _, h := range s.spawnHexes(seat) {
		if taken[h] {
			continue
		}
		goal, ok := objective(g, h, seat)
		d := 0
		if ok {
			d = Distance(h, goal)
		}
		if !found || d < bestD {
			best, bestD, found = h, d, true
		}
	}
	return BuyOrder{Unit: unit, Hex: best}, found
}

// orders are seat's orders for a simultaneous round, as Next would play its
// turn: each troop attacks what it can reach from where it stands, or moves
// towards its objective and attacks from there; then buys.
func (p Autoplay) orders(g Game, m *Map, seat Seat) Orders {
	s := preview(g, m)
	var o Orders
	taken := map[Hex]bool{}
	for _, t := range g.Troops {
		if t.Owner != seat {
			continue
		}
		to := TroopOrder{Troop: t.ID}
		if h, found := p.bestTarget(s, t, t.Hex); found && !p.NoAttack {
			to.Attack = &h
		} else if h, found := p.advance(s, t, taken); found {
			taken[h] = true
			to.Move = &h
			if a, found := p.bestTarget(s, t, h); found && !p.NoAttack {
				to.Attack = &a
			}
		}
		if to.Move != nil || to.Attack != nil {
			o.Troops = append(o.Troops, to)
		}
	}
	coins := g.Players[seat].Coins
	for {
		b, found := p.buy(g, s, seat, coins, taken, len(o.Buys))
		if !found {
			break
		}
		coins -= g.Config.Units[b.Unit].Cost
		taken[b.Hex] = true
		o.Buys = append(o.Buys, b)
	}
	if ValidateOrders(g, m, seat, o) != nil {
		return Orders{}
	}
	return o
}
