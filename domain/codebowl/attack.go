package codebowl

// assists returns the half points r's team-mates add to an attack on t
// (ruling 6): each standing team-mate other than r adjacent to t that is in
// no tackle zone but t's adds AssistHalves(his ST, t's ST).
func (m *Match) assists(r, t ref) (int, []Assist) {
	target := m.p(t)
	halves := 0
	var list []Assist
	for i, a := range m.side(r.side).Players {
		if i == r.i || a.State != StateStanding || !a.Pos.Adjacent(target.Pos) {
			continue
		}
		marked := false
		for j, e := range m.side(t.side).Players {
			if j != t.i && e.State == StateStanding && e.Pos.Adjacent(a.Pos) {
				marked = true
				break
			}
		}
		if marked {
			continue
		}
		h := AssistHalves(a.ST, target.ST)
		halves += h
		list = append(list, Assist{Player: a.ID, ST: a.ST, Halves: h})
	}
	return halves, list
}

// pushSquare is where a knocked-down player on from is pushed, away from an
// attacker dir behind him: the square straight on; if that one is taken, the
// two beside it (45° counter-clockwise first, then clockwise), if on the
// pitch and free. off is true when the square straight on is off the pitch
// (the player is pushed off: dead, ruling 7). ok is false when every
// candidate is taken: he falls where he stands.
func (m *Match) pushSquare(from, dir Square) (to Square, off, ok bool) {
	straight := from.Add(dir)
	if !straight.OnPitch() {
		return straight, true, false
	}
	if _, taken := m.at(straight); !taken {
		return straight, false, true
	}
	i := dirIndex(dir)
	for _, j := range []int{(i + 7) % 8, (i + 1) % 8} {
		q := from.Add(Directions[j])
		if _, taken := m.at(q); q.OnPitch() && !taken {
			return q, false, true
		}
	}
	return from, false, false
}

// attack resolves r's attack on the adjacent standing enemy t and returns
// its result (ruling 6). A knockdown pushes t one square away and r follows
// into t's square; then t's injury roll; a ball t lands on bounces off him.
// An attackerDown fells r (injury by t's ST) and is a turnover.
func (s *step) attack(r, t ref) string {
	m := &s.m
	a, d := m.p(r), m.p(t)
	halves, assists := m.assists(r, t)
	odds := AttackChances(Advantage(a.ST, d.ST, halves))
	roll := s.roll100()
	res := odds.Outcome(roll)
	s.emit(EventAttacked, AttackedData{Side: r.side, Attacker: a.ID, Target: d.ID, From: a.Pos, At: d.Pos,
		AttackerST: a.ST, TargetST: d.ST, Assists: assists, AssistPts: halves / 2, Odds: odds, Roll: roll, Result: res})
	s.logf("%s attacks %s (%d/%d/%d%% → %d): %s", a.Name, d.Name, odds.Knockdown, odds.NoEffect, odds.AttackerDown, roll, res)
	switch res {
	case AttackKnockdown:
		from := d.Pos
		dir := Square{from.X - a.Pos.X, from.Y - a.Pos.Y}
		to, off, ok := m.pushSquare(from, dir)
		switch {
		case off:
			carried := m.Ball.State == BallCarried && m.Ball.Carrier == d.ID
			s.emit(EventPushedOff, PushedData{Side: t.side, Player: d.ID, From: from})
			s.logf("%s is pushed off the pitch: dead", d.Name)
			s.kill(t, CausePushedOff, a.ID)
			s.followUp(r, from)
			if carried {
				s.land(to) // off the pitch: thrown back on at random
			}
		case ok:
			onBall := m.Ball.State == BallLoose && m.Ball.Pos == to
			s.put(t, to)
			s.emit(EventPushed, PushedData{Side: t.side, Player: d.ID, From: from, To: &to})
			s.followUp(r, from)
			s.knockDown(t, r, CauseKnockedDown)
			if onBall && m.Ball.State == BallLoose && m.Ball.Pos == to {
				if _, still := m.at(to); still {
					s.scatter(to) // it bounces off the fallen player
				}
			}
		default:
			s.knockDown(t, r, CauseKnockedDown)
		}
	case AttackAttackerDown:
		s.knockDown(r, t, CauseAttackFailed)
		s.turnover = EndAttackerDown
	}
	return res
}

// followUp moves the attacker r into the square q his target left.
func (s *step) followUp(r ref, q Square) {
	p := s.m.p(r)
	from := p.Pos
	s.put(r, q)
	s.emit(EventFollowedUp, MovedData{Side: r.side, Player: p.ID, From: from, To: q})
}
