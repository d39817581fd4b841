package hexdice

// strike is one hit roll and, on a hit, its damage roll (ruling 4): d20 +
// mod against def; a natural 20 hits and doubles the damage dice, a natural
// 1 misses; otherwise it hits when d20 + mod ≥ def. The damage is the dice
// total times mult (a mech against a structure). The data has the attacker,
// target and resulting HP left to fill.
func (s *step) strike(kind string, mod, penalty, def int, spec DiceSpec, mult int) AttackData {
	nat := s.dice.Roll(20)
	a := AttackData{Kind: kind, Natural: nat, Modifier: mod, Penalty: penalty, Total: nat + mod, Defense: def,
		Critical: nat == 20, Fumble: nat == 1}
	a.Hit = a.Critical || (!a.Fumble && a.Total >= def)
	if !a.Hit {
		return a
	}
	if a.Critical {
		spec = spec.Doubled()
	}
	rolls, total := spec.Roll(s.dice)
	a.Dice, a.Rolls, a.Damage = spec.String(), rolls, total*mult
	if mult != 1 {
		a.Multiplier = mult
	}
	return a
}

func troopUnit(t Troop) Unit { return Unit{Troop: t.ID, Owner: t.Owner, Hex: t.Hex} }

func structureUnit(st Structure) Unit { return Unit{Structure: st.ID, Owner: st.Owner, Hex: st.Hex} }

// troopStrike rolls troop a's attack on troop d (penalty: simultaneous mode's
// −2 for a target that moved next to the aimed hex).
func (s *step) troopStrike(kind string, a, d Troop, penalty int) AttackData {
	ua, ud := s.unit(a), s.unit(d)
	spec := ua.Damage
	if kind == AttackCounter {
		spec = spec.Half()
	}
	r := s.strike(kind, ua.ATK+s.terrainAt(a.Hex).ATK-penalty, penalty, ud.DEF+s.terrainAt(d.Hex).DEF, spec, 1)
	r.Attacker, r.Target = troopUnit(a), troopUnit(d)
	return r
}

// structureStrike rolls troop a's attack on structure st.
func (s *step) structureStrike(a Troop, st Structure, penalty int) AttackData {
	ua, ss := s.unit(a), s.g.Config.Structures[st.Kind]
	r := s.strike(AttackTroop, ua.ATK+s.terrainAt(a.Hex).ATK-penalty, penalty, ss.DEF+s.terrainAt(st.Hex).DEF, ua.Damage, ua.StructureMultiplier)
	r.Attacker, r.Target = troopUnit(a), structureUnit(st)
	return r
}

// counters reports whether defender d strikes back at attacker a after an
// attack that left d alive (ruling 4): only when both are melee units (unit
// range 1) next to each other, after a hit, a miss or a natural 1 alike. A
// ranged unit's attack is never countered, even at distance 1 or on a natural
// 1, and a ranged defender never counters.
func (s *step) counters(a, d Troop) bool {
	return s.unit(a).Melee() && s.unit(d).Melee() && Distance(a.Hex, d.Hex) == 1
}

// structureStats returns st's stats as it fires: a neutral structure has
// ATK − Neutral.ATKPenalty and its dice one size lower (ruling 5).
func (s *step) structureStats(st Structure) (atk int, spec DiceSpec, rng int) {
	ss := s.g.Config.Structures[st.Kind]
	atk, spec = ss.ATK, ss.Damage
	if st.Owner == Neutral {
		atk -= s.g.Config.Neutral.ATKPenalty
		spec = spec.StepDown(s.g.Config.Neutral.DieLadder)
	}
	return atk + s.terrainAt(st.Hex).ATK, spec, ss.Range
}

// fireStructure makes structure si fire once (ruling 5): a neutral one at any
// troop in range, an owned one at enemy troops in range; the target is the
// one with the lowest HP, then the nearest, then the lowest id. Structures do
// not draw counterattacks.
func (s *step) fireStructure(si int) {
	st := s.g.Structures[si]
	atk, spec, rng := s.structureStats(st)
	if rng <= 0 {
		return
	}
	best := -1
	for i, t := range s.g.Troops {
		d := Distance(st.Hex, t.Hex)
		if d > rng || t.Owner == st.Owner {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		b := s.g.Troops[best]
		bd := Distance(st.Hex, b.Hex)
		if t.HP < b.HP || (t.HP == b.HP && (d < bd || (d == bd && t.ID < b.ID))) {
			best = i
		}
	}
	if best < 0 {
		return
	}
	t := &s.g.Troops[best]
	r := s.strike(AttackStructure, atk, 0, s.unit(*t).DEF+s.terrainAt(t.Hex).DEF, spec, 1)
	r.Attacker, r.Target = structureUnit(st), troopUnit(*t)
	t.Engaged = true
	t.HP -= r.Damage
	r.HP = t.HP
	s.emit(st.Owner, EventAttacked, r)
	if t.HP <= 0 {
		s.kill(best, CauseStructure, st.Owner)
	}
}

// kill removes troop i, killed by seat by (Neutral: nobody), and keeps score.
func (s *step) kill(i int, cause string, by Seat) {
	t := s.g.Troops[i]
	s.g.Players[t.Owner].Losses++
	if by >= 0 && by != t.Owner {
		s.g.Players[by].Kills++
	}
	s.removeTroop(i)
	s.emit(t.Owner, EventTroopKilled, TroopKilledData{Troop: t.ID, Owner: t.Owner, Type: t.Type, Hex: t.Hex, Cause: cause, By: by})
}

// damageStructure takes damage off structure si, attacked by seat; at 0 HP
// it is captured by seat at 1 HP (ruling 6), and a captured HQ ends the game.
// It reports whether the structure was captured.
func (s *step) damageStructure(si int, dmg int, by Seat) bool {
	st := &s.g.Structures[si]
	st.HP -= dmg
	if st.HP > 0 {
		return false
	}
	s.capture(si, by)
	return true
}

// capture gives structure si to seat at 1 HP.
func (s *step) capture(si int, seat Seat) {
	st := &s.g.Structures[si]
	from := st.Owner
	st.Owner, st.HP = seat, 1
	s.emit(seat, EventCaptured, CapturedData{Structure: st.ID, Kind: st.Kind, From: from, To: seat, HP: 1})
}

// attack resolves troop ai's attack on what stands at target, in
// alternating mode: the roll, the damage, a capture or a kill, and a
// counterattack. It returns the action's result.
func (s *step) attack(ai int, target Hex) AttackResult {
	a := &s.g.Troops[ai]
	a.Attacked, a.Engaged = true, true
	var res AttackResult
	if si := s.structureAt(target); si >= 0 {
		r := s.structureStrike(*a, s.g.Structures[si], 0)
		res.Hit, res.Damage = r.Hit, r.Damage
		st := s.g.Structures[si]
		r.HP = max(st.HP-r.Damage, 0)
		captured := r.HP == 0
		r.Captured = captured
		if captured {
			r.HP = 1
		}
		s.emit(a.Owner, EventAttacked, r)
		if s.damageStructure(si, r.Damage, a.Owner) && st.Kind == HQ {
			s.finish(a.Owner, ReasonHQ)
		}
		res.Over = s.over()
		return res
	}
	di := s.troopAt(target)
	d := &s.g.Troops[di]
	d.Engaged = true
	r := s.troopStrike(AttackTroop, *a, *d, 0)
	d.HP -= r.Damage
	r.HP = d.HP
	res.Hit, res.Damage = r.Hit, r.Damage
	s.emit(a.Owner, EventAttacked, r)
	if d.HP <= 0 {
		res.Killed = true
		s.kill(di, CauseAttack, a.Owner)
		return res
	}
	if !s.counters(*a, *d) {
		return res
	}
	res.Counter = true
	c := s.troopStrike(AttackCounter, *d, *a, 0)
	a.HP -= c.Damage
	c.HP = a.HP
	s.emit(d.Owner, EventAttacked, c)
	if a.HP <= 0 {
		s.kill(ai, CauseCounter, d.Owner)
	}
	return res
}
