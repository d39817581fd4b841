package hexdice

import "fmt"

// VisionRules are fog of war's numbers (a fog game; docs/hexdice.md, "Fog of
// war", says why these defaults).
type VisionRules struct {
	// Units is how far each troop type sees (hexes).
	Units map[UnitType]int `json:"units"`
	// Structures is how far each structure sees, for its owner.
	Structures map[StructureKind]int `json:"structures"`
	// Terrain is added to the vision of a troop standing on it (hills see
	// further, forest less far). A troop always sees at least its own hex
	// and its neighbours (vision 1).
	Terrain map[Terrain]int `json:"terrain"`
}

// DefaultVision: every unit sees at least as far as it shoots on plains, so
// an attack never needs another unit to spot for it in the open; snipers
// and hoverbikes are the scouts; structures see one hex beyond their range.
func DefaultVision() VisionRules {
	return VisionRules{
		Units:      map[UnitType]int{Marine: 3, Sniper: 4, Hoverbike: 4, Mech: 3},
		Structures: map[StructureKind]int{Outpost: 3, CommandCenter: 4, HQ: 3},
		Terrain:    map[Terrain]int{Plains: 0, Forest: -1, Hills: 1, Water: 0, Mountains: 0},
	}
}

// validate checks the vision numbers (a config without any is filled with
// the defaults by NewGame for a fog game).
func (v VisionRules) validate() error {
	if err := sameKeys("vision.units", "unit type", v.Units, UnitTypes); err != nil {
		return err
	}
	for _, k := range UnitTypes {
		if err := between("vision.units."+string(k), v.Units[k], 1, 20); err != nil {
			return err
		}
	}
	if err := sameKeys("vision.structures", "structure kind", v.Structures, structureKinds); err != nil {
		return err
	}
	for _, k := range structureKinds {
		if err := between("vision.structures."+string(k), v.Structures[k], 1, 20); err != nil {
			return err
		}
	}
	if err := sameKeys("vision.terrain", "terrain", v.Terrain, terrains[:]); err != nil {
		return err
	}
	for _, k := range terrains {
		if err := between("vision.terrain."+string(k), v.Terrain[k], -10, 10); err != nil {
			return fmt.Errorf("%v", err)
		}
	}
	return nil
}

// empty reports whether no vision numbers were given.
func (v VisionRules) empty() bool {
	return len(v.Units) == 0 && len(v.Structures) == 0 && len(v.Terrain) == 0
}

// troopVision is how far troop t sees from where it stands.
func (s *step) troopVision(t Troop) int {
	v := s.g.Config.Vision
	return max(v.Units[t.Type]+v.Terrain[terrains[s.m.code(s.m.g.index(t.Hex))]], 1)
}

// vision returns, per grid slot, whether seat sees the hex now: within the
// vision of one of its troops or structures. A spectator (Neutral) sees
// nothing.
func (s *step) vision(seat Seat) []bool {
	out := make([]bool, s.m.g.cells())
	if seat < 0 {
		return out
	}
	mark := func(c Hex, r int) {
		for dq := -r; dq <= r; dq++ {
			for dr := max(-r, -dq-r); dr <= min(r, -dq+r); dr++ {
				if h := (Hex{c.Q + dq, c.R + dr}); s.m.g.contains(h) {
					out[s.m.g.index(h)] = true
				}
			}
		}
	}
	for _, t := range s.g.Troops {
		if t.Owner == seat {
			mark(t.Hex, s.troopVision(t))
		}
	}
	for _, st := range s.g.Structures {
		if st.Owner == seat {
			mark(st.Hex, max(s.g.Config.Vision.Structures[st.Kind], 1))
		}
	}
	return out
}

// sees reports whether seat sees h now (always true outside a fog game).
func (s *step) sees(seat Seat, h Hex) bool {
	if !s.g.Fog {
		return true
	}
	return s.m.g.contains(h) && s.vision(seat)[s.m.g.index(h)]
}

// Visible returns the hexes seat sees in g (every hex outside a fog game is
// seen; a spectator sees none in a fog game). Tests and the leak scanner
// use it.
func Visible(g Game, m *Map, seat Seat) map[Hex]bool {
	s := preview(g, m)
	out := map[Hex]bool{}
	var v []bool
	if g.Fog {
		v = s.vision(seat)
	}
	for _, h := range m.g.all() {
		if v == nil || v[m.g.index(h)] {
			out[h] = true
		}
	}
	return out
}
