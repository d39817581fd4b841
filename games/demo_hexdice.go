package games

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/hexdice"
)

// hexDiceDemoSeed and hexDiceDemoMap fix the demo room's dice and map, so
// the commands it prints (who starts, where to buy) are right every run.
const (
	hexDiceDemoSeed = "meeple-demo-seed"
	hexDiceDemoMap  = "meeple-demo-map"
)

// hexDiceDemo signs in Ada and Ben and has Ada create a private room
// (small map, 120 s turns, alternating) with a fixed seed and map. Ben has
// not joined yet: the connection clocks start when he does, so the printed
// commands work whenever they are pasted within the room's 30 minutes. Who
// starts and where they may buy follow from the seed; the demo works them
// out with the same rules and dice the function uses.
func hexDiceDemo(ctx context.Context, c domain.Caller) (domain.DemoGame, error) {
	v := map[string]string{}
	actors := map[string]domain.Actor{}
	for _, p := range []string{"Ada", "Ben"} {
		out, err := c.Guest(ctx, p)
		if err != nil {
			return domain.DemoGame{}, err
		}
		key := strings.ToLower(p)
		pl := out["player"].(map[string]any)
		v[key+"Token"] = out["token"].(string)
		v[key+"Firebase"] = out["firebaseToken"].(string)
		v[key+"Id"] = pl["id"].(string)
		actors[key] = domain.Actor{ID: pl["id"].(string), Name: pl["name"].(string), Role: domain.RoleGuest}
	}
	create := hexdice.CreateRequest{Size: hexdice.Small, TurnSeconds: 120, Mode: hexdice.Alternating, Private: true, MapSeed: hexDiceDemoMap}
	body := map[string]any{"type": "create", "actionId": "demo-create", "seed": hexDiceDemoSeed}
	raw, _ := json.Marshal(create)
	_ = json.Unmarshal(raw, &body)
	out, err := c.Call(ctx, "HexDice", v["adaToken"], body)
	if err != nil {
		return domain.DemoGame{}, err
	}
	res := out["result"].(map[string]any)
	v["gameId"], v["roomCode"] = res["gameId"].(string), res["roomCode"].(string)

	// What the join will do: the game made the same way, joined with the
	// dice of version 1 (docs/randomness.md).
	rules := hexdice.Rules{}
	g, err := rules.NewGame(v["gameId"], actors["ada"], hexdice.Options{Size: create.Size, TurnSeconds: create.TurnSeconds,
		Mode: create.Mode, MapSeed: create.MapSeed, Private: true}, time.Now())
	if err != nil {
		return domain.DemoGame{}, err
	}
	g, _, err = rules.Apply(g, domain.Action{Type: hexdice.ActionJoin, Actor: actors["ben"], Payload: json.RawMessage(`{}`)},
		domain.Env{Now: time.Now(), Dice: domain.NewSeededDice(hexDiceDemoSeed, 1)})
	if err != nil {
		return domain.DemoGame{}, err
	}
	m, err := rules.MapOf(g)
	if err != nil {
		return domain.DemoGame{}, err
	}
	first, second := "ada", "ben"
	if g.Current == 1 {
		first, second = "ben", "ada"
	}
	buy := hexdice.BuyOptions(g, m, g.Current)[0].Hex
	v["first"], v["buyQ"], v["buyR"] = v[first+"Id"], fmt.Sprint(buy.Q), fmt.Sprint(buy.R)

	u := c.URL("HexDice")
	upper := map[string]string{"ada": "ADA", "ben": "BEN"}
	name := map[string]string{"ada": "Ada", "ben": "Ben"}
	F, S := upper[first], upper[second]
	id := v["gameId"]
	text := fmt.Sprintf(`Ada (%s) created a private room %s on a small map (120 s turns, alternating),
room code %s. Its seed and map are fixed, so it plays the same way every run.

  export ADA=%s
  export BEN=%s

Ben joins with the room code (the clocks start now: a player who sends nothing
for 60 s is disconnected and forfeits 60 s later, so keep going or send heartbeats):
  curl -s %s -H "Authorization: Bearer $BEN" -d '{"actionId":"j1","type":"join","roomCode":"%s"}'
The seeded d2 makes %s start. %s buys a hoverbike next to the HQ, previews it, ends the turn:
  curl -s %s -H "Authorization: Bearer $%s" -d '{"gameId":"%s","actionId":"b1","type":"buy","unit":"hoverbike","q":%d,"r":%d}'
  curl -s %s -H "Authorization: Bearer $%s" -d '{"gameId":"%s","actionId":"p1","type":"preview","troop":1}'
  curl -s %s -H "Authorization: Bearer $%s" -d '{"gameId":"%s","actionId":"e1","type":"endTurn"}'
Then %s asks what can be done now, waves, and keeps the connection:
  curl -s %s -H "Authorization: Bearer $%s" -d '{"gameId":"%s","actionId":"l1","type":"legal"}'
  curl -s %s -H "Authorization: Bearer $%s" -d '{"gameId":"%s","actionId":"m1","type":"emote","emote":"hello"}'
  curl -s %s -H "Authorization: Bearer $%s" -d '{"gameId":"%s","actionId":"h1","type":"heartbeat"}'
(Use a new actionId for every action; repeating one returns the first reply.)

Quick match (medium map, 90 s, alternating) pairs two players who call it:
  curl -s %s -H "Authorization: Bearer <token>" -d '{"actionId":"q1","type":"quickMatch"}'

Watch from a web client (Firebase JS SDK): the game, the map (written once), the events:
  connectFirestoreEmulator(db, "127.0.0.1", %s, { mockUserToken: "<firebaseToken from /Auth>" })
  onSnapshot(doc(db, "games", "%s"), snap => console.log(snap.data().state))
  getDoc(doc(db, "games", "%s", "public", "map"))
Ada's Firebase token: %s`,
		v["adaId"], id, v["roomCode"], v["adaToken"], v["benToken"],
		u, v["roomCode"],
		name[first], name[first],
		u, F, id, buy.Q, buy.R,
		u, F, id,
		u, F, id,
		name[second],
		u, S, id, u, S, id, u, S, id,
		u, port(c.FirestoreHost()), id, id, v["adaFirebase"])
	return domain.DemoGame{Title: "Hex & Dice", Lines: strings.Split(text, "\n"), Values: v}, nil
}
