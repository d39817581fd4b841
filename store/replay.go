package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// MaxReplaySteps bounds a replay: a game of more recorded steps is refused
// (ELIMIT), so one replay read costs at most about MaxReplaySteps/FlushEvery
// history batches plus its action records (docs/api.md "replay").
const MaxReplaySteps = 3000

// MaxReplayBytes bounds one replay reply: a longer replay comes in windows
// of whole frames, each reply saying where the next starts (Replay.Next),
// each replaying the game again.
const MaxReplayBytes = 4 << 20

// Replay is a finished game played again from its seed and its recorded
// actions: a frame per action, each with the state it left.
type Replay struct {
	GameID   string `json:"gameId"`
	Kind     string `json:"kind"`
	SeedHash string `json:"seedHash"`
	// Seed is revealed when the game publishes it (every game but Tile Race).
	Seed   string  `json:"seed,omitempty"`
	Frames []Frame `json:"frames"`
	// Verified: the replay's last state equals the stored game's, and every
	// step replayed with the events it recorded. Diverged says where it did
	// not.
	Verified bool   `json:"verified"`
	Diverged string `json:"diverged,omitempty"`
	// From is the index of the first frame of this reply, Total how many
	// frames the replay has, Next where the next window starts (0: none).
	From  int `json:"from"`
	Total int `json:"total"`
	Next  int `json:"next,omitempty"`
}

// Frame is one action (the create first) and the state after it, as the
// caller may see it.
type Frame struct {
	Version int64           `json:"version"`
	At      time.Time       `json:"at"`
	Type    string          `json:"type"`  // the action's type ("create", "advance" for the tick)
	Actor   string          `json:"actor"` // the actor's name
	Steps   []FrameStep     `json:"steps"`
	State   json.RawMessage `json:"state"`
	// Docs are the game's other documents the caller may read (by Slot
	// Access) that this action created or changed, keyed "slot" or
	// "slot/key"; null for one it deleted. A viewer keeps them from frame
	// to frame.
	Docs map[string]json.RawMessage `json:"docs,omitempty"`
}

// FrameStep is one recorded step of a frame's action.
type FrameStep struct {
	Seq    int64           `json:"seq,omitempty"`
	Type   string          `json:"type"`
	Actor  map[string]any  `json:"actor"`
	Events json.RawMessage `json:"events"`
}

// ReplayGame replays finished game gameID of kind for viewer.
//
// Reads: the game document, its private document, every document of its
// events collection (history batches of up to FlushEvery steps, and the
// event records of steps with effects or that version no game) and of its
// actions collection (the records of actions that wrote more than the game
// document) and of the game's records slot, if it has one (record.go), its
// journal and every player's own journal document (journal.go), plus, once, any document outside the game an action read that
// was too large to record (a Party Board board file).
//
// Errors: ENOTFOUND (no such game), ECONFLICT (not finished), ELIMIT (more
// than MaxReplaySteps steps), EINVALID (unknown kind).
func ReplayGame(ctx context.Context, st *Store, kind, gameID string, viewer domain.Actor, from int) (*Replay, error) {
	e, ok := st.Games.Find(kind)
	if !ok {
		return nil, domain.Errorf(domain.EINVALID, "unknown game kind %q", kind)
	}
	if gameID == "" {
		return nil, domain.Errorf(domain.EINVALID, "gameId is required")
	}
	if !validID(gameID) {
		return nil, domain.Errorf(domain.EINVALID, "gameId %s cannot name a game", domain.Quote(gameID))
	}
	gsnap, err := st.gameRef(gameID).Get(ctx)
	if notFound(err) {
		return nil, domain.Errorf(domain.ENOTFOUND, "no %s game %q", kind, gameID)
	}
	if err != nil {
		return nil, err
	}
	game := gsnap.Data()
	if k, _ := game[fKind].(string); k != kind {
		return nil, domain.Errorf(domain.ENOTFOUND, "game %q is a %s game, not %s", gameID, k, kind)
	}
	if s, _ := game[fStatus].(string); s != string(domain.StatusOver) {
		return nil, domain.Errorf(domain.ECONFLICT, "game %q is not finished (it is %s): only a finished game replays", gameID, s)
	}
	psnap, err := st.serverDoc(plainGet(ctx), gameID, roomOfFields(game))
	if err != nil {
		return nil, err
	}
	seed, _ := psnap.Data()["seed"].(string)
	var start replayStart
	if m, ok := psnap.Data()[fReplay].(map[string]any); ok {
		if s, ok := m["start"].(string); ok {
			if err := json.Unmarshal([]byte(s), &start); err != nil {
				return nil, err
			}
		}
	}
	if start.Create == nil && start.State == nil {
		return nil, domain.Errorf(domain.ECONFLICT, "game %q was played before replays were recorded: it cannot replay", gameID)
	}
	esnaps, err := st.gameRef(gameID).Collection(colEvents).Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	steps, err := recordedSteps(esnaps, game)
	if err != nil {
		return nil, err
	}
	if len(steps) > MaxReplaySteps {
		return nil, domain.Errorf(domain.ELIMIT, "game %q has %d steps; a replay is limited to %d", gameID, len(steps), MaxReplaySteps)
	}
	asnaps, err := st.gameRef(gameID).Collection(colActions).Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	inputs := map[string]replayInput{}
	input := func(id string, rec map[string]any) error {
		s, _ := rec[fReplay].(string)
		return addReplayInput(inputs, id, s)
	}
	for _, a := range asnaps {
		if err := input(a.Ref.ID, a.Data()); err != nil {
			return nil, err
		}
		// A batch of records moved from the journal (journal.go).
		if list, ok := a.Data()[fJournal].([]any); ok {
			if err := journalInputs(list, inputs); err != nil {
				return nil, err
			}
		}
	}
	// The records still waiting in the journals.
	sl := st.slotsOf(e.Game)
	if err := st.waitingInputs(ctx, sl, gameID, inputs); err != nil {
		return nil, err
	}
	// An action whose plan keeps its record in its own event record
	// (domain.Plan.RecordInEvent; record.go) has it there.
	for _, d := range esnaps {
		if act, ok := d.Data()[fAct].(map[string]any); ok {
			if err := input(d.Ref.ID, act); err != nil {
				return nil, err
			}
		}
	}
	// A game with a records slot keeps most of its actions' records there
	// (record.go): its documents are read too.
	if sl.records != "" {
		coll, err := sl.collection(gameID, sl.records)
		if err != nil {
			return nil, err
		}
		snaps, err := st.FS.Collection(coll).Documents(ctx).GetAll()
		if err != nil {
			return nil, err
		}
		for _, d := range snaps {
			if act, ok := d.Data()[fAct].(map[string]any); ok {
				if err := input(d.Ref.ID, act); err != nil {
					return nil, err
				}
			}
		}
	}
	stored, err := docJSON(game)
	if err != nil {
		return nil, err
	}
	r := &replayer{st: st, ctx: ctx, e: e, sl: sl, gameID: gameID, seed: seed, mem: map[string]map[string]any{}}
	out := r.play(start, steps, inputs, stored)
	out.Kind = kind
	out.SeedHash, _ = game[fSeedHash].(string)
	if domain.PublishesSeed(e.Game) {
		out.Seed = seed
	}
	return out.view(r, viewer).window(from)
}

// window keeps the frames from index from on, up to MaxReplayBytes of them
// (at least one). A window that starts later than the first frame carries in
// its first frame every document the viewer holds by then.
//
// Errors: EINVALID (from past the last frame).
func (out *Replay) window(from int) (*Replay, error) {
	total := len(out.Frames)
	if from < 0 || (from > 0 && from >= total) {
		return nil, domain.Errorf(domain.EINVALID, "from: the replay has %d frames (0 to %d)", total, total-1)
	}
	out.From, out.Total = from, total
	if from > 0 {
		docs := map[string]json.RawMessage{}
		for _, f := range out.Frames[:from+1] {
			for k, v := range f.Docs {
				if string(v) == "null" {
					delete(docs, k)
				} else {
					docs[k] = v
				}
			}
		}
		if len(docs) > 0 {
			out.Frames[from].Docs = docs
		}
	}
	frames := out.Frames[from:]
	size, n := 0, 0
	for n < len(frames) {
		b, err := json.Marshal(frames[n])
		if err != nil {
			return nil, err
		}
		if n > 0 && size+len(b) > MaxReplayBytes {
			break
		}
		size += len(b)
		n++
	}
	out.Frames = frames[:n]
	if from+n < total {
		out.Next = from + n
	}
	return out, nil
}

// recordedSteps lists a game's recorded steps in the order they happened:
// history batches, event records and the game document's log, each step
// once; by time, then version. Effects' steps are left out (a replay runs
// the effects again).
func recordedSteps(snaps []*firestore.DocumentSnapshot, game map[string]any) ([]logStep, error) {
	var out []logStep
	seen := map[int64]int{} // seq → index in out
	add := func(s logStep) {
		if role, _ := s.Actor["role"].(string); role == string(domain.RoleSystem) && strings.HasPrefix(s.ActionID, "fx-") {
			return // an effect's step (apply.go); a client may name its own action "fx-…"
		}
		if s.Seq > 0 {
			if i, ok := seen[s.Seq]; ok {
				if out[i].P == "" {
					out[i].P = s.P // an event record's step: its payload is in the log's
				}
				if out[i].Roots == "" {
					out[i].Roots = s.Roots // and so are the documents it read
				}
				return
			}
			seen[s.Seq] = len(out)
		}
		out = append(out, s)
	}
	made := map[int]time.Time{} // index in out → its event record's creation
	list := func(v any) error {
		var ls []logStep
		if err := decodeSteps(v, &ls); err != nil {
			return err
		}
		for _, s := range ls {
			add(s)
		}
		return nil
	}
	for _, snap := range snaps {
		data := snap.Data()
		if isBatch(snap.Ref.ID) { // not every id starting with "b" (log.go)
			if err := list(data["steps"]); err != nil {
				return nil, err
			}
			continue
		}
		if v, ok := data["steps"]; ok { // the last batch, in the last record (run.go writeGame)
			if err := list(v); err != nil {
				return nil, err
			}
		}
		var s logStep
		if err := fromFirestore(data, &s); err != nil {
			return nil, err
		}
		n := len(out)
		add(s)
		if len(out) > n {
			made[n] = snap.CreateTime
		}
	}
	if err := list(game[fLog]); err != nil {
		return nil, err
	}
	// By the time each action ran (to the microsecond); steps of the same
	// microsecond by version when both version the game, else by when their
	// event records were committed.
	type keyed struct {
		s    logStep
		made time.Time
	}
	ks := make([]keyed, len(out))
	for i, s := range out {
		ks[i] = keyed{s, made[i]}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		if !a.s.At.Equal(b.s.At) {
			return a.s.At.Before(b.s.At)
		}
		if a.s.Seq > 0 && b.s.Seq > 0 {
			return a.s.Seq < b.s.Seq
		}
		if !a.made.Equal(b.made) {
			return a.made.Before(b.made)
		}
		return a.s.Seq < b.s.Seq
	})
	for i := range ks {
		out[i] = ks[i].s
	}
	return out, nil
}

// replayer plays a game again on documents kept in memory, as the store
// would keep them in Firestore.
type replayer struct {
	st     *Store
	ctx    context.Context
	e      domain.Entry
	sl     *slots
	gameID string
	seed   string
	seal   *domain.SeededSealer      // of seed, made on first use (sealer)
	mem    map[string]map[string]any // path → fields, as Firestore holds them
	// changed: paths written since the last frame.
	changed map[string]bool
}

// play runs the game from its start through every recorded action.
func (r *replayer) play(start replayStart, steps []logStep, inputs map[string]replayInput, stored json.RawMessage) *Replay {
	out := &Replay{GameID: r.gameID, Frames: []Frame{}}
	fail := func(format string, args ...any) *Replay {
		out.Diverged = fmt.Sprintf(format, args...)
		return out
	}
	r.changed = map[string]bool{}
	first, err := r.begin(start)
	if err != nil {
		return fail("the start did not replay: %v", err)
	}
	out.Frames = append(out.Frames, first)
	for i := 0; i < len(steps); {
		j := i + 1
		for j < len(steps) && sameAction(steps[i], steps[j]) {
			j++
		}
		group := steps[i:j]
		f, err := r.action(group, inputs)
		if err != nil {
			return fail("%s at version %d (%s) did not replay: %v", group[len(group)-1].Type, group[len(group)-1].Seq,
				group[0].At.Format(time.RFC3339Nano), err)
		}
		out.Frames = append(out.Frames, f)
		i = j
	}
	got, _ := r.gameField("state")
	want, _ := fieldOf(stored, "state")
	if !sameJSON(got, want) {
		return fail("the replayed final state differs from the stored one (in %s)", differing(got, want))
	}
	gv, _ := r.gameField(fVersion)
	wv, _ := fieldOf(stored, fVersion)
	if !sameJSON(gv, wv) {
		return fail("the replayed game reaches version %s, the stored one %s", gv, wv)
	}
	out.Verified = true
	return out
}

// sameAction reports whether two consecutive recorded steps were made by one
// action: the same action id (a tick's advance has none: the same time), and
// a is a deadline the action applied before its own step (which comes last).
// Two players may use the same action id at the same moment.
func sameAction(a, b logStep) bool {
	if a.ActionID != b.ActionID || a.Type != domain.ActionExpire {
		return false
	}
	return a.ActionID != "" || a.At.Equal(b.At)
}

// begin puts the game as its create (or spawn) made it in memory.
func (r *replayer) begin(start replayStart) (Frame, error) {
	if start.State != nil {
		var h domain.Header
		if start.Header != nil {
			h = *start.Header
		}
		doc, err := newGameDoc(r.e.Kind(), h, start.State, domain.SeedHash(r.seed), "", time.Time{})
		if err != nil {
			return Frame{}, err
		}
		r.put(colGames+"/"+r.gameID, doc)
		return r.frame(0, time.Time{}, "spawn", "", nil)
	}
	c := start.Create
	if c.Big {
		return Frame{}, domain.Errorf(domain.EINVALID, "the create's payload was too large to record")
	}
	r.putRoots(c.Roots)
	a := r.actionOf(*c, domain.ActionCreate)
	env := r.env(c.At)
	env.New = &domain.Created{GameID: r.gameID, RoomCode: c.Room, SeedHash: domain.SeedHash(r.seed)}
	ch, err := r.run(a, env)
	if err != nil {
		return Frame{}, err
	}
	room := ""
	if ch.Room {
		room = c.Room
	}
	if err := r.apply(ch, c.At, room); err != nil {
		return Frame{}, err
	}
	var steps []FrameStep
	if j := start.Join; j != nil {
		// A quick match: the join ran on the game the create made, before
		// it was stored, and both were stored as version 0.
		path := colGames + "/" + r.gameID
		made := r.mem[path]
		r.mem[path] = map[string]any{fKind: made[fKind], fVersion: int64(0), fStatus: made[fStatus], fState: made[fState], domain.PackedField: made[domain.PackedField]}
		ja := r.actionOf(*j, domain.ActionJoin)
		jch, err := r.run(ja, r.env(j.At))
		if err != nil {
			return Frame{}, err
		}
		for i := range jch.Writes {
			if jch.Writes[i].DocID == domain.GameDocID {
				jch.Writes[i].Create, jch.Writes[i].Version = true, 0
			}
		}
		jch.Room = false
		if err := r.apply(jch, j.At, ""); err != nil {
			return Frame{}, err
		}
		steps = append(steps, FrameStep{Type: domain.ActionJoin, Actor: actorMap(j.Actor), Events: json.RawMessage("[]")})
	}
	return r.frame(0, c.At, domain.ActionCreate, c.Actor.Name, append([]FrameStep{{Type: domain.ActionCreate, Actor: actorMap(c.Actor), Events: json.RawMessage("[]")}}, steps...))
}

// actionOf is a recorded input as the action to run; a payload sealed
// while the game was played (domain.Plan.Secret) is opened with its seed.
// One that does not open runs empty, and the replay tells where it
// diverged.
func (r *replayer) actionOf(in replayInput, typ string) domain.Action {
	p := json.RawMessage("{}")
	if in.P != "" {
		p = json.RawMessage(in.P)
	}
	if domain.IsSealed(in.P) {
		p = json.RawMessage("{}")
		if plain, err := r.sealer().Open(domain.PayloadLabel(in.Actor.ID), in.P); err == nil {
			p = plain
		}
	}
	if in.Type != "" {
		typ = in.Type
	}
	return domain.Action{ID: in.ID, Type: typ, Actor: in.Actor, Payload: p, GameID: r.gameID, Secret: in.Secret}
}

// env is the Env of an action run at now: the game's seeded dice.
func (r *replayer) env(now time.Time) domain.Env {
	seed := r.seed
	return domain.Env{Now: now, DiceAt: func(seq int64) domain.Dice { return domain.NewSeededDice(seed, seq) }, Seal: r.sealer()}
}

// sealer is the game's sealer, which opens what its seed sealed.
func (r *replayer) sealer() *domain.SeededSealer {
	if r.seal == nil {
		r.seal = domain.NewSeededSealer(r.seed)
	}
	return r.seal
}

// action replays one recorded action (its steps in group) and returns its
// frame.
func (r *replayer) action(group []logStep, inputs map[string]replayInput) (Frame, error) {
	last := group[len(group)-1]
	at := last.At
	var a domain.Action
	if last.Type == domain.ActionExpire || last.ActionID == "" {
		// Deadlines applied by the tick or a client's advance.
		a = domain.Action{ID: last.ActionID, Type: domain.ActionAdvance, Actor: domain.System, Payload: json.RawMessage("{}"), GameID: r.gameID}
	} else {
		id, _ := last.Actor["id"].(string)
		in, ok := inputs[id+"~"+last.ActionID]
		if !ok {
			in = replayInput{ID: last.ActionID, Type: last.Type, Actor: actorOf(last.Actor), P: last.P, At: at}
			if last.Roots != "" {
				if err := json.Unmarshal([]byte(last.Roots), &in.Roots); err != nil {
					return Frame{}, fmt.Errorf("the documents its step recorded as read: %w", err)
				}
			}
		}
		if in.Big {
			return Frame{}, domain.Errorf(domain.EINVALID, "its payload was too large to record")
		}
		r.putRoots(in.Roots)
		a = r.actionOf(in, last.Type)
	}
	ch, err := r.run(a, r.env(at))
	if err != nil {
		return Frame{}, err
	}
	var fsteps []FrameStep
	if len(ch.Steps) != len(group) {
		return Frame{}, fmt.Errorf("it made %d steps, %d were recorded", len(ch.Steps), len(group))
	}
	for i, s := range ch.Steps {
		rec := group[i]
		got, err := json.Marshal(nonNil(s.Events))
		if err != nil {
			return Frame{}, err
		}
		if s.Type != rec.Type || s.Version != rec.Seq || !sameJSON(got, rec.Events) {
			return Frame{}, fmt.Errorf("step %d made %s (version %d) with events %s; recorded: %s (version %d) with events %s",
				i+1, s.Type, s.Version, got, rec.Type, rec.Seq, rec.Events)
		}
		fsteps = append(fsteps, FrameStep{Seq: rec.Seq, Type: rec.Type, Actor: rec.Actor, Events: rec.Events})
	}
	if err := r.apply(ch, at, ""); err != nil {
		return Frame{}, err
	}
	more, err := r.effects(ch, a.ID, at)
	if err != nil {
		return Frame{}, err
	}
	fsteps = append(fsteps, more...)
	version := int64(0)
	if v, ok := r.mem[colGames+"/"+r.gameID][fVersion].(int64); ok {
		version = v
	}
	name := a.Actor.Name
	return r.frame(version, at, a.Type, name, fsteps)
}

// nonNil is s, or an empty slice for nil (JSON [] rather than null).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func actorOf(m map[string]any) domain.Actor {
	var a domain.Actor
	_ = fromFirestore(m, &a)
	return a
}

// run runs action a on the documents in memory, reading more while the game
// asks (NeedDocs), as the store's transaction does.
func (r *replayer) run(a domain.Action, env domain.Env) (domain.Change, error) {
	plan, err := r.e.Game.Plan(a)
	if err != nil {
		return domain.Change{}, err
	}
	docs := domain.NewDocs()
	return rounds(plan.Reads, func(reads []domain.Read) error { return r.read(docs, reads) },
		func() (domain.Change, error) { return r.e.Game.Run(docs, a, env) })
}

// read fills docs from memory; a document outside the game not in memory
// (a large one not recorded) is read from Firestore, once.
func (r *replayer) read(docs domain.Docs, reads []domain.Read) error {
	for _, rd := range reads {
		if rd.All {
			coll, err := r.sl.collection(r.gameID, rd.Slot)
			if err != nil {
				return err
			}
			type kv struct {
				key   string
				order string
			}
			var found []kv
			for p, doc := range r.mem {
				key, ok := strings.CutPrefix(p, coll+"/")
				if !ok || strings.Contains(key, "/") {
					continue
				}
				o := ""
				if rd.Order != "" {
					o = fmt.Sprint(jsonable(doc[rd.Order]))
				}
				found = append(found, kv{key, o})
			}
			if rd.Newest > 0 && rd.Order != "" {
				sort.Slice(found, func(i, j int) bool { return found[i].order > found[j].order })
				if len(found) > rd.Newest {
					found = found[:rd.Newest]
				}
			}
			m := map[string]json.RawMessage{}
			for _, f := range found {
				j, err := docJSON(r.mem[coll+"/"+f.key])
				if err != nil {
					return err
				}
				m[f.key] = j
			}
			docs.PutAll(rd.Slot, m)
			continue
		}
		p, err := r.sl.path(r.gameID, rd.DocID)
		if err != nil {
			return err
		}
		doc, ok := r.mem[p]
		if !ok && !strings.HasPrefix(p, colGames+"/"+r.gameID) && r.st != nil {
			snap, err := r.st.FS.Doc(p).Get(r.ctx)
			if err != nil && !notFound(err) {
				return err
			}
			if err == nil {
				doc, ok = snap.Data(), true
				r.mem[p] = doc
			}
		}
		if !ok {
			docs.Put(rd.DocID, nil)
			continue
		}
		j, err := docJSON(doc)
		if err != nil {
			return err
		}
		docs.Put(rd.DocID, j)
	}
	return nil
}

// putRoots puts documents outside the game as an action read them.
func (r *replayer) putRoots(roots []rootDoc) {
	for _, rd := range roots {
		p, err := r.sl.path(r.gameID, domain.Doc(rd.Slot, rd.Key))
		if err != nil {
			continue
		}
		if rd.Doc == nil || string(rd.Doc) == "null" {
			delete(r.mem, p)
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(rd.Doc, &m); err != nil {
			continue
		}
		r.mem[p] = m
	}
}

func (r *replayer) put(path string, doc map[string]any) {
	r.mem[path] = doc
	r.changed[path] = true
}

// apply makes a change's writes in memory as the store makes them in
// Firestore (game.go gameFields, docs.go writeDoc).
func (r *replayer) apply(ch domain.Change, now time.Time, room string) error {
	for _, w := range ch.Writes {
		if w.DocID.Slot == domain.SlotOutbox {
			continue // a message to deliver, not the game
		}
		p, err := r.sl.path(r.gameID, w.DocID)
		if err != nil {
			return err
		}
		if w.Delete {
			delete(r.mem, p)
			r.changed[p] = true
			continue
		}
		if w.DocID == domain.GameDocID {
			h := domain.Header{}
			if w.Header != nil {
				h = *w.Header
			}
			var doc map[string]any
			if w.Create {
				if doc, err = newGameDoc(r.e.Kind(), h, w.Value, domain.SeedHash(r.seed), room, now); err != nil {
					return err
				}
			} else {
				ups, err := gameFields(h, w.Value, w.Version, now)
				if err != nil {
					return err
				}
				doc = map[string]any{}
				for k, v := range r.mem[p] {
					doc[k] = v
				}
				for _, u := range ups {
					doc[u.Path] = u.Value
				}
				if h.Status == domain.StatusOver && domain.PublishesSeed(r.e.Game) {
					doc[fSeed] = r.seed
				}
			}
			putSealed(doc, w.Sealed, w.Views)
			r.put(p, doc)
			if err := r.putViews(w.Views, now); err != nil {
				return err
			}
			continue
		}
		doc, err := docFields(w.Value, now, r.sl.byName[w.DocID.Slot].Packed)
		if err != nil {
			return err
		}
		r.put(p, doc)
	}
	return nil
}

// putViews puts each view a game document's write sealed (domain.Write.Views)
// in memory as the view document a game from before the views were sealed
// wrote (domain.SlotView, opened with the replay's seed): a replay shows each
// player their view by the slot's access, as it shows older games.
func (r *replayer) putViews(views map[string]string, now time.Time) error {
	if len(views) == 0 {
		return nil
	}
	s := r.sealer()
	for v, text := range views {
		p, err := r.sl.path(r.gameID, domain.Doc(domain.SlotView, v))
		if err != nil {
			return err
		}
		plain, err := s.Open(domain.ViewLabel(v), text)
		if err != nil {
			return err
		}
		doc, err := docFields(json.RawMessage(plain), now, nil)
		if err != nil {
			return err
		}
		r.put(p, doc)
	}
	return nil
}

// effects runs, on the documents in memory, the game's effect handlers of
// the events the change's steps made (Tile Race's fog frontier),
// as the trigger would; it returns the steps they made.
func (r *replayer) effects(ch domain.Change, actionID string, now time.Time) ([]FrameStep, error) {
	var out []FrameStep
	for _, s := range ch.Steps {
		rec := domain.Record{GameID: r.gameID, ID: recordID(s, actionID), Kind: r.e.Kind(), Type: s.Type, At: now, Actor: s.Actor}
		for _, ev := range s.Events {
			data, err := json.Marshal(ev.Data)
			if err != nil {
				return nil, err
			}
			if ev.Data == nil {
				data = nil
			}
			rec.Events = append(rec.Events, domain.RecordEvent{Type: ev.Type, Player: ev.Player, Data: data})
		}
		seen := map[string]bool{}
		for _, ev := range s.Events {
			if seen[ev.Type] {
				continue
			}
			seen[ev.Type] = true
			for _, h := range r.st.Games.handlersOf(r.e.Kind(), ev.Type) {
				reads, err := h.Reads(rec)
				if err != nil {
					return nil, err
				}
				docs := domain.NewDocs()
				fx, err := rounds(reads, func(reads []domain.Read) error { return r.read(docs, reads) },
					func() (domain.Change, error) { return h.Run(docs, rec, now) })
				if err != nil {
					return nil, err
				}
				if err := r.apply(domain.Change{Writes: fx.Writes}, now, ""); err != nil {
					return nil, err
				}
				for _, fs := range fx.Steps {
					evs, _ := json.Marshal(nonNil(fs.Events))
					out = append(out, FrameStep{Type: fs.Type, Actor: actorMap(fs.Actor), Events: evs})
				}
			}
		}
	}
	return out, nil
}

// frame is the frame of an action that just ran, with every document it
// changed (all of them, filtered for the viewer later).
func (r *replayer) frame(version int64, at time.Time, typ, actor string, steps []FrameStep) (Frame, error) {
	if steps == nil {
		steps = []FrameStep{}
	}
	state, _ := r.gameField("state")
	f := Frame{Version: version, At: at, Type: typ, Actor: actor, Steps: steps, State: state, Docs: map[string]json.RawMessage{}}
	for p := range r.changed {
		if doc, ok := r.mem[p]; ok {
			j, err := docJSON(doc)
			if err != nil {
				return Frame{}, err
			}
			f.Docs[p] = j
		} else {
			f.Docs[p] = json.RawMessage("null")
		}
	}
	r.changed = map[string]bool{}
	return f, nil
}

// gameField is a field of the game document in memory, as JSON.
func (r *replayer) gameField(name string) (json.RawMessage, error) {
	return fieldJSON(r.mem[colGames+"/"+r.gameID], name)
}

func fieldOf(doc json.RawMessage, name string) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		return nil, err
	}
	return m[name], nil
}

// sameJSON compares two JSON values whatever their key order and spacing.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	ca, _ := json.Marshal(x)
	cb, _ := json.Marshal(y)
	return bytes.Equal(ca, cb)
}

// view keeps of every frame's documents those viewer may read, by their
// slot's Access (Tile Race's private board stays behind the fog for
// everyone, its admins included; a Hex & Dice player's orders are theirs
// alone), keyed "slot" or "slot/key".
func (out *Replay) view(r *replayer, viewer domain.Actor) *Replay {
	type slotAt struct {
		slot   domain.Slot
		prefix string // the path before the key, or the whole path
	}
	var slots []slotAt
	for _, s := range r.e.Game.Slots() {
		if strings.HasPrefix(s.Path, "/") {
			continue // not the game's own (a coach's team, a board file)
		}
		slots = append(slots, slotAt{s, colGames + "/" + r.gameID + "/" + strings.TrimSuffix(s.Path, "{key}")})
	}
	gamePath := colGames + "/" + r.gameID
	for i := range out.Frames {
		docs := map[string]json.RawMessage{}
		for p, j := range out.Frames[i].Docs {
			if p == gamePath {
				continue // its state is the frame's
			}
			for _, s := range slots {
				key := ""
				if s.slot.Keyed() {
					k, ok := strings.CutPrefix(p, s.prefix)
					if !ok || strings.Contains(k, "/") {
						continue
					}
					key = k
				} else if p != s.prefix {
					continue
				}
				if !mayRead(s.slot.Access, key, viewer) {
					break
				}
				name := s.slot.Name
				if key != "" {
					name += "/" + key
				}
				docs[name] = j
				break
			}
		}
		out.Frames[i].Docs = docs
		if len(docs) == 0 {
			out.Frames[i].Docs = nil
		}
	}
	return out
}

// mayRead is a slot's Access for a replay's viewer. Admin documents are left
// out for everyone: a replay shows the game as its players and spectators
// saw it.
func mayRead(a domain.Access, key string, viewer domain.Actor) bool {
	switch a {
	case domain.ReadPublic:
		return true
	case domain.ReadOwner:
		return key != "" && (key == viewer.ID || key == viewer.Local())
	}
	return false
}

// differing names the top-level fields in which two JSON objects differ.
func differing(a, b json.RawMessage) string {
	var x, y map[string]json.RawMessage
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return "its value"
	}
	var keys []string
	for k := range x {
		if !sameJSON(x[k], y[k]) {
			keys = append(keys, k)
		}
	}
	for k := range y {
		if _, ok := x[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) > 5 {
		keys = append(keys[:5], "…")
	}
	return strings.Join(keys, ", ")
}
