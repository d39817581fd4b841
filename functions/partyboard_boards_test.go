package functions_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/partyboard"
)

// TestPartyBoardEditorActions: what a web board editor and a client that
// draws any board need: getBoard, uploadBoard with dryRun, simulateBoard.
func TestPartyBoardEditorActions(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ctx := context.Background()
	ann := s.guest("Ann")
	post := func(body string) (int, map[string]any) {
		t.Helper()
		return s.post(ann.Token, "PartyBoard", body)
	}
	file, err := os.ReadFile("../domain/partyboard/boards/pokemon-gen2.json")
	require.NoError(t, err)

	t.Run("getBoard: a built-in board, whole", func(t *testing.T) {
		code, out := post(`{"actionId":"g1","type":"getBoard","board":"pokemon-gen1"}`)
		require.Equal(t, http.StatusOK, code, "%v", out)
		raw, _ := json.Marshal(out["result"].(map[string]any)["board"])
		var b partyboard.Board
		require.NoError(t, json.Unmarshal(raw, &b))
		want, err := partyboard.BuiltinBoard("pokemon-gen1")
		require.NoError(t, err)
		require.Equal(t, *want, b, "every tile's rule, position, zone and mark, and the zones")
		require.Len(t, b.Tiles[0].Position, 4)
	})

	t.Run("uploadBoard dryRun: checked, not stored", func(t *testing.T) {
		code, out := post(`{"actionId":"d1","type":"uploadBoard","dryRun":true,"board":` + string(file) + `}`)
		require.Equal(t, http.StatusOK, code, "%v", out)
		res := out["result"].(map[string]any)
		require.Equal(t, true, res["valid"])
		require.Equal(t, partyboard.BoardID(file), res["id"])
		require.Equal(t, float64(72), res["tiles"])
		_, err := s.store.FS.Doc("boards/" + partyboard.BoardID(file)).Get(ctx)
		require.Equal(t, codes.NotFound, status.Code(err), "a dry run stores nothing")

		bad := `{"tiles":[{"rule":{"type":"TodoRule","displayText":"later"},"position":[{"x":0,"y":0}]},` +
			`{"rule":{"type":"FlyRule","displayText":"x"},"position":[{"x":0,"y":0}]}]}`
		code, out = post(`{"actionId":"d2","type":"uploadBoard","dryRun":true,"name":"Zelda","board":` + bad + `}`)
		require.Equal(t, http.StatusOK, code, "a dry run reports, it does not refuse: %v", out)
		res = out["result"].(map[string]any)
		require.Equal(t, false, res["valid"])
		require.Equal(t, []any{map[string]any{"path": "tiles[1].rule.type", "message": `unknown rule type "FlyRule"`}}, res["problems"])
		require.Len(t, res["warnings"], 2, "the TodoRule and the missing finish")

		code, out = post(`{"actionId":"d3","type":"uploadBoard","dryRun":true,"name":"","board":` + bad + `}`)
		require.Equal(t, http.StatusBadRequest, code, "a name, when given, must be one: %v", out)
		code, out = post(`{"actionId":"d4","type":"uploadBoard","dryRun":"yes","board":` + bad + `}`)
		require.Equal(t, http.StatusBadRequest, code, "%v", out)
	})

	t.Run("an uploaded board: getBoard and simulateBoard read it", func(t *testing.T) {
		code, out := post(`{"actionId":"u1","type":"uploadBoard","name":"My Gen 2","board":` + string(file) + `}`)
		require.Equal(t, http.StatusOK, code, "%v", out)
		id := out["result"].(map[string]any)["id"].(string)
		code, out = post(`{"actionId":"g2","type":"getBoard","board":"` + id + `"}`)
		require.Equal(t, http.StatusOK, code, "%v", out)
		b := out["result"].(map[string]any)["board"].(map[string]any)
		require.Equal(t, id, b["id"])
		require.Equal(t, "My Gen 2", b["name"])
		require.Len(t, b["tiles"], 72)
		require.Len(t, b["zones"], 4)

		code, out = post(`{"actionId":"s0","type":"simulateBoard","board":"` + id + `","games":5,"players":3}`)
		require.Equal(t, http.StatusOK, code, "%v", out)
		require.Equal(t, id, out["result"].(map[string]any)["board"])
	})

	t.Run("simulateBoard: the same report for the same seed", func(t *testing.T) {
		body := `{"actionId":"s1","type":"simulateBoard","board":"pokemon-gen1","games":40,"players":4,"seed":"x"}`
		code, first := post(body)
		require.Equal(t, http.StatusOK, code, "%v", first)
		res := first["result"].(map[string]any)
		require.Equal(t, float64(40), res["games"])
		require.Equal(t, float64(0), res["stalled"])
		require.Len(t, res["winsBySeat"], 4)
		turns := res["turns"].(map[string]any)
		require.Positive(t, turns["median"])
		require.LessOrEqual(t, turns["median"], turns["p90"])
		require.LessOrEqual(t, turns["p90"], turns["max"])
		require.NotEmpty(t, res["rules"])
		_, again := post(`{"actionId":"s2","type":"simulateBoard","board":"pokemon-gen1","games":40,"players":4,"seed":"x"}`)
		require.Equal(t, first["result"], again["result"])

		code, out := post(`{"actionId":"s3","type":"simulateBoard","games":3,"board":` + string(file) + `}`)
		require.Equal(t, http.StatusOK, code, "a board file: %v", out)
		require.Equal(t, partyboard.BoardID(file), out["result"].(map[string]any)["board"])
	})

	t.Run("refusals", func(t *testing.T) {
		tests := []struct {
			name, body string
			status     int
			code       string
		}{
			{"getBoard without a board", `{"actionId":"x","type":"getBoard"}`, http.StatusBadRequest, domain.EINVALID},
			{"getBoard of no board", `{"actionId":"x","type":"getBoard","board":"pokemon-gen9"}`, http.StatusNotFound, domain.ENOTFOUND},
			{"getBoard of no upload", `{"actionId":"x","type":"getBoard","board":"b-0000000000000000"}`, http.StatusNotFound, domain.ENOTFOUND},
			{"getBoard with a stray field", `{"actionId":"x","type":"getBoard","board":"pokemon-gen1","tiles":1}`, http.StatusBadRequest, domain.EINVALID},
			{"too many games", `{"actionId":"x","type":"simulateBoard","board":"pokemon-gen1","games":201}`, http.StatusBadRequest, domain.EINVALID},
			{"too many players", `{"actionId":"x","type":"simulateBoard","board":"pokemon-gen1","players":13}`, http.StatusBadRequest, domain.EINVALID},
			{"no board to simulate", `{"actionId":"x","type":"simulateBoard"}`, http.StatusBadRequest, domain.EINVALID},
			{"an invalid board to simulate", `{"actionId":"x","type":"simulateBoard","board":{"tiles":[]}}`, http.StatusBadRequest, domain.EINVALID},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				code, out := post(tt.body)
				require.Equal(t, tt.status, code, "%v", out)
				require.Equal(t, tt.code, errCode(out))
			})
		}
	})
}
