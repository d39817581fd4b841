package functions_test

import (
	"context"
	"net/http"
	"testing"

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
