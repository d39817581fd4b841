package store

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"
	"google.golang.org/api/option"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/domain/pig"
	"github.com/meeple-games/meeple/store/fsemu"
	"github.com/meeple-games/meeple/store/storetest"
)

// warmFixture is a Pig game played through stores that share one project:
// each store is an instance with its own warm copies (warm.go), and each
// counts its own RPCs.
type warmFixture struct {
	project string
	now     time.Time
}

type warmInstance struct {
	st  *Store
	cnt *fsemu.Counter
	fs  *firestore.Client
}

func newWarmFixture(t testing.TB) *warmFixture {
	t.Helper()
	return &warmFixture{project: storetest.Project(t), now: time.Date(2026, 1, 1, 12, 0, 0, 123456789, time.UTC)}
}

func (f *warmFixture) instance(t testing.TB) *warmInstance {
	t.Helper()
	return f.instanceOf(t, domain.Registry{pig.Entry()})
}

// instanceOf is an instance serving the games of reg.
func (f *warmFixture) instanceOf(t testing.TB, reg domain.Registry) *warmInstance {
	t.Helper()
	c := &fsemu.Counter{}
	conn, err := c.Dial(storetest.EmulatorHost())
	require.NoError(t, err)
	fs, err := firestore.NewClient(context.Background(), f.project, option.WithGRPCConn(conn))
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close() })
	st := New(fs, reg)
	st.FixedSeeds = true
	// A clock past the microsecond: the copy must hold what Firestore keeps.
	st.Now = func() time.Time { f.now = f.now.Add(1001 * time.Nanosecond); return f.now }
	return &warmInstance{st: st, cnt: c, fs: fs}
}

// run sends one Pig action through in.
func (in *warmInstance) run(t testing.TB, who domain.Actor, gameID, actionID, typ string, expect *int64) (Reply, error) {
	t.Helper()
	payload := json.RawMessage(`{}`)
	if typ == domain.ActionCreate {
		payload = json.RawMessage(`{"turnSeconds":30,"target":40}`)
	}
	req := Request{Kind: pig.Kind, GameID: gameID, ExpectVersion: expect,
		Action: domain.Action{ID: actionID, Type: typ, Actor: who, Payload: payload}}
	if typ == domain.ActionCreate {
		req.Seed = "warm-seed"
	}
	out, _, err := Run(context.Background(), in.st, req)
	var r Reply
	if err == nil {
		require.NoError(t, json.Unmarshal(out, &r))
	}
	return r, err
}

// pigState reads the game as a client would.
func (in *warmInstance) pigState(t testing.TB, id string) (pig.Game, int64) {
	t.Helper()
	var g pig.Game
	v, err := in.st.GameState(context.Background(), id, &g)
	require.NoError(t, err)
	return g, v
}

// play makes n moves of whoever's turn it is through in.
func (in *warmInstance) play(t *testing.T, id string, n int) {
	t.Helper()
	for range n {
		g, _ := in.pigState(t, id)
		require.False(t, g.Over)
		_, err := in.run(t, mover(g), id, "play-"+NewID(), "roll", nil)
		require.NoError(t, err)
	}
}

// warmCopy reports whether in's next action on game id would take its copy.
func (in *warmInstance) warmCopy(id string) bool {
	_, _, ok := in.st.warm.get(colGames + "/" + id)
	return ok
}

var (
	warmAnn = domain.Actor{ID: "p-ann", Name: "Ann", Role: domain.RoleGuest}
	warmBob = domain.Actor{ID: "p-bob", Name: "Bob", Role: domain.RoleGuest}
)

func (in *warmInstance) newGame(t testing.TB) string {
	t.Helper()
	r, err := in.run(t, warmAnn, "", NewID(), domain.ActionCreate, nil)
	require.NoError(t, err)
	_, err = in.run(t, warmBob, r.GameID, "join", "join", nil)
	require.NoError(t, err)
	return r.GameID
}

// warmOnOne is two instances of one project and a game the first played
// two moves of, so it holds the game's copy.
func warmOnOne(t *testing.T) (f *warmFixture, a, b *warmInstance, id string) {
	t.Helper()
	f = newWarmFixture(t)
	a, b = f.instance(t), f.instance(t)
	id = a.newGame(t)
	a.play(t, id, 2)
	require.True(t, a.warmCopy(id))
	return f, a, b, id
}

// mover is whoever's turn it is in g.
func mover(g pig.Game) domain.Actor {
	if g.Players[g.Current] == warmAnn.ID {
		return warmAnn
	}
	return warmBob
}

// TestWarmCopyIsWhatAReadReturns plays a whole timed Pig game on one
// instance: after every action the copy it keeps is the document a read
// returns, to the field and the update time, and every action after the
// first reads nothing.
func TestWarmCopyIsWhatAReadReturns(t *testing.T) {
	f := newWarmFixture(t)
	in := f.instance(t)
	id := in.newGame(t)
	ctx := context.Background()
	g, _ := in.pigState(t, id)
	seen := map[string]bool{} // action types run once: the first of a type reads
	for i := 0; !g.Over; i++ {
		require.Less(t, i, 400, "the game should have ended")
		typ := "roll"
		if g.TurnTotal >= 12 {
			typ = "hold"
		}
		reads, _ := in.cnt.Counts()
		_, err := in.run(t, mover(g), id, "a"+string(rune('a'+i%26))+NewID()[:6], typ, nil)
		require.NoError(t, err)
		after, _ := in.cnt.Counts()
		snap, err := in.fs.Collection(colGames).Doc(id).Get(ctx)
		require.NoError(t, err)
		in.st.warm.mu.Lock()
		kept, ok := in.st.warm.m[colGames+"/"+id]
		in.st.warm.mu.Unlock()
		require.True(t, ok, "a copy is kept after action %d", i)
		require.Equal(t, snap.Data(), kept.data, "the copy after action %d is the stored document", i)
		require.True(t, snap.UpdateTime.Equal(kept.updated), "the copy's update time after action %d: got %v, want %v", i, kept.updated, snap.UpdateTime)
		g, _ = in.pigState(t, id)
		if !g.Over && seen[typ] { // the last one writes the players' stats, which it reads
			require.Equal(t, int64(0), after-reads, "action %d (%s) took the warm copy: no read", i, typ)
		}
		seen[typ] = true
	}
}

// TestWarmCopyGoneStale: another instance moved the game on. The stale copy
// neither refuses a move the game now allows, nor writes over the newer
// document, nor answers a stale ExpectVersion; and an instance whose copies
// keep going stale stops taking them.
func TestWarmCopyGoneStale(t *testing.T) {
	f := newWarmFixture(t)
	a, b := f.instance(t), f.instance(t)
	id := a.newGame(t)

	// a keeps the game at Ann's turn; b makes it Bob's.
	_, err := a.run(t, warmAnn, id, "ann-1", "roll", nil)
	require.NoError(t, err)
	g, v := a.pigState(t, id)
	for mover(g) == warmAnn {
		_, err = b.run(t, warmAnn, id, "ann-hold", "hold", nil)
		require.NoError(t, err)
		g, v = b.pigState(t, id)
	}

	t.Run("a move the copy would refuse", func(t *testing.T) {
		reads, _ := a.cnt.Counts()
		r, err := a.run(t, warmBob, id, "bob-1", "roll", nil)
		require.NoError(t, err, "Bob's turn now, whatever a's copy says")
		after, _ := a.cnt.Counts()
		require.Equal(t, int64(1), after-reads, "the refusal was checked on a fresh read")
		require.Equal(t, v+1, r.Version)
		v = r.Version
	})

	t.Run("a write over a newer document", func(t *testing.T) {
		a.play(t, id, 2) // a reads the game once, then takes its copy
		require.True(t, a.warmCopy(id), "nobody else wrote: a's copy is taken")
		// Someone else writes the game document (as an effect might): the
		// move a's copy allows is still allowed, but its commit must not
		// write over the newer document.
		touches := 0
		touch := func() { // a write that changes the document (one that does not keeps its update time)
			touches++
			_, err := b.fs.Collection(colGames).Doc(id).Update(context.Background(), []firestore.Update{{Path: "touched", Value: touches}})
			require.NoError(t, err)
		}
		touch()
		g, v = b.pigState(t, id)
		refused := a.cnt.Refused.Load()
		r, err := a.run(t, mover(g), id, "a-roll", "roll", nil)
		require.NoError(t, err)
		require.Equal(t, v+1, r.Version, "applied on top of b's move")
		require.Equal(t, refused+1, a.cnt.Refused.Load(), "the stale copy's commit was refused, once")
		doc, err := a.st.GameDoc(context.Background(), id)
		require.NoError(t, err)
		require.Equal(t, int64(1), doc["touched"], "the other write is kept")
		require.False(t, a.warmCopy(id), "the game is cold: someone else writes it")

		touch()
		g, _ = b.pigState(t, id)
		reads, _ := a.cnt.Counts()
		_, err = a.run(t, mover(g), id, "a-roll-cold", "roll", nil)
		require.NoError(t, err)
		after, _ := a.cnt.Counts()
		require.Equal(t, refused+1, a.cnt.Refused.Load(), "a cold game is read, not guessed at")
		require.Equal(t, int64(1), after-reads)
		require.False(t, a.warmCopy(id), "that read found a's copy stale again")
	})

	t.Run("a cold game warms up when nobody else writes", func(t *testing.T) {
		a.play(t, id, 1)
		require.True(t, a.warmCopy(id), "the read found the copy a kept current")
		g, _ := b.pigState(t, id)
		reads, _ := a.cnt.Counts()
		_, err := a.run(t, mover(g), id, "a-warm-again", "roll", nil)
		require.NoError(t, err)
		after, _ := a.cnt.Counts()
		require.Equal(t, int64(0), after-reads, "the move took the copy")
		_, v = a.pigState(t, id)
	})

	t.Run("a version only a fresh read knows", func(t *testing.T) {
		g, _ := b.pigState(t, id)
		_, err := b.run(t, mover(g), id, "b-roll", "roll", nil)
		require.NoError(t, err)
		g, v = b.pigState(t, id)
		r, err := a.run(t, mover(g), id, "a-roll-2", "roll", &v)
		require.NoError(t, err, "the copy's version is stale, the document's is %d", v)
		require.Equal(t, v+1, r.Version)
		stale := v - 1
		_, err = a.run(t, mover(g), id, "a-roll-3", "roll", &stale)
		require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	})

	t.Run("copies that keep going stale are not taken", func(t *testing.T) {
		// Each action alternates instances: every copy a takes is stale.
		for i := range 8 {
			g, _ := b.pigState(t, id)
			if g.Over {
				break
			}
			_, err := b.run(t, mover(g), id, "b-alt-"+string(rune('a'+i)), "roll", nil)
			require.NoError(t, err)
			g, _ = b.pigState(t, id)
			if g.Over {
				break
			}
			refused := a.cnt.Refused.Load()
			_, err = a.run(t, mover(g), id, "a-alt-"+string(rune('a'+i)), "roll", nil)
			require.NoError(t, err)
			if i >= 4 {
				require.Equal(t, refused, a.cnt.Refused.Load(), "run %d: a reads first, no commit refused", i)
			}
		}
		require.True(t, countsOf[warmOdds](&a.st.warmOdds, pig.Kind+"/roll").stale.mostly(), "most of a's copies were stale")
	})
}

// TestWarmOddsWorth: a type takes copies once a run of it wrote the game
// document, and while most of its runs do and most of its copies were
// current.
func TestWarmOddsWorth(t *testing.T) {
	tests := []struct {
		name             string
		unguarded, stale []bool
		want             bool
	}{
		{"no run yet", nil, nil, false},
		{"a run wrote the game", []bool{false}, nil, true},
		{"its runs write elsewhere", []bool{true, true, false}, nil, false},
		{"a refusal now and then", []bool{false, false, true}, nil, true},
		{"most copies were stale", []bool{false}, []bool{true, true, false}, false},
		{"a stale copy now and then", []bool{false}, []bool{false, true, false}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var o warmOdds
			for _, u := range tc.unguarded {
				o.unguarded.note(u)
			}
			for _, s := range tc.stale {
				o.stale.note(s)
			}
			if got := o.worth(); got != tc.want {
				t.Fatalf("worth() = %v, want %v", got, tc.want)
			}
		})
	}
}

// BenchmarkWarmRoll times a Pig roll through the store on the emulator: on
// one instance (its copy of the game warm), through two instances in turn
// (each copy stale: a game whose players reach two instances), and on one
// instance reading the game every time (the game kept cold: the pipeline
// before warm copies). It reports reads, writes and refused commits per
// roll, and the roll's time against a bare read-write transaction timed
// on the same emulator just before (x-bare).
func BenchmarkWarmRoll(b *testing.B) {
	for _, tc := range []struct {
		name      string
		instances int
		cold      bool
	}{
		{"one instance", 1, false},
		{"two instances in turn", 2, false},
		{"read every time", 1, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			f := newWarmFixture(b)
			var ins []*warmInstance
			for range tc.instances {
				ins = append(ins, f.instance(b))
			}
			id := ins[0].newGame(b)
			bare := bareTransaction(b, ins[0].fs, 200)
			path := colGames + "/" + id
			var reads, writes, refused int64
			count := func(sign int64) {
				for _, in := range ins {
					r, w := in.cnt.Counts()
					reads, writes, refused = reads+sign*r, writes+sign*w, refused+sign*in.cnt.Refused.Load()
				}
			}
			g, _ := ins[0].pigState(b, id)
			who := mover(g)
			b.ResetTimer()
			count(-1)
			for i := 0; i < b.N; i++ {
				in := ins[i%len(ins)]
				if tc.cold {
					in.st.warm.stale(path)
				}
				r, err := in.run(b, who, id, "r"+NewID(), "roll", nil)
				if err != nil {
					b.Fatal(err)
				}
				// A roll of 1 passes the turn: the next roll is the other's.
				if m, ok := r.Result.(map[string]any); ok && m["turnTotal"] == float64(0) {
					who = map[string]domain.Actor{warmAnn.ID: warmBob, warmBob.ID: warmAnn}[who.ID]
				}
			}
			b.StopTimer()
			count(1)
			n := float64(b.N)
			b.ReportMetric(float64(reads)/n, "reads/op")
			b.ReportMetric(float64(writes)/n, "writes/op")
			b.ReportMetric(float64(refused)/n, "refused/op")
			b.ReportMetric(float64(b.Elapsed())/n/float64(bare), "x-bare")
		})
	}
}

// bareTransaction is the mean time of n bare transactions on one small
// document of fs's project (a benchmark's ns/op is a mean too).
func bareTransaction(t testing.TB, fs *firestore.Client, n int) time.Duration {
	t.Helper()
	d, err := fsemu.BareTransactions(context.Background(), fs, fs.Collection("bench").Doc("bare"), n, 0)
	if err != nil {
		t.Fatal(err)
	}
	var total time.Duration
	for _, x := range d {
		total += x
	}
	return total / time.Duration(len(d))
}

// TestWarmCopyOfADeletedGame: an operator deletes a game an instance holds
// warm; the next action on it is told the game is not there (404), as a
// read would have told it, not an internal error.
func TestWarmCopyOfADeletedGame(t *testing.T) {
	f := newWarmFixture(t)
	a := f.instance(t)
	id := a.newGame(t)
	a.play(t, id, 2)
	require.True(t, a.warmCopy(id))
	g, _ := a.pigState(t, id)
	_, err := a.fs.Collection(colGames).Doc(id).Delete(context.Background())
	require.NoError(t, err)
	refused := a.cnt.Refused.Load()
	_, err = a.run(t, mover(g), id, "after-delete", "roll", nil) // a move the copy allows
	require.Equal(t, refused+1, a.cnt.Refused.Load(), "the copy's commit was refused")
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err), "got %v", err)
}

// TestWarmCopyAndTheTickElsewhere: the turn timer runs out while an
// instance holds the game warm, and the tick applies the timeout on another
// instance. The next move through the first applies on the tick's result:
// one timeout step, not two, and the turn where the timeout left it.
func TestWarmCopyAndTheTickElsewhere(t *testing.T) {
	f, a, tick, id := warmOnOne(t)
	g, v := a.pigState(t, id)
	late := mover(g)

	f.now = f.now.Add(31 * time.Second) // past the 30 s turn timer
	steps, err := Advance(context.Background(), tick.st, pig.Kind, id)
	require.NoError(t, err)
	require.Equal(t, 1, steps, "the tick applied the timeout")
	after, _ := tick.pigState(t, id)
	require.NotEqual(t, late.ID, mover(after).ID, "the timeout passed the turn")

	// The move the copy would take for the late player's is refused on the
	// game as it is; the other player's applies on top of the timeout.
	_, err = a.run(t, late, id, "late", "roll", nil)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "got %v", err)
	r, err := a.run(t, mover(after), id, "next", "roll", nil)
	require.NoError(t, err)
	require.Equal(t, v+2, r.Version, "the timeout's version, then this move's")
	events, err := a.st.Events(context.Background(), id)
	require.NoError(t, err)
	timeouts := 0
	for _, e := range events {
		for _, ev := range e.Events {
			if ev.Type == pig.EventTimeout {
				timeouts++
			}
		}
	}
	require.Equal(t, 1, timeouts, "the timeout applied once")
}

// TestAfterCommitDeletesAField: an update that deletes a field (a game made
// private takes its room code off, gameFields) keeps the copy, without it.
func TestAfterCommitDeletesAField(t *testing.T) {
	got, ok := afterCommit(map[string]any{fRoomCode: "ABC234", fStatus: "waiting"}, nil,
		[]firestore.Update{{Path: fRoomCode, Value: firestore.Delete}, {Path: fStatus, Value: "active"}})
	require.True(t, ok, "the copy is kept")
	require.Equal(t, map[string]any{fStatus: "active"}, got)
	_, ok = afterCommit(map[string]any{}, nil, []firestore.Update{{Path: fUpdatedAt, Value: firestore.ServerTimestamp}})
	require.False(t, ok, "another sentinel: no copy")
}

// TestWarmCopyAnswersAskedCalls: a call that writes nothing (legal), sent
// with the version the caller shows, is answered from the instance's copy
// at that version without a read, the same answer a fresh read gives;
// without a version it reads the game as before; asked at a version the
// copy does not have, it reads, and is refused as stale when the game has
// moved past it.
func TestWarmCopyAnswersAskedCalls(t *testing.T) {
	_, a, b, id := warmOnOne(t)
	g, v := a.pigState(t, id)
	legal := func(in *warmInstance, expect *int64) (Reply, int64, error) {
		t.Helper()
		reads, _ := in.cnt.Counts()
		r, err := in.run(t, mover(g), id, "legal-"+NewID(), domain.ActionLegal, expect)
		after, _ := in.cnt.Counts()
		return r, after - reads, err
	}

	fromCopy, reads, err := legal(a, &v)
	require.NoError(t, err)
	require.Zero(t, reads, "asked at the copy's version: no read")
	fresh, _, err := legal(b, &v)
	require.NoError(t, err)
	require.Equal(t, fresh.Result, fromCopy.Result, "the copy's answer is a fresh read's")
	_, reads, err = legal(a, nil)
	require.NoError(t, err)
	require.Equal(t, int64(1), reads, "without a version: a read, as before")

	// b moves the game on; a's copy stays at v.
	_, err = b.run(t, mover(g), id, "b-roll", "roll", nil)
	require.NoError(t, err)
	g, next := b.pigState(t, id)
	r, reads, err := legal(a, &next)
	require.NoError(t, err, "asked at the version a caller sees, past a's copy")
	require.Equal(t, int64(1), reads, "a's copy does not have it: a read")
	want, _, err := legal(b, &next)
	require.NoError(t, err)
	require.Equal(t, want.Result, r.Result)
	_, _, err = legal(a, &v)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "asked at a version the game has left: %v", err)
}

// TestOwnJournalCopyIsWhatAReadReturns: a player's own journal document (a
// Hex & Dice player's orders document, in a game from before the orders
// were sealed: ownJournalGame) kept warm by the instance that wrote it is,
// after every draft, the document a read returns, to the field and the
// update time: orders that gain and lose a buy, records appended, the list
// moved and started again.
func TestOwnJournalCopyIsWhatAReadReturns(t *testing.T) {
	f := newWarmFixture(t)
	in := f.instanceOf(t, domain.Registry{{Game: ownJournalGame{hexdice.NewPlatformGame()}, Function: "HexDice"}})
	ctx := context.Background()
	do := func(who domain.Actor, gameID, id, typ, payload string) Reply {
		t.Helper()
		req := Request{Kind: hexdice.Kind, GameID: gameID, Action: domain.Action{ID: id, Type: typ, Actor: who, Payload: json.RawMessage(payload)}}
		if typ == domain.ActionCreate {
			req.Seed = "own-journal"
		}
		out, _, err := Run(ctx, in.st, req)
		require.NoError(t, err, "%s %s", typ, id)
		var r Reply
		require.NoError(t, json.Unmarshal(out, &r))
		return r
	}
	id := do(warmAnn, "", "c", domain.ActionCreate, `{"size":"small","mode":"simultaneous","mapSeed":"s1"}`).GameID
	do(warmBob, id, "j", hexdice.ActionJoin, `{}`)
	var g hexdice.Game
	_, err := in.st.GameState(ctx, id, &g)
	require.NoError(t, err)
	m, err := hexdice.Rules{}.MapOf(g)
	require.NoError(t, err)
	buy := hexdice.BuyOptions(g, m, 0)[0].Hex
	path := colGames + "/" + id + "/orders/" + warmAnn.ID
	drafts, replies := map[string]string{}, map[string]Reply{}
	for i := range JournalKeep + 4 {
		orders := `{"orders":{},"submit":false}`
		if i%2 == 0 {
			orders = fmt.Sprintf(`{"orders":{"buys":[{"unit":"marine","q":%d,"r":%d}]},"submit":false}`, buy.Q, buy.R)
		}
		key := fmt.Sprint("d", i)
		drafts[key], replies[key] = orders, do(warmAnn, id, key, hexdice.ActionOrders, orders)
		copied, updated, ok := in.st.warm.get(path)
		require.True(t, ok, "draft %d: the instance keeps the orders", i)
		snap, err := in.fs.Doc(path).Get(ctx)
		require.NoError(t, err)
		require.Equal(t, snap.Data(), copied, "draft %d: the copy is the document", i)
		require.True(t, snap.UpdateTime.Equal(updated), "draft %d: and its update time", i)
	}

	// Retries: the latest draft's record waits in the journal (its first
	// reply); the first draft's has moved (409, nothing applied); a reused
	// id with another request is refused.
	retry := func(key, payload string) (json.RawMessage, error) {
		out, _, err := Run(ctx, in.st, Request{Kind: hexdice.Kind, GameID: id, Action: domain.Action{ID: key, Type: hexdice.ActionOrders, Actor: warmAnn, Payload: json.RawMessage(payload)}})
		return out, err
	}
	last := fmt.Sprint("d", JournalKeep+3)
	out, err := retry(last, drafts[last])
	require.NoError(t, err)
	var again Reply
	require.NoError(t, json.Unmarshal(out, &again))
	require.Equal(t, replies[last], again, "a waiting record's retry gets its first reply")
	_, err = retry("d0", drafts["d0"])
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "a moved record's retry: %v", err)
	_, err = retry(last, `{"orders":{"troops":[]},"submit":true}`)
	require.Equal(t, domain.EEXISTS, domain.ErrorCode(err), "another request under its id: %v", err)
}

// ownJournalGame is Hex & Dice as it was before its orders were sealed in
// the game document: an orders draft also writes the player's own orders
// document, the slot's journal, which it reads first as a snapshot. No game
// keeps a player's own journal since; the store still does, for the
// records waiting in those games' orders documents.
type ownJournalGame struct{ hexdice.PlatformGame }

func (g ownJournalGame) Run(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	own := domain.Doc(hexdice.SlotOrders, a.Actor.ID)
	if a.Type == hexdice.ActionOrders && !d.Asked(own) {
		return domain.Change{}, domain.Need(domain.Read{DocID: own, Snapshot: true})
	}
	ch, err := g.PlatformGame.Run(d, a, env)
	if err != nil {
		return ch, err
	}
	if res, ok := ch.Result.(hexdice.OrdersResult); ok && !res.Resolved {
		ch.Writes = append(ch.Writes, domain.Write{DocID: own, Value: res.Orders})
	}
	return ch, nil
}
