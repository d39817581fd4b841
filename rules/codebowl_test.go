package rules

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/meeple-games/meeple/store/storetest"
)

// codeBowlDocs are CodeBowl's documents: two teams (bob's, a registered
// coach, and another coach's), a match c1 between bob (p2) and p5, one chat
// message and bob's chat rate limit.
var codeBowlDocs = []string{
	"cbteams/tA",
	"cbteams/tB",
	"games/c1",
	"games/c1/chat/0000000000000000001-abcd1234",
	"games/c1/chatlimit/p2",
}

func seedCodeBowl(t *testing.T, e *env) {
	t.Helper()
	fs := storetest.ClientFor(t, e.project)
	ctx := context.Background()
	for _, p := range codeBowlDocs {
		doc := map[string]any{"path": p, "at": time.Now()}
		switch p {
		case "cbteams/tA":
			doc["coach"], doc["name"] = bob.uid, "Reds"
		case "cbteams/tB":
			doc["coach"], doc["name"] = "p5", "Blues"
		case "games/c1":
			doc["kind"], doc["players"], doc["private"], doc["status"] = "codebowl", []string{bob.uid, "p5"}, false, "active"
		case "games/c1/chatlimit/p2":
			doc["sent"] = []any{time.Now()}
		default:
			doc["from"], doc["text"] = bob.uid, "good luck"
		}
		if _, err := fs.Doc(p).Set(ctx, doc); err != nil {
			t.Fatalf("seed %s: %v", p, err)
		}
	}
}

// carol is the other coach of match c1: a registered player, owner of team tB.
var carol = caller{name: "carol", uid: "p5", claims: map[string]any{"role": "player", "name": "Carol"}}

// queryWhere runs a query over collection with field == value.
func (e *env) queryWhere(t testing.TB, c caller, collection, field, value string) reply {
	t.Helper()
	return e.call(t, c, http.MethodPost, ":runQuery", map[string]any{
		"structuredQuery": map[string]any{
			"from": []any{map[string]any{"collectionId": collection}},
			"where": map[string]any{"fieldFilter": map[string]any{
				"field": map[string]any{"fieldPath": field},
				"op":    "EQUAL",
				"value": map[string]any{"stringValue": value},
			}},
		},
	})
}

// TestCodeBowlDocuments: teams and chat are public to every signed-in caller
// — guests (alice), the coach himself (bob), other coaches, scoped tokens —
// and to nobody anonymous; a coach's teams are listed by a query on coach;
// the chat rate limit is the server's only, even for its coach; and no
// client writes any of them, not even the team's own coach.
func TestCodeBowlDocuments(t *testing.T) {
	e := newEnv(t)
	seedCodeBowl(t, e)
	callers := append(append([]caller{}, everyone...), carol)
	for _, c := range callers {
		for _, p := range []string{"cbteams/tA", "cbteams/tB", "games/c1", "games/c1/chat/0000000000000000001-abcd1234"} {
			wantAccess(t, "get "+p, c, !c.anonymous(), e.get(t, c, p))
		}
		wantAccess(t, "list cbteams", c, !c.anonymous(), e.listDocs(t, c, "cbteams"))
		wantAccess(t, "query cbteams by coach", c, !c.anonymous(), e.queryWhere(t, c, "cbteams", "coach", bob.uid))
		wantAccess(t, "list games/c1/chat", c, !c.anonymous(), e.listDocs(t, c, "games/c1/chat"))
		wantAccess(t, "query games/c1/chat", c, !c.anonymous(), e.query(t, c, "games/c1/chat", false))
		wantAccess(t, "get games/c1/chatlimit/p2", c, false, e.get(t, c, "games/c1/chatlimit/p2"))
		wantAccess(t, "list games/c1/chatlimit", c, false, e.listDocs(t, c, "games/c1/chatlimit"))
		wantAccess(t, "query group chat", c, false, e.query(t, c, "chat", true))
		wantAccess(t, "query group chatlimit", c, false, e.query(t, c, "chatlimit", true))
		for _, p := range codeBowlDocs {
			for what, r := range map[string]reply{
				"patch":  e.patch(t, c, p),
				"delete": e.remove(t, c, p),
				"commit": e.commit(t, c, p),
			} {
				if !r.denied() {
					t.Errorf("%s %s as %s: got %v, want denied", what, p, c.name, r)
				}
			}
		}
		for _, col := range []string{"cbteams", "games/c1/chat", "games/c1/chatlimit"} {
			if r := e.create(t, c, col, "new"); !r.denied() {
				t.Errorf("create in %s as %s: got %v, want denied", col, c.name, r)
			}
		}
	}
	// Accounts stay private: a coach's profile is his own, the password hash
	// nobody's.
	for _, c := range callers {
		wantAccess(t, "get users/p2/private/credentials", c, false, e.get(t, c, "users/p2/private/credentials"))
	}
}
