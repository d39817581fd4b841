package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Demo is what SeedDemo made: two signed-in guests and a DashDice match
// between them, waiting for Bob to call odd or even.
type Demo struct {
	AliceToken, BobToken           string
	AliceFirebase, BobFirebase     string
	AliceID, BobID                 string
	MatchID, RoomCode, OpenMatchID string
	OpenRoomCode                   string
	BoardGameID, BoardRoomCode     string // a Party Board lobby on pokemon-gen1
	Race                           *RaceDemo
}

// Post calls a function of the local stack the way any client does and
// returns its decoded JSON reply; a non-200 reply is an error.
func Post(ctx context.Context, url, token string, body any) (map[string]any, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("%s: %s", resp.Status, raw)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", resp.Status, raw)
	}
	return out, nil
}

// SeedDemo signs in Alice and Bob and sets up two Classic matches through the
// real functions: one Bob has joined (seeded, so it replays the same way every
// run), and one open room anyone can join.
func SeedDemo(ctx context.Context, base string) (*Demo, error) {
	d := &Demo{}
	for _, p := range []struct {
		name                string
		token, firebase, id *string
	}{{"Alice", &d.AliceToken, &d.AliceFirebase, &d.AliceID}, {"Bob", &d.BobToken, &d.BobFirebase, &d.BobID}} {
		out, err := Post(ctx, base+"/Auth", "", map[string]any{"type": "guest", "nickname": p.name})
		if err != nil {
			return nil, err
		}
		*p.token = out["token"].(string)
		*p.firebase = out["firebaseToken"].(string)
		*p.id = out["player"].(map[string]any)["id"].(string)
	}
	out, err := Post(ctx, base+"/DashDice", d.AliceToken, map[string]any{
		"type": "create", "actionId": "demo-create", "mode": "classic", "private": true, "turnSeconds": 0, "seed": "meeple-demo-seed"})
	if err != nil {
		return nil, err
	}
	res := out["result"].(map[string]any)
	d.MatchID, d.RoomCode = res["gameId"].(string), res["roomCode"].(string)
	if _, err := Post(ctx, base+"/DashDice", d.BobToken, map[string]any{
		"type": "join", "actionId": "demo-join", "roomCode": d.RoomCode}); err != nil {
		return nil, err
	}
	out, err = Post(ctx, base+"/DashDice", d.AliceToken, map[string]any{
		"type": "create", "actionId": "demo-open", "mode": "zero-hour", "private": true})
	if err != nil {
		return nil, err
	}
	res = out["result"].(map[string]any)
	d.OpenMatchID, d.OpenRoomCode = res["gameId"].(string), res["roomCode"].(string)
	out, err = Post(ctx, base+"/PartyBoard", d.AliceToken, map[string]any{
		"type": "create", "actionId": "demo-board", "board": "pokemon-gen1", "seed": "meeple-demo-board"})
	if err != nil {
		return nil, err
	}
	res = out["result"].(map[string]any)
	d.BoardGameID, d.BoardRoomCode = res["gameId"].(string), res["roomCode"].(string)
	if _, err := Post(ctx, base+"/PartyBoard", d.BobToken, map[string]any{
		"type": "join", "actionId": "demo-board-join", "roomCode": d.BoardRoomCode}); err != nil {
		return nil, err
	}
	if d.Race, err = seedRace(ctx, base); err != nil {
		return nil, err
	}
	return d, nil
}
