package hexdice

import (
	"slices"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// hex returns a payload's target hex from its "q" and "r" fields (pointers,
// so a missing field is told from 0), EINVALID when a field is missing or
// the hex is off the map.
func (s *step) hex(q, r *int) (Hex, error) {
	if q == nil || r == nil {
		return Hex{}, domain.Errorf(domain.EINVALID, "q and r are required: the target hex")
	}
	h := Hex{*q, *r}
	if !s.m.Contains(h) {
		return Hex{}, domain.Errorf(domain.EINVALID, "q, r: (%d,%d) is off the map (radius %d)", h.Q, h.R, s.m.Radius())
	}
	return h, nil
}

// ownTroop returns the index of troop id, which seat must own.
func (s *step) ownTroop(seat Seat, id *int, field string) (int, error) {
	if id == nil {
		return -1, domain.Errorf(domain.EINVALID, "%s is required: a troop id", field)
	}
	i := s.g.TroopByID(*id)
	if i < 0 || s.g.Troops[i].Owner != seat {
		return -1, domain.Errorf(domain.EINVALID, "%s: you have no troop %d", field, *id)
	}
	return i, nil
}

// join seats the actor as the opponent and starts the game.
func (s *step) join(a domain.Actor, p []byte) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	switch {
	case a.ID == "":
		return domain.Errorf(domain.EINVALID, "a player id is required to join")
	case s.g.SeatOf(a.ID) >= 0:
		return domain.Errorf(domain.ECONFLICT, "you are already in this game")
	case s.g.Phase == PhaseOver:
		return domain.Errorf(domain.ECONFLICT, "the game is over")
	case s.g.Phase != PhaseWaiting || len(s.g.Players) >= 2:
		return domain.Errorf(domain.ECONFLICT, "the game is full")
	}
	s.g.Players = append(s.g.Players, Player{ID: a.ID, Name: a.Name, Coins: s.g.Config.Economy.StartCoins})
	if s.g.Fog {
		s.g.Memory = append(slices.Clone(s.g.Memory), newMemory(s.g))
	}
	for i := range s.g.Players { // the connection clocks start with play
		s.g.Players[i].LastSeen = s.now
	}
	s.emit(1, EventJoined, JoinedData{Seat: 1, Name: a.Name})
	s.start()
	s.result = JoinResult{Seat: 1, First: s.g.First}
	return nil
}

// spawnable reports whether seat may place a troop on h: free, passable,
// next to a spawn structure seat holds (ruling 7).
func (s *step) spawnable(seat Seat, h Hex) bool {
	if !s.free(h) {
		return false
	}
	for d := 0; d < 6; d++ {
		if si := s.structureAt(h.Neighbour(d)); si >= 0 {
			st := s.g.Structures[si]
			if st.Owner == seat && s.g.Config.Structures[st.Kind].Spawn {
				return true
			}
		}
	}
	return false
}

// unitType parses a unit field.
func (s *step) unitType(u UnitType, field string) (UnitStats, error) {
	us, ok := s.g.Config.Units[u]
	if !ok {
		return UnitStats{}, domain.Errorf(domain.EINVALID, "%s must be marine, sniper, hoverbike or mech, not %q", field, u)
	}
	return us, nil
}

// buy: payload {"unit": "marine", "q": 1, "r": -2}. The troop appears on the
// hex and acts from the buyer's next turn.
//
// Errors: EINVALID (unit, q/r: not a free passable hex next to a spawn
// structure you hold), ECONFLICT (not your turn, not enough coins).
func (s *step) buy(a domain.Actor, p []byte) error {
	var req BuyRequest
	if err := domain.DecodePayload(p, &req); err != nil {
		return err
	}
	seat, err := s.myTurn(a, "buy")
	if err != nil {
		return err
	}
	us, err := s.unitType(req.Unit, "unit")
	if err != nil {
		return err
	}
	h, err := s.hex(req.Q, req.R)
	if err != nil {
		return err
	}
	if !s.spawnable(seat, h) {
		return domain.Errorf(domain.EINVALID, "q, r: (%d,%d) is not a free passable hex next to an HQ, outpost or command center you hold", h.Q, h.R)
	}
	if coins := s.g.Players[seat].Coins; coins < us.Cost {
		return domain.Errorf(domain.ECONFLICT, "a %s costs %d coins, you have %d", req.Unit, us.Cost, coins)
	}
	s.place(seat, req.Unit, h)
	return nil
}

// place adds a troop of seat, not ready until seat's next turn, paying for it.
func (s *step) place(seat Seat, u UnitType, h Hex) {
	us := s.g.Config.Units[u]
	p := &s.g.Players[seat]
	p.Coins -= us.Cost
	t := Troop{ID: s.g.NextTroop, Owner: seat, Type: u, Hex: h, HP: us.HP}
	s.g.NextTroop++
	s.g.Troops = append(s.g.Troops, t)
	s.moved()
	s.emit(seat, EventBought, BoughtData{Troop: t.ID, Type: u, Hex: h, Cost: us.Cost, Coins: p.Coins})
}

// ready checks troop i may act this turn.
func (s *step) ready(i int) error {
	t := s.g.Troops[i]
	if !t.Ready {
		return domain.Errorf(domain.ECONFLICT, "troop %d was bought this turn: it acts from your next turn", t.ID)
	}
	return nil
}

// troopTo decodes the payload of move and attack, {"troop": 3, "q": 1,
// "r": -2}, for the caller whose turn it is: their seat, the troop's index
// and the hex.
//
// Errors: EINVALID (the payload, troop, q/r), ECONFLICT (not your turn).
func (s *step) troopTo(a domain.Actor, p []byte, what string) (Seat, int, Hex, error) {
	var req TroopRequest
	if err := domain.DecodePayload(p, &req); err != nil {
		return 0, 0, Hex{}, err
	}
	seat, err := s.myTurn(a, what)
	if err != nil {
		return 0, 0, Hex{}, err
	}
	i, err := s.ownTroop(seat, req.Troop, "troop")
	if err != nil {
		return 0, 0, Hex{}, err
	}
	h, err := s.hex(req.Q, req.R)
	return seat, i, h, err
}

// move: payload {"troop": 3, "q": 1, "r": -2}. One move per troop per turn,
// before it attacks; the path costs at most its mobility.
//
// Errors: EINVALID (troop, q/r: not a hex it can reach and stop on),
// ECONFLICT (not your turn, bought this turn, already moved or attacked).
func (s *step) move(a domain.Actor, p []byte) error {
	seat, i, h, err := s.troopTo(a, p, "move")
	if err != nil {
		return err
	}
	t := s.g.Troops[i]
	switch {
	case s.ready(i) != nil:
		return s.ready(i)
	case t.Attacked:
		return domain.Errorf(domain.ECONFLICT, "troop %d has attacked: troops move, then attack", t.ID)
	case t.Moved:
		return domain.Errorf(domain.ECONFLICT, "troop %d has already moved this turn", t.ID)
	}
	if s.g.Fog {
		return s.fogMove(seat, t, h)
	}
	ps := s.reach(t)
	j := s.m.g.index(h)
	if ps.cost[j] <= 0 || s.troopAt(h) >= 0 {
		return domain.Errorf(domain.EINVALID, "q, r: troop %d cannot reach and stop on (%d,%d) (mobility %d)", t.ID, h.Q, h.R, s.unit(t).Mobility)
	}
	path := s.path(ps, j)
	tt := &s.g.Troops[i]
	tt.Hex, tt.Moved = h, true
	s.moved()
	s.emit(seat, EventMoved, MovedData{Troop: t.ID, From: t.Hex, To: h, Cost: int(ps.cost[j]), Path: path})
	return nil
}

// target checks what troop t may attack at h: an enemy troop or a structure
// its side does not hold, within t's range of from. The error's message
// names no field; callers prefix theirs (fieldError).
func (s *step) target(t Troop, from, h Hex) error {
	if d := Distance(from, h); d > s.unit(t).Range || d == 0 {
		return domain.Errorf(domain.EINVALID, "(%d,%d) is out of troop %d's range %d", h.Q, h.R, t.ID, s.unit(t).Range)
	}
	if !s.sees(t.Owner, h) {
		// The same answer whatever stands there: a refusal tells nothing.
		return domain.Errorf(domain.EINVALID, "(%d,%d) is not in your vision (fog of war)", h.Q, h.R)
	}
	if si := s.structureAt(h); si >= 0 {
		if s.g.Structures[si].Owner == t.Owner {
			return domain.Errorf(domain.EINVALID, "the structure on (%d,%d) is yours", h.Q, h.R)
		}
		return nil
	}
	if ti := s.troopAt(h); ti >= 0 && s.g.Troops[ti].Owner != t.Owner {
		return nil
	}
	return domain.Errorf(domain.EINVALID, "there is no enemy troop or structure on (%d,%d)", h.Q, h.R)
}

// fieldError prefixes an *domain.Error's message with the field at fault.
func fieldError(field string, err error) error {
	return domain.Errorf(domain.ErrorCode(err), "%s: %s", field, domain.ErrorMessage(err))
}

// attackAction: payload {"troop": 3, "q": 1, "r": -2}, the target's hex.
//
// Errors: EINVALID (troop, q/r: nothing to attack there, out of range),
// ECONFLICT (not your turn, the first player's first turn, bought this turn,
// already attacked).
func (s *step) attackAction(a domain.Actor, p []byte) error {
	_, i, h, err := s.troopTo(a, p, "attack")
	if err != nil {
		return err
	}
	t := s.g.Troops[i]
	switch {
	case s.noAttack():
		return domain.Errorf(domain.ECONFLICT, "the first player cannot attack on the first turn")
	case s.ready(i) != nil:
		return s.ready(i)
	case t.Attacked:
		return domain.Errorf(domain.ECONFLICT, "troop %d has already attacked this turn", t.ID)
	}
	if err := s.target(t, t.Hex, h); err != nil {
		return fieldError("q, r", err)
	}
	s.result = s.attack(i, h)
	return nil
}

// endTurnAction: payload {}.
//
// Errors: ECONFLICT (not your turn).
func (s *step) endTurnAction(a domain.Actor, p []byte) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	if _, err := s.myTurn(a, "end a turn"); err != nil {
		return err
	}
	s.endTurn("endTurn")
	return nil
}

// surrender: payload {}. Allowed from round Config.SurrenderRound (ruling
// 12), on either player's turn; the host of a room nobody joined yet
// cancels it instead.
//
// Errors: ECONFLICT (before that round, over).
func (s *step) surrender(a domain.Actor, p []byte) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	seat, err := s.seated(a)
	if err != nil {
		return err
	}
	switch {
	case s.g.Phase == PhaseOver:
		return domain.Errorf(domain.ECONFLICT, "the game is over")
	case s.g.Phase == PhaseWaiting:
		s.cancel("hostLeft")
		return nil
	case s.g.Round < s.g.Config.SurrenderRound:
		return domain.Errorf(domain.ECONFLICT, "surrender is allowed from round %d (this is round %d)", s.g.Config.SurrenderRound, s.g.Round)
	}
	s.emit(seat, EventSurrendered, SeatData{Seat: seat})
	s.finish(seat.Other(), ReasonSurrender)
	return nil
}

// heartbeat: payload {}. Records that the player is connected (Apply's
// touch does the work).
//
// Errors: ECONFLICT (over).
func (s *step) heartbeat(a domain.Actor, p []byte) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	if _, err := s.seated(a); err != nil {
		return err
	}
	if s.g.Phase == PhaseOver {
		return domain.Errorf(domain.ECONFLICT, "the game is over")
	}
	return nil
}

// Emotes is the fixed list of emotes (ruling 13), by id.
var Emotes = []struct{ ID, Text string }{
	{"hello", "Hello!"},
	{"goodMove", "Good move!"},
	{"gg", "GG"},
	{"oops", "Oops"},
	{"wellPlayed", "Well played"},
	{"thanks", "Thanks!"},
	{"hurry", "Hurry up!"},
	{"wow", "Wow!"},
}

func emoteText(id string) (string, bool) {
	for _, e := range Emotes {
		if e.ID == id {
			return e.Text, true
		}
	}
	return "", false
}

// emoteAllowed reports whether seat may emote now: fewer than
// Config.Emotes.Limit emotes in the last WindowSeconds.
func emoteAllowed(g Game, seat Seat, now time.Time) bool {
	since := now.Add(-seconds(g.Config.Emotes.WindowSeconds))
	n := 0
	for _, t := range g.Players[seat].EmoteTimes {
		if t.After(since) {
			n++
		}
	}
	return n < g.Config.Emotes.Limit
}

// emote: payload {"emote": "gg"}. Allowed in every phase, the game's end
// included (a "GG"); the state keeps the last Config.Emotes.Keep.
//
// Errors: EINVALID (emote: not one of Emotes), ELIMIT (more than Limit per
// WindowSeconds).
func (s *step) emote(a domain.Actor, p []byte) error {
	var req EmoteRequest
	if err := domain.DecodePayload(p, &req); err != nil {
		return err
	}
	seat, err := s.seated(a)
	if err != nil {
		return err
	}
	text, ok := emoteText(req.Emote)
	if !ok {
		ids := make([]string, len(Emotes))
		for i, e := range Emotes {
			ids[i] = e.ID
		}
		return domain.Errorf(domain.EINVALID, "emote must be one of %v, not %q", ids, req.Emote)
	}
	cfg := s.g.Config.Emotes
	if !emoteAllowed(s.g, seat, s.now) {
		return domain.Errorf(domain.ELIMIT, "at most %d emotes per %d s", cfg.Limit, cfg.WindowSeconds)
	}
	pl := &s.g.Players[seat]
	pl.EmoteTimes = append(pl.EmoteTimes, s.now)
	if n := len(pl.EmoteTimes); n > cfg.Limit {
		pl.EmoteTimes = slices.Clone(pl.EmoteTimes[n-cfg.Limit:])
	}
	s.g.Emotes = append(s.g.Emotes, Emote{Seat: seat, Emote: req.Emote, At: s.now})
	if n := len(s.g.Emotes); n > cfg.Keep {
		s.g.Emotes = slices.Clone(s.g.Emotes[n-cfg.Keep:])
	}
	s.emit(seat, EventEmote, EmoteData{Seat: seat, Emote: req.Emote, Text: text})
	return nil
}
