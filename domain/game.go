package domain

import (
	"encoding/json"
	"sort"
	"strings"
	"time"
)

// Game is one game as the platform drives it: the documents it owns and what
// each action reads and writes. The platform (store, functions, triggers)
// knows no game by name; it asks the Game.
//
// An action runs in one transaction: the platform reads exactly what Plan
// lists, calls Run with those documents, writes what the Change lists, one
// event record per Step and the action record. A game kept in one document
// implements the simpler Rules[S] and becomes a Game with Single.
type Game interface {
	// Kind names the game, e.g. "dashdice"; it is stored on the game document.
	Kind() string
	// Slots lists the documents the game keeps besides the game document.
	Slots() []Slot
	// Plan says what action a reads and on which game it acts. It sees only
	// the request, so it may not depend on stored state: what Run finds it
	// needs after reading, it asks for with NeedDocs.
	//
	// Errors: EINVALID (an unknown type, a malformed payload).
	Plan(a Action) (Plan, error)
	// Run performs a on the documents read. It is pure: the same documents,
	// action and Env give the same Change. On an error nothing is written.
	//
	// Errors: *NeedDocs to read more documents and run again; any *Error.
	Run(d Docs, a Action, env Env) (Change, error)
}

// SlotGame is the slot of the game document itself, games/{gameId}. The
// platform keeps the header fields there (kind, status, version, players,
// deadlineAt, private, seedHash, hasRoom, timestamps) next to the game's
// "state".
// A game reads it like any other document; decode it with GameDoc.
const SlotGame = "game"

// Platform action types every game's function takes.
const (
	// ActionCreate makes a new game: the platform derives its id from the
	// caller and the action id, so a retried create finds the game it made.
	ActionCreate = "create"
	// ActionJoin with a roomCode instead of a gameId: the platform resolves
	// the code and runs the game's own join.
	ActionJoin = "join"
	// ActionAdvance is what the tick (and a client, once a deadline it sees
	// has passed) sends: apply every passed deadline, as of that deadline.
	ActionAdvance = "advance"
	// ActionLegal lists what the caller may do now (Move values).
	ActionLegal = "legal"
	// ActionQuickMatch and ActionLeaveQueue pair players through a queue, for
	// games that implement Matcher.
	ActionQuickMatch = "quickMatch"
	ActionLeaveQueue = "leaveQueue"
	// ActionViewKey gives a player of a hidden game the key that opens
	// their own view, sealed in the game document (hidden.go).
	ActionViewKey = "viewKey"
	// ActionReplay reads a finished game played again from its seed and its
	// recorded actions, every step with its state (store/replay.go).
	ActionReplay = "replay"
)

// Scope says what game an action acts on.
type Scope int

const (
	// ScopeGame: the game the request's gameId names (it must exist and be
	// of this kind).
	ScopeGame Scope = iota
	// ScopeCreate: a new game, whose id the platform derives (CreateID); the
	// game document must not exist yet.
	ScopeCreate
	// ScopeNone: no game (an upload to a shared collection, a listing). Such
	// an action leaves no action or event record, so it must be idempotent
	// by its nature.
	ScopeNone
)

// Plan is what an action reads.
type Plan struct {
	Scope Scope
	Reads []Read
	// RecordInEvent: the action's payload and reply tell nothing its own
	// event record does not (a step it makes that versions no game, so the
	// record's id is {actorId}~{actionId}, the key of its action record).
	// The platform then keeps the action's idempotency record in that event
	// record (field "act") instead of a server-only document of its own:
	// one write fewer (issue 22; Tile Race's undo, whose reply is its
	// "undone" event). Event records are read by everyone who may read the
	// game's events, so the platform does so only for an action that
	// carries no secret hash, signs no session in and read no document
	// outside the game; any other keeps the usual record.
	RecordInEvent bool
	// Secret: the action's payload is its actor's secret while the game is
	// played (a Hex & Dice player's orders). Where the platform keeps it for
	// a replay in a document others read (the game document's log, the
	// history), it keeps it sealed (Env.Seal's key, PayloadLabel), and the
	// request hash it keeps there for retries is a Digest under that key,
	// which no reader can test guesses against. The game's reply must not
	// tell it either.
	Secret bool
}

// Access says who may read a document slot; firestore.rules realises it and
// the rules tests check every slot of every registered game against it.
type Access string

const (
	ReadPublic Access = "public" // any signed-in caller
	ReadOwner  Access = "owner"  // the caller whose id is the document's key
	ReadAdmin  Access = "admin"  // the game's admins (a token scoped to the game with an admin role)
	ReadNever  Access = "never"  // the server only
)

// Slot describes one kind of document a game keeps.
type Slot struct {
	Name string // e.g. "team"; SlotGame is the platform's
	// Path is the document's path: relative to the game document
	// ("teams/{key}", "private/board") or, with a leading "/", from the
	// root ("/boards/{key}"). {key} stands for the DocID's key.
	Path string
	// Type is a zero value of what the document holds (for docs, the
	// conformance kit and the rules tests).
	Type   any
	Access Access
	// Doc says in a line what the document is for.
	Doc string
	// Records: a keyed, server-only slot whose document
	// {actorId}~{actionId}, when an action writes it, also keeps that
	// action's idempotency record (the platform's field "act": the reply a
	// retry gets), so the action writes no record document of its own. The
	// platform keeps the record when the game later deletes the document:
	// the document becomes a stub holding "act" alone (a retry of an undone
	// action must still get its first reply, not apply again). At most one
	// slot of a game has it.
	Records bool
	// Journal: an unkeyed, server-only document that every state-changing
	// action of the game reads and writes (a hidden game's private/state).
	// An action that writes it and would otherwise keep an action record
	// of its own (its other documents are not all public: a fog player's
	// view) keeps the record there instead, in the platform's field
	// "journal", with a key in the game document's recent actions; the
	// platform moves the records waiting there into one server-only
	// document of the actions collection when JournalKeep of them wait
	// (store/journal.go): a record write per JournalKeep actions rather
	// than one per action (issue 22). At most one slot of a game has it.
	//
	// A keyed slot readable by its owner (ReadOwner, keyed by player id)
	// may be a journal too, each player's own: an action that reads and
	// writes its actor's document of it, and writes no game journal, keeps
	// its record there the same way (a Hex & Dice orders draft, which
	// writes the game document and the player's orders). The records are
	// the player's own replies and payloads, which that player may read. At
	// most one such slot too.
	Journal bool
	// Packed names top-level fields of the document's JSON that are stored
	// as their JSON text, one string each, with the platform's field
	// "packed" listing them (domain.PackedField). Firestore converts, compares
	// and indexes every field of a document on every read and write, so a
	// large array or map that no rule or query looks into (a board's 56
	// tiles are 400-650 fields) is far cheaper as one field. Clients read a
	// packed field with JSON.parse; the platform unpacks it before the game
	// sees the document.
	Packed []string
	// CacheFor: the slot holds operators' configuration, which no action
	// writes; a snapshot read of it may be served from a copy the instance
	// read up to CacheFor ago instead of reading it again (a read saved per
	// action that needs it). An operator's change reaches every instance
	// within CacheFor. Zero: always read.
	CacheFor time.Duration
}

// ConfigCacheFor is how long an instance may serve its copy of an operator's
// configuration document (Slot.CacheFor of the slots holding them): a
// change an operator makes reaches every action within it.
const ConfigCacheFor = time.Minute

// PackedField is the platform's field of a stored document that lists the
// fields stored as JSON text (Slot.Packed); no document type may use it.
const PackedField = "packed"

// Keyed reports whether documents of the slot are told apart by a key.
func (s Slot) Keyed() bool { return strings.Contains(s.Path, "{key}") }

// DocID names one document: its slot and, for a keyed slot, its key.
type DocID struct {
	Slot string `json:"slot"`
	Key  string `json:"key,omitempty"`
}

// Doc names a document of a slot.
func Doc(slot, key string) DocID { return DocID{Slot: slot, Key: key} }

// GameDocID is the game document.
var GameDocID = DocID{Slot: SlotGame}

// Read is one document (or a whole keyed slot) an action reads.
type Read struct {
	DocID
	// All reads every document of a keyed slot (under this game); Key is
	// ignored. Docs.Keys lists what was found.
	All bool
	// Newest, with All and Order, reads only the Newest documents with the
	// highest value of the field Order (one ordered, limited query), not the
	// whole slot: a log of which only the latest entries matter.
	Newest int
	Order  string
	// Snapshot reads the document without holding it in the transaction:
	// writers of it do not wait for this action. Writing it back then
	// commits only if it has not changed since the read; if it has, the
	// whole action runs again on fresh documents.
	Snapshot bool
}

// Locked returns a plain read of id.
func Locked(id DocID) Read { return Read{DocID: id} }

// NeedDocs is what Run returns when, having seen the documents it has, it
// needs more: the platform reads them in the same transaction and calls Run
// again with everything read so far.
type NeedDocs struct{ Reads []Read }

func (n *NeedDocs) Error() string { return "need more documents" }

// Need asks for more documents.
func Need(reads ...Read) *NeedDocs { return &NeedDocs{Reads: reads} }

// Docs are the documents an action read, as JSON objects. A document that
// does not exist is absent.
type Docs struct {
	m     map[DocID]json.RawMessage
	keys  map[string][]string // slot → keys found, for All reads
	asked map[DocID]bool
}

// NewDocs returns an empty set (the store and tests fill it with Put).
func NewDocs() Docs {
	return Docs{m: map[DocID]json.RawMessage{}, keys: map[string][]string{}, asked: map[DocID]bool{}}
}

// Asked reports whether id was read, whether or not it exists.
func (d Docs) Asked(id DocID) bool { return d.asked[id] }

// Put records a read document; nil records that it does not exist.
func (d Docs) Put(id DocID, doc json.RawMessage) {
	d.asked[id] = true
	if doc == nil {
		delete(d.m, id)
		return
	}
	d.m[id] = doc
}

// PutAll records the result of reading a whole keyed slot.
func (d Docs) PutAll(slot string, docs map[string]json.RawMessage) {
	keys := make([]string, 0, len(docs))
	for k, doc := range docs {
		keys = append(keys, k)
		d.m[DocID{Slot: slot, Key: k}] = doc
		d.asked[DocID{Slot: slot, Key: k}] = true
	}
	sort.Strings(keys)
	d.keys[slot] = keys
}

// Has reports whether id was read and exists.
func (d Docs) Has(id DocID) bool { _, ok := d.m[id]; return ok }

// Raw returns the JSON of a document, nil when absent.
func (d Docs) Raw(id DocID) json.RawMessage { return d.m[id] }

// Keys returns the keys an All read of slot found, in order.
func (d Docs) Keys(slot string) []string { return d.keys[slot] }

// Get decodes document id into v and reports whether it exists.
//
// Errors: EINTERNAL when the stored document does not decode.
func (d Docs) Get(id DocID, v any) (bool, error) {
	return d.GetWith(id, func(raw json.RawMessage) error { return json.Unmarshal(raw, v) })
}

// GetWith is Get with a decoder of the game's own: for a document of which
// an action needs a part, read without decoding the rest (a Tile Race's
// public board on every completion).
//
// Errors: EINTERNAL when decode fails.
func (d Docs) GetWith(id DocID, decode func(json.RawMessage) error) (bool, error) {
	raw, ok := d.m[id]
	if !ok {
		return false, nil
	}
	if err := decode(raw); err != nil {
		return true, Errorf(EINTERNAL, "document %s/%s does not decode: %v", id.Slot, id.Key, err)
	}
	return true, nil
}

// GameDoc is the game document as a game reads it: the platform's header
// fields and the game's state.
type GameDoc[S any] struct {
	Kind     string `json:"kind"`
	Status   Status `json:"status"`
	Version  int64  `json:"version"`
	Private  bool   `json:"private,omitempty"`
	SeedHash string `json:"seedHash,omitempty"`
	// Secret: the game's create said its actions are secrets
	// (Header.Secret; the platform's field secretActs).
	Secret bool `json:"secretActs,omitempty"`
	State  S    `json:"state"`
}

// ReadGame decodes the game document, ENOTFOUND when it is absent.
func ReadGame[S any](d Docs, kind string) (GameDoc[S], error) {
	var g GameDoc[S]
	ok, err := d.Get(GameDocID, &g)
	if err != nil {
		return g, err
	}
	if !ok {
		return g, Errorf(ENOTFOUND, "no such %s game", kind)
	}
	return g, nil
}

// Change is what an action did: the steps that happened (each one event
// record), the documents to write, and the reply.
type Change struct {
	Steps  []Step
	Writes []Write
	// Result is the reply. An action that writes the game document and
	// nothing else has its reply kept in the game document (for a retry),
	// where anyone may read it: such a reply must tell nothing the game
	// document does not (a secret goes with a write of a private document,
	// whose action keeps a server-only record instead).
	Result any
	// Room reserves a room code for a game being created: others join with it.
	Room bool
	// Spawn creates more games of the same kind with this one (a rematch).
	Spawn []Spawn
	// Session asks the platform to sign this actor in and add a "session" to
	// the reply's result (which must then be a map[string]any): a Tile Race
	// creator becomes its master admin.
	Session *Actor
}

// Write is one document to store. The game document's write also carries
// the header and the version it reaches.
type Write struct {
	DocID
	Value  any  // the whole new document, marshalling to a JSON object
	Delete bool // remove the document instead
	// Create: the document must not exist yet (a ledger entry, a new game).
	// The action fails with EEXISTS when it does.
	Create bool
	// The game document only.
	Header  *Header
	Version int64
	// Sealed (the game document only) is text the platform keeps in the
	// document's "sealed" field, sealed by the game with Env.Seal: a hidden
	// game's whole state (hidden.go). "" removes the field.
	Sealed string
	// Views (the game document only) are the texts the platform keeps in
	// the document's "views" field, by viewer id, each sealed under
	// ViewLabel(viewer): a hidden game's views (hidden.go). nil removes the
	// field.
	Views map[string]string
}

// Step is one thing that happened to a game: the action itself, or an
// expired deadline applied on the way. Each step is one event record.
type Step struct {
	Actor  Actor
	Type   string
	Events []Event
	// Version is the game version the step made; 0 for a step that leaves the
	// game document's version alone (its record is keyed by the action).
	Version int64
}

// Events returns the events of every step, in order (never nil).
func (c Change) Events() []Event {
	all := []Event{}
	for _, s := range c.Steps {
		all = append(all, s.Events...)
	}
	return all
}

// GameWrite returns the write of the game document, if the change has one.
func (c Change) GameWrite() (Write, bool) {
	for _, w := range c.Writes {
		if w.DocID == GameDocID {
			return w, true
		}
	}
	return Write{}, false
}

// Env additions for multi-document games: DiceAt gives the dice of a
// sequence number of the game's choosing (Single uses the game version), so
// every roll can be recomputed from the revealed seed.
type DiceSource func(seq int64) Dice

// Matcher is implemented by games that pair players through a quick-match
// queue. Queue names the queue a quickMatch request joins and the create
// payload the pair's game is made with (the waiting player hosts); the
// platform then runs create for the host and join for the newcomer.
type Matcher interface {
	Queue(payload json.RawMessage) (queue string, create json.RawMessage, err error)
}

// QueueJoiner is implemented by a Matcher whose join needs the newcomer's
// own request (CodeBowl: the team they play with). JoinPayload turns the
// payload of the newcomer's quickMatch into the payload of their join;
// without it the join has an empty payload.
type QueueJoiner interface {
	JoinPayload(queue json.RawMessage) (json.RawMessage, error)
}

// Admitter is implemented by games that admit other callers than
// DefaultAdmit does. Admit runs before anything is read.
type Admitter interface {
	Admit(a Actor, gameID, action string) error
}

// DefaultAdmit lets players, guests and bots (docs/bots.md: the platform
// acts for them, no session is ever issued to one) act and refuses any token
// scoped to a game (a Tile Race team or admin) or made for another role.
//
// Errors: EFORBIDDEN.
func DefaultAdmit(a Actor, gameID, action string) error {
	if a.Game != "" {
		return Errorf(EFORBIDDEN, "this session is for game %q only; sign in as a player or guest", a.Game)
	}
	if a.Role != RoleGuest && a.Role != RolePlayer && a.Role != RoleBot {
		return Errorf(EFORBIDDEN, "a %s session cannot act here; sign in as a player or guest", a.Role)
	}
	return nil
}

// Admit runs g's admission check for a.
func Admit(g Game, a Actor, gameID, action string) error {
	if ad, ok := g.(Admitter); ok {
		return ad.Admit(a, gameID, action)
	}
	return DefaultAdmit(a, gameID, action)
}

// SeedKeeper is implemented by games whose seed must stay secret after the
// game ends (Tile Race: its dice drew private content, and an undo can make
// a finished race active again). The platform publishes every other game's
// seed on its game document when it is over, so anyone can replay its rolls.
type SeedKeeper interface {
	KeepsSeed() bool
}

// PublishesSeed reports whether g's seed is revealed when it ends.
func PublishesSeed(g Game) bool {
	k, ok := g.(SeedKeeper)
	return !ok || !k.KeepsSeed()
}

// Passworder is implemented by games whose actions carry a password: the
// platform checks its length, hashes it and hands the game only the hash
// (Action.Secret). PasswordMin returns 0 for actions without one.
type Passworder interface {
	PasswordMin(action string) int
}

// Credential is a password-protected principal's document: the hash and the
// sign-in throttle the platform keeps. Games write it with the hash from
// Action.Secret and never read it.
type Credential struct {
	Hash string `json:"hash"`
	// Generation is bumped whenever the principal's sessions must end
	// (password change); the platform checks it on every call.
	Generation int64 `json:"generation,omitempty"`
}

// Record is an event record as effect handlers see it.
type Record struct {
	GameID string        `json:"gameId"`
	ID     string        `json:"id"` // the record's document id
	Kind   string        `json:"kind"`
	Type   string        `json:"type"` // the action or step type
	At     time.Time     `json:"at"`
	Actor  Actor         `json:"actor"`
	Events []RecordEvent `json:"events"`
}

// RecordEvent is one event of a record, its data still JSON.
type RecordEvent struct {
	Type   string          `json:"type"`
	Player string          `json:"player,omitempty"`
	Data   json.RawMessage `json:"data,omitempty"`
}

// Effect is work that follows from an event once it is recorded: on other
// documents (a ledger, a leaderboard) and off the action's path. The platform
// runs every handler of a record's events exactly once, in one transaction,
// from the document trigger or the tick's sweep; a record is pending exactly
// while a registered handler (or the marker of its game's Projection, for an
// event the projection names) has not run.
type Effect struct {
	Event string // the event type handled
	// Reads lists what the handler reads for the record (its events of
	// type Event among them). NeedDocs from Run reads more.
	Reads func(r Record) ([]Read, error)
	// Run returns the documents to write and, if it made a change worth a
	// record of its own, its steps (system steps, recorded like an action's).
	// Creating a document that exists fails the effect (a handler that may
	// meet its own earlier writes reads them first).
	Run func(d Docs, r Record, now time.Time) (Change, error)
	// Eager handlers also run right after the action commits, in the
	// request, so their result is there when the reply arrives (Tile Race's
	// fog frontier). They must be idempotent: the record's effects run them
	// again.
	Eager bool
}

// SignIn is a kind of password sign-in a game adds to the Auth function
// (Tile Race's teamLogin, adminLogin). Find names the principal's
// credential document and the actor its session is for, from the request
// and the documents Reads lists; the platform checks the password against
// the credential with its throttle and issues the session.
type SignIn struct {
	Type  string // the Auth request's "type"
	Reads func(req json.RawMessage) (gameID string, reads []Read, err error)
	// Find returns the principal. A wrong game or name must be EUNAUTHORIZED
	// with the same message as a wrong password.
	Find func(d Docs, req json.RawMessage) (Actor, DocID, error)
}
