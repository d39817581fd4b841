package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/store"
)

// TestFogRecordsInTheGame: a fog game's actions keep their records in the
// game document like any one-document action's (issue 22): the whole state
// is sealed in the game document, the reply sealed in its recent actions
// under the actor's label, the payload sealed in the log, so no action
// writes private/state or a record document. A retry of a recent action
// gets its first reply and changes nothing; one whose reply the game
// document no longer keeps, or older than its recent actions, gets a 409,
// never a second application; a reused id with another request is refused;
// the finished game replays. Both turn modes.
func TestFogRecordsInTheGame(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ctx := context.Background()
	host, guest := s.guest("Jh"), s.guest("Jg")
	g := newHexGame(s, host, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating, Fog: true}, "journal-seed")
	g.join(guest)
	id := g.id
	noServerDocs := func(id string) {
		t.Helper()
		perAction, moved := s.actionRecords(id)
		require.Zero(t, perAction, "record documents of single actions")
		require.Zero(t, moved, "journal batches")
		_, err := s.store.FS.Doc("games/" + id + "/private/state").Get(ctx)
		require.Equal(t, codes.NotFound, status.Code(err), "no private/state: the whole state is sealed in the game document")
	}

	var done []sent
	for len(done) < store.JournalKeep+4 {
		done = append(done, endTurnOf(g))
	}
	noServerDocs(id)
	snap, err := s.store.FS.Doc("games/" + id).Get(ctx)
	require.NoError(t, err)
	require.True(t, domain.IsSealed(snap.Data()["sealed"].(string)), "the whole state, sealed")
	var acts []map[string]any
	require.NoError(t, json.Unmarshal([]byte(snap.Data()["acts"].(string)), &acts))
	replies := 0
	for _, e := range acts {
		if r, ok := e["r"].(string); ok {
			require.True(t, domain.IsSealed(r), "a reply kept for a retry is sealed: %s", r)
			replies++
		}
	}
	require.Positive(t, replies)

	// The latest turn, sent again: its first reply, nothing applied.
	last := done[len(done)-1]
	version := sentAgain(t, s, g, last)
	var v int64

	// Another request under the latest turn's id: refused.
	code, out := s.post(last.who.Token, "HexDice", map[string]any{"type": "surrender", "actionId": last.body["actionId"], "gameId": id})
	require.Equal(t, http.StatusConflict, code, "%v", out)
	require.Equal(t, domain.EEXISTS, out["error"].(map[string]any)["code"])

	// The first turn's reply is no longer kept: its retry is a 409, not a
	// second turn's end.
	first := done[0]
	code, out = s.post(first.who.Token, "HexDice", first.body)
	require.Equal(t, http.StatusConflict, code, "%v", out)
	require.Equal(t, domain.ECONFLICT, out["error"].(map[string]any)["code"])
	require.Contains(t, out["error"].(map[string]any)["message"], "already applied")
	_, v = g.state()
	require.Equal(t, version, v)

	// Turns on until the first ones have left the game document's recent
	// actions too: a retry of one, on its player's turn, is still a 409
	// (store/oldacts.go).
	for len(done) < store.ActKeep+3 {
		done = append(done, endTurnOf(g))
	}
	st, version := g.state()
	old := done[0]
	if old.who.Token != g.player(st, st.Current).Token {
		old = done[1]
	}
	code, out = s.post(old.who.Token, "HexDice", old.body)
	require.Equal(t, http.StatusConflict, code, "%v", out)
	require.Contains(t, out["error"].(map[string]any)["message"], "already applied")
	_, v = g.state()
	require.Equal(t, version, v, "an old retry changes nothing")

	// To the end, and the replay.
	code, out = s.post(host.Token, "HexDice", map[string]any{"type": "surrender", "actionId": "s", "gameId": id})
	require.Equal(t, http.StatusOK, code, "%v", out)
	snap, err = s.store.FS.Doc("games/" + id).Get(ctx)
	require.NoError(t, err)
	require.NotContains(t, snap.Data(), "sealed", "the game over is written whole")
	res := replayed(t, s, "HexDice", id, guest)
	require.Equal(t, true, res["verified"], "%v", res["diverged"])
	noServerDocs(id)

	// The simultaneous mode: orders, fog, the same.
	a, b := s.guest("Ja"), s.guest("Jb")
	g = newHexGame(s, a, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Simultaneous, Fog: true}, "journal-seed-2")
	g.join(b)
	n := randomPlay(t, s, "HexDice", g.id, []player{a, b}, 7, 120)
	require.Greater(t, n, store.JournalKeep)
	noServerDocs(g.id)
	res = replayed(t, s, "HexDice", g.id, a)
	require.Equal(t, true, res["verified"], "%v", res["diverged"])
}

// TestFogJournalOfOlderGames: a fog game from before the whole state was
// sealed in the game document (legacyFog) keeps it in private/state, whose
// journal holds its actions' records, JournalKeep at a time moved into one
// document of the actions collection. Such a game goes on after the change
// as it was played (its create did not say its actions are secrets, so
// their fingerprints and replies are not sealed and cannot go in the game
// document): a retry of a record waiting in the journal gets its first
// reply, one that moved a 409, and the game replays from the moved records
// and the journal.
func TestFogJournalOfOlderGames(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ctx := context.Background()
	current := s.srv.Store
	legacy := store.New(current.FS, legacyFogRegistry())
	legacy.FixedSeeds, legacy.Now = true, s.clock
	s.srv.Store, s.store = legacy, legacy
	host, guest := s.guest("Lh"), s.guest("Lg")
	g := newHexGame(s, host, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating, Fog: true}, "legacy-journal-seed")
	g.join(guest)
	id := g.id
	waiting := func() int {
		t.Helper()
		snap, err := s.store.FS.Doc("games/" + id + "/private/state").Get(ctx)
		require.NoError(t, err)
		list, _ := snap.Data()["journal"].([]any)
		return len(list)
	}
	var done []sent
	for len(done) < store.JournalKeep+4 {
		done = append(done, endTurnOf(g))
	}
	perAction, moved := s.actionRecords(id)
	require.Zero(t, perAction, "record documents of single actions")
	require.Equal(t, 1, moved, "the journal moved its first %d records into one document", store.JournalKeep)
	require.Equal(t, len(done)+1-store.JournalKeep, waiting(), "records waiting: the join's and the turns' after the move")

	// The change deployed: the same game on the current game.
	s.srv.Store, s.store = current, current
	next := endTurnOf(g)
	snap, err := s.store.FS.Doc("games/" + id).Get(ctx)
	require.NoError(t, err)
	require.NotContains(t, snap.Data(), "sealed", "the whole state stays in private/state")
	require.NotContains(t, snap.Data(), "secretActs")
	perAction, moved = s.actionRecords(id)
	require.Zero(t, perAction)
	require.Equal(t, 1, moved)
	require.Equal(t, len(done)+2-store.JournalKeep, waiting(), "its record waits in the journal")

	// Records waiting in the journal, from before the change and after it:
	// their first replies.
	sentAgain(t, s, g, done[len(done)-1])
	sentAgain(t, s, g, next)

	// A record that moved: a 409.
	first := done[0]
	code, out := s.post(first.who.Token, "HexDice", first.body)
	require.Equal(t, http.StatusConflict, code, "%v", out)
	require.Contains(t, out["error"].(map[string]any)["message"], "already applied")

	for range 3 {
		endTurnOf(g)
	}
	code, out = s.post(host.Token, "HexDice", map[string]any{"type": "surrender", "actionId": "s", "gameId": id})
	require.Equal(t, http.StatusOK, code, "%v", out)
	res := replayed(t, s, "HexDice", id, guest)
	require.Equal(t, true, res["verified"], "%v", res["diverged"])
}

// legacyFogRegistry is the registry with Hex & Dice as its fog games were
// before their whole state was sealed in the game document (legacyFog).
func legacyFogRegistry() domain.Registry {
	reg := slices.Clone(games.All())
	for i, e := range reg {
		if e.Kind() == hexdice.Kind {
			reg[i].Game = legacyFog{e.Game.(hexdice.PlatformGame)}
		}
	}
	return reg
}

// legacyFog is Hex & Dice without a sealer for its whole state (so it is
// private/state's, domain.ReadFull) and without Header.Secret (so its
// actions' records wait in private/state's journal): an alternating fog
// game as it was played before 2026-11-27.
type legacyFog struct{ hexdice.PlatformGame }

func (g legacyFog) Run(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	env.Seal = nil
	ch, err := g.PlatformGame.Run(d, a, env)
	for i, w := range ch.Writes {
		if w.Header != nil {
			h := *w.Header
			h.Secret = false
			ch.Writes[i].Header = &h
		}
	}
	return ch, err
}

// sent is an action sent, and its reply.
type sent struct {
	who       player
	body, out map[string]any
}

// sentAgain sends d again and requires its first reply and no change to
// the game; it returns the game's version.
func sentAgain(t *testing.T, s *stack, g *hexGame, d sent) int64 {
	t.Helper()
	_, version := g.state()
	code, again := s.post(d.who.Token, "HexDice", d.body)
	require.Equal(t, http.StatusOK, code, "%v", again)
	require.Equal(t, d.out, again, "a retried action gets its first reply")
	_, v := g.state()
	require.Equal(t, version, v, "a retry changes nothing")
	return version
}

// endTurnOf ends the turn of g's player whose turn it is.
func endTurnOf(g *hexGame) sent {
	g.s.t.Helper()
	st, _ := g.state()
	p := g.player(st, st.Current)
	out := g.must(p, "endTurn", nil)
	return sent{p, g.sent[len(g.sent)-1].body, out}
}

// actionRecords counts game id's documents in its actions collection: the
// records of single actions, and the batches moved from a journal.
func (s *stack) actionRecords(id string) (perAction, moved int) {
	s.t.Helper()
	docs, err := s.store.FS.Collection("games").Doc(id).Collection("actions").Documents(context.Background()).GetAll()
	require.NoError(s.t, err)
	for _, d := range docs {
		if _, ok := d.Data()["journal"]; ok {
			moved++
		} else {
			perAction++
		}
	}
	return perAction, moved
}

// TestOrdersDrafts: in simultaneous mode (no fog) an orders draft, or a
// submission the other player has not answered, writes the game document
// alone, its orders sealed in it (issue 22: 1 write where it took 3, then
// 2 with the player's orders document as its journal), and reads nothing
// on the instance that keeps the game document warm; its record is kept in
// the game document like any one-document action's. A retry of a draft
// gets its first reply, a reused id with another request is refused; a copy
// another instance made stale costs a run again, never a record; and the
// finished game replays, its sealed drafts opened with its seed.
func TestOrdersDrafts(t *testing.T) {
	t.Parallel()
	s, c := countedStack(t)
	host, guest := s.guest("Oh"), s.guest("Og")
	g := newHexGame(s, host, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Simultaneous}, "orders-journal-seed")
	g.join(guest)
	id := g.id
	draft := map[string]any{"orders": map[string]any{"troops": []any{}, "buys": []any{}}, "submit": false}

	type sent struct {
		body, out map[string]any
	}
	var done []sent
	reads, writes := map[string]int64{}, map[string]int64{}
	for len(done) < store.JournalKeep+3 {
		before := c.Paths()
		out := g.must(host, "orders", draft)
		after := c.Paths()
		done = append(done, sent{g.sent[len(g.sent)-1].body, out})
		if len(done) == 1 {
			continue // the first may read the game document
		}
		addGameDocs(reads, writes, before, after)
	}
	n := int64(len(done) - 1)
	require.Empty(t, reads, "a draft reads nothing: the game document is warm")
	require.Equal(t, map[string]int64{"write games/*": n}, writes, "a draft writes the game document alone")
	perAction, moved := s.actionRecords(id)
	require.Zero(t, perAction, "record documents of single drafts")
	require.Zero(t, moved)

	// The latest draft, sent again: its first reply, nothing applied.
	last := done[len(done)-1]
	_, version := g.state()
	code, again := s.post(host.Token, "HexDice", last.body)
	require.Equal(t, http.StatusOK, code, "%v", again)
	require.Equal(t, last.out, again, "a retried draft gets its first reply")
	_, v := g.state()
	require.Equal(t, version, v, "a retry changes nothing")

	// Another request under its id: refused.
	code, out := s.post(host.Token, "HexDice", map[string]any{"type": "emote", "emote": "gg", "actionId": last.body["actionId"], "gameId": id})
	require.Equal(t, http.StatusConflict, code, "%v", out)
	require.Equal(t, domain.EEXISTS, out["error"].(map[string]any)["code"])

	// Another instance writes a draft: this one's copy is stale. Its next
	// draft fails its commit, runs again on a fresh read and keeps every
	// record; both drafts' retries get their first replies.
	a := s.srv.Store
	b := store.New(a.FS, games.All())
	b.FixedSeeds, b.Now = true, s.clock
	s.srv.Store = b
	onB := g.must(host, "orders", draft)
	onBBody := g.sent[len(g.sent)-1].body
	s.srv.Store = a
	p0 := c.Paths()
	onA := g.must(host, "orders", draft)
	staleReads := map[string]int64{}
	addGameDocs(staleReads, map[string]int64{}, p0, c.Paths())
	require.Equal(t, int64(1), staleReads["read games/*"], "the stale copy was read again")
	for _, d := range []sent{{onBBody, onB}, {g.sent[len(g.sent)-1].body, onA}} {
		code, again := s.post(host.Token, "HexDice", d.body)
		require.Equal(t, http.StatusOK, code, "%v", again)
		require.Equal(t, d.out, again)
	}

	// To the end, and the replay.
	randomPlay(t, s, "HexDice", id, []player{host, guest}, 11, 120)
	perAction, _ = s.actionRecords(id)
	require.Zero(t, perAction, "record documents of single actions, the game over")
	res := replayed(t, s, "HexDice", id, guest)
	require.Equal(t, true, res["verified"], "%v", res["diverged"])
}

// TestFogStateWarm: a fog game's action reads nothing on the instance that
// keeps its game document warm, its whole state sealed in it, and writes no
// document but the game's and its players' views (issue 22: a fog action
// read private/state every time, 1.0 read an action, and wrote it). A game
// from before the seal (legacyFog) keeps private/state, whose instance's
// copy is warm too, each write guarded by its copy's update time. A copy
// another instance made stale costs a run again on fresh reads, never a
// lost record or a second application; the game replays.
func TestFogStateWarm(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacy=%v", legacy), func(t *testing.T) {
			t.Parallel()
			fogStateWarm(t, legacy)
		})
	}
}

func fogStateWarm(t *testing.T, legacy bool) {
	s, c := countedStack(t)
	reg := games.All()
	if legacy {
		reg = legacyFogRegistry()
	}
	instance := func() *store.Store {
		st := store.New(s.store.FS, reg)
		st.FixedSeeds, st.Now = true, s.clock
		return st
	}
	a := instance()
	s.srv.Store, s.store = a, a
	host, guest := s.guest("Wh"), s.guest("Wg")
	g := newHexGame(s, host, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating, Fog: true}, "fog-warm-seed")
	g.join(guest)
	id := g.id

	// endTurn ends the current player's turn; counted, the figures of the
	// action alone (the test's own reads of the game left out).
	endTurn := func(reads, writes map[string]int64) sent {
		t.Helper()
		st, _ := g.state()
		p := g.player(st, st.Current)
		before := c.Paths()
		out := g.must(p, "endTurn", nil)
		addGameDocs(reads, writes, before, c.Paths())
		return sent{p, g.sent[len(g.sent)-1].body, out}
	}
	var done []sent
	reads, writes := map[string]int64{}, map[string]int64{}
	for len(done) < 2 { // the first of the type reads
		done = append(done, endTurn(map[string]int64{}, map[string]int64{}))
	}
	for len(done) < store.JournalKeep+3 {
		done = append(done, endTurn(reads, writes))
	}
	n := int64(len(done) - 2)
	require.Empty(t, reads, "a fog action reads nothing: its documents are warm")
	require.Equal(t, n, writes["write games/*"], "%v", writes)
	if legacy {
		require.Equal(t, n, writes["write games/*/private/state"], "%v", writes)
		require.Equal(t, int64(1), writes["write games/*/actions/*"], "the journal moved once: %v", writes)
	} else {
		for k := range writes {
			require.Contains(t, []string{"write games/*", "write games/*/views/*"}, k, "the game document and views alone: %v", writes)
		}
	}

	// The latest turn, sent again: its first reply.
	version := sentAgain(t, s, g, done[len(done)-1])
	var v int64

	// Another instance ends a turn: this instance's copies are stale. Its
	// next action fails its commit and runs again on fresh reads; every
	// record is kept.
	b := instance()
	s.srv.Store = b
	onB := endTurn(map[string]int64{}, map[string]int64{})
	s.srv.Store = a
	// A preview asked at the version the other instance made, here, where
	// both copies are older: it reads, and answers as a fresh read does.
	st, v := g.state()
	p := g.player(st, st.Current)
	plainPreview := g.must(p, hexdice.ActionPreview, nil)["result"]
	s.srv.Store = b // makes the copies of a stale again: a's refreshed them
	endTurn(map[string]int64{}, map[string]int64{})
	s.srv.Store = a
	st, v = g.state()
	p = g.player(st, st.Current)
	code, asked := g.do(p, hexdice.ActionPreview, map[string]any{"version": v})
	require.Equal(t, http.StatusOK, code, "%v", asked)
	require.NotEqual(t, plainPreview, asked["result"], "the game moved on")
	require.Equal(t, g.must(p, hexdice.ActionPreview, nil)["result"], asked["result"], "asked at the version the copies are not at: a fresh read's answer")
	staleReads := map[string]int64{}
	onA := endTurn(staleReads, map[string]int64{})
	require.Equal(t, int64(1), staleReads["read games/*"], "%v", staleReads)
	if legacy {
		require.Equal(t, int64(1), staleReads["read games/*/private/state"], "%v", staleReads)
	} else {
		require.Len(t, staleReads, 1, "%v", staleReads)
	}
	for _, d := range []sent{onB, onA} {
		code, again := s.post(d.who.Token, "HexDice", d.body)
		require.Equal(t, http.StatusOK, code, "%v", again)
		require.Equal(t, d.out, again)
	}
	_, v = g.state()
	require.Equal(t, version+3, v, "three turns ended, each once")

	code, out := s.post(host.Token, "HexDice", map[string]any{"type": "surrender", "actionId": "s", "gameId": id})
	require.Equal(t, http.StatusOK, code, "%v", out)
	res := replayed(t, s, "HexDice", id, guest)
	require.Equal(t, true, res["verified"], "%v", res["diverged"])
}

// TestFogActionsAreSecret: every action of a fog game keeps a keyed retry
// fingerprint in the game document, which the opponent reads (a fog move's
// payload says where a troop went: with the plain hash the opponent could
// test every move a troop could have made against it). The game document
// says so from its create on, and still after the game ends, so a retry of
// the action that ended it (when the state stopped hiding) gets its reply.
// A game without fog keeps plain fingerprints (TestHexDiceSimultaneousOrders).
func TestFogActionsAreSecret(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	host, guest := s.guest("Sh"), s.guest("Sg")
	g := newHexGame(s, host, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating, Fog: true}, "fog-secret-seed")
	g.join(guest)
	gameText := func() (map[string]any, string) {
		t.Helper()
		snap, err := s.store.FS.Doc("games/" + g.id).Get(context.Background())
		require.NoError(t, err)
		b, err := json.Marshal(snap.Data())
		require.NoError(t, err)
		return snap.Data(), string(b)
	}
	doc, _ := gameText()
	require.Equal(t, true, doc["secretActs"], "the create says the game's actions are secrets")

	// A buy of the player whose turn it is (where a troop is placed is
	// hidden from the opponent).
	st, _ := g.state()
	p := g.player(st, st.Current)
	moves := g.must(p, "legal", nil)["result"].(map[string]any)["moves"].([]any)
	var move map[string]any
	for _, m := range moves {
		if mv := m.(map[string]any); mv["type"] == "buy" {
			move = mv
			break
		}
	}
	require.NotNil(t, move, "a buy among %v", moves)
	out := g.must(p, "buy", move["payload"].(map[string]any))
	body := g.sent[len(g.sent)-1].body
	_, text := gameText()
	buyID := body["actionId"]
	require.NotContains(t, text, plainHash(p, body), "the buy's fingerprint is keyed")
	code, again := s.post(p.Token, "HexDice", body)
	require.Equal(t, http.StatusOK, code, "%v", again)
	require.Equal(t, out, again, "a retried buy gets its first reply")

	// The game ends (a surrender is allowed from round 5): a retry of the
	// surrender that ended it gets its reply.
	for st, _ = g.state(); st.Round < 5; st, _ = g.state() {
		g.must(g.player(st, st.Current), "endTurn", nil)
	}
	end := g.must(guest, "surrender", nil)
	body = g.sent[len(g.sent)-1].body
	doc, text = gameText()
	require.Equal(t, "over", doc["status"])
	require.Equal(t, true, doc["secretActs"], "kept after the end")
	require.NotContains(t, text, plainHash(guest, body))
	code, again = s.post(guest.Token, "HexDice", body)
	require.Equal(t, http.StatusOK, code, "%v", again)
	require.Equal(t, end, again, "a retried surrender gets its first reply")
	body["actionId"] = buyID
	code, again = s.post(p.Token, "HexDice", body)
	require.Equal(t, http.StatusConflict, code, "another request under the buy's id: %v", again)
	require.Equal(t, domain.EEXISTS, again["error"].(map[string]any)["code"], "%v", again)
}
