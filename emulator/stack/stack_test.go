package stack

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/store"
)

// startStack runs the whole local stack as `go run ./emulator` does, on free
// ports, and stops it when the test ends.
func startStack(t *testing.T) *Stack {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *Stack, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{Rules: filepath.Join("..", "..", "firestore.rules"), Games: games.All()}, func(s *Stack) { ready <- s })
	}()
	stopped := false // Run has returned and its error was taken from done
	t.Cleanup(func() {
		cancel()
		if !stopped {
			require.NoError(t, <-done)
		}
	})
	select {
	case s := <-ready:
		return s
	case err := <-done:
		stopped = true
		t.Fatalf("stack did not start: %v", err)
	case <-time.After(180 * time.Second): // seeding five demos on a loaded 2-core machine
		t.Fatal("stack did not start within 180s")
	}
	return nil
}

// eventually polls f until it returns nil or the time is up.
func eventually(t *testing.T, within time.Duration, f func() error) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not within %s: %v", within, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestLocalStackEndToEnd(t *testing.T) {
	s := startStack(t)
	ctx := context.Background()
	require.Len(t, s.Demos, len(games.All()), "the stack seeds a demo of every game")
	d := s.Demos["dashdice"].Values
	pb := s.Demos["partyboard"].Values
	call := func(token string, body map[string]any) map[string]any {
		t.Helper()
		out, err := Post(ctx, s.FunctionsURL+"/DashDice", token, body)
		require.NoError(t, err)
		return out
	}
	players := map[string]string{d["aliceId"]: d["aliceToken"], d["bobId"]: d["bobToken"]}

	t.Run("a demo match played to the end updates stats and the leaderboard through triggers", func(t *testing.T) {
		call(d["bobToken"], map[string]any{"gameId": d["matchId"], "actionId": "c", "type": "call", "call": "odd"})
		for i := 0; ; i++ {
			require.Less(t, i, 1000)
			doc, err := s.Store.GameDoc(ctx, d["matchId"])
			require.NoError(t, err)
			st := doc["state"].(map[string]any)
			if st["phase"] == "gameOver" {
				break
			}
			typ := "roll"
			if ts, _ := st["turnScore"].(int64); ts >= 20 {
				typ = "bank"
			}
			call(players[st["currentPlayerId"].(string)], map[string]any{"gameId": d["matchId"], "actionId": fmt.Sprint("a", i), "type": typ})
		}
		doc, err := s.Store.GameDoc(ctx, d["matchId"])
		require.NoError(t, err)
		winner := doc["state"].(map[string]any)["winner"].(string)
		eventually(t, 10*time.Second, func() error {
			snap, err := s.Store.FS.Collection("players").Doc(winner).Get(ctx)
			if err != nil {
				return err
			}
			wins, err := snap.DataAt("stats.dashdice.classic.wins")
			if err != nil || wins != int64(1) {
				return fmt.Errorf("wins = %v (%v)", wins, err)
			}
			lb, err := s.Store.FS.Collection("leaderboards").Doc("dashdice-classic").Get(ctx)
			if err != nil {
				return err
			}
			if !strings.Contains(fmt.Sprint(lb.Data()), winner) {
				return fmt.Errorf("leaderboard without the winner: %v", lb.Data())
			}
			return nil
		})
	})

	t.Run("the demo Party Board game starts and waits for starters", func(t *testing.T) {
		_, err := Post(ctx, s.FunctionsURL+"/PartyBoard", pb["cleoToken"], map[string]any{"gameId": pb["gameId"], "actionId": "start", "type": "start"})
		require.NoError(t, err)
		doc, err := s.Store.GameDoc(ctx, pb["gameId"])
		require.NoError(t, err)
		await := doc["state"].(map[string]any)["await"].(map[string]any)
		require.Equal(t, "starter", await["action"])
		require.Len(t, await["players"], 2)
	})

	t.Run("the demo race: a team signs in with the printed password and completes its tile; the trigger awards the points", func(t *testing.T) {
		r := s.Demos["tilerace"].Values
		var how strings.Builder
		s.PrintHowTo(&how)
		require.Contains(t, how.String(), r["gameId"])
		require.Contains(t, how.String(), `"type":"teamLogin"`)
		require.Contains(t, how.String(), `"type":"adminLogin"`)
		team := struct {
			ID, Name, Password string
			Members            []string
		}{ID: r["team0"], Name: "Red Dragons", Password: "red-pass", Members: []string{"Zezima", "Lynx Titan", "B0aty"}}
		require.Contains(t, how.String(), team.Name)
		require.Contains(t, how.String(), team.Password)

		doc, err := s.Store.GameDoc(ctx, r["gameId"])
		require.NoError(t, err)
		st := doc["state"].(map[string]any)
		require.Equal(t, "active", st["status"])
		require.Len(t, st["teams"], 5)

		out, err := Post(ctx, s.FunctionsURL+"/Auth", "", map[string]any{"type": "teamLogin", "gameId": r["gameId"], "team": team.Name, "password": team.Password})
		require.NoError(t, err)
		tok := out["token"].(string)
		// As the how-to says: the team's position from its document, the
		// tile's min from the public board.
		teamDoc, err := s.Store.FS.Doc("games/" + r["gameId"] + "/teams/" + team.ID).Get(ctx)
		require.NoError(t, err)
		require.EqualValues(t, 1, teamDoc.Data()["position"])
		board, err := s.Store.FS.Doc("games/" + r["gameId"] + "/public/board").Get(ctx)
		require.NoError(t, err)
		var pb struct {
			Tiles []struct {
				Content struct {
					Min   int
					Label string
				}
			}
		}
		require.NoError(t, store.DecodeDoc(board.Data(), &pb), "the board's tiles are packed JSON text")
		tiles := pb.Tiles
		min := tiles[0].Content.Min
		players := make([]string, min) // one entry per completion; members may repeat unless it is a group task
		for i := range players {
			players[i] = team.Members[i%len(team.Members)]
		}
		printed, err := json.Marshal(players)
		require.Equal(t, string(printed), r["firstPlayers"], "the printed curl names as many completions as tile 1 needs")
		require.Equal(t, tiles[0].Content.Label, r["firstTile"])
		require.NoError(t, err)
		require.Contains(t, how.String(), `"type":"complete","tile":1,"recorded":0,"players":`+string(printed))
		out, err = Post(ctx, s.FunctionsURL+"/TileRace", tok, map[string]any{"gameId": r["gameId"], "actionId": "c1", "type": "complete",
			"tile": 1, "recorded": 0, "players": players, "complete": true})
		require.NoError(t, err)
		require.EqualValues(t, 2, out["result"].(map[string]any)["position"])
		eventually(t, 10*time.Second, func() error {
			lb, err := s.Store.FS.Doc("games/" + r["gameId"] + "/public/leaderboard").Get(ctx)
			if err != nil {
				return err
			}
			if top, _ := lb.Data()["top"].([]any); len(top) == 0 {
				return fmt.Errorf("no points yet")
			}
			return nil
		})
	})

	t.Run("the tick ends a turn whose timer ran out with nobody calling", func(t *testing.T) {
		out := call(d["aliceToken"], map[string]any{"actionId": "timed", "type": "create", "mode": "classic", "private": true, "turnSeconds": 5})
		res := out["result"].(map[string]any)
		id := res["gameId"].(string)
		call(d["bobToken"], map[string]any{"actionId": "timed-join", "type": "join", "roomCode": res["roomCode"]})
		call(d["bobToken"], map[string]any{"gameId": id, "actionId": "timed-call", "type": "call", "call": "even"})
		doc, err := s.Store.GameDoc(ctx, id)
		require.NoError(t, err)
		first := doc["state"].(map[string]any)["currentPlayerId"]
		eventually(t, 15*time.Second, func() error {
			doc, err := s.Store.GameDoc(ctx, id)
			if err != nil {
				return err
			}
			if cur := doc["state"].(map[string]any)["currentPlayerId"]; cur == first {
				return fmt.Errorf("still %v's turn", cur)
			}
			return nil
		})
	})
}

// TestEmulatorCommandStopsEverything runs the real command, interrupts it like
// Ctrl-C does, and checks that no emulator process is left behind.
// It runs in parallel with the other tests that start processes of their
// own (the command's stack is in its own process).
func TestEmulatorCommandStopsEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the emulator command")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "emulator")
	build := exec.Command("go", "build", "-o", bin, "github.com/meeple-games/meeple/emulator")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	cmd := exec.Command(bin, "-port", "0", "-firestore-port", "0", "-no-demo", "-no-web", "-rules", filepath.Join("..", "..", "firestore.rules"))
	stdout := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = stdout, stdout
	require.NoError(t, cmd.Start())
	eventually(t, 60*time.Second, func() error {
		if !strings.Contains(stdout.String(), "Meeple local stack is up") {
			return fmt.Errorf("not up yet: %q", stdout.String())
		}
		return nil
	})
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		require.NoError(t, err, "%s", stdout.String())
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the command did not stop on interrupt")
	}
	ps, _ := exec.Command("pgrep", "-f", "functions_emulator=127.0.0.1:"+portOf(stdout.String())).Output()
	require.Empty(t, strings.TrimSpace(string(ps)), "an emulator process was left running")
}

// syncBuffer collects a command's output while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// portOf finds the functions port in the command's banner.
func portOf(banner string) string {
	const marker = "functions:  http://127.0.0.1:"
	i := strings.Index(banner, marker)
	if i < 0 {
		return "none"
	}
	rest := banner[i+len(marker):]
	return strings.Fields(rest)[0]
}
