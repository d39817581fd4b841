package store

import (
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// What a replay needs is recorded as the game is played (docs/firestore.md
// "What a replay reads"):
//
//   - how the game began, in its private document (server only) under
//     "replay": the create action (its payload without the platform's
//     fields, its actor, its time, its room code, the password hash the
//     platform handed the game, and the documents outside the game it read,
//     such as a CodeBowl team); a quick match's join with it; or the first
//     state of a game a rematch spawned;
//   - each later action's payload: in the game document's log step ("p")
//     when the action wrote the game document alone (what the log already
//     tells everyone, and the reply kept there), else in the action's
//     server-only record under "replay" with its actor, its secret hash and
//     the documents outside the game it read. A Hex & Dice player's hidden
//     orders are of the second kind: they never reach a readable document.
//
// No password is ever recorded: the platform takes it out of the payload
// before any game sees it; only its hash goes, and only to server-only
// documents.
const fReplay = "replay"

// Recording limits.
const (
	// maxRecordedPayload is the largest payload an action record keeps for
	// a replay (a Tile Race import is up to 512 KiB; a Firestore document
	// holds 1 MiB). A larger one is noted as too large and its game does
	// not replay.
	maxRecordedPayload = 700_000
	// maxRecordedRoot is the largest document outside the game that is
	// recorded as read (a CodeBowl team is about 2 KB). A larger one (a
	// Party Board board file, which is content-addressed and never changes)
	// is read again when the game is replayed.
	maxRecordedRoot = 16 << 10
)

// platformFields are the request fields a replayed action does without: the
// envelope, which the replay sets itself, and what the platform takes out
// before a game sees the payload.
var platformFields = append(append([]string{}, domain.Envelope...), "seed", "roomCode", "password")

// replayPayload is an action's payload as a replay keeps it: the game's own
// fields only, compact; "" when nothing is left.
func replayPayload(p json.RawMessage) string {
	var m map[string]json.RawMessage
	if len(p) == 0 || json.Unmarshal(p, &m) != nil {
		return ""
	}
	for _, f := range platformFields {
		delete(m, f)
	}
	if len(m) == 0 {
		return ""
	}
	return jsonText(m)
}

// jsonText is v's JSON as a string, "" when v does not encode: what a
// record keeps for a replay is one string field.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// addReplayInput decodes a recorded replay input s (replayRecord's JSON) into
// inputs under id; "" records nothing.
func addReplayInput(inputs map[string]replayInput, id, s string) error {
	if s == "" {
		return nil
	}
	var in replayInput
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		return err
	}
	inputs[id] = in
	return nil
}

// replayInput is one action as a replay runs it again.
type replayInput struct {
	ID     string       `json:"id,omitempty"`
	Type   string       `json:"type,omitempty"`
	Actor  domain.Actor `json:"actor"`
	P      string       `json:"p,omitempty"`
	Big    bool         `json:"big,omitempty"` // the payload was too large to keep
	Secret string       `json:"secret,omitempty"`
	At     time.Time    `json:"at"`
	Room   string       `json:"room,omitempty"`
	Roots  []rootDoc    `json:"roots,omitempty"`
}

// rootDoc is a document outside the game's own (a slot whose path starts
// with "/") as an action read it; Doc is nil when it did not exist.
type rootDoc struct {
	Slot string          `json:"slot"`
	Key  string          `json:"key,omitempty"`
	Doc  json.RawMessage `json:"doc"`
}

// replayStart is how a game began: its create (and a quick match's join),
// or a spawned game's first state.
type replayStart struct {
	Create *replayInput    `json:"create,omitempty"`
	Join   *replayInput    `json:"join,omitempty"`
	State  json.RawMessage `json:"state,omitempty"`
	Header *domain.Header  `json:"header,omitempty"`
}

// inputOf is action a as this attempt ran it.
func (at *attempt) inputOf(a domain.Action) *replayInput {
	in := &replayInput{ID: a.ID, Type: a.Type, Actor: a.Actor, Secret: a.Secret, At: at.now}
	if p := replayPayload(a.Payload); len(p) > maxRecordedPayload {
		in.Big = true
	} else {
		in.P = p
	}
	in.Roots = at.rootsRead()
	return in
}

// rootsRead lists the documents outside the game the attempt read, up to
// maxRecordedRoot bytes each, in a stable order.
func (at *attempt) rootsRead() []rootDoc {
	var out []rootDoc
	for r := range at.rs.done {
		if r.All || r.DocID == domain.GameDocID {
			continue
		}
		sl, ok := at.x.sl.byName[r.Slot]
		if !ok || !strings.HasPrefix(sl.Path, "/") {
			continue
		}
		raw := at.rs.docs.Raw(r.DocID)
		if len(raw) > maxRecordedRoot {
			continue
		}
		out = append(out, rootDoc{Slot: r.Slot, Key: r.Key, Doc: raw})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Slot != out[j].Slot {
			return out[i].Slot < out[j].Slot
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// keptInGame reports whether the action is recorded in the game document
// alone (log.go): its reply in the game document's recent actions, its
// payload (and the documents outside the game it read) in its log step, and
// no action record. So it is when the action wrote the game document and
// nothing else; and beside other writes, when it carries nothing that is
// not public (no password hash, no session it signs in), read nothing
// outside the game that is not public (readsPublic: those documents ride in
// its log step for a replay, inlineRoots) and either wrote only public
// documents besides (writesPublic, domain.ReadPublic: a CodeBowl join,
// which locks the joiner's team, and the step that ends a match, which
// gives both teams back with their dead gone) or has its reply sealed
// (sealsReply: a fog action, which writes its players' views; before
// 2026-11-27 its record waited in private/state's journal). Either way its
// reply tells no reader of the game more than that reader may read.
func (at *attempt) keptInGame() bool {
	w, ok := at.change.GameWrite()
	if !ok || w.Create || len(at.change.Spawn) != 0 || at.x.req.Action.ID == "" || at.hash == "" {
		return false
	}
	if len(at.change.Writes) == 1 {
		return true
	}
	if at.x.req.Action.Secret != "" || at.change.Session != nil || !at.readsPublic() {
		return false
	}
	return at.writesPublic() || at.sealsReply()
}

// sealsReply reports whether the action's reply, where the game document
// keeps it for a retry, is sealed under its actor's label
// (domain.ReplyLabel): every action of its game is a secret
// (domain.Header.Secret: a fog game, whose replies may tell what only their
// player sees).
func (at *attempt) sealsReply() bool {
	return at.x.read != nil && at.x.read.gameSecret
}

// readsPublic reports whether every document the action read besides the
// game document is of a public slot.
func (at *attempt) readsPublic() bool {
	for r := range at.rs.done {
		if r.DocID != domain.GameDocID && !at.publicSlot(r.Slot) {
			return false
		}
	}
	return true
}

// writesPublic reports whether every document the action wrote besides the
// game document is of a public slot.
func (at *attempt) writesPublic() bool {
	for _, w := range at.change.Writes {
		if w.DocID != domain.GameDocID && !at.publicSlot(w.Slot) {
			return false
		}
	}
	return true
}

// publicSlot reports whether slot's documents are public
// (domain.ReadPublic: any signed-in caller).
func (at *attempt) publicSlot(slot string) bool {
	sl, ok := at.x.sl.byName[slot]
	return ok && sl.Access == domain.ReadPublic
}

// ownStep reports whether s is the step the action itself made (not a
// deadline it applied first).
func (at *attempt) ownStep(s domain.Step) bool {
	a := at.x.req.Action
	return s.Type == a.Type && s.Actor.ID == a.Actor.ID
}

// inlinePayload is what the log step of s keeps of the action's payload:
// on the action's own step of an action kept in the game document alone;
// sealed under the game's key when it is its actor's secret
// (execution.secret), which a replay opens with the published seed.
//
// Errors: the seed's read.
func (at *attempt) inlinePayload(s domain.Step) (string, error) {
	if !at.ownStep(s) || !at.keptInGame() {
		return "", nil
	}
	p := replayPayload(at.x.req.Action.Payload)
	if len(p) > maxRecordedPayload {
		return "", nil
	}
	if p == "" || !at.x.secret() {
		return p, nil
	}
	sealer, err := at.sealer.sealer()
	if err != nil {
		return "", err
	}
	return sealer.Seal(domain.PayloadLabel(at.x.req.Action.Actor.ID), []byte(p)), nil
}

// inlineRoots is what the log step of s keeps of the documents outside the
// game the action read, as one JSON string: on the action's own step of an
// action kept in the game document that read any (readsPublic: they are
// public), "" otherwise. An action that wrote the game document alone keeps
// none, as before this was kept: what such an action reads outside the game
// is content-addressed (a Party Board board) and read again by a replay.
func (at *attempt) inlineRoots(s domain.Step) string {
	if !at.ownStep(s) || len(at.change.Writes) == 1 || !at.keptInGame() {
		return ""
	}
	roots := at.rootsRead()
	if len(roots) == 0 {
		return ""
	}
	return jsonText(roots)
}

// replayRecord is what the action's server-only record keeps for a
// replay, as one JSON string.
func (at *attempt) replayRecord() any {
	if s := jsonText(at.inputOf(at.x.req.Action)); s != "" {
		return s
	}
	return nil
}

// replayStart is what a new game's private document keeps of how it began.
func (at *attempt) replayStart(room string) map[string]any {
	start := replayStart{Create: at.inputOf(at.x.req.Action)}
	start.Create.Room = room
	if at.joined != nil {
		start.Join = at.inputOf(*at.joined)
		start.Join.Roots = nil // the create's carry every read of the pair
	}
	b, err := json.Marshal(start)
	if err != nil {
		return nil
	}
	return map[string]any{"start": string(b)}
}

// spawnStart is what a spawned game's private document keeps: its first
// state (a rematch has no create of its own).
func spawnStart(sp domain.Spawn) map[string]any {
	state, err := json.Marshal(sp.State)
	if err != nil {
		return nil
	}
	for _, w := range sp.Writes {
		if w.DocID.Slot != domain.SlotHiddenState {
			continue
		}
		// A hidden game's first state is its whole state, not the public
		// projection its game document starts with.
		b, err := json.Marshal(w.Value)
		if err != nil {
			return nil
		}
		var hd struct {
			State json.RawMessage `json:"state"`
		}
		if json.Unmarshal(b, &hd) != nil || hd.State == nil {
			return nil
		}
		state = hd.State
	}
	h := sp.Header
	b, err := json.Marshal(replayStart{State: state, Header: &h})
	if err != nil {
		return nil
	}
	return map[string]any{"start": string(b)}
}
