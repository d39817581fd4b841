package tilerace

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/meeple-games/meeple/domain"
)

// Undo history (rulings 20–21): every state-changing action leaves one
// HistoryEntry at games/{id}/history/{recordId}, keyed like its event record
// ({actorId}~{actionId}), so teams acting at once write different documents
// and never a shared one. The entry holds what undo needs to put back
// exactly what the action changed: the before-image of every document it
// wrote or deleted, and a hash of what it left, to detect a later change.
const (
	SlotHistory     = "history"     // games/{id}/history/{recordId}: HistoryEntry (never)
	SlotHistoryPart = "historyPart" // games/{id}/historyParts/{recordId}~{i}: HistoryPart (never)
)

// History limits.
const (
	// HistoryDepth is how many of the latest actions undo can revert (the
	// seed's "10 states").
	HistoryDepth = 10
	// inlineImages is the size up to which before-images stay in the entry;
	// larger ones (the board, the pools) go to parts of partSize bytes, so
	// no document nears Firestore's 1 MiB limit.
	inlineImages = 32 << 10
	partSize     = 512 << 10
	// historyOrder is the field entries are ordered by (and queried with).
	historyOrder = "order"
)

// HistoryEntry is one action as undo sees it.
type HistoryEntry struct {
	Record string    `json:"record"` // the action's event record id, {actorId}~{actionId}
	Order  string    `json:"order"`  // fixed-width time, then the record id: sorts entries in order
	Type   string    `json:"type"`
	At     time.Time `json:"at"`
	Actor  string    `json:"actor"` // actor id
	Name   string    `json:"name"`  // actor name
	Role   string    `json:"role"`
	By     string    `json:"by,omitempty"` // the admin, when an admin acted
	// Teams are the teams whose documents or points the action changed.
	Teams  []string     `json:"teams"`
	Awards []AwardData  `json:"awards,omitempty"`
	Docs   []HistoryDoc `json:"docs"`
	// PublicBoard: the action rewrote the public board, which undo then
	// derives again from the restored game and board; Frontier is the fog
	// frontier before the action.
	PublicBoard bool `json:"publicBoard,omitempty"`
	Frontier    int  `json:"frontier,omitempty"`
	// Images are the before-images of Docs, in order, as JSON ("null" for a
	// document that did not exist). Empty when they are in Parts parts.
	Images []string `json:"images,omitempty"`
	Parts  int      `json:"parts,omitempty"`
}

// HistoryDoc is one document an action changed.
type HistoryDoc struct {
	Slot string `json:"slot"`
	Key  string `json:"key,omitempty"`
	// After is the hash of the document the action left ("" when it
	// deleted it). The game document's is the hash of its state.
	After string `json:"after"`
}

// ID is the document the entry names.
func (h HistoryDoc) ID() domain.DocID { return domain.Doc(h.Slot, h.Key) }

// HistoryPart is a slice of the JSON array of an entry's before-images.
type HistoryPart struct {
	Data string `json:"data"`
}

// partKey names part i of an entry's images.
func partKey(record string, i int) string { return record + "~" + strconv.Itoa(i) }

// keepsHistory reports whether an action of type typ is recorded for undo:
// every state-changing one except a race's creation and undo itself (an
// undo is not undone: it has nothing before it that a second undo could
// restore without the history the first one consumed).
func keepsHistory(typ string) bool {
	switch typ {
	case domain.ActionCreate, domain.ActionAdvance, domain.ActionLegal, ActionViewBoard, ActionExportTasks, ActionUndo, ActionUndoTo:
		return false
	}
	return true
}

// derived are documents undo does not restore from images: the public board
// is a projection of the game and the board (and its frontier moves on its
// own as teams advance), the history is undo's own, and the outbox and the
// Discord delivery status are delivery state, not game state: a message
// sent stays sent (the undo announces itself instead), and the platform
// changes a message's document as it delivers it, which must not look like
// a later action to undo (issue 20).
func derived(slot string) bool {
	switch slot {
	case SlotPublicBoard, SlotHistory, SlotHistoryPart, SlotLeaderboard, domain.SlotOutbox, SlotDiscordStatus:
		return true
	}
	return false
}

// withHistory adds the history entry of a successful action to its change.
// It needs the before-image of every document the change writes: a written
// document the action did not read (a new team, a password hash) is read
// first (NeedDocs, same transaction).
func withHistory(d domain.Docs, a domain.Action, env domain.Env, ch domain.Change) (domain.Change, error) {
	var need []domain.Read
	for _, w := range ch.Writes {
		if !derived(w.Slot) && !d.Asked(w.DocID) {
			need = append(need, domain.Locked(w.DocID))
		}
	}
	if len(need) > 0 {
		return domain.Change{}, domain.Need(need...)
	}
	record := actionRecord(a)
	at := env.Now.UTC()
	h := HistoryEntry{Record: record, Order: historyOrderKey(at, record), Type: a.Type, At: at,
		Actor: a.Actor.ID, Name: a.Actor.Name, Role: string(a.Actor.Role), Teams: []string{}, Docs: []HistoryDoc{}}
	teams := map[string]bool{}
	addTeam := func(id string) {
		if id != "" && !teams[id] {
			teams[id] = true
			h.Teams = append(h.Teams, id)
		}
	}
	var images []string
	for _, w := range ch.Writes {
		if w.Slot == SlotPublicBoard {
			h.PublicBoard = true
			continue
		}
		if derived(w.Slot) {
			continue
		}
		before := imageOf(w.DocID, d.Raw(w.DocID))
		after := "null"
		if !w.Delete {
			raw, err := json.Marshal(w.Value)
			if err != nil {
				return domain.Change{}, domain.Errorf(domain.EINTERNAL, "history: %s does not marshal: %v", w.Slot, err)
			}
			after = canonical(raw)
		}
		if before == after {
			continue // written unchanged: nothing to undo
		}
		h.Docs = append(h.Docs, HistoryDoc{Slot: w.Slot, Key: w.Key, After: hashOf(w.Slot, after)})
		images = append(images, before)
		if w.Slot == SlotTeam {
			addTeam(w.Key)
		}
	}
	for _, s := range ch.Steps {
		for _, e := range s.Events {
			if e.Type != EventPointsAwarded {
				continue
			}
			var aw AwardData
			if dataOf(e, &aw) == nil && aw.Key != "" {
				h.Awards = append(h.Awards, aw)
				addTeam(aw.Team)
			}
		}
	}
	if len(h.Docs) == 0 && len(h.Awards) == 0 {
		return ch, nil // nothing an undo could change
	}
	// Who did it, for the undo's list: a team's and the system's actions
	// name no one more, and a completion (the most frequent action) decodes
	// the race's document once, not twice.
	if a.Actor.Role != RoleTeam && a.Actor.Role != domain.RoleSystem {
		if g, err := domain.ReadGame[Game](d, Kind); err == nil {
			h.By = g.State.by(a.Actor)
		}
	}
	if h.PublicBoard {
		var pb PublicBoard
		if _, err := d.Get(domain.Doc(SlotPublicBoard, ""), &pb); err != nil {
			return domain.Change{}, err
		}
		h.Frontier = pb.RevealedUpTo
	}
	all, _ := json.Marshal(images)
	if len(all) <= inlineImages {
		h.Images = images
	} else {
		parts := splitRunes(string(all), partSize)
		h.Parts = len(parts)
		for i, p := range parts {
			ch.Writes = append(ch.Writes, domain.Write{DocID: domain.Doc(SlotHistoryPart, partKey(record, i)), Value: HistoryPart{Data: p}, Create: true})
		}
	}
	ch.Writes = append(ch.Writes, domain.Write{DocID: domain.Doc(SlotHistory, record), Value: h, Create: true})
	return ch, nil
}

// historyOrderKey sorts entries by time (fixed width, so as strings), then
// record id.
func historyOrderKey(at time.Time, record string) string {
	return at.UTC().Format("2006-01-02T15:04:05.000000000Z") + "~" + record
}

// imageOf is the canonical before-image of a document as read: "null" when
// absent; the game document's state alone (its header follows from it).
func imageOf(id domain.DocID, raw json.RawMessage) string {
	if raw == nil {
		return "null"
	}
	if id == domain.GameDocID {
		var g struct {
			State json.RawMessage `json:"state"`
		}
		if json.Unmarshal(raw, &g) != nil || g.State == nil {
			return "null"
		}
		return canonical(g.State)
	}
	return canonical(raw)
}

// canonical is a JSON object as the store gives it back: keys sorted, whole
// numbers exact, without the store's own updatedAt, so an image written and
// read again compares equal to the value written.
func canonical(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	if m, ok := v.(map[string]any); ok {
		delete(m, "updatedAt")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// hashOf is the hash a HistoryDoc keeps of an image of a document of slot
// ("" for absent), leaving out the counters undo never lowers (so an
// undone action's counters, kept, do not look like a later change).
func hashOf(slot, image string) string {
	if image == "null" {
		return ""
	}
	if fields := counters[slot]; len(fields) > 0 {
		var m map[string]any
		if json.Unmarshal([]byte(image), &m) == nil {
			for _, f := range fields {
				setPath(m, f, nil, true)
			}
			b, _ := json.Marshal(m)
			image = string(b)
		}
	}
	sum := sha256.Sum256([]byte(image))
	return hex.EncodeToString(sum[:16])
}

// counters are the fields, per slot, that only ever grow: ids and award keys
// are derived from them and must never be reused, and session generations
// must not bring back ended sessions. Undo keeps their current values.
var counters = map[string][]string{
	SlotTeam:        {"awards", "moves", "gen", "reversed"},
	domain.SlotGame: {"nextGen", "nextPowerupTile"},
	SlotPools:       {"pools.nextId"},
	SlotBoard:       {"version"}, // numbers the randomisers' dice: an undone board is not rolled again
}

// getPath returns the value at a dotted path of a JSON object.
func getPath(m map[string]any, path string) (any, bool) {
	head, rest, nested := strings.Cut(path, ".")
	if !nested {
		v, ok := m[head]
		return v, ok
	}
	sub, ok := m[head].(map[string]any)
	if !ok {
		return nil, false
	}
	return getPath(sub, rest)
}

// setPath sets (or, with del, deletes) the value at a dotted path of a JSON
// object whose parents exist.
func setPath(m map[string]any, path string, v any, del bool) {
	head, rest, nested := strings.Cut(path, ".")
	if nested {
		if sub, ok := m[head].(map[string]any); ok {
			setPath(sub, rest, v, del)
		}
		return
	}
	if del {
		delete(m, head)
	} else {
		m[head] = v
	}
}

// splitRunes cuts s into pieces of at most n bytes without splitting a
// character (Firestore strings are UTF-8).
func splitRunes(s string, n int) []string {
	var out []string
	for len(s) > n {
		i := n
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return append(out, s)
}
