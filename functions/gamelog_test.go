package functions_test

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/store"
)

// logSteps is a game document's log as steps, as Firestore holds it:
// deflated JSON (store/logpack.go), or a JSON string or an array in a
// document written before. Decoded from the text, numbers are float64.
func logSteps(v any) []any {
	if list, ok := v.([]any); ok {
		return list
	}
	text, err := store.LogText(v)
	if err != nil {
		return nil
	}
	var list []any
	if json.Unmarshal([]byte(text), &list) != nil {
		return nil
	}
	return list
}

// TestGameLogOverREST: a client reading the game document over Firestore's
// REST API, under the real rules, gets the log as docs/firestore.md says: a
// bytesValue (base64) holding the steps' JSON, raw-deflated, which any raw
// inflater reads — here Go's compress/flate, as Node's inflateRawSync or
// Python's zlib.decompress(b, -15) would.
func TestGameLogOverREST(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	project := rulesLoaded(t, s)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	m := newMatch(s, "classic", 0, alice, bob)
	m.must(bob, "call", map[string]any{"call": "even"})
	st, _ := m.state()
	roller := m.players[st.CurrentPlayerID]
	m.must(roller, "roll", nil)

	code, body := restDoc(t, project, bob.ID, "games/"+m.id)
	require.Equal(t, http.StatusOK, code, "%s", body)
	var doc struct {
		Fields map[string]struct {
			BytesValue  *string `json:"bytesValue"`
			StringValue *string `json:"stringValue"`
		} `json:"fields"`
	}
	require.NoError(t, json.Unmarshal(body, &doc))
	lf, ok := doc.Fields["log"]
	require.True(t, ok, "the game document has a log")
	require.NotNil(t, lf.BytesValue, "the log is bytes")
	packed, err := base64.StdEncoding.DecodeString(*lf.BytesValue)
	require.NoError(t, err)
	text, err := io.ReadAll(flate.NewReader(bytes.NewReader(packed)))
	require.NoError(t, err)
	var steps []struct {
		Seq    int64  `json:"seq"`
		At     string `json:"at"`
		Type   string `json:"type"`
		Actor  struct{ ID, Name string }
		Events []struct{ Type, Text string }
	}
	require.NoError(t, json.Unmarshal(text, &steps))
	require.NotEmpty(t, steps)
	last := steps[len(steps)-1]
	require.Equal(t, "roll", last.Type)
	require.Equal(t, roller.ID, last.Actor.ID)
	require.NotEmpty(t, last.Events)
	require.NotEmpty(t, last.Events[0].Text, "the events in words")
	for i := 1; i < len(steps); i++ {
		require.Equal(t, steps[i-1].Seq+1, steps[i].Seq, "every step, in order")
	}
	code, _ = restDoc(t, project, "", "games/"+m.id)
	require.Equal(t, http.StatusForbidden, code, "signed out: refused, as before")
}
