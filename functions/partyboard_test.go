package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/partyboard"
)

func TestPartyBoardUploadAndList(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	host := s.guest("Host")

	code, out := s.post(host.Token, "PartyBoard", map[string]any{"actionId": "l", "type": "listBoards"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	boards := out["result"].(map[string]any)["boards"].([]any)
	require.Len(t, boards, 2)
	require.Equal(t, "pokemon-gen1", boards[0].(map[string]any)["id"])

	file, err := os.ReadFile("../domain/partyboard/boards/pokemon-gen2.json")
	require.NoError(t, err)
	code, out = s.post(host.Token, "PartyBoard", `{"actionId":"u1","type":"uploadBoard","name":"My Gen 2","board":`+string(file)+`}`)
	require.Equal(t, http.StatusOK, code, "%v", out)
	res := out["result"].(map[string]any)
	require.Equal(t, partyboard.BoardID(file), res["id"])
	require.Equal(t, float64(72), res["tiles"])
	snap, err := s.store.FS.Doc("boards/" + res["id"].(string)).Get(context.Background())
	require.NoError(t, err)
	require.JSONEq(t, string(file), snap.Data()["file"].(string))

	bad := `{"tiles":[{"rule":{"type":"FlyRule","displayText":"x"},"position":[{"x":0,"y":0}]},` +
		`{"rule":{"type":"DiceRollRule","displayText":"x","diceRolls":{"numRequired":1,"outcomes":[{"rule":{"type":"DisplayRule","displayText":"y"},"criteria":[9]}]}},"position":[{"x":0,"y":0}]}]}`
	code, out = s.post(host.Token, "PartyBoard", `{"actionId":"u2","type":"uploadBoard","name":"Broken","board":`+bad+`}`)
	require.Equal(t, http.StatusBadRequest, code, "%v", out)
	require.Equal(t, domain.EINVALID, errCode(out))
	var problems []partyboard.Problem
	raw, _ := json.Marshal(out["error"].(map[string]any)["details"].(map[string]any)["problems"])
	require.NoError(t, json.Unmarshal(raw, &problems))
	var paths []string
	for _, p := range problems {
		paths = append(paths, p.Path)
	}
	require.ElementsMatch(t, []string{"tiles[0].rule.type", "tiles[1].rule.diceRolls.outcomes[0].criteria[0]"}, paths,
		"every problem, located (no finish is a warning): %v", problems)
	_, err = s.store.FS.Doc("boards/" + partyboard.BoardID([]byte(bad))).Get(context.Background())
	require.Equal(t, codes.NotFound, status.Code(err), "a bad board is never stored")

	tests := []struct {
		name, body string
		status     int
	}{
		{"no board", `{"actionId":"x","type":"uploadBoard","name":"n"}`, http.StatusBadRequest},
		{"no name", `{"actionId":"x","type":"uploadBoard","board":` + string(file) + `}`, http.StatusBadRequest},
		{"board not json object", `{"actionId":"x","type":"uploadBoard","name":"n","board":"tiles"}`, http.StatusBadRequest},
		{"unknown game", `{"actionId":"x","type":"roll","gameId":"g"}`, http.StatusNotFound},
		{"too large", `{"actionId":"x","type":"uploadBoard","name":"n","board":{"pad":"` + strings.Repeat("x", 1<<20) + `"}}`, http.StatusRequestEntityTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := s.post(host.Token, "PartyBoard", tt.body)
			require.Equal(t, tt.status, code, "%v", out)
		})
	}
}

// pbInput picks a legal input for what the game awaits, deterministically.
func pbInput(g partyboard.Game, n int) (string, map[string]any) {
	w := g.Await
	who := w.Players[0]
	body := map[string]any{"type": w.Action}
	switch w.Action {
	case partyboard.ActionChoose:
		body["choice"] = n % len(w.Choices)
	case partyboard.ActionTarget:
		body["playerId"] = w.Targets[n%len(w.Targets)]
	case partyboard.ActionStarter:
		body["starter"] = w.Starters[n%len(w.Starters)]
	case partyboard.ActionChallenge:
		body["winner"], body["loser"] = w.Targets[0], w.Targets[1]
	}
	return who, body
}

func TestPartyBoardWholeGameOverHTTP(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ctx := context.Background()
	players := map[string]player{}
	var order []player
	for _, name := range []string{"Ash", "Misty", "Brock"} {
		p := s.guest(name)
		players[p.ID] = p
		order = append(order, p)
	}
	host := order[0]
	code, out := s.post(host.Token, "PartyBoard", map[string]any{"actionId": "new", "type": "create", "board": "pokemon-gen1", "seed": "pallet-town"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	res := out["result"].(map[string]any)
	gameID, room := res["gameId"].(string), res["roomCode"].(string)
	for _, p := range order[1:] {
		code, out = s.post(p.Token, "PartyBoard", map[string]any{"actionId": "join", "type": "join", "roomCode": room})
		require.Equal(t, http.StatusOK, code, "%v", out)
	}
	code, out = s.post(order[1].Token, "PartyBoard", map[string]any{"gameId": gameID, "actionId": "s0", "type": "start"})
	require.Equal(t, http.StatusConflict, code, "only the host starts: %v", out)
	code, out = s.post(host.Token, "PartyBoard", map[string]any{"gameId": gameID, "actionId": "s1", "type": "start"})
	require.Equal(t, http.StatusOK, code, "%v", out)

	state := func() (partyboard.Game, int64) {
		var g partyboard.Game
		v, err := s.store.GameState(ctx, gameID, &g)
		require.NoError(t, err)
		return g, v
	}
	for n := 0; ; n++ {
		require.Less(t, n, 3000, "the game did not end")
		g, v := state()
		if g.Phase == partyboard.PhaseOver {
			break
		}
		who, body := pbInput(g, n)
		body["gameId"], body["actionId"], body["version"] = gameID, fmt.Sprint("a", n), v
		if n == 5 { // someone not awaited is refused and nothing changes
			for id, p := range players {
				if !slices.Contains(g.Await.Players, id) {
					code, out := s.post(p.Token, "PartyBoard", body)
					require.Equal(t, http.StatusConflict, code, "%v", out)
					after, v2 := state()
					require.Equal(t, g, after)
					require.Equal(t, v, v2)
					break
				}
			}
		}
		code, first := s.post(players[who].Token, "PartyBoard", body)
		require.Equal(t, http.StatusOK, code, "%s by %s: %v", body["type"], who, first)
		if n%25 == 0 { // a retried action returns the first reply and changes nothing
			_, vBefore := state()
			code, again := s.post(players[who].Token, "PartyBoard", body)
			require.Equal(t, http.StatusOK, code)
			require.Equal(t, first, again)
			_, vAfter := state()
			require.Equal(t, vBefore, vAfter)
		}
	}
	g, _ := state()
	require.Contains(t, players, g.Winner)
	doc, err := s.store.GameDoc(ctx, gameID)
	require.NoError(t, err)
	require.Equal(t, "pallet-town", doc["seed"], "the seed is revealed at the end")
	require.Equal(t, "over", doc["status"])
}
