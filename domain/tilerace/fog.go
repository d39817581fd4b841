package tilerace

// VisionRange is how many tiles ahead of the furthest team the fog lifts
// (ruling 15): 5, 4 from tile 28, 3 from tile 42, 2 from tile 52.
func VisionRange(furthest int) int {
	switch {
	case furthest >= 52:
		return 2
	case furthest >= 42:
		return 3
	case furthest >= 28:
		return 4
	}
	return 5
}

// RevealUpTo is the last tile revealed when the furthest team stands on
// tile furthest: furthest + VisionRange(furthest), at most the final tile. It
// never decreases as furthest grows, so the reveal frontier is the maximum
// of RevealUpTo over every position any team has reached, and a team's
// action only needs its own new position to keep it.
func RevealUpTo(furthest int) int {
	if furthest < 1 {
		furthest = 1
	}
	return min(NumTiles, furthest+VisionRange(furthest))
}

// Revealed reports whether tile n is revealed by the frontier (fog mode
// aside).
func (g Game) Revealed(n int) bool { return n >= 1 && n <= g.RevealedUpTo }

// Visible reports whether tile n's content may be shown to a viewer: an admin
// (admin true) or anyone else.
func (g Game) Visible(n int, admin bool) bool {
	switch g.Fog {
	case FogOffForAll:
		return n >= 1 && n <= NumTiles
	case FogOffForAdmins:
		if admin {
			return n >= 1 && n <= NumTiles
		}
	}
	return g.Revealed(n)
}

// revealFor raises the frontier for a team now at position pos, recording
// the change in o. It returns the newly revealed tiles.
func revealFor(g *Game, o *Outcome, pos int) []int {
	to := RevealUpTo(pos)
	if to <= g.RevealedUpTo {
		return nil
	}
	from := g.RevealedUpTo + 1
	g.RevealedUpTo = to
	o.write(DocPublicBoard) // the frontier is kept with the public board
	o.emit(EventTilesRevealed, "", RevealedData{From: from, To: to})
	ns := span(from, to)
	if g.Fog != FogOffForAll { // otherwise players see them already
		o.publish(ns...)
	}
	return ns
}

// RaiseFrontier raises the fog frontier for a team that has reached tile
// pos: a completion does it after advancing (raiseAfter). The rule is
// monotonic (RevealUpTo never decreases), so raising late, twice or out of
// order gives the same frontier. It reports whether the frontier moved;
// nothing moves unless the race is on.
//
// Writes: the public board (DocPublicBoard; the tiles in Publish).
func RaiseFrontier(g Game, pos int) (Game, Outcome, bool) {
	var o Outcome
	if g.Status != StatusActive || pos < 1 || pos > NumTiles {
		return g, o, false
	}
	g = g.clone()
	if to := RevealUpTo(pos); to <= g.RevealedUpTo {
		return g, o, false
	}
	revealFor(&g, &o, pos)
	return g, o, true
}

func span(from, to int) []int {
	var ns []int
	for n := from; n <= to; n++ {
		ns = append(ns, n)
	}
	return ns
}

// TileView is the content of a tile as clients see it.
type TileView struct {
	Task
	Reward string `json:"reward,omitempty"`
	Mods   Mods   `json:"mods"`
	// PointsPerCompletion is what each completion earns, in hundredths.
	PointsPerCompletion int `json:"pointsPerCompletion"`
}

// PublicTile is a tile as a viewer may see it. A hidden tile carries its
// number and place on the board only: no label, difficulty, reward or
// modification, nothing that comes from its content.
type PublicTile struct {
	N        int       `json:"n"`
	Layout             // row, col, span
	Revealed bool      `json:"revealed"`
	Content  *TileView `json:"content,omitempty"`
}

// PublicTileOf projects tile for a viewer who may (revealed) or may not see
// its content.
func PublicTileOf(tile Tile, revealed bool) PublicTile {
	p := PublicTile{N: tile.N, Layout: TileLayout(tile.N), Revealed: revealed}
	if revealed {
		p.Content = &TileView{Task: tile.Task, Reward: tile.Reward, Mods: tile.Mods, PointsPerCompletion: PointsPerCompletion(tile)}
	}
	return p
}

// ViewBoard is the board as a viewer sees it: players (admin false) through
// the fog, admins through it too unless the fog is off for admins.
func ViewBoard(g Game, b Board, admin bool) []PublicTile {
	out := make([]PublicTile, len(b.Tiles))
	for i, t := range b.Tiles {
		out[i] = PublicTileOf(t, g.Visible(t.N, admin))
	}
	return out
}

// PublicTiles projects the given tiles for players: what the store writes to
// the public board for the tiles an Outcome lists in Publish.
func PublicTiles(g Game, tiles []Tile) []PublicTile {
	out := make([]PublicTile, len(tiles))
	for i, t := range tiles {
		out[i] = PublicTileOf(t, g.Visible(t.N, false))
	}
	return out
}

// visibleToPlayers filters ns to the tiles players can see now.
func visibleToPlayers(g Game, ns []int) []int {
	var out []int
	for _, n := range ns {
		if g.Visible(n, false) {
			out = append(out, n)
		}
	}
	return out
}

// raiseAfter raises the frontier for the furthest tile a completion's
// events say a team reached (the final tile reveals nothing more), adding
// the reveal's events and the public board's write to o.
func raiseAfter(g Game, o *Outcome) Game {
	reached := 0
	for _, e := range o.Events {
		if c, ok := e.Data.(TileCompletedData); ok && e.Type == EventTileCompleted && c.Tile != FinalTile {
			reached = max(reached, c.Position)
		}
	}
	ng, ro, raised := RaiseFrontier(g, reached)
	if !raised {
		return g
	}
	o.Events = append(o.Events, ro.Events...)
	o.write(ro.Writes...)
	o.publish(ro.Publish...)
	return ng
}
