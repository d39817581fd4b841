package functions_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/partyboard"
)

func TestPartyBoardUploadAndList(t *testing.T) {
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
	stored, err := s.store.BoardFile(context.Background(), res["id"].(string))
	require.NoError(t, err)
	require.JSONEq(t, string(file), string(stored))

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
	require.ElementsMatch(t, []string{"tiles[0].rule.type", "tiles[1].rule.diceRolls.outcomes[0].criteria[0]", "tiles"}, paths,
		"every problem, located: %v", problems)
	_, err = s.store.BoardFile(context.Background(), partyboard.BoardID([]byte(bad)))
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err), "a bad board is never stored")

	tests := []struct {
		name, body string
		status     int
	}{
		{"no board", `{"actionId":"x","type":"uploadBoard","name":"n"}`, http.StatusBadRequest},
		{"no name", `{"actionId":"x","type":"uploadBoard","board":` + string(file) + `}`, http.StatusBadRequest},
		{"board not json object", `{"actionId":"x","type":"uploadBoard","name":"n","board":"tiles"}`, http.StatusBadRequest},
		{"play not yet", `{"actionId":"x","type":"roll","gameId":"g"}`, http.StatusBadRequest},
		{"too large", `{"actionId":"x","type":"uploadBoard","name":"n","board":{"pad":"` + strings.Repeat("x", 1<<20) + `"}}`, http.StatusTooManyRequests},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := s.post(host.Token, "PartyBoard", tt.body)
			require.Equal(t, tt.status, code, "%v", out)
		})
	}
}
