package functions_test

import (
	"context"
	"net/http"
	"testing"

	"cloud.google.com/go/firestore"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/dashdice"
)

func TestDashDiceModesFromConfiguration(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice := s.guest("Alice")
	ctx := context.Background()
	require.NoError(t, s.store.SetConfig(ctx, "dashdice", "modes", "sprint",
		dashdice.Mode{Name: "Sprint", RuleSet: dashdice.RuleSetClassic, TargetScore: 30}))
	require.NoError(t, s.store.SetConfig(ctx, "dashdice", "modes", "classic",
		dashdice.Mode{Name: "Classic 150", RuleSet: dashdice.RuleSetClassic, TargetScore: 150}))
	require.NoError(t, s.store.SetConfig(ctx, "dashdice", "modes", "broken",
		dashdice.Mode{Name: "Broken", RuleSet: "poker"}))

	tests := []struct {
		mode   string
		target int
		status int
		code   string
	}{
		{"sprint", 30, http.StatusOK, ""},    // added by an operator
		{"classic", 150, http.StatusOK, ""},  // built in, overridden
		{"quickfire", 50, http.StatusOK, ""}, // built in
		{"broken", 0, http.StatusInternalServerError, domain.EINTERNAL},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			code, out := s.post(alice.Token, "DashDice", map[string]any{"actionId": "mk-" + tt.mode, "type": "create", "mode": tt.mode})
			require.Equal(t, tt.status, code, "%v", out)
			if tt.code != "" {
				require.Equal(t, tt.code, errCode(out))
				return
			}
			var m dashdice.Match
			_, err := s.store.GameState(ctx, out["gameId"].(string), &m)
			require.NoError(t, err)
			require.Equal(t, tt.mode, m.Mode.ID)
			require.Equal(t, tt.target, m.Mode.TargetScore)
		})
	}
}

// An instance keeps its copy of a mode document for domain.ConfigCacheFor:
// a second create reads one document fewer; a change an operator makes in the
// console reaches it only when the copy is that old, one made through this
// store (SetConfig) at once.
func TestDashDiceModeCache(t *testing.T) {
	s, c := countedStack(t)
	alice := s.guest("Alice")
	ctx := context.Background()
	set := func(target int) {
		t.Helper()
		require.NoError(t, s.store.SetConfig(ctx, "dashdice", "modes", "cached",
			dashdice.Mode{Name: "Cached", RuleSet: dashdice.RuleSetClassic, TargetScore: target}))
	}
	create := func(id string) (target int, reads int64) {
		t.Helper()
		r0 := c.Reads.Load()
		code, out := s.post(alice.Token, "DashDice", map[string]any{"actionId": id, "type": "create", "mode": "cached"})
		reads = c.Reads.Load() - r0
		require.Equal(t, http.StatusOK, code, "%v", out)
		var m dashdice.Match
		_, err := s.store.GameState(ctx, out["gameId"].(string), &m)
		require.NoError(t, err)
		return m.Mode.TargetScore, reads
	}
	set(30)
	got, first := create("c1")
	require.Equal(t, 30, got)
	got, second := create("c2")
	require.Equal(t, 30, got)
	require.Equal(t, first-1, second, "the second create reads its copy, not the document")

	_, err := s.store.FS.Doc("config/dashdice/modes/cached").Update(ctx, []firestore.Update{{Path: "targetScore", Value: 40}})
	require.NoError(t, err)
	got, _ = create("c3")
	require.Equal(t, 30, got, "a console change waits for the copy to age")

	set(50)
	got, _ = create("c4")
	require.Equal(t, 50, got, "a change through this store is seen at once")
}
