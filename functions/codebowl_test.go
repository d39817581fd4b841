package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"
	"google.golang.org/api/iterator"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/codebowl"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/triggers"
)

// cbCoach registers an account (a CodeBowl coach).
func (s *stack) cbCoach(username string) player {
	s.t.Helper()
	code, out := s.post("", "Auth", map[string]any{"type": "register", "username": username, "password": "correct horse", "nickname": username})
	require.Equal(s.t, http.StatusOK, code, "register: %v", out)
	p := out["player"].(map[string]any)
	require.Equal(s.t, "player", p["role"])
	return player{ID: p["id"].(string), Name: p["name"].(string), Token: out["token"].(string)}
}

func cbSpec(name string, st, ag, mv int) map[string]any {
	var players []map[string]any
	for i := 0; i < codebowl.TeamSize; i++ {
		players = append(players, map[string]any{"name": fmt.Sprintf("%s %d", name, i+1), "st": st, "ag": ag, "mv": mv})
	}
	return map[string]any{"name": name, "image": "https://img.example/" + strings.ToLower(name) + ".png", "players": players}
}

func with(body map[string]any, fields map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range body {
		out[k] = v
	}
	for k, v := range fields {
		out[k] = v
	}
	return out
}

// cbTeam creates a team for p and returns its id.
func (s *stack) cbTeam(p player, actionID string, spec map[string]any) string {
	s.t.Helper()
	code, out := s.post(p.Token, "CodeBowl", with(spec, map[string]any{"type": "createTeam", "actionId": actionID}))
	require.Equal(s.t, http.StatusOK, code, "createTeam: %v", out)
	return out["result"].(map[string]any)["id"].(string)
}

// readDoc reads a document as JSON into v (admin access); false when absent.
func (s *stack) readDoc(path string, v any) bool {
	s.t.Helper()
	snap, err := s.store.FS.Doc(path).Get(context.Background())
	if err != nil && strings.Contains(err.Error(), "NotFound") {
		return false
	}
	require.NoError(s.t, err)
	raw, err := json.Marshal(snap.Data())
	require.NoError(s.t, err)
	require.NoError(s.t, json.Unmarshal(raw, v))
	return true
}

func (s *stack) cbTeamDoc(id string) codebowl.Team {
	s.t.Helper()
	var t codebowl.Team
	require.True(s.t, s.readDoc("cbteams/"+id, &t), "team %s", id)
	return t
}

func (s *stack) cbMatch(id string) (codebowl.Match, int64) {
	s.t.Helper()
	var m codebowl.Match
	v, err := s.store.GameState(context.Background(), id, &m)
	require.NoError(s.t, err)
	return m, v
}

func deadIDs(t codebowl.Team) []string {
	var out []string
	for _, p := range t.Players {
		if p.Dead {
			out = append(out, p.ID)
		}
	}
	return out
}

// cbMatchOf has host create a match with its team and guest join it by room
// code; it returns the match id.
func (s *stack) cbMatchOf(host, joiner player, hostTeam, joinTeam string, opts map[string]any) string {
	s.t.Helper()
	code, out := s.post(host.Token, "CodeBowl", with(opts, map[string]any{"type": "create", "actionId": "create-" + hostTeam, "teamId": hostTeam}))
	require.Equal(s.t, http.StatusOK, code, "create: %v", out)
	res := out["result"].(map[string]any)
	id, room := res["gameId"].(string), res["roomCode"].(string)
	code, out = s.post(joiner.Token, "CodeBowl", map[string]any{"type": "join", "actionId": "join-" + joinTeam, "roomCode": room, "teamId": joinTeam})
	require.Equal(s.t, http.StatusOK, code, "join: %v", out)
	return id
}

// TestCodeBowlEndToEnd: two coaches register and make teams; a guest is
// refused every write; a private match is created with a team and joined by
// room code with another (both locked); it is played to its end by legal
// moves through the HTTP function; every action that kills a player is sent
// twice and changes nothing twice; the teams are untouched while it plays,
// and at the end both are unlocked and have lost exactly the match's dead;
// a spectator reads it all.
func TestCodeBowlEndToEnd(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	project := rulesLoaded(t, s)
	ann, ben := s.cbCoach("cb_ann"), s.cbCoach("cb_ben")
	eve := s.guest("Eve")
	reds := s.cbTeam(ann, "t1", cbSpec("Reds", 6, 3, 3))
	blues := s.cbTeam(ben, "t1", cbSpec("Blues", 6, 3, 3))
	require.Equal(t, codebowl.TeamKey(ann.ID, "t1"), reds)
	require.Equal(t, reds, s.cbTeam(ann, "t1", cbSpec("Reds", 6, 3, 3)), "a retried createTeam finds its team")

	// The guest: refused every write, before anything is read.
	before := s.cbTeamDoc(reds)
	for _, body := range []map[string]any{
		with(cbSpec("Mine", 4, 4, 4), map[string]any{"type": "createTeam", "actionId": "g1"}),
		with(cbSpec("Mine", 4, 4, 4), map[string]any{"type": "editTeam", "actionId": "g2", "teamId": reds}),
		{"type": "restartTeam", "actionId": "g3", "teamId": reds},
		{"type": "create", "actionId": "g4", "teamId": reds},
	} {
		code, out := s.post(eve.Token, "CodeBowl", body)
		require.Equal(t, http.StatusForbidden, code, "%v: %v", body["type"], out)
		require.Equal(t, domain.EFORBIDDEN, errCode(out))
	}
	require.Equal(t, before, s.cbTeamDoc(reds), "nothing changed")

	id := s.cbMatchOf(ann, ben, reds, blues, map[string]any{"private": true, "turnSeconds": -1, "turnsPerHalf": 4, "seed": "cb-e2e-1"})
	require.Equal(t, id, s.cbTeamDoc(reds).Match, "the home team is locked")
	require.Equal(t, id, s.cbTeamDoc(blues).Match, "the joiner's team is locked")
	code, out := s.post(ann.Token, "CodeBowl", with(cbSpec("Rubies", 4, 4, 4), map[string]any{"type": "editTeam", "actionId": "e1", "teamId": reds}))
	require.Equal(t, http.StatusConflict, code, "a locked team cannot be edited: %v", out)

	for _, body := range []map[string]any{
		{"gameId": id, "type": "join", "actionId": "g5", "teamId": reds},
		{"gameId": id, "type": "forfeit", "actionId": "g6"},
		{"gameId": id, "type": "endTurn", "actionId": "g7"},
		{"gameId": id, "type": "chat", "actionId": "g8", "text": "hi"},
		{"gameId": id, "type": "advance", "actionId": "g9"},
	} {
		code, out := s.post(eve.Token, "CodeBowl", body)
		require.Equal(t, http.StatusForbidden, code, "%v: %v", body["type"], out)
	}
	code, out = s.post(eve.Token, "CodeBowl", map[string]any{"gameId": id, "type": "legal", "actionId": "l"})
	require.Equal(t, http.StatusOK, code, "a spectator may look: %v", out)
	require.Empty(t, out["result"].(map[string]any)["moves"])

	code, out = s.post(ann.Token, "CodeBowl", map[string]any{"gameId": id, "type": "chat", "actionId": "c1", "text": "good luck"})
	require.Equal(t, http.StatusOK, code, "%v", out)

	coaches := map[string]player{ann.ID: ann, ben.ID: ben}
	teamsAtStart := map[string]codebowl.Team{reds: s.cbTeamDoc(reds), blues: s.cbTeamDoc(blues)}
	killed, retried := 0, 0
	n := 0
	for ; n < 3000; n++ {
		m, _ := s.cbMatch(id)
		if m.Phase == codebowl.PhaseOver {
			break
		}
		var mv map[string]any
		var who player
		for _, p := range []player{ann, ben} {
			code, out := s.post(p.Token, "CodeBowl", map[string]any{"gameId": id, "type": "legal", "actionId": "l"})
			require.Equal(t, http.StatusOK, code, "%v", out)
			if moves, _ := out["result"].(map[string]any)["moves"].([]any); len(moves) > 0 {
				mv, who = cbPick(m, p.ID, moves, n), coaches[p.ID]
			}
		}
		require.NotNil(t, mv, "someone can act")
		body := map[string]any{"gameId": id, "actionId": fmt.Sprint("a", n), "type": mv["type"]}
		if pl, ok := mv["payload"].(map[string]any); ok {
			for k, v := range pl {
				body[k] = v
			}
		}
		code, out := s.post(who.Token, "CodeBowl", body)
		require.Equal(t, http.StatusOK, code, "%v: %v", body, out)
		var kills []codebowl.PlayerKilledData
		for _, e := range out["events"].([]any) {
			ev := e.(map[string]any)
			if ev["type"] == codebowl.EventPlayerKilled {
				raw, _ := json.Marshal(ev["data"])
				var k codebowl.PlayerKilledData
				require.NoError(t, json.Unmarshal(raw, &k))
				kills = append(kills, k)
			}
		}
		if len(kills) == 0 {
			continue
		}
		killed += len(kills)
		teamsBefore := map[string]codebowl.Team{reds: s.cbTeamDoc(reds), blues: s.cbTeamDoc(blues)}
		m, _ = s.cbMatch(id)
		for _, k := range kills {
			var states []codebowl.PlayerState
			for _, p := range append(append([]codebowl.MatchPlayer{}, m.Home.Players...), m.Away.Players...) {
				if p.ID == k.Player {
					states = append(states, p.State)
				}
			}
			require.Equal(t, []codebowl.PlayerState{codebowl.StateDead}, states, "%s is dead in the match as soon as the action that killed him returns", k.Player)
			if m.Phase != codebowl.PhaseOver {
				// His team loses him at the match's end (teamWrites).
				require.Equal(t, teamsAtStart[k.TeamID], teamsBefore[k.TeamID], "team %s is untouched while the match plays", k.TeamID)
			}
		}
		// The same action again: the recorded reply, nothing written twice.
		_, v0 := s.cbMatch(id)
		code2, again := s.post(who.Token, "CodeBowl", body)
		require.Equal(t, http.StatusOK, code2)
		require.Equal(t, out, again, "a retry gets the first reply")
		_, v1 := s.cbMatch(id)
		require.Equal(t, v0, v1, "a retry changes nothing")
		if s.cbTeamDoc(reds).Match != "" { // the team documents are untouched while the match plays
			require.Equal(t, teamsBefore[reds], s.cbTeamDoc(reds))
			require.Equal(t, teamsBefore[blues], s.cbTeamDoc(blues))
		}
		retried++
	}
	m, _ := s.cbMatch(id)
	require.Equal(t, codebowl.PhaseOver, m.Phase, "the match ended after %d actions", n)
	t.Logf("%d actions, %d players killed, %d deadly actions retried, %s: %d–%d", n, killed, retried, m.EndReason, m.Home.Score, m.Away.Score)
	r, b := s.cbTeamDoc(reds), s.cbTeamDoc(blues)
	require.Empty(t, r.Match, "unlocked at the end")
	require.Empty(t, b.Match, "unlocked at the end")
	require.ElementsMatch(t, m.Summary.Home.Dead, deadIDs(r), "the home team lost exactly the match's dead")
	require.ElementsMatch(t, m.Summary.Away.Dead, deadIDs(b), "the away team lost exactly the match's dead")
	require.Equal(t, killed, len(deadIDs(r))+len(deadIDs(b)))

	// The finished match is the history: public fields, summary, result.
	var doc map[string]any
	require.True(t, s.readDoc("games/"+id, &doc))
	require.Equal(t, "over", doc["status"])
	require.NotEmpty(t, doc["seed"], "the seed is revealed at the end")
	require.NotNil(t, m.Summary)

	// Results: the platform's stats and leaderboard follow from gameOver
	// (the tick's sweep of pending records and its projection pass, run
	// here by hand).
	ctx := context.Background()
	pending, err := s.store.PendingEvents(ctx, s.clock().Add(time.Hour), 1000)
	require.NoError(t, err)
	for _, p := range pending {
		_, err := s.store.ApplyEffects(ctx, p.GameID, p.EventID)
		require.NoError(t, err)
	}
	_, err = triggers.New(s.store).Project(ctx, s.clock()) // the tick builds the leaderboard
	require.NoError(t, err)
	for _, c := range []player{ann, ben} {
		var pl struct {
			Stats map[string]map[string]struct{ Wins, Losses, Draws, Played int }
		}
		require.True(t, s.readDoc("players/"+c.ID, &pl))
		st := pl.Stats[codebowl.Kind]["default"]
		require.Equal(t, 1, st.Played, "%s's CodeBowl record", c.Name)
		want := resultOf(m.Draw, m.Winner, c.ID)
		require.Equal(t, 1, map[string]int{store.ResultWin: st.Wins, store.ResultLoss: st.Losses, store.ResultDraw: st.Draws}[want],
			"%s's CodeBowl %s", c.Name, want)
		// The coach's ledger: the match once, with the result the totals count.
		ledger, err := s.store.PlayerResults(ctx, c.ID, 10)
		require.NoError(t, err)
		require.Len(t, ledger, 1, "%s's ledger", c.Name)
		require.Equal(t, want, ledger[0].Result, "%s's ledger entry", c.Name)
		require.Equal(t, codebowl.Kind, ledger[0].Kind)
	}
	var board struct{ Entries []map[string]any }
	require.True(t, s.readDoc("leaderboards/codebowl-default", &board), "the CodeBowl leaderboard")
	require.Len(t, board.Entries, 2)

	// Chat, after the end too; the spectator's view is the collection.
	s.advance(time.Second)
	code, out = s.post(ben.Token, "CodeBowl", map[string]any{"gameId": id, "type": "chat", "actionId": "c2", "text": "gg"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	var texts []string
	it := s.store.FS.Collection("games/"+id+"/chat").OrderBy("at", firestore.Asc).Documents(context.Background())
	for {
		snap, err := it.Next()
		if err == iterator.Done {
			break
		}
		require.NoError(t, err)
		texts = append(texts, snap.Data()["text"].(string))
	}
	require.Equal(t, []string{"good luck", "gg"}, texts)

	// The spectator (a guest) reads the match, its chat and the teams with
	// the real rules; not the chat limit, nor a coach's account.
	chatDocs, err := s.store.FS.Collection("games/" + id + "/chat").Documents(ctx).GetAll()
	require.NoError(t, err)
	for _, p := range []string{"games/" + id, "games/" + id + "/chat/" + chatDocs[0].Ref.ID, "cbteams/" + reds, "cbteams/" + blues, "players/" + ann.ID} {
		require.Equal(t, http.StatusOK, restGet(t, project, eve.ID, p), "a spectator reads %s", p)
		require.Equal(t, http.StatusForbidden, restGet(t, project, "", p), "anonymous callers read nothing: %s", p)
	}
	// The match's seed is in its room (store/server.go), which no client
	// reads; its code in private/room, which its coaches read.
	var room struct{ Code string }
	require.True(t, s.readDoc("games/"+id+"/private/room", &room))
	serverInRoom(t, s, id, room.Code)
	for _, p := range []string{"games/" + id + "/chatlimit/" + ann.ID, "users/" + ann.ID, "rooms/" + room.Code, "games/" + id + "/private/server"} {
		require.Equal(t, http.StatusForbidden, restGet(t, project, eve.ID, p), "a spectator cannot read %s", p)
	}

	// After the end, dead players are replaced by a restart.
	if len(deadIDs(r)) > 0 {
		code, out = s.post(ann.Token, "CodeBowl", map[string]any{"type": "restartTeam", "actionId": "r1", "teamId": reds})
		require.Equal(t, http.StatusOK, code, "%v", out)
		require.Empty(t, deadIDs(s.cbTeamDoc(reds)))
	}
}

// cbPick picks coach's move n: an attack when one is listed (so matches
// kill players), else any move but endTurn, else the first.
func cbPick(m codebowl.Match, coach string, moves []any, n int) map[string]any {
	enemy := map[[2]int]bool{}
	for _, side := range []codebowl.TeamSide{m.Home, m.Away} {
		if side.Coach == coach {
			continue
		}
		for _, p := range side.Players {
			if p.State == codebowl.StateStanding {
				enemy[[2]int{p.Pos.X, p.Pos.Y}] = true
			}
		}
	}
	var attacks, others []map[string]any
	for _, x := range moves {
		mv := x.(map[string]any)
		pl, _ := mv["payload"].(map[string]any)
		path, _ := pl["path"].([]any)
		if mv["type"] == codebowl.ActionMove && len(path) > 0 {
			last := path[len(path)-1].(map[string]any)
			if enemy[[2]int{int(last["x"].(float64)), int(last["y"].(float64))}] {
				attacks = append(attacks, mv)
				continue
			}
		}
		if mv["type"] != codebowl.ActionEndTurn {
			others = append(others, mv)
		}
	}
	switch {
	case len(attacks) > 0:
		return attacks[(n*7919)%len(attacks)]
	case len(others) > 0:
		return others[(n*7919)%len(others)]
	}
	return moves[0].(map[string]any)
}

// TestCodeBowlBadRequests: each refusal has its status and code, names what
// is at fault, and changes nothing.
func TestCodeBowlBadRequests(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ann, ben := s.cbCoach("cb_ann"), s.cbCoach("cb_ben")
	reds := s.cbTeam(ann, "t1", cbSpec("Reds", 4, 4, 4))
	blues := s.cbTeam(ben, "t1", cbSpec("Blues", 4, 4, 4))
	id := s.cbMatchOf(ann, ben, reds, blues, map[string]any{"turnSeconds": 60})
	badStat := cbSpec("Bad", 4, 4, 4)
	badStat["players"].([]map[string]any)[2]["st"] = 9
	badURL := cbSpec("Bad", 4, 4, 4)
	badURL["image"] = "javascript:alert(1)"
	longName := cbSpec(strings.Repeat("x", 41), 4, 4, 4)
	cases := []struct {
		name   string
		who    player
		body   map[string]any
		status int
		code   string
		says   string
	}{
		{"12-point budget", ann, with(badStat, map[string]any{"type": "createTeam", "actionId": "b1"}), 400, domain.EINVALID, "players[2]"},
		{"image not https", ann, with(badURL, map[string]any{"type": "createTeam", "actionId": "b2"}), 400, domain.EINVALID, "image"},
		{"team name too long", ann, with(longName, map[string]any{"type": "createTeam", "actionId": "b3"}), 400, domain.EINVALID, "name"},
		{"unknown field", ann, with(cbSpec("Ok", 4, 4, 4), map[string]any{"type": "createTeam", "actionId": "b4", "colour": "red"}), 400, domain.EINVALID, "colour"},
		{"create without team", ann, map[string]any{"type": "create", "actionId": "b5"}, 400, domain.EINVALID, "teamId"},
		{"create with another's team", ann, map[string]any{"type": "create", "actionId": "b6", "teamId": blues}, 403, domain.EFORBIDDEN, "not yours"},
		{"create with a locked team", ann, map[string]any{"type": "create", "actionId": "b7", "teamId": reds}, 409, domain.ECONFLICT, "already playing"},
		{"create with no such team", ann, map[string]any{"type": "create", "actionId": "b8", "teamId": "nope"}, 404, domain.ENOTFOUND, "nope"},
		{"create with a bad timer", ann, map[string]any{"type": "create", "actionId": "b9", "teamId": reds, "turnSeconds": 5}, 400, domain.EINVALID, "turnSeconds"},
		{"edit another's team", ben, with(cbSpec("Mine", 4, 4, 4), map[string]any{"type": "editTeam", "actionId": "b10", "teamId": reds}), 403, domain.EFORBIDDEN, "coach"},
		{"join a full match", ann, map[string]any{"gameId": id, "type": "join", "actionId": "b11", "teamId": reds}, 409, domain.ECONFLICT, ""},
		{"move a stranger's player", ann, map[string]any{"gameId": id, "type": "move", "actionId": "b12", "player": "x.1", "path": []any{}}, 409, domain.ECONFLICT, ""},
		{"chat too long", ann, map[string]any{"gameId": id, "type": "chat", "actionId": "b13", "text": strings.Repeat("a", 281)}, 400, domain.EINVALID, "text"},
		{"chat empty", ann, map[string]any{"gameId": id, "type": "chat", "actionId": "b14", "text": "  "}, 400, domain.EINVALID, "text"},
		{"chat line break", ann, map[string]any{"gameId": id, "type": "chat", "actionId": "b15", "text": "a\nb"}, 400, domain.EINVALID, "text"},
		{"place out of turn", ann, map[string]any{"gameId": id, "type": "place", "actionId": "b16", "positions": "all"}, 400, domain.EINVALID, "positions"},
	}
	teamsBefore := []codebowl.Team{s.cbTeamDoc(reds), s.cbTeamDoc(blues)}
	_, v0 := s.cbMatch(id)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := s.post(c.who.Token, "CodeBowl", c.body)
			require.Equal(t, c.status, code, "%v", out)
			require.Equal(t, c.code, errCode(out))
			msg := out["error"].(map[string]any)["message"].(string)
			require.Contains(t, msg, c.says)
		})
	}
	require.Equal(t, teamsBefore, []codebowl.Team{s.cbTeamDoc(reds), s.cbTeamDoc(blues)}, "nothing changed")
	_, v1 := s.cbMatch(id)
	require.Equal(t, v0, v1, "nothing changed")
	var none codebowl.Team
	require.False(t, s.readDoc("cbteams/"+codebowl.TeamKey(ann.ID, "b1"), &none), "no refused team was stored")
}

// TestCodeBowlChatLimit: 5 messages per coach per 10 s, the sixth 429; a
// retry posts nothing twice; the window slides.
func TestCodeBowlChatLimit(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ann, ben := s.cbCoach("cb_ann"), s.cbCoach("cb_ben")
	id := s.cbMatchOf(ann, ben, s.cbTeam(ann, "t1", cbSpec("Reds", 4, 4, 4)), s.cbTeam(ben, "t1", cbSpec("Blues", 4, 4, 4)), map[string]any{})
	chat := func(p player, actionID string) (int, map[string]any) {
		return s.post(p.Token, "CodeBowl", map[string]any{"gameId": id, "type": "chat", "actionId": actionID, "text": "msg " + actionID})
	}
	for i := 0; i < codebowl.ChatBurst; i++ {
		code, out := chat(ann, fmt.Sprint("c", i))
		require.Equal(t, http.StatusOK, code, "%v", out)
	}
	code, first := chat(ann, "c0")
	require.Equal(t, http.StatusOK, code, "a retry gets its reply, even over the limit")
	code, out := chat(ann, "c9")
	require.Equal(t, http.StatusTooManyRequests, code, "%v", out)
	require.Equal(t, domain.ELIMIT, errCode(out))
	code, out = chat(ben, "b0")
	require.Equal(t, http.StatusOK, code, "the limit is per coach: %v", out)
	s.advance(codebowl.ChatWindow)
	code, out = chat(ann, "c10")
	require.Equal(t, http.StatusOK, code, "the window slid: %v", out)
	docs, err := s.store.FS.Collection("games/" + id + "/chat").Documents(context.Background()).GetAll()
	require.NoError(t, err)
	require.Len(t, docs, codebowl.ChatBurst+2, "one document per accepted message")
	require.NotEmpty(t, first["result"].(map[string]any)["key"])
}

// TestCodeBowlTurnTimeout: a placement that is not made by its deadline is
// made for the coach (the default formation) as of the deadline, by the
// tick's advance; the next deadline counts from the expired one.
func TestCodeBowlTurnTimeout(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ann, ben := s.cbCoach("cb_ann"), s.cbCoach("cb_ben")
	id := s.cbMatchOf(ann, ben, s.cbTeam(ann, "t1", cbSpec("Reds", 4, 4, 4)), s.cbTeam(ben, "t1", cbSpec("Blues", 4, 4, 4)), map[string]any{"turnSeconds": 30})
	m, v := s.cbMatch(id)
	require.Equal(t, codebowl.PhaseSetup, m.Phase)
	deadline := m.Deadline
	require.Equal(t, s.clock().Add(30*time.Second), deadline)
	placing := m.Placing
	n, err := store.Advance(context.Background(), s.store, codebowl.Kind, id)
	require.NoError(t, err)
	require.Zero(t, n, "nothing is due before the deadline")
	s.advance(30*time.Second + 7*time.Second) // a late tick
	n, err = store.Advance(context.Background(), s.store, codebowl.Kind, id)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	m, v2 := s.cbMatch(id)
	require.Equal(t, v+1, v2)
	require.NotEqual(t, placing, m.Placing, "the other coach places now")
	require.Equal(t, deadline.Add(30*time.Second), m.Deadline, "as of the deadline, not of the tick")
	if placing == codebowl.Home {
		require.Equal(t, 1, m.Home.Timeouts)
	} else {
		require.Equal(t, 1, m.Away.Timeouts)
	}
	snap, err := s.store.FS.Doc("games/" + id).Get(context.Background())
	require.NoError(t, err)
	require.Equal(t, m.Deadline, snap.Data()["deadlineAt"].(time.Time).UTC(), "the deadline the tick finds")
	// Three timeouts in a row forfeit; the teams are unlocked by the expiry
	// that ends the match.
	s.advance(10 * time.Minute)
	_, err = store.Advance(context.Background(), s.store, codebowl.Kind, id)
	require.NoError(t, err)
	m, _ = s.cbMatch(id)
	require.Equal(t, codebowl.PhaseOver, m.Phase)
	require.Equal(t, codebowl.ReasonAbandoned, m.EndReason)
	require.Empty(t, s.cbTeamDoc(m.Home.TeamID).Match)
	require.Empty(t, s.cbTeamDoc(m.Away.TeamID).Match)
}

// TestCodeBowlMatchLifecycle: a retried create finds its match; a public
// match is joined by its id; a match nobody joins is cancelled by the tick
// after the join window, and the home coach leaving a waiting match cancels
// it too: both unlock the team, with no result.
func TestCodeBowlMatchLifecycle(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ann, ben := s.cbCoach("cb_ann"), s.cbCoach("cb_ben")
	reds := s.cbTeam(ann, "t1", cbSpec("Reds", 4, 4, 4))
	golds := s.cbTeam(ann, "t2", cbSpec("Golds", 4, 4, 4))
	blues := s.cbTeam(ben, "t1", cbSpec("Blues", 4, 4, 4))
	create := map[string]any{"type": "create", "actionId": "c1", "teamId": reds}
	code, first := s.post(ann.Token, "CodeBowl", create)
	require.Equal(t, http.StatusOK, code, "%v", first)
	code, again := s.post(ann.Token, "CodeBowl", create)
	require.Equal(t, http.StatusOK, code, "%v", again)
	require.Equal(t, first, again, "a retried create finds its match")
	id := first["result"].(map[string]any)["gameId"].(string)
	require.Equal(t, id, s.cbTeamDoc(reds).Match)

	// Public: joined by id, no room code needed.
	code, out := s.post(ben.Token, "CodeBowl", map[string]any{"type": "join", "actionId": "j1", "gameId": id, "teamId": blues})
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.Equal(t, "away", out["result"].(map[string]any)["side"])
	code, out = s.post(ben.Token, "CodeBowl", map[string]any{"type": "forfeit", "actionId": "f1", "gameId": id})
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.Empty(t, s.cbTeamDoc(reds).Match)
	require.Empty(t, s.cbTeamDoc(blues).Match)

	// Nobody joins: cancelled by the tick after 30 minutes.
	code, out = s.post(ann.Token, "CodeBowl", map[string]any{"type": "create", "actionId": "c2", "teamId": golds})
	require.Equal(t, http.StatusOK, code, "%v", out)
	lonely := out["result"].(map[string]any)["gameId"].(string)
	require.Equal(t, lonely, s.cbTeamDoc(golds).Match)
	s.advance(codebowl.JoinWindow + time.Second)
	n, err := store.Advance(context.Background(), s.store, codebowl.Kind, lonely)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	m, _ := s.cbMatch(lonely)
	require.True(t, m.Cancelled())
	require.Empty(t, s.cbTeamDoc(golds).Match, "the cancelled match frees its team")

	// The home coach leaves a waiting match: cancelled, team free.
	code, out = s.post(ann.Token, "CodeBowl", map[string]any{"type": "create", "actionId": "c3", "teamId": golds})
	require.Equal(t, http.StatusOK, code, "%v", out)
	left := out["result"].(map[string]any)["gameId"].(string)
	code, out = s.post(ann.Token, "CodeBowl", map[string]any{"type": "forfeit", "actionId": "f2", "gameId": left})
	require.Equal(t, http.StatusOK, code, "%v", out)
	m, _ = s.cbMatch(left)
	require.True(t, m.Cancelled())
	require.Empty(t, s.cbTeamDoc(golds).Match)
}

// TestCodeBowlQuickMatch: two coaches searching with their teams are paired
// into one match, the waiting coach at home, both teams locked in the same
// transaction; a coach whose team went into another match while waiting
// leaves the queue to the next one searching.
func TestCodeBowlQuickMatch(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ann, ben, cid := s.cbCoach("cbq_ann"), s.cbCoach("cbq_ben"), s.cbCoach("cbq_cid")
	reds := s.cbTeam(ann, "t1", cbSpec("Reds", 4, 4, 4))
	blues := s.cbTeam(ben, "t1", cbSpec("Blues", 4, 4, 4))
	greens := s.cbTeam(cid, "t1", cbSpec("Greens", 4, 4, 4))
	quick := func(p player, actionID, team string) map[string]any {
		t.Helper()
		code, out := s.post(p.Token, "CodeBowl", map[string]any{"actionId": actionID, "type": "quickMatch", "teamId": team})
		require.Equal(t, http.StatusOK, code, "%v", out)
		return out["result"].(map[string]any)
	}

	require.Equal(t, "waiting", quick(ann, "q1", reds)["status"])
	require.Empty(t, s.cbTeamDoc(reds).Match, "a team is not locked while its coach waits")
	got := quick(ben, "q1", blues)
	require.Equal(t, "matched", got["status"])
	id := got["gameId"].(string)
	require.Equal(t, id, quick(ann, "q1", reds)["gameId"], "the waiting coach learns the match by polling")
	m, _ := s.cbMatch(id)
	require.Equal(t, ann.ID, m.Home.Coach, "whoever waited is home")
	require.Equal(t, ben.ID, m.Away.Coach)
	require.Equal(t, id, s.cbTeamDoc(reds).Match)
	require.Equal(t, id, s.cbTeamDoc(blues).Match)

	// Someone else's team, a missing team, a locked team: refused, nothing queued.
	for _, c := range []struct {
		name, team string
		code       int
	}{
		{"another coach's team", greens, http.StatusForbidden},
		{"a team in a match", reds, http.StatusConflict},
		{"no team", "", http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := s.post(ann.Token, "CodeBowl", map[string]any{"actionId": "bad-" + c.name, "type": "quickMatch", "teamId": c.team})
			require.Equal(t, c.code, code, "%v", out)
		})
	}
	guest := s.guest("Gus")
	code, out := s.post(guest.Token, "CodeBowl", map[string]any{"actionId": "g", "type": "quickMatch", "teamId": greens})
	require.Equal(t, http.StatusForbidden, code, "a guest cannot search: %v", out)

	// Cid waits; his team then goes into a match he creates. The next coach
	// searching takes his place instead of being refused.
	require.Equal(t, "waiting", quick(cid, "q2", greens)["status"])
	code, out = s.post(cid.Token, "CodeBowl", map[string]any{"type": "create", "actionId": "c1", "teamId": greens})
	require.Equal(t, http.StatusOK, code, "%v", out)
	golds := s.cbTeam(ann, "t2", cbSpec("Golds", 4, 4, 4))
	require.Equal(t, "waiting", quick(ann, "q3", golds)["status"], "Cid's stale search gave way")
	require.Empty(t, s.cbTeamDoc(golds).Match)
	code, out = s.post(ann.Token, "CodeBowl", map[string]any{"actionId": "l1", "type": "leaveQueue", "teamId": golds})
	require.Equal(t, http.StatusOK, code, "%v", out)
}
