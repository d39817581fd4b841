package hexdice

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/meeple-games/meeple/domain"
)

// Orders are one player's orders for a round of simultaneous mode. They are
// private: sealed in the game (Player.SealedOrders, Env.Seal), which the
// opponent reads but cannot open, or, without a sealer, passed back to the
// rules through Rules.Orders. They become public (EventOrdersRevealed) when
// the round resolves.
type Orders struct {
	// Round is the round the orders are for; the rules ignore orders of any
	// other round, so a stored document needs no cleaning up.
	Round int `json:"round" field:"int,min=0,max=1000"`
	// Submitted: locked in. Saved but not submitted orders are submitted as
	// they are when the planning timer runs out.
	Submitted bool         `json:"submitted"`
	Troops    []TroopOrder `json:"troops,omitempty" field:"list,max=200"` // at most one per troop, by troop id
	Buys      []BuyOrder   `json:"buys,omitempty" field:"list,max=50"`    // at most maxBuys
}

// TroopOrder is what one troop does: move to a hex, attack a hex (from
// where it ends its move), either or both.
type TroopOrder struct {
	Troop  int  `json:"troop" field:"int,min=0,max=1000000"`
	Move   *Hex `json:"move,omitempty"`
	Attack *Hex `json:"attack,omitempty"`
}

// BuyOrder buys a troop on a hex; it appears after the round's attacks.
type BuyOrder struct {
	Unit UnitType `json:"unit" field:"enum=marine|sniper|hoverbike|mech"`
	Hex
}

// maxBuys bounds the buys of one order set.
const maxBuys = 50

// OrdersResult is the result of the "orders" action. Orders are what the
// action stored, kept out of its reply: the reply of an action that writes
// nothing but the game document is kept in it for retries, where the
// opponent reads it. Sealed says they are sealed in the game; otherwise
// (no Env.Seal) whoever runs the rules keeps them for the next call's
// Rules.Orders (PrivateOrders).
type OrdersResult struct {
	Seat      Seat   `json:"seat"`
	PlayerID  string `json:"playerId"`
	Orders    Orders `json:"-"`
	Sealed    bool   `json:"-"`
	Submitted bool   `json:"submitted"`
	Resolved  bool   `json:"resolved"` // both had submitted: the round resolved
}

// PrivateOrders returns the orders an outcome of rules run without a sealer
// leaves to their caller to keep, by the id of the player they are of.
func PrivateOrders(out domain.Outcome) (playerID string, o Orders, ok bool) {
	r, ok := out.Result.(OrdersResult)
	if !ok || r.Sealed {
		return "", Orders{}, false
	}
	return r.PlayerID, r.Orders, true
}

// ValidateOrders checks seat's orders against g (simultaneous mode, in
// planning) on map m:
//
//   - each troop order names a troop of seat's, at most once, with a move,
//     an attack or both;
//   - a move goes to a hex the troop can reach with its mobility (enemies,
//     structures and impassable terrain block, own troops may be passed), not
//     its own, with no enemy troop, and no own troop unless that troop moves
//     away; two own troops never move to the same hex;
//   - an attack aims at a hex holding an enemy troop or a structure seat
//     does not hold, within the troop's range of where its move ends;
//   - a buy is of a known unit, on a free passable hex next to a spawn
//     structure seat holds, no own move ends there, no two buys share a hex,
//     and all buys together cost at most seat's coins.
//
// Errors: ECONFLICT (not a simultaneous game in planning; orders for
// another round), EINVALID (the first order at fault, e.g. "troops[2].move:
// ...").
func ValidateOrders(g Game, m *Map, seat Seat, o Orders) error {
	s := newStep(g, m, g.CreatedAt, nil)
	_, err := s.checkOrders(seat, o)
	return err
}

// plan is a validated order set, ready to resolve.
type plan struct {
	seat  Seat
	moves map[int]Hex   // troop id → destination
	paths map[int][]Hex // troop id → the hexes entered
	costs map[int]int
	aims  map[int]Hex // troop id → aimed hex
	buys  []BuyOrder
}

func (s *step) checkOrders(seat Seat, o Orders) (plan, error) {
	if s.g.Fog && !s.masked && seat >= 0 && int(seat) < len(s.g.Memory) {
		// Under fog, orders are checked against the board as seat sees it
		// (at submission and again at resolution); resolveMoves settles
		// what hidden troops change.
		return s.maskedStep(seat).checkOrders(seat, o)
	}
	pl := plan{seat: seat, moves: map[int]Hex{}, paths: map[int][]Hex{}, costs: map[int]int{}, aims: map[int]Hex{}}
	g := s.g
	switch {
	case g.Mode != Simultaneous:
		return pl, domain.Errorf(domain.ECONFLICT, "orders are for simultaneous mode; this game is alternating")
	case g.Phase != PhasePlaying:
		return pl, domain.Errorf(domain.ECONFLICT, "the game is not being played")
	case seat < 0 || int(seat) >= len(g.Players):
		return pl, domain.Errorf(domain.EFORBIDDEN, "seat %d is not a player", seat)
	case o.Round != 0 && o.Round != g.Round:
		return pl, domain.Errorf(domain.ECONFLICT, "orders.round: these orders are for round %d, this is round %d", o.Round, g.Round)
	case len(o.Buys) > maxBuys:
		return pl, domain.Errorf(domain.EINVALID, "orders.buys: at most %d", maxBuys)
	}
	leaving := map[int]bool{}
	seen := map[int]bool{}
	for k, to := range o.Troops {
		f := fmt.Sprintf("orders.troops[%d]", k)
		i := g.TroopByID(to.Troop)
		switch {
		case i < 0 || g.Troops[i].Owner != seat:
			return pl, domain.Errorf(domain.EINVALID, "%s.troop: you have no troop %d", f, to.Troop)
		case seen[to.Troop]:
			return pl, domain.Errorf(domain.EINVALID, "%s.troop: troop %d has two orders", f, to.Troop)
		case to.Move == nil && to.Attack == nil:
			return pl, domain.Errorf(domain.EINVALID, "%s: give a move, an attack or both", f)
		}
		seen[to.Troop] = true
		if to.Move != nil {
			leaving[to.Troop] = true
		}
	}
	dest := map[Hex]int{}
	for k, to := range o.Troops {
		f := fmt.Sprintf("orders.troops[%d]", k)
		t := g.Troops[g.TroopByID(to.Troop)]
		from := t.Hex
		if to.Move != nil {
			h := *to.Move
			if !s.m.Contains(h) {
				return pl, domain.Errorf(domain.EINVALID, "%s.move: (%d,%d) is off the map", f, h.Q, h.R)
			}
			ps := s.reach(t)
			c := ps.cost[s.m.g.index(h)]
			occ := s.troopAt(h)
			if c <= 0 || (occ >= 0 && !leaving[g.Troops[occ].ID]) {
				return pl, domain.Errorf(domain.EINVALID, "%s.move: troop %d cannot reach and stop on (%d,%d) (mobility %d)", f, t.ID, h.Q, h.R, s.unit(t).Mobility)
			}
			if other, ok := dest[h]; ok {
				return pl, domain.Errorf(domain.EINVALID, "%s.move: troop %d also moves to (%d,%d)", f, other, h.Q, h.R)
			}
			dest[h] = t.ID
			pl.moves[t.ID], pl.costs[t.ID], pl.paths[t.ID] = h, int(c), s.path(ps, s.m.g.index(h))
			from = h
		}
		if to.Attack != nil {
			h := *to.Attack
			if !s.m.Contains(h) {
				return pl, domain.Errorf(domain.EINVALID, "%s.attack: (%d,%d) is off the map", f, h.Q, h.R)
			}
			if err := s.target(t, from, h); err != nil {
				return pl, fieldError(f+".attack", err)
			}
			pl.aims[t.ID] = h
		}
	}
	cost, bought := 0, map[Hex]bool{}
	for k, b := range o.Buys {
		f := fmt.Sprintf("orders.buys[%d]", k)
		us, err := s.unitType(b.Unit, f+".unit")
		if err != nil {
			return pl, err
		}
		switch {
		case !s.m.Contains(b.Hex) || !s.spawnable(seat, b.Hex):
			return pl, domain.Errorf(domain.EINVALID, "%s: (%d,%d) is not a free passable hex next to an HQ, outpost or command center you hold", f, b.Q, b.R)
		case bought[b.Hex]:
			return pl, domain.Errorf(domain.EINVALID, "%s: two buys on (%d,%d)", f, b.Q, b.R)
		}
		if id, ok := dest[b.Hex]; ok {
			return pl, domain.Errorf(domain.EINVALID, "%s: troop %d moves to (%d,%d)", f, id, b.Q, b.R)
		}
		bought[b.Hex] = true
		cost += us.Cost
		if coins := g.Players[seat].Coins; cost > coins {
			return pl, domain.Errorf(domain.EINVALID, "%s: the buys cost %d coins, you have %d", f, cost, coins)
		}
		pl.buys = append(pl.buys, b)
	}
	return pl, nil
}

// normalize sorts troop orders by troop id and stamps the round.
func normalize(o Orders, round int, submitted bool) Orders {
	o.Round, o.Submitted = round, submitted
	o.Troops = slices.Clone(o.Troops)
	slices.SortFunc(o.Troops, func(a, b TroopOrder) int { return cmp.Compare(a.Troop, b.Troop) })
	o.Buys = slices.Clone(o.Buys)
	return o
}

// orders: payload {"orders": {"troops": [...], "buys": [...]}, "submit":
// true}. The orders replace the player's saved ones for this round; with
// submit they are locked in, and when the opponent's are too the round
// resolves at once (the opponent's come from Rules.Orders). The result
// (OrdersResult) holds the orders the platform must store privately.
//
// Errors: EINVALID (the order at fault), ECONFLICT (not simultaneous, not
// planning, already submitted, orders for another round), EINTERNAL (the
// opponent submitted but their orders were not passed in Rules.Orders).
func (s *step) orders(a domain.Actor, p []byte) error {
	var req OrdersRequest
	if err := domain.DecodePayload(p, &req); err != nil {
		return err
	}
	seat, err := s.playing(a, "send orders")
	if err != nil {
		return err
	}
	if req.Orders == nil {
		req.Orders = &Orders{}
	}
	if s.g.Players[seat].Submitted {
		return domain.Errorf(domain.ECONFLICT, "your orders for round %d are locked in", s.g.Round)
	}
	if _, err := s.checkOrders(seat, *req.Orders); err != nil {
		return err
	}
	o := normalize(*req.Orders, s.g.Round, req.Submit)
	res := OrdersResult{Seat: seat, PlayerID: a.ID, Orders: o, Submitted: req.Submit}
	if req.Submit {
		s.g.Players[seat].Submitted = true
		s.emit(seat, EventOrdersSubmitted, OrdersSubmittedData{Seat: seat})
		if s.g.Players[seat.Other()].Submitted {
			other, err := s.storedOrders(seat.Other())
			if err != nil {
				return err
			}
			both := [2]Orders{}
			both[seat], both[seat.Other()] = o, other
			if err := s.resolve(both); err != nil {
				return err
			}
			res.Resolved = true
		}
	}
	if !res.Resolved && s.seal != nil {
		text, err := json.Marshal(o)
		if err != nil {
			return domain.Errorf(domain.EINTERNAL, "orders: %v", err)
		}
		s.g.Players[seat].SealedOrders = s.seal.Seal(a.ID, text)
		res.Sealed = true
	}
	s.result = res
	return nil
}

// savedOrders returns seat's orders as kept: sealed in the game, or passed
// in Rules.Orders (found false: neither).
//
// Errors: EINTERNAL (sealed orders that do not open or decode).
func (s *step) savedOrders(seat Seat) (o Orders, found bool, err error) {
	p := s.g.Players[seat]
	if p.SealedOrders == "" {
		o, found = s.private[p.ID]
		return o, found, nil
	}
	o, err = openOrders(p, s.seal)
	return o, err == nil, err
}

// openOrders opens the orders p sealed in the game with seal.
//
// Errors: EINTERNAL (no sealer; sealed orders that do not open or decode).
func openOrders(p Player, seal domain.Sealer) (Orders, error) {
	if seal == nil {
		return Orders{}, domain.Errorf(domain.EINTERNAL, "player %s's orders are sealed and the rules were given no sealer", p.ID)
	}
	text, err := seal.Open(p.ID, p.SealedOrders)
	if err != nil {
		return Orders{}, err
	}
	var o Orders
	if err := json.Unmarshal(text, &o); err != nil {
		return Orders{}, domain.Errorf(domain.EINTERNAL, "player %s's sealed orders: %v", p.ID, err)
	}
	return o, nil
}

// clearSealed drops the sealed orders: a round that resolves has revealed
// them, and a game that ends publishes the seed that opens them.
func (s *step) clearSealed() {
	for i := range s.g.Players {
		s.g.Players[i].SealedOrders = ""
	}
}

// storedOrders returns the submitted orders of seat (savedOrders).
func (s *step) storedOrders(seat Seat) (Orders, error) {
	id := s.g.Players[seat].ID
	o, ok, err := s.savedOrders(seat)
	if err != nil {
		return Orders{}, err
	}
	if !ok || o.Round != s.g.Round || !o.Submitted {
		return Orders{}, domain.Errorf(domain.EINTERNAL,
			"player %s submitted orders for round %d but they are neither sealed in the game nor passed in Rules.Orders", id, s.g.Round)
	}
	return o, nil
}

// autoSubmit is the planning timer running out: each player who has not
// submitted has their saved orders for this round (or none) submitted as
// they are; saved orders that no longer validate are replaced by none.
func (s *step) autoSubmit() error {
	var both [2]Orders
	for seat := Seat(0); seat < 2; seat++ {
		if s.g.Players[seat].Submitted {
			o, err := s.storedOrders(seat)
			if err != nil {
				return err
			}
			both[seat] = o
			continue
		}
		o, _, err := s.savedOrders(seat)
		if err != nil {
			return err
		}
		if o.Round != s.g.Round {
			o = Orders{}
		}
		if _, err := s.checkOrders(seat, o); err != nil {
			o = Orders{}
		}
		both[seat] = normalize(o, s.g.Round, true)
		s.g.Players[seat].Submitted = true
		s.emit(seat, EventOrdersSubmitted, OrdersSubmittedData{Seat: seat, Auto: true})
	}
	return s.resolve(both)
}

// Resolve resolves a round of simultaneous mode with seat 0's orders a and
// seat 1's orders b, then ends the round and starts the next (or ends the
// game), as of env.Now with env.Dice. Apply and Expire call it through the
// "orders" action and the planning timer; the platform need not.
//
// Errors: ECONFLICT, EINVALID (as ValidateOrders, for either order set).
func Resolve(g Game, m *Map, a, b Orders, env domain.Env) (Game, []domain.Event, error) {
	s := newStep(g.clone(), m, env.Now, env.Dice)
	if err := s.resolve([2]Orders{a, b}); err != nil {
		return g, nil, err
	}
	return s.g, s.events, nil
}

// resolve is a round's resolution (seed §9 Mode B; docs/hexdice.md has the
// full conflict rules): orders revealed, moves, attacks, buys, the end of
// both players' turns, the next round.
func (s *step) resolve(both [2]Orders) error {
	var plans [2]plan
	for seat := Seat(0); seat < 2; seat++ {
		p, err := s.checkOrders(seat, both[seat])
		if err != nil {
			return err
		}
		plans[seat] = p
	}
	for seat := Seat(0); seat < 2; seat++ {
		s.emit(seat, EventOrdersRevealed, OrdersRevealedData{Seat: seat, Orders: normalize(both[seat], s.g.Round, true)})
	}
	s.clearSealed()
	// Who stood where when the orders were given: attacks follow their target.
	aimedAt := map[Hex]int{}
	for _, t := range s.g.Troops {
		aimedAt[t.Hex] = t.ID
	}
	s.resolveMoves(plans)
	s.resolveAttacks(plans, aimedAt)
	if s.over() {
		return nil
	}
	s.resolveBuys(plans)
	for seat := Seat(0); seat < 2; seat++ {
		s.g.Players[seat].Submitted = false
	}
	for seat := Seat(0); seat < 2; seat++ {
		if s.closeTurn(seat, "resolved") {
			return nil
		}
	}
	if s.closeRound() {
		return nil
	}
	s.startSimultaneousRound()
	return nil
}

// mover is one ordered move during resolution.
type mover struct {
	id       int
	from, to Hex
	mobility int
	seat     Seat
	live     bool
}

// resolveMoves moves every troop at once:
//
//  1. claims: when troops claim one hex, the one with the highest mobility
//     gets it and the others' moves are cancelled ("slower"); if several
//     share the highest mobility, all their moves are cancelled ("tie");
//  2. then, until nothing changes: a move whose hex is held by a troop that
//     stays (no move, or a cancelled one) is cancelled ("blocked"), which
//     may block the troop behind it in turn;
//  3. the remaining moves all happen at once: a troop may move into a hex a
//     friend leaves, friends may swap, rings of friends rotate. Enemies
//     never swap: a move may not end on a hex an enemy holds when the
//     orders are given. Paths were checked then too, against where every
//     troop stood; troops moving at the same time do not block each other's
//     paths.
func (s *step) resolveMoves(plans [2]plan) {
	var ms []*mover
	for _, p := range plans {
		for id, to := range p.moves {
			t := s.g.Troops[s.g.TroopByID(id)]
			ms = append(ms, &mover{id: id, from: t.Hex, to: to, mobility: s.unit(t).Mobility, seat: p.seat, live: true})
		}
	}
	slices.SortFunc(ms, func(a, b *mover) int { return cmp.Compare(a.id, b.id) })
	cancel := func(mv *mover, reason string) {
		mv.live = false
		s.emit(mv.seat, EventMoveCancelled, MoveCancelledData{Troop: mv.id, From: mv.from, To: mv.to, Reason: reason})
	}
	claims := map[Hex][]*mover{}
	for _, mv := range ms {
		claims[mv.to] = append(claims[mv.to], mv)
	}
	for _, mv := range ms {
		group := claims[mv.to]
		if len(group) < 2 || group[0] != mv {
			continue
		}
		top := 0
		for _, c := range group {
			top = max(top, c.mobility)
		}
		winners := 0
		for _, c := range group {
			if c.mobility == top {
				winners++
			}
		}
		for _, c := range group {
			switch {
			case c.mobility < top:
				cancel(c, CancelSlower)
			case winners > 1:
				cancel(c, CancelTie)
			}
		}
	}
	byFrom := map[Hex]*mover{}
	for _, mv := range ms {
		byFrom[mv.from] = mv
	}
	for changed := true; changed; {
		changed = false
		for _, mv := range ms {
			if !mv.live {
				continue
			}
			if s.troopAt(mv.to) >= 0 {
				if occ := byFrom[mv.to]; occ == nil || !occ.live {
					cancel(mv, CancelBlocked)
					changed = true
				}
			}
		}
	}
	for _, mv := range ms {
		if !mv.live {
			continue
		}
		s.g.Troops[s.g.TroopByID(mv.id)].Hex = mv.to
		s.g.Troops[s.g.TroopByID(mv.id)].Moved = true
		p := plans[mv.seat]
		s.emit(mv.seat, EventMoved, MovedData{Troop: mv.id, From: mv.from, To: mv.to, Cost: p.costs[mv.id], Path: p.paths[mv.id]})
	}
	s.moved()
}

// resolveAttacks makes every ordered attack at once, after the moves, each
// from where its troop stands. An attack aimed at hex H strikes:
//
//  1. the structure on H, unless the attacker's side holds it;
//  2. else the enemy troop now on H;
//  3. else the troop that stood on H when the orders were given, if it moved
//     to a hex next to H, at ATK −2;
//  4. else nothing ("targetMoved"); and nothing either when the target is out
//     of the attacker's range ("outOfRange").
//
// All attacks (and counterattacks) see the HP at the start of the phase: a
// troop killed this phase still strikes, a defender counters when this
// attack alone leaves it alive. Damage is applied at the end: troops at 0 HP
// die; a structure at 0 HP goes at 1 HP to the side that dealt it more
// damage (equal damage: it stays as it was, at 1 HP). Attacks resolve in
// troop id order, which only orders the dice and events.
func (s *step) resolveAttacks(plans [2]plan, aimedAt map[Hex]int) {
	type aim struct {
		id  int
		hex Hex
	}
	var aims []aim
	for _, p := range plans {
		for id, h := range p.aims {
			aims = append(aims, aim{id, h})
		}
	}
	slices.SortFunc(aims, func(a, b aim) int { return cmp.Compare(a.id, b.id) })
	startHP := map[int]int{}
	for _, t := range s.g.Troops {
		startHP[t.ID] = t.HP
	}
	troopDmg := map[int]int{}
	structDmg := make([][2]int, len(s.g.Structures))
	cause := map[int]string{}
	for _, am := range aims {
		ai := s.g.TroopByID(am.id)
		a := &s.g.Troops[ai]
		a.Attacked, a.Engaged = true, true
		rng := s.unit(*a).Range
		if si := s.structureAt(am.hex); si >= 0 && s.g.Structures[si].Owner != a.Owner {
			st := s.g.Structures[si]
			if Distance(a.Hex, st.Hex) > rng {
				s.emit(a.Owner, EventAttackVoid, AttackVoidData{Troop: a.ID, Aim: am.hex, Reason: "outOfRange"})
				continue
			}
			r := s.structureStrike(*a, st, 0)
			structDmg[si][a.Owner] += r.Damage
			r.HP = max(st.HP-structDmg[si][0]-structDmg[si][1], 0)
			s.emit(a.Owner, EventAttacked, r)
			continue
		}
		di, penalty := s.troopAt(am.hex), 0
		if di >= 0 && s.g.Troops[di].Owner == a.Owner {
			di = -1
		}
		if di < 0 {
			if id, ok := aimedAt[am.hex]; ok {
				if j := s.g.TroopByID(id); j >= 0 && s.g.Troops[j].Owner != a.Owner && Distance(s.g.Troops[j].Hex, am.hex) == 1 {
					di, penalty = j, 2
				}
			}
		}
		if di < 0 {
			s.emit(a.Owner, EventAttackVoid, AttackVoidData{Troop: a.ID, Aim: am.hex, Reason: "targetMoved"})
			continue
		}
		d := &s.g.Troops[di]
		if Distance(a.Hex, d.Hex) > rng {
			s.emit(a.Owner, EventAttackVoid, AttackVoidData{Troop: a.ID, Aim: am.hex, Reason: "outOfRange"})
			continue
		}
		d.Engaged = true
		r := s.troopStrike(AttackTroop, *a, *d, penalty)
		troopDmg[d.ID] += r.Damage
		r.HP = startHP[d.ID] - troopDmg[d.ID]
		if _, ok := cause[d.ID]; !ok && r.HP <= 0 {
			cause[d.ID] = CauseAttack
		}
		s.emit(a.Owner, EventAttacked, r)
		if startHP[d.ID]-r.Damage <= 0 || !s.counters(*a, *d) {
			continue
		}
		c := s.troopStrike(AttackCounter, *d, *a, 0)
		troopDmg[a.ID] += c.Damage
		c.HP = startHP[a.ID] - troopDmg[a.ID]
		if _, ok := cause[a.ID]; !ok && c.HP <= 0 {
			cause[a.ID] = CauseCounter
		}
		s.emit(d.Owner, EventAttacked, c)
	}
	for i := 0; i < len(s.g.Troops); {
		t := &s.g.Troops[i]
		t.HP = startHP[t.ID] - troopDmg[t.ID]
		if t.HP <= 0 {
			s.kill(i, cause[t.ID], t.Owner.Other())
			continue
		}
		i++
	}
	var fallen [2]bool // an HQ of this seat was captured
	for si := range s.g.Structures {
		d := structDmg[si]
		st := &s.g.Structures[si]
		if d[0]+d[1] == 0 {
			continue
		}
		st.HP -= d[0] + d[1]
		if st.HP > 0 {
			continue
		}
		var by Seat = Neutral
		switch {
		case d[0] > d[1]:
			by = 0
		case d[1] > d[0]:
			by = 1
		}
		if by == Neutral {
			st.HP = 1
			continue
		}
		if st.Kind == HQ && st.Owner >= 0 {
			fallen[st.Owner] = true
		}
		s.capture(si, by)
	}
	switch {
	case fallen[0] && fallen[1]:
		s.finish(Neutral, ReasonHQ)
	case fallen[0]:
		s.finish(1, ReasonHQ)
	case fallen[1]:
		s.finish(0, ReasonHQ)
	}
}

// resolveBuys places the round's purchases after the attacks. A hex both
// players bought on gets neither troop ("contested"); a hex now taken
// ("occupied"), no longer next to a spawn structure of the buyer's
// ("spawnLost"), or a buy the coins no longer cover ("coins") is cancelled
// without charge.
func (s *step) resolveBuys(plans [2]plan) {
	count := map[Hex]int{}
	for _, p := range plans {
		for _, b := range p.buys {
			count[b.Hex]++
		}
	}
	for _, p := range plans {
		for _, b := range p.buys {
			reason := ""
			switch {
			case count[b.Hex] > 1:
				reason = "contested"
			case !s.free(b.Hex):
				reason = "occupied"
			case !s.spawnable(p.seat, b.Hex):
				reason = "spawnLost"
			case s.g.Players[p.seat].Coins < s.g.Config.Units[b.Unit].Cost:
				reason = "coins"
			}
			if reason != "" {
				s.emit(p.seat, EventBuyCancelled, BuyCancelledData{Type: b.Unit, Hex: b.Hex, Reason: reason})
				continue
			}
			s.place(p.seat, b.Unit, b.Hex)
		}
	}
}
