package functions_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// openView opens a view sealed in a game document as a client does with the
// key action viewKey gives it (rulestest.OpenWithKey, the documented recipe
// apart from domain.SeededSealer). ok is false when the key does not open
// it.
func openView(t *testing.T, key, label, text string) (domain.ViewDoc, bool) {
	t.Helper()
	var v domain.ViewDoc
	plain, err := rulestest.OpenWithKey(key, label, text)
	if err != nil {
		return v, false
	}
	require.NoError(t, json.Unmarshal(plain, &v))
	return v, true
}

// sealedViews is the game document's views field: each viewer's view, sealed.
func (g *hexGame) sealedViews() map[string]string {
	g.s.t.Helper()
	snap, err := g.s.store.FS.Doc("games/" + g.id).Get(context.Background())
	require.NoError(g.s.t, err)
	out := map[string]string{}
	m, _ := snap.Data()["views"].(map[string]any)
	for k, v := range m {
		out[k] = v.(string)
	}
	return out
}

// viewOf is viewer's view as it reads it: sealed in the game document,
// opened with the key the game's seed gives that viewer (a bot has no
// client to ask viewKey with; a player's is checked in TestFogViewsInTheGame).
func (g *hexGame) viewOf(viewer string) (domain.ViewDoc, bool) {
	g.s.t.Helper()
	text, ok := g.sealedViews()[viewer]
	if !ok {
		return domain.ViewDoc{}, false
	}
	key, err := domain.NewSeededSealer(g.seed).ViewKey(viewer)
	require.NoError(g.s.t, err)
	v, ok := openView(g.s.t, key, domain.ViewLabel(viewer), text)
	require.True(g.s.t, ok, "the viewer's key opens its view")
	return v, true
}

// TestFogViewsInTheGame: a fog game's views ride in its game document, each
// sealed for its viewer, and no view document is written: a fog action is
// one write. Each player gets the key to theirs (viewKey) and opens it, and
// that key opens nothing else (the other player's view, the whole state);
// a spectator, a player of a game without fog and a game over get no key;
// the game over keeps no views.
func TestFogViewsInTheGame(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ctx := context.Background()
	host, guest, carol := s.guest("Vh"), s.guest("Vg"), s.guest("Vc")
	g := newHexGame(s, host, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating, Fog: true}, "views-seed")
	g.join(guest)
	for range 6 {
		endTurnOf(g)
	}
	docs, err := s.store.FS.Collection("games/" + g.id + "/views").Documents(ctx).GetAll()
	require.NoError(t, err)
	require.Empty(t, docs, "no view documents: the views are in the game document")

	st, version := g.state()
	views := g.sealedViews()
	require.Len(t, views, 2, "one view a player")
	keys := map[string]string{}
	for _, p := range []player{host, guest} {
		code, out := s.post(p.Token, "HexDice", map[string]any{"gameId": g.id, "actionId": "k-" + p.ID, "type": domain.ActionViewKey})
		require.Equal(t, http.StatusOK, code, "%v", out)
		res := out["result"].(map[string]any)
		require.Equal(t, domain.ViewLabel(p.ID), res["label"])
		keys[p.ID] = res["key"].(string)
		v, ok := openView(t, keys[p.ID], domain.ViewLabel(p.ID), views[p.ID])
		require.True(t, ok, "%s's key opens %s's view", p.Name, p.Name)
		require.Equal(t, version, v.Version)
		raw, err := json.Marshal(v.View)
		require.NoError(t, err)
		var view hexdice.View
		require.NoError(t, json.Unmarshal(raw, &view))
		require.Equal(t, st.SeatOf(p.ID), view.Seat)
		require.NotEmpty(t, view.Fog)
		// Its recent steps carry over from action to action (the whole
		// state keeps them in the views alone: HiddenDoc.InViews).
		require.Greater(t, len(v.Events), 1, "%s's view keeps its recent steps", p.Name)
		for i := 1; i < len(v.Events); i++ {
			require.Less(t, v.Events[i-1].Seq, v.Events[i].Seq)
		}
		require.Equal(t, version, v.Events[len(v.Events)-1].Seq, "the latest step is the last action's")
	}
	_, ok := openView(t, keys[host.ID], domain.ViewLabel(guest.ID), views[guest.ID])
	require.False(t, ok, "the host's key does not open the guest's view")
	_, ok = openView(t, keys[host.ID], domain.ViewLabel(host.ID), views[guest.ID])
	require.False(t, ok, "nor does it under the host's label")
	snap, err := s.store.FS.Doc("games/" + g.id).Get(ctx)
	require.NoError(t, err)
	whole := snap.Data()["sealed"].(string)
	_, ok = openView(t, keys[host.ID], domain.HiddenLabel, whole)
	require.False(t, ok, "nor the whole state")

	// A retried viewKey gets a key again; the game did not move.
	code, out := s.post(host.Token, "HexDice", map[string]any{"gameId": g.id, "actionId": "k-" + host.ID, "type": domain.ActionViewKey})
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.Equal(t, keys[host.ID], out["result"].(map[string]any)["key"])
	_, v := g.state()
	require.Equal(t, version, v, "a viewKey writes nothing")

	// A spectator has no view to open.
	code, out = s.post(carol.Token, "HexDice", map[string]any{"gameId": g.id, "actionId": "k-c", "type": domain.ActionViewKey})
	require.Equal(t, http.StatusForbidden, code, "%v", out)

	// A game without fog keeps no sealed views.
	plain := newHexGame(s, carol, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating}, "views-plain")
	code, out = s.post(carol.Token, "HexDice", map[string]any{"gameId": plain.id, "actionId": "k-p", "type": domain.ActionViewKey})
	require.Equal(t, http.StatusBadRequest, code, "%v", out)
	require.Empty(t, plain.sealedViews())

	// Over: the views go with the seal, and no key is given.
	st, _ = g.state()
	for st.Round < st.Config.SurrenderRound {
		endTurnOf(g)
		st, _ = g.state()
	}
	code, out = s.post(guest.Token, "HexDice", map[string]any{"gameId": g.id, "actionId": "sur", "type": hexdice.ActionSurrender})
	require.Equal(t, http.StatusOK, code, "%v", out)
	snap, err = s.store.FS.Doc("games/" + g.id).Get(ctx)
	require.NoError(t, err)
	require.NotContains(t, snap.Data(), "views", "the game over keeps no views")
	require.NotContains(t, snap.Data(), "sealed")
	code, out = s.post(host.Token, "HexDice", map[string]any{"gameId": g.id, "actionId": "k-over", "type": domain.ActionViewKey})
	require.Equal(t, http.StatusBadRequest, code, "%v", out)
}
