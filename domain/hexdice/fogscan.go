package hexdice

import (
	"encoding/json"
	"fmt"
	"slices"
)

// FogScan finds what a document tells a viewer that fog should hide from
// it: the leak scanner's check (tests: domain and functions). Seat is the
// reader's (Neutral: a spectator); Before and After are the whole states
// around the actions that wrote the documents; Owners knows every troop
// that ever lived (id → owner) and Where its hexes before and after.
//
// A JSON object names a troop when it has a numeric "troop", or a numeric
// "id" with a unit "type"; a structure when it has a string "structure", or
// a string "id" with a structure "kind". For an enemy troop, every hex the
// object names (q/r, hex, from, to, aim, path) must be one the reader saw
// (before or after), and an "hp" needs the troop itself seen; an enemy or
// neutral structure's "hp" needs its hex seen.
type FogScan struct {
	Seat          Seat
	Before, After Game
	Map           *Map
	Owners        map[int]Seat
	seen          map[Hex]bool
	where         map[int][]Hex
	sts           map[string]Structure
}

// Leaks returns one line per leak found in doc (JSON).
func (f *FogScan) Leaks(doc []byte) []string {
	if f.seen == nil {
		f.seen, f.where, f.sts = map[Hex]bool{}, map[int][]Hex{}, map[string]Structure{}
		if f.Seat >= 0 {
			for _, g := range []Game{f.Before, f.After} {
				for h := range Visible(g, f.Map, f.Seat) {
					f.seen[h] = true
				}
			}
		}
		for _, g := range []Game{f.Before, f.After} {
			for _, t := range g.Troops {
				f.where[t.ID] = append(f.where[t.ID], t.Hex)
				if f.Owners != nil {
					f.Owners[t.ID] = t.Owner
				}
			}
			for _, st := range g.Structures {
				if _, ok := f.sts[st.ID]; !ok || st.Owner != f.Seat {
					f.sts[st.ID] = st
				}
			}
		}
	}
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return []string{"does not decode: " + err.Error()}
	}
	var out []string
	f.walk(v, "", &out)
	return out
}

func (f *FogScan) walk(v any, path string, out *[]string) {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			f.walk(e, fmt.Sprintf("%s[%d]", path, i), out)
		}
	case map[string]any:
		f.object(x, path, out)
		for k, e := range x {
			f.walk(e, path+"."+k, out)
		}
	}
}

func num(v any) (int, bool) {
	n, ok := v.(float64)
	return int(n), ok
}

func hexOf(v any) (Hex, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return Hex{}, false
	}
	q, ok1 := num(m["q"])
	r, ok2 := num(m["r"])
	return Hex{q, r}, ok1 && ok2
}

func (f *FogScan) object(x map[string]any, path string, out *[]string) {
	if f.After.Phase == PhaseOver && !hides(f.After) {
		return // the game is over: everything is public
	}
	if t, ok := x["target"].(map[string]any); ok {
		if _, ok := x["hp"]; ok {
			// An attack's "hp" is its target's.
			u := map[string]any{"hp": x["hp"]}
			for k, v := range t {
				u[k] = v
			}
			f.object(u, path+".target(hp)", out)
		}
	}
	id, isTroop := num(x["troop"])
	if !isTroop {
		if n, ok := num(x["id"]); ok {
			if t, ok := x["type"].(string); ok && slices.Contains(UnitTypes, UnitType(t)) {
				id, isTroop = n, true
			}
		}
	}
	if isTroop && id > 0 {
		owner, known := f.Owners[id]
		if !known || owner == f.Seat && f.Seat >= 0 {
			return
		}
		var hexes []Hex
		if h, ok := hexOf(x); ok {
			hexes = append(hexes, h)
		}
		for _, k := range []string{"hex", "from", "to", "aim", "move", "attack"} {
			if h, ok := hexOf(x[k]); ok {
				hexes = append(hexes, h)
			}
		}
		if p, ok := x["path"].([]any); ok {
			for _, e := range p {
				if h, ok := hexOf(e); ok {
					hexes = append(hexes, h)
				}
			}
		}
		allSeen := len(hexes) > 0
		for _, h := range hexes {
			if !f.seen[h] {
				allSeen = false
				*out = append(*out, fmt.Sprintf("%s: enemy troop %d at unseen (%d,%d)", path, id, h.Q, h.R))
			}
		}
		if _, ok := x["hp"]; ok {
			// Its HP with it where it was seen (an event), or the troop seen
			// before or after.
			seen := allSeen
			for _, h := range f.where[id] {
				seen = seen || f.seen[h]
			}
			if !seen {
				*out = append(*out, fmt.Sprintf("%s: HP of unseen enemy troop %d", path, id))
			}
		}
		return
	}
	sid, isStructure := x["structure"].(string)
	if !isStructure {
		if s, ok := x["id"].(string); ok {
			if _, ok := x["kind"].(string); ok {
				sid, isStructure = s, true
			}
		}
	}
	if !isStructure {
		return
	}
	st, ok := f.sts[sid]
	if !ok || (st.Owner == f.Seat && f.Seat >= 0) {
		return
	}
	// "hp": 0 is "not known" (a structure at 0 HP is captured at once).
	if hp, ok := num(x["hp"]); ok && hp != 0 && !f.seen[st.Hex] {
		if h, ok := hexOf(x); !ok || !f.seen[h] {
			*out = append(*out, fmt.Sprintf("%s: HP of unseen structure %s", path, sid))
		}
	}
}
