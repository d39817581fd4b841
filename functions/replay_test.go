package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/dashdice"
	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/store"
)

// enders are moves that end a game at once; random play keeps them for
// when a game has gone on long enough.
var enders = map[string]bool{"forfeit": true, "surrender": true, "removePlayer": true}

// docSizes are the largest game document seen per kind, as JSON, with the
// replay payloads its log now keeps ("p") and without them (as before).
var (
	docSizes   = map[string][2]int{}
	docSizesMu sync.Mutex // the kinds replay in parallel
)

// measure notes the size of game id's document, with and without the log's
// payloads, and returns its status.
func measure(t *testing.T, s *stack, fn, id string) string {
	t.Helper()
	snap, err := s.store.FS.Collection("games").Doc(id).Get(context.Background())
	require.NoError(t, err)
	data := snap.Data()
	data["log"] = logSteps(data["log"]) // its steps, not the bytes it is stored as
	with, err := json.Marshal(data)
	require.NoError(t, err)
	without := len(with)
	if log := logSteps(data["log"]); log != nil {
		for _, st := range log {
			if p, ok := st.(map[string]any)["p"].(string); ok {
				b, _ := json.Marshal(p)
				without -= len(`,"p":`) + len(b)
			}
		}
	}
	docSizesMu.Lock()
	sz := docSizes[fn]
	docSizes[fn] = [2]int{max(sz[0], len(with)), max(sz[1], without)}
	docSizesMu.Unlock()
	st, _ := data["status"].(string)
	return st
}

// randomPlay plays game id of function fn by legal moves chosen at random
// (seeded) among players until it is over: after long moves it takes an
// ender when one is offered; when nobody may act it lets the clock pass the
// deadline and sends an advance. It returns the number of actions sent.
func randomPlay(t *testing.T, s *stack, fn, id string, players []player, seed uint64, long int) int {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	n := 0
	for ; n < 4000; n++ {
		if measure(t, s, fn, id) == "over" {
			return n
		}
		type option struct {
			p  player
			mv map[string]any
		}
		var all, end []option
		for _, p := range players {
			code, out := s.post(p.Token, fn, map[string]any{"gameId": id, "type": "legal", "actionId": "l"})
			require.Equal(t, http.StatusOK, code, "%v", out)
			moves, _ := out["result"].(map[string]any)["moves"].([]any)
			for _, m := range moves {
				mv := m.(map[string]any)
				if enders[mv["type"].(string)] {
					end = append(end, option{p, mv})
				} else {
					all = append(all, option{p, mv})
				}
			}
		}
		if n >= long && len(end) > 0 {
			all = end
		}
		if len(all) == 0 {
			s.advance(10 * time.Minute)
			code, out := s.post(players[0].Token, fn, map[string]any{"gameId": id, "type": "advance", "actionId": fmt.Sprint("adv", n)})
			require.Equal(t, http.StatusOK, code, "%v", out)
			continue
		}
		o := all[rng.IntN(len(all))]
		body := map[string]any{"gameId": id, "actionId": fmt.Sprint("r", n), "type": o.mv["type"]}
		if pl, ok := o.mv["payload"].(map[string]any); ok {
			for k, v := range pl {
				body[k] = v
			}
		}
		s.advance(time.Duration(rng.IntN(3000)) * time.Millisecond)
		code, out := s.post(o.p.Token, fn, body)
		require.Equal(t, http.StatusOK, code, "%v: %v", body, out)
	}
	t.Fatalf("game %s did not end in %d actions", id, n)
	return n
}

// randomGames is how many random games a test plays: full, or fewer under
// the race detector (every check still runs on every game played; fewer
// games only try fewer seeds). MEEPLE_FULL_GAMES=1 plays the full count
// under the race detector too.
func randomGames(full, fewer int) int {
	if raceEnabled && os.Getenv("MEEPLE_FULL_GAMES") == "" {
		return fewer
	}
	return full
}

// replayed asks for the replay of game id as p and checks it: verified, its
// last frame's state the stored one, and as many versioned steps as the
// game's version. It returns the replay's result.
func replayed(t *testing.T, s *stack, fn, id string, p player) map[string]any {
	t.Helper()
	code, out := s.post(p.Token, fn, map[string]any{"gameId": id, "type": "replay", "actionId": "replay"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	res := out["result"].(map[string]any)
	if res["diverged"] != nil && res["diverged"] != "" {
		dumpDivergence(t, s, id, res)
	}
	require.Empty(t, res["diverged"])
	require.Equal(t, true, res["verified"])
	frames := res["frames"].([]any)
	snap, err := s.store.FS.Collection("games").Doc(id).Get(context.Background())
	require.NoError(t, err)
	data, err := store.Unpacked(snap.Data())
	require.NoError(t, err)
	want, err := json.Marshal(data["state"])
	require.NoError(t, err)
	got, err := json.Marshal(frames[len(frames)-1].(map[string]any)["state"])
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(got), "the last frame is the stored state")
	require.EqualValues(t, snap.Data()["version"], frames[len(frames)-1].(map[string]any)["version"])
	require.EqualValues(t, len(frames), res["total"], "one window holds it all")
	require.Nil(t, res["next"])
	// A window from the last frame: that frame alone, with every document
	// the viewer holds by then; past it, a 400 naming from.
	last := len(frames) - 1
	code, out2 := s.post(p.Token, fn, map[string]any{"gameId": id, "type": "replay", "actionId": "replay", "from": last})
	require.Equal(t, http.StatusOK, code, "%v", out2)
	win := out2["result"].(map[string]any)
	require.EqualValues(t, last, win["from"])
	require.Len(t, win["frames"], 1)
	require.Equal(t, frames[last].(map[string]any)["state"], win["frames"].([]any)[0].(map[string]any)["state"])
	held := replayDocs(res)
	if len(held) > 0 {
		require.Equal(t, held, win["frames"].([]any)[0].(map[string]any)["docs"])
	}
	code, out2 = s.post(p.Token, fn, map[string]any{"gameId": id, "type": "replay", "actionId": "replay", "from": last + 1})
	require.Equal(t, http.StatusBadRequest, code, "%v", out2)
	require.Contains(t, out2["error"].(map[string]any)["message"], "from")
	// What the replay read: the game, its private document, its events and
	// its actions collections.
	ctx := context.Background()
	events, err := s.store.FS.Collection("games").Doc(id).Collection("events").Documents(ctx).GetAll()
	require.NoError(t, err)
	acts, err := s.store.FS.Collection("games").Doc(id).Collection("actions").Documents(ctx).GetAll()
	require.NoError(t, err)
	body, _ := json.Marshal(out)
	t.Logf("%s %s: %d frames, %d documents read (2 + %d events + %d actions), reply %d bytes", fn, id, len(frames), 2+len(events)+len(acts), len(events), len(acts), len(body))
	return res
}

// withRematch plays game id of fn to its end (randomPlay with seed, long),
// has every player ask for a rematch, plays the rematch (next) too, and
// runs check on both.
func withRematch(t *testing.T, s *stack, eve player, fn, id, next string, players []player, seed uint64, long int,
	check func(t *testing.T, s *stack, eve player, fn, id string, players []player, n int)) {
	t.Helper()
	n := randomPlay(t, s, fn, id, players, seed, long)
	for _, p := range players {
		code, out := s.post(p.Token, fn, map[string]any{"gameId": id, "type": "rematch", "actionId": "again"})
		require.Equal(t, http.StatusOK, code, "%v", out)
	}
	check(t, s, eve, fn, id, players, n)
	n = randomPlay(t, s, fn, next, players, seed+1, long)
	check(t, s, eve, fn, next, players, n)
}

// replayDocs is what a viewer of a replay holds at its end: every frame's
// documents, the later over the earlier.
func replayDocs(res map[string]any) map[string]any {
	out := map[string]any{}
	for _, f := range res["frames"].([]any) {
		docs, _ := f.(map[string]any)["docs"].(map[string]any)
		for k, v := range docs {
			if v == nil {
				delete(out, k) // deleted by this frame's action
				continue
			}
			out[k] = v
		}
	}
	return out
}

// TestReplayEveryGame plays finished games of every registered kind through
// the real functions and replays each, requiring the replay's final state
// to equal the stored one; it logs the counts per game. Each kind plays on
// a stack of its own (its own project and clock: randomPlay moves the clock
// past deadlines, which must reach no other kind's games), so the kinds run
// in parallel. Party Board and CodeBowl play two games each, one under the
// race detector (MEEPLE_FULL_GAMES=1: two).
func TestReplayEveryGame(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	counts := map[string]int{}
	actions := map[string]int{}
	// kind runs f as a parallel subtest on a fresh stack with a spectator,
	// eve.
	kind := func(t *testing.T, name string, f func(t *testing.T, s *stack, eve player)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newStack(t)
			f(t, s, s.guest("Eve"))
		})
	}
	check := func(t *testing.T, s *stack, eve player, fn, id string, players []player, n int) {
		t.Helper()
		replayed(t, s, fn, id, players[0])
		replayed(t, s, fn, id, eve)
		mu.Lock()
		defer mu.Unlock()
		counts[fn]++
		actions[fn] += n
	}

	t.Run("kinds", func(t *testing.T) {
		kind(t, "DashDice", func(t *testing.T, s *stack, eve player) {
			for i, mode := range []string{"classic", "zero-hour"} {
				alice, bob := s.guest(fmt.Sprint("Al", i)), s.guest(fmt.Sprint("Bo", i))
				m := newSeededMatch(s, mode, 30, fmt.Sprint("dd-seed-", i), alice, bob)
				n := randomPlay(t, s, "DashDice", m.id, []player{alice, bob}, uint64(i), 200)
				check(t, s, eve, "DashDice", m.id, []player{alice, bob}, n)
			}
		})
		kind(t, "DashDiceQuickMatch", func(t *testing.T, s *stack, eve player) {
			alice, bob := s.guest("Qa"), s.guest("Qb")
			code, out := s.post(alice.Token, "DashDice", map[string]any{"type": "quickMatch", "actionId": "q1", "mode": "classic"})
			require.Equal(t, http.StatusOK, code, "%v", out)
			code, out = s.post(bob.Token, "DashDice", map[string]any{"type": "quickMatch", "actionId": "q2", "mode": "classic"})
			require.Equal(t, http.StatusOK, code, "%v", out)
			id, _ := out["gameId"].(string)
			require.NotEmpty(t, id, "paired: %v", out)
			n := randomPlay(t, s, "DashDice", id, []player{alice, bob}, 11, 200)
			check(t, s, eve, "DashDice", id, []player{alice, bob}, n)
		})
		kind(t, "DashDiceRematch", func(t *testing.T, s *stack, eve player) {
			// A rematch's game has no create: it replays from the state the
			// finished match spawned it with; the finished match, asked for a
			// rematch after its end, still replays.
			alice, bob := s.guest("Ra"), s.guest("Rb")
			m := newSeededMatch(s, "classic", 30, "dd-rematch", alice, bob)
			withRematch(t, s, eve, "DashDice", m.id, dashdice.RematchID(m.id), []player{alice, bob}, 12, 200, check)
		})
		kind(t, "PartyBoard", func(t *testing.T, s *stack, eve player) {
			for i := range randomGames(2, 1) {
				g := newPBGame(s, fmt.Sprint("pb-seed-", i), nil, fmt.Sprint("Pa", i), fmt.Sprint("Pb", i), fmt.Sprint("Pc", i))
				n := randomPlay(t, s, "PartyBoard", g.id, g.players, uint64(20+i), 600)
				check(t, s, eve, "PartyBoard", g.id, g.players, n)
			}
		})
		kind(t, "HexDiceFogRematch", func(t *testing.T, s *stack, eve player) {
			// A fog game keeps its whole state sealed in its game document,
			// and so does its rematch from its first version (sealed with
			// the seed the store makes as it writes the spawn). Both replay.
			host, guest := s.guest("Fa"), s.guest("Fb")
			g := newHexGame(s, host, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating, Fog: true}, "hx-fog-seed")
			g.join(guest)
			withRematch(t, s, eve, "HexDice", g.id, hexdice.RematchID(g.id), []player{host, guest}, 41, 150, check)
		})
		kind(t, "HexDice", func(t *testing.T, s *stack, eve player) {
			for i, mode := range []string{"alternating", "simultaneous"} {
				host, guest := s.guest(fmt.Sprint("Ha", i)), s.guest(fmt.Sprint("Hb", i))
				code, out := s.post(host.Token, "HexDice", map[string]any{"type": "create", "actionId": fmt.Sprint("hx", i), "size": "small", "mode": mode, "seed": fmt.Sprint("hx-seed-", i)})
				require.Equal(t, http.StatusOK, code, "%v", out)
				id := out["result"].(map[string]any)["gameId"].(string)
				code, out = s.post(guest.Token, "HexDice", map[string]any{"type": "join", "actionId": "j", "gameId": id})
				require.Equal(t, http.StatusOK, code, "%v", out)
				n := randomPlay(t, s, "HexDice", id, []player{host, guest}, uint64(30+i), 150)
				check(t, s, eve, "HexDice", id, []player{host, guest}, n)
				// Hidden orders never reach a readable document as text: an
				// orders step of the game's log or history carries its payload
				// sealed (domain.Plan.Secret), which the replay opened with
				// the published seed, or in the clear only when the same step
				// reveals them.
				orders, kept, sealed := 0, 0, 0
				for _, st := range loggedSteps(t, s, id) {
					if st["type"] != "orders" {
						continue
					}
					orders++
					p, ok := st["p"].(string)
					if !ok {
						continue
					}
					kept++
					if domain.IsSealed(p) {
						sealed++
						continue
					}
					actor := st["actor"].(map[string]any)["id"]
					revealed := false
					for _, e := range st["events"].([]any) {
						e := e.(map[string]any)
						revealed = revealed || (e["type"] == "ordersRevealed" && e["player"] == actor)
					}
					require.True(t, revealed, "an orders payload in a readable log, not revealed by its step: %v", st)
				}
				if mode == "simultaneous" {
					require.Positive(t, orders, "the simultaneous game had orders")
					require.Positive(t, kept, "orders actions kept in the game document")
					require.Positive(t, sealed, "their payloads sealed")
				}
			}
		})
		kind(t, "CodeBowl", func(t *testing.T, s *stack, eve player) {
			for i := range randomGames(2, 1) {
				// Each match its own coaches (a match's create is keyed by its team).
				ann, ben := s.cbCoach(fmt.Sprint("replay_ann", i)), s.cbCoach(fmt.Sprint("replay_ben", i))
				reds := s.cbTeam(ann, "t-reds", cbSpec("Reds", 3, 3, 6))
				blues := s.cbTeam(ben, "t-blues", cbSpec("Blues", 3, 3, 6))
				id := s.cbMatchOf(ann, ben, reds, blues, map[string]any{"turnsPerHalf": 2})
				n := randomPlay(t, s, "CodeBowl", id, []player{ann, ben}, uint64(40+i), 400)
				check(t, s, eve, "CodeBowl", id, []player{ann, ben}, n)
			}
		})
		kind(t, "TileRace", func(t *testing.T, s *stack, eve player) {
			// A short race whose id starts with "b", as one race in sixteen's
			// does (TestReplayRaceIDStartingWithB), then a long one with an undo.
			short, n := shortRace(t, s, "b")
			check(t, s, eve, "TileRace", short.id, []player{{Token: short.teams[0].token}}, n)
			r := newRace(t, s, 3, true)
			winner, n := "", 0
			for round := 1; winner == "" && round < 80; round++ {
				for i := len(r.teams) - 1; i >= 0 && winner == ""; i-- {
					s.advance(time.Millisecond) // requests never share a microsecond
					res := r.completeTile(r.teams[i], fmt.Sprintf("r%d", round))["result"].(map[string]any)
					measure(t, s, "TileRace", r.id)
					n++
					if round == 3 && i == 0 {
						// An admin undoes the last completion: the replay runs
						// undo on its history as the store holds it.
						r.mustAct(r.admin, "undo-1", map[string]any{"type": "undo"})
						n++
					}
					if res["won"] == true {
						winner = r.teams[i].id
					}
				}
			}
			require.NotEmpty(t, winner)
			team := player{Token: r.teams[0].token}
			check(t, s, eve, "TileRace", r.id, []player{team}, n)
			// No password is recorded anywhere: not in the game, its log and
			// history (where most action records are), its action records or its private document.
			for _, pw := range []string{"master-pass", "admin-pass", "pw-team-1"} {
				for _, coll := range []string{"events", "actions", "history", "private"} {
					docs, err := s.store.FS.Collection("games").Doc(r.id).Collection(coll).Documents(context.Background()).GetAll()
					require.NoError(t, err)
					for _, d := range docs {
						b, _ := json.Marshal(d.Data())
						require.NotContains(t, string(b), pw, "%s/%s", coll, d.Ref.ID)
					}
				}
				snap, err := s.store.FS.Collection("games").Doc(r.id).Get(context.Background())
				require.NoError(t, err)
				data, err := store.Unpacked(snap.Data()) // its log inflated
				require.NoError(t, err)
				b, _ := json.Marshal(data)
				require.NotContains(t, string(b), pw)
			}
			// The teams and the public board as the replay leaves them are the
			// stored ones; nothing behind the fog or server-only is in it.
			res := replayed(t, s, "TileRace", r.id, eve)
			docs := replayDocs(res)
			for k := range docs {
				require.Regexp(t, `^(team/.+|powerupTile/.+|publicBoard|leaderboard)$`, k, "a spectator reads only public documents")
			}
			for _, tm := range r.teams {
				var want map[string]any
				r.doc("teams/"+tm.id, &want)
				got, _ := json.Marshal(docs["team/"+tm.id])
				wantJSON, _ := json.Marshal(want)
				require.JSONEq(t, string(wantJSON), string(got), "team %s", tm.id)
			}
			var board map[string]any
			r.doc("public/board", &board)
			got, _ := json.Marshal(docs["publicBoard"])
			wantJSON, _ := json.Marshal(board)
			require.JSONEq(t, string(wantJSON), string(got), "the public board")
		})
	})
	for _, fn := range []string{"DashDice", "PartyBoard", "HexDice", "CodeBowl", "TileRace"} {
		t.Logf("%s: %d finished games replayed and verified (%d actions played); largest game document %d bytes of JSON (%d without the replay payloads)",
			fn, counts[fn], actions[fn], docSizes[fn][0], docSizes[fn][1])
	}
}

// TestReplayRefused: a game not finished is refused with a clear 409; a
// replay names its game; a stranger's request for another kind is a 404.
func TestReplayRefused(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	m := newMatch(s, "classic", 30, alice, bob)
	for _, tc := range []struct {
		name string
		fn   string
		body map[string]any
		code int
		msg  string
	}{
		{"not finished", "DashDice", map[string]any{"gameId": m.id}, http.StatusConflict, "not finished"},
		{"no game id", "DashDice", map[string]any{}, http.StatusBadRequest, "gameId"},
		{"another kind", "HexDice", map[string]any{"gameId": m.id}, http.StatusNotFound, "dashdice"},
		{"no such game", "DashDice", map[string]any{"gameId": "nope"}, http.StatusNotFound, "nope"},
		{"unknown field", "DashDice", map[string]any{"gameId": m.id, "frames": 3}, http.StatusBadRequest, "frames"},
		{"from negative", "DashDice", map[string]any{"gameId": m.id, "from": -1}, http.StatusBadRequest, "from"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := map[string]any{"type": "replay", "actionId": "rp"}
			for k, v := range tc.body {
				body[k] = v
			}
			code, out := s.post(bob.Token, tc.fn, body)
			require.Equal(t, tc.code, code, "%v", out)
			require.Contains(t, out["error"].(map[string]any)["message"], tc.msg)
		})
	}
}

// loggedSteps is every step of game id as readable documents hold it: the
// game document's log and its history batches and event records.
func loggedSteps(t *testing.T, s *stack, id string) []map[string]any {
	t.Helper()
	ctx := context.Background()
	var out []map[string]any
	add := func(v any) {
		list, _ := v.([]any)
		for _, x := range list {
			out = append(out, x.(map[string]any))
		}
	}
	snap, err := s.store.FS.Collection("games").Doc(id).Get(ctx)
	require.NoError(t, err)
	add(logSteps(snap.Data()["log"]))
	docs, err := s.store.FS.Collection("games").Doc(id).Collection("events").Documents(ctx).GetAll()
	require.NoError(t, err)
	for _, d := range docs {
		if steps, ok := d.Data()["steps"]; ok {
			add(steps)
		} else {
			out = append(out, d.Data())
		}
	}
	return out
}

// dumpDivergence logs what a diverged replay had: its frames' types and
// the game's event records, to tell a step not read from one replayed
// differently.
func dumpDivergence(t *testing.T, s *stack, id string, res map[string]any) {
	t.Helper()
	frames, _ := res["frames"].([]any)
	t.Logf("replay of %s diverged: %v; %d frames", id, res["diverged"], len(frames))
	for i, f := range frames {
		fm := f.(map[string]any)
		t.Logf("frame %d: %v by %v at %v", i, fm["type"], fm["actor"], fm["at"])
	}
	docs, err := s.store.FS.Collection("games").Doc(id).Collection("events").Documents(context.Background()).GetAll()
	require.NoError(t, err)
	for _, d := range docs {
		t.Logf("event record %s (created %s): %v at %v", d.Ref.ID, d.CreateTime.Format(time.RFC3339Nano), d.Data()["type"], d.Data()["at"])
	}
}

// shortRace plays a race whose id starts with prefix (its create's action id
// chosen for it: store.CreateID) to its end in a few actions: set up, every
// team moved by an admin to the final tile, the last team completes it. It
// returns the race and the number of actions after the create.
func shortRace(t *testing.T, s *stack, prefix string) (*race, int) {
	t.Helper()
	host := s.guest("Bea")
	aid := ""
	for i := 0; aid == ""; i++ {
		if c := fmt.Sprint("race-", i); strings.HasPrefix(store.CreateID(tilerace.Kind, host.ID, c), prefix) {
			aid = c
		}
	}
	r := newRaceAs(t, s, host, aid, 2, true)
	require.True(t, strings.HasPrefix(r.id, prefix), "race id %s", r.id)
	n := 7 // addAdmin, 2 createTeam, importTasks, importPowerupTiles, randomiseDifficulties, start
	for i, tm := range r.teams {
		s.advance(time.Millisecond)
		// An action id like an effect's ("fx-…", apply.go) is the
		// client's to choose; its step is replayed all the same.
		r.mustAct(r.admin, fmt.Sprint("fx-to-end-", i), map[string]any{"type": "moveTeam", "team": tm.id, "to": tilerace.FinalTile})
		n++
	}
	s.advance(time.Millisecond)
	res := r.completeTile(r.teams[len(r.teams)-1], "finish")["result"].(map[string]any)
	require.Equal(t, true, res["won"], "%v", res)
	require.Equal(t, "over", measure(t, s, "TileRace", r.id))
	return r, n + 1
}

// TestReplayRaceIDStartingWithB: a race whose id starts with "b" replays,
// and its event log lists its steps. Its event records, keyed
// "{gameId}:{local}~{actionId}", start with "b" like the id of a history
// batch ("b" and digits): read as batches, they had no steps, and the
// replay found none (verified false: "the replayed final state differs …
// admins, finishedAt, nextGen, nextPowerupTile, startedAt"), once in
// sixteen races, whatever the load. Its admin's moves are named "fx-…",
// as an effect's steps are: a replay left out every step so named, a
// client's too, and the final completion then found its team on tile 1.
func TestReplayRaceIDStartingWithB(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	r, n := shortRace(t, s, "b")
	res := replayed(t, s, "TileRace", r.id, player{Token: r.teams[0].token})
	got := []string{}
	for _, f := range res["frames"].([]any) {
		got = append(got, f.(map[string]any)["type"].(string))
	}
	want := []string{"create", "addAdmin", "createTeam", "createTeam", "importTasks", "importPowerupTiles",
		"randomiseDifficulties", "start", "moveTeam", "moveTeam", "complete"}
	require.Equal(t, want, got, "the create's frame and one per action")
	require.Len(t, got, 1+n)
	recs, err := s.store.Events(context.Background(), r.id)
	require.NoError(t, err)
	types := map[string]int{}
	for _, rec := range recs {
		types[rec.Type]++
	}
	for _, typ := range want[1:] {
		require.Positive(t, types[typ], "the event log lists the race's %s (got %v)", typ, types)
	}
}
