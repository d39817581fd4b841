package rules

import (
	"context"
	"testing"
	"time"

	"github.com/meeple-games/meeple/store/storetest"
)

// hexDiceDocs are a Hex & Dice game's own documents: the map (public) and
// each player's simultaneous-mode orders (that player's only). The game
// document games/h1 seats alice (p1) and bob (p2).
var hexDiceDocs = []string{
	"games/h1",
	"games/h1/public/map",
	"games/h1/orders/p1",
	"games/h1/orders/p2",
}

func seedHexDice(t *testing.T, e *env) {
	t.Helper()
	fs := storetest.ClientFor(t, e.project)
	ctx := context.Background()
	for _, p := range hexDiceDocs {
		doc := map[string]any{"path": p, "at": time.Now()}
		switch p {
		case "games/h1":
			doc["kind"], doc["players"], doc["private"] = "hexdice", []string{alice.uid, bob.uid}, false
		case "games/h1/orders/p1", "games/h1/orders/p2":
			doc["round"], doc["submitted"] = 3, true
			doc["troops"] = []any{map[string]any{"troop": 4, "move": map[string]any{"q": 1, "r": -2}}}
		}
		if _, err := fs.Doc(p).Set(ctx, doc); err != nil {
			t.Fatalf("seed %s: %v", p, err)
		}
	}
}

// TestHexDiceOrdersArePrivate: a player's orders are readable by that player
// only — not by the opponent seated in the same game, not by a spectator, a
// scoped token or a caller whose claims name the player — and nobody may
// list or query a game's orders, or the orders of every game.
func TestHexDiceOrdersArePrivate(t *testing.T) {
	e := newEnv(t)
	seedHexDice(t, e)
	for _, c := range everyone {
		wantAccess(t, "get games/h1/orders/p1", c, c.uid == alice.uid, e.get(t, c, "games/h1/orders/p1"))
		wantAccess(t, "get games/h1/orders/p2", c, c.uid == bob.uid, e.get(t, c, "games/h1/orders/p2"))
		wantAccess(t, "list games/h1/orders", c, false, e.listDocs(t, c, "games/h1/orders"))
		wantAccess(t, "query games/h1/orders", c, false, e.query(t, c, "games/h1/orders", false))
		wantAccess(t, "query group orders", c, false, e.query(t, c, "orders", true))
		// Even a query that names only the caller's own document is a list.
		if !c.anonymous() {
			wantAccess(t, "query own orders by name", c, false, e.queryByName(t, c, "games/h1/orders", "games/h1/orders/"+c.uid))
		}
	}
	// The map and the game are public to every signed-in caller.
	for _, p := range []string{"games/h1", "games/h1/public/map"} {
		for _, c := range everyone {
			wantAccess(t, "get "+p, c, !c.anonymous(), e.get(t, c, p))
		}
	}
	// No client writes either.
	for _, p := range hexDiceDocs[1:] {
		for _, c := range everyone {
			if r := e.patch(t, c, p); !r.denied() {
				t.Errorf("patch %s as %s: got %v, want denied", p, c.name, r)
			}
		}
	}
}

// TestHexDiceFogViews: under fog each player reads their own view document
// only; nobody reads the whole state (private/state); a spectator reads no
// view; a token of another role or scoped to a game is refused even with
// the player's uid; nobody lists the views.
func TestHexDiceFogViews(t *testing.T) {
	e := newEnv(t)
	fs := storetest.ClientFor(t, e.project)
	ctx := context.Background()
	for _, p := range []string{"games/f1", "games/f1/views/p1", "games/f1/views/p2", "games/f1/private/state"} {
		doc := map[string]any{"path": p, "version": 3}
		if p == "games/f1" {
			doc["kind"], doc["players"], doc["private"] = "hexdice", []string{alice.uid, bob.uid}, false
		}
		if _, err := fs.Doc(p).Set(ctx, doc); err != nil {
			t.Fatalf("seed %s: %v", p, err)
		}
	}
	scoped := caller{name: "alice-scoped", uid: "p1", claims: map[string]any{"role": "team", "game": "g2", "team": "t1"}}
	admin := caller{name: "alice-admin", uid: "p1", claims: map[string]any{"role": "admin", "game": "f1"}}
	callers := append(append([]caller{}, everyone...), scoped, admin)
	for _, c := range callers {
		wantAccess(t, "get games/f1/views/p1", c, c.name == alice.name, e.get(t, c, "games/f1/views/p1"))
		wantAccess(t, "get games/f1/views/p2", c, c.name == bob.name, e.get(t, c, "games/f1/views/p2"))
		wantAccess(t, "get games/f1/private/state", c, false, e.get(t, c, "games/f1/private/state"))
		wantAccess(t, "list games/f1/views", c, false, e.listDocs(t, c, "games/f1/views"))
		wantAccess(t, "query group views", c, false, e.query(t, c, "views", true))
		if r := e.patch(t, c, "games/f1/views/p1"); !r.denied() {
			t.Errorf("patch views/p1 as %s: got %v, want denied", c.name, r)
		}
	}
}
