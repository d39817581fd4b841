package hexdice

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/bot"
)

// Hex & Dice's seat for the platform's bots (docs/bots.md, "What a bot
// sees" and "Moving"). It wraps the generic bot of domain/bot and adds
// what that one cannot know about this game:
//
//   - fog of war: the platform hands a fog game's bot the game document
//     (Public: no troops, no structures) and the bot's own view document
//     (views/{botId}, exactly what a person in that seat reads), never the
//     server's whole state. FromView rebuilds from those two the game as
//     the seat sees it, which the search then plays from;
//   - simultaneous mode: a bot submits one set of real orders a round
//     (PlanOrders), never drafts.

var _ domain.ViewBots = seatBots{}

// NewBots returns the domain.Bots of Hex & Dice's registry entry: the
// generic bot of sp, played from a seat's view under fog, and with orders
// of its own in simultaneous mode.
func NewBots(sp bot.Spec[Game]) domain.Bots { return seatBots{inner: bot.New(sp)} }

type seatBots struct{ inner domain.Bots }

// Join implements domain.Bots.
func (b seatBots) Join(a domain.Actor) json.RawMessage { return b.inner.Join(a) }

// Move implements domain.Bots: the state is the game document's, whole in a
// game without fog. A fog game's document hides everything a bot needs: the
// platform calls MoveView for it, and Move refuses it rather than play blind.
func (b seatBots) Move(state json.RawMessage, me domain.Actor, level string, seed uint64, now time.Time) (domain.Move, bool, error) {
	var g Game
	if err := json.Unmarshal(state, &g); err != nil {
		return domain.Move{}, false, domain.Errorf(domain.EINTERNAL, "hexdice bot: the state does not decode: %v", err)
	}
	if hides(g) {
		return domain.Move{}, false, domain.Errorf(domain.EINTERNAL, "hexdice bot: a fog game's bot plays from its seat's view (MoveView)")
	}
	return b.move(g, state, me, level, seed, now)
}

// MoveView implements domain.ViewBots: public is the game document's state,
// view the bot's view document (domain.ViewDoc) as stored.
func (b seatBots) MoveView(public, view json.RawMessage, me domain.Actor, level string, seed uint64, now time.Time) (domain.Move, bool, error) {
	var g Game
	if err := json.Unmarshal(public, &g); err != nil {
		return domain.Move{}, false, domain.Errorf(domain.EINTERNAL, "hexdice bot: the state does not decode: %v", err)
	}
	var doc struct {
		View View `json:"view"`
	}
	if err := json.Unmarshal(view, &doc); err != nil {
		return domain.Move{}, false, domain.Errorf(domain.EINTERNAL, "hexdice bot: the view does not decode: %v", err)
	}
	if hides(g) {
		g = FromView(g, doc.View)
	}
	state, err := json.Marshal(g)
	if err != nil {
		return domain.Move{}, false, domain.Errorf(domain.EINTERNAL, "hexdice bot: %v", err)
	}
	return b.move(g, state, me, level, seed, now)
}

// move is the bot's move in g (state is g as JSON): its orders while it
// plans a simultaneous round, else the generic bot's.
func (b seatBots) move(g Game, state json.RawMessage, me domain.Actor, level string, seed uint64, now time.Time) (domain.Move, bool, error) {
	seat := g.SeatOf(me.ID)
	if g.Mode == Simultaneous && g.Phase == PhasePlaying && seat >= 0 && !g.Players[seat].Submitted {
		m, err := Rules{}.MapOf(g)
		if err != nil {
			return domain.Move{}, false, err
		}
		rng := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
		o := PlanOrders(g, m, seat, level, rng)
		return domain.Move{Type: ActionOrders, Payload: map[string]any{"orders": ordersPayload(o), "submit": true}}, true, nil
	}
	return b.inner.Move(state, me, level, seed, now)
}

// ordersPayload is o as the "orders" request's field (JSON's own shape).
func ordersPayload(o Orders) map[string]any {
	raw, _ := json.Marshal(o)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	delete(out, "submitted")
	delete(out, "round")
	return out
}

// FromView is the game a seat plays from under fog: the public game (pub,
// the game document's state) with the seat's view (its view document) put
// back — its own troops and structures, the enemy troops it sees, every
// structure as it last saw it, and its memory of the map. It is Mask of
// the whole state up to what the view leaves out, filled in plausibly (a
// determinization): enemy troops out of sight are taken to be absent, and a
// structure out of sight to have the HP of a fresh one of its kind. The
// other seat's memory is empty, as in Mask.
func FromView(pub Game, v View) Game {
	g := pub.clone()
	if v.Seat < 0 || int(v.Seat) >= len(g.Players) {
		return g
	}
	g.Troops = slices.Clone(v.Troops)
	slices.SortFunc(g.Troops, func(a, b Troop) int { return a.ID - b.ID })
	g.Structures = make([]Structure, 0, len(v.Structures))
	mem := Memory{Seen: strings.NewReplacer("2", "1").Replace(v.Fog)}
	for _, ss := range v.Structures {
		st := Structure{ID: ss.ID, Kind: ss.Kind, Owner: ss.Owner, Hex: ss.Hex, HP: ss.HP}
		mem.Structures = append(mem.Structures, Structure{ID: ss.ID, Kind: ss.Kind, Owner: ss.Owner, Hex: ss.Hex})
		if !ss.Seen {
			st.HP = g.Config.Structures[ss.Kind].HP
		}
		g.Structures = append(g.Structures, st)
	}
	g.Memory = make([]Memory, len(g.Players))
	g.Memory[v.Seat] = mem
	return g
}

// PlanOrders is the orders seat submits for this round of simultaneous
// play in g (as seat sees it), made of the moves Legal lists for it:
//
//   - strong: every troop attacks what it can hit from where it stands
//     (the weakest enemy troop first, then a structure); a troop with
//     nothing in range moves to the reachable hex nearest a structure it
//     does not hold (else an enemy troop) and attacks from there if it can;
//     then it buys the dearest units its coins pay for, next to its spawn
//     structures;
//   - random: a random choice among the single orders Legal lists, each
//     troop at most once, and a random affordable buy or two.
//
// Each order joins the plan only if the plan stays valid (ValidateOrders),
// so the orders are always accepted as the seat sees the board.
func PlanOrders(g Game, m *Map, seat Seat, level string, rng *rand.Rand) Orders {
	var o Orders
	try := func(next Orders) bool {
		if ValidateOrders(g, m, seat, next) != nil {
			return false
		}
		o = next
		return true
	}
	addTroop := func(to TroopOrder) bool {
		next := o
		next.Troops = append(slices.Clone(o.Troops), to)
		return try(next)
	}
	addBuy := func(b BuyOrder) bool {
		next := o
		next.Buys = append(slices.Clone(o.Buys), b)
		return try(next)
	}
	s := preview(g, m)
	if level == domain.BotRandom {
		troops := slices.Clone(g.Troops)
		rng.Shuffle(len(troops), func(i, j int) { troops[i], troops[j] = troops[j], troops[i] })
		for _, t := range troops {
			if t.Owner != seat || rng.IntN(10) >= 7 {
				continue
			}
			var opts []TroopOrder
			for _, d := range s.destinations(t, s.reach(t), nil) {
				opts = append(opts, TroopOrder{Troop: t.ID, Move: &Hex{d.Q, d.R}})
			}
			for _, h := range s.targets(t, t.Hex) {
				opts = append(opts, TroopOrder{Troop: t.ID, Attack: &Hex{h.Q, h.R}})
			}
			rng.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
			for _, to := range opts {
				if addTroop(to) {
					break
				}
			}
		}
		buys := BuyOptions(g, m, seat)
		for n := rng.IntN(3); n > 0 && len(buys) > 0; n-- {
			b := buys[rng.IntN(len(buys))]
			if len(b.Units) > 0 {
				addBuy(BuyOrder{Unit: b.Units[rng.IntN(len(b.Units))], Hex: b.Hex})
			}
		}
		return o
	}

	// strong
	for _, t := range g.Troops {
		if t.Owner != seat {
			continue
		}
		if h, ok := bestTarget(s, t, t.Hex); ok && addTroop(TroopOrder{Troop: t.ID, Attack: &h}) {
			continue
		}
		goal := goals(g, seat)
		dests := s.destinations(t, s.reach(t), nil)
		slices.SortStableFunc(dests, func(a, b Reach) int { return nearest(a.Hex, goal) - nearest(b.Hex, goal) })
		for _, d := range dests {
			if nearest(d.Hex, goal) >= nearest(t.Hex, goal) {
				break // no closer
			}
			to := TroopOrder{Troop: t.ID, Move: &Hex{d.Q, d.R}}
			if h, ok := bestTarget(s, t, d.Hex); ok {
				with := to
				with.Attack = &h
				if addTroop(with) {
					break
				}
			}
			if addTroop(to) {
				break
			}
		}
	}
	units := make([]UnitType, 0, len(g.Config.Units))
	for u := range g.Config.Units {
		units = append(units, u)
	}
	// Dearest first, by name among equals (a map's order is random).
	slices.SortFunc(units, func(a, b UnitType) int {
		if ca, cb := g.Config.Units[a].Cost, g.Config.Units[b].Cost; ca != cb {
			return cb - ca
		}
		return strings.Compare(string(a), string(b))
	})
	for _, b := range BuyOptions(g, m, seat) {
		for _, u := range units {
			if addBuy(BuyOrder{Unit: u, Hex: b.Hex}) {
				break
			}
		}
	}
	return o
}

// bestTarget is what troop t standing on from attacks first: the enemy
// troop with the fewest HP, else a structure it does not hold.
func bestTarget(s *step, t Troop, from Hex) (Hex, bool) {
	best, bestHP, found := Hex{}, 1<<30, false
	for _, h := range s.targets(t, from) {
		hp := 1 << 20 // a structure: after any troop
		if i := s.troopAt(h); i >= 0 {
			hp = s.g.Troops[i].HP
		}
		if hp < bestHP {
			best, bestHP, found = h, hp, true
		}
	}
	return best, found
}

// goals are where seat's troops head: the structures it does not hold,
// else the enemy troops it sees.
func goals(g Game, seat Seat) []Hex {
	var out []Hex
	for _, st := range g.Structures {
		if st.Owner != seat {
			out = append(out, st.Hex)
		}
	}
	if len(out) == 0 {
		for _, t := range g.Troops {
			if t.Owner != seat {
				out = append(out, t.Hex)
			}
		}
	}
	return out
}

// nearest is the distance from h to the nearest of hs (large for none).
func nearest(h Hex, hs []Hex) int {
	d := 1 << 20
	for _, x := range hs {
		d = min(d, Distance(h, x))
	}
	return d
}
