package hexdice

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// readLog is a platform game that records every document its actions read
// (Plan's reads and what Run asks for with NeedDocs).
type readLog struct {
	PlatformGame
	reads map[string][]domain.Read // by action type
}

func (r *readLog) Plan(a domain.Action) (domain.Plan, error) {
	p, err := r.PlatformGame.Plan(a)
	r.reads[a.Type] = append(r.reads[a.Type], p.Reads...)
	return p, err
}

func (r *readLog) Run(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	ch, err := r.PlatformGame.Run(d, a, env)
	var need *domain.NeedDocs
	if errors.As(err, &need) {
		r.reads[a.Type] = append(r.reads[a.Type], need.Reads...)
	}
	return ch, err
}

func newLoggedWorld(t *testing.T) (*rulestest.World, *readLog) {
	t.Helper()
	g := &readLog{PlatformGame: pureGame(t), reads: map[string][]domain.Read{}}
	return rulestest.NewWorld(g, "platform", t0), g
}

func do(t *testing.T, w *rulestest.World, who domain.Actor, typ, body string) domain.Change {
	t.Helper()
	ch, err := w.Do(domain.Action{ID: typ, Type: typ, Actor: who, Payload: json.RawMessage(body)})
	require.NoError(t, err, "%s by %s", typ, who.ID)
	return ch
}

func docOf[T any](t *testing.T, w *rulestest.World, id domain.DocID) (T, bool) {
	t.Helper()
	var v T
	raw, ok := w.Docs[id]
	if ok {
		require.NoError(t, json.Unmarshal(raw, &v))
	}
	return v, ok
}

// TestCreateWritesTheMapOnce: create writes the game document (no map, no
// orders in it) and the map document, which is the cached map's JSON; no
// action reads the map document afterwards.
func TestCreateWritesTheMapOnce(t *testing.T) {
	for _, size := range []Size{Small, Medium, Large} {
		t.Run(string(size), func(t *testing.T) {
			w, log := newLoggedWorld(t)
			ch := do(t, w, alice, domain.ActionCreate, `{"size":"`+string(size)+`","mode":"alternating","turnSeconds":120,"private":true,"mapSeed":"s1"}`)
			require.True(t, ch.Room, "every room gets a room code")
			created := ch.Result.(domain.Created)
			require.Equal(t, "ROOM42", created.RoomCode)
			g := worldGame(t, w)
			require.True(t, g.Private)
			require.Equal(t, 120, g.TurnSeconds)
			mj, ok := docOf[MapJSON](t, w, domain.Doc(SlotMap, ""))
			require.True(t, ok, "the map document is written at create")
			m, err := MapFromJSON(mj)
			require.NoError(t, err)
			require.Equal(t, g.MapHash, m.Hash())
			require.Equal(t, HexCount(g.MapRadius), len(mj.Hexes))
			raw, _ := json.Marshal(mj)
			t.Logf("%s map document: %d bytes of JSON; game document state %d bytes", size, len(raw), len(w.Docs[domain.GameDocID]))

			do(t, w, bob, ActionJoin, `{}`)
			for i := 0; i < 40; i++ {
				g := worldGame(t, w)
				if g.Phase == PhaseOver {
					break
				}
				m, _ := Rules{}.MapOf(g)
				for _, who := range []domain.Actor{alice, bob} {
					if mv, ok := (Autoplay{}).Next(g, m, who); ok {
						w.Now = w.Now.Add(time.Second)
						_, err := w.Do(domain.Action{ID: "x", Type: mv.Type, Actor: who, Payload: rulestest.Body(mv, w.Games, "x")})
						require.NoError(t, err)
						break
					}
				}
			}
			for typ, reads := range log.reads {
				for _, r := range reads {
					require.NotEqual(t, SlotMap, r.Slot, "%s read the map document", typ)
					require.NotEqual(t, SlotOrders, r.Slot, "%s read orders in an alternating game", typ)
				}
			}
		})
	}
}

// TestOrdersAreSealedInTheGame: in simultaneous mode an orders action
// writes the game document alone, its orders sealed there (domain.Sealer)
// where the opponent cannot read them; no action reads an orders document;
// the caller's preview gives back its own orders and nobody else's; the
// round's resolution opens them, and clears them; the planning timer
// submits a saved draft as it is.
func TestOrdersAreSealedInTheGame(t *testing.T) {
	w, log, g, m := simultaneousWorld(t)
	buyA, buyB := BuyOptions(g, m, 0)[0].Hex, BuyOptions(g, m, 1)[0].Hex
	orders := func(h Hex, submit bool) string {
		b, _ := json.Marshal(map[string]any{"orders": Orders{Buys: []BuyOrder{{Unit: Marine, Hex: h}}}, "submit": submit})
		return string(b)
	}
	hidden := func(what string) {
		t.Helper()
		raw := string(w.Docs[domain.GameDocID])
		require.NotContains(t, raw, `"buys"`, "orders never reach the game document as text (%s)", what)
		require.NotContains(t, raw, `"unit"`, what)
		for id := range w.Docs {
			require.NotEqual(t, SlotOrders, id.Slot, "no orders document is written (%s)", what)
		}
	}
	own := func(who domain.Actor) *Orders {
		t.Helper()
		return do(t, w, who, ActionPreview, `{}`).Result.(Preview).Orders
	}

	// A draft: the game document only, alice's orders sealed in it.
	log.reads = map[string][]domain.Read{}
	w.Now = w.Now.Add(time.Second)
	ch := do(t, w, alice, ActionOrders, orders(buyA, false))
	require.Len(t, ch.Writes, 1, "the game document alone")
	res := ch.Result.(OrdersResult)
	reply, _ := json.Marshal(res)
	require.NotContains(t, string(reply), "marine", "the reply, kept in the game document for retries, carries no orders")
	g = worldGame(t, w)
	require.NotEmpty(t, g.Players[0].SealedOrders)
	require.Empty(t, g.Players[1].SealedOrders)
	hidden("draft")
	require.Empty(t, ordersReads(log))
	mine := own(alice)
	require.NotNil(t, mine, "alice's preview gives her draft back")
	require.Equal(t, []BuyOrder{{Unit: Marine, Hex: buyA}}, mine.Buys)
	require.Equal(t, 1, mine.Round)
	require.False(t, mine.Submitted)
	require.Nil(t, own(bob), "bob's gives nothing of hers")
	require.Nil(t, own(domain.Actor{ID: "carol", Name: "Carol"}), "nor a spectator's")

	// Bob submits first: sealed too; the submission event says who, not what.
	w.Now = w.Now.Add(time.Second)
	ch = do(t, w, bob, ActionOrders, orders(buyB, true))
	require.Len(t, ch.Writes, 1)
	require.False(t, ch.Result.(OrdersResult).Resolved)
	require.True(t, worldGame(t, w).Players[1].Submitted)
	for _, e := range ch.Events() {
		require.NotEqual(t, EventOrdersRevealed, e.Type)
		if e.Type == EventOrdersSubmitted {
			b, _ := json.Marshal(e.Data)
			require.NotContains(t, string(b), "marine", "the submission event never carries the orders")
		}
	}
	hidden("submission")
	require.True(t, own(bob).Submitted)

	// Alice changes her draft, then submits: the round resolves with bob's
	// orders, opened from the game; nothing is read, nothing stays sealed.
	w.Now = w.Now.Add(time.Second)
	do(t, w, alice, ActionOrders, orders(buyA, false))
	w.Now = w.Now.Add(time.Second)
	ch = do(t, w, alice, ActionOrders, orders(buyA, true))
	require.True(t, ch.Result.(OrdersResult).Resolved)
	require.Len(t, ch.Writes, 1)
	require.Empty(t, ordersReads(log), "no action read an orders document")
	g = worldGame(t, w)
	require.Equal(t, 2, g.Round)
	require.Len(t, g.Troops, 2, "both buys resolved")
	for i, p := range g.Players {
		require.Empty(t, p.SealedOrders, "seat %d: a resolved round's orders are revealed, not kept", i)
	}
	require.Nil(t, own(alice))

	// The planning timer: alice saved a draft, bob nothing; alice's draft is
	// submitted as it is.
	buyA = BuyOptions(g, m, 0)[0].Hex
	w.Now = w.Now.Add(time.Second)
	do(t, w, alice, ActionOrders, orders(buyA, false))
	w.Now = g.TurnDeadline.Add(5 * time.Second)
	do(t, w, domain.System, domain.ActionAdvance, `{}`)
	require.Empty(t, ordersReads(log))
	g = worldGame(t, w)
	require.Equal(t, 3, g.Round)
	require.Len(t, g.Troops, 3, "alice's draft was submitted at the deadline")
	require.Equal(t, g.TurnDeadline, w.Now.Add(-5*time.Second).Add(60*time.Second), "the next round is counted from the deadline")

	// The game's end clears what was sealed: the seed, which opens it, is
	// published at the end. (Bob, silent, forfeits.)
	w.Now = w.Now.Add(time.Second)
	do(t, w, alice, ActionOrders, orders(BuyOptions(g, m, 0)[0].Hex, false))
	require.NotEmpty(t, worldGame(t, w).Players[0].SealedOrders)
	w.Now = w.Now.Add(5 * time.Minute)
	do(t, w, domain.System, domain.ActionAdvance, `{}`)
	g = worldGame(t, w)
	require.Equal(t, PhaseOver, g.Phase)
	require.Empty(t, g.Players[0].SealedOrders)
}

// TestOrdersOfGamesBeforeTheSeal: a game from before the seal kept a
// submitted player's orders in orders/{playerId}; the submission that
// resolves the round reads that document (and only it), and so does the
// planning timer.
func TestOrdersOfGamesBeforeTheSeal(t *testing.T) {
	for _, by := range []string{"submission", "timer"} {
		t.Run(by, func(t *testing.T) {
			w, log, g, m := simultaneousWorld(t)
			// Bob submitted before the seal: his game says so, his document holds them.
			var doc map[string]any
			require.NoError(t, json.Unmarshal(w.Docs[domain.GameDocID], &doc))
			doc["state"].(map[string]any)["players"].([]any)[1].(map[string]any)["submitted"] = true
			w.Docs[domain.GameDocID], _ = json.Marshal(doc)
			old, _ := json.Marshal(Orders{Round: 1, Submitted: true, Buys: []BuyOrder{{Unit: Marine, Hex: BuyOptions(g, m, 1)[0].Hex}}})
			w.Docs[domain.Doc(SlotOrders, bob.ID)] = old

			log.reads = map[string][]domain.Read{}
			w.Now = w.Now.Add(time.Second)
			if by == "submission" {
				ch := do(t, w, alice, ActionOrders, `{"orders":{},"submit":true}`)
				require.True(t, ch.Result.(OrdersResult).Resolved)
			} else {
				w.Now = g.TurnDeadline.Add(time.Second)
				do(t, w, domain.System, domain.ActionAdvance, `{}`)
			}
			require.Equal(t, []string{bob.ID}, ordersReads(log))
			g = worldGame(t, w)
			require.Equal(t, 2, g.Round)
			require.Len(t, g.Troops, 1, "bob's stored buy was played")
		})
	}
}

// simultaneousWorld is a small simultaneous game alice hosts and bob joined,
// in round 1, with its map.
func simultaneousWorld(t *testing.T) (*rulestest.World, *readLog, Game, *Map) {
	t.Helper()
	w, log := newLoggedWorld(t)
	do(t, w, alice, domain.ActionCreate, `{"size":"small","mode":"simultaneous","turnSeconds":60,"mapSeed":"s1"}`)
	do(t, w, bob, ActionJoin, `{}`)
	g := worldGame(t, w)
	m, err := Rules{}.MapOf(g)
	require.NoError(t, err)
	return w, log, g, m
}

func ordersReads(log *readLog) []string {
	var ids []string
	for _, reads := range log.reads {
		for _, r := range reads {
			if r.Slot == SlotOrders {
				ids = append(ids, r.Key)
			}
		}
	}
	return ids
}

// TestPreview: the preview action's result, and that it writes nothing.
func TestPreview(t *testing.T) {
	w, _ := newLoggedWorld(t)
	do(t, w, alice, domain.ActionCreate, `{"size":"small","mode":"alternating","mapSeed":"s1"}`)
	do(t, w, bob, ActionJoin, `{}`)
	g := worldGame(t, w)
	m, _ := Rules{}.MapOf(g)
	first, second := alice, bob
	if g.Current == 1 {
		first, second = bob, alice
	}
	opt := BuyOptions(g, m, g.Current)[0]
	do(t, w, first, ActionBuy, `{"unit":"hoverbike","q":`+strconv.Itoa(opt.Q)+`,"r":`+strconv.Itoa(opt.R)+`}`)
	do(t, w, first, ActionEndTurn, `{}`)
	do(t, w, second, ActionEndTurn, `{}`)
	g = worldGame(t, w)
	troop := g.Troops[0]

	before := w.Clone()
	ch := do(t, w, first, ActionPreview, `{"troop":`+strconv.Itoa(troop.ID)+`}`)
	require.Empty(t, ch.Writes, "a preview writes nothing")
	require.Empty(t, ch.Steps)
	require.Equal(t, before.Docs, w.Docs)
	p := ch.Result.(Preview)
	require.Equal(t, g.Current, p.Seat)
	require.True(t, p.CanBuy)
	require.Equal(t, BuyOptions(g, m, g.Current), p.Buys)
	require.NotNil(t, p.Troop)
	require.True(t, p.Troop.CanMove)
	require.Equal(t, Reachable(g, m, troop.ID), p.Troop.Reachable)
	require.Equal(t, troop.Hex, p.Troop.From)
	require.NotEmpty(t, p.Troop.Reachable)

	// The opponent sees the same geometry, but may not move it.
	p = do(t, w, second, ActionPreview, `{"troop":`+strconv.Itoa(troop.ID)+`}`).Result.(Preview)
	require.False(t, p.Troop.CanMove)
	require.False(t, p.CanBuy)
	// Targets from a hex it may move to.
	to := p.Troop.Reachable[len(p.Troop.Reachable)-1].Hex
	p = do(t, w, first, ActionPreview, `{"troop":`+strconv.Itoa(troop.ID)+`,"q":`+strconv.Itoa(to.Q)+`,"r":`+strconv.Itoa(to.R)+`}`).Result.(Preview)
	require.Equal(t, to, p.Troop.From)
	require.Equal(t, Targets(g, m, troop.ID, to), nilIfEmpty(p.Troop.Targets))
	// A spectator: no seat, no shop.
	p = do(t, w, carol, ActionPreview, `{}`).Result.(Preview)
	require.Equal(t, Neutral, p.Seat)
	require.Empty(t, p.Buys)
	require.Nil(t, p.Troop)

	for _, bad := range []string{`{"troop":999}`, `{"q":1,"r":1}`, `{"troop":1,"q":1}`, `{"troop":1,"q":50,"r":0}`, `{"troop":"1"}`, `{"unit":"x"}`} {
		_, err := w.Do(domain.Action{ID: "p", Type: ActionPreview, Actor: first, Payload: json.RawMessage(bad)})
		require.Equal(t, domain.EINVALID, domain.ErrorCode(err), "%s: %v", bad, err)
	}

	// Past a deadline the preview applies it first, as legal does.
	w.Now = g.TurnDeadline.Add(time.Second)
	ch = do(t, w, second, ActionPreview, `{}`)
	require.NotEmpty(t, ch.Steps, "the timeout")
	require.Equal(t, g.SeatOf(second.ID), ch.Result.(Preview).Seat)
	require.True(t, ch.Result.(Preview).CanBuy, "the timeout gave the turn to the caller")
}

// TestQuietHeartbeat: a heartbeat of a connected player seen less than
// HeartbeatQuiet ago changes nothing (no step, no write, so no version), so
// a flood of them cannot make the opponent's version-guarded actions stale;
// one after the quiet time, or of a disconnected player, is a step.
func TestQuietHeartbeat(t *testing.T) {
	w, _ := newLoggedWorld(t)
	do(t, w, alice, domain.ActionCreate, `{"size":"small","mode":"alternating","mapSeed":"s1"}`)
	do(t, w, bob, ActionJoin, `{}`)
	start := w.Now
	quiet := func(who domain.Actor, at time.Duration) {
		t.Helper()
		w.Now = start.Add(at)
		before := w.Clone()
		for range 20 {
			ch := do(t, w, who, ActionHeartbeat, `{}`)
			require.Empty(t, ch.Writes, "%s at %s", who.ID, at)
			require.Empty(t, ch.Steps)
		}
		require.Equal(t, before.Docs, w.Docs)
	}
	beat := func(who domain.Actor, at time.Duration) domain.Change {
		t.Helper()
		w.Now = start.Add(at)
		ch := do(t, w, who, ActionHeartbeat, `{}`)
		require.NotEmpty(t, ch.Steps, "%s at %s", who.ID, at)
		require.Equal(t, w.Now, worldGame(t, w).Players[worldGame(t, w).SeatOf(who.ID)].LastSeen)
		return ch
	}
	quiet(alice, 0)
	quiet(alice, HeartbeatQuiet-time.Millisecond)
	beat(alice, HeartbeatQuiet)
	quiet(alice, HeartbeatQuiet+time.Second)
	beat(alice, 40*time.Second)
	// Bob, silent since he joined, is disconnected as of +60 s; his
	// heartbeat at +65 s reconnects him, as a step.
	ch := beat(bob, 65*time.Second)
	require.Contains(t, rulestest.Types(ch.Steps[len(ch.Steps)-1].Events), EventReconnected)
	quiet(bob, 70*time.Second)
	// Refusals are the heartbeat's own.
	_, err := w.Do(domain.Action{ID: "h", Type: ActionHeartbeat, Actor: carol, Payload: json.RawMessage(`{}`)})
	require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err))
	_, err = w.Do(domain.Action{ID: "h", Type: ActionHeartbeat, Actor: bob, Payload: json.RawMessage(`{"at":1}`)})
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
}

func nilIfEmpty(h []Hex) []Hex {
	if len(h) == 0 {
		return nil
	}
	return h
}

// TestQueue: one queue, the default room, no fields.
func TestQueue(t *testing.T) {
	q, create, err := PlatformGame{}.Queue(json.RawMessage(`{"actionId":"q1","type":"quickMatch"}`))
	require.NoError(t, err)
	require.Equal(t, QuickMatchQueue, q)
	var req CreateRequest
	require.NoError(t, domain.DecodePayload(create, &req))
	require.Equal(t, CreateRequest{Size: Medium, TurnSeconds: 90, Mode: Alternating}, req)
	_, _, err = PlatformGame{}.Queue(json.RawMessage(`{"size":"large"}`))
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	require.Contains(t, domain.ErrorMessage(err), `"size"`)
}

// TestCreateRefusals: a bad create is refused naming the field, before
// anything is read.
func TestCreateRefusals(t *testing.T) {
	for body, field := range map[string]string{
		`{"size":"huge"}`:          "size",
		`{"mode":"turbo"}`:         "mode",
		`{"turnSeconds":45}`:       "turnSeconds",
		`{"turnSeconds":0}`:        "turnSeconds must be one of 60, 90, 120, not 0",
		`{"turnSeconds":"90"}`:     "turnSeconds",
		`{"private":"yes"}`:        "private",
		`{"colour":"red"}`:         "colour",
		`{"mapSeed":` + long + `}`: "mapSeed",
	} {
		w := rulestest.NewWorld(PlatformGame{}, "s", t0)
		_, err := w.Do(domain.Action{ID: "c", Type: domain.ActionCreate, Actor: alice, Payload: json.RawMessage(body)})
		require.Equal(t, domain.EINVALID, domain.ErrorCode(err), body)
		require.Contains(t, domain.ErrorMessage(err), field, body)
		require.Empty(t, w.Docs, body)
	}
}

var long = func() string { b, _ := json.Marshal(string(make([]byte, 201))); return string(b) }()
