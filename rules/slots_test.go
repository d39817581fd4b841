package rules

import (
	"context"
	"strings"
	"testing"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/store/storetest"
)

// TestSlotsOfTheRegistry: every document slot every registered game declares
// is readable as its Access says, and by nobody else. A game that adds a slot
// and forgets the rules (or opens them too wide) fails here.
//
//   - public: every signed-in caller;
//   - owner: only the caller whose id is the document's key;
//   - admin: at most the game's own admins (a rule may narrow it further,
//     as the Tile Race board is only readable while the fog is off for them);
//   - never: nobody.
func TestSlotsOfTheRegistry(t *testing.T) {
	e := newEnv(t)
	fs := storetest.ClientFor(t, e.project)
	ctx := context.Background()
	for _, entry := range games.All() {
		for _, s := range entry.Game.Slots() {
			key := "k1"
			if s.Access == domain.ReadOwner {
				key = alice.uid
			}
			path := strings.ReplaceAll(s.Path, "{key}", key)
			if abs, ok := strings.CutPrefix(path, "/"); ok {
				path = abs
			} else {
				path = "games/g1/" + path
			}
			if _, err := fs.Doc(path).Set(ctx, map[string]any{"seeded": true}); err != nil {
				t.Fatalf("seed %s: %v", path, err)
			}
			t.Run(entry.Kind()+"/"+s.Name, func(t *testing.T) {
				for _, c := range everyone {
					r := e.get(t, c, path)
					switch s.Access {
					case domain.ReadPublic:
						wantAccess(t, "get "+path, c, contains(signedIn, c), r)
					case domain.ReadOwner:
						wantAccess(t, "get "+path, c, c.uid == key, r)
					case domain.ReadAdmin:
						if !contains(only(admin, master), c) {
							wantAccess(t, "get "+path, c, false, r)
						}
					case domain.ReadNever:
						wantAccess(t, "get "+path, c, false, r)
					default:
						t.Fatalf("slot %s/%s: unknown access %q", entry.Kind(), s.Name, s.Access)
					}
				}
			})
		}
	}
}
