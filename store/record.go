package store

import (
	"encoding/json"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// Action records kept in a game's own documents (domain.Slot.Records), or
// in the action's own event record (domain.Plan.RecordInEvent).
//
// An action that writes more than the game document leaves an idempotency
// record, games/{id}/actions/{actorId}~{actionId}: the reply a retry gets
// again. A game whose every state-changing action already writes a
// server-only document under that same key (Tile Race's undo history entry)
// declares its slot with Records, and the record rides in that document's
// field "act" instead: one document fewer per action (issue 22). When the
// game later deletes such a document (an undo), the platform keeps it as a
// stub holding "act" alone, so a retry of the undone action still gets its
// first reply and never applies again.
const fAct = "act"

// record is the action record of a successful attempt: where the game
// keeps it (recordIn) or the actions collection.
func (at *attempt) record() map[string]any {
	x, a := at.x, at.x.req.Action
	rec := map[string]any{
		"kind": x.entry.Game.Kind(), "type": a.Type, "actor": a.Actor.ID, "hash": at.hash,
		fVersion: at.reply().Version, "reply": string(at.replyJSON), "at": at.now,
	}
	if s := at.change.Session; s != nil {
		sb, _ := json.Marshal(s)
		rec["session"] = string(sb)
	}
	if in := at.replayRecord(); in != nil {
		rec[fReplay] = in // replay.go
	}
	return rec
}

// actInRecord returns the field that keeps the action's record in the
// event record of step s, when the action's plan asks for it
// (domain.Plan.RecordInEvent) and nothing of the record is a secret: the
// action carries no secret hash, signs no session in and read no document
// outside the game, and the step's record has the record's key. Event
// records are read by everyone who may read the game's events, the way the
// game document keeps the replies of actions that wrote it alone (log.go).
func (at *attempt) actInRecord(s domain.Step) map[string]any {
	x, a := at.x, at.x.req.Action
	if !x.plan.RecordInEvent || at.recordIn || a.ID == "" || at.hash == "" || a.Secret != "" ||
		at.change.Session != nil || recordID(s, a.ID) != recordKey(a) || len(at.rootsRead()) > 0 {
		return nil
	}
	at.recordIn = true
	return map[string]any{fAct: at.record()}
}

// recordKey is the key of an action's record: {actorId}~{actionId}.
func recordKey(a domain.Action) string { return a.Actor.ID + "~" + a.ID }

// holdsRecord reports whether w is the write of the game's records-slot
// document that keeps this action's record.
func (at *attempt) holdsRecord(w domain.Write) bool {
	sl := at.x.sl
	return sl.records != "" && !w.Delete && w.Slot == sl.records && w.Key == recordKey(at.x.req.Action)
}

// withRecord is a document value with an action record to store beside its
// fields (docFields adds it, as Firestore values: its time stays a time),
// or the platform's other fields (the journal's records: journal.go).
type withRecord struct {
	value  any
	act    map[string]any
	fields map[string]any
}

// recordedAction finds the record of action a in game gameID: in its own
// event record when its plan says it may be there (inEvent), in the game's
// records slot, else in the actions collection (nil when none has it).
// get reads a document (in the transaction, or not).
func (st *Store) recordedAction(get func(*firestore.DocumentRef) (*firestore.DocumentSnapshot, error), sl *slots, inEvent bool, gameID string, a domain.Action) (*recorded, error) {
	// The documents that may hold it in their field "act", in order.
	var holders []*firestore.DocumentRef
	if inEvent {
		holders = append(holders, st.eventRef(gameID, recordKey(a)))
	}
	if sl != nil && sl.records != "" {
		if p, err := sl.path(gameID, domain.Doc(sl.records, recordKey(a))); err == nil {
			holders = append(holders, st.FS.Doc(p))
		}
	}
	for _, ref := range holders {
		snap, err := get(ref)
		if err != nil && !notFound(err) {
			return nil, err
		}
		if err == nil {
			if act, ok := snap.Data()[fAct].(map[string]any); ok {
				return recordOf(act), nil
			}
		}
	}
	return recordedReply(get(st.actionRef(gameID, a)))
}

// recordOf decodes an action record's fields.
func recordOf(data map[string]any) *recorded {
	h, _ := data["hash"].(string)
	r, _ := data["reply"].(string)
	out := &recorded{hash: h, reply: json.RawMessage(r)}
	if s, _ := data["session"].(string); s != "" {
		var a domain.Actor
		if json.Unmarshal([]byte(s), &a) == nil {
			out.session = &a
		}
	}
	return out
}
