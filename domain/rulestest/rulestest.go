// Package rulestest is the conformance kit every game runs through, in the
// manner of go-cloud's drivertest: one suite a game fills in with how to
// start a game and who plays it, and which checks what the platform relies
// on of any game's rules:
//
//   - purity: Run (Apply, Expire) never changes what it is given;
//   - a refusal changes nothing and is a *domain.Error, never a panic;
//   - every move Legal lists is accepted;
//   - header consistency: an over game has no deadline, its players are set;
//   - expiry as of the deadline: applying a passed deadline late gives the
//     same result as applying it on time;
//   - documents round-trip through JSON exactly and are written only to
//     declared slots;
//   - replay: the same seed and moves give the same documents;
//   - every event says itself in words (Event.Text, domain.Sayer).
//
// It plays through World, an in-memory store that runs a domain.Game the way
// the Firestore store does (Plan, reads, NeedDocs, Run, writes), so a game is
// checked without Firestore; the store's own tests check that the Firestore
// store honours the same contract.
package rulestest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// World is an in-memory deployment of one game: its documents, a seed and a
// clock.
type World struct {
	Game  domain.Game
	Seed  string
	Now   time.Time
	Docs  map[domain.DocID]json.RawMessage // the game's documents, the game document included
	Games string                           // the id of the game being played
	slots map[string]domain.Slot
	steps int
}

// NewWorld returns an empty world for g.
func NewWorld(g domain.Game, seed string, now time.Time) *World {
	w := &World{Game: g, Seed: seed, Now: now, Docs: map[domain.DocID]json.RawMessage{}, slots: map[string]domain.Slot{}}
	for _, s := range g.Slots() {
		w.slots[s.Name] = s
	}
	return w
}

// Clone copies the world (documents are immutable JSON).
func (w *World) Clone() *World {
	c := *w
	c.Docs = make(map[domain.DocID]json.RawMessage, len(w.Docs))
	for k, v := range w.Docs {
		c.Docs[k] = v
	}
	return &c
}

// Do runs action a as the platform would: Plan, read, Run (again while it
// needs documents), write. A create makes the world's game (its id is
// "game"). It returns the change, or the game's error with the world
// unchanged.
func (w *World) Do(a domain.Action) (domain.Change, error) {
	if a.Payload == nil {
		a.Payload = json.RawMessage("{}")
	}
	plan, err := w.Game.Plan(a)
	if err != nil {
		return domain.Change{}, err
	}
	if plan.Scope == domain.ScopeCreate && w.Games == "" {
		w.Games = "game"
	}
	a.GameID = w.Games
	d := domain.NewDocs()
	env := domain.Env{Now: w.Now, DiceAt: func(seq int64) domain.Dice { return domain.NewSeededDice(w.Seed, seq) }, Seal: domain.NewSeededSealer(w.Seed)}
	if plan.Scope == domain.ScopeCreate {
		env.New = &domain.Created{GameID: w.Games, RoomCode: "ROOM42", SeedHash: domain.SeedHash(w.Seed)}
	}
	reads := plan.Reads
	for round := 0; ; round++ {
		for _, r := range reads {
			if err := w.check(r.DocID, r.All); err != nil {
				return domain.Change{}, err
			}
			if r.All {
				found := map[string]json.RawMessage{}
				for id, raw := range w.Docs {
					if id.Slot == r.Slot {
						found[id.Key] = raw
					}
				}
				d.PutAll(r.Slot, found)
				continue
			}
			d.Put(r.DocID, w.Docs[r.DocID])
		}
		ch, err := w.Game.Run(d, a, env)
		var need *domain.NeedDocs
		if ne, ok := err.(*domain.NeedDocs); ok && round < 8 {
			need = ne
			reads = need.Reads
			continue
		}
		if err != nil {
			return domain.Change{}, err
		}
		return ch, w.apply(ch)
	}
}

// check refuses reads of undeclared slots.
func (w *World) check(id domain.DocID, all bool) error {
	if id.Slot == domain.SlotGame {
		return nil
	}
	s, ok := w.slots[id.Slot]
	if !ok {
		return fmt.Errorf("rulestest: slot %q is not declared", id.Slot)
	}
	if all && !strings.HasSuffix(s.Path, "/{key}") {
		return fmt.Errorf("rulestest: slot %q is read whole but is not keyed", id.Slot)
	}
	return nil
}

// apply writes a change's documents.
func (w *World) apply(ch domain.Change) error {
	next := map[domain.DocID]json.RawMessage{}
	for _, wr := range ch.Writes {
		if err := w.check(wr.DocID, false); err != nil {
			return err
		}
		if _, exists := w.Docs[wr.DocID]; wr.Create && exists {
			return domain.Errorf(domain.EEXISTS, "%s/%s exists", wr.Slot, wr.Key)
		}
		if wr.Delete {
			next[wr.DocID] = nil
			continue
		}
		raw, err := json.Marshal(wr.Value)
		if err != nil {
			return fmt.Errorf("rulestest: %s/%s does not marshal: %v", wr.Slot, wr.Key, err)
		}
		if wr.DocID == domain.GameDocID {
			h := domain.Header{}
			if wr.Header != nil {
				h = *wr.Header
			}
			doc := map[string]any{"kind": w.Game.Kind(), "version": wr.Version, "status": h.Status,
				"players": h.Players, "state": json.RawMessage(raw), "deadline": h.Deadline, "secretActs": h.Secret}
			if wr.Sealed != "" {
				doc["sealed"] = wr.Sealed // a hidden game's whole state (domain.ReadFull opens it)
			}
			raw, _ = json.Marshal(doc)
		}
		next[wr.DocID] = raw
	}
	for id, raw := range next {
		if raw == nil {
			delete(w.Docs, id)
		} else {
			w.Docs[id] = raw
		}
	}
	w.steps += len(ch.Steps)
	return nil
}

// Header is the game document's header as last written.
func (w *World) Header() (status domain.Status, deadline time.Time, version int64) {
	var g struct {
		Status   domain.Status `json:"status"`
		Deadline time.Time     `json:"deadline"`
		Version  int64         `json:"version"`
	}
	_ = json.Unmarshal(w.Docs[domain.GameDocID], &g)
	return g.Status, g.Deadline, g.Version
}

// Legal asks the game what actor may do now (ActionLegal); nil if the game
// lists nothing.
func (w *World) Legal(actor domain.Actor) []domain.Move {
	c := w.Clone()
	ch, err := c.Do(domain.Action{ID: "legal", Type: domain.ActionLegal, Actor: actor})
	if err != nil {
		return nil
	}
	b, _ := json.Marshal(ch.Result)
	var r struct{ Moves []domain.Move }
	_ = json.Unmarshal(b, &r)
	return r.Moves
}

// Kit describes a game to the conformance suite.
type Kit struct {
	Game domain.Game
	// Setup makes a game in w (through its actions) and returns the actors
	// who play it. It is called with fresh worlds of the same seed, and must
	// do the same each time.
	Setup func(t testing.TB, w *World) []domain.Actor
	// Games is how many random games to play (default 20); Steps bounds each
	// (default 2000): a game that has not ended by then is stopped, which is
	// fine for games that never end by themselves.
	Games, Steps int
	// Bad are actions every state must refuse (a malformed payload, an
	// unknown type); they are tried at random moments.
	Bad []domain.Action
	// Tick is the most the clock advances between actions (default 5 s).
	Tick time.Duration
	// Rare are move types picked only once in 50 when others are listed
	// (forfeit, surrender), so random games last.
	Rare []string
	// State is a zero value of the game document's state type: the state
	// must round-trip through JSON exactly.
	State any
	// Actions are the game's documented actions (its ActionDocs; taken
	// from Game when it implements domain.ActionDocer, for kits that wrap
	// it). Every played action must be among them and decode exactly the
	// documented fields.
	Actions []domain.ActionDoc
	// Probe are actions legal right after Setup that the random games may
	// not play (a heartbeat, an emote): each is sent with an unknown field
	// like the played moves.
	Probe []domain.Action
}

// Run plays k.Games random games with legal moves and checks the contract
// after every action.
func Run(t *testing.T, k Kit) {
	t.Helper()
	games, steps := k.Games, k.Steps
	if games == 0 {
		games = 20
	}
	if steps == 0 {
		steps = 2000
	}
	if d, ok := k.Game.(domain.ActionDocer); ok && k.Actions == nil {
		k.Actions = d.ActionDocs()
	}
	if len(k.Actions) == 0 {
		t.Fatalf("%s does not document its actions: implement domain.ActionDocer or give the kit Actions", k.Game.Kind())
	}
	tick := k.Tick
	if tick == 0 {
		tick = 5 * time.Second
	}
	recordSlots(t, k.Game)
	packedSlots(t, k.Game)
	for i := range games {
		seed := fmt.Sprintf("conformance-%d", i)
		t.Run(seed, func(t *testing.T) {
			start := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
			w := NewWorld(k.Game, seed, start)
			actors := k.Setup(t, w)
			for _, p := range k.Probe {
				if p.Payload == nil {
					p.Payload = json.RawMessage("{}")
				}
				documentedFields(t, k.Actions, w, p)
			}
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			var played []step
			for n := 0; n < steps; n++ {
				status, deadline, _ := w.Header()
				if status == domain.StatusOver {
					if !deadline.IsZero() {
						t.Fatalf("an over game has a deadline %s", deadline)
					}
					break
				}
				w.Now = w.Now.Add(time.Duration(rng.Int64N(int64(tick))))
				if len(k.Bad) > 0 && rng.IntN(10) == 0 {
					bad := k.Bad[rng.IntN(len(k.Bad))]
					bad.Actor = actors[rng.IntN(len(actors))]
					refused(t, w, bad)
				}
				var a domain.Action
				type cand struct {
					who domain.Actor
					mv  domain.Move
				}
				var common, rare []cand
				for _, who := range actors {
					for _, mv := range w.Legal(who) {
						if slices.Contains(k.Rare, mv.Type) {
							rare = append(rare, cand{who, mv})
						} else {
							common = append(common, cand{who, mv})
						}
					}
				}
				pool := common
				if len(rare) > 0 && (len(common) == 0 || rng.IntN(50) == 0) {
					pool = rare
				}
				if len(pool) > 0 {
					c := pool[rng.IntN(len(pool))]
					a = domain.Action{ID: fmt.Sprint("a", n), Type: c.mv.Type, Actor: c.who, Payload: Body(c.mv, w.Games, fmt.Sprint("a", n))}
				}
				if a.Type == "" {
					if deadline.IsZero() {
						break // nobody can act and nothing is due: the game is stuck or waits for outsiders
					}
					w.Now = deadline.Add(time.Second)
					a = domain.Action{ID: fmt.Sprint("a", n), Type: domain.ActionAdvance, Actor: domain.System}
				}
				if !deadline.IsZero() && !w.Now.Before(deadline) {
					asOfDeadline(t, w)
				}
				before := w.Clone()
				if a.Type != domain.ActionAdvance {
					documentedFields(t, k.Actions, before, a)
				}
				ch, err := w.Do(a)
				if err != nil {
					t.Fatalf("listed move %s %s by %s refused: %v", a.Type, a.Payload, a.Actor.ID, err)
				}
				said(t, ch)
				roundTrips(t, k.Game, w, before)
				if k.State != nil {
					stateRoundTrips(t, k.State, w)
				}
				played = append(played, step{a: a, now: w.Now})
			}
			status, _, version := w.Header()
			t.Logf("%d actions, version %d, status %s", len(played), version, status)
			replays(t, k, seed, start, played, w)
		})
	}
}

// documentedFields sends a again, on a copy of w, with a field no action
// takes: the refusal must be EINVALID naming exactly the fields the game's
// ActionDocs give for a.Type — so the API reference lists what the action
// really decodes, and a field is never ignored silently.
func documentedFields(t *testing.T, docs []domain.ActionDoc, w *World, a domain.Action) {
	t.Helper()
	var doc *domain.ActionDoc
	for _, d := range docs {
		if d.Type == a.Type {
			doc = &d
			break
		}
	}
	if doc == nil {
		t.Fatalf("action %s is not in the game's ActionDocs", a.Type)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(a.Payload, &body); err != nil {
		t.Fatalf("payload of %s: %v", a.Type, err)
	}
	body[domain.ProbeField] = json.RawMessage("1")
	probe := a
	probe.Payload, _ = json.Marshal(body)
	_, err := w.Clone().Do(probe)
	if err == nil {
		t.Fatalf("%s accepted an unknown field %s", a.Type, domain.ProbeField)
	}
	if got, want := domain.ErrorMessage(err), domain.ProbeMessage(doc.Payload); domain.ErrorCode(err) != domain.EINVALID || got != want {
		t.Fatalf("%s with an unknown field: got %s %q, want invalid %q (ActionDocs and the decoded struct disagree)", a.Type, domain.ErrorCode(err), got, want)
	}
}

// Body is the request body a client sends for a move: the move's payload
// fields with the envelope's gameId, actionId and type.
func Body(mv domain.Move, gameID, actionID string) json.RawMessage {
	body := map[string]any{"gameId": gameID, "actionId": actionID, "type": mv.Type}
	for k, v := range mv.Payload {
		body[k] = v
	}
	b, _ := json.Marshal(body)
	return b
}

type step struct {
	a   domain.Action
	now time.Time
}

// refused checks that a bad action is refused with a domain error and
// changes nothing.
func refused(t *testing.T, w *World, a domain.Action) {
	t.Helper()
	before := w.Clone()
	_, err := func() (ch domain.Change, err error) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s panicked: %v", a.Type, r)
			}
		}()
		return w.Do(a)
	}()
	var de *domain.Error
	if err == nil {
		t.Fatalf("bad action %s %s was accepted", a.Type, a.Payload)
	}
	if e, ok := err.(*domain.Error); ok {
		de = e
	}
	if de == nil || de.Code == domain.EINTERNAL {
		t.Fatalf("bad action %s: %v is not a caller's error", a.Type, err)
	}
	sameDocs(t, before.Docs, w.Docs, "a refusal changed documents")
}

// asOfDeadline checks that passed deadlines take effect as of their time,
// not the clock's: advancing now and then ten minutes later gives the same
// documents as advancing only ten minutes later.
func asOfDeadline(t *testing.T, w *World) {
	t.Helper()
	stepwise, late := w.Clone(), w.Clone()
	settle(t, stepwise)
	stepwise.Now = stepwise.Now.Add(10 * time.Minute)
	settle(t, stepwise)
	late.Now = late.Now.Add(10 * time.Minute)
	settle(t, late)
	sameDocs(t, stepwise.Docs, late.Docs, "deadlines applied late differ from applied on time")
}

// settle advances w until nothing more is due (one advance applies at most
// domain.MaxExpiries deadlines).
func settle(t *testing.T, w *World) {
	t.Helper()
	for range 1000 {
		_, _, v := w.Header()
		if _, err := w.Do(domain.Action{ID: "adv", Type: domain.ActionAdvance, Actor: domain.System}); err != nil {
			t.Fatalf("advance: %v", err)
		}
		if _, _, after := w.Header(); after == v {
			return
		}
	}
	t.Fatal("deadlines keep coming")
}

// recordSlots checks the slot that keeps action records (domain.Slot.Records):
// at most one, keyed, and readable by no client (a record holds replies and
// payloads).
func recordSlots(t *testing.T, g domain.Game) {
	t.Helper()
	n := 0
	for _, s := range g.Slots() {
		if !s.Records {
			continue
		}
		n++
		if !s.Keyed() || s.Access != domain.ReadNever {
			t.Fatalf("slot %s keeps action records: it must be keyed and domain.ReadNever (it is %q, access %v)", s.Name, s.Path, s.Access)
		}
	}
	if n > 1 {
		t.Fatalf("%s declares %d slots that keep action records; at most one may", g.Kind(), n)
	}
	n, own := 0, 0
	for _, s := range g.Slots() {
		switch {
		case !s.Journal:
			continue
		case s.Keyed() && s.Access == domain.ReadOwner:
			own++ // each player's own journal
		case s.Keyed() || s.Access != domain.ReadNever:
			t.Fatalf("slot %s is a journal: it must be one document, domain.ReadNever, or keyed by player, domain.ReadOwner (it is %q, access %v)", s.Name, s.Path, s.Access)
		default:
			n++
		}
	}
	if n > 1 || own > 1 {
		t.Fatalf("%s declares %d game journal slots and %d players' journal slots; at most one of each may", g.Kind(), n, own)
	}
}

// packedSlots checks domain.Slot.Packed: each name is a top-level JSON field
// of the slot's type, and no type has the platform's field
// domain.PackedField.
func packedSlots(t *testing.T, g domain.Game) {
	t.Helper()
	for _, s := range g.Slots() {
		fields := map[string]bool{} // top level: the paths without a parent
		for _, f := range domain.DescribeFields(s.Type) {
			if !strings.ContainsAny(f.Path, ".[") {
				fields[f.Path] = true
			}
		}
		if fields[domain.PackedField] {
			t.Fatalf("slot %s: its type %T has a field %q, the platform's list of packed fields", s.Name, s.Type, domain.PackedField)
		}
		for _, n := range s.Packed {
			if !fields[n] {
				t.Fatalf("slot %s packs %q, which is not a JSON field of %T", s.Name, n, s.Type)
			}
		}
	}
}

// roundTrips checks that every document the last action wrote decodes into
// its slot's type and marshals back to the same JSON.
func roundTrips(t *testing.T, g domain.Game, w, before *World) {
	t.Helper()
	types := map[string]any{}
	for _, s := range g.Slots() {
		types[s.Name] = s.Type
	}
	for id, raw := range w.Docs {
		if bytes.Equal(raw, before.Docs[id]) {
			continue
		}
		typ := types[id.Slot]
		if id == domain.GameDocID || typ == nil {
			continue
		}
		v := reflect.New(reflect.TypeOf(typ))
		if err := json.Unmarshal(raw, v.Interface()); err != nil {
			t.Fatalf("%s/%s does not decode into %T: %v", id.Slot, id.Key, typ, err)
		}
		again, _ := json.Marshal(v.Elem().Interface())
		if !jsonEqual(raw, again) {
			t.Fatalf("%s/%s does not round-trip through %T:\n%s\n%s", id.Slot, id.Key, typ, raw, again)
		}
	}
}

// stateRoundTrips checks the game document's state against its type.
func stateRoundTrips(t *testing.T, typ any, w *World) {
	t.Helper()
	var g struct {
		State json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(w.Docs[domain.GameDocID], &g); err != nil || g.State == nil {
		return
	}
	v := reflect.New(reflect.TypeOf(typ))
	if err := json.Unmarshal(g.State, v.Interface()); err != nil {
		t.Fatalf("the state does not decode into %T: %v", typ, err)
	}
	again, _ := json.Marshal(v.Elem().Interface())
	if !jsonEqual(g.State, again) {
		t.Fatalf("the state does not round-trip through %T:\n%s\n%s", typ, g.State, again)
	}
}

// replays plays the same actions on a fresh world of the same seed and
// expects the same documents.
func replays(t *testing.T, k Kit, seed string, start time.Time, played []step, want *World) {
	t.Helper()
	w := NewWorld(k.Game, seed, start)
	k.Setup(t, w)
	for _, s := range played {
		w.Now = s.now
		if _, err := w.Do(s.a); err != nil {
			t.Fatalf("replay: %s refused: %v", s.a.Type, err)
		}
	}
	sameDocs(t, want.Docs, w.Docs, "a replay from the seed differs")
}

func sameDocs(t *testing.T, want, got map[domain.DocID]json.RawMessage, msg string) {
	t.Helper()
	var diff []string
	for id, raw := range want {
		if !jsonEqual(raw, got[id]) {
			diff = append(diff, fmt.Sprintf("%s/%s", id.Slot, id.Key))
		}
	}
	for id := range got {
		if _, ok := want[id]; !ok {
			diff = append(diff, fmt.Sprintf("%s/%s (new)", id.Slot, id.Key))
		}
	}
	if len(diff) > 0 {
		sort.Strings(diff)
		t.Fatalf("%s: %v", msg, diff)
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

// Pure checks a rule set's purity on one call: f must leave its input as it
// was (compared as JSON). Use it around Apply and Expire in a game's own
// tests; the kit covers games through documents, which cannot be mutated.
func Pure[S any](t testing.TB, s S, f func(S)) {
	t.Helper()
	before, _ := json.Marshal(s)
	f(s)
	after, _ := json.Marshal(s)
	if !bytes.Equal(before, after) {
		t.Fatalf("the call changed its input:\n%s\n%s", before, after)
	}
}

// PureRules wraps a rule set so that every Apply and Expire checks that it
// left its input as it was (compared as JSON): games built with Single run
// the kit on PureRules(t, rules).
func PureRules[S any](t testing.TB, r domain.Rules[S]) domain.Rules[S] {
	p := pure[S]{t: t, r: r}
	if l, ok := r.(domain.Lister[S]); ok {
		return pureLister[S]{pure: p, l: l}
	}
	return p
}

type pure[S any] struct {
	t testing.TB
	r domain.Rules[S]
}

func (p pure[S]) Kind() string             { return p.r.Kind() }
func (p pure[S]) Header(s S) domain.Header { return p.r.Header(s) }

func (p pure[S]) Apply(s S, a domain.Action, env domain.Env) (out S, o domain.Outcome, err error) {
	Pure(p.t, s, func(s S) { out, o, err = p.r.Apply(s, a, env) })
	if err != nil {
		same, _ := json.Marshal(out)
		orig, _ := json.Marshal(s)
		if !bytes.Equal(same, orig) {
			p.t.Fatalf("%s refused but returned a changed state", a.Type)
		}
	}
	return out, o, err
}

func (p pure[S]) Expire(s S, env domain.Env) (out S, o domain.Outcome, err error) {
	Pure(p.t, s, func(s S) { out, o, err = p.r.Expire(s, env) })
	return out, o, err
}

// Say passes on the wrapped rules' words (domain.Sayer); none when they
// say nothing, which the kit then reports.
func (p pure[S]) Say(s S, e domain.Event) string {
	if sy, ok := p.r.(domain.Sayer[S]); ok {
		return sy.Say(s, e)
	}
	return ""
}

type pureLister[S any] struct {
	pure[S]
	l domain.Lister[S]
}

func (p pureLister[S]) Legal(s S, a domain.Actor) (moves []domain.Move) {
	Pure(p.t, s, func(s S) { moves = p.l.Legal(s, a) })
	return moves
}

// RoundTrip checks that v marshals to JSON and back to the same JSON, as a
// stored state must.
func RoundTrip[S any](t testing.TB, v S) {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%T does not marshal: %v", v, err)
	}
	var back S
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatalf("%T does not unmarshal: %v", v, err)
	}
	if again, _ := json.Marshal(back); !bytes.Equal(raw, again) {
		t.Fatalf("the JSON round trip changed the %T:\n%s\n%s", v, raw, again)
	}
}

// said checks that every event of ch's steps carries its words (Event.Text):
// clients show them, so an event a game forgot to say would show as a bare
// type.
func said(t *testing.T, ch domain.Change) {
	t.Helper()
	for _, st := range ch.Steps {
		for _, e := range st.Events {
			if strings.TrimSpace(e.Text) == "" {
				t.Fatalf("step %s: event %s (data %s) has no text: say it in the game's say.go", st.Type, e.Type, JSON(t, e.Data))
			}
		}
	}
}
