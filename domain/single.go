package domain

import (
	"slices"
	"time"
)

// MaxExpiries bounds how many passed deadlines one action applies.
const MaxExpiries = 50

// SingleGame describes a game kept in one document: its rules, and how a
// create request becomes a new game's state.
type SingleGame[S any] struct {
	Rules Rules[S]
	// Create builds the state of a new game (id in a.GameID) from a create
	// request, reading what CreateReads lists (configuration documents), and
	// says whether the game wants a room code. nil: the game is only made
	// by other means (a rematch's Spawn).
	Create      func(d Docs, a Action, env Env) (state S, room bool, err error)
	CreateReads func(a Action) ([]Read, error)
	// More slots than the game document (documents Create reads).
	MoreSlots []Slot
	// Hidden, when set, keeps what a state hides out of the game document
	// (hidden.go).
	Hidden *Hidden[S]
}

// Single makes a one-document rule set a Game: the game document holds the
// whole state; every action reads it, applies the deadlines that passed (each
// as of its deadline, one step and one version each), applies the action and
// writes it back with one event record per step. The dice of a step are
// DiceAt(the version it makes), so a game's rolls are recomputable from its
// seed and its event log.
func Single[S any](g SingleGame[S]) Game { return single[S](g) }

type single[S any] SingleGame[S]

func (g single[S]) Kind() string { return g.Rules.Kind() }
func (g single[S]) Slots() []Slot {
	if g.Hidden != nil {
		return append(slices.Clone(g.MoreSlots), HiddenSlots()...)
	}
	return g.MoreSlots
}

// Plan implements Game: every action reads the game document alone, a create
// reads what CreateReads lists.
func (g single[S]) Plan(a Action) (Plan, error) {
	if a.Type == ActionCreate {
		if g.Create == nil {
			return Plan{}, Errorf(EINVALID, "unknown action type %q", a.Type)
		}
		p := Plan{Scope: ScopeCreate, Reads: []Read{gameRead}}
		if g.CreateReads != nil {
			more, err := g.CreateReads(a)
			if err != nil {
				return Plan{}, err
			}
			p.Reads = append(p.Reads, more...)
		}
		return p, nil
	}
	return Plan{Reads: []Read{gameRead}}, nil
}

// gameRead is how a one-document game reads its document: as a snapshot, so
// actions on one game never wait on each other's locks; the write back is
// conditional on the document being unchanged, and a loser runs again on
// the new state (docs/architecture.md).
var gameRead = Read{DocID: GameDocID, Snapshot: true}

// Run implements Game.
func (g single[S]) Run(d Docs, a Action, env Env) (Change, error) {
	if a.Type == ActionCreate {
		return g.create(d, a, env)
	}
	doc, recent, hidden, err := ReadFull(d, g.Kind(), g.Hidden, env.Seal)
	if err != nil {
		return Change{}, err
	}
	r := singleRun[S]{rules: g.Rules, state: doc.State, version: doc.Version, env: env, spawnHidden: g.Hidden}
	if hidden {
		r.hidden, r.recent, r.fresh = g.Hidden, recent, map[string]bool{}
		if doc.Secret {
			// Its whole state goes sealed into the game document. A game
			// created before its create said so keeps private/state (and
			// its journal) to its end, as it was played.
			r.seal = env.Seal
		}
	}
	if a.Type == ActionViewKey {
		// Answered from the state as read: a passed deadline changes no
		// viewer, and the call writes nothing.
		key, err := r.viewKey(a.Actor)
		return Change{Result: key}, err
	}
	start := doc.State
	if err := r.expire(); err != nil {
		return Change{}, err
	}
	switch a.Type {
	case ActionAdvance:
	case ActionLegal:
		l, ok := g.Rules.(Lister[S])
		if !ok {
			return Change{}, Errorf(EINVALID, "%s cannot list moves", g.Kind())
		}
		st := r.state
		if r.hidden != nil {
			st = r.hidden.Mask(st, a.Actor.ID)
		}
		moves := l.Legal(st, a.Actor)
		if moves == nil {
			moves = []Move{}
		}
		r.ch.Result = map[string]any{"moves": moves}
	default:
		s, out, err := g.Rules.Apply(r.state, a, r.stepEnv(env.Now))
		if err != nil {
			return Change{}, err
		}
		r.record(s, a.Actor, a.Type, out)
	}
	if r.hidden != nil && r.hidden.Reply != nil {
		r.ch.Result = r.hidden.Reply(r.state, a.Actor.ID, r.ch.Result)
	}
	if len(r.ch.Steps) > 0 {
		h := g.Rules.Header(r.state)
		if r.hidden != nil {
			r.ch.Writes = append(r.ch.Writes, hiddenWrites(r.hidden, start, r.state, h, r.version, false, r.recent, r.fresh, r.seal)...)
			return r.ch, nil
		}
		r.ch.Writes = append(r.ch.Writes, Write{DocID: GameDocID, Value: r.state, Header: &h, Version: r.version})
	}
	return r.ch, nil
}

// viewKey is what action viewKey answers a player of a hidden game whose
// views ride sealed in its game document: the key that opens their own
// (ViewLabel), and the label. Nobody else gets one: not a spectator, not
// a player of a game that hides nothing (any more), whose views are not
// sealed.
//
// Errors: EINVALID (a game with no sealed views), EFORBIDDEN (not one of
// its viewers).
func (r *singleRun[S]) viewKey(caller Actor) (map[string]any, error) {
	k, ok := r.seal.(ViewKeyer)
	if r.hidden == nil || r.seal == nil || !ok {
		return nil, Errorf(EINVALID, "this game keeps no sealed views: a player's view, if any, is views/{playerId}")
	}
	if !slices.Contains(r.hidden.Viewers(r.state), caller.ID) {
		return nil, Errorf(EFORBIDDEN, "only a player of this game has a view to open")
	}
	key, err := k.ViewKey(caller.ID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"key": key, "label": ViewLabel(caller.ID), "cipher": "AES-256-GCM"}, nil
}

func (g single[S]) create(d Docs, a Action, env Env) (Change, error) {
	if d.Has(GameDocID) {
		return Change{}, Errorf(EEXISTS, "game %q already exists", a.GameID)
	}
	s, room, err := g.Create(d, a, env)
	if err != nil {
		return Change{}, err
	}
	h := g.Rules.Header(s)
	created := Created{GameID: a.GameID}
	if env.New != nil {
		created = *env.New
		if !room {
			created.RoomCode = ""
		}
	}
	writes := []Write{{DocID: GameDocID, Value: s, Header: &h, Create: true}}
	if g.Hidden != nil && g.Hidden.Hides(s) {
		writes = hiddenWrites(g.Hidden, s, s, h, 0, true, map[string][]SeenStep{}, nil, env.Seal)
	}
	return Change{
		Writes: writes,
		Room:   room,
		Result: created,
	}, nil
}

// singleRun is one Run at work: the state so far and the steps taken.
type singleRun[S any] struct {
	rules   Rules[S]
	state   S
	version int64
	env     Env
	ch      Change
	// A hidden game's (nil otherwise): each viewer's recent steps, and
	// which of them this run added to.
	hidden *Hidden[S]
	recent map[string][]SeenStep
	fresh  map[string]bool
	// seal seals the whole state into the game document (nil: it is
	// private/state's).
	seal Sealer
	// spawnHidden is the game's Hidden, for the games a step spawns: a
	// finished game hides nothing, its rematch does.
	spawnHidden *Hidden[S]
}

// stepEnv is the Env of the step that makes the next version.
func (r *singleRun[S]) stepEnv(now time.Time) Env {
	e := Env{Now: now, DiceAt: r.env.DiceAt, Seal: r.env.Seal}
	if r.env.DiceAt != nil {
		e.Dice = r.env.DiceAt(r.version + 1)
	}
	return e
}

// expire applies every deadline that passed by env.Now, each as of its deadline.
func (r *singleRun[S]) expire() error {
	for i := 0; i < MaxExpiries; i++ {
		h := r.rules.Header(r.state)
		if h.Status == StatusOver || h.Deadline.IsZero() || r.env.Now.Before(h.Deadline) {
			return nil
		}
		s, out, err := r.rules.Expire(r.state, r.stepEnv(h.Deadline))
		if err != nil {
			return err
		}
		r.record(s, System, ActionExpire, out)
	}
	return nil
}

// ActionExpire is the type of the step an expired deadline makes.
const ActionExpire = "expire"

func (r *singleRun[S]) record(s S, actor Actor, typ string, out Outcome) {
	before := r.state
	r.state = s
	r.version++
	SayAll(r.rules, s, out.Events) // events in words, as of the new state
	events := out.Events
	if events == nil {
		events = []Event{}
	}
	if r.hidden != nil {
		events = r.hidden.seen(before, s, r.version, typ, events, r.recent, r.fresh)
	}
	r.ch.Steps = append(r.ch.Steps, Step{Actor: actor, Type: typ, Events: events, Version: r.version})
	for _, sp := range out.Spawn {
		st, ok := sp.State.(S)
		if ok {
			sp.Header = r.rules.Header(st)
			if h := r.spawnHidden; h != nil && h.Hides(st) {
				// A hidden game's rematch is hidden from its first version:
				// its game document public; its whole state and views as
				// private/state and view documents here, which the platform
				// seals into its game document with the seed it makes for
				// it (SealSpawn).
				ws := hiddenWrites(h, st, st, sp.Header, 0, true, map[string][]SeenStep{}, nil, nil)
				sp.State, sp.Writes, sp.Header = ws[0].Value, ws[1:], *ws[0].Header
			}
		}
		r.ch.Spawn = append(r.ch.Spawn, sp)
	}
	r.ch.Result = out.Result
}
