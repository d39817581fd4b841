package domain

import (
	"encoding/json"
	"slices"
)

// Hidden information of a one-document game (Hex & Dice's fog of war).
//
// A one-document game keeps its whole state in the game document, which
// every player and spectator may read. A game with hidden information
// fills SingleGame.Hidden, and for every game whose state Hides, Single
// keeps three kinds of documents instead of one:
//
//   - the game document holds Public(state): what everyone may read;
//   - private/state (SlotHiddenState, server only) holds the whole state and
//     each viewer's recent events; actions read it as a snapshot, like the
//     game document;
//   - views/{viewerId} (SlotView, that viewer only) holds View(state, id) and
//     the viewer's recent events as the viewer saw them; it is written only
//     when its view changes or its viewer saw more of a step than the
//     neutral account (seen).
//
// The steps' events (the game document's log, event records, history
// batches: readable by everyone) are Events(before, after, events, ""): the
// neutral account. The reply's result passes through Reply, and "legal"
// lists the moves of Mask(state, caller).
type Hidden[S any] struct {
	// Hides reports whether s has anything to hide (a fog game). A state
	// that does not is kept as before: whole, in the game document.
	Hides func(s S) bool
	// Public is what the game document shows of s.
	Public func(s S) S
	// Viewers lists who gets a view document of s (its players).
	Viewers func(s S) []string
	// View is viewer's view document content.
	View func(s S, viewer string) any
	// Mask is s as viewer sees it: what "legal" lists moves from.
	Mask func(s S, viewer string) S
	// Events is a step's events as viewer saw them (before and after the
	// step); viewer "" is the neutral account everyone may read. It must
	// return a non-nil slice.
	Events func(before, after S, events []Event, viewer string) []Event
	// Reply is the action's result as its caller may see it (nil: as is).
	Reply func(s S, caller string, result any) any
}

// Slots of a game with hidden state (Single adds them to the game's slots).
const (
	SlotHiddenState = "hiddenState"
	SlotView        = "view"
)

// HiddenLabel is the label a hidden game's whole state is sealed under in
// its game document (Write.Sealed).
const HiddenLabel = "hidden:state"

// ViewKeep is how many of a viewer's latest steps their view document keeps,
// and ViewBytes how many bytes of their events at most (the latest step is
// always kept): a view is listened to, so it stays small (a simultaneous
// round's resolution alone can be a few KB of events).
const (
	ViewKeep  = 12
	ViewBytes = 4000
)

// HiddenSlots are the documents Hidden adds.
func HiddenSlots() []Slot {
	return []Slot{
		{Name: SlotHiddenState, Path: "private/state", Type: HiddenDoc[json.RawMessage]{}, Access: ReadNever, Journal: true,
			Doc: "hidden-information games: the whole state and each player's recent events, and the records of the latest actions (the platform's journal); server only"},
		{Name: SlotView, Path: "views/{key}", Type: ViewDoc{}, Access: ReadOwner,
			Doc: "hidden-information games: what one player sees and their recent events as they saw them, keyed by player id; that player only"},
	}
}

// HiddenDoc is private/state.
type HiddenDoc[S any] struct {
	Version int64       `json:"version"` // the game version it is the state of
	State   S           `json:"state"`
	Recent  []ViewerLog `json:"recent"`
	// InViews: each viewer's recent steps are those of their view sealed
	// beside it in the game document (Write.Views), not Recent: sealed
	// once, not twice (a few KB of the game document's budget).
	InViews bool `json:"inViews,omitempty"`
}

// ViewerLog is one viewer's recent steps.
type ViewerLog struct {
	Viewer string     `json:"viewer"`
	Steps  []SeenStep `json:"steps"`
}

// SeenStep is one step as a viewer saw it.
type SeenStep struct {
	Seq    int64   `json:"seq"`
	Type   string  `json:"type"`
	Events []Event `json:"events"`
}

// ViewDoc is views/{viewerId}.
type ViewDoc struct {
	Version int64      `json:"version"`
	View    any        `json:"view"`
	Events  []SeenStep `json:"events"` // the last ViewKeep steps that showed the viewer anything, as of the last step that showed it more than the neutral account
}

// ReadFull returns the game document with the whole state: a hidden game's
// comes from its game document's sealed field, opened with seal, or, in a
// game that has none (one spawned by another game's action, which cannot
// seal with the new game's key, before its first action; one created
// before the state was sealed there), from private/state (asked for with
// NeedDocs). A hidden game with neither has its whole state in the game
// document. recent is the viewers' recent steps. seal opens the sealed
// state.
//
// Errors: ENOTFOUND, *NeedDocs, EINTERNAL (a document that does not decode,
// a sealed state that does not open, or a whole state of another version
// than the game document).
func ReadFull[S any](d Docs, kind string, h *Hidden[S], seal Sealer) (doc GameDoc[S], recent map[string][]SeenStep, hidden bool, err error) {
	var g struct {
		GameDoc[S]
		Sealed string            `json:"sealed"`
		Views  map[string]string `json:"views"`
	}
	ok, err := d.Get(GameDocID, &g)
	if err != nil {
		return g.GameDoc, nil, false, err
	}
	if !ok {
		return g.GameDoc, nil, false, Errorf(ENOTFOUND, "no such %s game", kind)
	}
	doc = g.GameDoc
	if h == nil || !h.Hides(doc.State) {
		return doc, nil, false, nil
	}
	if g.Sealed != "" {
		hd, err := OpenHidden[S](seal, g.Sealed)
		if err != nil {
			return doc, nil, false, err
		}
		if hd.InViews {
			if hd.Recent, err = recentOfViews(seal, g.Views, hd.Version); err != nil {
				return doc, nil, false, err
			}
		}
		return withHidden(doc, hd, kind)
	}
	id := Doc(SlotHiddenState, "")
	if !d.Asked(id) {
		return doc, nil, false, Need(Read{DocID: id, Snapshot: true})
	}
	var hd HiddenDoc[S]
	if ok, err = d.Get(id, &hd); err != nil {
		return doc, nil, false, err
	}
	if !ok {
		return doc, map[string][]SeenStep{}, true, nil
	}
	return withHidden(doc, hd, kind)
}

// OpenHidden opens a hidden game's whole state as hiddenWrites sealed it
// in the game document (Write.Sealed) with seal.
//
// Errors: EINTERNAL (no sealer; text that does not open or decode).
func OpenHidden[S any](seal Sealer, sealed string) (HiddenDoc[S], error) {
	var hd HiddenDoc[S]
	if seal == nil {
		return hd, Errorf(EINTERNAL, "the whole state is sealed and nothing opens it")
	}
	plain, err := seal.Open(HiddenLabel, sealed)
	if err != nil {
		return hd, err
	}
	if err := json.Unmarshal(plain, &hd); err != nil {
		return hd, Errorf(EINTERNAL, "the sealed state: %v", err)
	}
	return hd, nil
}

// recentOfViews is each viewer's recent steps as their view sealed in the
// game document at version holds them (HiddenDoc.InViews).
//
// Errors: EINTERNAL (a view that does not open or decode, or of another
// version).
func recentOfViews(seal Sealer, views map[string]string, version int64) ([]ViewerLog, error) {
	out := []ViewerLog{}
	for v, text := range views {
		plain, err := seal.Open(ViewLabel(v), text)
		if err != nil {
			return nil, err
		}
		var vd struct {
			Version int64      `json:"version"`
			Events  []SeenStep `json:"events"`
		}
		if err := json.Unmarshal(plain, &vd); err != nil {
			return nil, Errorf(EINTERNAL, "the view of %s: %v", v, err)
		}
		if vd.Version != version {
			return nil, Errorf(EINTERNAL, "the view of %s is of version %d, the whole state of %d", v, vd.Version, version)
		}
		out = append(out, ViewerLog{Viewer: v, Steps: vd.Events})
	}
	return out, nil
}

// withHidden is doc with the whole state hd keeps, and the viewers' recent
// steps.
func withHidden[S any](doc GameDoc[S], hd HiddenDoc[S], kind string) (GameDoc[S], map[string][]SeenStep, bool, error) {
	if hd.Version != doc.Version {
		return doc, nil, false, Errorf(EINTERNAL, "%s: the whole state is of version %d, the game of %d", kind, hd.Version, doc.Version)
	}
	doc.State = hd.State
	recent := map[string][]SeenStep{}
	for _, l := range hd.Recent {
		recent[l.Viewer] = l.Steps
	}
	return doc, recent, true, nil
}

// hiddenWrites are the writes of a hidden game's state s at version: the
// game document (public, the whole state sealed in it with seal, and each
// viewer's view sealed for that viewer alone). Without seal the whole state
// is private/state's instead, and the views that changed since before (or
// that got events: fresh) are view documents: a spawned game's (the
// spawning action does not have the new game's key: the platform seals them
// into its game document as it writes it, SealSpawn); a game created
// before its state was sealed, to which Single passes no sealer (not
// GameDoc.Secret); the rules' own tests. Sealed, a fog action writes one
// document (issue 22).
func hiddenWrites[S any](h *Hidden[S], before, s S, head Header, version int64, create bool, recent map[string][]SeenStep, fresh map[string]bool, seal Sealer) []Write {
	head.Secret = true
	game := Write{DocID: GameDocID, Value: h.Public(s), Header: &head, Version: version, Create: create}
	viewers := h.Viewers(s)
	if seal != nil {
		// The whole state and each viewer's view ride in the game
		// document, sealed (the views under keys of their viewers' own):
		// a fog action writes one document. Sealed on every write (the
		// same view seals to the same text). Once the game is over the
		// game document holds the state whole, and nothing sealed is left
		// to open once the seed is published.
		if !h.Hides(s) {
			return []Write{game}
		}
		views := make(map[string]any, len(viewers))
		for _, v := range viewers {
			views[v] = ViewDoc{Version: version, View: h.View(s, v), Events: nonNil(recent[v])}
		}
		hd := HiddenDoc[S]{Version: version, State: s}
		var err error
		if game.Sealed, game.Views, err = sealHidden(seal, hd, views); err != nil {
			// Kept in the open instead: the store's write of it reports
			// what does not marshal.
			return []Write{game, {DocID: Doc(SlotHiddenState, ""), Value: hd, Create: create}}
		}
		return []Write{game}
	}
	hd := HiddenDoc[S]{Version: version, State: s, Recent: []ViewerLog{}}
	for _, v := range viewers {
		hd.Recent = append(hd.Recent, ViewerLog{Viewer: v, Steps: nonNil(recent[v])})
	}
	ws := []Write{game, {DocID: Doc(SlotHiddenState, ""), Value: hd, Create: create}}
	for _, v := range viewers {
		view := h.View(s, v)
		if !create && !fresh[v] && sameJSON(view, h.View(before, v)) && slices.Contains(h.Viewers(before), v) {
			continue
		}
		ws = append(ws, Write{DocID: Doc(SlotView, v), Value: ViewDoc{Version: version, View: view, Events: nonNil(recent[v])}})
	}
	return ws
}

// sealHidden seals a hidden game's whole state hd, its viewers' recent
// steps left to their views (HiddenDoc.InViews), and each viewer's view
// (views: a ViewDoc by viewer id, sealed under ViewLabel) for its game
// document: Write.Sealed and Write.Views.
//
// Errors: EINTERNAL (a value that does not marshal).
func sealHidden[S any](seal Sealer, hd HiddenDoc[S], views map[string]any) (string, map[string]string, error) {
	hd.Recent, hd.InViews = []ViewerLog{}, true
	plain, err := json.Marshal(hd)
	if err != nil {
		return "", nil, Errorf(EINTERNAL, "a hidden game's whole state: %v", err)
	}
	sealed := seal.Seal(HiddenLabel, plain)
	out := make(map[string]string, len(views))
	for v, view := range views {
		plain, err := json.Marshal(view)
		if err != nil {
			return "", nil, Errorf(EINTERNAL, "the view of %s: %v", v, err)
		}
		out[v] = seal.Seal(ViewLabel(v), plain)
	}
	return sealed, out, nil
}

// SealSpawn seals a spawned hidden game (a rematch) with seal, the new
// game's sealer, which the platform has only once it makes the new game's
// seed as it writes the spawn: the whole state Single wrote for it in
// private/state becomes sealed (Write.Sealed: each viewer's recent steps in
// their view, HiddenDoc.InViews) and each view document a sealed view
// (Write.Views), all in the new game's document as every later action keeps
// them; rest are its other writes. A spawn that hides nothing gives "" and
// nil.
//
// Errors: EINTERNAL (a write that does not marshal).
func SealSpawn(writes []Write, seal Sealer) (sealed string, views map[string]string, rest []Write, err error) {
	var hd *HiddenDoc[json.RawMessage]
	plain := map[string]any{}
	var viewDocs []Write // kept as they are when there is no whole state to seal beside them
	for _, w := range writes {
		switch w.DocID.Slot {
		case SlotHiddenState:
			b, err := json.Marshal(w.Value)
			if err != nil {
				return "", nil, nil, Errorf(EINTERNAL, "a spawned game's whole state: %v", err)
			}
			hd = &HiddenDoc[json.RawMessage]{}
			if err := json.Unmarshal(b, hd); err != nil {
				return "", nil, nil, Errorf(EINTERNAL, "a spawned game's whole state: %v", err)
			}
		case SlotView:
			plain[w.DocID.Key] = w.Value
			viewDocs = append(viewDocs, w)
		default:
			rest = append(rest, w)
		}
	}
	if hd == nil {
		return "", nil, append(rest, viewDocs...), nil
	}
	sealed, views, err = sealHidden(seal, *hd, plain)
	return sealed, views, rest, err
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// seen files a step's events as each viewer saw them and returns the
// neutral account. A viewer is fresh (its view document is written) only
// when it saw more than the neutral account, which the game document's log
// carries to every reader: a client merges the two, taking a step from the
// view when the view has it (web/src/pages/hexfog.ts viewRecords). So a
// step everyone sees alike (a turn's end, coins) does not rewrite every
// player's view (issue 22: it had made a fog action write 1.86 views).
func (h *Hidden[S]) seen(before, after S, seq int64, typ string, events []Event, recent map[string][]SeenStep, fresh map[string]bool) []Event {
	neutral := nonNil(h.Events(before, after, events, ""))
	for _, v := range h.Viewers(after) {
		evs := h.Events(before, after, events, v)
		if len(evs) == 0 {
			continue
		}
		recent[v] = trimSteps(append(recent[v], SeenStep{Seq: seq, Type: typ, Events: evs}))
		if !sameJSON(evs, neutral) {
			fresh[v] = true
		}
	}
	return neutral
}

// trimSteps keeps the last ViewKeep steps and at most ViewBytes of them
// (at least the last one).
func trimSteps(steps []SeenStep) []SeenStep {
	if len(steps) > ViewKeep {
		steps = steps[len(steps)-ViewKeep:]
	}
	size := 0
	for i := len(steps) - 1; i >= 0; i-- {
		b, _ := json.Marshal(steps[i])
		size += len(b)
		if size > ViewBytes && i < len(steps)-1 {
			return steps[i+1:]
		}
	}
	return steps
}
