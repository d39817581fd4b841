package codebowl

import (
	"encoding/json"
	"fmt"

	"github.com/meeple-games/meeple/domain"
)

// Formation is a named set of up to seven squares, given as (depth, row):
// depth 0 is the column next to the halfway line in the placing side's half,
// so a formation fits either side. Players fill its squares in team order.
type Formation struct {
	Name  string
	Spots [TeamSize]Spot
}

// Spot is a square of a formation: Depth columns back from the halfway line,
// row Y.
type Spot struct{ Depth, Y int }

// Formations returns the built-in formations; the first is the default that
// a placement timeout uses. Legal lists each of them as a place move.
func Formations() []Formation {
	mk := func(name string, sq [TeamSize][2]int) Formation {
		f := Formation{Name: name}
		for i, s := range sq {
			f.Spots[i] = Spot{Depth: s[0], Y: s[1]}
		}
		return f
	}
	return []Formation{
		mk("line", [TeamSize][2]int{{1, 5}, {1, 4}, {1, 6}, {1, 3}, {1, 7}, {1, 2}, {1, 8}}),
		mk("wedge", [TeamSize][2]int{{0, 5}, {1, 4}, {1, 6}, {2, 3}, {2, 7}, {3, 2}, {3, 8}}),
		mk("deep", [TeamSize][2]int{{2, 5}, {2, 3}, {2, 7}, {2, 1}, {2, 9}, {5, 4}, {5, 6}}),
	}
}

// placement returns side's living players placed in formation f.
func placement(m Match, side Side, f Formation) []Placement {
	var out []Placement
	k := 0
	for _, p := range m.side(side).Players {
		if p.State == StateDead {
			continue
		}
		sq := f.Spots[k]
		out = append(out, Placement{Player: p.ID, X: column(side, sq.Depth), Y: sq.Y})
		k++
	}
	return out
}

// defaultPlacement is the placement a timeout makes: Formations()[0].
func defaultPlacement(m Match, side Side) []Placement { return placement(m, side, Formations()[0]) }

// place: the placing coach puts all his living players on his half, in one
// action, so a half-done placement never exists (nor can be seen).
func (s *step) place(side Side, p json.RawMessage) error {
	var req PlaceRequest
	if err := domain.DecodePayload(p, &req); err != nil {
		return err
	}
	if err := s.phaseCheck(PhaseSetup, "place players"); err != nil {
		return err
	}
	if s.m.Placing != side {
		return domain.Errorf(domain.ECONFLICT, "it is not your placement: %s places first", s.m.Placing)
	}
	if err := s.checkPlacement(side, req.Positions); err != nil {
		return err
	}
	s.m.side(side).Timeouts = 0
	s.placeAll(side, req.Positions, false)
	s.result = PlaceResult{Phase: s.m.Phase}
	return nil
}

// checkPlacement checks that positions put every living player of side on a
// distinct square of side's half.
//
// Errors: EINVALID naming the entry at fault.
func (s *step) checkPlacement(side Side, positions []Placement) error {
	ts := s.m.side(side)
	want := ts.alive()
	if len(positions) != want {
		return domain.Errorf(domain.EINVALID, "positions: place all %d of your players, not %d", want, len(positions))
	}
	players := map[string]bool{}
	squares := map[Square]bool{}
	for k, pl := range positions {
		f := fmt.Sprintf("positions[%d]", k)
		ps, i, ok := s.m.find(pl.Player)
		switch {
		case pl.Player == "":
			return domain.Errorf(domain.EINVALID, "%s.player is required", f)
		case !ok || ps != side:
			return domain.Errorf(domain.EINVALID, "%s.player: %q is not one of your players", f, pl.Player)
		case ts.Players[i].State == StateDead:
			return domain.Errorf(domain.EINVALID, "%s.player: %s is dead", f, pl.Player)
		case players[pl.Player]:
			return domain.Errorf(domain.EINVALID, "%s.player: %s is placed twice", f, pl.Player)
		}
		q := Square{pl.X, pl.Y}
		switch {
		case !InHalf(side, q):
			return domain.Errorf(domain.EINVALID, "%s: (%d,%d) is not a square of your half", f, q.X, q.Y)
		case squares[q]:
			return domain.Errorf(domain.EINVALID, "%s: two players on (%d,%d)", f, q.X, q.Y)
		}
		players[pl.Player], squares[q] = true, true
	}
	return nil
}

// placeAll puts side's players on the checked positions and moves setup on:
// the offense places next, or the ball is kicked off and play starts.
func (s *step) placeAll(side Side, positions []Placement, auto bool) {
	m := &s.m
	for _, pl := range positions {
		_, i, _ := m.find(pl.Player)
		p := &m.side(side).Players[i]
		p.State, p.Pos, p.Acted = StateStanding, Square{pl.X, pl.Y}, false
	}
	s.emit(EventPlaced, PlacedData{Side: side, Positions: append([]Placement(nil), positions...), Auto: auto})
	if auto {
		s.logf("%s placed in the default formation", s.teamName(side))
	} else {
		s.logf("%s placed", s.teamName(side))
	}
	if side != m.Offense {
		m.Placing = m.Offense
		m.Deadline = s.deadline()
		return
	}
	m.Placing = ""
	s.kickoff()
}

// kickoff puts the ball on a random square of the offense's half (d110); a
// player there tries to catch it, as anywhere (ruling 8). Then the next turn
// of the half starts.
func (s *step) kickoff() {
	m := &s.m
	die := s.dice.Roll(HalfWidth * Height)
	q := halfSquare(m.Offense, die)
	s.emit(EventKickoff, KickoffData{Offense: m.Offense, Die: die, To: q})
	s.logf("the ball lands on (%d,%d)", q.X, q.Y)
	m.Phase = PhasePlay
	s.land(q)
	s.startTurn()
}
