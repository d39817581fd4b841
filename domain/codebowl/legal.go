package codebowl

import "github.com/meeple-games/meeple/domain"

// Legal implements domain.Lister: what actor may do now.
//
//   - setup, the placing coach: one "place" per built-in formation
//     (Formations), each with all his living players;
//   - play, the active coach: for every player who has not acted, one "move"
//     per square he can reach (a shortest path, found breadth-first over free
//     squares; paths over the loose ball are pickups on the way), one "move"
//     per standing enemy he can attack (a shortest path to a square next to
//     it, then its square), a "standUp" for a knocked-down player; and
//     "endTurn";
//   - anyone else, or any other moment: nothing.
//
// "forfeit" is always open to a seated coach until the end and is not listed.
// Every listed move is accepted by Apply in the state it was listed for.
func (Rules) Legal(m Match, actor domain.Actor) []domain.Move {
	side := m.SideOf(actor.ID)
	if side == "" {
		return nil
	}
	switch {
	case m.Phase == PhaseSetup && m.Placing == side:
		var out []domain.Move
		for _, f := range Formations() {
			out = append(out, domain.Move{Type: ActionPlace, Payload: map[string]any{"positions": placement(m, side, f)}})
		}
		return out
	case m.Phase == PhasePlay && m.Active == side:
		var out []domain.Move
		for i, p := range m.side(side).Players {
			if p.OnPitch() && !p.Acted {
				out = m.playerMoves(ref{side, i}, out)
			}
		}
		return append(out, domain.Move{Type: ActionEndTurn})
	}
	return nil
}

// Occupancy codes of the legal-move search.
const (
	cellFree = iota
	cellTaken
	cellEnemy // a standing enemy: attackable
)

// playerMoves appends r's moves to out.
func (m *Match) playerMoves(r ref, out []domain.Move) []domain.Move {
	p := m.p(r)
	standing := p.State == StateStanding
	budget := p.MV
	if !standing {
		budget = max(0, p.MV-StandUpCost)
		out = append(out, domain.Move{Type: ActionStandUp, Payload: map[string]any{"player": p.ID}})
	}
	var cell [Width][Height]int8
	for _, side := range []Side{Home, Away} {
		for i, o := range m.side(side).Players {
			if !o.OnPitch() || (side == r.side && i == r.i) {
				continue
			}
			c := int8(cellTaken)
			if side != r.side && o.State == StateStanding {
				c = cellEnemy
			}
			cell[o.Pos.X][o.Pos.Y] = c
		}
	}
	var dist [Width][Height]int8
	var parent [Width][Height]Square
	for x := range dist {
		for y := range dist[x] {
			dist[x][y] = -1
		}
	}
	start := p.Pos
	dist[start.X][start.Y] = 0
	queue := []Square{start}
	for head := 0; head < len(queue); head++ {
		q := queue[head]
		if int(dist[q.X][q.Y]) >= budget {
			continue
		}
		for _, d := range Directions {
			n := q.Add(d)
			if n.OnPitch() && cell[n.X][n.Y] == cellFree && dist[n.X][n.Y] < 0 {
				dist[n.X][n.Y] = dist[q.X][q.Y] + 1
				parent[n.X][n.Y] = q
				queue = append(queue, n)
			}
		}
	}
	path := func(q Square, extra ...Square) []Square {
		n := int(dist[q.X][q.Y])
		ps := make([]Square, n, n+len(extra))
		for k := n - 1; k >= 0; k-- {
			ps[k] = q
			q = parent[q.X][q.Y]
		}
		return append(ps, extra...)
	}
	mv := func(ps []Square) domain.Move {
		return domain.Move{Type: ActionMove, Payload: map[string]any{"player": p.ID, "path": ps}}
	}
	for _, q := range queue[1:] {
		out = append(out, mv(path(q)))
	}
	if standing {
		var seen [Width][Height]bool
		for _, q := range queue {
			if int(dist[q.X][q.Y]) >= budget {
				continue
			}
			for _, d := range Directions {
				n := q.Add(d)
				if n.OnPitch() && cell[n.X][n.Y] == cellEnemy && !seen[n.X][n.Y] {
					seen[n.X][n.Y] = true
					out = append(out, mv(path(q, n)))
				}
			}
		}
	}
	return out
}
