package domain

import (
	"context"
	"io"
	"sort"
	"strings"
	"time"
)

// Entry is one game as the deployment registers it: everything the platform
// derives from a game (its HTTP function, its effects, its sign-ins, its
// timers, its demo and load scenario) comes from here. The registry — the
// list of entries — lives outside the platform, in the package the deploy
// root and the local stack import.
type Entry struct {
	Game Game
	// Function is the name of the game's HTTP function ("DashDice"); it is
	// also the deployed function's entry point.
	Function string
	// MaxBody caps a request to the function; 0 is the platform's default.
	MaxBody int
	// Stats: the platform records each player's results of the game's
	// gameOver events (per-kind, per-mode stats and leaderboards). A game
	// whose results name teams rather than platform players leaves it off.
	Stats bool
	// Effects the game's events have (besides the platform's stats).
	Effects []Effect
	// Projection rebuilds documents the game derives from others, in the
	// tick rather than on every event: a document that every writer of a
	// game would otherwise rewrite (Tile Race's leaderboard, summed from
	// its teams' points). nil for a game that has none.
	Projection *Projection
	// SignIns are the kinds of password sign-in the game adds to Auth.
	SignIns []SignIn
	// Outbox delivers the messages the game writes to its outbox slot
	// (SlotOutbox); nil for a game that sends none.
	Outbox *Outbox
	// Bots plays the game's seats for the platform (docs/bots.md): the host
	// adds a bot with addBot, quick match may seat one, and the document
	// trigger and the tick move it. nil: the game takes no bots.
	Bots Bots
	// Demo seeds the local stack with a game to play.
	Demo Demo
	// Load is the game's load-generator scenario.
	Load Scenario
}

// Projection is a periodic pass over one game: the tick's projection pass
// (every tick, more often while a tick lasts) runs it once for each game
// that has a record holding one of Events whose effects were applied since
// the last pass (docs/triggers.md, "Leaderboards and projections").
// It reads at one moment without holding anything (documents as snapshots,
// whole slots with one query each), so no effect ever waits for it, and
// writes what Run returns only if the documents it read as snapshots are
// unchanged (otherwise it runs again on fresh reads). Run must be a pure
// function of what it reads, so running it twice, late or concurrently
// writes the same thing; it returns no writes when its documents are
// already up to date.
type Projection struct {
	// Events are the event types whose applied effects make the game's
	// projection due. A record holding one is pending even when no handler
	// handles it: applying its effects marks the game for the pass.
	Events []string
	// Reads lists what Run reads; NeedDocs from Run reads more.
	Reads []Read
	// Run returns the documents to write, none when nothing changed.
	Run func(d Docs, now time.Time) (Change, error)
}

// Kind is the kind of the entry's game.
func (e Entry) Kind() string { return e.Game.Kind() }

// Registry is every game of a deployment.
type Registry []Entry

// Find returns the entry of a game kind.
func (r Registry) Find(kind string) (Entry, bool) {
	for _, e := range r {
		if e.Game.Kind() == kind {
			return e, true
		}
	}
	return Entry{}, false
}

// Caller calls the deployed functions the way a client does: the local
// stack's demos and the load generator use it.
type Caller interface {
	// Call posts body to the function and returns the decoded JSON reply;
	// a reply other than 200 is an error carrying the body.
	Call(ctx context.Context, function, token string, body any) (map[string]any, error)
	// Guest signs a guest in and returns its session reply (token,
	// firebaseToken, player).
	Guest(ctx context.Context, nickname string) (map[string]any, error)
	// URL is the address of a function, for the commands a demo prints.
	URL(function string) string
	// FirestoreHost is the Firestore emulator's host:port.
	FirestoreHost() string
}

// DemoGame is what a demo made: lines for the stack's banner (commands a
// person pastes to play it) and named values the stack's tests use.
type DemoGame struct {
	Title  string
	Lines  []string
	Values map[string]string
}

// Demo seeds one game's demo through the real functions.
type Demo func(ctx context.Context, c Caller) (DemoGame, error)

// Probe is what a load scenario may measure with besides calling functions.
type Probe interface {
	Caller
	// Counts returns the Firestore documents read and written so far by the
	// functions (counted from the RPCs).
	Counts() (reads, writes int64)
	// Doc reads a document (its fields as Firestore holds them: whole
	// numbers are int64, packed fields JSON text) and its storage size;
	// nil when absent.
	Doc(ctx context.Context, path string) (map[string]any, int, error)
	// Watch follows a game document with a listener, as a client would; seen
	// waits (up to 10 s) until the listener saw the given version and says
	// when it did.
	Watch(ctx context.Context, gameID string) (seen func(version int64) time.Time, stop func())
	// Bare runs one bare one-document read-write transaction on the same
	// emulator, with an uncounted client, and returns how long it took.
	// Scenarios run one after each action they time, so an action and the
	// floor it is set against are measured in the same conditions (the
	// emulator's JVM as warm, the machine as busy).
	Bare(ctx context.Context) (time.Duration, error)
	// Floor is the concurrent floor: writers goroutines at once, each
	// running rounds transactions that read reads and write writes
	// documents of its own (nothing shared), on the same emulator with an
	// uncounted client. It returns how long they all took: what this
	// machine and emulator do with that much independent work.
	Floor(ctx context.Context, writers, reads, writes, rounds int) (time.Duration, error)
	// DocFloor is what given documents cost Firestore alone: writers
	// goroutines at once, each running rounds of one batched read of its own
	// copies of reads and one commit that writes writes[0] back over its
	// copy of reads[1] (reads[0] when alone) on the condition that it did not
	// change, and creates the rest of writes as new documents. Set against
	// an action that reads and writes those documents, it tells Firestore's
	// share of the action's cost from the stack's.
	DocFloor(ctx context.Context, writers, rounds int, reads, writes []map[string]any) (time.Duration, error)
}

// Scenario measures one game through the local stack and prints its figures.
type Scenario func(ctx context.Context, p Probe, out io.Writer) error

// ActionTyper is implemented by games that list their action types (beyond
// the platform's own: legal, advance and, where they apply, create, join,
// quickMatch, leaveQueue). A test holds every listed type documented.
type ActionTyper interface {
	ActionTypes() []string
}

// SortedKeys returns m's keys, sorted.
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Handler finds the handler of action type typ in a game's dispatch table,
// so every game refuses an unknown type the same way, naming the types it
// takes (from the table, so the list cannot drift).
//
// Errors: EINVALID.
func Handler[H any](handlers map[string]H, typ string) (H, error) {
	h, ok := handlers[typ]
	if !ok {
		return h, Errorf(EINVALID, "unknown action type %q (one of %s)", typ, strings.Join(SortedKeys(handlers), ", "))
	}
	return h, nil
}
