package codebowl

import (
	"encoding/json"

	"github.com/meeple-games/meeple/domain"
)

// MoveRequest is the payload of "move" (and, with no path, "standUp").
type MoveRequest struct {
	Player string   `json:"player" field:"id"`
	Path   []Square `json:"path" field:"list,max=32"` // at most maxPath steps
}

// move: one player's action (ruling 4). Payload: player (id) and path, the
// squares to step on in order, each adjacent to the one before, at most MV
// (MV − 3 for a knocked-down player, who stands up first). The last step may
// be onto a standing enemy: an attack, from the square before it.
func (s *step) move(side Side, p json.RawMessage) error {
	var req MoveRequest
	if err := domain.DecodePayload(p, &req); err != nil {
		return err
	}
	return s.act(side, req.Player, req.Path, false)
}

// standUp: a knocked-down player's action of standing up without moving.
// Payload: player.
func (s *step) standUp(side Side, p json.RawMessage) error {
	var req MoveRequest
	if err := domain.DecodePayload(p, &req); err != nil {
		return err
	}
	return s.act(side, req.Player, nil, true)
}

// actor finds side's player id and checks he may act now.
//
// Errors: EINVALID (no such player, not side's, dead), ECONFLICT (he acted).
func (s *step) actor(side Side, id string) (ref, error) {
	if id == "" {
		return ref{}, domain.Errorf(domain.EINVALID, "player is required")
	}
	ps, i, ok := s.m.find(id)
	switch {
	case !ok:
		return ref{}, domain.Errorf(domain.EINVALID, "player: there is no player %s in this match", domain.Quote(id))
	case ps != side:
		return ref{}, domain.Errorf(domain.EINVALID, "player: %s is not one of your players", id)
	}
	p := s.m.side(side).Players[i]
	switch {
	case p.State == StateDead:
		return ref{}, domain.Errorf(domain.EINVALID, "player: %s is dead", id)
	case !p.OnPitch():
		return ref{}, domain.Errorf(domain.ECONFLICT, "player: %s is not on the pitch", id)
	case p.Acted:
		return ref{}, domain.Errorf(domain.ECONFLICT, "player: %s has already acted this turn", id)
	}
	return ref{side, i}, nil
}

// checkPath checks path for r before anything is rolled, and returns the
// enemy its last step attacks (attack false when none).
//
// Errors: EINVALID naming the step at fault.
func (s *step) checkPath(r ref, path []Square) (target ref, attack bool, err error) {
	p := s.m.p(r)
	standing := p.State == StateStanding
	budget := p.MV
	if !standing {
		budget = max(0, p.MV-StandUpCost)
	}
	switch {
	case len(path) > budget:
		return ref{}, false, domain.Errorf(domain.EINVALID, "path: %d steps, but %s may take at most %d now", len(path), p.ID, budget)
	case standing && len(path) == 0:
		return ref{}, false, domain.Errorf(domain.EINVALID, "path: give at least one step")
	}
	prev := p.Pos
	for k, q := range path {
		switch {
		case !q.OnPitch():
			return ref{}, false, domain.Errorf(domain.EINVALID, "path[%d]: (%d,%d) is off the pitch", k, q.X, q.Y)
		case !prev.Adjacent(q):
			return ref{}, false, domain.Errorf(domain.EINVALID, "path[%d]: (%d,%d) is not next to (%d,%d)", k, q.X, q.Y, prev.X, prev.Y)
		}
		if o, ok := s.m.at(q); ok && o != r {
			op := s.m.p(o)
			switch {
			case o.side == r.side:
				return ref{}, false, domain.Errorf(domain.EINVALID, "path[%d]: a team-mate is on (%d,%d)", k, q.X, q.Y)
			case op.State == StateDown:
				return ref{}, false, domain.Errorf(domain.EINVALID, "path[%d]: you cannot move onto a knocked-down player (%d,%d)", k, q.X, q.Y)
			case k != len(path)-1:
				return ref{}, false, domain.Errorf(domain.EINVALID, "path[%d]: an enemy is on (%d,%d); an attack must be the last step", k, q.X, q.Y)
			case !standing:
				return ref{}, false, domain.Errorf(domain.EINVALID, "path[%d]: a player standing up cannot attack", k)
			}
			target, attack = o, true
		}
		prev = q
	}
	return target, attack, nil
}

// tacklers returns the standing enemies of side adjacent to q: the highest
// AG among them and the strongest (first in team order on a tie).
func (m *Match) tacklers(side Side, q Square) (ids []string, bestAG int, strongest ref) {
	bestST := -1
	for i, e := range m.side(side.Other()).Players {
		if e.State != StateStanding || !e.Pos.Adjacent(q) {
			continue
		}
		ids = append(ids, e.ID)
		bestAG = max(bestAG, e.AG)
		if e.ST > bestST {
			bestST, strongest = e.ST, ref{side.Other(), i}
		}
	}
	return ids, bestAG, strongest
}

// act performs a move or stand-up of side's player id along path.
func (s *step) act(side Side, id string, path []Square, standOnly bool) error {
	if err := s.turnCheck(side, "move"); err != nil {
		return err
	}
	if len(path) > maxPath {
		return domain.Errorf(domain.EINVALID, "path: at most %d steps", maxPath)
	}
	r, err := s.actor(side, id)
	if err != nil {
		return err
	}
	m := &s.m
	p := m.p(r)
	if standOnly && p.State != StateDown {
		return domain.Errorf(domain.ECONFLICT, "player: %s is not knocked down", id)
	}
	target, attack, err := s.checkPath(r, path)
	if err != nil {
		return err
	}

	m.side(side).Timeouts = 0
	p.Acted = true
	res := MoveResult{}
	if p.State == StateDown {
		p.State = StateStanding
		s.emit(EventStoodUp, PlayerData{Side: side, Player: p.ID, At: p.Pos})
		s.logf("%s stands up", p.Name)
	}
	steps := path
	if attack {
		steps = path[:len(path)-1]
	}
	for _, q := range steps {
		from := p.Pos
		if ids, ag, strongest := m.tacklers(side, from); len(ids) > 0 {
			chance := DodgeChance(p.AG, ag)
			roll := s.roll100()
			d := DodgeData{Side: side, Player: p.ID, From: from, To: q, AG: p.AG, EnemyAG: ag, Tacklers: ids, Chance: chance, Roll: roll}
			if !Succeeds(roll, chance) {
				s.emit(EventTripped, d)
				s.logf("%s is tripped leaving (%d,%d) (%d%% → %d)", p.Name, from.X, from.Y, chance, roll)
				s.knockDown(r, strongest, CauseTripped)
				s.turnover = EndTripped
				break
			}
			s.emit(EventDodged, d)
		}
		s.put(r, q)
		s.emit(EventMoved, MovedData{Side: side, Player: p.ID, From: from, To: q})
		res.Steps++
		if m.Ball.State == BallLoose && m.Ball.Pos == q {
			if !s.attempt(r, EventPickedUp, EventPickupFailed) {
				s.scatter(q)
				s.turnover = EndPickupFailed
				break
			}
		}
		if s.checkScore() {
			break
		}
	}
	if res.Steps > 0 {
		s.logf("%s moves to (%d,%d)", p.Name, p.Pos.X, p.Pos.Y)
	}
	if attack && s.turnover == "" && s.scorer == nil {
		res.Attack = s.attack(r, target)
	}
	s.checkScore()
	s.afterAction(side)
	res.Scored = s.scorer != nil
	res.Turnover = s.turnover
	if res.Scored {
		res.Turnover = EndScore
	}
	res.GameOver = m.Phase == PhaseOver
	s.result = res
	return nil
}
