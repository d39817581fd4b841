package functions_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// TestRaceSessionsEnd: a team's old token stops working once its password
// changes; an admin removed and added again (same id) is a new identity, so
// the old token stays refused.
func TestRaceSessionsEnd(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	r := newRace(t, s, 1, true)
	tm := r.teams[0]
	complete := func(tok, id string) (int, map[string]any) {
		return r.act(tok, id, map[string]any{"type": "complete", "tile": 1, "recorded": 0, "players": []string{tm.members[0]}})
	}
	r.mustAct(r.admin, "pw", map[string]any{"type": "updateTeam", "team": tm.id, "password": "new-team-pw"})
	code, out := complete(tm.token, "old")
	require.Equal(t, http.StatusUnauthorized, code, "the old password's session: %v", out)
	require.Equal(t, domain.EUNAUTHORIZED, errCode(out))
	fresh := r.login("teamLogin", "team", tm.name, "new-team-pw")
	code, out = complete(fresh, "new")
	require.NotEqual(t, http.StatusUnauthorized, code, "a new session works: %v", out)

	old := r.admin
	r.mustAct(r.master, "rm", map[string]any{"type": "removeAdmin", "id": "ada"})
	r.mustAct(r.master, "re-add", map[string]any{"type": "addAdmin", "id": "ada", "name": "Ada", "password": "admin-pass"})
	code, out = r.act(old, "old-admin", map[string]any{"type": "viewBoard"})
	require.Equal(t, http.StatusUnauthorized, code, "the removed admin's token, after the re-add: %v", out)
	again := r.login("adminLogin", "admin", "Ada", "admin-pass")
	code, out = r.act(again, "new-admin", map[string]any{"type": "viewBoard"})
	require.Equal(t, http.StatusOK, code, "%v", out)
}
