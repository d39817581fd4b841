package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// Request is one authenticated action.
type Request struct {
	Kind   string // the game kind (a registered game)
	GameID string // the game acted on; ignored for creates (derived) and ScopeNone
	Action domain.Action
	// ExpectVersion, when set, makes the action apply only to that version of
	// the game: a client that acted on what it saw cannot act twice by accident.
	ExpectVersion *int64
	// Seed is a create's chosen seed: only when Store.FixedSeeds.
	Seed string
	// RoomCode is the code a join came with: a private game is joined with
	// its code only.
	RoomCode string
}

// Reply is what an action returns to its caller, and what a retry gets again.
type Reply struct {
	GameID  string         `json:"gameId,omitempty"` // absent only while a quick match waits`
	Version int64          `json:"version"`
	Events  []domain.Event `json:"events"`
	Result  any            `json:"result,omitempty"`
}

// Done is what Run did besides the reply: for the functions layer.
type Done struct {
	// Session is an actor the reply signs in (domain.Change.Session).
	Session *domain.Actor
}

// maxRounds bounds how often a game may ask for more documents (NeedDocs).
const maxRounds = 8

// DefaultRetryBudget is how long an action may keep running again because
// of contention (a document it read as a snapshot changed before it
// committed; Firestore aborted the transaction) before it gives up with an
// Aborted error (503 with Retry-After to a caller).
const DefaultRetryBudget = 8 * time.Second

// CreateID is the id of the game of kind an actor creates with actionID: a
// retried create finds the game it made, and the same action id used to
// create a game of another kind makes another game.
func CreateID(kind, actorID, actionID string) string {
	sum := sha256.Sum256([]byte(kind + "\x00" + actorID + "\x00" + actionID))
	return hex.EncodeToString(sum[:10])
}

// Run runs one action of a registered game in one transaction: it reads what
// the game's Plan lists (and what Run asks for more), runs the game, writes
// the documents the Change lists, one event record per step and the action
// record with the reply. A retried action id returns the first reply and
// changes nothing; an action refused by the rules writes nothing.
//
// Errors: EINVALID (no action id, unknown kind), ENOTFOUND (no such game),
// ECONFLICT (stale ExpectVersion), EEXISTS (action id reused for a different
// request), and whatever the game returns.
func Run(ctx context.Context, st *Store, req Request) (json.RawMessage, Done, error) {
	e, ok := st.Games.Find(req.Kind)
	if !ok {
		return nil, Done{}, domain.Errorf(domain.EINVALID, "unknown game kind %q", req.Kind)
	}
	g := e.Game
	plan, err := g.Plan(req.Action)
	if err != nil {
		return nil, Done{}, err
	}
	if plan.Scope == domain.ScopeGame && req.GameID == "" {
		return nil, Done{}, domain.Errorf(domain.EINVALID, "gameId is required")
	}
	// The platform's own follow-up steps are admitted; a caller never is
	// the system (sessions are never issued for it).
	if req.Action.Actor.Role != domain.RoleSystem {
		if err := domain.Admit(g, req.Action.Actor, req.GameID, req.Action.Type); err != nil {
			return nil, Done{}, err
		}
	}
	x := &execution{st: st, entry: e, sl: st.slotsOf(g), req: req, plan: plan}
	switch plan.Scope {
	case domain.ScopeCreate:
		if req.Action.ID == "" {
			return nil, Done{}, domain.Errorf(domain.EINVALID, "actionId is required")
		}
		x.req.GameID = CreateID(g.Kind(), req.Action.Actor.ID, req.Action.ID)
		x.seed = req.Seed
		if x.seed != "" && !st.FixedSeeds {
			return nil, Done{}, domain.Errorf(domain.EINVALID, "a chosen seed is only allowed in the local stack")
		}
		if x.seed == "" {
			x.seed = NewSeed()
		}
	case domain.ScopeNone:
		reply, err := x.once(ctx)
		return reply, x.done, err
	default:
		if !validID(req.GameID) {
			return nil, Done{}, domain.Errorf(domain.EINVALID, "gameId %q cannot name a game", req.GameID)
		}
	}
	x.req.Action.GameID = x.req.GameID
	reply, err := runAction(ctx, st, x)
	if err == nil {
		x.eager(ctx)
	}
	var de *domain.Error
	if errors.As(err, &de) && len(de.Then) > 0 {
		for _, then := range de.Then {
			then.Actor, then.ID = domain.System, "sys-"+NewID()
			if _, _, ferr := Run(ctx, st, Request{Kind: req.Kind, GameID: x.req.GameID, Action: then}); ferr != nil {
				return nil, Done{}, ferr
			}
		}
	}
	return reply, x.done, err
}

// Advance applies a game's passed deadlines, as of those deadlines, in one
// transaction: what the tick runs, and what any action does first, so
// whichever comes first wins and the other finds nothing due. It reports how
// many steps it applied.
func Advance(ctx context.Context, st *Store, kind, gameID string) (int, error) {
	e, ok := st.Games.Find(kind)
	if !ok {
		return 0, domain.Errorf(domain.EINVALID, "unknown game kind %q", kind)
	}
	a := domain.Action{ID: "", Type: domain.ActionAdvance, Actor: domain.System, GameID: gameID, Payload: json.RawMessage("{}")}
	plan, err := e.Game.Plan(a)
	if err != nil {
		return 0, err
	}
	x := &execution{st: st, entry: e, sl: st.slotsOf(e.Game), req: Request{Kind: kind, GameID: gameID, Action: a}, plan: plan}
	if _, err := x.once(ctx); err != nil {
		return 0, err
	}
	x.eager(ctx)
	return x.steps, nil
}

// execution is one action at work.
type execution struct {
	st           *Store
	entry        domain.Entry
	sl           *slots
	req          Request
	plan         domain.Plan
	seed         string // a create's seed
	created      bool   // the last successful attempt created the game (with seed)
	done         Done
	steps        int // steps applied by the last successful attempt
	eagerRecords []eagerRecord
	// read is what the last attempt read (also when it failed): a refused
	// action looks for its recorded reply in the game document it read;
	// sealer is that attempt's (its seed read on first use), which also
	// keys its request hash (keptHash).
	read   *readSet
	sealer *lazySealer
	// warm is set for an action whose batch attempts may take the game
	// document's warm copy (warm.go); guarded: the last attempt writes the
	// game document under its read's update time.
	warm    *warmRun
	guarded bool
	// asked: the last attempt wrote nothing, read no document but the game
	// document (and cached configuration), and was asked at a version
	// (ExpectVersion) its game document had (checkGame): its answer holds
	// for that version, from a warm copy too (answersFromCopy).
	asked bool
}

// warmRun is an action's use of the warm copy: use is false once it runs
// on a fresh read.
type warmRun struct {
	use bool
	// asked: taken for a call asked at a version that mostly writes
	// nothing (answersFromCopy).
	asked bool
}

// attempt is one run of the action inside a transaction.
type attempt struct {
	x      *execution
	tx     txn
	rs     *readSet
	change domain.Change
	game   *domain.GameDoc[json.RawMessage] // the game document as read
	room   string                           // a create's room code candidate
	now    time.Time
	seed   func() (string, error)
	// sealer is the game's Env.Seal (the seed read on first use), which also
	// seals a secret payload in the log (inlinePayload).
	sealer *lazySealer
	// recorded: the action's key and reply went into the game document, so
	// it needs no action record; recordIn: the record went into a document
	// of the game's records slot (record.go).
	recorded, recordIn bool
	// hash and replyJSON are the request's hash and the reply, as runAction
	// computed them, for the game document's recent actions (empty outside
	// a recorded action).
	hash      string
	replyJSON []byte
	// joined is a quick match's join, run with its create (replay.go).
	joined *domain.Action
	// pl is the game document's log fields as read, decoded once (platformLog).
	pl *platformLog
}

// platformLog is the log fields of the game document the attempt read,
// decoded on first use: the retry check and the write both need them.
func (at *attempt) platformLog() platformLog {
	if at.pl == nil {
		pl := at.rs.log()
		at.pl = &pl
	}
	return *at.pl
}

// run reads, runs the game and prepares the writes; it returns the reply.
func (x *execution) run(ctx context.Context, tx txn, now time.Time) (*attempt, error) {
	at := &attempt{x: x, tx: tx, rs: newReadSet(), now: now}
	x.read, x.guarded = at.rs, false
	if _, batch := tx.(*batchTx); batch && x.warm != nil {
		at.rs.warm = &warmRead{path: gamePath(x.req.GameID), use: x.warm.use, actor: x.req.Action.Actor.ID, own: map[domain.DocID]*ownCopy{}}
	}
	st := x.st
	gameID := x.req.GameID
	if x.plan.Scope == domain.ScopeCreate {
		at.seed = func() (string, error) { return x.seed, nil }
	} else {
		at.seed = st.seedLoader(tx, gameID, at.rs.room)
	}
	at.sealer = &lazySealer{load: at.seed}
	x.sealer = at.sealer
	env := domain.Env{Now: now, DiceAt: func(seq int64) domain.Dice { return &lazyDice{load: at.seed, seq: seq} }, Seal: at.sealer, Stop: st.stopper(ctx)}
	if x.plan.Scope == domain.ScopeCreate {
		at.room = st.roomCode()
		env.New = &domain.Created{GameID: gameID, RoomCode: at.room, SeedHash: domain.SeedHash(x.seed)}
	}
	a := x.req.Action
	first := true
	read := func(reads []domain.Read) error {
		if x.warm != nil && x.warm.asked && at.rs.warm != nil && !at.answersWith(slices.Values(reads)) {
			// A call asked at a version reads more than the game document
			// (a fog game's preview): the copy cannot answer it. It reads
			// the game document with the rest, or, having taken the copy
			// already, runs on a fresh read before it reads anything else.
			if at.rs.warm.used {
				return errCold
			}
			at.rs.warm.use = false
		}
		if err := st.read(ctx, tx, x.sl, gameID, at.rs, reads); err != nil {
			return err
		}
		if !first {
			return nil
		}
		first = false
		if a.ID != "" {
			// A retry of an action the game document records: its first
			// reply, before the rules could apply it a second time.
			pl := at.platformLog()
			key := actKey(a)
			if e, ok := pl.find(key); ok {
				return retried{e, pl}
			}
			if x.plan.Scope == domain.ScopeGame && pl.mayHaveActed(key) {
				// Perhaps an action older than acts remembers (oldacts.go).
				switch done, err := st.appliedLongAgo(ctx, gameID, key, pl); {
				case err != nil:
					return err
				case done:
					return appliedBefore(a)
				}
			}
		}
		if x.plan.Scope == domain.ScopeGame {
			if err := at.checkGame(); err != nil {
				return err
			}
			return at.checkRoom()
		}
		return nil
	}
	ch, err := rounds(x.plan.Reads, read, func() (domain.Change, error) { return x.entry.Game.Run(at.rs.docs, a, env) })
	if err != nil {
		return nil, err
	}
	at.change = ch
	return at, nil
}

// checkGame checks the game document of a ScopeGame action: it exists, is of
// this kind and at the expected version.
func (at *attempt) checkGame() error {
	x := at.x
	raw := at.rs.docs.Raw(domain.GameDocID)
	kind := x.entry.Game.Kind()
	if raw == nil {
		return domain.Errorf(domain.ENOTFOUND, "no %s game %q", kind, x.req.GameID)
	}
	// The header from the document's fields as read: decoding it from the
	// JSON scanned the whole state twice to skip it, on every action.
	var g domain.GameDoc[json.RawMessage]
	if h := at.rs.gameHead; h != nil {
		g = *h
	} else if err := json.Unmarshal(raw, &g); err != nil {
		return err
	}
	if g.Kind != kind {
		return domain.Errorf(domain.ENOTFOUND, "game %q is a %s game, not %s", x.req.GameID, g.Kind, kind)
	}
	if v := x.req.ExpectVersion; v != nil && *v != g.Version {
		// details.version: the version the game is at, for a client to tell
		// this refusal from others without reading its words (web ask).
		err := domain.Errorf(domain.ECONFLICT, "stale request: the game is at version %d, not %d", g.Version, *v)
		err.Details = map[string]int64{"version": g.Version}
		return err
	}
	at.game = &g
	return nil
}

// checkRoom lets only those who have the room code join a private game.
//
// Errors: EFORBIDDEN.
func (at *attempt) checkRoom() error {
	x := at.x
	// A bot is seated by the platform for the host, who has the code.
	role := x.req.Action.Actor.Role
	if x.req.Action.Type != domain.ActionJoin || !at.game.Private || role == domain.RoleSystem || role == domain.RoleBot {
		return nil
	}
	code, err := x.st.roomCodeOf(at.tx, x.req.GameID)
	if err != nil {
		return err
	}
	if code == "" || x.req.RoomCode != code {
		return domain.Errorf(domain.EFORBIDDEN, "this game is private: join it with its room code")
	}
	return nil
}

// reply is what the caller gets for a successful attempt.
func (at *attempt) reply() Reply {
	version := int64(0)
	if at.game != nil {
		version = at.game.Version
	}
	if w, ok := at.change.GameWrite(); ok {
		version = w.Version
	}
	return Reply{GameID: at.x.req.GameID, Version: version, Events: at.change.Events(), Result: at.change.Result}
}

// writes reports whether the attempt changes anything.
func (at *attempt) writes() bool {
	return len(at.change.Writes) > 0 || len(at.change.Steps) > 0 || len(at.change.Spawn) > 0
}

// write makes every write of the attempt. All reads are done.
func (at *attempt) write() error {
	x, tx, st, now := at.x, at.tx, at.x.st, at.now
	gameID := x.req.GameID
	kind := x.entry.Game.Kind()
	if w, ok := at.change.GameWrite(); ok && w.Header != nil && w.Header.Status == domain.StatusOver && !w.Create && domain.PublishesSeed(x.entry.Game) {
		// The game ends: its seed is revealed (unless the game keeps it).
		// Read it before any write. Its room code stays its own
		// (Store.roomCode, create.go): the end reads and writes no room.
		if _, err := at.seed(); err != nil {
			return err
		}
	}
	gw, writesGame := at.change.GameWrite()
	var logged []logStep   // versioned steps the game document's log takes
	var recs []domain.Step // those of them that keep a record too, written with the game
	for _, s := range at.change.Steps {
		if !writesGame || s.Version == 0 {
			if err := at.writeRecord(s, at.actInRecord(s)); err != nil {
				return err
			}
			continue
		}
		// A step with effects, or one the game's projection must hear of,
		// keeps its own record (its mark is on it).
		rec := st.Games.pending(x.entry, s.Events) || st.Games.projects(x.entry, s.Events)
		if rec {
			recs = append(recs, s)
		}
		ls, err := stepOf(s, x.req.Action.ID, now, rec)
		if err != nil {
			return err
		}
		if ls.P, err = at.inlinePayload(s); err != nil { // replay.go
			return err
		}
		ls.Roots = at.inlineRoots(s)
		logged = append(logged, ls)
	}
	if writesGame {
		if err := at.writeGame(gw, logged, recs); err != nil {
			return err
		}
	}
	for _, w := range at.change.Writes {
		if w.DocID == domain.GameDocID {
			continue
		}
		p, err := x.sl.path(gameID, w.DocID)
		if err != nil {
			return err
		}
		if x.sl.isJournal(w.DocID) {
			if w, err = at.journalWrite(w); err != nil {
				return err
			}
		}
		if at.holdsRecord(w) && !at.recordIn {
			w.Value, at.recordIn = withRecord{value: w.Value, act: at.record()}, true
		}
		doc, err := writeWhole(tx, st.FS.Doc(p), w, at.rs, now, x.sl)
		if err != nil {
			return err
		}
		at.keepOwn(w.DocID, p, doc)
	}
	for _, sp := range at.change.Spawn {
		var private map[string]any
		if start := spawnStart(sp); start != nil {
			private = map[string]any{fReplay: start} // how the game began, for a replay
		}
		// A hidden game's whole state and views are sealed in its document
		// from its first version, with the seed made here.
		seed := NewSeed()
		sealed, views, writes, err := domain.SealSpawn(sp.Writes, domain.NewSeededSealer(seed))
		if err != nil {
			return err
		}
		extra := map[string]any{}
		putSealed(extra, sealed, views)
		if err := createGame(tx, st, kind, sp.ID, sp.Header, sp.State, seed, "", now, extra, private); err != nil {
			return err
		}
		for _, w := range writes {
			p, err := x.sl.path(sp.ID, w.DocID)
			if err != nil {
				return err
			}
			w.Create = true
			if err := writeDoc(tx, st.FS.Doc(p), w, at.rs, now, x.sl); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeGame writes the game document: created with its seed and room, or
// updated (guarded by its update time when it was read as a snapshot). When
// the game ends its seed is revealed and its room code freed.
//
// recs are the steps of the change that keep a record of their own (a
// gameOver's): writeGame writes them. When the game ends, the history's
// last batch rides in the last of them (field "steps", as in a batch) rather
// than in a document of its own: one write fewer per game (issue 22).
func (at *attempt) writeGame(w domain.Write, steps []logStep, recs []domain.Step) error {
	x, tx, st := at.x, at.tx, at.x.st
	gameID, kind := x.req.GameID, x.entry.Game.Kind()
	h := domain.Header{}
	if w.Header != nil {
		h = *w.Header
	}
	// The platform's log fields: the steps' events, the history batch when
	// one is due, the action among the recent ones (log.go).
	pl := at.platformLog()
	over := h.Status == domain.StatusOver
	// The state encoded once: its size counts in the log's budget, and the
	// document is written from it.
	state, err := json.Marshal(w.Value)
	if err != nil {
		return err
	}
	rest, err := restOf(state, w, pl)
	if err != nil {
		return err
	}
	_, packed, flushed, batch, err := logUpdate(pl, steps, over, rest)
	if err != nil {
		return err
	}
	var carried map[string]any // the last batch, in the last record
	switch {
	case batch != nil && over && len(recs) > 0:
		fs, err := firestoreSteps(batch)
		if err != nil {
			return err
		}
		carried = withKeys(map[string]any{"steps": fs}, stepKeys(batch)...)
	case batch != nil:
		if err := st.writeBatch(tx, gameID, kind, batch, at.now); err != nil {
			return err
		}
	}
	for i, s := range recs {
		var extra map[string]any
		if i == len(recs)-1 {
			extra = carried
		}
		if err := at.writeRecord(s, extra); err != nil {
			return err
		}
	}
	extra := map[string]any{fLog: packed, fLogFlushed: flushed}
	putSealed(extra, w.Sealed, w.Views)
	// The action's key and reply go into the game document, which anyone
	// may read, only when the action changed nothing else, or nothing
	// besides public documents and read nothing else (keptInGame): its
	// reply then tells no more than those documents do. A create (its reply
	// has the room code) and an action on other documents (a Tile Race
	// board, a Hex & Dice player's orders) keep a server-only action record
	// instead.
	//
	// A create is recognised the same way, but its reply goes to the
	// game's server-only document it creates anyway (with the seed: its
	// room's, or private/server; server.go), whatever else it writes (a Hex
	// & Dice map, a CodeBowl team): nobody reads it there, so no action
	// record either.
	var private map[string]any
	a := x.req.Action
	e := actEntry{Key: actKey(a), Hash: shortHash(at.hash), Version: w.Version, Steps: len(steps)}
	addAct := func() {
		extra[fActs] = firestoreActs(withAct(pl.Acts, e))
		if old, ok := withOldActs(pl.OldActs, pl.Acts); ok {
			extra[fOldActs] = old // what acts lets go of (oldacts.go)
		}
	}
	switch {
	case a.ID != "" && at.hash != "" && (at.keptInGame() || (w.Create && len(at.change.Spawn) == 0)):
		e.Reply = replyWithoutEvents(at.replyJSON)
		if at.sealsReply() {
			s, err := at.sealer.sealer()
			if err != nil {
				return err
			}
			e.Reply = s.Seal(domain.ReplyLabel(a.Actor.ID), []byte(e.Reply))
		}
		if s := at.change.Session; s != nil {
			sb, _ := json.Marshal(s)
			e.Session = string(sb)
		}
		if w.Create {
			private = map[string]any{"reply": string(at.replyJSON), "hash": at.hash}
			if e.Session != "" {
				private["session"] = e.Session
			}
			e.Reply, e.Session, e.Priv = "", "", true
		}
		addAct()
		at.recorded = true
	default:
		if id, ok := at.journaled(); ok {
			// Its record goes to a journal (journal.go); its key here, so
			// a retry knows to look there, and in which.
			e.Jnl, e.Own = true, id.Key != ""
			addAct()
		}
	}
	if w.Create {
		room := ""
		if at.change.Room {
			room = at.room
		}
		if start := at.replayStart(room); start != nil {
			if private == nil {
				private = map[string]any{}
			}
			private[fReplay] = start // how the game began, for a replay (replay_record.go)
		}
		return createGame(tx, st, kind, gameID, h, json.RawMessage(state), x.seed, room, at.now, extra, private)
	}
	updates, err := gameFields(h, json.RawMessage(state), w.Version, at.now)
	if err != nil {
		return err
	}
	for _, f := range []string{fLog, fLogFlushed, fActs, fOldActs, fSealed, fViews} {
		if v, ok := extra[f]; ok {
			updates = append(updates, firestore.Update{Path: f, Value: v})
		}
	}
	if at.rs.gameSealed && w.Sealed == "" {
		// What was sealed goes with the state that needed it (a fog game
		// over is written whole).
		updates = append(updates, firestore.Update{Path: fSealed, Value: firestore.Delete})
	}
	if at.rs.gameViews && w.Views == nil {
		updates = append(updates, firestore.Update{Path: fViews, Value: firestore.Delete})
	}
	if h.Status == domain.StatusOver && domain.PublishesSeed(x.entry.Game) {
		seed, err := at.seed()
		if err != nil {
			return err
		}
		updates = append(updates, firestore.Update{Path: fSeed, Value: seed})
	}
	var pre []firestore.Precondition
	if since, ok := at.rs.snapshot[domain.GameDocID]; ok && !since.IsZero() {
		pre = append(pre, firestore.LastUpdateTime(since))
	}
	if err := st.nudgeBots(tx, gameID, h, w.Version, at.now); err != nil {
		return err
	}
	if err := tx.Update(st.gameRef(gameID), updates, pre...); err != nil {
		return err
	}
	at.keepWarm(updates, len(pre) > 0)
	return nil
}

// keepWarm keeps the game document an update guarded by the read makes
// as this instance's copy, once the batch commits (warm.go). A
// transaction's commit does not tell the update time it made: its copy
// is dropped, as is one an update the store cannot follow makes.
func (at *attempt) keepWarm(updates []firestore.Update, guarded bool) {
	st := at.x.st
	path := gamePath(at.x.req.GameID)
	b, batch := at.tx.(*batchTx)
	read := at.rs.old[domain.GameDocID] // the fields read, less the log's (rs.gameLog)
	if !batch || !guarded || at.rs.warm == nil || read == nil {
		st.warm.forget(path)
		return
	}
	next, ok := afterCommit(read, at.rs.gameLog, updates)
	if !ok {
		st.warm.forget(path)
		return
	}
	b.onCommit(func(updated time.Time) { st.warm.put(path, next, updated) })
}

// recordID is the id of a step's event record: EventID(version) for a step
// that versions the game, "{actorId}~{actionId}" otherwise.
func recordID(s domain.Step, actionID string) string {
	if s.Version > 0 {
		return EventID(s.Version)
	}
	return s.Actor.ID + "~" + actionID
}

// writeRecord writes a step's event record, with extra fields (nil: none).
func (at *attempt) writeRecord(s domain.Step, extra map[string]any) error {
	x := at.x
	if a := x.req.Action; a.ID != "" && at.ownStep(s) {
		// The record names its action among its steps' keys, for a retry
		// older than the game document remembers (oldacts.go).
		extra = withKeys(extra, actKey(a))
	}
	id, eager, err := x.st.writeRecord(at.tx, x.entry, x.req.GameID, s, x.req.Action.ID, at.now, extra)
	if err == nil && eager {
		x.eagerRecords = append(x.eagerRecords, eagerRecord{id: id, at: at.now, step: s})
	}
	return err
}

// writeRecord writes the event record of step s of a game's action actionID,
// pending when a registered effect handles one of its events (a game's end
// whose only effect is its stats writes them instead: statsInCommit). It
// returns the record's id and whether an eager handler is to run on it.
// extra are more fields of the record (a game's last history batch,
// writeGame).
func (st *Store) writeRecord(tx txn, e domain.Entry, gameID string, s domain.Step, actionID string, now time.Time, extra map[string]any) (string, bool, error) {
	evs, err := toFirestore(s.Events)
	if err != nil {
		return "", false, err
	}
	if evs == nil {
		evs = []any{}
	}
	id := recordID(s, actionID)
	pending := st.Games.pending(e, s.Events)
	actor := map[string]any{"id": s.Actor.ID, "name": s.Actor.Name, "role": string(s.Actor.Role)}
	if s.Actor.Game != "" {
		actor["game"] = s.Actor.Game
	}
	rec := map[string]any{
		"seq": s.Version, fAt: now, fKind: e.Kind(), "type": s.Type, "actionId": actionID,
		"actor": actor, "events": evs, fPending: pending,
	}
	stats := func() error { return nil }
	if pending {
		// A game's end whose only effect is the platform's stats: they are
		// written with the record (statsInCommit).
		if write, fields, boards, ok := st.statsInCommit(tx, e, gameID, id, rec, s.Events); ok {
			pending, stats = false, write
			rec[fPending], rec[fEffectsAt] = false, now
			maps.Copy(rec, fields)
			maps.Copy(rec, projectionMark(boards, st.Games.projects(e, s.Events)))
		}
	} else if st.Games.projects(e, s.Events) {
		// Nothing but the projection's mark to write: the record carries
		// it from its creation, in the action's own commit (exactly once,
		// as the action is), so it has no effects to wait for — no trigger
		// work, no second write of it. With effects, applying them marks
		// it (apply.go).
		maps.Copy(rec, projectionMark(nil, true))
	}
	maps.Copy(rec, extra)
	if err := tx.Create(st.eventRef(gameID, id), rec); err != nil {
		return "", false, err
	}
	if err := stats(); err != nil {
		return "", false, err
	}
	return id, pending && st.Games.eager(e, s.Events), nil
}

// batchable reports whether the action may run as a batch (txn.go): it acts
// on an existing game and reads nothing but single documents as snapshots, as
// every action of a one-document game does. If the game asks for more
// (NeedDocs) than a batch can read, the action runs again in a transaction.
func (x *execution) batchable() bool {
	if x.plan.Scope != domain.ScopeGame {
		return false
	}
	if x.st.txNeedsOf(x.key()).mostly() {
		return false
	}
	for _, r := range x.plan.Reads {
		if !r.Snapshot || r.All {
			return false
		}
	}
	return true
}

// key names the action's kind and type, for what the store learns of them.
func (x *execution) key() string { return x.entry.Kind() + "/" + x.req.Action.Type }

// once runs an action that keeps no action record (ScopeNone, the tick's
// advance): a transaction, rerun when a snapshot read went stale.
func (x *execution) once(ctx context.Context) (json.RawMessage, error) {
	var reply json.RawMessage
	fast := x.batchable()
	err := x.st.retrying(ctx, func() error {
		return x.st.batched(ctx, &fast, x.key(), func(ctx context.Context, tx txn) error {
			x.eagerRecords, x.steps = nil, 0
			at, err := x.run(ctx, tx, x.st.now())
			if err != nil {
				return err
			}
			b, err := json.Marshal(at.reply())
			if err != nil {
				return err
			}
			reply = b
			x.steps = len(at.change.Steps)
			x.done.Session = at.change.Session
			return at.write()
		})
	})
	return reply, err
}

// retrying runs f again while it fails because a document read as a snapshot
// changed before the commit (a failed precondition, or a document created
// meanwhile) or Firestore aborted it for contention.
// transact runs f in a Firestore transaction, and again after a jittered
// backoff while it loses to contention or a stale snapshot, within the
// store's retry budget, so contention never surfaces as a 500. Actions,
// effects, sign-in throttles and outbox deliveries go through it; a
// transaction whose AlreadyExists is an answer (Register: the username is
// taken) must not, since it would be retried.
func (st *Store) transact(ctx context.Context, f func(context.Context, txn) error) error {
	return st.retrying(ctx, func() error { return st.inTransaction(ctx, f) })
}

func (st *Store) retrying(ctx context.Context, f func() error) error {
	b := st.backoff()
	for {
		err := f()
		switch status.Code(err) {
		case codes.FailedPrecondition, codes.AlreadyExists, codes.Aborted:
			if b.wait(ctx) {
				continue
			}
		}
		return err
	}
}

// backoff spaces the runs of a contended action: jittered, doubling from
// 5 ms to 400 ms, within the store's retry budget.
type backoff struct {
	until time.Time
	next  time.Duration
}

func (st *Store) backoff() *backoff {
	budget := st.RetryBudget
	if budget == 0 {
		budget = DefaultRetryBudget
	}
	return &backoff{until: time.Now().Add(budget), next: 5 * time.Millisecond}
}

// wait sleeps before the next run and reports whether there is time for one.
func (b *backoff) wait(ctx context.Context) bool {
	d := b.next/2 + time.Duration(rand.Int64N(int64(b.next)))
	if time.Now().Add(d).After(b.until) || ctx.Err() != nil {
		return false
	}
	b.next = min(2*b.next, 400*time.Millisecond)
	select {
	case <-time.After(d):
		return true
	case <-ctx.Done():
		return false
	}
}

// runAction is the transaction every recorded action runs in: a domain error
// from the game is the action's refusal, unless the same action id already
// succeeded, in which case its first reply is returned again (a retry). On
// success the writes are made and the action record
// games/{id}/actions/{actorId}~{actionId} is created with the reply, so a
// concurrent duplicate fails the Create and gets that reply. An action that
// changes nothing (a read) leaves no record.
//
// Errors: EINVALID (no action id), EEXISTS (action id reused for a different
// request), and the game's errors.
func runAction(ctx context.Context, st *Store, x *execution) (json.RawMessage, error) {
	a := x.req.Action
	if a.ID == "" {
		return nil, domain.Errorf(domain.EINVALID, "actionId is required")
	}
	gameID := x.req.GameID
	plain := requestHash(x.entry.Game.Kind(), a)
	hash := plain // keptHash's, once an attempt has read the game
	var reply json.RawMessage
	fast := x.batchable()
	odds := countsOf[warmOdds](&st.warmOdds, x.key())
	switch asked := x.req.ExpectVersion != nil && x.plan.Scope == domain.ScopeGame; {
	case asked && (odds.asked.runs.Load() == 0 || odds.asked.mostly()):
		// A call that writes nothing (legal, preview) asked about a version:
		// the copy at that version answers it (answersFromCopy).
		x.warm = &warmRun{use: !odds.stale.mostly(), asked: true}
	case !odds.unguarded.mostly():
		// A type whose runs mostly write elsewhere (a Tile Race
		// completion) neither takes copies nor keeps them.
		x.warm = &warmRun{use: odds.worth()}
	}
	attempt := func() error {
		return st.batched(ctx, &fast, x.key(), x.checkWarm(func(ctx context.Context, tx txn) error {
			reply, x.eagerRecords, x.steps, x.done, x.created, x.asked = nil, nil, 0, Done{}, false, false
			at, err := x.run(ctx, tx, st.now())
			if err != nil && x.unchecked(err) {
				return errCold // a refusal or a retry, told from a fresh read only
			}
			var herr error
			if hash, herr = x.keptHash(plain); herr != nil {
				return herr
			}
			var again retried
			if errors.As(err, &again) {
				prev, rerr := st.recall(tx.Get, x.sl, gameID, again.actEntry, hash, a, again.log, x.read.room())
				if rerr != nil {
					return rerr
				}
				reply, x.done.Session = prev.reply, prev.session
				return nil
			}
			if err != nil {
				if !errors.As(err, new(*domain.Error)) {
					return err
				}
				if x.read != nil {
					// A retry of a create finds the game it made, and its
					// key in it.
					pl := x.read.log()
					if e, ok := pl.find(actKey(a)); ok {
						prev, rerr := st.recall(tx.Get, x.sl, gameID, e, hash, a, pl, x.read.room())
						if rerr != nil {
							return rerr
						}
						reply, x.done.Session = prev.reply, prev.session
						return nil
					}
				}
				var prev *recorded
				var rerr error
				if x.plan.Scope == domain.ScopeCreate {
					// A create keeps its reply in the game's server-only
					// document (writeGame, server.go); its game id only this
					// action makes. One that spawned games, or one made
					// before creates kept it there whatever else they wrote,
					// has its action record.
					if prev, rerr = recordedReply(st.serverDoc(tx.Get, gameID, x.read.room())); prev != nil && len(prev.reply) == 0 {
						prev = nil
					}
				}
				if rerr == nil && prev == nil {
					prev, rerr = st.recordedAction(tx.Get, x.sl, x.plan.RecordInEvent, gameID, a)
				}
				if rerr != nil {
					return rerr
				}
				if prev == nil {
					return err
				}
				if prev.hash != hash {
					return reused(a)
				}
				reply, x.done.Session = prev.reply, prev.session
				return nil
			}
			b, err := json.Marshal(at.reply())
			if err != nil {
				return err
			}
			x.done.Session = at.change.Session
			x.steps = len(at.change.Steps)
			reply = b
			at.hash, at.replyJSON = hash, b
			if !at.writes() {
				x.asked = x.req.ExpectVersion != nil && at.answersFromCopy()
				return nil
			}
			if err := at.write(); err != nil {
				return err
			}
			if w, ok := at.change.GameWrite(); ok {
				// A game write other than the create is guarded by the
				// update time of the game document read (writeGame).
				x.created, x.guarded = w.Create, !w.Create
			}
			if at.recorded || at.recordIn {
				return nil // the game document keeps it (log.go), or a document of the game's (record.go)
			}
			return tx.Create(st.actionRef(gameID, a), at.record())
		}))
	}
	b := st.backoff()
	for {
		err := attempt()
		if x.warmAgain(err, odds) {
			continue
		}
		switch status.Code(err) {
		case codes.FailedPrecondition, codes.Aborted:
			// A snapshot read went stale, or Firestore aborted the transaction
			// for contention: run again on fresh documents.
			if b.wait(ctx) {
				continue
			}
		case codes.AlreadyExists:
			// A concurrent retry of the same action id committed first, or a
			// document the action creates appeared meanwhile.
			prev, rerr := st.recordedAnywhere(ctx, x.sl, x.plan.RecordInEvent, gameID, a, hash)
			if rerr != nil {
				return nil, rerr
			}
			if prev == nil && b.wait(ctx) {
				continue
			}
			if prev == nil {
				return nil, err
			}
			if prev.hash != hash {
				return nil, reused(a)
			}
			x.done.Session = prev.session
			return prev.reply, nil
		}
		if err != nil {
			return nil, err
		}
		if x.created && x.seed != "" {
			// This process made the game and knows its seed: its first roll
			// need not read it back (Store.seeds). Only after the commit — a
			// concurrent create under the same id may have won with another.
			st.seeds.put(gameID, x.seed)
		}
		return reply, nil
	}
}

func reused(a domain.Action) error {
	return domain.Errorf(domain.EEXISTS, "actionId %q was already used for a different request", a.ID)
}

// checkWarm wraps an action's attempt: one that took the game document's
// warm copy and ends without a commit that checks it (x.guarded) returns
// errCold instead, to run again on a fresh read (warm.go).
func (x *execution) checkWarm(f func(context.Context, txn) error) func(context.Context, txn) error {
	return func(ctx context.Context, tx txn) error {
		err := f(ctx, tx)
		if x.unchecked(err) {
			return errCold
		}
		return err
	}
}

// unchecked reports whether the last attempt, which ended with err, took the
// warm copy without a commit that checks it: it failed (but for moving to
// a transaction, which reads afresh anyway) or did not write the game
// document under its read's update time.
func (x *execution) unchecked(err error) bool {
	if x.read == nil || x.read.warm == nil {
		return false
	}
	w := x.read.warm
	if errors.Is(err, errNeedTx) {
		return false
	}
	game := w.used && (err != nil || !(x.guarded || x.asked))
	own := len(w.own) > 0 && (err != nil || !(w.ownChecked() || x.asked))
	return game || own
}

// warmAgain learns from an attempt's end whether the warm copy was current
// (odds, by action) and reports whether the action runs again now, on a
// fresh read: after errCold, or a commit the copy's update time failed.
func (x *execution) warmAgain(err error, odds *warmOdds) bool {
	if err == nil {
		odds.unguarded.note(!x.guarded)
		if x.req.ExpectVersion != nil {
			odds.asked.note(x.asked) // of the calls that name a version
		}
	}
	rs := x.read
	if rs == nil || rs.warm == nil {
		return false
	}
	w := rs.warm
	if !w.used && len(w.own) == 0 {
		if w.fresh != nil {
			odds.stale.note(!*w.fresh)
		}
		return false
	}
	switch {
	case errors.Is(err, errCold):
		x.warm.use = false
		return true
	case status.Code(err) == codes.FailedPrecondition:
		// Which copy was stale the commit does not tell: all turn cold
		// (a game or a player's document written elsewhere).
		odds.stale.note(true)
		if w.used {
			x.st.warm.stale(w.path)
		}
		for _, c := range w.own {
			x.st.warm.stale(c.path)
		}
		x.warm.use = false
		return true
	case err == nil:
		odds.stale.note(false)
	}
	return false
}

// rounds reads what reads lists and runs f, and while f asks for more
// documents (NeedDocs, at most maxRounds times) reads those and runs it
// again: how every action, pairing and projection meets its documents.
func rounds(reads []domain.Read, read func(reads []domain.Read) error, f func() (domain.Change, error)) (domain.Change, error) {
	for round := 0; ; round++ {
		if err := read(reads); err != nil {
			return domain.Change{}, err
		}
		ch, err := guard(f)
		var need *domain.NeedDocs
		if errors.As(err, &need) && round < maxRounds {
			reads = need.Reads
			continue
		}
		return ch, err
	}
}

// guard turns a panic in the rules into an error, and a failed lazy seed read
// into the read's error.
func guard[T any](f func() (T, error)) (v T, err error) {
	defer seedFailure(&err)
	return f()
}

// seedFailure, deferred, turns a lazyDice's failed seed read (a panic, since
// Roll cannot return an error) back into *err; other panics go on.
func seedFailure(err *error) {
	if r := recover(); r != nil {
		if l, ok := r.(seedLoadFailed); ok {
			*err = l.err
			return
		}
		panic(r)
	}
}

type recorded struct {
	hash    string
	reply   json.RawMessage
	session *domain.Actor
}

// recordedReply decodes an action record read with Get; nil when there is none.
func recordedReply(snap *firestore.DocumentSnapshot, err error) (*recorded, error) {
	if status.Code(err) == codes.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return recordOf(snap.Data()), nil
}

// requestHash identifies what an action asked for — its game kind, type,
// caller and payload, whatever the key order of its JSON — so a reused action
// id with a different request is caught.
func requestHash(kind string, a domain.Action) string {
	var v any
	canon := a.Payload
	if json.Unmarshal(a.Payload, &v) == nil {
		canon, _ = json.Marshal(v)
	}
	sum := sha256.Sum256(bytes.Join([][]byte{[]byte(kind), []byte(a.Type), []byte(a.Actor.ID), canon}, []byte{0}))
	return hex.EncodeToString(sum[:])
}

// seedLoader reads the game's private seed once, inside tx, on first use,
// from its server-only document (server.go), which room (the game
// document's, read by then) finds.
// A game's seed never changes, so the store keeps the seeds it has read
// (Store.seeds): a game played on this instance costs its seed read once, not
// once per roll.
func (st *Store) seedLoader(tx txn, gameID string, room func() gameRoom) func() (string, error) {
	var seed string
	return func() (string, error) {
		if seed != "" {
			return seed, nil
		}
		var err error
		seed, err = st.seedOf(tx.Get, gameID, room())
		return seed, err
	}
}

// sealerOf is the game's sealer (its seed: seedOf), for what opens sealed
// text outside an attempt's rules (a retry's sealed reply, a bot's view).
func (st *Store) sealerOf(get getter, gameID string, room gameRoom) (*domain.SeededSealer, error) {
	seed, err := st.seedOf(get, gameID, room)
	if err != nil {
		return nil, err
	}
	return domain.NewSeededSealer(seed), nil
}

// seedOf is the game's seed: this instance's copy, else read with get from
// its server-only document, which room finds, and kept.
func (st *Store) seedOf(get getter, gameID string, room gameRoom) (string, error) {
	if s, ok := st.seeds.get(gameID); ok {
		return s, nil
	}
	snap, err := st.serverDoc(get, gameID, room)
	if err != nil {
		return "", err
	}
	seed, _ := snap.Data()[fSeed].(string)
	if seed == "" {
		return "", errors.New("store: game has no seed")
	}
	st.seeds.put(gameID, seed)
	return seed, nil
}

type seedLoadFailed struct{ err error }

// lazyDice reads the seed only when a rule rolls, so actions without dice cost
// no read of it. Rules cannot return an error from Roll, so a failed read
// panics with seedLoadFailed and guard turns it back into an error.
type lazyDice struct {
	load func() (string, error)
	seq  int64
	d    *domain.SeededDice
}

// secret reports whether the action's payload is its actor's secret: its
// type's (domain.Plan.Secret: a simultaneous round's orders), or every
// action's of its game (domain.Header.Secret: a fog game, whose game
// document says so from its create on). Known once the game document is
// read.
func (x *execution) secret() bool {
	return x.plan.Secret || (x.read != nil && x.read.gameSecret)
}

// keptHash is the request hash the action keeps: plain (requestHash), or,
// for an action whose payload is its actor's secret (secret), a Digest of
// it under the game's seal key: the game document's log, which its
// opponents read, keeps it, and they cannot test guesses of the payload
// against that. The key is the attempt's sealer's, the one the rules seal
// with (its seed read once, in the attempt's transaction, as the dice's
// is); a game this attempt did not find keeps plain (the action is refused
// anyway).
func (x *execution) keptHash(plain string) (string, error) {
	if !x.secret() || x.plan.Scope != domain.ScopeGame || x.read == nil || x.read.docs.Raw(domain.GameDocID) == nil {
		return plain, nil
	}
	s, err := x.sealer.sealer()
	if err != nil {
		return "", err
	}
	return s.Digest([]byte(plain)), nil
}

// lazySealer is lazyDice's counterpart for domain.Env.Seal: the seed is read
// when the rules first seal or open a secret.
type lazySealer struct {
	load func() (string, error)
	s    *domain.SeededSealer
}

func (l *lazySealer) sealer() (*domain.SeededSealer, error) {
	if l.s == nil {
		seed, err := l.load()
		if err != nil {
			return nil, err
		}
		l.s = domain.NewSeededSealer(seed)
	}
	return l.s, nil
}

func (l *lazySealer) Seal(label string, plain []byte) string {
	s, err := l.sealer()
	if err != nil {
		panic(seedLoadFailed{err})
	}
	return s.Seal(label, plain)
}

func (l *lazySealer) Open(label, sealed string) ([]byte, error) {
	s, err := l.sealer()
	if err != nil {
		return nil, err
	}
	return s.Open(label, sealed)
}

func (l *lazyDice) Roll(sides int) int {
	if l.d == nil {
		seed, err := l.load()
		if err != nil {
			panic(seedLoadFailed{err})
		}
		l.d = domain.NewSeededDice(seed, l.seq)
	}
	return l.d.Roll(sides)
}

// ViewKey implements domain.ViewKeyer.
func (l *lazySealer) ViewKey(viewer string) (string, error) {
	s, err := l.sealer()
	if err != nil {
		return "", err
	}
	return s.ViewKey(viewer)
}

// putSealed sets the sealed fields of game document fields doc from a
// write's (domain.Write.Sealed, Views): the whole state's text and the
// viewers' views (as a read gives them back: asRead), each left out (and
// removed) when the write has none.
func putSealed(doc map[string]any, sealed string, views map[string]string) {
	delete(doc, fSealed)
	delete(doc, fViews)
	if sealed != "" {
		doc[fSealed] = sealed
	}
	if views != nil {
		field := make(map[string]any, len(views))
		for v, text := range views {
			field[v] = text
		}
		doc[fViews] = field
	}
}
