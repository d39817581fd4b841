package stack

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"
	"google.golang.org/api/option"

	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/fsemu"
)

// functionsProc is the stack's functions running as their own process (the
// emulator command attached to an emulator the test owns), so the test can
// kill -9 it and start it again against the same data.
type functionsProc struct {
	t    *testing.T
	bin  string
	port int
	emu  string
	cmd  *exec.Cmd
	out  *syncBuffer
}

func (p *functionsProc) start() time.Duration {
	p.t.Helper()
	t0 := time.Now()
	p.out = &syncBuffer{}
	p.cmd = exec.Command(p.bin, "-attach", p.emu, "-port", fmt.Sprint(p.port), "-no-demo", "-no-web", "-quiet",
		"-rules", filepath.Join("..", "..", "firestore.rules"))
	p.cmd.Env = append(os.Environ(), "MEEPLE_JWT_SECRET=fault-test-secret-fault-test-secret-0123")
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	require.NoError(p.t, p.cmd.Start())
	eventually(p.t, 60*time.Second, func() error {
		if !strings.Contains(p.out.String(), "Meeple local stack is up") {
			return fmt.Errorf("not up yet: %q", p.out.String())
		}
		return nil
	})
	return time.Since(t0)
}

func (p *functionsProc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_, _ = p.cmd.Process.Wait()
}

func (p *functionsProc) url(fn string) string {
	return fmt.Sprintf("http://127.0.0.1:%d/%s", p.port, fn)
}

// TestKillMidBurst kills the functions with SIGKILL while actions,
// completions and trigger deliveries are in flight, starts them again
// against the same emulator, and checks how long until they serve again and
// that every effect happened exactly once.
//
// It runs in parallel with the other tests that start processes of their
// own: everything it runs is its own (the emulator, the functions process,
// a Firestore client with the emulator's address given, not read from the
// process's environment), and most of its time is waiting for the
// emulator's lock timeout.
func TestKillMidBurst(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the emulator command and kills it")
	}
	t.Parallel()
	ctx := context.Background()
	bin := filepath.Join(t.TempDir(), "emulator")
	build := exec.Command("go", "build", "-o", bin, "github.com/meeple-games/meeple/emulator")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	port, err := fsemu.FreePort()
	require.NoError(t, err)
	emu, err := fsemu.Start(ctx, fsemu.Options{FunctionsHost: fmt.Sprintf("127.0.0.1:%d", port)})
	require.NoError(t, err)
	t.Cleanup(emu.Stop)
	p := &functionsProc{t: t, bin: bin, port: port, emu: emu.Host}
	p.start()
	t.Cleanup(p.kill)

	call := func(fn, token string, body map[string]any) (map[string]any, error) {
		c, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		return Post(c, p.url(fn), token, body)
	}
	guest := func(name string) (string, string) {
		out, err := call("Auth", "", map[string]any{"type": "guest", "nickname": name})
		require.NoError(t, err)
		return out["token"].(string), out["player"].(map[string]any)["id"].(string)
	}
	// A Tile Race with four teams on single-completion tasks, and DashDice
	// matches between two guests.
	mtok, _ := guest("Mia")
	res, err := call("TileRace", mtok, map[string]any{"actionId": "race", "type": "create", "name": "Mia", "password": "master-pass"})
	require.NoError(t, err)
	race := res["gameId"].(string)
	master := res["result"].(map[string]any)["session"].(map[string]any)["token"].(string)
	admin := func(id string, body map[string]any) {
		body["gameId"], body["actionId"] = race, id
		_, err := call("TileRace", master, body)
		require.NoError(t, err, id)
	}
	var tasks strings.Builder
	for _, d := range []string{"easy", "medium", "hard"} {
		for i := 0; i < 60; i++ {
			fmt.Fprintf(&tasks, "%s %d,%s,1,1\n", d, i, d)
		}
	}
	teams := make([]string, 4)
	for i := range teams {
		admin(fmt.Sprint("t", i), map[string]any{"type": "createTeam", "name": fmt.Sprint("Team ", i), "members": []string{fmt.Sprint("P", i)}, "password": "team-pass"})
		out, err := call("Auth", "", map[string]any{"type": "teamLogin", "gameId": race, "team": fmt.Sprint("Team ", i), "password": "team-pass"})
		require.NoError(t, err)
		teams[i] = out["token"].(string)
	}
	admin("tasks", map[string]any{"type": "importTasks", "data": tasks.String()})
	admin("board", map[string]any{"type": "randomiseDifficulties", "fill": true})
	admin("start", map[string]any{"type": "start"})

	atok, aid := guest("Ann")
	btok, bid := guest("Ben")
	tokens := map[string]string{aid: atok, bid: btok}
	var matches []string
	for i := 0; i < 4; i++ {
		out, err := call("DashDice", atok, map[string]any{"actionId": fmt.Sprint("m", i), "type": "create", "mode": "quickfire", "turnSeconds": 0})
		require.NoError(t, err)
		id := out["result"].(map[string]any)["gameId"].(string)
		_, err = call("DashDice", btok, map[string]any{"gameId": id, "actionId": "j", "type": "join"})
		require.NoError(t, err)
		_, err = call("DashDice", btok, map[string]any{"gameId": id, "actionId": "c", "type": "call", "call": "odd"})
		require.NoError(t, err)
		matches = append(matches, id)
	}

	// The burst: every team completes tiles, every match is played, until
	// the kill; requests that fail with it are expected.
	conn, err := fsemu.Dial(emu.Host)
	require.NoError(t, err)
	defer conn.Close()
	fs, err := firestore.NewClient(ctx, "meeple-local", option.WithGRPCConn(conn))
	require.NoError(t, err)
	defer fs.Close()
	st := store.New(fs, nil)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var sent atomic.Int64
	play := func(fn, token string, body func(n int) map[string]any) {
		defer wg.Done()
		for n := 0; !stop.Load(); n++ {
			sent.Add(1)
			_, _ = call(fn, token, body(n))
		}
	}
	for i, tok := range teams {
		wg.Add(1)
		go play("TileRace", tok, func(n int) map[string]any {
			var team struct {
				Position int
			}
			_ = readTeam(ctx, fs, race, tok, &team)
			return map[string]any{"gameId": race, "actionId": fmt.Sprint("burst-", i, "-", n), "type": "complete",
				"tile": team.Position, "recorded": 0, "players": []string{fmt.Sprint("P", i)}, "complete": true}
		})
	}
	for _, id := range matches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; !stop.Load(); n++ {
				var m struct {
					CurrentPlayerID string `json:"currentPlayerId"`
					TurnScore       int    `json:"turnScore"`
					Phase           string `json:"phase"`
				}
				if _, err := st.GameState(ctx, id, &m); err != nil || m.Phase == "gameOver" {
					return
				}
				typ := "roll"
				if m.TurnScore >= 15 {
					typ = "bank"
				}
				sent.Add(1)
				_, _ = call("DashDice", tokens[m.CurrentPlayerID], map[string]any{"gameId": id, "actionId": fmt.Sprint("burst-", n), "type": typ})
			}
		}()
	}
	time.Sleep(1500 * time.Millisecond)
	p.kill()
	killed := time.Now()
	stop.Store(true)
	wg.Wait()
	t.Logf("killed mid-burst after %d requests", sent.Load())

	up := p.start()
	// Back to service: the first action that succeeds on a match of the
	// burst, on the race, and on a new game.
	service := func(what string, f func() error) time.Duration {
		t.Helper()
		seen := map[string]bool{}
		for {
			err := f()
			if err != nil && !seen[err.Error()] {
				seen[err.Error()] = true
				t.Logf("%s: %v (%s after the kill)", what, err, time.Since(killed).Round(10*time.Millisecond))
			}
			if err == nil {
				d := time.Since(killed)
				t.Logf("%s served %s after the kill (the functions were up after %s)", what, d.Round(10*time.Millisecond), up.Round(10*time.Millisecond))
				return d
			}
			if time.Since(killed) > 90*time.Second {
				t.Fatalf("%s not served 90 s after the kill: %v", what, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	service("a new game", func() error {
		_, err := call("DashDice", atok, map[string]any{"actionId": "after", "type": "create", "mode": "classic"})
		return err
	})
	service("a match of the burst", func() error {
		var m struct {
			CurrentPlayerID string `json:"currentPlayerId"`
			Phase           string `json:"phase"`
		}
		if _, err := st.GameState(ctx, matches[0], &m); err != nil {
			return err
		}
		if m.Phase == "gameOver" {
			return nil
		}
		_, err := call("DashDice", tokens[m.CurrentPlayerID], map[string]any{"gameId": matches[0], "actionId": fmt.Sprint("after-", time.Now().UnixNano()), "type": "bank"})
		return err
	})
	service("a team of the burst", func() error {
		var team struct{ Position int }
		if err := readTeam(ctx, fs, race, teams[0], &team); err != nil {
			return err
		}
		_, err := call("TileRace", teams[0], map[string]any{"gameId": race, "actionId": fmt.Sprint("after-", time.Now().UnixNano()), "type": "complete",
			"tile": team.Position, "recorded": 0, "players": []string{"P0"}, "complete": true})
		if err != nil && strings.Contains(err.Error(), "409") {
			return nil // refused for the moment: served
		}
		return err
	})

	// Exactly once: every award is in one record (its ledger entry), none
	// pending is left once the sweep ran, the teams' points are what the
	// ledger sums to, and the leaderboard counts every award. A document a
	// killed transaction had locked stays locked until the emulator's lock
	// timeout (about a minute), so the sweep may need that long.
	eventually(t, 90*time.Second, func() error {
		recs, err := st.Events(ctx, race)
		if err != nil {
			return err
		}
		awards := map[string]bool{}
		sums := map[string]map[string]int64{} // team → player → points
		for _, r := range recs {
			if r.Pending {
				return fmt.Errorf("record %s still pending", r.ID)
			}
			entries, err := tilerace.LedgerOf(r.ID, r.Events)
			if err != nil {
				return err
			}
			for _, le := range entries {
				if le.Reverses == "" {
					if awards[le.Key] {
						return fmt.Errorf("award %s in two records", le.Key)
					}
					awards[le.Key] = true
				}
				if sums[le.Team] == nil {
					sums[le.Team] = map[string]int64{}
				}
				sums[le.Team][le.Player] += int64(le.Points)
			}
		}
		teams, err := fs.Collection("games").Doc(race).Collection("teams").Documents(ctx).GetAll()
		if err != nil {
			return err
		}
		made := int64(0)
		for _, tm := range teams {
			n, _ := tm.Data()["awards"].(int64)
			made += n
			points, _ := tm.Data()["points"].(map[string]any)
			for player, v := range points {
				if got, _ := v.(int64); got != sums[tm.Ref.ID][player] {
					return fmt.Errorf("team %s: %s has %d points, the ledger %d", tm.Ref.ID, player, got, sums[tm.Ref.ID][player])
				}
			}
			for player, want := range sums[tm.Ref.ID] {
				if _, ok := points[player]; !ok && want != 0 {
					return fmt.Errorf("team %s: %s has no points, the ledger %d", tm.Ref.ID, player, want)
				}
			}
		}
		if int(made) != len(awards) {
			return fmt.Errorf("the teams made %d awards, the ledger holds %d", made, len(awards))
		}
		lb, err := fs.Doc("games/" + race + "/public/leaderboard").Get(ctx)
		if err != nil {
			return err
		}
		if n, _ := lb.Data()["awards"].(int64); int(n) != len(awards) {
			return fmt.Errorf("leaderboard counts %d awards, ledger %d", n, len(awards))
		}
		return nil
	})
}

// readTeam reads the team a team token is for (its id is in the token's
// subject: {gameId}:{teamId}).
func readTeam(ctx context.Context, fs *firestore.Client, race, token string, v *struct{ Position int }) error {
	id, err := subject(token)
	if err != nil {
		return err
	}
	snap, err := fs.Doc("games/" + race + "/teams/" + strings.TrimPrefix(id, race+":")).Get(ctx)
	if err != nil {
		return err
	}
	p, _ := snap.Data()["position"].(int64)
	v.Position = int(p)
	return nil
}

// subject is the subject of a session token (the actor id).
func subject(token string) (string, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", fmt.Errorf("not a JWT")
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return "", err
	}
	var c struct {
		Sub string `json:"sub"`
	}
	return c.Sub, json.Unmarshal(raw, &c)
}

// TestEmulatorRestart: the Firestore emulator dies under the stack; the
// functions answer 503 (never 500) while it is gone; the stack starts it
// again, loads the rules and the triggers, and serves within seconds.
func TestEmulatorRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("kills the emulator")
	}
	s := startBare(t) // no demo: the test makes its own game
	ctx := context.Background()
	s.Emulator().Kill()
	killed := time.Now()
	statuses := map[string]int{}
	for {
		out, err := Post(ctx, s.FunctionsURL+"/Auth", "", map[string]any{"type": "guest", "nickname": "Back"})
		if err == nil {
			tok := out["token"].(string)
			_, err = Post(ctx, s.FunctionsURL+"/DashDice", tok, map[string]any{"actionId": "back", "type": "create", "mode": "classic"})
			if err == nil {
				break
			}
		}
		status := strings.SplitN(err.Error(), ":", 2)[0]
		statuses[status]++
		require.NotContains(t, status, "500", "never a 500 while the emulator is gone: %v", err)
		if time.Since(killed) > 90*time.Second {
			t.Fatalf("not back 90 s after the emulator died: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("served again %s after the emulator died; meanwhile: %v", time.Since(killed).Round(10*time.Millisecond), statuses)
}
