package rules

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// seeded are the documents every test project holds: one of each kind the
// server writes, plus paths no rule names. Every one of them is a target of
// the write tests.
var seeded = []string{
	// public
	"games/g1",
	"games/g1/events/000000000001",
	"games/g1/events/b000000000001", // a history batch (store/log.go)
	"players/p1",
	"players/p2",
	"leaderboards/dashdice",
	"games/g1/teams/t1",
	"games/g1/teams/t2",
	"games/g1/powerupTiles/pt-1",
	"games/g1/public/board",
	"games/g1/public/leaderboard",
	// the game's admins only (the board also only while the fog is off for
	// admins, which the seeded game document does not say: see TestTileRaceFog)
	"games/g1/private/board",
	"games/g1/private/pools",
	// the game's players only (games/g1's players are p1 and p2)
	"games/g1/private/room",
	// the owner's only
	"users/p1",
	"users/p2",
	"queues/dashdice/tickets/p1",
	"queues/dashdice/tickets/p2",
	// server-only
	"games/g1/private/server",
	// ledger entries of before issue 22's last changes (a Tile Race award,
	// a player's result): the ledgers are in the event records now, and
	// nobody reads these collections
	"games/g1/ledger/t1-1",
	"players/p1/ledger/e1",
	"players/p2/ledger/e2",
	"games/g1/private/cred-team-t1",
	"games/g1/private/cred-admin-a1",
	"games/g1/actions/a1",
	"games/g1/actions/~journal-000000000017", // records moved from a hidden game's journal
	"games/g1/private/state",                 // a hidden game's whole state and journal
	"games/g1/bots/turn",
	"games/g1/history/000000000001",
	"users/p1/private/credentials",
	"usernames/alice",
	"rooms/ABC234",
	"queues/dashdice",
	"outbox/o1",
	"config/server",
	"config/dashdice/modes/classic",
	"config/projectionPass",
	"projections/g1~000000000001",
	// named by no rule
	"elsewhere/x",
	"games/g1/elsewhere/x",
	"players/p1/elsewhere/x",
	"leaderboards/dashdice/entries/x",
}

// seed writes every seeded document with the admin client, which bypasses the
// rules as the server's Admin SDK does in production.
func seed(t *testing.T, e *env) {
	t.Helper()
	fs := storetest.ClientFor(t, e.project)
	ctx := context.Background()
	w := fs.BulkWriter(ctx)
	jobs := make([]*firestore.BulkWriterJob, len(seeded))
	for i, p := range seeded {
		doc := map[string]any{"seeded": true, "path": p, "at": time.Now()}
		if p == "games/g1" { // a private game of alice's and bob's
			doc["players"], doc["private"] = []string{alice.uid, bob.uid}, true
		}
		job, err := w.Set(fs.Doc(p), doc)
		if err != nil {
			t.Fatalf("seed %s: %v", p, err)
		}
		jobs[i] = job
	}
	w.End()
	for i, job := range jobs {
		if _, err := job.Results(); err != nil {
			t.Fatalf("seed %s: %v", seeded[i], err)
		}
	}
}

// setup is a fresh project with the rules loaded and the documents seeded.
func setup(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	seed(t, e)
	return e
}

// only is a list of callers; nobody is the empty one.
func only(cs ...caller) []caller { return cs }

var nobody []caller

// wantAccess checks that r is allowed when want, and denied on the rules
// otherwise.
func wantAccess(t *testing.T, what string, c caller, want bool, r reply) {
	t.Helper()
	switch {
	case want && !r.allowed():
		t.Errorf("%s as %s: got %v, want 200 (allowed)", what, c.name, r)
	case !want && !r.denied():
		t.Errorf("%s as %s: got %v, want 403 PERMISSION_DENIED", what, c.name, r)
	}
}

// TestRulesLoad: the rules compile with no errors and no warnings (the
// compiler's warnings, such as an unknown variable, are usually bugs).
func TestRulesLoad(t *testing.T) {
	src := readRules(t)
	if !strings.HasPrefix(strings.TrimSpace(src), "rules_version = '2';") {
		t.Errorf("firestore.rules: want it to start with rules_version = '2';")
	}
	if status, issues := compile(t, src); status != http.StatusOK || len(issues) > 0 {
		t.Errorf("compile firestore.rules: got status %d, issues %v; want 200 and none", status, issues)
	}
	// The check above must be able to fail.
	if status, _ := compile(t, "service cloud.firestore { match /x { allow read: if nope(; } }"); status == http.StatusOK {
		t.Errorf("compile broken rules: got 200, want an error status")
	}
	if _, issues := compile(t, strings.Replace(src, "request.auth != null", "requst.auth != null", 1)); len(issues) == 0 {
		t.Errorf("compile rules with a misspelt variable: got no issues, want a warning")
	}
}

// TestGet: one document read by each caller.
func TestGet(t *testing.T) {
	e := setup(t)
	cases := []struct {
		path string
		who  []caller // who may read it; everyone else is denied
	}{
		{"games/g1", signedIn},
		{"games/g1/events/000000000001", signedIn},
		{"games/g1/events/b000000000001", signedIn},
		{"players/p1", signedIn},
		{"players/p2", signedIn},
		{"leaderboards/dashdice", signedIn},
		{"games/g1/teams/t1", signedIn},
		{"games/g1/teams/t2", signedIn},
		{"games/g1/powerupTiles/pt-1", signedIn},
		{"games/g1/public/board", signedIn},
		{"games/g1/public/leaderboard", signedIn},
		{"games/g1/ledger/t1-1", nobody},
		{"games/g1/private/board", nobody},
		{"games/g1/private/pools", only(admin, master)},
		{"games/g1/private/room", only(alice, bob)},
		{"games/g1/private/cred-team-t1", nobody},
		{"games/g1/private/cred-admin-a1", nobody},
		{"players/p1/ledger/e1", nobody},
		{"players/p2/ledger/e2", nobody},
		{"users/p1", only(alice)},
		{"users/p2", only(bob)},
		{"queues/dashdice/tickets/p1", only(alice)},
		{"queues/dashdice/tickets/p2", only(bob)},
		{"games/g1/private/server", nobody},
		{"games/g1/actions/a1", nobody},
		{"games/g1/actions/~journal-000000000017", nobody},
		{"games/g1/private/state", nobody},
		{"games/g1/bots/turn", nobody},
		{"games/g1/history/000000000001", nobody},
		{"users/p1/private/credentials", nobody},
		{"usernames/alice", nobody},
		{"rooms/ABC234", nobody},
		{"queues/dashdice", nobody},
		{"outbox/o1", nobody},
		{"config/server", nobody},
		{"config/dashdice/modes/classic", nobody},
		{"config/projectionPass", nobody},       // the tick's leaderboard pass claim
		{"projections/g1~000000000001", nobody}, // a board the tick must rebuild
		{"elsewhere/x", nobody},
		{"games/g1/elsewhere/x", nobody},
		{"players/p1/elsewhere/x", nobody},
		{"leaderboards/dashdice/entries/x", nobody},
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		covered[tc.path] = true
	}
	for _, p := range seeded {
		if !covered[p] {
			t.Errorf("seeded document %s has no read case", p)
		}
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			for _, c := range everyone {
				wantAccess(t, "get "+tc.path, c, contains(tc.who, c), e.get(t, c, tc.path))
			}
		})
	}
}

// TestGetMissing: the rules decide on the path, not on the data, so a
// readable path that holds no document is a 404 and a private one is still a
// 403: a client cannot probe whether a private document exists.
func TestGetMissing(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		path string
		c    caller
		want int
	}{
		{"games/none", alice, http.StatusNotFound},
		{"games/none/events/none", alice, http.StatusNotFound},
		{"games/none", anon, http.StatusForbidden},
		{"players/p1/ledger/none", alice, http.StatusForbidden},
		{"games/none/private/server", alice, http.StatusForbidden},
		{"rooms/NOROOM", alice, http.StatusForbidden},
		{"usernames/nobody", alice, http.StatusForbidden},
	}
	for _, tc := range cases {
		if r := e.get(t, tc.c, tc.path); r.status != tc.want {
			t.Errorf("get %s as %s: got %v, want %d", tc.path, tc.c.name, r, tc.want)
		}
	}
}

// TestList: collection reads (queries and the List method) by each caller.
func TestList(t *testing.T) {
	e := setup(t)
	cases := []struct {
		collection string
		group      bool // a collection-group query over every collection of that id
		who        []caller
	}{
		// A query of games must ask for public ones (TestListPublicGames).
		{"games", false, nobody},
		{"games/g1/events", false, signedIn},
		{"players", false, signedIn},
		{"leaderboards", false, signedIn},
		{"games/g1/teams", false, signedIn},
		{"games/g1/powerupTiles", false, signedIn},
		{"games/g1/public", false, signedIn},
		{"games/g1/ledger", false, nobody},
		{"players/p1/ledger", false, nobody},
		{"players/p2/ledger", false, nobody},
		// A rule that compares the document id with the caller cannot hold for
		// a whole collection, so nobody lists users or tickets.
		{"users", false, nobody},
		{"queues/dashdice/tickets", false, nobody},
		{"games/g1/private", false, nobody},
		{"games/g1/actions", false, nobody},
		{"games/g1/history", false, nobody},
		{"users/p1/private", false, nobody},
		{"usernames", false, nobody},
		{"rooms", false, nobody},
		{"queues", false, nobody},
		{"outbox", false, nobody},
		{"config", false, nobody},
		{"config/dashdice/modes", false, nobody},
		{"elsewhere", false, nobody},
		{"games/g1/elsewhere", false, nobody},
		{"leaderboards/dashdice/entries", false, nobody},
		// Collection groups: no rule grants them to clients (the server's sweep
		// of pending events runs with the Admin SDK). A player lists their own
		// results with a filter (TestPlayerResults); a query without one, never.
		{"events", true, nobody},
		{"ledger", true, nobody},
		{"teams", true, nobody},
		{"private", true, nobody},
		{"actions", true, nobody},
		{"history", true, nobody},
		{"tickets", true, nobody},
	}
	for _, tc := range cases {
		name := tc.collection
		if tc.group {
			name = "group:" + name
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, c := range everyone {
				want := contains(tc.who, c)
				wantAccess(t, "query "+name, c, want, e.query(t, c, tc.collection, tc.group))
				if !tc.group {
					wantAccess(t, "list "+name, c, want, e.listDocs(t, c, tc.collection))
				}
			}
		})
	}
}

// TestQueryOwnDocument: a query the emulator can prove stays within the
// caller's own documents (a filter on the document name) is allowed where the
// rule allows list; a ticket allows only get, so not even its owner queries it.
func TestQueryOwnDocument(t *testing.T) {
	e := setup(t)
	cases := []struct {
		collection, path string
		c                caller
		want             bool
	}{
		{"users", "users/p1", alice, true},
		{"users", "users/p2", alice, false},
		{"users", "users/p1", anon, false},
		{"players/p1/ledger", "players/p1/ledger/e1", alice, false},
		{"queues/dashdice/tickets", "queues/dashdice/tickets/p1", alice, false},
		{"usernames", "usernames/alice", alice, false},
	}
	for _, tc := range cases {
		wantAccess(t, "query "+tc.collection+" for "+tc.path, tc.c, tc.want, e.queryByName(t, tc.c, tc.collection, tc.path))
	}
}

// TestMalformedToken: a bearer that is not a JWT reads nothing.
func TestMalformedToken(t *testing.T) {
	e := setup(t)
	req, err := http.NewRequest(http.MethodGet, e.base+"/games/g1", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer not-a-jwt")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		t.Errorf("get games/g1 with a malformed token: got 200, want an error")
	}
}

// TestListReturnsDocuments: an allowed query really returns the documents, so
// the 200s above are not empty answers from a wrong path.
func TestListReturnsDocuments(t *testing.T) {
	e := setup(t)
	for _, tc := range []struct {
		collection string
		c          caller
		want       string
	}{
		{"games/g1/events", team, "/documents/games/g1/events/000000000001"},
	} {
		r := e.query(t, tc.c, tc.collection, false)
		if !r.allowed() || !strings.Contains(string(r.body), tc.want) {
			t.Errorf("query %s as %s: got %v, want 200 naming %s", tc.collection, tc.c.name, r, tc.want)
		}
	}
}

// TestClientWritesDenied: every write method, on every seeded path and on a
// new document in every seeded collection, is denied to every caller; the
// data is unchanged afterwards.
func TestClientWritesDenied(t *testing.T) {
	e := setup(t)
	t.Run("writes", func(t *testing.T) {
		for _, p := range seeded {
			t.Run(p, func(t *testing.T) {
				t.Parallel()
				parent, _ := splitCollection(p)
				for _, c := range everyone {
					fresh := parent + "/new-" + c.name
					wantAccess(t, "update (patch) "+p, c, false, e.patch(t, c, p))
					wantAccess(t, "delete "+p, c, false, e.remove(t, c, p))
					wantAccess(t, "commit "+p, c, false, e.commit(t, c, p))
					wantAccess(t, "create in "+parent, c, false, e.create(t, c, parent, "new-"+c.name))
					wantAccess(t, "create (patch) "+fresh, c, false, e.patch(t, c, fresh))
					wantAccess(t, "create (commit) "+fresh, c, false, e.commit(t, c, fresh))
				}
			})
		}
	})
	// After every write above has been refused.
	t.Run("unchanged", func(t *testing.T) {
		fs := storetest.ClientFor(t, e.project)
		ctx := context.Background()
		for _, p := range seeded {
			snap, err := fs.Doc(p).Get(ctx)
			if err != nil {
				t.Errorf("get %s after denied writes: %v", p, err)
				continue
			}
			if _, hacked := snap.Data()["hacked"]; hacked || snap.Data()["seeded"] != true {
				t.Errorf("%s after denied writes: got %v, want the seeded document", p, snap.Data())
			}
			parent, _ := splitCollection(p)
			for _, c := range everyone {
				if _, err := fs.Doc(parent + "/new-" + c.name).Get(ctx); err == nil {
					t.Errorf("%s/new-%s exists after a denied create", parent, c.name)
				}
			}
		}
	})
}

// TestServerStillWrites: the rules do not get in the server's way; the admin
// client (the emulator's owner, as the Admin SDK in production) writes and
// reads private paths.
func TestServerStillWrites(t *testing.T) {
	e := setup(t)
	fs := storetest.ClientFor(t, e.project)
	ctx := context.Background()
	for _, p := range []string{"games/g2", "games/g1/private/server", "games/g1/actions/a2", "outbox/o2", "users/p1/private/credentials"} {
		if _, err := fs.Doc(p).Set(ctx, map[string]any{"by": "server"}); err != nil {
			t.Errorf("admin set %s: got %v, want nil", p, err)
		}
		snap, err := fs.Doc(p).Get(ctx)
		if err != nil || snap.Data()["by"] != "server" {
			t.Errorf("admin get %s: got %v, %v; want by=server", p, snap, err)
		}
	}
	if _, err := fs.Doc("rooms/ABC234").Delete(ctx); err != nil {
		t.Errorf("admin delete rooms/ABC234: got %v, want nil", err)
	}
	// A client still cannot read what the server just wrote.
	wantAccess(t, "get games/g1/private/server", alice, false, e.get(t, alice, "games/g1/private/server"))
	wantAccess(t, "get games/g2", alice, true, e.get(t, alice, "games/g2"))
}

// TestTileRaceFog: the private board (every tile's content) is readable by
// the game's admins only while the game's fog is off for admins or for all;
// never by a team, an admin of another game or a player, whatever the fog.
// Password hashes are never readable.
func TestTileRaceFog(t *testing.T) {
	e := newEnv(t)
	fs := storetest.ClientFor(t, e.project)
	ctx := context.Background()
	otherTeam := caller{name: "team-of-g2", uid: "t-g2", claims: map[string]any{"role": "team", "game": "g2", "team": "t1"}}
	otherAdmin := caller{name: "admin-of-g2", uid: "a-g2", claims: map[string]any{"role": "admin", "game": "g2"}}
	callers := append(append([]caller{}, everyone...), otherTeam, otherAdmin)
	for _, p := range []string{"games/g1/private/board", "games/g1/private/cred-team-t1", "games/g1/private/cred-admin-a1", "games/g1/private/pools"} {
		if _, err := fs.Doc(p).Set(ctx, map[string]any{"seeded": true}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		fog   any // nil: no fog field
		board []caller
	}{
		{"enabled", nobody},
		{"admins", only(admin, master)},
		{"all", only(admin, master)},
		{"bogus", nobody},
		{nil, nobody},
	} {
		board := map[string]any{"seeded": true}
		if tc.fog != nil {
			board["fog"] = tc.fog // the board mirrors its game's fog mode
		}
		if _, err := fs.Doc("games/g1/private/board").Set(ctx, board); err != nil {
			t.Fatal(err)
		}
		for _, c := range callers {
			r := e.get(t, c, "games/g1/private/board")
			wantAccess(t, fmt.Sprintf("get the private board (fog %v)", tc.fog), c, contains(tc.board, c), r)
			wantAccess(t, "get pools", c, contains(only(admin, master), c), e.get(t, c, "games/g1/private/pools"))
			for _, p := range []string{"games/g1/private/cred-team-t1", "games/g1/private/cred-admin-a1"} {
				wantAccess(t, "get "+p, c, false, e.get(t, c, p))
			}
			wantAccess(t, "list private", c, false, e.listDocs(t, c, "games/g1/private"))
		}
	}
}

// TestListPublicGames: a query of games must ask for public ones
// (private == false), and then finds only those; a private game is not
// listed to anyone, though its players may read it and its room code.
func TestListPublicGames(t *testing.T) {
	e := setup(t)
	fs := storetest.ClientFor(t, e.project)
	if _, err := fs.Doc("games/pub").Set(context.Background(), map[string]any{"private": false, "players": []string{}}); err != nil {
		t.Fatal(err)
	}
	query := func(c caller) reply {
		return e.call(t, c, http.MethodPost, ":runQuery", map[string]any{"structuredQuery": map[string]any{
			"from": []any{map[string]any{"collectionId": "games"}},
			"where": map[string]any{"fieldFilter": map[string]any{
				"field": map[string]any{"fieldPath": "private"}, "op": "EQUAL", "value": map[string]any{"booleanValue": false}}},
		}})
	}
	for _, c := range everyone {
		r := query(c)
		wantAccess(t, "query public games", c, contains(signedIn, c), r)
		if r.allowed() {
			if !strings.Contains(string(r.body), "/documents/games/pub") || strings.Contains(string(r.body), "/documents/games/g1\"") {
				t.Errorf("public games as %s: got %s, want games/pub and not games/g1", c.name, r.body)
			}
		}
	}
}

// TestPlayerResults: a player lists the results of their finished games, the
// game ends' event records that name them in players, with a query of the
// events collection group (docs/firestore.md, "A player's results"); nobody
// lists another player's, and a query that does not ask for the caller's
// own is refused whoever makes it.
func TestPlayerResults(t *testing.T) {
	e := setup(t)
	fs := storetest.ClientFor(t, e.project)
	ctx := context.Background()
	for path, players := range map[string][]string{
		"games/g7/events/000000000031": {alice.uid, bob.uid},
		"games/g8/events/000000000012": {bob.uid},
	} {
		if _, err := fs.Doc(path).Set(ctx, map[string]any{"players": players, "at": time.Now(),
			"results": []any{map[string]any{"player": players[0], "result": "win"}}}); err != nil {
			t.Fatal(err)
		}
	}
	query := func(c caller, player string) reply {
		return e.call(t, c, http.MethodPost, ":runQuery", map[string]any{"structuredQuery": map[string]any{
			"from": []any{map[string]any{"collectionId": "events", "allDescendants": true}},
			"where": map[string]any{"fieldFilter": map[string]any{
				"field": map[string]any{"fieldPath": "players"}, "op": "ARRAY_CONTAINS", "value": map[string]any{"stringValue": player}}},
			"orderBy": []any{map[string]any{"field": map[string]any{"fieldPath": "at"}, "direction": "DESCENDING"}},
		}})
	}
	for _, tc := range []struct {
		c      caller
		player string
		want   bool
		finds  []string // the records the answer names
		misses []string // and does not
	}{
		{alice, alice.uid, true, []string{"g7/events/000000000031"}, []string{"g8/"}},
		{bob, bob.uid, true, []string{"g7/events/000000000031", "g8/events/000000000012"}, nil},
		{alice, bob.uid, false, nil, nil},
		{bob, alice.uid, false, nil, nil},
		{anon, alice.uid, false, nil, nil},
		{team, alice.uid, false, nil, nil},
		{spoof, alice.uid, false, nil, nil},
	} {
		r := query(tc.c, tc.player)
		wantAccess(t, "query the results of "+tc.player, tc.c, tc.want, r)
		for _, f := range tc.finds {
			if !strings.Contains(string(r.body), "/documents/games/"+f) {
				t.Errorf("results of %s as %s: got %s, want games/%s", tc.player, tc.c.name, r.body, f)
			}
		}
		for _, f := range tc.misses {
			if strings.Contains(string(r.body), "/documents/games/"+f) {
				t.Errorf("results of %s as %s: got %s, want no games/%s", tc.player, tc.c.name, r.body, f)
			}
		}
	}
}
