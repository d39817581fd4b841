package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/store"
)

// undoCounters are the fields undo keeps at their current values (they only
// grow), by document.
var undoCounters = map[string][]string{
	"teams/":        {"awards", "moves", "gen", "reversed"},
	"game":          {"state.nextGen", "state.nextPowerupTile"},
	"private/pools": {"pools.nextId"},
	"private/board": {"version"},
}

// unpackedData is a stored document's fields with its packed fields
// (domain.Slot.Packed, the game's state) parsed, so a test can look into them.
func unpackedData(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	out, err := store.Unpacked(m)
	require.NoError(t, err)
	return out
}

// state reads every document of the race an undo may restore, whole, as
// stored: all but the history, the event log, the action records, the
// points (checked on their own) and the seed. The store's updatedAt and the
// game's version (it only grows) and seed (once revealed, revealed) are left
// out, and so are the counters, returned apart.
func (r *race) state() (map[string]map[string]any, map[string]float64) {
	r.s.t.Helper()
	ctx := context.Background()
	out := map[string]map[string]any{}
	g := r.s.store.FS.Collection("games").Doc(r.id)
	snap, err := g.Get(ctx)
	require.NoError(r.s.t, err)
	m := unpackedData(r.s.t, snap.Data())
	delete(m, "version")
	delete(m, "seed")
	out["game"] = m
	for _, coll := range []string{"teams", "powerupTiles", "public", "private"} {
		docs, err := g.Collection(coll).Documents(ctx).GetAll()
		require.NoError(r.s.t, err)
		for _, d := range docs {
			if d.Ref.ID == "leaderboard" || d.Ref.ID == "server" {
				continue
			}
			out[coll+"/"+d.Ref.ID] = unpackedData(r.s.t, d.Data())
		}
	}
	counters := map[string]float64{}
	for path, m := range out {
		delete(m, "updatedAt")
		for prefix, fields := range undoCounters {
			if !strings.HasPrefix(path, prefix) {
				continue
			}
			for _, f := range fields {
				parent, leaf := m, f
				if head, rest, ok := strings.Cut(f, "."); ok {
					parent, _ = m[head].(map[string]any)
					leaf = rest
				}
				if parent != nil {
					switch v := parent[leaf].(type) {
					case int64:
						counters[path+"."+f] = float64(v)
					case float64: // from a packed field's JSON
						counters[path+"."+f] = v
					}
					delete(parent, leaf)
				}
			}
		}
	}
	return out, counters
}

func (r *race) leaderboard() tilerace.RaceLeaderboard {
	var lb tilerace.RaceLeaderboard
	r.doc("public/leaderboard", &lb)
	return lb
}

// requireRestored checks that an undo put every document back (counters
// aside, which must not have gone down) and the leaderboard with it.
func (r *race) requireRestored(before map[string]map[string]any, counters map[string]float64, lb tilerace.RaceLeaderboard, skipPublic bool) {
	t := r.s.t
	t.Helper()
	after, now := r.state()
	if skipPublic {
		// A completion or a move raised the fog frontier; revealed tiles
		// stay revealed after the undo.
		require.GreaterOrEqual(t, after["public/board"]["revealedUpTo"], before["public/board"]["revealedUpTo"])
		delete(after, "public/board")
		before = copyState(before)
		delete(before, "public/board")
	}
	require.Equal(t, before, after, "undo restores every document")
	for k, v := range counters {
		if w, ok := now[k]; ok {
			require.GreaterOrEqual(t, w, v, "%s never goes down", k)
		}
	}
	got := r.leaderboard()
	require.Equal(t, lb.Totals, got.Totals, "totals")
	require.Equal(t, lb.Top, got.Top, "top 10")
}

func copyState(m map[string]map[string]any) map[string]map[string]any {
	out := make(map[string]map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Undo after every kind of state-changing action, through the functions
// against the emulator: every document and the points are as before.
func TestTileRaceUndoEveryAction(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	r := newRace(t, s, 2, true)
	t0, t1 := r.teams[0], r.teams[1]
	tile := func(n int) *tilerace.TileView { return r.board().Tiles[n-1].Content }
	cases := []struct {
		name  string
		token func() string
		body  func() map[string]any
		moves bool // raises the fog frontier
	}{
		{"complete", func() string { return t0.token }, func() map[string]any {
			tm := r.team(t0.id)
			return map[string]any{"type": "complete", "tile": tm.Position, "recorded": 0, "players": t0.members[:tile(tm.Position).Min], "complete": true}
		}, true},
		{"record", func() string { return t1.token }, func() map[string]any {
			return map[string]any{"type": "complete", "tile": r.team(t1.id).Position, "recorded": 0, "players": t1.members[:1]}
		}, false},
		{"complete for a team", func() string { return r.admin }, func() map[string]any {
			tm := r.team(t1.id)
			return map[string]any{"type": "complete", "team": t1.id, "tile": tm.Position, "recorded": 0, "players": t1.members[:tile(tm.Position).Min], "complete": true}
		}, true},
		{"claim", func() string { return t0.token }, func() map[string]any {
			return map[string]any{"type": "claimPowerupTile", "powerupTile": "pt-1", "claims": 0, "players": []string{"Cap1", "Bo1"}}
		}, false},
		{"claim first team", func() string { return t1.token }, func() map[string]any {
			return map[string]any{"type": "claimPowerupTile", "powerupTile": "pt-2", "claims": 0, "players": []string{"Cap2"}}
		}, false},
		{"move", func() string { return r.admin }, func() map[string]any { return map[string]any{"type": "moveTeam", "team": t0.id, "to": 9} }, true},
		{"grant", func() string { return r.admin }, func() map[string]any {
			return map[string]any{"type": "grantPowerup", "team": t0.id, "powerup": "skip2"}
		}, false},
		{"cooldown", func() string { return r.admin }, func() map[string]any { return map[string]any{"type": "setCooldown", "team": t0.id, "cooldown": true} }, false},
		{"edit visible tile", func() string { return r.admin }, func() map[string]any {
			return map[string]any{"type": "editTile", "tile": 2, "label": "Fish", "difficulty": tile(2).Difficulty, "min": 1, "max": 1}
		}, false},
		{"edit hidden tile", func() string { return r.master }, func() map[string]any {
			return map[string]any{"type": "editTile", "tile": 40, "label": "Secret", "difficulty": 3, "min": 1, "max": 1}
		}, false},
		{"create powerup tile", func() string { return r.admin }, func() map[string]any {
			return map[string]any{"type": "createPowerupTile", "label": "Boss", "points": 150, "min": 1, "max": 2, "claim": "firstTeam", "reward": "skip2"}
		}, false},
		{"edit powerup tile", func() string { return r.admin }, func() map[string]any {
			return map[string]any{"type": "editPowerupTile", "powerupTile": "pt-1", "label": "Boss", "points": 150, "min": 1, "max": 2, "claim": "eachTeam", "reward": "skip2"}
		}, false},
		{"remove powerup tile", func() string { return r.admin }, func() map[string]any { return map[string]any{"type": "removePowerupTile", "powerupTile": "pt-2"} }, false},
		{"clear powerup tiles", func() string { return r.admin }, func() map[string]any { return map[string]any{"type": "clearPowerupTiles"} }, false},
		{"import powerup tiles", func() string { return r.admin }, func() map[string]any {
			return map[string]any{"type": "importPowerupTiles", "data": "skip3,Raid,1,1,1,unlimited\n"}
		}, false},
		{"import tasks", func() string { return r.admin }, func() map[string]any { return map[string]any{"type": "importTasks", "data": "Chop,easy,1,1\n"} }, false},
		{"add pool task", func() string { return r.admin }, func() map[string]any {
			return map[string]any{"type": "addPoolTask", "label": "Mine", "difficulty": 2, "min": 1, "max": 1}
		}, false},
		{"clear pools", func() string { return r.admin }, func() map[string]any { return map[string]any{"type": "clearPools"} }, false},
		{"settings", func() string { return r.admin }, func() map[string]any { return map[string]any{"type": "setSettings", "reserve": 5} }, false},
		{"fog off for all", func() string { return r.admin }, func() map[string]any { return map[string]any{"type": "setFog", "mode": "all"} }, false},
		{"add admin", func() string { return r.master }, func() map[string]any {
			return map[string]any{"type": "addAdmin", "id": "bo", "name": "Bo", "password": "bo-password"}
		}, false},
		{"remove admin", func() string { return r.master }, func() map[string]any { return map[string]any{"type": "removeAdmin", "id": "ada"} }, false},
		{"create team", func() string { return r.admin }, func() map[string]any {
			return map[string]any{"type": "createTeam", "name": "Late", "members": []string{"Zed"}, "password": "pw-late"}
		}, false},
		{"update team", func() string { return r.admin }, func() map[string]any {
			return map[string]any{"type": "updateTeam", "team": t1.id, "name": "Gold", "members": []string{"Cap2", "Bo2"}}
		}, false},
		{"remove team", func() string { return r.admin }, func() map[string]any { return map[string]any{"type": "removeTeam", "team": t1.id} }, false},
		{"reset", func() string { return r.master }, func() map[string]any { return map[string]any{"type": "reset"} }, true},
	}
	// Some progress first, so a reset has something to undo.
	r.completeTile(t0, "warm-up")
	r.applyEffects()
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s.advance(time.Second)
			before, counters := r.state()
			lb := r.leaderboard()
			out := r.mustAct(tc.token(), fmt.Sprint("act-", i), tc.body())
			awards := 0
			for _, ev := range out["events"].([]any) {
				if ev.(map[string]any)["type"] == tilerace.EventPointsAwarded {
					awards++
				}
			}
			r.applyEffects()
			mid, _ := r.state()
			require.NotEqual(t, before, mid, "the action changed something")
			s.advance(time.Second)
			undo := r.mustAct(r.master, fmt.Sprint("undo-", i), map[string]any{"type": "undo"})
			res := undo["result"].(map[string]any)
			require.Len(t, res["undone"], 1)
			require.Equal(t, tc.body()["type"], res["undone"].([]any)[0].(map[string]any)["type"])
			require.EqualValues(t, awards, res["reversed"])
			r.applyEffects()
			r.requireRestored(before, counters, lb, tc.moves)
		})
	}
}

// The points of undone actions are taken back with their teams' documents
// and compensating ledger entries (the undo's record's pointsReversed
// events), in the undo's own commit, also when an
// earlier undo already changed the leaderboard, and before any effect ran.
func TestTileRaceUndoPoints(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	r := newRace(t, s, 3, true)
	ctx := context.Background()
	base := r.leaderboard()
	baseState, baseCounters := r.state()
	step := func() { s.advance(time.Second) }

	// Three completions by two teams and a claim, each applied.
	step()
	r.completeTile(r.teams[0], "c1")
	step()
	r.completeTile(r.teams[1], "c2")
	step()
	r.mustAct(r.teams[0].token, "claim", map[string]any{"type": "claimPowerupTile", "powerupTile": "pt-1", "claims": 0, "players": []string{"Cap1", "Bo1"}})
	step()
	r.completeTile(r.teams[0], "c3")
	r.applyEffects()
	require.NotEqual(t, base.Totals, r.leaderboard().Totals)

	// undo: the last completion.
	step()
	out := r.mustAct(r.admin, "u1", map[string]any{"type": "undo"})
	res := out["result"].(map[string]any)
	reversed := res["reversed"].(float64)
	require.Equal(t, []any{r.teams[0].id}, res["teams"])
	require.Equal(t, []any{"Team 1"}, res["teamNames"])
	r.applyEffects()
	// undoTo the first completion: the claim and c2 and c1, on a leaderboard
	// the first undo already changed.
	step()
	out = r.mustAct(r.admin, "u2", map[string]any{"type": "undoTo", "to": r.teams[0].actor(r) + "~c1"})
	res = out["result"].(map[string]any)
	reversed += res["reversed"].(float64)
	require.Len(t, res["undone"], 3)
	require.ElementsMatch(t, []any{r.teams[0].id, r.teams[1].id}, res["teams"])
	r.applyEffects()
	r.requireRestored(baseState, baseCounters, base, true)
	lb := r.leaderboard()
	require.EqualValues(t, reversed, lb.Reversed, "one compensating entry per award")
	require.GreaterOrEqual(t, lb.Reversed, 5, "c3, the claim's 2, c2, c1")

	// The log says so: one undone event naming the admin and the teams.
	recs, err := s.store.Events(ctx, r.id)
	require.NoError(t, err)
	// The undo's record, the last of the admin's (an effect's follow-up,
	// such as a fog raise the trigger applied late, may come after it).
	i := len(recs) - 1
	for i > 0 && recs[i].Type != "undoTo" {
		i--
	}
	last := recs[i]
	require.Equal(t, "undoTo", last.Type)
	require.Equal(t, tilerace.EventUndone, last.Events[0].Type)
	d := last.Events[0].Data.(map[string]any)
	require.Equal(t, "Ada", d["by"])
	require.Len(t, d["actions"], 3)

	// A completion undone before any of its effects ran: the award and its
	// reversal are in the ledger at the replies, the team's points are back
	// at once, and the leaderboard is after the tick.
	step()
	t2 := r.team(r.teams[2].id)
	c4 := r.completeTile(r.teams[2], "c4")
	keys := awardKeys(c4)
	require.NotEmpty(t, keys)
	book := func() map[string]tilerace.LedgerEntry {
		out := map[string]tilerace.LedgerEntry{}
		for _, le := range raceLedger(t, s, r.id) {
			out[le.Key] = le
		}
		return out
	}
	for _, k := range keys {
		le := book()[k]
		require.Positive(t, le.Points, "%s is in the ledger at the reply", k)
		require.Equal(t, r.teams[2].actor(r)+"~c4", le.Event)
	}
	require.NotEqual(t, t2.Points, r.team(r.teams[2].id).Points, "the points are on the team at the reply")
	step()
	u3 := r.mustAct(r.admin, "u3", map[string]any{"type": "undo"})
	require.EqualValues(t, len(keys), u3["result"].(map[string]any)["reversed"])
	adminID := r.id + ":ada"
	for _, k := range keys {
		le := book()[tilerace.ReversalKey(k)]
		require.Equal(t, k, le.Reverses, "%s is taken back at the undo's reply", k)
		require.Equal(t, adminID+"~u3", le.Event)
	}
	after := r.team(r.teams[2].id)
	require.Equal(t, t2.Points, after.Points, "the team's points are back at the undo's reply")
	require.Equal(t, t2.Reversed+len(keys), after.Reversed)
	// The undo's record has no effects to run: the undo wrote the
	// reversals and the team's points, and marked the race for the
	// leaderboard's projection pass, in its own commit.
	applied, err := s.store.ApplyEffects(ctx, r.id, adminID+"~u3")
	require.NoError(t, err)
	require.False(t, applied, "nothing pending on the undo's record")
	undoRec, err := s.store.FS.Doc("games/" + r.id + "/events/" + adminID + "~u3").Get(ctx)
	require.NoError(t, err)
	require.IsType(t, time.Time{}, undoRec.Data()["projectAt"], "the undo marked the race for the projection pass")
	applied, err = s.store.ApplyEffects(ctx, r.id, r.teams[2].actor(r)+"~c4")
	require.NoError(t, err)
	require.False(t, applied, "nor on the completion's: it raised the frontier and marked the race itself")
	r.applyEffects()
	require.Equal(t, base.Totals, r.leaderboard().Totals)
	require.Equal(t, base.Top, r.leaderboard().Top)
	// Redelivery changes nothing.
	for _, id := range []string{adminID + "~u3", adminID + "~u2"} {
		applied, err = s.store.ApplyEffects(ctx, r.id, id)
		require.NoError(t, err)
		require.False(t, applied)
	}
	// The ledger: every award and its reversal, summing to nothing, each
	// award taken back once.
	sum, taken := 0, map[string]bool{}
	for _, le := range raceLedger(t, s, r.id) {
		sum += le.Points
		if le.Points < 0 {
			require.Equal(t, tilerace.ReversalKey(le.Reverses), le.Key)
			require.Equal(t, "Ada", le.By)
			require.False(t, taken[le.Reverses], "%s taken back twice", le.Reverses)
			taken[le.Reverses] = true
		}
	}
	require.Zero(t, sum)
	require.EqualValues(t, lb.Reversed+len(keys), len(taken))
}

func (tm raceTeam) actor(r *race) string { return r.id + ":" + tm.id }

// A document an undone action changed that a concurrent action changed
// since is never overwritten: 409 naming it, nothing written. Undo after a
// win puts the race back on.
func TestTileRaceUndoConflictAndWin(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	r := newRace(t, s, 2, true)
	tm := r.teams[0]
	s.advance(10 * time.Second)
	r.mustAct(r.admin, "grant", map[string]any{"type": "grantPowerup", "team": tm.id, "powerup": "skip1"})
	// A completion whose transaction began before the grant but committed
	// after it: its history entry sorts before the grant's.
	s.advance(-5 * time.Second)
	r.completeTile(tm, "c1")
	s.advance(10 * time.Second)
	before, _ := r.state()
	code, out := r.act(r.master, "u1", map[string]any{"type": "undo"})
	require.Equal(t, http.StatusConflict, code, "%v", out)
	require.Equal(t, "failed_precondition", errCode(out))
	require.Contains(t, out["error"].(map[string]any)["message"], "team "+tm.id+" has changed since")
	after, _ := r.state()
	require.Equal(t, before, after, "nothing written")
	// Undoing both (the completion is the earlier entry) works.
	r.mustAct(r.master, "u2", map[string]any{"type": "undoTo", "to": tm.actor(r) + "~c1"})
	require.Equal(t, 1, r.team(tm.id).Position)
	require.Empty(t, r.team(tm.id).Inventory)

	// A win, undone.
	s.advance(time.Second)
	r.mustAct(r.admin, "to-end", map[string]any{"type": "moveTeam", "team": tm.id, "to": tilerace.NumTiles})
	s.advance(time.Second)
	before, counters := r.state()
	lb := r.leaderboard()
	win := r.completeTile(tm, "win")
	require.Equal(t, true, win["result"].(map[string]any)["won"])
	require.Equal(t, tilerace.StatusFinished, r.game().Status)
	r.applyEffects()
	s.advance(time.Second)
	r.mustAct(r.admin, "unwin", map[string]any{"type": "undo"})
	r.applyEffects()
	r.requireRestored(before, counters, lb, true)
	g := r.game()
	require.Equal(t, tilerace.StatusActive, g.Status)
	require.Empty(t, g.Winner)
	doc, err := s.store.GameDoc(context.Background(), r.id)
	require.NoError(t, err)
	require.Equal(t, "active", doc["status"])
	r.completeTile(r.teams[1], "after")
}

// The event log (ruling 21): one entry per successful action with a unique
// id, a time, the actor and the admin who acted for a team; clients read
// the last 50 with one query; no entry carries a hidden tile's content;
// refused actions write nothing.
func TestTileRaceEventLog(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	r := newRace(t, s, 2, true)
	ctx := context.Background()
	events := s.store.FS.Collection("games").Doc(r.id).Collection("events")
	count := func() int {
		all, err := events.Documents(ctx).GetAll()
		require.NoError(t, err)
		return len(all)
	}
	n := count()
	// Refused: a stale completion, an unknown team, a team doing admin work.
	for i, body := range []map[string]any{
		{"type": "complete", "tile": 9, "recorded": 0, "players": []string{"Cap1"}},
		{"type": "moveTeam", "team": "t-nope", "to": 3},
		{"type": "undoTo", "to": "nope"},
	} {
		code, _ := r.act(r.teams[0].token, fmt.Sprint("bad-", i), body)
		require.NotEqual(t, http.StatusOK, code)
	}
	code, _ := r.act(r.admin, "bad-undo", map[string]any{"type": "undoTo", "to": "nope"})
	require.Equal(t, http.StatusNotFound, code)
	require.Equal(t, n, count(), "refused actions write nothing")

	// 60 more entries: completions, admin moves, completions for a team,
	// tile edits, hidden and visible.
	for i := 0; i < 60; i++ {
		s.advance(time.Second)
		switch i % 4 {
		case 0:
			r.completeTile(r.teams[i%2], fmt.Sprint("c", i))
		case 1:
			r.mustAct(r.admin, fmt.Sprint("m", i), map[string]any{"type": "moveTeam", "team": r.teams[1].id, "to": 1 + i%5})
		case 2:
			tm := r.teams[0]
			pos := r.team(tm.id).Position
			r.mustAct(r.admin, fmt.Sprint("f", i), map[string]any{"type": "complete", "team": tm.id, "tile": pos, "recorded": 0,
				"players": tm.members[:r.board().Tiles[pos-1].Content.Min], "complete": true})
		case 3:
			r.mustAct(r.admin, fmt.Sprint("e", i), map[string]any{"type": "editTile", "tile": 30 + i%20, "label": fmt.Sprint("Hidden label ", i), "difficulty": 3, "min": 1, "max": 1})
		}
	}
	r.applyEffects()
	// The query a client runs (orderBy at desc, limit 50: a single-field
	// index, no composite one; firestore.rules lets any signed-in caller).
	snaps, err := events.OrderBy("at", firestore.Desc).Limit(50).Documents(ctx).GetAll()
	require.NoError(t, err)
	require.Len(t, snaps, 50)
	ids := map[string]bool{}
	var prev time.Time
	hidden := map[string]bool{}
	var bd tilerace.BoardDoc
	r.doc("private/board", &bd)
	for _, tl := range bd.Board.Tiles {
		if tl.N > r.board().RevealedUpTo {
			hidden[tl.Label] = true
		}
	}
	require.NotEmpty(t, hidden)
	for i, snap := range snaps {
		require.False(t, ids[snap.Ref.ID], "unique ids")
		ids[snap.Ref.ID] = true
		at := snap.Data()["at"].(time.Time)
		if i > 0 {
			require.False(t, at.After(prev), "newest first")
		}
		prev = at
		actor := snap.Data()["actor"].(map[string]any)
		require.NotEmpty(t, actor["id"])
		b, _ := json.Marshal(snap.Data()["events"])
		for label := range hidden {
			require.NotContains(t, string(b), `"`+label+`"`, "entry %s shows a hidden tile", snap.Ref.ID)
		}
		if actor["role"] == "admin" {
			for _, ev := range snap.Data()["events"].([]any) {
				d, _ := ev.(map[string]any)["data"].(map[string]any)
				if d != nil {
					if _, ok := d["by"]; ok {
						require.Equal(t, "Ada", d["by"], "admin attribution in %s", snap.Ref.ID)
					}
				}
			}
		}
	}
}

// awardKeys are the ledger keys of the points a reply awards.
func awardKeys(reply map[string]any) []string {
	var keys []string
	for _, ev := range reply["events"].([]any) {
		e := ev.(map[string]any)
		if e["type"] == tilerace.EventPointsAwarded {
			keys = append(keys, e["data"].(map[string]any)["key"].(string))
		}
	}
	return keys
}

// A Tile Race action that keeps an undo history entry keeps its idempotency
// record in it (the platform's "act", store/record.go), not in actions/: a
// retry still gets the first reply, also once the action is undone (the entry
// is then a stub holding the record alone), and never applies twice.
func TestTileRaceRecordInHistory(t *testing.T) {
	s := newStack(t)
	r := newRace(t, s, 1, true)
	tm := r.teams[0]
	ctx := context.Background()
	key := tm.actor(r) + "~c1"
	entry := func() map[string]any {
		t.Helper()
		snap, err := s.store.FS.Doc("games/" + r.id + "/history/" + key).Get(ctx)
		require.NoError(t, err)
		return snap.Data()
	}

	tile := r.team(tm.id).Position
	body := map[string]any{"type": "complete", "tile": tile, "recorded": 0, "players": tm.members[:r.board().Tiles[tile-1].Content.Min], "complete": true}
	first := r.mustAct(tm.token, "c1", body)
	_, err := s.store.FS.Doc("games/" + r.id + "/actions/" + key).Get(ctx)
	require.Equal(t, codes.NotFound, status.Code(err), "no action record of its own: %v", err)
	e := entry()
	act, ok := e["act"].(map[string]any)
	require.True(t, ok, "the history entry holds the record: %v", e)
	require.Equal(t, "complete", act["type"])
	require.NotEmpty(t, act["hash"])
	require.NotEmpty(t, e["order"], "a live entry is ordered (undo finds it)")

	again := r.mustAct(tm.token, "c1", body)
	require.Equal(t, first, again, "a retry gets the first reply")
	require.Equal(t, tile+1, r.team(tm.id).Position)

	r.mustAct(r.admin, "u1", map[string]any{"type": "undo"})
	require.Equal(t, tile, r.team(tm.id).Position, "the undo put the team back")
	// An undo keeps no history entry: its record rides in its own event
	// record (domain.Plan.RecordInEvent), TestTileRaceUndoRecordInEvent.
	_, err = s.store.FS.Doc("games/" + r.id + "/actions/" + r.id + ":ada~u1").Get(ctx)
	require.Equal(t, codes.NotFound, status.Code(err), "the undo keeps no action record of its own: %v", err)
	e = entry()
	require.Contains(t, e, "act", "the undone entry keeps the record")
	require.NotContains(t, e, "order", "the undone entry is out of undo's reach")
	require.NotContains(t, e, "docs")

	undone := r.team(tm.id)
	again = r.mustAct(tm.token, "c1", body)
	require.Equal(t, first, again, "a retry of the undone action gets its first reply")
	require.Equal(t, undone, r.team(tm.id), "and does not apply again")

	code, out := r.act(tm.token, "c1", map[string]any{"type": "complete", "tile": tile, "recorded": 0, "players": tm.members[:1], "complete": false})
	require.Equal(t, http.StatusConflict, code, "%v", out)
	require.Equal(t, domain.EEXISTS, errCode(out), "the action id was used for another request")

	// A second undo does not find the stub: it goes for an action before
	// (here the race's setup, which later actions changed: refused).
	_, u2 := r.act(r.admin, "u2", map[string]any{"type": "undo"})
	res, _ := json.Marshal(u2)
	require.NotContains(t, string(res), key, "the stub is not undone again")
	require.NotContains(t, string(res), "complete", "the stub is not undone again")
	require.Equal(t, undone, r.team(tm.id))
}

// An undo's reply is its "undone" event, so its idempotency record rides in
// its own event record, which every reader of the race's events already
// reads (domain.Plan.RecordInEvent): the undo of one completion writes the
// team back, the history entry's stub and its event record (which holds
// the award's reversal, the ledger's compensating entry) — 3 documents, no
// action record (issue 22). A retry gets the first
// reply and undoes nothing more, both when the undo would now be refused
// and when it would undo another action; the same id for another request
// is refused.
func TestTileRaceUndoRecordInEvent(t *testing.T) {
	s, c := countedStack(t)
	r := newRace(t, s, 2, true)
	ctx := context.Background()
	complete := func(tm raceTeam, id string) {
		t.Helper()
		tt := r.team(tm.id)
		tile := r.board().Tiles[tt.Position-1]
		r.mustAct(tm.token, id, map[string]any{"type": "complete", "tile": tt.Position, "recorded": len(tt.Progress), "players": tm.members[:tile.Content.Min], "complete": true})
		s.advance(time.Second) // the undo takes the newest
	}
	// The first completion lifts the fog (the undo would then write the
	// public board back too); the second, counted, does not.
	complete(r.teams[0], "c-a")
	before := r.team(r.teams[1].id)
	complete(r.teams[1], "c-b")
	require.Greater(t, r.team(r.teams[1].id).Position, before.Position)

	r0, w0 := c.Counts()
	first := r.mustAct(r.admin, "u1", map[string]any{"type": "undo"})
	r1, w1 := c.Counts()
	require.Equal(t, int64(3), w1-w0, "documents written by the undo of one completion (%d read)", r1-r0)
	require.Equal(t, before.Position, r.team(r.teams[1].id).Position, "the undo put the team back")

	key := r.id + ":ada~u1"
	_, err := s.store.FS.Doc("games/" + r.id + "/actions/" + key).Get(ctx)
	require.Equal(t, codes.NotFound, status.Code(err), "no action record of its own: %v", err)
	snap, err := s.store.FS.Doc("games/" + r.id + "/events/" + key).Get(ctx)
	require.NoError(t, err)
	act, ok := snap.Data()["act"].(map[string]any)
	require.True(t, ok, "the event record holds the action record: %v", snap.Data())
	require.Equal(t, "undo", act["type"])
	require.NotEmpty(t, act["hash"])
	require.NotContains(t, act, "session")
	require.NotContains(t, act["replay"], "secret", "no secret hash in a readable record")

	tests := []struct {
		name  string
		setup func()
	}{
		// The domain now refuses the undo (the next newest is the race's
		// start, which later actions changed): the refusal finds the record.
		{"the undo would be refused", func() {}},
		// The domain would undo another completion: the event record's
		// Create fails, and the retry finds the record.
		{"the undo would undo another action", func() { complete(r.teams[1], "c-b2") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.setup()
			want := r.team(r.teams[1].id)
			wantA := r.team(r.teams[0].id)
			again := r.mustAct(r.admin, "u1", map[string]any{"type": "undo"})
			require.Equal(t, first, again, "a retry gets the first reply")
			require.Equal(t, want, r.team(r.teams[1].id), "and undoes nothing more")
			require.Equal(t, wantA, r.team(r.teams[0].id), "and undoes nothing more")
		})
	}
	code, out := r.act(r.admin, "u1", map[string]any{"type": "undoTo", "to": r.teams[0].actor(r) + "~c-a"})
	require.Equal(t, http.StatusConflict, code, "%v", out)
	require.Equal(t, domain.EEXISTS, errCode(out), "the action id was used for another request")
}
