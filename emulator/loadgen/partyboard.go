package main

import (
	"context"
	"fmt"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/emulator/stack"
)

type boardFigures struct {
	actions, rolls                       int
	reads, writes, rollReads, rollWrites float64
	maxDoc                               int
}

// playBoard plays one 12-player Party Board game on pokemon-gen1 through the
// functions, answering whatever the game awaits, and counts Firestore reads and
// writes per action and the size of the game document.
func playBoard(ctx context.Context, s *stack.Stack, fs *firestore.Client, cnt *counter) (*boardFigures, error) {
	c := client{base: s.FunctionsURL}
	tokens := map[string]string{}
	var first string
	for i := 0; i < 12; i++ {
		out, err := c.post(ctx, "Auth", "", map[string]any{"type": "guest", "nickname": fmt.Sprint("Trainer ", i)})
		if err != nil {
			return nil, err
		}
		id := out["player"].(map[string]any)["id"].(string)
		tokens[id] = out["token"].(string)
		if i == 0 {
			first = id
		}
	}
	out, err := c.post(ctx, "PartyBoard", tokens[first], map[string]any{"actionId": "pb", "type": "create", "board": "pokemon-gen1"})
	if err != nil {
		return nil, err
	}
	gameID := out["result"].(map[string]any)["gameId"].(string)
	for id, tok := range tokens {
		if id != first {
			if _, err := c.post(ctx, "PartyBoard", tok, map[string]any{"gameId": gameID, "actionId": "j", "type": "join"}); err != nil {
				return nil, err
			}
		}
	}
	if _, err := c.post(ctx, "PartyBoard", tokens[first], map[string]any{"gameId": gameID, "actionId": "s", "type": "start"}); err != nil {
		return nil, err
	}
	f := &boardFigures{}
	for n := 0; n < 5000; n++ {
		snap, err := fs.Collection("games").Doc(gameID).Get(ctx)
		if err != nil {
			return nil, err
		}
		f.maxDoc = max(f.maxDoc, docSize(snap.Ref.Path, snap.Data()))
		st := snap.Data()["state"].(map[string]any)
		w, ok := st["await"].(map[string]any)
		if !ok {
			return f, nil // over
		}
		who := w["players"].([]any)[0].(string)
		body := map[string]any{"gameId": gameID, "actionId": fmt.Sprint("a", n), "type": w["action"]}
		pick := func(key string) any { l := w[key].([]any); return l[n%len(l)] }
		switch w["action"] {
		case "choose":
			body["choice"] = n % len(w["choices"].([]any))
		case "target":
			body["playerId"] = pick("targets")
		case "starter":
			body["starter"] = pick("starters")
		case "challenge":
			t := w["targets"].([]any)
			body["winner"], body["loser"] = t[0], t[1]
		}
		r0, w0 := cnt.snapshot()
		if _, err := c.post(ctx, "PartyBoard", tokens[who], body); err != nil {
			return nil, err
		}
		r1, w1 := cnt.snapshot()
		f.actions++
		f.reads += float64(r1 - r0)
		f.writes += float64(w1 - w0)
		if w["action"] == "roll" {
			f.rolls++
			f.rollReads += float64(r1 - r0)
			f.rollWrites += float64(w1 - w0)
		}
	}
	return f, nil
}
