package tilerace

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

const gameID = "g1"

var (
	t0        = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	masterAct = domain.Actor{ID: "m1", Name: "Mia", Role: RoleMaster, Game: gameID}
	adminAct  = domain.Actor{ID: "a1", Name: "Ada", Role: RoleAdmin, Game: gameID, Gen: 1} // the first admin added: session generation 1
)

func teamAct(id string) domain.Actor {
	return domain.Actor{ID: id, Name: id, Role: RoleTeam, Game: gameID}
}

func ctx(a domain.Actor) Ctx { return Ctx{Actor: a, Now: t0} }

// jsonOf marshals v, to compare values as their JSON.
func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// taskFile builds a CSV task file with e easy, m medium and h hard tasks,
// each with a unique label ("E1", "M3", …): every fifth task is a
// multi-completion task (max 3, min 2), every seventh a group task.
func taskFile(e, m, h int) string {
	var b strings.Builder
	b.WriteString("label,difficulty,max,min,instructions,image,start proof,group\n")
	for _, c := range []struct {
		prefix string
		d, n   int
	}{{"E", 1, e}, {"M", 2, m}, {"H", 3, h}} {
		for i := 1; i <= c.n; i++ {
			hi, lo, group, proof := 1, 1, "no", "no"
			if i%5 == 0 {
				hi, lo = 3, 2
			}
			if i%7 == 0 {
				hi, lo, group = 4, 2, "yes"
			}
			if i%3 == 0 {
				proof = "yes"
			}
			fmt.Fprintf(&b, "%s%d,%d,%d,%d,\"Do %s%d, then post proof\",https://img.example/%s%d.png,%s,%s\n",
				c.prefix, i, c.d, hi, lo, c.prefix, i, c.prefix, i, proof, group)
		}
	}
	return b.String()
}

// world is an in-memory store: it keeps the documents and applies each
// action's Outcome as the Firestore store should (write what Writes lists,
// republish the tiles in Publish).
type world struct {
	t       testing.TB
	g       Game
	board   Board
	pools   Pools
	teams   map[string]Team
	ptiles  map[string]PowerupTile
	public  map[int]PublicTile
	events  []domain.Event
	awards  map[string]AwardData // ledger by key
	points  map[string]int       // totals by player
	nextSeq int64
}

func newWorld(t testing.TB) *world {
	t.Helper()
	g, b, p, err := NewGame(gameID, Admin{ID: masterAct.ID, Name: masterAct.Name}, t0)
	require.NoError(t, err)
	w := &world{t: t, g: g, board: b, pools: p, teams: map[string]Team{}, ptiles: map[string]PowerupTile{},
		public: map[int]PublicTile{}, awards: map[string]AwardData{}, points: map[string]int{}}
	for _, pt := range ViewBoard(g, b, false) {
		w.public[pt.N] = pt
	}
	w.g, _ = w.must(AddAdmin(ctx(masterAct), w.g, AdminRequest{ID: adminAct.ID, Name: adminAct.Name}))
	return w
}

// must takes a game-returning action's results: it stores the game, then
// applies the outcome.
func (w *world) must(g Game, o Outcome, err error) (Game, Outcome) {
	w.t.Helper()
	require.NoError(w.t, err)
	w.g = g
	w.apply(o)
	return g, o
}

// apply records events, awards points (idempotently, by key) and publishes.
func (w *world) apply(o Outcome) {
	w.t.Helper()
	for _, e := range o.Events {
		w.events = append(w.events, e)
		if a, ok := e.Data.(AwardData); ok {
			require.Positive(w.t, a.Points)
			if _, dup := w.awards[a.Key]; dup {
				w.t.Fatalf("award key %s used twice", a.Key)
			}
			w.awards[a.Key] = a
			w.points[a.Player] += a.Points
		}
	}
	if len(o.Publish) > 0 {
		require.True(w.t, o.Wrote(DocPublicBoard))
		var tiles []Tile
		for _, n := range o.Publish {
			tile, ok := w.board.Tile(n)
			require.True(w.t, ok)
			tiles = append(tiles, tile)
		}
		for _, pt := range PublicTiles(w.g, tiles) {
			w.public[pt.N] = pt
		}
	}
}

// addTeams creates n teams "t1".."tn" with three members each.
func (w *world) addTeams(n int) {
	w.t.Helper()
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("t%d", i)
		g, team, o, err := CreateTeam(ctx(adminAct), w.g, id, CreateTeamRequest{Name: fmt.Sprintf("Team %d", i),
			Members: []string{id + "-cap", id + "-b", id + "-c"}, Slot: (i-1)%5 + 1})
		require.NoError(w.t, err)
		w.g, w.teams[id] = g, team
		w.apply(o)
	}
}

// prepare imports tasks, randomises and fills the board with seed, and adds
// powerup tiles of every claim type.
func (w *world) prepare(seed string) {
	w.t.Helper()
	p, o, err := ImportTasks(ctx(adminAct), w.g, w.pools, ImportRequest{Data: taskFile(40, 40, 40)})
	require.NoError(w.t, err)
	w.pools = p
	w.apply(o)
	g, b, p, o, err := RandomiseDifficulties(ctx(adminAct), w.g, w.board, w.pools, RandomiseRequest{Fill: true}, domain.NewSeededDice(seed, 1))
	require.NoError(w.t, err)
	w.g, w.board, w.pools = g, b, p
	w.apply(o)
	// a few rewards on tiles
	for _, n := range []int{3, 10, 20} {
		tile, _ := w.board.Tile(n)
		tile, o, err := EditTile(ctx(adminAct), w.g, tile, EditTileRequest{Tile: n, Task: tile.Task, Reward: PowerupSkip1})
		require.NoError(w.t, err)
		w.board.Tiles[n-1] = tile
		w.apply(o)
	}
	g, tiles, o, err := ImportPowerupTiles(ctx(adminAct), w.g, ImportRequest{Data: "reward,label,points,max,min,claim\n" +
		"skip1,Kill a boss,1.5,3,1,eachTeam\nback2,First to 99,2,1,1,firstTeam\nclearCooldown,Any clue,0.25,2,1,unlimited\n"})
	require.NoError(w.t, err)
	w.g = g
	for _, pt := range tiles {
		w.ptiles[pt.ID] = pt
	}
	w.apply(o)
}

func (w *world) start() {
	w.t.Helper()
	w.g, _ = w.must(Start(ctx(adminAct), w.g, w.board))
}

// race returns a started world with n teams.
func race(t testing.TB, n int) *world {
	t.Helper()
	w := newWorld(t)
	w.addTeams(n)
	w.prepare("fixture")
	w.start()
	return w
}

// complete runs Complete as the store would: read the game, the team and
// its current tile; on success write what the Outcome says.
func (w *world) complete(a domain.Actor, team string, req CompleteRequest) (Outcome, error) {
	w.t.Helper()
	t := w.teams[team]
	tile, ok := w.board.Tile(t.Position)
	require.True(w.t, ok)
	var g Game
	var nt Team
	var o Outcome
	var err error
	rulestest.Pure(w.t, []any{w.g, t, tile}, func([]any) { g, nt, o, err = Complete(Ctx{Actor: a, Now: t0}, w.g, t, tile, req) })
	if err != nil {
		require.Equal(w.t, jsonOf(w.t, []any{w.g, t}), jsonOf(w.t, []any{g, nt}), "Complete returned changed values with an error")
		require.Empty(w.t, o.Events)
		return o, err
	}
	if !o.Wrote(DocGame) {
		require.Equal(w.t, jsonOf(w.t, w.g), jsonOf(w.t, g), "the game changed but Writes does not say so")
	}
	require.False(w.t, o.Wrote(DocPublicBoard), "a completion never writes the public board")
	require.Equal(w.t, w.g.RevealedUpTo, g.RevealedUpTo, "a completion never moves the frontier")
	if o.Wrote(DocGame) {
		require.Equal(w.t, StatusFinished, g.Status, "a completion writes the game only when it wins")
	}
	w.g, w.teams[team] = g, nt
	w.apply(o)
	// What the store does next, in a transaction of its own.
	if req.Complete {
		g, fo, moved := RaiseFrontier(w.g, nt.Position)
		require.Equal(w.t, moved, len(fo.Events) > 0)
		w.g = g
		w.apply(fo)
		o.Events = append(o.Events, fo.Events...)
		o.Publish = append(o.Publish, fo.Publish...)
		o.write(fo.Writes...)
	}
	return o, nil
}

func (w *world) claim(a domain.Actor, team string, req ClaimRequest) (Outcome, error) {
	w.t.Helper()
	t, pt := w.teams[team], w.ptiles[req.PowerupTile]
	before := jsonOf(w.t, []any{w.g, t, pt})
	nt, npt, o, err := ClaimPowerupTile(Ctx{Actor: a, Now: t0}, w.g, t, pt, req)
	require.Equal(w.t, before, jsonOf(w.t, []any{w.g, t, pt}), "ClaimPowerupTile changed its input")
	if err != nil {
		require.Empty(w.t, o.Events)
		return o, err
	}
	if !o.Wrote(DocPowerupTile) {
		require.Equal(w.t, jsonOf(w.t, pt), jsonOf(w.t, npt))
	}
	w.teams[team], w.ptiles[req.PowerupTile] = nt, npt
	w.apply(o)
	return o, nil
}

// finishTile completes team's current tile with the fewest completions.
func (w *world) finishTile(team string) Outcome {
	w.t.Helper()
	t := w.teams[team]
	tile, _ := w.board.Tile(t.Position)
	var players []string
	for i := len(t.Progress); i < tile.Min; i++ {
		players = append(players, t.Members[i%len(t.Members)])
	}
	o, err := w.complete(teamAct(team), team, CompleteRequest{Tile: t.Position, Recorded: len(t.Progress), Players: players, Complete: true})
	require.NoError(w.t, err)
	return o
}

// setTile replaces tile n's content directly (test setup).
func (w *world) setTile(n int, task Task, reward string) {
	w.t.Helper()
	tile, _ := w.board.Tile(n)
	tile.Task, tile.Reward = task, reward
	w.board.Tiles[n-1] = tile
	w.public[n] = PublicTiles(w.g, []Tile{tile})[0]
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkWorld checks invariants that hold after any action.
func (w *world) checkWorld() {
	w.t.Helper()
	furthest := 1
	for _, id := range sortedKeys(w.teams) {
		t := w.teams[id]
		require.GreaterOrEqual(w.t, t.Position, 1, id)
		require.LessOrEqual(w.t, t.Position, NumTiles, id)
		require.Equal(w.t, t.Members[0], t.Captain)
		tile, _ := w.board.Tile(t.Position)
		require.LessOrEqual(w.t, len(t.Progress), tile.Max)
		furthest = max(furthest, t.Position)
		_, ok := w.g.TeamRef(id)
		require.True(w.t, ok)
	}
	require.Len(w.t, w.g.Teams, len(w.teams))
	require.GreaterOrEqual(w.t, w.g.RevealedUpTo, RevealUpTo(furthest), "frontier behind the furthest team")
	for p, pts := range w.points {
		require.Positive(w.t, pts, p)
	}
	// the public board shows exactly what players may see
	for n := 1; n <= NumTiles; n++ {
		pt := w.public[n]
		tile, _ := w.board.Tile(n)
		if w.g.Visible(n, false) {
			require.True(w.t, pt.Revealed, "tile %d visible but not published", n)
			require.NotNil(w.t, pt.Content)
			require.Equal(w.t, tile.Label, pt.Content.Label, "tile %d published stale", n)
		} else {
			require.False(w.t, pt.Revealed, "hidden tile %d published", n)
			require.Nil(w.t, pt.Content, "hidden tile %d has content", n)
		}
	}
}

// checkNoHiddenContent checks no event mentions a label of a tile players
// cannot see (labels are unique in the fixture).
func (w *world) checkNoHiddenContent(evs []domain.Event) {
	w.t.Helper()
	text := jsonOf(w.t, evs)
	for n := 1; n <= NumTiles; n++ {
		tile, _ := w.board.Tile(n)
		if !w.g.Visible(n, false) && tile.Label != "" {
			require.NotContains(w.t, text, `"`+tile.Label+`"`, "hidden tile %d's label in an event", n)
			require.NotContains(w.t, text, tile.Instructions)
		}
	}
}

// randomGames is how many random races a test plays: full, or fewer under
// the race detector (every property is still checked on every race played;
// fewer races only try fewer seeds). MEEPLE_FULL_GAMES=1 plays the full
// count under the race detector too.
func randomGames(full, fewer int) int {
	if raceEnabled && os.Getenv("MEEPLE_FULL_GAMES") == "" {
		return fewer
	}
	return full
}
