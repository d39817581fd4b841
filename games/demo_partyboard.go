package games

import (
	"context"
	"fmt"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// partyBoardDemo opens a Pokémon Gen 1 lobby for Cleo, with Dan joined.
func partyBoardDemo(ctx context.Context, c domain.Caller) (domain.DemoGame, error) {
	v := map[string]string{}
	for _, p := range []string{"Cleo", "Dan"} {
		out, err := c.Guest(ctx, p)
		if err != nil {
			return domain.DemoGame{}, err
		}
		v[strings.ToLower(p)+"Token"] = out["token"].(string)
	}
	out, err := c.Call(ctx, "PartyBoard", v["cleoToken"], map[string]any{
		"type": "create", "actionId": "demo-board", "board": "pokemon-gen1", "seed": "meeple-demo-board"})
	if err != nil {
		return domain.DemoGame{}, err
	}
	res := out["result"].(map[string]any)
	v["gameId"], v["roomCode"] = res["gameId"].(string), res["roomCode"].(string)
	if _, err := c.Call(ctx, "PartyBoard", v["danToken"], map[string]any{
		"type": "join", "actionId": "demo-board-join", "roomCode": v["roomCode"]}); err != nil {
		return domain.DemoGame{}, err
	}
	u := c.URL("PartyBoard")
	text := fmt.Sprintf(`Cleo opened a Pokémon Gen 1 game %s (room %s) and Dan joined.
Others may join with the room code; Cleo starts it, then everyone picks a starter:
  export CLEO=%s
  export DAN=%s
  curl -s %s -H "Authorization: Bearer $CLEO" -d '{"gameId":"%s","actionId":"s1","type":"start"}'
  curl -s %s -H "Authorization: Bearer $DAN" -d '{"gameId":"%s","actionId":"p1","type":"starter","starter":"Squirtle"}'
The game document's state.await always says who must act next, and how.
Draw the board (every tile's corners, text and zone) from the backend alone:
  curl -s %s -H "Authorization: Bearer $CLEO" -d '{"actionId":"b1","type":"getBoard","board":"pokemon-gen1"}'
A game with "turnSeconds" in its create times out absent players (docs/partyboard.md).`,
		v["gameId"], v["roomCode"], v["cleoToken"], v["danToken"], u, v["gameId"], u, v["gameId"], u)
	return domain.DemoGame{Title: "Party Board", Lines: strings.Split(text, "\n"), Values: v}, nil
}
