package tilerace

import (
	"encoding/json"
	"sort"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Undo actions (ruling 20; docs/tilerace.md "Undo and the event log").
const (
	ActionUndo   = "undo"   // revert the latest action
	ActionUndoTo = "undoTo" // revert an action and every later one
)

// Undo events.
const (
	EventUndone         = "undone"         // UndoneData: one per undo
	EventPointsReversed = "pointsReversed" // PointsReversedData: one per award an undo takes back
)

// UndoRequest is the payload of undo and undoTo.
type UndoRequest struct {
	// To is the history entry (the event record id, {actorId}~{actionId})
	// of the oldest action to revert; undoTo requires it, undo takes none.
	To string `json:"to,omitempty" field:"id,max=256"`
}

// UndoneAction is one action an undo reverted.
type UndoneAction struct {
	Record  string    `json:"record"`
	Type    string    `json:"type"`
	At      time.Time `json:"at"`
	Actor   string    `json:"actor"` // the actor's name
	ActorID string    `json:"actorId"`
	By      string    `json:"by,omitempty"`
}

// UndoneData is the data of EventUndone.
type UndoneData struct {
	Actions   []UndoneAction `json:"actions"` // newest first
	Teams     []string       `json:"teams"`   // teams whose documents or points changed
	TeamNames []string       `json:"teamNames"`
	By        string         `json:"by"`
}

// PointsReversedData is the data of EventPointsReversed: an award taken
// back: the compensating ledger entry (LedgerOf: negative points, keyed
// ReversalKey(Key)), in the undo's event record.
type PointsReversedData struct {
	Key      string `json:"key"` // the original award's key
	Player   string `json:"player"`
	Points   int    `json:"points"` // hundredths removed (> 0)
	Team     string `json:"team"`
	TeamName string `json:"teamName"`
	Tile     int    `json:"tile,omitempty"`
	PT       string `json:"powerupTile,omitempty"`
	Event    string `json:"event"` // the record that awarded it
	By       string `json:"by"`
}

// ReversalKey is the key of the ledger entry that takes award key back.
func ReversalKey(key string) string { return key + "~undo" }

// UndoResult is the reply to undo and undoTo.
type UndoResult struct {
	Undone    []UndoneAction `json:"undone"`
	Teams     []string       `json:"teams"`
	TeamNames []string       `json:"teamNames"`
	Reversed  int            `json:"reversed"` // awards taken back
}

// SelectUndo picks the actions an undo reverts from the history (newest
// first; only the first HistoryDepth count): the newest for undo, the one
// req.To names and every later one for undoTo.
//
// Errors: EFORBIDDEN (not an admin), EINVALID (undoTo without to, undo
// with one), ECONFLICT (nothing to undo), ENOTFOUND (to is not among the
// latest HistoryDepth actions).
func SelectUndo(c Ctx, g Game, typ string, hist []HistoryEntry, req UndoRequest) ([]HistoryEntry, error) {
	if err := Authorize(g, c.Actor, typ, ""); err != nil {
		return nil, err
	}
	if len(hist) > HistoryDepth {
		hist = hist[:HistoryDepth]
	}
	switch typ {
	case ActionUndo:
		if req.To != "" {
			return nil, domain.Errorf(domain.EINVALID, "to: undo reverts the latest action; use undoTo to go back to an earlier one")
		}
		if len(hist) == 0 {
			return nil, domain.Errorf(domain.ECONFLICT, "nothing to undo")
		}
		return hist[:1], nil
	case ActionUndoTo:
		if req.To == "" {
			return nil, domain.Errorf(domain.EINVALID, "to is required: the history entry (event record id) to go back to")
		}
		for i, h := range hist {
			if h.Record == req.To {
				return hist[:i+1], nil
			}
		}
		return nil, domain.Errorf(domain.ENOTFOUND, "to: %s is not one of the latest %d actions that can be undone", domain.Quote(req.To), HistoryDepth)
	}
	return nil, domain.Errorf(domain.EINVALID, "unknown action type %q", typ)
}

// historyOf decodes the history entries read, newest first.
func historyOf(d domain.Docs) ([]HistoryEntry, error) {
	var out []HistoryEntry
	for _, k := range d.Keys(SlotHistory) {
		var h HistoryEntry
		if _, err := d.Get(domain.Doc(SlotHistory, k), &h); err != nil {
			return nil, err
		}
		h.Record = k
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Order > out[j].Order })
	return out, nil
}

// imagesOf returns the before-images of an entry, one per Docs.
func imagesOf(d domain.Docs, h HistoryEntry) ([]string, error) {
	imgs := h.Images
	if h.Parts > 0 {
		var all []byte
		for i := 0; i < h.Parts; i++ {
			var p HistoryPart
			if ok, err := d.Get(domain.Doc(SlotHistoryPart, partKey(h.Record, i)), &p); err != nil || !ok {
				return nil, domain.Errorf(domain.EINTERNAL, "history %s: part %d is missing", h.Record, i)
			}
			all = append(all, p.Data...)
		}
		if err := json.Unmarshal(all, &imgs); err != nil {
			return nil, domain.Errorf(domain.EINTERNAL, "history %s: %v", h.Record, err)
		}
	}
	if len(imgs) != len(h.Docs) {
		return nil, domain.Errorf(domain.EINTERNAL, "history %s: %d images for %d documents", h.Record, len(imgs), len(h.Docs))
	}
	return imgs, nil
}

// undo reverts the selected actions on the documents read: each document
// an undone action changed goes back to its before-image, newest action
// first, provided it is still what that action (or a later undone one)
// left; otherwise nothing is written and the undo is refused (ECONFLICT)
// naming the document. Counters that only grow keep their current values,
// the public board is derived again, password hashes are restored only
// with their team or admin, and every award of an undone action is taken
// back: its points go with its team's before-image, its team's reversed
// counter rises, and the undo's record holds a pointsReversed event: its
// compensating ledger entry.
func (RaceGame) undo(d domain.Docs, a domain.Action, env domain.Env, doc domain.GameDoc[Game], req UndoRequest, revealedUpTo int) (domain.Change, error) {
	hist, err := historyOf(d)
	if err != nil {
		return domain.Change{}, err
	}
	c := Ctx{Actor: a.Actor, Now: env.Now}
	sel, err := SelectUndo(c, doc.State, a.Type, hist, req)
	if err != nil {
		return domain.Change{}, err
	}
	boardID := domain.Doc(SlotBoard, "")
	var need []domain.Read
	ask := func(id domain.DocID) {
		if !d.Asked(id) {
			need = append(need, domain.Locked(id))
		}
	}
	for _, h := range sel {
		for i := 0; i < h.Parts; i++ {
			ask(domain.Doc(SlotHistoryPart, partKey(h.Record, i)))
		}
		for _, hd := range h.Docs {
			if hd.Slot != SlotCred && hd.ID() != domain.GameDocID {
				ask(hd.ID())
			}
			if hd.ID() == domain.GameDocID {
				ask(boardID) // the fog mode it mirrors, the public board
			}
		}
		if h.PublicBoard {
			ask(boardID)
		}
	}
	if len(need) > 0 {
		return domain.Change{}, domain.Need(need...)
	}

	// Go back document by document: each must be what one of the undone
	// actions left, that action's before-image what an earlier one left,
	// and so on until every undone action that changed it is accounted for.
	// The chain is found by the hashes, newest action first, so two actions
	// whose times are out of their commit order (a transaction that began
	// earlier committed later) are still undone together.
	type change struct {
		h   HistoryEntry
		doc HistoryDoc
		img string
	}
	changes := map[domain.DocID][]change{}
	var order []domain.DocID
	creds := map[domain.DocID]bool{} // created or deleted by an undone action
	for _, h := range sel {
		imgs, err := imagesOf(d, h)
		if err != nil {
			return domain.Change{}, err
		}
		for i, hd := range h.Docs {
			id := hd.ID()
			if _, seen := changes[id]; !seen {
				order = append(order, id)
			}
			changes[id] = append(changes[id], change{h: h, doc: hd, img: imgs[i]})
			if hd.Slot == SlotCred && (imgs[i] == "null" || hd.After == "") {
				creds[id] = true
			}
		}
	}
	state := map[domain.DocID]string{}
	for _, id := range order {
		cs := changes[id]
		if id.Slot == SlotCred {
			state[id] = cs[len(cs)-1].img // the oldest action's before-image
			continue
		}
		cur := imageOf(id, d.Raw(id))
		used := make([]bool, len(cs))
		for range cs {
			found := -1
			for i, c := range cs {
				if !used[i] && hashOf(c.doc.Slot, cur) == c.doc.After {
					found = i
					break
				}
			}
			if found < 0 {
				for i := range cs {
					if !used[i] {
						found = i
						break
					}
				}
				h := cs[found].h
				return domain.Change{}, domain.Errorf(domain.ECONFLICT,
					"cannot undo %s by %s: %s has changed since (by a later action or effect that is not being undone); nothing was undone",
					h.Type, h.Name, docName(id))
			}
			used[found] = true
			cur = cs[found].img
		}
		state[id] = cur
	}

	// The points of the undone awards go with their teams' before-images;
	// each team's reversed counter (kept above like the other counters)
	// rises by the awards taken back from it.
	takenBack := map[string]int{}
	for _, h := range sel {
		for _, aw := range h.Awards {
			takenBack[aw.Team]++
		}
	}

	game := doc.State
	game.RevealedUpTo = revealedUpTo
	var bd BoardDoc
	if _, err := d.Get(boardID, &bd); err != nil {
		return domain.Change{}, err
	}
	board, boardChanged, gameChanged := bd, false, false
	var ch domain.Change
	for _, id := range order {
		img := state[id]
		cur := imageOf(id, d.Raw(id))
		if id.Slot == SlotCred {
			switch {
			case img == "null":
				ch.Writes = append(ch.Writes, domain.Write{DocID: id, Delete: true})
			case creds[id]:
				ch.Writes = append(ch.Writes, domain.Write{DocID: id, Value: json.RawMessage(img)})
			}
			continue // a changed password stays changed
		}
		img = keepCounters(id.Slot, img, cur)
		if id.Slot == SlotTeam {
			img = addCounter(img, "reversed", takenBack[id.Key])
		}
		if img == cur {
			continue
		}
		switch {
		case id == domain.GameDocID:
			// Into a zero value: a field the image leaves out (omitempty)
			// must not keep the current value.
			game = Game{}
			if err := json.Unmarshal([]byte(img), &game); err != nil {
				return domain.Change{}, domain.Errorf(domain.EINTERNAL, "history: the game does not decode: %v", err)
			}
			game.RevealedUpTo = revealedUpTo
			gameChanged = true
			h := raceHeader(game)
			ch.Writes = append(ch.Writes, domain.Write{DocID: id, Value: json.RawMessage(img), Header: &h, Version: doc.Version + 1})
			continue
		case id == boardID:
			board = BoardDoc{}
			if err := json.Unmarshal([]byte(img), &board); err != nil {
				return domain.Change{}, domain.Errorf(domain.EINTERNAL, "history: the board does not decode: %v", err)
			}
			boardChanged = true
			continue // written below, with the fog mirrored
		case img == "null":
			ch.Writes = append(ch.Writes, domain.Write{DocID: id, Delete: true})
		default:
			ch.Writes = append(ch.Writes, domain.Write{DocID: id, Value: json.RawMessage(img)})
		}
	}
	if gameChanged && board.Fog != game.Fog && d.Has(boardID) {
		boardChanged = true
	}
	if boardChanged {
		board.Fog = game.Fog
		ch.Writes = append(ch.Writes, domain.Write{DocID: boardID, Value: board})
	}
	publish := boardChanged || gameChanged
	frontier := revealedUpTo
	for _, h := range sel {
		publish = publish || h.PublicBoard
		frontier = max(frontier, h.Frontier)
	}
	if publish && d.Has(boardID) {
		g := game
		g.RevealedUpTo = frontier
		npb := publicBoard(g, board.Board)
		nb, _ := json.Marshal(npb)
		if canonical(nb) != imageOf(domain.Doc(SlotPublicBoard, ""), d.Raw(domain.Doc(SlotPublicBoard, ""))) {
			ch.Writes = append(ch.Writes, domain.Write{DocID: domain.Doc(SlotPublicBoard, ""), Value: npb})
		}
	}

	// The undone actions' entries are used up. Older entries, beyond the
	// latest HistoryDepth, are never read again and stay: deleting them
	// would cost a write per action, and they are small (docs/tilerace.md).
	for _, h := range sel {
		ch.Writes = append(ch.Writes, domain.Write{DocID: domain.Doc(SlotHistory, h.Record), Delete: true})
		for i := 0; i < h.Parts; i++ {
			ch.Writes = append(ch.Writes, domain.Write{DocID: domain.Doc(SlotHistoryPart, partKey(h.Record, i)), Delete: true})
		}
	}

	by := doc.State.by(a.Actor)
	names := map[string]string{}
	for _, t := range append(append([]TeamRef(nil), doc.State.Teams...), game.Teams...) {
		names[t.ID] = t.Name
	}
	res := UndoResult{Undone: []UndoneAction{}, Teams: []string{}, TeamNames: []string{}}
	seenTeam := map[string]bool{}
	var reversed []domain.Event
	for _, h := range sel {
		res.Undone = append(res.Undone, UndoneAction{Record: h.Record, Type: h.Type, At: h.At, Actor: h.Name, ActorID: h.Actor, By: h.By})
		for _, t := range h.Teams {
			if !seenTeam[t] {
				seenTeam[t] = true
				res.Teams = append(res.Teams, t)
				n := names[t]
				if n == "" {
					n = t
				}
				res.TeamNames = append(res.TeamNames, n)
			}
		}
		for _, aw := range h.Awards {
			p := PointsReversedData{Key: aw.Key, Player: aw.Player, Points: aw.Points, Team: aw.Team, TeamName: aw.TeamName,
				Tile: aw.Tile, PT: aw.PowerupTile, Event: h.Record, By: by}
			reversed = append(reversed, domain.Event{Type: EventPointsReversed, Player: aw.Team, Data: p})
		}
	}
	res.Reversed = len(reversed)
	events := append([]domain.Event{{Type: EventUndone, Data: UndoneData{Actions: res.Undone, Teams: res.Teams, TeamNames: res.TeamNames, By: by}}}, reversed...)
	ch.Steps = []domain.Step{{Actor: a.Actor, Type: a.Type, Events: SayAll(events)}}
	ch.Result = res
	// The undo is announced like any action (ruling 22: main gets every
	// announcement), to the destinations configured when it was asked
	// for: an undo of setDiscord is announced where it was set.
	ch.Writes = append(ch.Writes, DiscordOutbox(doc.State, a.Actor.ID, a.ID, ch.Steps, slotsOf(Values{Game: doc.State}, Values{Game: game}), env.Now)...)
	return ch, nil
}

// keepCounters returns img with the counters of its slot raised to their
// values in cur, the document as it is now.
func keepCounters(slot, img, cur string) string {
	fields := counters[slot]
	if len(fields) == 0 || img == "null" || cur == "null" {
		return img
	}
	var m, now map[string]any
	if json.Unmarshal([]byte(img), &m) != nil || json.Unmarshal([]byte(cur), &now) != nil {
		return img
	}
	changed := false
	for _, f := range fields {
		a, _ := getPath(m, f)
		b, ok := getPath(now, f)
		av, _ := a.(float64)
		if bv, isNum := b.(float64); ok && isNum && bv > av {
			setPath(m, f, bv, false)
			changed = true
		}
	}
	if !changed {
		return img
	}
	out, _ := json.Marshal(m)
	return canonical(out)
}

// addCounter returns img with the counter field raised by n (a document
// undo deletes, "null", stays deleted).
func addCounter(img, field string, n int) string {
	if n == 0 || img == "null" {
		return img
	}
	var m map[string]any
	if json.Unmarshal([]byte(img), &m) != nil {
		return img
	}
	v, _ := m[field].(float64)
	m[field] = v + float64(n)
	out, _ := json.Marshal(m)
	return canonical(out)
}

// docName names a document in an error message.
func docName(id domain.DocID) string {
	switch id.Slot {
	case domain.SlotGame:
		return "the game"
	case SlotTeam:
		return "team " + id.Key
	case SlotPowerupTile:
		return "powerup tile " + id.Key
	case SlotBoard:
		return "the board"
	case SlotPools:
		return "the pools"
	}
	if id.Key != "" {
		return id.Slot + " " + id.Key
	}
	return id.Slot
}
