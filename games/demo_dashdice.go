package games

import (
	"context"
	"fmt"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// dashDiceDemo signs in Alice and Bob and sets up two matches through the
// real functions: a Classic one Bob has joined (seeded, so it replays the
// same way every run), and a Zero Hour room anyone can join.
func dashDiceDemo(ctx context.Context, c domain.Caller) (domain.DemoGame, error) {
	v := map[string]string{}
	for _, p := range []string{"Alice", "Bob"} {
		out, err := c.Guest(ctx, p)
		if err != nil {
			return domain.DemoGame{}, err
		}
		key := strings.ToLower(p)
		v[key+"Token"] = out["token"].(string)
		v[key+"Firebase"] = out["firebaseToken"].(string)
		v[key+"Id"] = out["player"].(map[string]any)["id"].(string)
	}
	out, err := c.Call(ctx, "DashDice", v["aliceToken"], map[string]any{
		"type": "create", "actionId": "demo-create", "mode": "classic", "private": true, "turnSeconds": 0, "seed": "demo-1"})
	if err != nil {
		return domain.DemoGame{}, err
	}
	res := out["result"].(map[string]any)
	v["matchId"], v["roomCode"] = res["gameId"].(string), res["roomCode"].(string)
	if _, err := c.Call(ctx, "DashDice", v["bobToken"], map[string]any{
		"type": "join", "actionId": "demo-join", "roomCode": v["roomCode"]}); err != nil {
		return domain.DemoGame{}, err
	}
	out, err = c.Call(ctx, "DashDice", v["aliceToken"], map[string]any{
		"type": "create", "actionId": "demo-open", "mode": "zero-hour", "private": true})
	if err != nil {
		return domain.DemoGame{}, err
	}
	res = out["result"].(map[string]any)
	v["openMatchId"], v["openRoomCode"] = res["gameId"].(string), res["roomCode"].(string)

	u := c.URL("DashDice")
	text := fmt.Sprintf(`Alice (%s) created a Classic match %s (room %s) and Bob (%s) joined it.
Its seed is fixed ("demo-1"), so it plays the same way every run.

  export ALICE=%s
  export BOB=%s

Bob calls odd or even to decide who starts; the reply's result.firstTurn says who:
  FIRST=$(curl -s %s -H "Authorization: Bearer $BOB" -d '{"gameId":"%s","actionId":"c1","type":"call","call":"odd"}' | jq -r .result.firstTurn)
  if [ "$FIRST" = host ]; then P=$ALICE; else P=$BOB; fi
Whoever's turn it is rolls, and banks when they like:
  curl -s %s -H "Authorization: Bearer $P" -d '{"gameId":"%s","actionId":"r1","type":"roll"}'
  curl -s %s -H "Authorization: Bearer $P" -d '{"gameId":"%s","actionId":"b1","type":"bank"}'
(Use a new actionId for every action; repeating one returns the first reply.)

A Zero Hour room is open for anyone: sign in and join it with room code %s:
  curl -s %s -d '{"type":"guest","nickname":"You"}'
  curl -s %s -H "Authorization: Bearer <token>" -d '{"actionId":"j1","type":"join","roomCode":"%s"}'
Or find an opponent with quick match (two players, same mode):
  curl -s %s -H "Authorization: Bearer <token>" -d '{"actionId":"q1","type":"quickMatch","mode":"classic"}'

Watch a match live from a web client (Firebase JS SDK):
  connectFirestoreEmulator(db, "127.0.0.1", %s, { mockUserToken: "<firebaseToken from /Auth>" })
  onSnapshot(doc(db, "games", "%s"), snap => console.log(snap.data()))
Alice's Firebase token: %s`, v["aliceId"], v["matchId"], v["roomCode"], v["bobId"], v["aliceToken"], v["bobToken"],
		u, v["matchId"], u, v["matchId"], u, v["matchId"],
		v["openRoomCode"], c.URL("Auth"), u, v["openRoomCode"], u,
		port(c.FirestoreHost()), v["matchId"], v["aliceFirebase"])
	return domain.DemoGame{Title: "DashDice", Lines: strings.Split(text, "\n"), Values: v}, nil
}

func port(hostport string) string {
	if i := strings.LastIndex(hostport, ":"); i >= 0 {
		return hostport[i+1:]
	}
	return hostport
}
