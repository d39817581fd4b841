package hexdice

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// TestReadOrdersView: the split read of the game document gives what the
// whole decode gave, where needs looks: the mode and phase always, the
// deadline and players in a simultaneous game being played; and text it
// cannot split (a state spelt with escapes) is decoded whole.
func TestReadOrdersView(t *testing.T) {
	for _, mode := range []TurnMode{Alternating, Simultaneous} {
		for i := range 3 {
			t.Run(fmt.Sprint(mode, i), func(t *testing.T) {
				g, _ := randomGameUntil(t, Small, mode, fmt.Sprint("view-", i), false, 3+4*i)
				if len(g.Players) > 0 {
					g.Players[0].Submitted = true // as a player who submitted before the seal
				}
				raw, err := json.Marshal(domain.GameDoc[Game]{Kind: Kind, Status: domain.StatusActive, Version: 9, State: g})
				require.NoError(t, err)
				d := domain.NewDocs()
				d.Put(domain.GameDocID, raw)
				got, err := readOrdersView(d)
				require.NoError(t, err)
				want, err := domain.ReadGame[ordersView](d, Kind)
				require.NoError(t, err)
				require.Equal(t, want.State.Mode, got.Mode)
				require.Equal(t, want.State.Phase, got.Phase)
				if got.Mode == Simultaneous && got.Phase == PhasePlaying {
					require.Equal(t, want.State, got)
				}

				// The same document with its state's first name escaped.
				esc := []byte(`{"kind":"hexdice","version":9,"state":{"\u0070hase":` + string(mustMember(t, raw, "phase")) + `,"mode":"` + string(mode) + `","players":[{"id":"a","submitted":true}]}}`)
				d = domain.NewDocs()
				d.Put(domain.GameDocID, esc)
				got, err = readOrdersView(d)
				require.NoError(t, err)
				require.Equal(t, want.State.Phase, got.Phase, "decoded whole")
				require.Equal(t, "a", got.Players[0].ID)
			})
		}
	}
	_, err := readOrdersView(domain.NewDocs())
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err))
}

// mustMember is member name of raw's state, as text.
func mustMember(t *testing.T, raw []byte, name string) json.RawMessage {
	t.Helper()
	var doc struct {
		State map[string]json.RawMessage `json:"state"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	return doc.State[name]
}
