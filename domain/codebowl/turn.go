package codebowl

import (
	"encoding/json"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// newDrive starts a kick-off with offense receiving: every living player
// leaves the pitch (standing up again, nobody has acted), the ball is out of
// play, and the defense places first.
func (s *step) newDrive(offense Side) {
	m := &s.m
	m.Phase = PhaseSetup
	m.Drive++
	m.Offense = offense
	m.Active = ""
	m.Placing = offense.Other()
	m.Ball = Ball{State: BallNone, Pos: offPitch}
	for _, side := range []Side{Home, Away} {
		ps := m.side(side).Players
		for i := range ps {
			if ps[i].State != StateDead {
				ps[i].State, ps[i].Pos, ps[i].Acted = StateReserve, offPitch, false
			}
		}
	}
	m.Deadline = s.deadline()
	s.emit(EventSetupStarted, SetupStartedData{Half: m.Half, Drive: m.Drive, Offense: offense, Placing: m.Placing, Deadline: m.Deadline})
	s.logf("kick-off %d, half %d: %s receives; %s places first", m.Drive, m.Half, s.teamName(offense), s.teamName(m.Placing))
}

// nextSide is the side of the next turn of the half: turns alternate from
// the half's starter.
func (m *Match) nextSide() Side {
	if m.HalfTurns%2 == 0 {
		return m.HalfStarter
	}
	return m.HalfStarter.Other()
}

// startTurn starts the next turn of the half.
func (s *step) startTurn() {
	m := &s.m
	side := m.nextSide()
	m.Phase = PhasePlay
	m.Active = side
	m.HalfTurns++
	m.Turn = (m.HalfTurns + 1) / 2
	ts := m.side(side)
	ts.Turns++
	for i := range ts.Players {
		ts.Players[i].Acted = false
	}
	m.Deadline = s.deadline()
	s.emit(EventTurnStarted, TurnStartedData{Side: side, Half: m.Half, Turn: m.Turn, HalfTurns: m.HalfTurns, Deadline: m.Deadline})
}

// isTurnover reports whether a turn-ending reason is a turnover (ruling 9).
func isTurnover(reason string) bool {
	switch reason {
	case EndTripped, EndPickupFailed, EndAttackerDown, EndScore:
		return true
	}
	return false
}

// endTurn ends the active turn and starts what comes next: the next turn,
// a kick-off after a score, halftime, or the end of the match.
func (s *step) endTurn(reason string) {
	m := &s.m
	side := m.Active
	if isTurnover(reason) {
		s.emit(EventTurnover, TurnoverData{Side: side, Reason: reason})
	}
	s.emit(EventTurnEnded, TurnEndedData{Side: side, Half: m.Half, Turn: m.Turn, Reason: reason})
	s.logf("turn ends (%s)", reason)
	ps := m.side(side).Players
	for i := range ps {
		ps[i].Acted = false
	}
	m.Active = ""
	m.Deadline = time.Time{}
	switch {
	case m.HalfTurns >= 2*m.Options.TurnsPerHalf:
		s.endHalf()
	case reason == EndScore:
		// The conceding side receives (ruling 2); turns keep alternating.
		s.newDrive(s.scoredAgainst())
	default:
		s.startTurn()
	}
}

// scoredAgainst is the side that conceded the score of this action.
func (s *step) scoredAgainst() Side { return s.scorer.side.Other() }

// endHalf ends the first half (halftime: the side that did not receive first
// receives now) or the match (by points).
func (s *step) endHalf() {
	m := &s.m
	if m.Half >= 2 {
		switch {
		case m.Home.Score > m.Away.Score:
			s.finish(Home, ReasonPoints)
		case m.Away.Score > m.Home.Score:
			s.finish(Away, ReasonPoints)
		default:
			s.finish("", ReasonPoints)
		}
		return
	}
	offense := m.FirstOffense.Other()
	s.emit(EventHalftime, HalftimeData{Home: m.Home.Score, Away: m.Away.Score, Offense: offense})
	s.logf("halftime: %s %d – %d %s", m.Home.TeamName, m.Home.Score, m.Away.Score, m.Away.TeamName)
	m.Half = 2
	m.HalfTurns, m.Turn = 0, 0
	m.HalfStarter = offense
	s.newDrive(offense)
}

func (s *step) endTurnAction(side Side, p json.RawMessage) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	if err := s.turnCheck(side, "end a turn"); err != nil {
		return err
	}
	s.m.side(side).Timeouts = 0
	s.endTurn(EndEndTurn)
	s.result = EndTurnResult{Phase: s.m.Phase}
	return nil
}

// finish ends the match with winner winning; "" is a draw.
func (s *step) finish(winner Side, reason string) {
	m := &s.m
	m.Phase = PhaseOver
	m.Active, m.Placing = "", ""
	for _, side := range []Side{Home, Away} {
		for i := range m.side(side).Players {
			m.side(side).Players[i].Acted = false
		}
	}
	m.Deadline = time.Time{}
	m.EndReason = reason
	m.EndedAt = s.now
	sum := &Summary{Turns: m.Home.Turns + m.Away.Turns}
	for _, side := range []Side{Home, Away} {
		ts := m.side(side)
		dead := m.Dead(side)
		ss := SideSummary{Score: ts.Score, Turns: ts.Turns, Injuries: len(dead), Dead: dead}
		if side == Home {
			sum.Home = ss
		} else {
			sum.Away = ss
		}
	}
	m.Summary = sum
	g := domain.GameOver{Kind: Kind, Reason: reason, Players: Rules{}.Header(*m).Players}
	if winner == "" {
		m.Draw, g.Draw = true, true
		s.logf("the match ends in a draw, %d – %d", m.Home.Score, m.Away.Score)
	} else {
		m.WinnerSide = winner
		m.Winner, m.Loser = m.side(winner).Coach, m.side(winner.Other()).Coach
		g.Winners, g.Losers = []string{m.Winner}, []string{m.Loser}
		s.logf("%s wins (%s), %d – %d", m.side(winner).TeamName, reason, m.Home.Score, m.Away.Score)
	}
	// The gameOver event names the winner (nobody on a draw), as every game's does.
	s.events = append(s.events, domain.Event{Type: domain.EventGameOver, Player: m.Winner, Data: g})
}

// cancel ends a match that never got an opponent: no result, no gameOver.
func (s *step) cancel(reason string) {
	m := &s.m
	m.Phase = PhaseOver
	m.JoinDeadline, m.Deadline = time.Time{}, time.Time{}
	m.EndReason = ReasonCancelled
	m.EndedAt = s.now
	s.emit(EventCancelled, CancelledData{Reason: reason})
}

// eliminated returns the side with no living player left, "" if none.
func (m *Match) eliminated() Side {
	for _, side := range []Side{Home, Away} {
		if m.side(side).alive() == 0 {
			return side
		}
	}
	return ""
}

// afterAction settles an action of side's: elimination wins at once; a score
// counts and ends the turn; a turnover ends it; so does every player having
// acted.
func (s *step) afterAction(side Side) {
	m := &s.m
	if loser := m.eliminated(); loser != "" {
		if s.scorer != nil {
			s.countScore()
		}
		s.finish(loser.Other(), ReasonElimination)
		return
	}
	if s.scorer != nil {
		s.countScore()
		s.endTurn(EndScore)
		return
	}
	if s.turnover != "" {
		s.endTurn(s.turnover)
		return
	}
	for _, p := range m.side(side).Players {
		if p.State != StateDead && !p.Acted {
			return
		}
	}
	s.endTurn(EndAllActed)
}

// countScore adds the point of s.scorer and takes the ball out of play.
func (s *step) countScore() {
	m := &s.m
	r := *s.scorer
	ts := m.side(r.side)
	ts.Score++
	p := m.p(r)
	s.emit(EventScored, ScoredData{Side: r.side, Player: p.ID, At: p.Pos, Home: m.Home.Score, Away: m.Away.Score})
	s.logf("%s scores for %s! %d – %d", p.Name, ts.TeamName, m.Home.Score, m.Away.Score)
}
