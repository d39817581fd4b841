package functions_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/triggers"
)

// race is a Tile Race game set up through the functions.
type race struct {
	s      *stack
	id     string
	master string // master admin session token
	admin  string // regular admin session token
	teams  []raceTeam
}

type raceTeam struct {
	id, name, token string
	members         []string
}

// raceTasks is a task file with n tasks per difficulty: mostly single
// completions, some needing 2 of up to 3, some group tasks.
func raceTasks(n int) string {
	var b strings.Builder
	b.WriteString("label,difficulty,max,min,instructions,image,start proof,group\n")
	for _, d := range []string{"easy", "medium", "hard"} {
		for i := 1; i <= n; i++ {
			max, min, group := 1, 1, "no"
			switch i % 5 {
			case 1:
				max, min = 3, 2
			case 2:
				max, min, group = 3, 2, "yes"
			}
			fmt.Fprintf(&b, "%s task %d,%s,%d,%d,Do %s task %d,,%v,%s\n", d, i, d, max, min, d, i, i%2 == 0, group)
		}
	}
	return b.String()
}

// newRace creates a game, a regular admin and n teams (each signed in),
// fills the board from imported pools and, when start, starts the race.
func newRace(t *testing.T, s *stack, n int, start bool) *race {
	t.Helper()
	return newRaceAs(t, s, s.guest("Mia"), "new", n, start)
}

// newRaceAs is newRace created by host with action id createID (which
// decides the race's id: store.CreateID).
func newRaceAs(t *testing.T, s *stack, host player, createID string, n int, start bool) *race {
	t.Helper()
	code, out := s.post(host.Token, "TileRace", map[string]any{"actionId": createID, "type": "create", "name": "Mia", "password": "master-pass", "seed": "race-seed"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	res := out["result"].(map[string]any)
	r := &race{s: s, id: out["gameId"].(string), master: res["session"].(map[string]any)["token"].(string)}

	r.mustAct(r.master, "add-admin", map[string]any{"type": "addAdmin", "id": "ada", "name": "Ada", "password": "admin-pass"})
	r.admin = r.login("adminLogin", "admin", "Ada", "admin-pass")
	for i := 1; i <= n; i++ {
		members := []string{fmt.Sprintf("Cap%d", i), fmt.Sprintf("Bo%d", i), fmt.Sprintf("Cy%d", i)}
		out := r.mustAct(r.admin, fmt.Sprintf("team-%d", i), map[string]any{"type": "createTeam", "name": fmt.Sprintf("Team %d", i),
			"members": members, "slot": (i-1)%5 + 1, "password": fmt.Sprintf("pw-team-%d", i)})
		id := out["result"].(map[string]any)["team"].(map[string]any)["id"].(string)
		tok := r.login("teamLogin", "team", fmt.Sprintf("team %d", i), fmt.Sprintf("pw-team-%d", i))
		r.teams = append(r.teams, raceTeam{id: id, name: fmt.Sprintf("Team %d", i), token: tok, members: members})
	}
	r.mustAct(r.admin, "tasks", map[string]any{"type": "importTasks", "data": raceTasks(60)})
	r.mustAct(r.admin, "ptiles", map[string]any{"type": "importPowerupTiles", "data": "reward,label,points,max,min,claim\nskip1,Kill a boss,1.5,3,1,eachTeam\nback2,First to 99,2,1,1,firstTeam\n"})
	r.mustAct(r.admin, "board", map[string]any{"type": "randomiseDifficulties", "fill": true})
	if start {
		r.mustAct(r.admin, "start", map[string]any{"type": "start"})
	}
	return r
}

func (r *race) login(typ, field, who, password string) string {
	r.s.t.Helper()
	code, out := r.s.post("", "Auth", map[string]any{"type": typ, "gameId": r.id, field: who, "password": password})
	require.Equal(r.s.t, http.StatusOK, code, "%s %s: %v", typ, who, out)
	return out["token"].(string)
}

func (r *race) act(token, actionID string, body map[string]any) (int, map[string]any) {
	r.s.t.Helper()
	b := map[string]any{"gameId": r.id, "actionId": actionID}
	for k, v := range body {
		b[k] = v
	}
	return r.s.post(token, "TileRace", b)
}

func (r *race) mustAct(token, actionID string, body map[string]any) map[string]any {
	r.s.t.Helper()
	code, out := r.act(token, actionID, body)
	require.Equal(r.s.t, http.StatusOK, code, "%s: %v", actionID, out)
	return out
}

// doc reads a document as a client with full access would (the rules tests
// check who may).
func (r *race) doc(path string, v any) {
	r.s.t.Helper()
	snap, err := r.s.store.FS.Doc("games/" + r.id + "/" + path).Get(context.Background())
	require.NoError(r.s.t, err, path)
	require.NoError(r.s.t, store.DecodeDoc(snap.Data(), v))
}

// game is the game document, with the fog frontier (kept with the public
// board) filled in.
func (r *race) game() tilerace.Game {
	var g tilerace.Game
	_, err := r.s.store.GameState(context.Background(), r.id, &g)
	require.NoError(r.s.t, err)
	g.RevealedUpTo = r.board().RevealedUpTo
	return g
}

func (r *race) team(id string) tilerace.Team {
	var t tilerace.Team
	r.doc("teams/"+id, &t)
	return t
}

func (r *race) board() tilerace.PublicBoard {
	var b tilerace.PublicBoard
	r.doc("public/board", &b)
	return b
}

// checkFog asserts the public board shows exactly tiles 1..revealedUpTo.
func (r *race) checkFog() {
	r.s.t.Helper()
	g, b := r.game(), r.board()
	require.Len(r.s.t, b.Tiles, tilerace.NumTiles)
	for _, pt := range b.Tiles {
		if pt.N <= g.RevealedUpTo {
			require.True(r.s.t, pt.Revealed && pt.Content != nil && pt.Content.Label != "", "tile %d is revealed", pt.N)
		} else {
			require.Equal(r.s.t, tilerace.PublicTile{N: pt.N, Layout: tilerace.TileLayout(pt.N)}, pt, "tile %d is hidden", pt.N)
		}
	}
}

// completeTile records just enough completions on the team's current tile
// and completes it, as the team's own client would: from the team document
// and the public board.
func (r *race) completeTile(tm raceTeam, actionID string) map[string]any {
	r.s.t.Helper()
	t := r.team(tm.id)
	tile := r.board().Tiles[t.Position-1]
	require.NotNil(r.s.t, tile.Content, "the team's tile %d is revealed", t.Position)
	players := tm.members[:tile.Content.Min]
	return r.mustAct(tm.token, actionID, map[string]any{"type": "complete", "tile": t.Position, "recorded": len(t.Progress), "players": players, "complete": true})
}

// applyEffects runs the effects of every pending record (the tick's sweep:
// fog raises, and the projection markers of records with points), twice:
// the second run must find nothing to do; then the tick's projection pass,
// which builds the leaderboard.
func (r *race) applyEffects() int {
	r.s.t.Helper()
	ctx := context.Background()
	applied := 0
	for round := 0; round < 2; round++ {
		pending, err := r.s.store.PendingEvents(ctx, r.s.clock(), 1000)
		require.NoError(r.s.t, err)
		for _, p := range pending {
			ok, err := r.s.store.ApplyEffects(ctx, p.GameID, p.EventID)
			require.NoError(r.s.t, err)
			if ok {
				applied++
			}
		}
		if round == 1 {
			require.Empty(r.s.t, pending, "nothing left pending")
		}
	}
	rep, err := triggers.New(r.s.store).Project(ctx, r.s.clock())
	require.NoError(r.s.t, err)
	require.Zero(r.s.t, rep.RebuildErrors)
	return applied
}

func TestTileRaceWholeRace(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	r := newRace(t, s, 5, true)
	r.checkFog()
	g := r.game()
	require.Equal(t, tilerace.StatusActive, g.Status)
	require.Len(t, g.Teams, 5)

	// A claim of a powerup tile, then a race: each round every team
	// completes its tile, except team 5, which also completes a second one,
	// so it leads and wins.
	out := r.mustAct(r.teams[1].token, "claim", map[string]any{"type": "claimPowerupTile", "powerupTile": "pt-1", "claims": 0, "players": []string{"Cap2", "Bo2"}})
	require.Equal(t, "skip1", r.team(r.teams[1].id).Inventory[0], "%v", out)
	// A claim awards points and raises no frontier: it wrote its team's
	// points itself, its record holds the ledger's entries (one per player
	// it names), and it marked the race for the
	// leaderboard's projection pass in the same commit, so its record has
	// no effects left to run.
	rec := domain.ScopedID(r.id, r.teams[1].id) + "~claim"
	recSnap, err := s.store.FS.Doc("games/" + r.id + "/events/" + rec).Get(context.Background())
	require.NoError(t, err)
	require.Equal(t, false, recSnap.Data()["pending"], "the claim's record has no effects to run")
	require.IsType(t, time.Time{}, recSnap.Data()["projectAt"], "the claim marked the race for the projection pass")
	require.Equal(t, true, recSnap.Data()["project"])
	claimed := 0
	for _, le := range raceLedger(t, s, r.id) {
		if le.Event == rec {
			require.Equal(t, "pt-1", le.PowerupTile)
			claimed++
		}
	}
	require.Equal(t, 2, claimed, "the claim's ledger entries, one per player")

	winner := ""
	for round := 1; winner == "" && round < 60; round++ {
		for i := len(r.teams) - 1; i >= 0 && winner == ""; i-- {
			tm := r.teams[i]
			times := 1
			if i == 4 && round%2 == 0 {
				times = 2
			}
			for k := 0; k < times && winner == ""; k++ {
				res := r.completeTile(tm, fmt.Sprintf("r%d-%d", round, k))["result"].(map[string]any)
				if res["won"] == true {
					winner = tm.id
				}
			}
		}
		r.checkFog()
	}
	require.Equal(t, r.teams[4].id, winner)
	g = r.game()
	require.Equal(t, tilerace.StatusFinished, g.Status)
	require.Equal(t, winner, g.Winner)
	require.Equal(t, tilerace.NumTiles, g.RevealedUpTo)
	// Unlike a dice game, a finished race keeps its seed secret: it drew
	// private content, and an undone win makes the race active again.
	snap, err := s.store.FS.Collection("games").Doc(r.id).Get(context.Background())
	require.NoError(t, err)
	require.Equal(t, "over", snap.Data()["status"])
	_, published := snap.Data()["seed"]
	require.False(t, published, "a finished race does not publish its seed")

	// The race is over: team actions are refused, with nothing written.
	before := r.team(r.teams[0].id)
	code, out := r.act(r.teams[0].token, "late", map[string]any{"type": "complete", "tile": before.Position, "recorded": 0, "players": []string{"Cap1"}})
	require.Equal(t, http.StatusConflict, code)
	require.Equal(t, "failed_precondition", errCode(out))
	require.Contains(t, out["error"].(map[string]any)["message"], "the race is over")
	require.Equal(t, before, r.team(r.teams[0].id))

	// Points: one ledger entry per award, totals by name, the top 10.
	// Every action wrote its own points, frontier and projection marker,
	// its record its ledger entries: no record was left pending.
	require.Zero(t, r.applyEffects(), "no record left pending")
	recs, err := s.store.Events(context.Background(), r.id)
	require.NoError(t, err)
	want := map[string]int{}
	awards, overs := 0, 0
	for _, rec := range recs {
		require.False(t, rec.Pending, "record %s applied", rec.ID)
		for _, ev := range rec.Events {
			switch ev.Type {
			case tilerace.EventPointsAwarded:
				d := ev.Data.(map[string]any)
				want[d["player"].(string)] += int(d["points"].(float64))
				awards++
			case "gameOver":
				overs++
			}
		}
	}
	require.Equal(t, 1, overs)
	var lb tilerace.RaceLeaderboard
	r.doc("public/leaderboard", &lb)
	require.Equal(t, want, lb.Totals)
	require.Equal(t, awards, lb.Awards)
	require.Len(t, lb.Top, 10)
	require.Equal(t, tilerace.Leaderboard(want, 10), lb.Top)
	ledger := raceLedger(t, s, r.id)
	require.Len(t, ledger, awards)
	sum := map[string]int{}
	for _, le := range ledger {
		sum[le.Player] += le.Points
	}
	require.Equal(t, want, sum, "the ledger sums to the leaderboard's totals")
	// The query docs/tilerace.md gives for the ledger finds exactly the
	// records that hold it.
	marked, err := s.store.FS.Collection("games").Doc(r.id).Collection("events").Where("project", "==", true).Documents(context.Background()).GetAll()
	require.NoError(t, err)
	var got, holders []string
	for _, m := range marked {
		got = append(got, m.Ref.ID)
	}
	for _, le := range ledger {
		if !slices.Contains(holders, le.Event) {
			holders = append(holders, le.Event)
		}
	}
	require.ElementsMatch(t, holders, got, "events where project == true")
	// Team results are not platform player stats.
	players, err := s.store.FS.Collection("players").Documents(context.Background()).GetAll()
	require.NoError(t, err)
	for _, p := range players {
		require.NotContains(t, p.Data(), "stats", "player %s", p.Ref.ID)
	}
}

func TestTileRaceRetriesAndDoubleSubmits(t *testing.T) {
	s := newStack(t)
	r := newRace(t, s, 2, true)
	tm := r.teams[0]
	first := r.completeTile(tm, "c1")
	// The same action id again: the same reply, nothing applied twice.
	tile := int(first["result"].(map[string]any)["tile"].(float64))
	again := r.mustAct(tm.token, "c1", map[string]any{"type": "complete", "tile": tile, "recorded": 0, "players": tm.members[:r.board().Tiles[tile-1].Content.Min], "complete": true})
	require.Equal(t, first, again)
	// A double click with a new action id names a tile the team has left.
	code, out := r.act(tm.token, "c2", map[string]any{"type": "complete", "tile": tile, "recorded": 0, "players": tm.members[:1], "complete": true})
	require.Equal(t, http.StatusConflict, code, "%v", out)
	require.Equal(t, 2, r.team(tm.id).Position)

	// Two concurrent submissions of one completion: exactly one applies.
	t1 := r.team(tm.id)
	body := map[string]any{"type": "complete", "tile": t1.Position, "recorded": 0, "players": tm.members[:r.board().Tiles[t1.Position-1].Content.Min], "complete": true}
	codes := make(chan int, 2)
	for i := range 2 {
		go func() {
			b := map[string]any{"gameId": r.id, "actionId": fmt.Sprintf("dup-%d", i)}
			for k, v := range body {
				b[k] = v
			}
			code, _ := s.post(tm.token, "TileRace", b)
			codes <- code
		}()
	}
	got := []int{<-codes, <-codes}
	require.ElementsMatch(t, []int{http.StatusOK, http.StatusConflict}, got)
	require.Equal(t, t1.Position+1, r.team(tm.id).Position)
	require.Equal(t, t1.Moves+1, r.team(tm.id).Moves)

	// Every award counted once: one ledger entry per award, and the team's
	// points their sum, whatever was retried or submitted twice.
	ledger := raceLedger(t, s, r.id)
	after := r.team(tm.id)
	sum := map[string]int{}
	for _, le := range ledger {
		require.Equal(t, tm.id, le.Team)
		sum[le.Player] += le.Points
	}
	require.Len(t, ledger, after.Awards)
	require.Equal(t, sum, after.Points)
	r.applyEffects()
	require.Equal(t, sum, r.leaderboard().Totals)
}

func TestTileRaceBadRequests(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	r := newRace(t, s, 2, true)
	other := newRace(t, s, 1, true)
	own, foe := r.teams[0], r.teams[1]
	pos := r.team(own.id).Position
	guest := s.guest("Eve")
	for _, tc := range []struct {
		name  string
		token string
		body  map[string]any
		code  int
		want  string
		msg   string
	}{
		{"no token", "", map[string]any{"type": "complete", "tile": pos, "players": []string{"Cap1"}}, 401, "unauthenticated", "bearer"},
		{"guest", guest.Token, map[string]any{"type": "complete", "team": own.id, "tile": pos, "players": []string{"Cap1"}}, 403, "permission_denied", ""},
		{"another team's tile", own.token, map[string]any{"type": "complete", "team": foe.id, "tile": pos, "players": []string{"Cap2"}}, 403, "permission_denied", ""},
		{"team of another game", other.teams[0].token, map[string]any{"type": "complete", "tile": pos, "players": []string{"Cap1"}}, 403, "permission_denied", ""},
		{"wrong tile", own.token, map[string]any{"type": "complete", "tile": pos + 1, "players": []string{"Cap1"}}, 409, "failed_precondition", "tile"},
		{"stale count", own.token, map[string]any{"type": "complete", "tile": pos, "recorded": 3, "players": []string{"Cap1"}}, 409, "failed_precondition", ""},
		{"not a member", own.token, map[string]any{"type": "complete", "tile": pos, "players": []string{"Zezima"}}, 400, "invalid_argument", "Zezima"},
		{"nothing to do", own.token, map[string]any{"type": "complete", "tile": pos}, 400, "invalid_argument", ""},
		{"players not a list", own.token, map[string]any{"type": "complete", "tile": pos, "players": "Cap1"}, 400, "invalid_argument", "players"},
		{"unknown type", own.token, map[string]any{"type": "teleport"}, 400, "invalid_argument", "teleport"},
		{"admin action by a team", own.token, map[string]any{"type": "moveTeam", "team": own.id, "to": 50}, 403, "permission_denied", ""},
		{"admins by a regular admin", r.admin, map[string]any{"type": "addAdmin", "id": "x", "name": "X", "password": "long-enough"}, 403, "permission_denied", ""},
		{"team without password", r.admin, map[string]any{"type": "createTeam", "name": "New", "members": []string{"A"}}, 400, "invalid_argument", "password"},
		{"short password", r.admin, map[string]any{"type": "createTeam", "name": "New", "members": []string{"A"}, "password": "ab"}, 400, "invalid_argument", "password"},
		{"unknown team", r.admin, map[string]any{"type": "moveTeam", "team": "t-nope", "to": 3}, 404, "not_found", ""},
		{"unknown powerup tile", own.token, map[string]any{"type": "claimPowerupTile", "powerupTile": "pt-99", "players": []string{"Cap1"}}, 404, "not_found", ""},
		{"bad import", r.admin, map[string]any{"type": "importTasks", "data": "Fish,4\nBake,2,0\n"}, 400, "invalid_argument", "line"},
		{"randomise after start", r.admin, map[string]any{"type": "randomiseTiles"}, 409, "failed_precondition", ""},
		{"no game", own.token, map[string]any{"gameId": "", "type": "complete"}, 400, "invalid_argument", "gameId"},
		{"unknown game: the session is for another one", own.token, map[string]any{"gameId": "nope", "type": "complete", "tile": 1}, 403, "permission_denied", "another game"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			events := func() int {
				recs, err := s.store.Events(context.Background(), r.id)
				require.NoError(t, err)
				return len(recs)
			}
			before := []any{r.game(), r.team(own.id), r.team(foe.id), r.board(), events()}
			code, out := r.act(tc.token, "bad-"+tc.name, tc.body)
			require.Equal(t, tc.code, code, "%v", out)
			require.Equal(t, tc.want, errCode(out))
			require.Contains(t, out["error"].(map[string]any)["message"], tc.msg)
			require.Equal(t, before, []any{r.game(), r.team(own.id), r.team(foe.id), r.board(), events()}, "nothing changed, nothing logged")
		})
	}
	t.Run("import problems are all listed", func(t *testing.T) {
		_, out := r.act(r.admin, "imp", map[string]any{"type": "importTasks", "data": "Fish,4\nBake,2,0\nOk,1\n"})
		details := out["error"].(map[string]any)["details"].(map[string]any)
		require.EqualValues(t, 2, details["total"])
	})
	t.Run("body too large", func(t *testing.T) {
		code, out := r.act(r.admin, "big", map[string]any{"type": "importTasks", "data": strings.Repeat("x", games.MaxUploadBody)})
		require.Equal(t, http.StatusRequestEntityTooLarge, code, "%v", out)
	})
	t.Run("wrong passwords", func(t *testing.T) {
		for _, body := range []map[string]any{
			{"type": "teamLogin", "gameId": r.id, "team": own.name, "password": "nope"},
			{"type": "teamLogin", "gameId": r.id, "team": "Team 9", "password": "pw-team-1"},
			{"type": "teamLogin", "gameId": other.id, "team": own.name, "password": "pw-team-2"},
			{"type": "adminLogin", "gameId": r.id, "admin": "Ada", "password": "master-pass"},
		} {
			code, out := s.post("", "Auth", body)
			require.Equal(t, http.StatusUnauthorized, code, "%v: %v", body, out)
		}
	})
	t.Run("wrong team passwords slow their address down, not the team", func(t *testing.T) {
		login := func(source, pw string) int {
			code, _ := s.postFrom(source, "", "Auth", map[string]any{"type": "teamLogin", "gameId": r.id, "team": foe.name, "password": pw})
			return code
		}
		for range store.FreeFailures {
			require.Equal(t, http.StatusUnauthorized, login("203.0.113.5", "wrong"))
		}
		require.Equal(t, http.StatusTooManyRequests, login("203.0.113.5", "pw-team-2"), "that address waits, even with the right password")
		require.Equal(t, http.StatusOK, login("198.51.100.5", "pw-team-2"), "the team signs in from its own address")
		s.advance(16 * time.Minute)
		require.Equal(t, http.StatusOK, login("203.0.113.5", "pw-team-2"))
	})
}

// TestTileRaceFrontierInTheCompletion: a completion raises the fog frontier
// in its own commit — revealed at the reply, its tilesRevealed event in the
// completion's own record, nothing left pending — and teams completing at
// once (each on the condition that the public board is unchanged since it
// read it) leave the frontier where the furthest of them took it, every
// reveal recorded once, in order.
func TestTileRaceFrontierInTheCompletion(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	r := newRace(t, s, 4, true)
	ctx := context.Background()
	require.Equal(t, 6, r.board().RevealedUpTo)

	out := r.completeTile(r.teams[0], "c1")
	require.Equal(t, 7, r.board().RevealedUpTo, "raised at the reply")
	r.checkFog()
	var revealed []any
	for _, ev := range out["events"].([]any) {
		if e := ev.(map[string]any); e["type"] == tilerace.EventTilesRevealed {
			revealed = append(revealed, e["data"])
		}
	}
	require.Equal(t, []any{map[string]any{"from": float64(7), "to": float64(7)}}, revealed, "the completion's own events say so")
	rec := domain.ScopedID(r.id, r.teams[0].id) + "~c1"
	snap, err := s.store.FS.Doc("games/" + r.id + "/events/" + rec).Get(ctx)
	require.NoError(t, err)
	require.Equal(t, false, snap.Data()["pending"], "nothing left for the effects")
	require.Zero(t, r.applyEffects(), "no pending record")

	// Rounds of every team completing at once.
	for round := 0; round < 4; round++ {
		type done struct {
			code int
			out  map[string]any
		}
		results := make([]done, len(r.teams))
		bodies := make([]map[string]any, len(r.teams))
		for i, tm := range r.teams {
			tt := r.team(tm.id)
			tile := r.board().Tiles[tt.Position-1]
			require.NotNil(t, tile.Content)
			bodies[i] = map[string]any{"type": "complete", "tile": tt.Position, "recorded": len(tt.Progress), "players": tm.members[:tile.Content.Min], "complete": true}
		}
		var wg sync.WaitGroup
		for i, tm := range r.teams {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, out := r.act(tm.token, fmt.Sprintf("r%d", round), bodies[i])
				results[i] = done{code, out}
			}()
		}
		wg.Wait()
		furthest := 0
		for i, res := range results {
			require.Equal(t, http.StatusOK, res.code, "team %d: %v", i, res.out)
			furthest = max(furthest, r.team(r.teams[i].id).Position)
		}
		require.Equal(t, tilerace.RevealUpTo(furthest), r.board().RevealedUpTo, "round %d: the furthest team's frontier", round)
		r.checkFog()
	}
	// Every reveal is in one completion's record, each further than the last.
	recs, err := s.store.Events(ctx, r.id)
	require.NoError(t, err)
	last := 6
	for _, rec := range recs {
		for _, ev := range rec.Events {
			if ev.Type != tilerace.EventTilesRevealed {
				continue
			}
			require.Equal(t, "complete", rec.Type, "revealed by a completion")
			d := ev.Data.(map[string]any)
			from, to := int(d["from"].(float64)), int(d["to"].(float64))
			require.Equal(t, last+1, from, "reveals follow each other: %v", d)
			require.Greater(t, to, last)
			last = to
		}
	}
	require.Equal(t, r.board().RevealedUpTo, last)

	// The game document never carries the frontier.
	doc, err := s.store.GameDoc(ctx, r.id)
	require.NoError(t, err)
	require.NotContains(t, doc["state"], "revealedUpTo")
}

// TestTileRaceFirebaseUID: team and admin Firebase uids name their game, so
// two games' master admins are two Firebase users.
func TestTileRaceFirebaseUID(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	a, b := newRace(t, s, 1, false), newRace(t, s, 1, false)
	for _, r := range []*race{a, b} {
		code, out := s.post("", "Auth", map[string]any{"type": "adminLogin", "gameId": r.id, "admin": "master", "password": "master-pass"})
		require.Equal(t, http.StatusOK, code, "%v", out)
		require.Equal(t, r.id+":master", out["player"].(map[string]any)["id"], "actor ids are unique across games")
		parts := strings.Split(out["firebaseToken"].(string), ".")
		raw, err := base64.RawURLEncoding.DecodeString(parts[1])
		require.NoError(t, err)
		var claims map[string]any
		require.NoError(t, json.Unmarshal(raw, &claims))
		require.Equal(t, r.id+":master", claims["sub"])
		require.Equal(t, "master", claims["role"])
		require.Equal(t, r.id, claims["game"])
	}
}

// A completion reads the game, its team and the public board (its tile's
// content is there), and the private board only when it lifts the fog; it
// writes its team, its history entry (with its action record) and its event
// record (with the projection's mark; its events are the ledger's entries),
// and the public board when it lifts the fog (issue 22).
func TestTileRaceCompletionDocuments(t *testing.T) {
	s, c := countedStack(t)
	r := newRace(t, s, 2, true)
	body := func(tm raceTeam) map[string]any {
		tt := r.team(tm.id)
		tile := r.board().Tiles[tt.Position-1]
		return map[string]any{"type": "complete", "tile": tt.Position, "recorded": len(tt.Progress), "players": tm.members[:tile.Content.Min], "complete": true}
	}
	cost := func(tm raceTeam, id string) (reads, writes int64, lifted bool) {
		t.Helper()
		b := body(tm)
		before := r.board().RevealedUpTo
		r0, w0 := c.Counts()
		r.mustAct(tm.token, id, b)
		r1, w1 := c.Counts()
		return r1 - r0, w1 - w0, r.board().RevealedUpTo > before
	}
	tests := []struct {
		name          string
		team          raceTeam
		reads, writes int64
		lifts         bool
	}{
		{"the first to reach tile 2 lifts the fog", r.teams[0], 4, 4, true},
		{"the second to reach it does not", r.teams[1], 3, 3, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reads, writes, lifted := cost(tc.team, "c-"+tc.team.id)
			require.Equal(t, tc.lifts, lifted)
			require.Equal(t, tc.reads, reads, "documents read")
			require.Equal(t, tc.writes, writes, "documents written")
		})
	}
	// The tiles the teams stand on stay the private board's: same label.
	var bd tilerace.BoardDoc
	r.doc("private/board", &bd)
	for _, tm := range r.teams {
		pos := r.team(tm.id).Position
		require.Equal(t, bd.Board.Tiles[pos-1].Label, r.board().Tiles[pos-1].Content.Label)
	}
}

// raceLedger is race gameID's points ledger: the entries its event records
// hold (tilerace.LedgerOf), in the records' order.
func raceLedger(t *testing.T, s *stack, gameID string) []tilerace.LedgerEntry {
	t.Helper()
	recs, err := s.store.Events(context.Background(), gameID)
	require.NoError(t, err)
	var out []tilerace.LedgerEntry
	for _, rec := range recs {
		entries, err := tilerace.LedgerOf(rec.ID, rec.Events)
		require.NoError(t, err, "record %s", rec.ID)
		out = append(out, entries...)
	}
	return out
}
