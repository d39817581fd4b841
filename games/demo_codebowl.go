package games

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/codebowl"
)

// coach registers a CodeBowl coach (guests may only watch), or logs the
// account in when a stack kept from an earlier run has it already.
func coach(ctx context.Context, c domain.Caller, username, nickname string) (map[string]any, error) {
	out, err := c.Call(ctx, "Auth", "", map[string]any{"type": "register", "username": username, "password": "correct horse", "nickname": nickname})
	if err != nil && strings.Contains(err.Error(), domain.EEXISTS) {
		out, err = c.Call(ctx, "Auth", "", map[string]any{"type": "login", "username": username, "password": "correct horse"})
	}
	return out, err
}

// demoTeam is a valid team spec of seven players named after the team.
func demoTeam(name string, st, ag, mv int) codebowl.TeamSpec {
	ts := codebowl.TeamSpec{Name: name}
	for i := 0; i < codebowl.TeamSize; i++ {
		ts.Players = append(ts.Players, codebowl.PlayerSpec{Name: fmt.Sprintf("%s %d", name, i+1), ST: st, AG: ag, MV: mv})
	}
	return ts
}

func specBody(spec codebowl.TeamSpec, fields map[string]any) map[string]any {
	b, _ := json.Marshal(spec)
	body := map[string]any{}
	_ = json.Unmarshal(b, &body)
	for k, v := range fields {
		body[k] = v
	}
	return body
}

// codeBowlDemo registers two coaches, Carla and Dario, gives each a team
// and has Carla create a private match (seeded) that Dario joins with its
// room code. The commands it prints place the defense, post a chat message
// and list what the other coach may do.
func codeBowlDemo(ctx context.Context, c domain.Caller) (domain.DemoGame, error) {
	v := map[string]string{}
	for _, p := range []struct{ user, name, st string }{{"carla", "Carla", "6"}, {"dario", "Dario", "4"}} {
		out, err := coach(ctx, c, "demo_"+p.user, p.name)
		if err != nil {
			return domain.DemoGame{}, err
		}
		v[p.user+"Token"] = out["token"].(string)
		v[p.user+"Id"] = out["player"].(map[string]any)["id"].(string)
	}
	teams := map[string]codebowl.TeamSpec{"carla": demoTeam("Crushers", 6, 3, 3), "dario": demoTeam("Darters", 3, 5, 4)}
	for _, who := range []string{"carla", "dario"} {
		out, err := c.Call(ctx, "CodeBowl", v[who+"Token"], specBody(teams[who], map[string]any{"type": "createTeam", "actionId": "demo-team"}))
		if err != nil {
			return domain.DemoGame{}, err
		}
		v[who+"Team"] = out["result"].(map[string]any)["id"].(string)
	}
	out, err := c.Call(ctx, "CodeBowl", v["carlaToken"], map[string]any{"type": "create", "actionId": "demo-create",
		"teamId": v["carlaTeam"], "private": true, "turnSeconds": -1, "seed": "codebowl-demo-1"})
	if err != nil {
		return domain.DemoGame{}, err
	}
	res := out["result"].(map[string]any)
	v["matchId"], v["roomCode"] = res["gameId"].(string), res["roomCode"].(string)
	out, err = c.Call(ctx, "CodeBowl", v["darioToken"], map[string]any{"type": "join", "actionId": "demo-join",
		"roomCode": v["roomCode"], "teamId": v["darioTeam"]})
	if err != nil {
		return domain.DemoGame{}, err
	}
	// The defense places first: the side that lost the coin flip.
	first, _ := out["result"].(map[string]any)["firstOffense"].(string)
	defense, offense := "dario", "carla"
	if first == string(codebowl.Away) {
		defense, offense = "carla", "dario"
	}
	out, err = c.Call(ctx, "CodeBowl", v[defense+"Token"], map[string]any{"type": "legal", "actionId": "demo-legal", "gameId": v["matchId"]})
	if err != nil {
		return domain.DemoGame{}, err
	}
	moves, _ := out["result"].(map[string]any)["moves"].([]any)
	if len(moves) == 0 {
		return domain.DemoGame{}, fmt.Errorf("codebowl demo: the defense has no placement to make")
	}
	place := moves[0].(map[string]any)["payload"].(map[string]any)
	place["gameId"], place["actionId"], place["type"] = v["matchId"], "p1", "place"
	placeJSON, _ := json.Marshal(place)
	v["defense"], v["offense"] = defense, offense

	u := c.URL("CodeBowl")
	text := fmt.Sprintf(`Carla (%s, team Crushers %s) created a private match %s (room %s); Dario (%s, team Darters %s) joined it.
Coaches are registered accounts (password "correct horse"); guests may watch but not act. No turn timer in this one.

  export CARLA=%s
  export DARIO=%s

%s lost the coin flip and places the defense first (the line formation, one action):
  curl -s %s -H "Authorization: Bearer $%s" -d '%s'
Then %s lists the placements open to them:
  curl -s %s -H "Authorization: Bearer $%s" -d '{"gameId":"%s","actionId":"l1","type":"legal"}'
Coaches chat (5 messages per 10 s each; spectators read games/%s/chat):
  curl -s %s -H "Authorization: Bearer $CARLA" -d '{"gameId":"%s","actionId":"c1","type":"chat","text":"good luck!"}'
A coach's teams, readable by anyone signed in: query cbteams where coach == "%s".`,
		v["carlaId"], v["carlaTeam"], v["matchId"], v["roomCode"], v["darioId"], v["darioTeam"],
		v["carlaToken"], v["darioToken"],
		strings.ToUpper(defense[:1])+defense[1:], u, strings.ToUpper(defense), placeJSON,
		strings.ToUpper(offense[:1])+offense[1:], u, strings.ToUpper(offense), v["matchId"],
		v["matchId"], u, v["matchId"], v["carlaId"])
	return domain.DemoGame{Title: "CodeBowl", Lines: strings.Split(text, "\n"), Values: v}, nil
}
