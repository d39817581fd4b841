package functions_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/storetest"
)

// hexGame drives one Hex & Dice game through the HTTP function and keeps
// the actions that made a version, to replay them through the pure rules.
type hexGame struct {
	s       *stack
	id      string
	code    string
	seed    string
	created time.Time
	opts    hexdice.Options
	host    player
	body    map[string]any // the create request
	players map[string]player
	sent    []sentAction
	n       int
}

// newHexGame has host create a room with opts and a fixed seed (the room
// code comes back with it); nobody has joined yet.
func newHexGame(s *stack, host player, req hexdice.CreateRequest, seed string) *hexGame {
	s.t.Helper()
	body := map[string]any{"actionId": "create-1", "type": "create", "seed": seed}
	raw, _ := json.Marshal(req)
	require.NoError(s.t, json.Unmarshal(raw, &body))
	created := s.clock()
	code, out := s.post(host.Token, "HexDice", body)
	require.Equal(s.t, http.StatusOK, code, "create: %v", out)
	res := out["result"].(map[string]any)
	require.Equal(s.t, domain.SeedHash(seed), res["seedHash"])
	require.NotEmpty(s.t, res["roomCode"], "every room has a room code")
	return &hexGame{s: s, id: res["gameId"].(string), code: res["roomCode"].(string), seed: seed, created: created, host: host, body: body,
		opts:    hexdice.Options{Size: req.Size, TurnSeconds: req.TurnSeconds, Mode: req.Mode, MapSeed: req.MapSeed, Private: req.Private},
		players: map[string]player{host.ID: host}}
}

// sealedOrders opens the orders player id has sealed in st (the test knows
// the game's seed, as only the server does in play).
func (g *hexGame) sealedOrders(st hexdice.Game, id string) (hexdice.Orders, bool) {
	g.s.t.Helper()
	seat := st.SeatOf(id)
	if seat < 0 || st.Players[seat].SealedOrders == "" {
		return hexdice.Orders{}, false
	}
	plain, err := domain.NewSeededSealer(g.seed).Open(id, st.Players[seat].SealedOrders)
	require.NoError(g.s.t, err)
	var o hexdice.Orders
	require.NoError(g.s.t, json.Unmarshal(plain, &o))
	return o, true
}

func (g *hexGame) do(p player, typ string, extra map[string]any) (int, map[string]any) {
	g.s.t.Helper()
	g.n++
	body := map[string]any{"gameId": g.id, "actionId": fmt.Sprintf("a%d", g.n), "type": typ}
	for k, v := range extra {
		body[k] = v
	}
	at := g.s.clock()
	code, out := g.s.post(p.Token, "HexDice", body)
	if code == http.StatusOK && typ != "legal" && typ != hexdice.ActionPreview {
		g.sent = append(g.sent, sentAction{actor: actorOf(p), typ: typ, body: body, at: at})
	}
	return code, out
}

func (g *hexGame) must(p player, typ string, extra map[string]any) map[string]any {
	g.s.t.Helper()
	code, out := g.do(p, typ, extra)
	require.Equal(g.s.t, http.StatusOK, code, "%s by %s: %v", typ, p.Name, out)
	return out
}

// join seats p with the room code, as a friend who was sent it would.
func (g *hexGame) join(p player) {
	g.s.t.Helper()
	at := g.s.clock()
	code, out := g.s.post(p.Token, "HexDice", map[string]any{"actionId": "join-1", "type": "join", "roomCode": strings.ToLower(g.code)})
	require.Equal(g.s.t, http.StatusOK, code, "join by room code: %v", out)
	g.players[p.ID] = p
	g.sent = append(g.sent, sentAction{actor: actorOf(p), typ: "join", body: map[string]any{"type": "join"}, at: at})
}

func (g *hexGame) state() (hexdice.Game, int64) {
	g.s.t.Helper()
	var st hexdice.Game
	v, err := g.s.store.GameState(context.Background(), g.id, &st)
	require.NoError(g.s.t, err)
	return st, v
}

// player returns the player in seat.
func (g *hexGame) player(st hexdice.Game, seat hexdice.Seat) player {
	return g.players[st.Players[seat].ID]
}

// replay applies the actions sent to the pure rules with the documented dice
// derivation (version n rolls NewSeededDice(seed, n)) and returns the state.
func (g *hexGame) replay(t *testing.T) hexdice.Game {
	t.Helper()
	rules := hexdice.Rules{}
	st, err := rules.NewGame(g.id, actorOf(g.host), g.opts, g.created)
	require.NoError(t, err)
	for i, a := range g.sent {
		payload, _ := json.Marshal(a.body)
		st, _, err = rules.Apply(st, domain.Action{ID: fmt.Sprint(i), Type: a.typ, Actor: a.actor, Payload: payload},
			domain.Env{Now: a.at, Dice: domain.NewSeededDice(g.seed, int64(i+1))})
		require.NoError(t, err, "replaying action %d (%s)", i+1, a.typ)
	}
	return st
}

// moveTypes lists the types of the moves "legal" returns.
func moveTypes(out map[string]any) map[string]bool {
	types := map[string]bool{}
	for _, m := range out["result"].(map[string]any)["moves"].([]any) {
		types[m.(map[string]any)["type"].(string)] = true
	}
	return types
}

// TestHexDiceGamePlayedToAWin: a private room joined with its code, played
// through the function by a scripted player against one who only ends its
// turns, to a win: the result, the gameOver record, the revealed seed, the
// map document, and a replay of every action that gives the same state.
func TestHexDiceGamePlayedToAWin(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob, carol := s.guest("Alice"), s.guest("Bob"), s.guest("Carol")
	g := newHexGame(s, alice, hexdice.CreateRequest{Size: hexdice.Small, TurnSeconds: 120, Mode: hexdice.Alternating, Private: true, MapSeed: "m1"}, "hex-seed-win")

	code, out := s.post(carol.Token, "HexDice", map[string]any{"gameId": g.id, "actionId": "j", "type": "join"})
	require.Equal(t, http.StatusForbidden, code, "a private room is joined with its code only: %v", out)
	g.join(bob)
	code, out = s.post(carol.Token, "HexDice", map[string]any{"actionId": "j2", "type": "join", "roomCode": g.code})
	require.Equal(t, http.StatusConflict, code, "the room is full: %v", out)

	doc, err := s.store.GameDoc(context.Background(), g.id)
	require.NoError(t, err)
	require.Equal(t, true, doc["private"])
	require.Nil(t, doc["roomCode"], "the code is not in the public game document")

	// The map document is the map the rules regenerate.
	st, _ := g.state()
	m, err := hexdice.Rules{}.MapOf(st)
	require.NoError(t, err)
	snap, err := s.store.FS.Doc("games/" + g.id + "/public/map").Get(context.Background())
	require.NoError(t, err)
	var mj hexdice.MapJSON
	require.NoError(t, store.DecodeDoc(snap.Data(), &mj), "the map's hexes and sites are packed")
	require.Equal(t, m.JSON(), mj)

	scripts := map[string]hexdice.Autoplay{alice.ID: {}, bob.ID: {Passive: true}}
	previewed, checked := false, 0
	for i := 0; ; i++ {
		require.Less(t, i, 1000, "the game did not end")
		st, v := g.state()
		if st.Phase == hexdice.PhaseOver {
			break
		}
		p := g.player(st, st.Current)
		mv, ok := scripts[p.ID].Next(st, m, actorOf(p))
		require.True(t, ok)
		if i%10 == 0 {
			// What the script does is what "legal" offers.
			require.True(t, moveTypes(g.must(p, "legal", nil))[mv.Type], "%s is legal", mv.Type)
			checked++
		}
		if mv.Type == hexdice.ActionMove && !previewed {
			pv := g.must(p, hexdice.ActionPreview, map[string]any{"troop": mv.Payload["troop"]})["result"].(map[string]any)
			tp := pv["troop"].(map[string]any)
			require.Equal(t, true, tp["canMove"])
			var hexes []string
			for _, r := range tp["reachable"].([]any) {
				hexes = append(hexes, fmt.Sprint(r.(map[string]any)["q"], ",", r.(map[string]any)["r"]))
			}
			require.Contains(t, hexes, fmt.Sprint(mv.Payload["q"], ",", mv.Payload["r"]), "the move is among the previewed hexes")
			previewed = true
		}
		extra := map[string]any{"version": v}
		for k, x := range mv.Payload {
			extra[k] = x
		}
		g.must(p, mv.Type, extra)
	}
	require.True(t, previewed)
	require.Positive(t, checked)

	final, _ := g.state()
	require.NotNil(t, final.Result)
	require.Equal(t, hexdice.Seat(0), final.Result.Winner, "alice wins: %+v", final.Result)
	require.Contains(t, []string{hexdice.ReasonDominance, hexdice.ReasonHQ}, final.Result.Reason)
	require.Len(t, final.Result.Players, 2, "the end-of-game summary")
	require.Equal(t, final.Result.Players[0].TurnsPlayed, final.Players[0].Turns)

	doc, err = s.store.GameDoc(context.Background(), g.id)
	require.NoError(t, err)
	require.Equal(t, "over", doc["status"])
	require.Equal(t, g.seed, doc["seed"], "the seed is revealed at the end")
	require.Nil(t, doc["deadlineAt"])

	events, err := s.store.Events(context.Background(), g.id)
	require.NoError(t, err)
	require.Len(t, events, len(g.sent), "one record per action that made a version")
	last := events[len(events)-1]
	require.False(t, last.Pending, "the gameOver record: its stats were written with it")
	over := last.Events[len(last.Events)-1]
	require.Equal(t, domain.EventGameOver, over.Type)
	b, _ := json.Marshal(over.Data)
	var gameOver domain.GameOver
	require.NoError(t, json.Unmarshal(b, &gameOver))
	require.Equal(t, domain.GameOver{Kind: hexdice.Kind, Mode: "alternating", Winners: []string{alice.ID}, Losers: []string{bob.ID},
		Players: []string{alice.ID, bob.ID}, Reason: final.Result.Reason}, gameOver)

	want := g.replay(t)
	gotJSON, _ := json.Marshal(final)
	wantJSON, _ := json.Marshal(want)
	require.JSONEq(t, string(wantJSON), string(gotJSON), "the stored game differs from a replay of the same actions")

	require.Equal(t, map[string]bool{hexdice.ActionRematch: true}, moveTypes(g.must(alice, "legal", nil)), "once over: a rematch, nothing else")
	code, out = g.do(alice, "emote", map[string]any{"emote": "gg"})
	require.Equal(t, http.StatusOK, code, "a GG after the end: %v", out)
}

// TestHexDiceTurnTimeout: an alternating turn that runs out ends as of its
// deadline, whether the tick (store.Advance) or the next request notices it
// first; the next turn's deadline counts from the old deadline.
func TestHexDiceTurnTimeout(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"tick", "request"} {
		t.Run(path, func(t *testing.T) {
			s := newStack(t)
			alice, bob := s.guest("Alice"), s.guest("Bob")
			g := newHexGame(s, alice, hexdice.CreateRequest{Size: hexdice.Small, TurnSeconds: 90, Mode: hexdice.Alternating}, "hex-seed-timeout")
			g.join(bob)
			st, _ := g.state()
			deadline := st.TurnDeadline
			require.Equal(t, s.clock().Add(90*time.Second), deadline)
			first, second := g.player(st, st.Current), g.player(st, st.Current.Other())

			s.advance(50 * time.Second) // both keep their connection
			g.must(first, "heartbeat", nil)
			g.must(second, "heartbeat", nil)
			s.advance(45 * time.Second) // the turn ran out 5 s ago
			var out map[string]any
			if path == "tick" {
				n, err := store.Advance(context.Background(), s.store, hexdice.Kind, g.id)
				require.NoError(t, err)
				require.Equal(t, 1, n, "one step: the timeout")
				events, err := s.store.Events(context.Background(), g.id)
				require.NoError(t, err)
				rec := events[len(events)-1]
				require.Equal(t, domain.ActionExpire, rec.Type)
				require.Equal(t, "system", rec.Actor["id"])
			} else {
				out = g.must(second, "endTurn", nil)
				var started []string
				for _, e := range out["events"].([]any) {
					ev := e.(map[string]any)
					if ev["type"] == hexdice.EventTurnStarted {
						started = append(started, ev["data"].(map[string]any)["deadline"].(string))
					}
				}
				require.NotEmpty(t, started)
				at, err := time.Parse(time.RFC3339Nano, started[0])
				require.NoError(t, err)
				require.Equal(t, deadline.Add(90*time.Second), at, "the timed-out turn's successor counts from the deadline")
			}
			st, _ = g.state()
			if path == "tick" {
				require.Equal(t, second.ID, st.Players[st.Current].ID, "the turn passed")
				require.Equal(t, deadline.Add(90*time.Second), st.TurnDeadline, "counted from the deadline, not from when the tick ran")
			} else {
				require.Equal(t, first.ID, st.Players[st.Current].ID, "the timeout passed the turn, the request ended the next one")
			}
			require.Equal(t, 1, st.Players[st.First].Turns)
		})
	}
}

// TestHexDiceDisconnectForfeit: a player who sends nothing for 60 s is
// disconnected, and 60 s later forfeits; the tick applies both as of their
// deadlines while the opponent keeps sending heartbeats.
func TestHexDiceDisconnectForfeit(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	g := newHexGame(s, alice, hexdice.CreateRequest{Size: hexdice.Medium, TurnSeconds: 90, Mode: hexdice.Alternating}, "hex-seed-forfeit")
	g.join(bob)
	t0 := s.clock()
	for i := 0; i < 5; i++ { // bob at +20, +40, +60, +80, +100; alice never
		s.advance(20 * time.Second)
		g.must(bob, "heartbeat", nil)
	}
	st, _ := g.state()
	require.Equal(t, t0.Add(60*time.Second), st.Players[0].DisconnectedAt, "alice disconnected as of her deadline")
	require.True(t, st.Players[1].DisconnectedAt.IsZero())
	require.Equal(t, hexdice.PhasePlaying, st.Phase)

	s.advance(25 * time.Second) // +125: her forfeit was due at +120
	_, err := store.Advance(context.Background(), s.store, hexdice.Kind, g.id)
	require.NoError(t, err)
	st, _ = g.state()
	require.Equal(t, hexdice.PhaseOver, st.Phase)
	require.Equal(t, hexdice.ReasonDisconnect, st.Result.Reason)
	require.Equal(t, hexdice.Seat(1), st.Result.Winner)
	require.Equal(t, t0.Add(120*time.Second), st.Result.EndedAt, "as of the forfeit deadline")
	events, err := s.store.Events(context.Background(), g.id)
	require.NoError(t, err)
	last := events[len(events)-1]
	require.Equal(t, domain.ActionExpire, last.Type)
	require.Equal(t, domain.EventGameOver, last.Events[len(last.Events)-1].Type)
	// The expiry's commit wrote the stats, as an action's does.
	require.False(t, last.Pending)
	b, _ := json.Marshal(last.Events[len(last.Events)-1].Data)
	var over domain.GameOver
	require.NoError(t, json.Unmarshal(b, &over))
	require.Len(t, over.Winners, 1)
	won, err := s.store.PlayerTotals(context.Background(), over.Winners[0], hexdice.Kind, over.Mode)
	require.NoError(t, err)
	require.Equal(t, store.Totals{Wins: 1, Played: 1}, won, "the winner's totals")
	ledger, err := s.store.PlayerResults(context.Background(), over.Winners[0], 10)
	require.NoError(t, err)
	require.Len(t, ledger, 1, "the winner's ledger")
	require.Equal(t, store.Result{GameID: g.id, Event: last.ID, Kind: hexdice.Kind, Mode: over.Mode, Result: store.ResultWin,
		Reason: over.Reason, At: ledger[0].At}, ledger[0], "the winner's ledger entry: the expiry's record")

	code, out := g.do(bob, "heartbeat", nil)
	require.Equal(t, http.StatusConflict, code, "%v", out)
}

// restGet reads a document through the emulator's REST API as the player
// with uid (an unsigned Firebase ID token, as the emulator accepts), with
// the project's security rules applied. An empty uid reads anonymously.
func restGet(t *testing.T, project, uid, path string) int {
	t.Helper()
	code, _ := restDoc(t, project, uid, path)
	return code
}

// restDoc reads a document through the emulator's REST API as uid ("" for
// no sign-in), under the real rules: the status and the body.
func restDoc(t *testing.T, project, uid, path string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+storetest.EmulatorHost()+"/v1/projects/"+project+"/databases/(default)/documents/"+path, nil)
	require.NoError(t, err)
	if uid != "" {
		enc := func(v any) string { b, _ := json.Marshal(v); return base64.RawURLEncoding.EncodeToString(b) }
		now := time.Now().Unix()
		tok := enc(map[string]any{"alg": "none", "typ": "JWT"}) + "." + enc(map[string]any{
			"iss": "https://securetoken.google.com/" + project, "aud": project, "sub": uid, "user_id": uid,
			"iat": now, "auth_time": now, "exp": now + 3600, "role": "guest",
			"firebase": map[string]any{"sign_in_provider": "custom", "identities": map[string]any{}}}) + "."
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, body
}

// rulesLoaded loads ../firestore.rules into the emulator project of the
// stack's store, so a test's REST reads (restDoc) meet the real rules, and
// returns the project.
func rulesLoaded(t *testing.T, s *stack) string {
	t.Helper()
	src, err := os.ReadFile("../firestore.rules")
	require.NoError(t, err)
	project := projectOf(s)
	require.NoError(t, storetest.Admin(project).LoadRules(string(src)))
	return project
}

// projectOf is the emulator project the stack's store writes to.
func projectOf(s *stack) string {
	p := s.store.FS.Doc("x/y").Path // projects/{project}/databases/...
	return strings.Split(p, "/")[1]
}

// TestHexDiceSimultaneousOrders: in simultaneous mode a player's orders are
// sealed in the game document (domain.Sealer: the opponent reads the
// document, with the real rules through the emulator's REST API, and cannot
// open them), never in it or the event log as text until the round
// resolves, nor the orders action's payload or a hash of it anyone could
// test guesses against; the player's own preview gives them back; the
// second submission resolves the round; and when the planning timer runs
// out the tick submits the saved draft as it is, as of the deadline.
func TestHexDiceSimultaneousOrders(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	project := rulesLoaded(t, s)

	alice, bob, carol := s.guest("Alice"), s.guest("Bob"), s.guest("Carol")
	g := newHexGame(s, alice, hexdice.CreateRequest{Size: hexdice.Small, TurnSeconds: 60, Mode: hexdice.Simultaneous, MapSeed: "m2"}, "hex-seed-sim")
	g.join(bob)
	st, _ := g.state()
	m, err := hexdice.Rules{}.MapOf(st)
	require.NoError(t, err)
	buy := func(seat hexdice.Seat, unit hexdice.UnitType) map[string]any {
		h := hexdice.BuyOptions(st, m, seat)[0].Hex
		return map[string]any{"buys": []any{map[string]any{"unit": string(unit), "q": h.Q, "r": h.R}}}
	}

	// Alice saves a draft (a sniper): sealed in the game document, which
	// everyone reads; no document of its own.
	draft := map[string]any{"orders": buy(0, hexdice.Sniper), "submit": false}
	out := g.must(alice, "orders", draft)
	draftN := g.n
	require.Equal(t, false, out["result"].(map[string]any)["submitted"])
	require.NotContains(t, out["result"], "orders", "the reply, kept in the game document, carries no orders")
	require.Equal(t, http.StatusNotFound, restGet(t, project, alice.ID, "games/"+g.id+"/orders/"+alice.ID), "no orders document")
	require.Equal(t, http.StatusOK, restGet(t, project, bob.ID, "games/"+g.id), "the game document is public")
	require.Equal(t, http.StatusOK, restGet(t, project, bob.ID, "games/"+g.id+"/public/map"), "so is the map")
	st, _ = g.state()
	require.NotEmpty(t, st.Players[0].SealedOrders, "alice's orders are sealed in the game")
	o, ok := g.sealedOrders(st, alice.ID)
	require.True(t, ok)
	require.Equal(t, hexdice.Sniper, o.Buys[0].Unit, "and open with the game's seed")

	leaks := func(what string) {
		t.Helper()
		doc, err := s.store.GameDoc(context.Background(), g.id)
		require.NoError(t, err)
		b, _ := json.Marshal(doc)
		require.NotContains(t, string(b), `"buys"`, "the game document never holds orders as text (%s)", what)
		require.NotContains(t, string(b), `\"buys\"`, "nor does its log (%s)", what)
		events, err := s.store.Events(context.Background(), g.id)
		require.NoError(t, err)
		b, _ = json.Marshal(events)
		require.NotContains(t, string(b), `"buys"`, "nor does the event log before the round resolves (%s)", what)
		require.NotContains(t, string(b), `\"buys\"`, what)
	}
	leaks("draft")

	// The retry record kept in the game document: an orders action's hash is
	// keyed (no plain request hash of its payload is there), while any other
	// action's is the plain one.
	g.must(bob, "emote", map[string]any{"emote": "hello"})
	doc, err := s.store.GameDoc(context.Background(), g.id)
	require.NoError(t, err)
	docText, _ := json.Marshal(doc)
	bodyOf := func(typ string, n int, extra map[string]any) map[string]any {
		body := map[string]any{"gameId": g.id, "actionId": fmt.Sprintf("a%d", n), "type": typ}
		for k, v := range extra {
			body[k] = v
		}
		return body
	}
	require.Contains(t, string(docText), plainHash(bob, bodyOf("emote", g.n, map[string]any{"emote": "hello"})), "the test computes the plain hash as the store does")
	require.NotContains(t, string(docText), plainHash(alice, bodyOf("orders", draftN, draft)), "the draft's hash is keyed")
	// A retry of the draft gets its reply; its id with other orders is refused.
	code, again := s.post(alice.Token, "HexDice", bodyOf("orders", draftN, draft))
	require.Equal(t, http.StatusOK, code, "%v", again)
	require.Equal(t, out["result"], again["result"])
	code, again = s.post(alice.Token, "HexDice", bodyOf("orders", draftN, map[string]any{"orders": buy(0, hexdice.Marine), "submit": false}))
	require.Equal(t, http.StatusConflict, code, "%v", again)
	require.Equal(t, domain.EEXISTS, again["error"].(map[string]any)["code"], "%v", again)

	// Alice's preview gives her draft back (a page reloaded while planning
	// shows it); Bob's and a spectator's give none.
	pv := g.must(alice, hexdice.ActionPreview, nil)["result"].(map[string]any)
	require.Contains(t, fmt.Sprint(pv["orders"]), "sniper")
	require.NotContains(t, g.must(bob, hexdice.ActionPreview, nil)["result"], "orders")
	require.NotContains(t, g.must(carol, hexdice.ActionPreview, nil)["result"], "orders")

	// Bob submits first; then Alice submits (a marine): the round resolves.
	g.must(bob, "orders", map[string]any{"orders": buy(1, hexdice.Marine), "submit": true})
	st, _ = g.state()
	require.True(t, st.Players[1].Submitted, "the game says who submitted")
	require.NotEmpty(t, st.Players[1].SealedOrders)
	leaks("bob submitted")
	out = g.must(alice, "orders", map[string]any{"orders": buy(0, hexdice.Marine), "submit": true})
	require.Equal(t, true, out["result"].(map[string]any)["resolved"])
	st, _ = g.state()
	require.Equal(t, 2, st.Round)
	require.Len(t, st.Troops, 2, "both buys resolved")
	for _, p := range st.Players {
		require.Empty(t, p.SealedOrders, "the round's orders are revealed, no longer kept")
	}
	revealed := 0
	for _, e := range out["events"].([]any) {
		if e.(map[string]any)["type"] == hexdice.EventOrdersRevealed {
			revealed++
		}
	}
	require.Equal(t, 2, revealed, "the round's orders become public when it resolves")

	// The planning timer: alice saves a draft, bob sends only a heartbeat;
	// the tick submits alice's draft as it is, as of the deadline.
	deadline := st.TurnDeadline
	s.advance(10 * time.Second)
	g.must(alice, "orders", map[string]any{"orders": buy(0, hexdice.Hoverbike), "submit": false})
	g.must(bob, "heartbeat", nil)
	s.advance(55 * time.Second)
	n, err := store.Advance(context.Background(), s.store, hexdice.Kind, g.id)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	st, _ = g.state()
	require.Equal(t, 3, st.Round)
	require.Len(t, st.Troops, 3)
	require.Equal(t, hexdice.Hoverbike, st.Troops[2].Type, "alice's saved draft was submitted")
	require.Equal(t, deadline.Add(60*time.Second), st.TurnDeadline, "the next round counts from the deadline")
	events, err := s.store.Events(context.Background(), g.id)
	require.NoError(t, err)
	auto := 0
	for _, e := range events[len(events)-1].Events {
		if e.Type == hexdice.EventOrdersSubmitted {
			auto++
		}
	}
	require.Equal(t, 2, auto, "both auto-submitted at the deadline")
}

// TestHexDiceRetriedAction: the same actionId returns the first reply and
// changes nothing; reused for another request it is refused.
func TestHexDiceRetriedAction(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	g := newHexGame(s, alice, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating}, "hex-seed-retry")
	g.join(bob)
	st, _ := g.state()
	m, _ := hexdice.Rules{}.MapOf(st)
	p := g.player(st, st.Current)
	h := hexdice.BuyOptions(st, m, st.Current)[0].Hex
	body := map[string]any{"gameId": g.id, "actionId": "buy-once", "type": "buy", "unit": "marine", "q": h.Q, "r": h.R}
	code, first := s.post(p.Token, "HexDice", body)
	require.Equal(t, http.StatusOK, code, "%v", first)
	before, v := g.state()
	code, again := s.post(p.Token, "HexDice", body)
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, first, again, "the first reply again")
	after, v2 := g.state()
	require.Equal(t, before, after)
	require.Equal(t, v, v2)
	require.Len(t, after.Troops, 1, "bought once")

	body["unit"] = "sniper"
	code, out := s.post(p.Token, "HexDice", body)
	require.Equal(t, http.StatusConflict, code)
	require.Equal(t, domain.EEXISTS, errCode(out))

	// A retried create finds the game it made, with its room code: its
	// reply is kept in the game's server-only private/server, though the
	// create wrote the map document too, and no action record is left.
	code, out = s.post(alice.Token, "HexDice", g.body)
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.Equal(t, g.id, out["result"].(map[string]any)["gameId"])
	require.Equal(t, g.code, out["result"].(map[string]any)["roomCode"])
	recs, err := s.store.FS.Collection("games").Doc(g.id).Collection("actions").Documents(context.Background()).GetAll()
	require.NoError(t, err)
	for _, r := range recs {
		require.NotEqual(t, "create", r.Data()["type"], "the create left an action record %s", r.Ref.ID)
	}
	// The same action id for another create is refused.
	other := maps.Clone(g.body)
	other["size"] = "large"
	code, out = s.post(alice.Token, "HexDice", other)
	require.Equal(t, http.StatusConflict, code, "%v", out)
	require.Equal(t, domain.EEXISTS, errCode(out))
}

// TestHexDiceBadRequests: each bad request gets its status and code, a
// message naming the field at fault, and changes nothing.
func TestHexDiceBadRequests(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob, carol := s.guest("Alice"), s.guest("Bob"), s.guest("Carol")
	g := newHexGame(s, alice, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating, Private: true, MapSeed: "m3"}, "hex-seed-bad")
	g.join(bob)
	st, v := g.state()
	m, _ := hexdice.Rules{}.MapOf(st)
	cur, other := g.player(st, st.Current), g.player(st, st.Current.Other())
	h := hexdice.BuyOptions(st, m, st.Current)[0].Hex
	id := g.id
	act := func(typ string, kv ...any) map[string]any {
		b := map[string]any{"gameId": id, "actionId": "bad", "type": typ}
		for i := 0; i+1 < len(kv); i += 2 {
			b[kv[i].(string)] = kv[i+1]
		}
		return b
	}
	tests := []struct {
		name   string
		token  string
		body   any
		status int
		code   string
		names  string // what the message must name
	}{
		{"unknown type", cur.Token, act("fly"), 400, domain.EINVALID, `"fly"`},
		{"unknown field", cur.Token, act("buy", "unit", "marine", "q", h.Q, "r", h.R, "colour", "red"), 400, domain.EINVALID, `"colour"`},
		{"unknown unit", cur.Token, act("buy", "unit", "tank", "q", h.Q, "r", h.R), 400, domain.EINVALID, "unit"},
		{"buy without a hex", cur.Token, act("buy", "unit", "marine"), 400, domain.EINVALID, "q and r"},
		{"buy off the map", cur.Token, act("buy", "unit", "marine", "q", 40, "r", 0), 400, domain.EINVALID, "q, r"},
		{"buy far from a base", cur.Token, act("buy", "unit", "marine", "q", 0, "r", 0), 400, domain.EINVALID, "q, r"},
		{"troop not a number", cur.Token, act("move", "troop", "one", "q", 0, "r", 0), 400, domain.EINVALID, `"troop"`},
		{"move a troop you lack", cur.Token, act("move", "troop", 7, "q", 0, "r", 0), 400, domain.EINVALID, "troop"},
		{"out of turn", other.Token, act("endTurn"), 409, domain.ECONFLICT, "turn"},
		{"orders in alternating mode", cur.Token, act("orders", "orders", map[string]any{}), 409, domain.ECONFLICT, "simultaneous"},
		{"surrender before round 5", cur.Token, act("surrender"), 409, domain.ECONFLICT, "round 5"},
		{"unknown emote", cur.Token, act("emote", "emote", "rude"), 400, domain.EINVALID, "emote"},
		{"preview an unknown troop", cur.Token, act("preview", "troop", 99), 400, domain.EINVALID, "troop"},
		{"preview q without r", cur.Token, act("preview", "troop", 1, "q", 1), 400, domain.EINVALID, "q and r"},
		{"heartbeat with a field", cur.Token, act("heartbeat", "at", 5), 400, domain.EINVALID, `"at"`},
		{"not seated", carol.Token, act("heartbeat"), 403, domain.EFORBIDDEN, "player"},
		{"join a private room without its code", carol.Token, act("join"), 403, domain.EFORBIDDEN, "room code"},
		{"join with a wrong code", carol.Token, map[string]any{"actionId": "bad", "type": "join", "roomCode": "ZZZZZZ"}, 404, domain.ENOTFOUND, "ZZZZZZ"},
		{"stale version", cur.Token, act("endTurn", "version", v-1), 409, domain.ECONFLICT, "version"},
		{"create: unknown size", cur.Token, map[string]any{"actionId": "bad", "type": "create", "size": "huge"}, 400, domain.EINVALID, "size"},
		{"create: timer not offered", cur.Token, map[string]any{"actionId": "bad", "type": "create", "turnSeconds": 45}, 400, domain.EINVALID, "turnSeconds"},
		{"create: unknown mode", cur.Token, map[string]any{"actionId": "bad", "type": "create", "mode": "turbo"}, 400, domain.EINVALID, "mode"},
		{"create: private not a bool", cur.Token, map[string]any{"actionId": "bad", "type": "create", "private": "yes"}, 400, domain.EINVALID, `"private"`},
		{"quickMatch takes no fields", cur.Token, map[string]any{"actionId": "bad", "type": "quickMatch", "size": "large"}, 400, domain.EINVALID, `"size"`},
		{"no token", "", act("endTurn"), 401, domain.EUNAUTHORIZED, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := s.post(tt.token, "HexDice", tt.body)
			require.Equal(t, tt.status, code, "%v", out)
			require.Equal(t, tt.code, errCode(out), "%v", out)
			msg, _ := out["error"].(map[string]any)["message"].(string)
			require.NotEmpty(t, msg)
			require.Contains(t, msg, tt.names, "the message names what is wrong")
			after, v2 := g.state()
			require.Equal(t, st, after, "game unchanged")
			require.Equal(t, v, v2, "version unchanged")
		})
	}
}

// TestHexDiceQuickMatch: two players calling quickMatch are paired into the
// default room (medium, 90 s, alternating), with its map document.
func TestHexDiceQuickMatch(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	quick := func(p player, actionID string) map[string]any {
		t.Helper()
		code, out := s.post(p.Token, "HexDice", map[string]any{"actionId": actionID, "type": "quickMatch"})
		require.Equal(t, http.StatusOK, code, "%v", out)
		return out["result"].(map[string]any)
	}
	require.Equal(t, "waiting", quick(alice, "q1")["status"])
	got := quick(bob, "q1")
	require.Equal(t, "matched", got["status"])
	id := got["gameId"].(string)
	polled := quick(alice, "q1")
	require.Equal(t, id, polled["gameId"], "the waiting player learns the game by polling")

	var st hexdice.Game
	_, err := s.store.GameState(context.Background(), id, &st)
	require.NoError(t, err)
	require.Equal(t, hexdice.PhasePlaying, st.Phase, "both seated: play has started")
	require.Equal(t, hexdice.Medium, st.Size)
	require.Equal(t, 90, st.TurnSeconds)
	require.Equal(t, hexdice.Alternating, st.Mode)
	require.Equal(t, []string{alice.ID, bob.ID}, st.PlayerIDs(), "whoever waited hosts")
	snap, err := s.store.FS.Doc("games/" + id + "/public/map").Get(context.Background())
	require.NoError(t, err, "the map document was written with the game")
	require.Equal(t, st.MapHash, snap.Data()["hash"])

	code, out := s.post(alice.Token, "HexDice", map[string]any{"actionId": "l1", "type": "leaveQueue"})
	require.Equal(t, http.StatusOK, code, "%v", out)
}

// stackCaller is the test stack as a domain.Caller, for demos.
type stackCaller struct{ s *stack }

func (c stackCaller) Call(_ context.Context, function, token string, body any) (map[string]any, error) {
	code, out := c.s.post(token, function, body)
	if code != http.StatusOK {
		return nil, fmt.Errorf("%s: %d %v", function, code, out)
	}
	return out, nil
}

func (c stackCaller) Guest(_ context.Context, nickname string) (map[string]any, error) {
	return c.Call(context.Background(), "Auth", "", map[string]any{"type": "guest", "nickname": nickname})
}

func (c stackCaller) URL(function string) string { return c.s.url + "/" + function }
func (c stackCaller) FirestoreHost() string      { return storetest.EmulatorHost() }

// TestHexDiceDemoCommandsWorkAsPrinted runs the registry's Hex & Dice demo
// and then every curl command it prints (those naming $ADA or $BEN), in
// order, as a person pasting them would: each must succeed.
func TestHexDiceDemoCommandsWorkAsPrinted(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	var demo domain.Demo
	for _, e := range games.All() {
		if e.Kind() == hexdice.Kind {
			demo = e.Demo
		}
	}
	require.NotNil(t, demo)
	d, err := demo(context.Background(), stackCaller{s})
	require.NoError(t, err)
	tokens := map[string]string{"$ADA": d.Values["adaToken"], "$BEN": d.Values["benToken"]}
	ran := 0
	for _, line := range d.Lines {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "curl -s ") || strings.Contains(line, "<token>") || !strings.Contains(line, "Bearer $") {
			continue
		}
		url := strings.Fields(line)[2]
		fn := url[strings.LastIndex(url, "/")+1:]
		var token string
		for v, tok := range tokens {
			if strings.Contains(line, "Bearer "+v+`"`) {
				token = tok
			}
		}
		require.NotEmpty(t, token, line)
		body := line[strings.Index(line, "-d '")+4 : strings.LastIndex(line, "'")]
		code, out := s.post(token, fn, body)
		require.Equal(t, http.StatusOK, code, "%s: %v", line, out)
		ran++
	}
	require.GreaterOrEqual(t, ran, 7, "join, buy, preview, endTurn, legal, emote, heartbeat")
	var st hexdice.Game
	_, err = s.store.GameState(context.Background(), d.Values["gameId"], &st)
	require.NoError(t, err)
	require.Equal(t, 2, st.Turn, "the first turn ended")
	require.Len(t, st.Troops, 1, "the printed buy bought")
	require.Equal(t, d.Values["first"], st.Players[st.Troops[0].Owner].ID)
}

// TestHexDiceSimultaneousSubmissionsAtOnce: both players submit at the same
// moment; whichever commits second runs again on the new state, reads the
// other's orders and resolves the round — exactly once.
func TestHexDiceSimultaneousSubmissionsAtOnce(t *testing.T) {
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	g := newHexGame(s, alice, hexdice.CreateRequest{Size: hexdice.Small, TurnSeconds: 60, Mode: hexdice.Simultaneous, MapSeed: "m2"}, "hex-seed-race")
	g.join(bob)
	st, v := g.state()
	m, err := hexdice.Rules{}.MapOf(st)
	require.NoError(t, err)
	var wg sync.WaitGroup
	codes, resolved := make([]int, 2), make([]bool, 2)
	for i, p := range []player{alice, bob} {
		h := hexdice.BuyOptions(st, m, hexdice.Seat(i))[0].Hex
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, out := s.post(p.Token, "HexDice", map[string]any{"gameId": g.id, "actionId": "submit", "type": "orders", "submit": true,
				"orders": map[string]any{"buys": []any{map[string]any{"unit": "marine", "q": h.Q, "r": h.R}}}})
			codes[i] = code
			if code == http.StatusOK {
				resolved[i], _ = out["result"].(map[string]any)["resolved"].(bool)
			}
		}()
	}
	wg.Wait()
	require.Equal(t, []int{http.StatusOK, http.StatusOK}, codes)
	require.True(t, resolved[0] != resolved[1], "exactly one submission resolved the round: %v", resolved)
	st, v2 := g.state()
	require.Equal(t, 2, st.Round)
	require.Len(t, st.Troops, 2)
	require.Equal(t, v+2, v2, "two steps, one each")
}

// plainHash is the part of a Hex & Dice request's plain hash (the store's
// requestHash) that the game document's recent actions keep: what an
// opponent could test guesses of a secret payload against, were it kept.
func plainHash(p player, body map[string]any) string {
	canon, _ := json.Marshal(body)
	sum := sha256.Sum256(bytes.Join([][]byte{[]byte(hexdice.Kind), []byte(body["type"].(string)), []byte(p.ID), canon}, []byte{0}))
	return hex.EncodeToString(sum[:])[:12]
}
