package hexdice

import "slices"

// occupancy returns the grid of who stands where, rebuilding it after a
// change (a troop moved, was bought or died; an HQ moved).
func (s *step) occupancy() []int32 {
	if s.occ != nil {
		return s.occ
	}
	s.occ = make([]int32, s.m.g.cells())
	for i, st := range s.g.Structures {
		s.occ[s.m.g.index(st.Hex)] = -int32(i + 1)
	}
	for i, t := range s.g.Troops {
		s.occ[s.m.g.index(t.Hex)] = int32(i + 1)
	}
	return s.occ
}

// moved marks the occupancy grid stale.
func (s *step) moved() { s.occ = nil }

// troopAt returns the index of the troop on h, -1 if none (or off the map).
func (s *step) troopAt(h Hex) int {
	if !s.m.g.contains(h) {
		return -1
	}
	if v := s.occupancy()[s.m.g.index(h)]; v > 0 {
		return int(v - 1)
	}
	return -1
}

// structureAt returns the index of the structure on h, -1 if none.
func (s *step) structureAt(h Hex) int {
	if !s.m.g.contains(h) {
		return -1
	}
	if v := s.occupancy()[s.m.g.index(h)]; v < 0 {
		return int(-v - 1)
	}
	return -1
}

// free reports whether h is on the map, passable, and has no troop or structure.
func (s *step) free(h Hex) bool {
	return s.m.g.contains(h) && s.passable(h) && s.occupancy()[s.m.g.index(h)] == 0
}

// terrainAt returns the terrain stats of h (on the map).
func (s *step) terrainAt(h Hex) TerrainStats { return s.terr[s.m.code(s.m.g.index(h))] }

func (s *step) passable(h Hex) bool { return s.terrainAt(h).Passable }

// unit returns the stats of troop t's type.
func (s *step) unit(t Troop) UnitStats { return s.g.Config.Units[t.Type] }

// removeTroop deletes troop i.
func (s *step) removeTroop(i int) {
	s.g.Troops = slices.Delete(s.g.Troops, i, i+1)
	s.moved()
}

// Reach is a hex a troop can move to this turn, and what it costs.
type Reach struct {
	Hex
	Cost int `json:"cost"`
}

// paths is the result of a movement search from one troop.
type paths struct {
	cost   []int16 // per slot: movement points to get there; -1 out of reach
	parent []int32 // per slot: the previous slot on a cheapest path; -1 at the start
	from   int
}

// reach searches the hexes troop t can enter with its mobility: entering a
// hex costs its terrain's cost; impassable terrain, structures and enemy
// troops block; friendly troops may be passed through (but not stopped on:
// destinations filters those). Ties between paths of equal cost keep the
// first found in neighbour order, so paths are deterministic.
//
// The result shares the step's scratch arrays: it is valid until the next
// call of reach.
func (s *step) reach(t Troop) paths {
	n := s.m.g.cells()
	if len(s.scratch.cost) != n {
		s.scratch = paths{cost: make([]int16, n), parent: make([]int32, n)}
	}
	p := s.scratch
	p.from = s.m.g.index(t.Hex)
	for i := range p.cost {
		p.cost[i], p.parent[i] = -1, -1
	}
	mob := s.unit(t).Mobility
	occ := s.occupancy()
	if len(s.buckets) < mob+1 {
		s.buckets = make([][]int32, mob+1)
	}
	buckets := s.buckets[:mob+1]
	for i := range buckets {
		buckets[i] = buckets[i][:0]
	}
	p.cost[p.from] = 0
	buckets[0] = append(buckets[0], int32(p.from))
	for c := 0; c <= mob; c++ {
		for k := 0; k < len(buckets[c]); k++ {
			i := int(buckets[c][k])
			if int(p.cost[i]) != c {
				continue
			}
			h := s.m.g.hex(i)
			for d := 0; d < 6; d++ {
				nh := h.Neighbour(d)
				if !s.m.g.contains(nh) {
					continue
				}
				j := s.m.g.index(nh)
				ts := s.terr[s.m.code(j)]
				if !ts.Passable {
					continue
				}
				if o := occ[j]; o < 0 || (o > 0 && s.g.Troops[o-1].Owner != t.Owner) {
					continue
				}
				nc := c + ts.Cost
				if nc > mob || (p.cost[j] >= 0 && int(p.cost[j]) <= nc) {
					continue
				}
				p.cost[j], p.parent[j] = int16(nc), int32(i)
				buckets[nc] = append(buckets[nc], int32(j))
			}
		}
	}
	return p
}

// path returns the hexes entered on the way to slot i, in order.
func (s *step) path(p paths, i int) []Hex {
	var out []Hex
	for ; i >= 0 && i != p.from; i = int(p.parent[i]) {
		out = append(out, s.m.g.hex(i))
	}
	slices.Reverse(out)
	return out
}

// destinations lists where t can end its move: reachable hexes other than its
// own with no troop on them (friendly ones may only be passed), cheapest
// first, then in (r, q) order. With leaving, hexes of friendly troops in
// that set count as free (simultaneous orders moving them away).
func (s *step) destinations(t Troop, p paths, leaving map[int]bool) []Reach {
	var out []Reach
	occ := s.occupancy()
	for i, c := range p.cost {
		if c <= 0 {
			continue
		}
		if o := occ[i]; o > 0 && !leaving[s.g.Troops[o-1].ID] {
			continue
		}
		out = append(out, Reach{Hex: s.m.g.hex(i), Cost: int(c)})
	}
	slices.SortFunc(out, func(a, b Reach) int {
		if a.Cost != b.Cost {
			return a.Cost - b.Cost
		}
		if a.Hex.less(b.Hex) {
			return -1
		}
		return 1
	})
	return out
}
