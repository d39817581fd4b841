package hexdice

import (
	"slices"
	"time"
)

// start begins play once the opponent has joined. In alternating mode a d2
// picks the first player (ruling 8: 1 the host, 2 the opponent).
func (s *step) start() {
	data := GameStartedData{Mode: s.g.Mode, First: 0}
	if s.g.Mode == Alternating {
		data.Die = s.dice.Roll(2)
		data.First = Seat(data.Die - 1)
	}
	s.begin(data)
}

// begin starts play with data.First first (a rematch chooses it: no die).
func (s *step) begin(data GameStartedData) {
	s.g.Phase = PhasePlaying
	s.g.JoinDeadline = time.Time{}
	s.g.First = data.First
	s.emit(data.First, EventGameStarted, data)
	if s.g.Mode == Alternating {
		s.startTurn(s.g.First)
	} else {
		s.startSimultaneousRound()
	}
}

// startRound begins a round (ruling 8: a round is both players' turns):
// sudden death when due (ruling 11), then the neutral structures fire at
// every troop in range (ruling 5).
func (s *step) startRound() {
	s.g.Round++
	s.emit(Neutral, EventRoundStarted, RoundStartedData{Round: s.g.Round})
	if first := s.g.Config.Sizes[s.g.Size].SuddenDeathRound; s.g.Round >= first {
		s.suddenDeath(s.g.Round - first + 1)
	}
	for i, st := range s.g.Structures {
		if st.Owner == Neutral {
			s.fireStructure(i)
		}
	}
}

// suddenDeath begins sudden-death round k: the safe zone shrinks, HQs
// outside it move to the nearest free safe hex, troops outside take the
// storm's damage.
func (s *step) suddenDeath(k int) {
	cfg := s.g.Config
	s.g.SuddenDeath = k
	s.g.SafeRadius = max(s.g.MapRadius-k*cfg.SuddenDeath.ShrinkPerRound, 0)
	dmg := cfg.StormDamage(k)
	s.emit(Neutral, EventZoneShrunk, ZoneShrunkData{K: k, SafeRadius: s.g.SafeRadius, Damage: dmg})
	for i, st := range s.g.Structures {
		if st.Kind == HQ && st.Hex.Length() > s.g.SafeRadius {
			s.relocate(i)
		}
	}
	for i := 0; i < len(s.g.Troops); {
		t := &s.g.Troops[i]
		if t.Hex.Length() <= s.g.SafeRadius {
			i++
			continue
		}
		// The storm counts as an attack for healing: a troop it hit does not
		// heal it off at its owner's next turn (ruling 7 would otherwise
		// cancel the first rounds of storm).
		t.HP -= dmg
		t.Engaged = true
		s.emit(t.Owner, EventStorm, StormData{Troop: t.ID, Damage: dmg, HP: t.HP})
		if t.HP <= 0 {
			s.kill(i, CauseStorm, Neutral)
			continue
		}
		i++
	}
}

// relocate moves HQ si to the nearest free safe hex: passable, no troop, no
// structure, within the safe radius; ties go to the hex nearer the centre,
// then the lower r, then the lower q, as seen from the HQ's own side (seat
// 1 compares the hexes rotated by 180°, so on a symmetric board both HQs
// move symmetrically). With no free safe hex it stays.
func (s *step) relocate(si int) {
	st := &s.g.Structures[si]
	best, found := Hex{}, false
	key := func(h Hex) [4]int {
		v := h
		if st.Owner == 1 {
			v = h.Rotate180()
		}
		return [4]int{Distance(st.Hex, h), h.Length(), v.R, v.Q}
	}
	for _, h := range s.m.g.all() {
		if h.Length() > s.g.SafeRadius || !s.free(h) {
			continue
		}
		kh, kb := key(h), key(best)
		if !found || slices.Compare(kh[:], kb[:]) < 0 {
			best, found = h, true
		}
	}
	if !found {
		return
	}
	from := st.Hex
	st.Hex = best
	s.moved()
	s.emit(st.Owner, EventHQRelocated, HQRelocatedData{Structure: st.ID, From: from, To: best})
}

// income pays seat its income (ruling 8) and repairs its structures
// (ruling 6) at the start of its turn. Its structures then fire (fireOwned),
// then its troops heal and get ready (refresh, ruling 7).
func (s *step) income(seat Seat) int {
	p := &s.g.Players[seat]
	inc := s.g.Income(seat)
	p.Coins += inc
	for i := range s.g.Structures {
		st := &s.g.Structures[i]
		if st.Owner != seat {
			continue
		}
		maxHP := s.g.Config.Structures[st.Kind].HP
		if add := min(s.g.Config.Recovery.Regen, maxHP-st.HP); add > 0 {
			st.HP += add
			s.emit(seat, EventRepaired, RepairedData{Structure: st.ID, Amount: add, HP: st.HP})
		}
	}
	return inc
}

// fireOwned makes seat's structures fire at enemy troops in range (ruling 5).
func (s *step) fireOwned(seat Seat) {
	for i := 0; i < len(s.g.Structures) && !s.over(); i++ {
		if s.g.Structures[i].Owner == seat {
			s.fireStructure(i)
		}
	}
}

// refresh heals seat's troops that fought nobody since seat's last turn and
// readies all of them for the turn.
func (s *step) refresh(seat Seat) {
	heal := s.g.Config.Recovery.Heal
	for i := range s.g.Troops {
		t := &s.g.Troops[i]
		if t.Owner != seat {
			continue
		}
		if maxHP := s.unit(*t).HP; !t.Engaged && t.HP < maxHP && heal > 0 {
			add := min(heal, maxHP-t.HP)
			t.HP += add
			s.emit(seat, EventHealed, HealedData{Troop: t.ID, Amount: add, HP: t.HP})
		}
		t.Ready, t.Moved, t.Attacked, t.Engaged = true, false, false, false
	}
}

// startTurn gives the turn to seat (alternating mode), beginning a round
// when seat plays first in it.
func (s *step) startTurn(seat Seat) {
	if seat == s.g.First {
		s.startRound()
	}
	s.g.Turn++
	s.g.Current = seat
	s.g.TurnDeadline = s.now.Add(seconds(s.g.TurnSeconds))
	data := TurnStartedData{Seat: seat, Round: s.g.Round, Turn: s.g.Turn, Deadline: s.g.TurnDeadline, NoAttack: s.noAttack()}
	data.Income = s.g.Income(seat)
	data.Coins = s.g.Players[seat].Coins + data.Income
	s.emit(seat, EventTurnStarted, data)
	s.income(seat)
	s.fireOwned(seat)
	s.refresh(seat)
}

// noAttack reports whether the current turn forbids attacks: the first
// player's first turn in alternating mode (seed §9).
func (s *step) noAttack() bool { return s.g.Mode == Alternating && s.g.Turn == 1 }

// endTurn ends the current player's turn (alternating mode) and starts the
// next one, or ends the game.
func (s *step) endTurn(reason string) {
	seat := s.g.Current
	if s.closeTurn(seat, reason) {
		return
	}
	if seat != s.g.First && s.closeRound() {
		return
	}
	s.startTurn(seat.Other())
}

// closeTurn ends seat's own turn: it counts towards structure dominance
// (ruling 10) and may win the game. It reports whether the game ended.
func (s *step) closeTurn(seat Seat, reason string) bool {
	p := &s.g.Players[seat]
	p.Turns++
	held, total := s.g.StructuresHeld(seat), len(s.g.Structures)
	if 2*held > total {
		p.Dominance++
	} else {
		p.Dominance = 0
	}
	s.emit(seat, EventTurnEnded, TurnEndedData{Seat: seat, Round: s.g.Round, Reason: reason, Held: held, Dominance: p.Dominance})
	if p.Dominance >= s.g.Config.DominanceTurns {
		s.finish(seat, ReasonDominance)
		return true
	}
	return false
}

// closeRound ends a round: once the safe zone has closed (radius 0) the
// game ends on ruling 11's tie-breaks — more structures, then more total
// troop HP, then a draw. It reports whether the game ended.
func (s *step) closeRound() bool {
	if s.g.SuddenDeath == 0 || s.g.SafeRadius > 0 {
		return false
	}
	a, b := s.g.StructuresHeld(0), s.g.StructuresHeld(1)
	if a == b {
		a, b = s.g.TroopHP(0), s.g.TroopHP(1)
	}
	switch {
	case a > b:
		s.finish(0, ReasonSuddenDeath)
	case b > a:
		s.finish(1, ReasonSuddenDeath)
	default:
		s.finish(Neutral, ReasonSuddenDeath)
	}
	return true
}

// startSimultaneousRound begins a round of simultaneous mode: the round's
// start (sudden death, neutral fire), every player structure firing in map
// order, then each player's income, repairs and healing, and the planning
// deadline.
func (s *step) startSimultaneousRound() {
	s.startRound()
	s.g.Turn++
	s.g.Current = Neutral
	s.g.TurnDeadline = s.now.Add(seconds(s.g.TurnSeconds))
	for i := 0; i < len(s.g.Structures); i++ {
		if s.g.Structures[i].Owner != Neutral {
			s.fireStructure(i)
		}
	}
	for seat := Seat(0); seat < 2; seat++ {
		s.g.Players[seat].Submitted = false
		inc := s.g.Income(seat)
		s.emit(seat, EventTurnStarted, TurnStartedData{Seat: seat, Round: s.g.Round, Turn: s.g.Turn,
			Deadline: s.g.TurnDeadline, Income: inc, Coins: s.g.Players[seat].Coins + inc})
		s.income(seat)
		s.refresh(seat)
	}
}
