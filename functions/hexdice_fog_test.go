package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"
	"google.golang.org/api/option"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/fsemu"
	"github.com/meeple-games/meeple/store/storetest"
)

// The fog leak scanner (issue 26): random fog games played through the HTTP
// function against the emulator, both turn modes, small map. After every
// action it reads, as each player and a spectator may, every document they
// can read (the game document with its log, their own view document, the
// event records and history batches), every reply, and "legal" and
// "preview" answers, and checks with hexdice.FogScan that none names a
// troop, hex or HP the reader could not see then. The same games without
// fog give the documents read and written per action for comparison.

// countedStack is newStack whose store's reads and writes are counted (as
// the load generator counts them: fsemu.Counter).
func countedStack(t *testing.T) (*stack, *fsemu.Counter) {
	s := newStack(t)
	c := &fsemu.Counter{}
	conn, err := c.Dial(storetest.EmulatorHost())
	require.NoError(t, err)
	fs, err := firestore.NewClient(context.Background(), projectOf(s), option.WithGRPCConn(conn))
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close(); conn.Close() })
	st := store.New(fs, games.All())
	st.FixedSeeds, st.Now = true, s.clock
	s.store, s.srv.Store = st, st
	return s, c
}

// actionCost sums what actions of one type cost.
type actionCost struct {
	n, reads, writes int64
	dur              time.Duration
}

// fogScanStats are the scanner's figures.
type fogScanStats struct {
	games, actions, docs, events, replies int
	maxView, maxState, maxGame            int // bytes (JSON) of the largest view, private/state and game document seen
	leaks                                 []string
	cost                                  map[string]*actionCost
}

// fogPlay is one game being played and scanned.
type fogPlay struct {
	t       *testing.T
	s       *stack
	c       *fsemu.Counter
	fs      *firestore.Client // reads as the scanner (not counted)
	g       *hexGame
	fog     bool
	players [2]player
	spect   player
	m       *hexdice.Map
	owners  map[int]hexdice.Seat
	scanned map[string]time.Time // public documents scanned, by path: their update time
	lastSeq map[string]int64     // view events scanned, by player id
	keys    map[string]string    // the players' view keys (viewKey), by game and player id
	rng     *rand.Rand
	stats   *fogScanStats
}

func (p *fogPlay) docJSON(path string) (map[string]any, time.Time, bool) {
	snap, err := p.fs.Doc(path).Get(context.Background())
	if err != nil {
		return nil, time.Time{}, false
	}
	data, err := store.Unpacked(snap.Data()) // the game's state is packed
	require.NoError(p.t, err)
	return data, snap.UpdateTime, true
}

// hiddenDoc is the whole state as the server keeps it while the fog hides:
// sealed in the game document gd (opened with the game's seed, which the
// test chose), or in private/state (a game from before the seal);
// size is its stored size (the sealed text's, or private/state's JSON).
func (p *fogPlay) hiddenDoc(gd map[string]any) (doc map[string]any, size int, ok bool) {
	p.t.Helper()
	if sealed, _ := gd["sealed"].(string); sealed != "" {
		hd, err := domain.OpenHidden[json.RawMessage](domain.NewSeededSealer(p.g.seed), sealed)
		require.NoError(p.t, err)
		return map[string]any{"version": hd.Version, "state": hd.State}, len(sealed), true
	}
	doc, _, ok = p.docJSON("games/" + p.g.id + "/private/state")
	b, _ := json.Marshal(doc)
	return doc, len(b), ok
}

// full is the whole state: sealed in the game document (or private/state)
// while the fog hides, else the game document's.
func (p *fogPlay) full() hexdice.Game {
	p.t.Helper()
	var st hexdice.Game
	gd, _, _ := p.docJSON("games/" + p.g.id)
	doc, _, ok := p.hiddenDoc(gd)
	if gd != nil {
		gd["log"] = logSteps(gd["log"]) // scanned as steps, not as the string it is stored as
	}
	raw, _ := json.Marshal(gd["state"])
	require.NoError(p.t, json.Unmarshal(raw, &st))
	if ok && st.Phase != hexdice.PhaseOver {
		if v, _ := doc["version"].(int64); v == gd["version"].(int64) {
			raw, _ := json.Marshal(doc["state"])
			st = hexdice.Game{}
			require.NoError(p.t, json.Unmarshal(raw, &st))
		}
	}
	return st
}

func (p *fogPlay) scan(seat hexdice.Seat, before, after hexdice.Game, what string, v any) {
	if !p.fog {
		return
	}
	raw, err := json.Marshal(v)
	require.NoError(p.t, err)
	f := &hexdice.FogScan{Seat: seat, Before: before, After: after, Map: p.m, Owners: p.owners}
	for _, l := range f.Leaks(raw) {
		p.stats.leaks = append(p.stats.leaks, fmt.Sprintf("game %s seat %d %s: %s", p.g.id, seat, what, l))
	}
}

// check scans everything readable after an action that took before to after.
func (p *fogPlay) check(before, after hexdice.Game) {
	gd, _, _ := p.docJSON("games/" + p.g.id)
	if b, _ := json.Marshal(gd); len(b) > p.stats.maxGame {
		p.stats.maxGame = len(b)
	}
	if !p.fog {
		return
	}
	ctx := context.Background()
	// Public: the game document (its log) and the event log, as a reader
	// who sees nothing (anyone may read them).
	p.scan(hexdice.Neutral, before, after, "game document", gd)
	p.stats.docs++
	if _, size, ok := p.hiddenDoc(gd); ok && size > p.stats.maxState {
		p.stats.maxState = size
	}
	if lg := logSteps(gd["log"]); lg != nil {
		for _, s := range lg {
			sm := s.(map[string]any)
			if seq := int64(sm["seq"].(float64)); seq > p.lastSeq["log"] {
				p.lastSeq["log"] = seq
				evs, _ := sm["events"].([]any)
				p.stats.events += len(evs)
			}
		}
	}
	snaps, err := p.fs.Collection("games/" + p.g.id + "/events").Documents(ctx).GetAll()
	require.NoError(p.t, err)
	for _, sn := range snaps {
		if at, ok := p.scanned[sn.Ref.Path]; ok && at.Equal(sn.UpdateTime) {
			continue
		}
		p.scanned[sn.Ref.Path] = sn.UpdateTime
		p.scan(hexdice.Neutral, before, after, "event "+sn.Ref.ID, sn.Data())
		p.stats.docs++
		if evs, ok := sn.Data()["events"].([]any); ok {
			p.stats.events += len(evs)
		}
	}
	// Each player's view: the view as of now, the steps added since the
	// last look as of this action.
	for seat, pl := range p.players {
		doc, size, ok := p.viewDoc(gd, seat)
		if !ok {
			continue
		}
		p.stats.docs++
		if size > p.stats.maxView {
			p.stats.maxView = size
		}
		p.scan(hexdice.Seat(seat), before, after, "view", doc.View)
		for _, st := range doc.Events {
			if st.Seq <= p.lastSeq[pl.ID] {
				continue
			}
			p.lastSeq[pl.ID] = st.Seq
			p.stats.events += len(st.Events)
			p.scan(hexdice.Seat(seat), before, after, fmt.Sprintf("view step %d", st.Seq), st)
		}
	}
}

// viewDoc is the view of the player in seat as their client reads it: sealed
// in the game document gd, opened with the key viewKey gives them (which
// must not open the other player's), or the view document of a game that
// keeps them (a game from before the views were sealed). size is what it takes
// stored.
func (p *fogPlay) viewDoc(gd map[string]any, seat int) (domain.ViewDoc, int, bool) {
	p.t.Helper()
	pl, other := p.players[seat], p.players[1-seat]
	var v domain.ViewDoc
	if views, ok := gd["views"].(map[string]any); ok {
		text, ok := views[pl.ID].(string)
		if !ok {
			return v, 0, false
		}
		v, ok = openView(p.t, p.viewKey(pl), domain.ViewLabel(pl.ID), text)
		require.True(p.t, ok, "%s's key opens their view", pl.Name)
		if o, ok := views[other.ID].(string); ok {
			_, opened := openView(p.t, p.viewKey(pl), domain.ViewLabel(other.ID), o)
			require.False(p.t, opened, "%s's key opens the other player's view", pl.Name)
		}
		return v, len(text), true
	}
	doc, _, ok := p.docJSON("games/" + p.g.id + "/views/" + pl.ID)
	if !ok {
		return v, 0, false
	}
	b, err := json.Marshal(doc)
	require.NoError(p.t, err)
	require.NoError(p.t, json.Unmarshal(b, &v))
	return v, len(b), true
}

// viewKey is the key player pl's client gets to open their view of the game
// (action viewKey), asked once a game.
func (p *fogPlay) viewKey(pl player) string {
	p.t.Helper()
	k := p.g.id + "/" + pl.ID
	if key, ok := p.keys[k]; ok {
		return key
	}
	code, out := p.s.post(pl.Token, "HexDice", map[string]any{"gameId": p.g.id, "actionId": "key-" + pl.ID, "type": domain.ActionViewKey})
	require.Equal(p.t, http.StatusOK, code, "%v", out)
	p.scan(hexdice.Neutral, p.full(), p.full(), "viewKey reply", out)
	p.keys[k] = out["result"].(map[string]any)["key"].(string)
	return p.keys[k]
}

// act sends an action (counted) and scans its reply for who sent it.
func (p *fogPlay) act(who player, seat hexdice.Seat, typ string, extra map[string]any) (int, map[string]any) {
	before := p.full()
	r0, w0 := p.c.Counts()
	start := time.Now()
	code, out := p.g.do(who, typ, extra)
	d := time.Since(start)
	r1, w1 := p.c.Counts()
	if code == http.StatusOK {
		k := typ
		if typ == hexdice.ActionOrders {
			if extra["submit"] == true {
				k = "orders(submit)"
			}
		}
		c := p.stats.cost[k]
		if c == nil {
			c = &actionCost{}
			p.stats.cost[k] = c
		}
		c.n, c.reads, c.writes, c.dur = c.n+1, c.reads+r1-r0, c.writes+w1-w0, c.dur+d
	}
	after := p.full()
	for _, t := range after.Troops {
		p.owners[t.ID] = t.Owner
	}
	p.stats.replies++
	p.stats.actions++
	// The reply's result is the caller's; its events are the public ones.
	p.scan(seat, before, after, typ+" reply", out["result"])
	p.scan(seat, before, after, typ+" reply error", out["error"])
	p.scan(hexdice.Neutral, before, after, typ+" reply events", out["events"])
	p.check(before, after)
	return code, out
}

// peek asks legal and preview (of a random troop id) for every reader.
func (p *fogPlay) peek(st hexdice.Game) {
	readers := []struct {
		pl   player
		seat hexdice.Seat
	}{{p.players[0], 0}, {p.players[1], 1}, {p.spect, hexdice.Neutral}}
	for _, r := range readers {
		_, out := p.act(r.pl, r.seat, "legal", nil)
		p.scan(r.seat, st, st, "legal", out)
		if st.NextTroop > 1 {
			_, out = p.act(r.pl, r.seat, hexdice.ActionPreview, map[string]any{"troop": 1 + p.rng.IntN(st.NextTroop-1)})
			p.scan(r.seat, st, st, "preview", out)
		}
	}
}

func (p *fogPlay) legal(pl player) []map[string]any {
	code, out := p.g.do(pl, "legal", nil)
	require.Equal(p.t, http.StatusOK, code, "%v", out)
	var moves []map[string]any
	for _, m := range out["result"].(map[string]any)["moves"].([]any) {
		moves = append(moves, m.(map[string]any))
	}
	return moves
}

// playAlternating plays a random legal move of whoever's turn it is.
func (p *fogPlay) playAlternating(st hexdice.Game) {
	seat := st.Current
	pl := p.players[seat]
	moves := p.legal(pl)
	var pick map[string]any
	for tries := 0; tries < 4 && pick == nil; tries++ {
		m := moves[p.rng.IntN(len(moves))]
		if m["type"] == hexdice.ActionSurrender || (m["type"] == hexdice.ActionEndTurn && p.rng.IntN(4) > 0) {
			continue
		}
		pick = m
	}
	if pick == nil {
		pick = map[string]any{"type": hexdice.ActionEndTurn}
	}
	extra, _ := pick["payload"].(map[string]any)
	code, out := p.act(pl, seat, pick["type"].(string), extra)
	require.Equal(p.t, http.StatusOK, code, "a listed move is accepted: %v %v", pick, out)
}

// playSimultaneous has each player submit random orders made of what legal
// lists (empty orders when they clash).
func (p *fogPlay) playSimultaneous(st hexdice.Game) {
	for seat, pl := range p.players {
		if st.Players[seat].Submitted {
			continue
		}
		byTroop := map[any][]any{}
		var buys []any
		for _, m := range p.legal(pl) {
			pl, _ := m["payload"].(map[string]any)
			o, _ := pl["orders"].(map[string]any)
			for _, t := range asList(o["troops"]) {
				id := t.(map[string]any)["troop"]
				byTroop[id] = append(byTroop[id], t)
			}
			buys = append(buys, asList(o["buys"])...)
		}
		orders := map[string]any{}
		var troops []any
		ids := make([]string, 0, len(byTroop))
		keyed := map[string]any{}
		for id := range byTroop {
			k := fmt.Sprint(id)
			ids = append(ids, k)
			keyed[k] = id
		}
		sort.Strings(ids)
		for _, k := range ids {
			if opts := byTroop[keyed[k]]; p.rng.IntN(10) < 7 {
				troops = append(troops, opts[p.rng.IntN(len(opts))])
			}
		}
		orders["troops"] = troops
		if len(buys) > 0 && p.rng.IntN(2) == 0 {
			orders["buys"] = []any{buys[p.rng.IntN(len(buys))]}
		}
		code, _ := p.act(pl, hexdice.Seat(seat), hexdice.ActionOrders, map[string]any{"orders": orders, "submit": true})
		if code != http.StatusOK {
			code, out := p.act(pl, hexdice.Seat(seat), hexdice.ActionOrders, map[string]any{"orders": map[string]any{}, "submit": true})
			require.Equal(p.t, http.StatusOK, code, "%v", out)
		}
		st = p.full()
		if st.Phase != hexdice.PhasePlaying {
			return
		}
	}
}

// newFogGame is newHexGame with a chosen create actionId (one host makes
// several games).
func newFogGame(s *stack, host player, req hexdice.CreateRequest, seed, actionID string) *hexGame {
	s.t.Helper()
	body := map[string]any{"actionId": actionID, "type": "create", "seed": seed}
	raw, _ := json.Marshal(req)
	require.NoError(s.t, json.Unmarshal(raw, &body))
	created := s.clock()
	code, out := s.post(host.Token, "HexDice", body)
	require.Equal(s.t, http.StatusOK, code, "create: %v", out)
	res := out["result"].(map[string]any)
	return &hexGame{s: s, id: res["gameId"].(string), code: res["roomCode"].(string), seed: seed, created: created, host: host, body: body,
		opts:    hexdice.Options{Size: req.Size, TurnSeconds: req.TurnSeconds, Mode: req.Mode, MapSeed: req.MapSeed, Fog: req.Fog},
		players: map[string]player{host.ID: host}}
}

// fogGuest signs a guest in, sending the request again while the emulator
// answers 503 (the machine is shared; the Auth reply says to retry).
func fogGuest(s *stack, name string) player {
	s.t.Helper()
	for i := 0; ; i++ {
		code, out := s.post("", "Auth", map[string]any{"type": "guest", "nickname": name})
		if code == http.StatusServiceUnavailable && i < 5 {
			time.Sleep(time.Second)
			continue
		}
		require.Equal(s.t, http.StatusOK, code, "guest sign-in: %v", out)
		p := out["player"].(map[string]any)
		return player{ID: p["id"].(string), Name: p["name"].(string), Token: out["token"].(string)}
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }

// playFogGame plays one game with random moves for up to steps actions,
// then ends it by surrender and has both players ask for a rematch.
func playFogGame(t *testing.T, s *stack, c *fsemu.Counter, stats *fogScanStats, mode hexdice.TurnMode, fog bool, seed string, steps int, who [3]player) {
	alice, bob, carol := who[0], who[1], who[2]
	g := newFogGame(s, alice, hexdice.CreateRequest{Size: hexdice.Small, TurnSeconds: 120, Mode: mode, MapSeed: seed, Fog: fog}, "seed-"+seed, fmt.Sprintf("create-%s-%v", seed, fog))
	p := &fogPlay{t: t, s: s, c: c, fs: storetest.ClientFor(t, projectOf(s)), g: g, fog: fog, players: [2]player{alice, bob}, spect: carol,
		owners: map[int]hexdice.Seat{}, scanned: map[string]time.Time{}, lastSeq: map[string]int64{}, keys: map[string]string{},
		rng: rand.New(rand.NewPCG(uint64(len(seed)), 26)), stats: stats}
	st := p.full()
	m, err := hexdice.Rules{}.MapOf(st)
	require.NoError(t, err)
	p.m = m
	p.check(st, st)
	code, out := p.act(bob, 1, "join", nil)
	require.Equal(t, http.StatusOK, code, "%v", out)
	g.players[bob.ID] = bob
	stats.games++
	// A retried action (same actionId) gets its first reply and changes
	// nothing, though a fog action keeps its reply in a server-only record.
	retry := map[string]any{"gameId": g.id, "actionId": "retry-" + seed, "type": hexdice.ActionEmote, "emote": "hello"}
	code1, out1 := s.post(alice.Token, "HexDice", retry)
	require.Equal(t, http.StatusOK, code1, "%v", out1)
	v1 := p.full()
	code2, out2 := s.post(alice.Token, "HexDice", retry)
	require.Equal(t, http.StatusOK, code2, "%v", out2)
	require.Equal(t, out1["version"], out2["version"], "the retry gets the first reply")
	require.Equal(t, v1, p.full(), "the retry changed nothing")
	for i := 0; i < steps; i++ {
		st = p.full()
		if st.Phase != hexdice.PhasePlaying {
			break
		}
		if i%10 == 0 {
			p.peek(st)
		}
		if mode == hexdice.Alternating {
			p.playAlternating(st)
		} else {
			p.playSimultaneous(st)
		}
	}
	st = p.full()
	for st.Phase == hexdice.PhasePlaying && st.Round < st.Config.SurrenderRound {
		if mode == hexdice.Alternating {
			p.act(p.players[st.Current], st.Current, hexdice.ActionEndTurn, nil)
		} else {
			for seat, pl := range p.players {
				if !p.full().Players[seat].Submitted && p.full().Phase == hexdice.PhasePlaying {
					p.act(pl, hexdice.Seat(seat), hexdice.ActionOrders, map[string]any{"orders": map[string]any{}, "submit": true})
				}
			}
		}
		st = p.full()
	}
	if st.Phase == hexdice.PhasePlaying {
		code, out := p.act(bob, 1, hexdice.ActionSurrender, nil)
		require.Equal(t, http.StatusOK, code, "%v", out)
	}
	final := p.full()
	require.Equal(t, hexdice.PhaseOver, final.Phase)
	// Each player's ledger holds this game once, fog or not.
	for _, pl := range p.players {
		ledger, err := s.store.PlayerResults(context.Background(), pl.ID, 100)
		require.NoError(t, err)
		n := 0
		for _, r := range ledger {
			if r.GameID == g.id {
				n++
				require.Equal(t, hexdice.Kind, r.Kind)
			}
		}
		require.Equal(t, 1, n, "%s's ledger entries for game %s", pl.ID, g.id)
	}
	if fog {
		// Over: the game document shows the whole final board.
		gd, _, _ := p.docJSON("games/" + g.id)
		require.NotEmpty(t, gd["state"].(map[string]any)["structures"])
	}
	// Rematch: both ask; the new game has the same options and the other
	// player first, and the two name each other.
	code, out = p.act(alice, 0, hexdice.ActionRematch, nil)
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.Equal(t, true, out["result"].(map[string]any)["waiting"])
	code, out = p.act(bob, 1, hexdice.ActionRematch, nil)
	require.Equal(t, http.StatusOK, code, "%v", out)
	next := out["result"].(map[string]any)["rematchId"].(string)
	require.Equal(t, hexdice.RematchID(g.id), next)
	require.Equal(t, next, p.full().RematchID)
	var ng hexdice.Game
	_, err = s.store.GameState(context.Background(), next, &ng)
	require.NoError(t, err)
	require.Equal(t, g.id, ng.RematchOf)
	require.Equal(t, fog, ng.Fog)
	require.Equal(t, mode, ng.Mode)
	require.Equal(t, final.MapSeed, ng.MapSeed)
	require.Equal(t, hexdice.PhasePlaying, ng.Phase)
	if !fog {
		gd, _, _ := p.docJSON("games/" + next)
		require.NotContains(t, gd, "secretActs", "a game without fog keeps plain fingerprints")
	}
	if mode == hexdice.Alternating {
		require.Equal(t, final.First.Other(), ng.First, "the other player first")
	}
	if fog {
		// The rematch is hidden from its first version: its game document
		// holds no troop, and its whole state and each player's view are
		// sealed in it under the rematch's own keys (the store seals the
		// spawn with the seed it makes: domain.SealSpawn).
		gd, _, _ := p.docJSON("games/" + next)
		require.Empty(t, gd["state"].(map[string]any)["troops"], "a fog rematch's game document is public from the start")
		require.Equal(t, true, gd["secretActs"], "a fog rematch's actions are secrets from its create")
		sealed, _ := gd["sealed"].(string)
		require.True(t, domain.IsSealed(sealed), "the rematch's whole state sealed in its game document from the start")
		_, err := domain.NewSeededSealer(p.g.seed).Open(domain.HiddenLabel, sealed)
		require.Error(t, err, "under the rematch's own key, not its first game's")
		_, _, ok := p.docJSON("games/" + next + "/private/state")
		require.False(t, ok, "no private/state")
		views, _ := gd["views"].(map[string]any)
		for _, pl := range p.players {
			_, _, ok := p.docJSON("games/" + next + "/views/" + pl.ID)
			require.False(t, ok, "no view document")
			code, out := s.post(pl.Token, "HexDice", map[string]any{"gameId": next, "actionId": "rematch-key", "type": domain.ActionViewKey})
			require.Equal(t, http.StatusOK, code, "%v", out)
			text, _ := views[pl.ID].(string)
			v, ok := openView(t, out["result"].(map[string]any)["key"].(string), domain.ViewLabel(pl.ID), text)
			require.True(t, ok, "%s opens their view of the rematch", pl.Name)
			require.Equal(t, int64(0), v.Version)
		}
		if mode == hexdice.Alternating {
			// Its first action (its first player's end of turn) plays on the
			// sealed state, and keeps its reply sealed.
			first := p.players[ng.First]
			code, out := s.post(first.Token, "HexDice", map[string]any{"gameId": next, "actionId": "rematch-1", "type": "endTurn"})
			require.Equal(t, http.StatusOK, code, "%v", out)
			gd, _, _ = p.docJSON("games/" + next)
			require.True(t, domain.IsSealed(gd["sealed"].(string)), "the rematch's state still sealed")
			var acts []map[string]any
			require.NoError(t, json.Unmarshal([]byte(gd["acts"].(string)), &acts))
			for _, e := range acts {
				if r, ok := e["r"].(string); ok {
					require.True(t, domain.IsSealed(r), "a rematch's reply kept for a retry is sealed: %s", r)
				}
			}
		}
	}
}

// TestHexDiceFogLeakScan is the leak scanner. Its figures go to the test
// log (go test -v -run FogLeakScan ./functions/). The test suite scans a fog
// game of each turn mode (about a minute and a half of CI's time, where
// the scan of every readable document after every action is most of it);
// MEEPLE_FOG_SCAN=full scans four and plays two games without fog for the
// cost comparison of fog on and off (the closing note's figures).
func TestHexDiceFogLeakScan(t *testing.T) {
	t.Parallel()
	s, c := countedStack(t)
	fogStats := &fogScanStats{cost: map[string]*actionCost{}}
	plainStats := &fogScanStats{cost: map[string]*actionCost{}}
	who := [3]player{fogGuest(s, "Alice"), fogGuest(s, "Bob"), fogGuest(s, "Carol")}
	modes := []hexdice.TurnMode{hexdice.Alternating, hexdice.Simultaneous}
	full := os.Getenv("MEEPLE_FOG_SCAN") == "full"
	if full {
		modes = append(modes, hexdice.Alternating, hexdice.Simultaneous)
	}
	for i, mode := range modes {
		seed := fmt.Sprintf("fog%d", i)
		t.Run(fmt.Sprintf("%s-%d", mode, i), func(t *testing.T) {
			playFogGame(t, s, c, fogStats, mode, true, seed, 40, who)
			if full && i < 2 {
				playFogGame(t, s, c, plainStats, mode, false, seed, 40, who)
			}
		})
	}
	t.Logf("leak scan: %d fog games, %d actions, %d replies, %d documents, %d events scanned; %d leaks",
		fogStats.games, fogStats.actions, fogStats.replies, fogStats.docs, fogStats.events, len(fogStats.leaks))
	t.Logf("largest (small map): view document %d B, the whole state %d B (sealed in the game document: its text), game document %d B (no fog: %d B)",
		fogStats.maxView, fogStats.maxState, fogStats.maxGame, plainStats.maxGame)
	keys := []string{}
	for k := range fogStats.cost {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-16s %22s %22s\n", "action", "fog reads/writes/ms", "no fog reads/writes/ms")
	for _, k := range keys {
		f, n := fogStats.cost[k], plainStats.cost[k]
		line := fmt.Sprintf("%-16s %8.2f %6.2f %6.1f", k, float64(f.reads)/float64(f.n), float64(f.writes)/float64(f.n), float64(f.dur.Milliseconds())/float64(f.n))
		if n != nil && n.n > 0 {
			line += fmt.Sprintf("   %8.2f %6.2f %6.1f", float64(n.reads)/float64(n.n), float64(n.writes)/float64(n.n), float64(n.dur.Milliseconds())/float64(n.n))
		}
		fmt.Fprintf(&b, "%s  (n=%d)\n", line, f.n)
	}
	t.Log(b.String())
	require.Positive(t, fogStats.events)
	require.Empty(t, fogStats.leaks, "fog leaks")
}
