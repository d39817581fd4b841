package rules

import (
	"context"
	"testing"

	"github.com/meeple-games/meeple/store/storetest"
)

// TestDiscordDocs: the webhook URLs (private/discord) and the outbox are
// read by nobody, not even the game's admins; the delivery status by the
// game's admins only (not another game's, not its teams).
func TestDiscordDocs(t *testing.T) {
	e := newEnv(t)
	fs := storetest.ClientFor(t, e.project)
	ctx := context.Background()
	otherAdmin := caller{name: "admin-of-g2", uid: "a-g2", claims: map[string]any{"role": "admin", "game": "g2"}}
	callers := append(append([]caller{}, everyone...), otherAdmin)
	for _, p := range []string{"games/g1/private/discord", "games/g1/private/discordStatus", "games/g1/outbox/k1"} {
		if _, err := fs.Doc(p).Set(ctx, map[string]any{"seeded": true}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range callers {
		wantAccess(t, "get the webhook URLs", c, false, e.get(t, c, "games/g1/private/discord"))
		wantAccess(t, "get an outbox message", c, false, e.get(t, c, "games/g1/outbox/k1"))
		wantAccess(t, "list the outbox", c, false, e.listDocs(t, c, "games/g1/outbox"))
		wantAccess(t, "get the delivery status", c, contains(only(admin, master), c), e.get(t, c, "games/g1/private/discordStatus"))
	}
}
