package stack

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/games"
)

// startBare runs the local stack without demos.
func startBare(t *testing.T) *Stack {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *Stack, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{Rules: filepath.Join("..", "..", "firestore.rules"), Games: games.All(), NoDemo: true}, func(s *Stack) { ready <- s })
	}()
	stopped := false
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
	case <-time.After(180 * time.Second):
		t.Fatal("stack did not start within 180s")
	}
	return nil
}

// TestPersonPlaysABotThroughTheStack: a guest creates a Classic DashDice match, adds
// a strong bot, and plays it to the end with nothing but HTTP calls; the bot
// moves through the emulator's document trigger (and the tick). It measures
// the time from each of the person's actions that hands the bot the turn to
// the bot's first move after it, and checks that the finished game changed
// no stats.
func TestPersonPlaysABotThroughTheStack(t *testing.T) {
	s := startBare(t)
	ctx := context.Background()
	g, err := s.Caller().Guest(ctx, "Solo")
	require.NoError(t, err)
	token := g["token"].(string)
	me := g["player"].(map[string]any)["id"].(string)
	call := func(body map[string]any) map[string]any {
		t.Helper()
		out, err := Post(ctx, s.FunctionsURL+"/DashDice", token, body)
		require.NoError(t, err)
		return out
	}
	out := call(map[string]any{"actionId": "create", "type": "create", "mode": "classic", "turnSeconds": 0})
	id := out["result"].(map[string]any)["gameId"].(string)
	added := call(map[string]any{"gameId": id, "actionId": "add", "type": domain.ActionAddBot, "level": domain.BotStrong})
	version := int64(added["version"].(float64))

	var waits []time.Duration
	// waitBot waits until the game moves past version (the bot's move) and
	// returns the game document then.
	waitBot := func(version int64, since time.Time) map[string]any {
		t.Helper()
		for {
			doc, err := s.Store.GameDoc(ctx, id)
			require.NoError(t, err)
			if v := doc["version"].(int64); v > version {
				waits = append(waits, time.Since(since))
				return doc
			}
			require.Less(t, time.Since(since), 30*time.Second, "the bot did not move within 30 s of version %d", version)
			time.Sleep(5 * time.Millisecond)
		}
	}
	doc := waitBot(version, time.Now()) // the bot calls odd or even
	for i := 0; ; i++ {
		require.Less(t, i, 2000, "the match did not end")
		st := doc["state"].(map[string]any)
		if st["phase"] == "gameOver" {
			break
		}
		if st["currentPlayerId"] != me {
			// The bot is still rolling: wait for its next move.
			doc = waitBot(doc["version"].(int64), time.Now())
			waits = waits[:len(waits)-1] // only the first reply to a person's action counts
			continue
		}
		typ := "roll"
		if ts, _ := st["turnScore"].(int64); ts >= 15 {
			typ = "bank"
		}
		out := call(map[string]any{"gameId": id, "actionId": fmt.Sprint("a", i), "type": typ})
		sent := time.Now()
		v := int64(out["version"].(float64))
		doc, err = s.Store.GameDoc(ctx, id)
		require.NoError(t, err)
		if st := doc["state"].(map[string]any); st["phase"] != "gameOver" && st["currentPlayerId"] != me {
			doc = waitBot(v, sent)
		}
	}
	st := doc["state"].(map[string]any)
	t.Logf("winner %v after %d versions", st["winner"], doc["version"])
	sort.Slice(waits, func(i, j int) bool { return waits[i] < waits[j] })
	if len(waits) > 0 {
		q := func(p float64) time.Duration { return waits[min(len(waits)-1, int(p*float64(len(waits))))] }
		t.Logf("person's action -> bot's reply through the stack: n=%d p50 %s p90 %s max %s", len(waits), q(0.5), q(0.9), waits[len(waits)-1])
	}

	// The gameOver's effects run (the record is no longer pending) and
	// award nothing: a game with a bot changes no stats.
	eventually(t, 20*time.Second, func() error {
		recs, err := s.Store.Events(ctx, id)
		if err != nil {
			return err
		}
		for _, r := range recs {
			for _, e := range r.Events {
				if e.Type == domain.EventGameOver && r.Pending {
					return fmt.Errorf("the gameOver record is still pending")
				}
			}
		}
		return nil
	})
	snap, err := s.Store.FS.Collection("players").Doc(me).Get(ctx)
	if status.Code(err) != codes.NotFound {
		require.NoError(t, err)
		_, err := snap.DataAt("stats.dashdice")
		require.Error(t, err, "the person has DashDice stats after a game with a bot: %v", snap.Data())
	}
}
