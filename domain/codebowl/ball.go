package codebowl

// The ball (ruling 8). A ball arriving on a square — kicked off, scattered,
// dropped, or thrown back in — comes to rest there when the square is empty;
// a standing player there tries to catch it (PickupChance; failure scatters it
// on with a d8); a knocked-down player cannot, so it bounces on (d8). Off the
// pitch, over any edge, it comes back on a random square (d220). A chain is
// cut after maxBounces arrivals: the ball then rests on the empty square
// nearest to where it was (it never happens in practice: each arrival ends the
// chain with a chance of at least 20 %).

// setCarrier gives the ball to r; the offense changes hands when r's side did
// not have it.
func (s *step) setCarrier(r ref) {
	p := s.m.p(r)
	s.m.Ball = Ball{State: BallCarried, Pos: p.Pos, Carrier: p.ID}
	if s.m.Offense != r.side {
		s.m.Offense = r.side
		s.emit(EventPossession, PossessionData{Offense: r.side, Player: p.ID})
	}
}

// loose leaves the ball on q.
func (s *step) loose(q Square) { s.m.Ball = Ball{State: BallLoose, Pos: q} }

// enemyNear reports whether a standing enemy of side is adjacent to q.
func (m *Match) enemyNear(side Side, q Square) bool {
	for _, p := range m.side(side.Other()).Players {
		if p.State == StateStanding && p.Pos.Adjacent(q) {
			return true
		}
	}
	return false
}

// attempt rolls r's pickup (ok, fail: the event types) of the ball on his
// square and gives him the ball when it succeeds.
func (s *step) attempt(r ref, ok, fail string) bool {
	p := s.m.p(r)
	near := s.m.enemyNear(r.side, p.Pos)
	chance := PickupChance(p.AG, near)
	roll := s.roll100()
	d := BallRollData{Side: r.side, Player: p.ID, At: p.Pos, AG: p.AG, EnemyAdjacent: near, Chance: chance, Roll: roll}
	if Succeeds(roll, chance) {
		s.emit(ok, d)
		s.logf("%s %s the ball (%d%% → %d)", p.Name, map[string]string{EventPickedUp: "picks up", EventCaught: "catches"}[ok], chance, roll)
		s.setCarrier(r)
		return true
	}
	s.emit(fail, d)
	s.logf("%s fails to %s the ball (%d%% → %d)", p.Name, map[string]string{EventPickupFailed: "pick up", EventCatchFailed: "catch"}[fail], chance, roll)
	return false
}

// scatter moves the ball from q to a random adjacent square (d8) and lets it
// land there.
func (s *step) scatter(q Square) {
	s.land(s.scatterStep(q))
}

func (s *step) scatterStep(q Square) Square {
	die := s.dice.Roll(8)
	to := q.Add(Directions[die-1])
	s.emit(EventScattered, BallMoveData{From: q, To: to, Die: die})
	return to
}

// drop: a knocked-down carrier on q loses the ball into the 3×3 around q (d9).
func (s *step) drop(q Square) {
	die := s.dice.Roll(9)
	to := q.Add(Neighbours3x3[die-1])
	s.emit(EventDropped, BallMoveData{From: q, To: to, Die: die})
	s.logf("the ball is dropped to (%d,%d)", to.X, to.Y)
	s.land(to)
}

// land resolves the ball arriving on q.
func (s *step) land(q Square) {
	for n := 0; ; n++ {
		if n >= maxBounces {
			q = s.nearestEmpty(q)
			s.loose(q)
			s.emit(EventBallRests, BallMoveData{From: q, To: q})
			return
		}
		if !q.OnPitch() {
			die := s.dice.Roll(Width * Height)
			to := pitchSquare(die)
			s.emit(EventBallOut, BallMoveData{From: q, To: to, Die: die})
			s.logf("the ball goes out and comes back on (%d,%d)", to.X, to.Y)
			q = to
			continue
		}
		r, ok := s.m.at(q)
		if !ok {
			s.loose(q)
			s.emit(EventBallRests, BallMoveData{From: q, To: q})
			return
		}
		if s.m.p(r).State == StateStanding {
			s.loose(q) // in the air above him, for the event order
			if s.attempt(r, EventCaught, EventCatchFailed) {
				return
			}
		}
		q = s.scatterStep(q)
	}
}

// nearestEmpty returns the empty square of the pitch nearest to q (by the
// king's-move distance, then row, then column).
func (s *step) nearestEmpty(q Square) Square {
	best, bestD := offPitch, 1<<30
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			c := Square{x, y}
			if _, occ := s.m.at(c); occ {
				continue
			}
			if d := max(abs(c.X-q.X), abs(c.Y-q.Y)); d < bestD {
				best, bestD = c, d
			}
		}
	}
	return best
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// checkScore notes a score: the ball carried by a standing player in his
// goal column. It reports whether one is noted.
func (s *step) checkScore() bool {
	if s.scorer != nil {
		return true
	}
	b := s.m.Ball
	if b.State != BallCarried {
		return false
	}
	side, i, ok := s.m.find(b.Carrier)
	if !ok {
		return false
	}
	if p := s.m.side(side).Players[i]; p.State == StateStanding && p.Pos.X == GoalColumn(side) {
		s.scorer = &ref{side, i}
		return true
	}
	return false
}
