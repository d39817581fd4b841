package games

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

var demoTeams = []struct {
	name, color, password string
	members               []string
}{
	{"Red Dragons", "#e11d48", "red-pass", []string{"Zezima", "Lynx Titan", "B0aty"}},
	{"Blue Moons", "#2563eb", "blue-pass", []string{"Woox", "Framed", "Odablock"}},
	{"Green Goblins", "#16a34a", "green-pass", []string{"Settled", "Mmorpg", "Sick Nerd"}},
	{"Gold Guthix", "#ca8a04", "gold-pass", []string{"Torvesta", "Skiddler", "Dino"}},
	{"Purple Zaros", "#9333ea", "purple-pass", []string{"Faux", "Coxie", "Alfie"}},
}

// demoTasks is a task file in the import format: skills, bosses, minigames
// and clues combined into 35 easy, 36 medium and 30 hard tasks, enough for
// the randomiser (56 tiles, at least 17 hard, 3 left in each pool). Most need
// one completion; some take 2 of up to 3, a few are group tasks.
func demoTasks() string {
	var b strings.Builder
	b.WriteString("label,difficulty,max,min,instructions,image,start proof,group\n")
	skills := []string{"Fishing", "Woodcutting", "Mining", "Cooking", "Smithing", "Crafting", "Fletching", "Firemaking", "Thieving", "Agility"}
	for i, s := range skills {
		fmt.Fprintf(&b, "Gain 50k %s XP,easy,1,1,Screenshot before and after,,yes,no\n", s)
		fmt.Fprintf(&b, "Gain 250k %s XP,medium,1,1,Screenshot before and after,,yes,no\n", s)
		fmt.Fprintf(&b, "Gain 1m %s XP,hard,1,1,Screenshot before and after,,yes,no\n", s)
		if i%2 == 0 {
			fmt.Fprintf(&b, "Three players each gain 25k %s XP,easy,3,3,One screenshot per player,,no,yes\n", s)
		}
	}
	easyBosses := []string{"Giant Mole", "Obor", "Bryophyta", "Barrows brothers", "Dagannoth Kings", "Kalphite Queen", "Scurrius", "Sarachnis"}
	for _, boss := range easyBosses {
		fmt.Fprintf(&b, "Kill %s,easy,3,1,Drop screenshot per kill,,no,no\n", boss)
		fmt.Fprintf(&b, "Get a unique from %s,medium,1,1,Drop screenshot,,no,no\n", boss)
	}
	hardBosses := []string{"Zulrah", "Vorkath", "Cerberus", "Alchemical Hydra", "The Nightmare", "Corporeal Beast", "General Graardor", "K'ril Tsutsaroth", "Commander Zilyana", "Kree'arra", "Nex", "Phantom Muspah", "The Leviathan", "Duke Sucellus"}
	for _, boss := range hardBosses {
		fmt.Fprintf(&b, "Kill %s,medium,2,1,Kill count screenshot per kill,,yes,no\n", boss)
		fmt.Fprintf(&b, "Get a unique from %s,hard,1,1,Drop screenshot,,no,no\n", boss)
	}
	for _, raid := range []string{"Chambers of Xeric", "Theatre of Blood", "Tombs of Amascut"} {
		fmt.Fprintf(&b, "Complete %s as a team,hard,1,1,Completion screenshot with the whole team,,no,no\n", raid)
		fmt.Fprintf(&b, "Get a purple from %s,hard,1,1,Drop screenshot,,no,no\n", raid)
	}
	minigames := []string{"Wintertodt", "Tempoross", "Guardians of the Rift", "Pest Control", "Barbarian Assault", "Volcanic Mine", "Giants' Foundry", "Mahogany Homes"}
	for i, game := range minigames {
		if i%2 == 0 {
			fmt.Fprintf(&b, "Win 3 %s games,easy,3,2,Reward screenshot per game,,no,no\n", game)
		} else {
			fmt.Fprintf(&b, "Two players finish a %s game together,easy,3,2,One screenshot with both players,,no,yes\n", game)
		}
	}
	for _, clue := range []string{"easy", "medium", "hard", "elite"} {
		fmt.Fprintf(&b, "Complete 3 %s clue scrolls,easy,3,3,Casket screenshot per clue,,no,no\n", clue)
		fmt.Fprintf(&b, "Complete 10 %s clue scrolls,medium,10,5,Casket screenshot per clue,,no,no\n", clue)
	}
	return b.String()
}

const demoPowerupTiles = "reward,label,points,max,min,claim,instructions\n" +
	"skip1,Kill a wilderness boss,1.5,3,1,eachTeam,Any wilderness boss\n" +
	"back2,First to a new 99,2,1,1,firstTeam,Level-up screenshot\n" +
	"clearCooldown,Complete any clue scroll,0.25,2,1,unlimited,Casket screenshot\n"

// tileRaceDemo creates the demo Tile Race through the functions, as its
// master admin would: admins, five teams, imported pools and powerup tiles,
// a randomised board (seeded, so it is the same every run), and starts it.
func tileRaceDemo(ctx context.Context, c domain.Caller) (domain.DemoGame, error) {
	out, err := c.Guest(ctx, "Mia")
	if err != nil {
		return domain.DemoGame{}, err
	}
	const masterName, masterPassword = "Mia", "master-pass"
	out, err = c.Call(ctx, "TileRace", out["token"].(string), map[string]any{
		"actionId": "demo-race", "type": "create", "name": masterName, "password": masterPassword, "seed": "meeple-demo-race"})
	if err != nil {
		return domain.DemoGame{}, err
	}
	gameID := out["gameId"].(string)
	master := out["result"].(map[string]any)["session"].(map[string]any)["token"].(string)
	v := map[string]string{"gameId": gameID, "masterToken": master, "masterName": masterName, "masterPassword": masterPassword}
	act := func(id string, body map[string]any) (map[string]any, error) {
		body["gameId"], body["actionId"] = gameID, id
		return c.Call(ctx, "TileRace", master, body)
	}
	if _, err := act("demo-admin", map[string]any{"type": "addAdmin", "id": "ada", "name": "Ada", "password": "admin-pass"}); err != nil {
		return domain.DemoGame{}, err
	}
	for i, t := range demoTeams {
		out, err := act(fmt.Sprint("demo-team-", i), map[string]any{"type": "createTeam", "name": t.name, "color": t.color,
			"members": t.members, "slot": i + 1, "password": t.password})
		if err != nil {
			return domain.DemoGame{}, err
		}
		v[fmt.Sprint("team", i)] = out["result"].(map[string]any)["team"].(map[string]any)["id"].(string)
	}
	for _, step := range []map[string]any{
		{"type": "importTasks", "data": demoTasks()},
		{"type": "importPowerupTiles", "data": demoPowerupTiles},
		{"type": "randomiseDifficulties", "fill": true},
		{"type": "start"},
	} {
		if _, err := act("demo-"+step["type"].(string), step); err != nil {
			return domain.DemoGame{}, fmt.Errorf("demo race %s: %w", step["type"], err)
		}
	}
	out, err = act("demo-viewBoard", map[string]any{"type": "viewBoard"})
	if err != nil {
		return domain.DemoGame{}, fmt.Errorf("demo race viewBoard: %w", err)
	}
	red := demoTeams[0]
	label, players := firstTile(out, red.members)
	pj, _ := json.Marshal(players)
	v["firstTile"], v["firstPlayers"] = label, string(pj)
	u := c.URL("TileRace")
	auth := c.URL("Auth")
	var b strings.Builder
	fmt.Fprintf(&b, `Game %s is running with five teams on a randomised board.
Sign in as a team (name or id, and its password) or as an admin (%s is the master
admin; Ada / admin-pass is a regular admin):
  T=$(curl -s %s -d '{"type":"teamLogin","gameId":"%s","team":"%s","password":"%s"}' | jq -r .token)
  curl -s %s -d '{"type":"adminLogin","gameId":"%s","admin":"%s","password":"%s"}'
Teams and passwords:`, gameID, masterName, auth, gameID, red.name, red.password, auth, gameID, masterName, masterPassword)
	for _, t := range demoTeams {
		fmt.Fprintf(&b, "\n  %-14s %-12s members %s", t.name, t.password, strings.Join(t.members, ", "))
	}
	fmt.Fprintf(&b, `
A team completes its current tile (its position is in games/%s/teams/{teamId}, the
tile's min and max in games/%s/public/board, which shows revealed tiles only).
Every team starts on tile 1 (%q, min %d); %s completes it with its token from teamLogin ($T):
  curl -s %s -H "Authorization: Bearer $T" -d '{"gameId":"%s","actionId":"c1","type":"complete","tile":1,"recorded":0,"players":%s,"complete":true}'
Points: games/%s/public/leaderboard. Every action: docs/tilerace.md.`, gameID, gameID, label, len(players), red.name, u, gameID, pj, gameID)
	return domain.DemoGame{Title: "Tile Race", Lines: strings.Split(b.String(), "\n"), Values: v}, nil
}

// firstTile reads tile 1's label and min from a viewBoard reply and names
// that many completions by members (one entry per completion; a name repeats
// only when the tile is not a group task and the team is too small).
func firstTile(reply map[string]any, members []string) (string, []string) {
	min, label := 1, ""
	if res, ok := reply["result"].(map[string]any); ok {
		if tiles, ok := res["tiles"].([]any); ok && len(tiles) > 0 {
			if content, ok := tiles[0].(map[string]any)["content"].(map[string]any); ok {
				label, _ = content["label"].(string)
				if m, ok := content["min"].(float64); ok && m >= 1 {
					min = int(m)
				}
			}
		}
	}
	players := make([]string, min)
	for i := range players {
		players[i] = members[i%len(members)]
	}
	return label, players
}
