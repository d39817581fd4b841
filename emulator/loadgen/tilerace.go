package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/emulator/stack"
)

type raceFigures struct {
	teams, sequential        int
	actReads, actWrites      float64 // per completion, the action's own transaction
	allReads, allWrites      float64 // per completion, with its points effects
	concurrent, failed, slow int     // slow: over 500 ms (a transaction Firestore aborted and the client retried)
	movesUnderLoad           int     // completions under load whose position reveals more (the leader's can move the frontier)
	elapsed                  time.Duration
	latency                  []time.Duration
	frontierMoves            int
}

// raceTasks is a task file of single-completion tasks, so every request
// completes its tile.
func raceLoadTasks() string {
	var b strings.Builder
	for _, d := range []string{"easy", "medium", "hard"} {
		for i := 0; i < 60; i++ {
			fmt.Fprintf(&b, "%s %d,%s,1,1\n", d, i, d)
		}
	}
	return b.String()
}

// playRace sets up a Tile Race with n teams through the functions, then
// measures (1) Firestore reads and writes per completion, one at a time,
// with and without the points effects the trigger runs for it, and (2)
// completions per second with every team completing tiles at once.
func playRace(ctx context.Context, s *stack.Stack, fs *firestore.Client, cnt *counter, n, perTeam int) (*raceFigures, error) {
	c := client{base: s.FunctionsURL}
	out, err := c.post(ctx, "Auth", "", map[string]any{"type": "guest", "nickname": "Mia"})
	if err != nil {
		return nil, err
	}
	out, err = c.post(ctx, "TileRace", out["token"].(string), map[string]any{"actionId": "race", "type": "create", "name": "Mia", "password": "master-pass"})
	if err != nil {
		return nil, err
	}
	gameID := out["gameId"].(string)
	master := out["result"].(map[string]any)["session"].(map[string]any)["token"].(string)
	admin := func(id string, body map[string]any) error {
		body["gameId"], body["actionId"] = gameID, id
		_, err := c.post(ctx, "TileRace", master, body)
		return err
	}
	tokens := make([]string, n)
	for i := range n {
		if err := admin(fmt.Sprint("team", i), map[string]any{"type": "createTeam", "name": fmt.Sprint("Team ", i),
			"members": []string{fmt.Sprint("Cap", i)}, "password": "team-pass"}); err != nil {
			return nil, err
		}
		out, err := c.post(ctx, "Auth", "", map[string]any{"type": "teamLogin", "gameId": gameID, "team": fmt.Sprint("Team ", i), "password": "team-pass"})
		if err != nil {
			return nil, err
		}
		tokens[i] = out["token"].(string)
	}
	for _, step := range []map[string]any{
		{"type": "importTasks", "data": raceLoadTasks()},
		{"type": "randomiseDifficulties", "fill": true},
		{"type": "start"},
	} {
		if err := admin(step["type"].(string), step); err != nil {
			return nil, err
		}
	}
	f := &raceFigures{teams: n}
	pos := make([]int, n)
	for i := range pos {
		pos[i] = 1
	}
	complete := func(i int, id string) (map[string]any, error) {
		out, err := c.post(ctx, "TileRace", tokens[i], map[string]any{"gameId": gameID, "actionId": id, "type": "complete",
			"tile": pos[i], "recorded": 0, "players": []string{fmt.Sprint("Cap", i)}, "complete": true})
		if err != nil {
			return nil, err
		}
		pos[i] = int(out["result"].(map[string]any)["position"].(float64))
		return out, nil
	}
	// (1) One at a time: each team completes one tile; wait for its points
	// effects before the next.
	for i := range n {
		r0, w0 := cnt.snapshot()
		out, err := complete(i, "seq")
		if err != nil {
			return nil, err
		}
		r1, w1 := cnt.snapshot()
		if err := waitApplied(ctx, fs, gameID, fmt.Sprintf("%s~seq", teamOf(out))); err != nil {
			return nil, err
		}
		r2, w2 := cnt.snapshot()
		f.sequential++
		f.actReads += float64(r1 - r0)
		f.actWrites += float64(w1 - w0)
		f.allReads += float64(r2 - r0)
		f.allWrites += float64(w2 - w0)
		if movedFrontier(out) {
			f.frontierMoves++
		}
	}
	// (2) All teams at once, perTeam completions each.
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < perTeam; k++ {
				t0 := time.Now()
				out, err := complete(i, fmt.Sprint("c", k))
				d := time.Since(t0)
				mu.Lock()
				if err != nil {
					f.failed++
				} else {
					f.concurrent++
					f.latency = append(f.latency, d)
					if d > 500*time.Millisecond {
						f.slow++
					}
					if movedFrontier(out) {
						f.movesUnderLoad++
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	f.elapsed = time.Since(start)
	return f, nil
}

// movedFrontier reports whether a completion moved the fog frontier: the
// position it reached reveals more than the position before did.
func movedFrontier(reply map[string]any) bool {
	pos := int(reply["result"].(map[string]any)["position"].(float64))
	return pos > 1 && tilerace.RevealUpTo(pos) > tilerace.RevealUpTo(pos-1)
}

// teamOf is the actor id of a Tile Race reply's team: the team id.
func teamOf(reply map[string]any) string {
	for _, ev := range reply["events"].([]any) {
		if d, ok := ev.(map[string]any)["data"].(map[string]any); ok {
			if t, ok := d["team"].(string); ok {
				return t
			}
		}
	}
	return ""
}

// waitApplied waits until the trigger applied an event record's effects.
func waitApplied(ctx context.Context, fs *firestore.Client, gameID, eventID string) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		snap, err := fs.Collection("games").Doc(gameID).Collection("events").Doc(eventID).Get(ctx)
		if err == nil && snap.Data()["pending"] == false {
			time.Sleep(20 * time.Millisecond) // the trigger's reply after its commit
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Errorf("event %s/%s still pending after 10 s", gameID, eventID)
}
