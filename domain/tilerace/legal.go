package tilerace

import (
	"slices"

	"github.com/meeple-games/meeple/domain"
)

// Legal lists what a team may do now: record completions on its current
// tile (as many as the tile still needs, then advance; or one at a time),
// and claim each powerup tile it may claim. Admins may view the board (their
// other actions configure the race and are not listed). Each candidate is
// checked by running the action itself, so every listed move is accepted.
func Legal(g Game, t Team, b Board, pts []PowerupTile, actor domain.Actor, now Ctx) []domain.Move {
	if actor.Role == RoleAdmin || actor.Role == RoleMaster {
		return []domain.Move{{Type: ActionViewBoard}}
	}
	if actor.Role != RoleTeam || g.Status != StatusActive || len(t.Members) == 0 {
		return nil
	}
	var moves []domain.Move
	tile, ok := b.Tile(t.Position)
	if ok {
		for _, n := range []int{max(1, tile.Min-len(t.Progress)), 1, 0} {
			for _, complete := range []bool{true, false} {
				req := CompleteRequest{Tile: t.Position, Recorded: len(t.Progress), Players: players(t, tile.Group, n), Complete: complete}
				if _, _, _, err := Complete(now, g, t, tile, req); err == nil {
					moves = append(moves, domain.Move{Type: ActionComplete, Payload: map[string]any{
						"tile": req.Tile, "recorded": req.Recorded, "players": req.Players, "complete": req.Complete}})
				}
			}
		}
	}
	for _, pt := range pts {
		req := ClaimRequest{PowerupTile: pt.ID, Claims: t.Claims[pt.ID], Players: players(t, pt.Group, max(1, pt.Min))}
		if _, _, _, err := ClaimPowerupTile(now, g, t, pt, req); err == nil {
			moves = append(moves, domain.Move{Type: ActionClaimPowerupTile, Payload: map[string]any{
				"powerupTile": pt.ID, "claims": req.Claims, "players": req.Players}})
		}
	}
	return slices.CompactFunc(moves, func(a, b domain.Move) bool { return a.Type == b.Type && equalPayload(a, b) })
}

// players names n completions by t's members: members who have not
// completed the tile yet first (a group task counts each player once).
func players(t Team, group bool, n int) []string {
	var out []string
	for _, m := range t.Members {
		if len(out) == n {
			return out
		}
		if !slices.Contains(t.Progress, m) {
			out = append(out, m)
		}
	}
	for i := 0; len(out) < n && !group; i++ {
		out = append(out, t.Members[i%len(t.Members)])
	}
	return out
}

func equalPayload(a, b domain.Move) bool {
	if len(a.Payload) != len(b.Payload) {
		return false
	}
	for k, v := range a.Payload {
		w, ok := b.Payload[k]
		if !ok {
			return false
		}
		if vs, ok := v.([]string); ok {
			ws, _ := w.([]string)
			if !slices.Equal(vs, ws) {
				return false
			}
			continue
		}
		if v != w {
			return false
		}
	}
	return true
}
