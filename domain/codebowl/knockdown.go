package codebowl

// knockDown fells r on his square (ruling 7): the injury roll follows at
// once, with the ST of by (the attacker for a knockdown, the target for a
// failed attack, the strongest tackler for a trip). An injured player is dead:
// off the pitch, out of the match and out of his coach's team (the
// playerKilled event). A carrier drops the ball into the 3×3 around his
// square (after the injury roll, so a dead carrier's square is free).
func (s *step) knockDown(r, by ref, cause string) {
	m := &s.m
	p, b := m.p(r), m.p(by)
	at := p.Pos
	p.State = StateDown
	s.emit(EventKnockedDown, KnockedDownData{Side: r.side, Player: p.ID, At: at, Cause: cause, By: b.ID})
	carried := m.Ball.State == BallCarried && m.Ball.Carrier == p.ID
	d := InjuryRollData{Side: r.side, Player: p.ID, By: b.ID, ByST: b.ST}
	if m.Options.Armor {
		d.Armor, d.AR, d.Chance = true, p.AR, ArmorInjuryChance(b.ST, p.AR)
	} else {
		d.Chance = InjuryChance(b.ST)
	}
	d.Roll = s.roll100()
	d.Dead = Succeeds(d.Roll, d.Chance)
	s.emit(EventInjuryRoll, d)
	if d.Dead {
		s.logf("%s is knocked down and injured (%d%% → %d): dead", p.Name, d.Chance, d.Roll)
		s.kill(r, cause, b.ID)
	} else {
		s.logf("%s is knocked down (injury %d%% → %d: unhurt)", p.Name, d.Chance, d.Roll)
	}
	if carried {
		s.drop(at)
	}
}

// kill takes r out of the match for good and names him for his coach's team.
func (s *step) kill(r ref, cause, by string) {
	m := &s.m
	ts := m.side(r.side)
	p := m.p(r)
	p.State, p.Pos, p.Acted = StateDead, offPitch, false
	s.emit(EventPlayerKilled, PlayerKilledData{Side: r.side, Coach: ts.Coach, TeamID: ts.TeamID, Player: p.ID, Name: p.Name, Cause: cause, By: by})
}

// put moves r to q, with the ball if he carries it.
func (s *step) put(r ref, q Square) {
	p := s.m.p(r)
	p.Pos = q
	if s.m.Ball.State == BallCarried && s.m.Ball.Carrier == p.ID {
		s.m.Ball.Pos = q
	}
}
