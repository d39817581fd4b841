package hexdice

import (
	"github.com/meeple-games/meeple/domain"
)

// maxMapAttempts bounds the candidates GenerateMap tries. With the default
// config nearly every first candidate passes (see the property tests); the
// bound only turns an impossible operator config into an error.
const maxMapAttempts = 64

// terrainWeights is the mix of the generator's terrain regions (percent, by
// terrain code): about 78 % of the regions are passable before repairs.
var terrainWeights = [len(terrains)]int{42, 22, 14, 12, 10}

// GenerateMap builds the map of size for seed (ruling 2). It is
// deterministic: its only randomness is domain.NewSeededDice(
// "hexdice/map/"+size+"/"+seed, k) for candidate k = 0, 1, ... (the prefix
// keeps a map seed from ever doubling as a game's dice seed). A candidate is:
//
//  1. terrain: a weighted Voronoi diagram of random region seeds drawn in one
//     half of the map and mirrored (clusters of one terrain), then one pass
//     that gives isolated hexes their neighbours' majority terrain;
//  2. HQs: a random hex one ring inside the edge and its 180° image, each on
//     plains with a ring of plains around it (room to spawn);
//  3. neutral structures: an odd one in the centre, then mirrored pairs,
//     command centers near the centre (contested) and outposts farther out,
//     each pair the best of a few random candidates (farthest from the
//     structures already placed), at least cfg.Map.MinSpacing apart, on plains;
//  4. repair: a cheapest path (fewest impassable hexes) from the first HQ to
//     the second and to every structure not yet reachable is carved to plains,
//     mirrored.
//
// A candidate with less than cfg.Map.MinPassablePercent passable hexes, or
// with no room for its structures, is dropped and the next one tried.
//
// Errors: EINVALID (unknown size, invalid config), EINTERNAL (no candidate
// passed: only with a config that asks for too much).
func GenerateMap(size Size, seed string, cfg Config) (Map, error) {
	sr, ok := cfg.Sizes[size]
	if !ok {
		return Map{}, domain.Errorf(domain.EINVALID, "unknown map size %q (want small, medium or large)", size)
	}
	if err := cfg.Validate(); err != nil {
		return Map{}, err
	}
	for k := int64(0); k < maxMapAttempts; k++ {
		dice := domain.NewSeededDice("hexdice/map/"+string(size)+"/"+seed, k)
		if m, ok := tryMap(sr, cfg, dice); ok {
			m.size, m.seed = size, seed
			m.hash = m.contentHash()
			return *m, nil
		}
	}
	return Map{}, domain.Errorf(domain.EINTERNAL, "no valid %s map for seed %q in %d attempts", size, seed, maxMapAttempts)
}

// gen is one candidate map under construction.
type gen struct {
	g        grid
	cfg      Config
	dice     domain.Dice
	terrain  []int8
	pass     [len(terrains)]bool
	sites    []Site
	occupied []bool // a structure stands here
	half     []Hex  // the canonical half, in (r, q) order
}

// set gives h and its image terrain code t.
func (x *gen) set(h Hex, t int8) {
	x.terrain[x.g.index(h)] = t
	x.terrain[x.g.index(h.Rotate180())] = t
}

func (x *gen) passable(h Hex) bool { return x.pass[x.terrain[x.g.index(h)]] }

// pick returns a random element index below n.
func (x *gen) pick(n int) int { return x.dice.Roll(n) - 1 }

func tryMap(sr SizeRules, cfg Config, dice domain.Dice) (*Map, bool) {
	x := &gen{g: newGrid(sr.Radius), cfg: cfg, dice: dice}
	for i, t := range terrains {
		x.pass[i] = cfg.Terrain[t].Passable
	}
	x.terrain = make([]int8, x.g.cells())
	x.occupied = make([]bool, x.g.cells())
	for i := range x.terrain {
		x.terrain[i] = -1
	}
	for _, h := range x.g.all() {
		if h.canonical() {
			x.half = append(x.half, h)
		}
	}
	x.terrainRegions()
	x.smooth()
	if !x.placeHQs() || !x.placeNeutral(sr) {
		return nil, false
	}
	x.repair()
	if !x.connected() {
		return nil, false
	}
	passable := 0
	all := x.g.all()
	for _, h := range all {
		if x.passable(h) {
			passable++
		}
	}
	if passable*100 < cfg.Map.MinPassablePercent*len(all) {
		return nil, false
	}
	return &Map{g: x.g, terrain: x.terrain, sites: x.sites}, true
}

// terrainRegions paints a weighted Voronoi diagram: about one region per 9
// hexes, each region seed mirrored so the diagram is symmetric. A hex takes
// the terrain of the seed with the least distance minus weight (weights 0-2
// vary the region sizes); ties go to the earlier seed pair, whose two
// members share a terrain, so the result is symmetric.
func (x *gen) terrainRegions() {
	type region struct {
		at     Hex
		weight int
		code   int8
	}
	regions := make([]region, max(3, HexCount(x.g.radius)/18))
	for i := range regions {
		regions[i].at = x.half[x.pick(len(x.half))]
		regions[i].weight = x.pick(3)
		roll, code := x.pick(100), 0
		for roll >= terrainWeights[code] {
			roll -= terrainWeights[code]
			code++
		}
		regions[i].code = int8(code)
	}
	paint := func(h Hex) {
		best, bestD := 0, 1<<30
		for i, r := range regions {
			d := min(Distance(h, r.at), Distance(h, r.at.Rotate180())) - r.weight
			if d < bestD {
				best, bestD = i, d
			}
		}
		x.set(h, regions[best].code)
	}
	paint(Hex{})
	for _, h := range x.half {
		paint(h)
	}
}

// smooth gives a hex with no neighbour of its own terrain the terrain at
// least three of its neighbours share: no lone specks. It reads a copy, so
// the order of the hexes does not matter and symmetry is kept.
func (x *gen) smooth() {
	before := append([]int8(nil), x.terrain...)
	fix := func(h Hex) {
		own := before[x.g.index(h)]
		var count [len(terrains)]int
		for d := 0; d < 6; d++ {
			n := h.Neighbour(d)
			if !x.g.contains(n) {
				continue
			}
			c := before[x.g.index(n)]
			if c == own {
				return
			}
			count[c]++
		}
		for c, k := range count {
			if k >= 3 {
				x.set(h, int8(c))
				return
			}
		}
	}
	fix(Hex{})
	for _, h := range x.half {
		fix(h)
	}
}

// addSite records a structure at h (and marks its hex), on plains.
func (x *gen) addSite(id string, kind StructureKind, h Hex, owner Seat) {
	x.sites = append(x.sites, Site{ID: id, Kind: kind, Hex: h, Owner: owner})
	x.occupied[x.g.index(h)] = true
	x.terrain[x.g.index(h)] = plainsCode
}

// placeHQs puts the first HQ on a random hex of the ring one inside the edge
// and the second on its image, each with a ring of plains.
func (x *gen) placeHQs() bool {
	var ring []Hex
	for _, h := range x.g.all() {
		if h.Length() == x.g.radius-1 {
			ring = append(ring, h)
		}
	}
	hq := ring[x.pick(len(ring))]
	x.addSite("hq0", HQ, hq, 0)
	x.addSite("hq1", HQ, hq.Rotate180(), 1)
	for d := 0; d < 6; d++ {
		x.set(hq.Neighbour(d), plainsCode)
	}
	return true
}

// placeNeutral places the neutral structures: an odd one in the centre
// (a command center when their number is odd, else an outpost), then the
// command center pairs within half the radius of the centre, then the
// outpost pairs from a third of the radius to one inside the edge.
func (x *gen) placeNeutral(sr SizeRules) bool {
	n, id := 0, func(n int) string { return "n" + itoa(n) }
	cc, op := sr.CommandCenters, sr.Outposts
	if (cc+op)%2 == 1 {
		kind := Outpost
		if cc%2 == 1 {
			kind, cc = CommandCenter, cc-1
		} else {
			op--
		}
		n++
		x.addSite(id(n), kind, Hex{}, Neutral)
	}
	r := x.g.radius
	for i := 0; i < cc/2+op/2; i++ {
		kind, lo, hi := CommandCenter, 2, max(2, r/2)
		if i >= cc/2 {
			kind, lo, hi = Outpost, max(2, r/3), r-1
		}
		h, ok := x.pickSite(lo, hi, true)
		if !ok {
			h, ok = x.pickSite(1, r-1, false)
		}
		if !ok {
			return false
		}
		n++
		x.addSite(id(n), kind, h, Neutral)
		n++
		x.addSite(id(n), kind, h.Rotate180(), Neutral)
	}
	return true
}

// pickSite draws up to six candidates from the canonical half, at distance
// lo..hi from the centre, spaced from every structure and from their own
// image, and (when passableOnly) on passable terrain; it returns the one
// farthest from the structures placed so far.
func (x *gen) pickSite(lo, hi int, passableOnly bool) (Hex, bool) {
	spacing := x.cfg.Map.MinSpacing
	gap := func(h Hex) int {
		d := Distance(h, h.Rotate180())
		for _, s := range x.sites {
			d = min(d, Distance(h, s.Hex))
		}
		return d
	}
	var cands []Hex
	for _, h := range x.half {
		if l := h.Length(); l >= lo && l <= hi && (!passableOnly || x.passable(h)) && gap(h) >= spacing {
			cands = append(cands, h)
		}
	}
	if len(cands) == 0 {
		return Hex{}, false
	}
	best, bestGap := Hex{}, -1
	for i := 0; i < 6; i++ {
		h := cands[x.pick(len(cands))]
		if g := gap(h); g > bestGap {
			best, bestGap = h, g
		}
	}
	return best, true
}

// repair carves, for the second HQ and then every other structure in turn,
// the cheapest path from the first HQ's surroundings to a hex next to it
// when it has none reachable, turning the impassable hexes on it (and their
// images) into plains. Structures block movement, so paths avoid them.
func (x *gen) repair() {
	hq := x.sites[0].Hex
	for _, s := range x.sites[1:] {
		cost, parent := x.carveCosts(hq)
		best, bestCost := -1, 1<<30
		for d := 0; d < 6; d++ {
			n := s.Hex.Neighbour(d)
			if !x.g.contains(n) {
				continue
			}
			if c := cost[x.g.index(n)]; c < bestCost {
				best, bestCost = x.g.index(n), c
			}
		}
		for i := best; bestCost > 0 && i >= 0; i = parent[i] {
			if !x.pass[x.terrain[i]] {
				x.set(x.g.hex(i), plainsCode)
			}
		}
	}
}

// connected reports whether the second HQ and every neutral structure have
// a neighbour reachable over passable hexes from the first HQ's neighbours.
func (x *gen) connected() bool {
	cost, _ := x.carveCosts(x.sites[0].Hex)
	for _, s := range x.sites[1:] {
		ok := false
		for d := 0; d < 6 && !ok; d++ {
			n := s.Hex.Neighbour(d)
			ok = x.g.contains(n) && cost[x.g.index(n)] == 0
		}
		if !ok {
			return false
		}
	}
	return true
}

// carveCosts is a 0-1 breadth-first search from the neighbours of from over
// the hexes without a structure: entering a passable hex costs 0, an
// impassable one 1. It returns each slot's cost (a large number when out of
// reach) and its parent slot (-1 for a start).
func (x *gen) carveCosts(from Hex) ([]int, []int) {
	const far = 1 << 30
	cost := make([]int, x.g.cells())
	parent := make([]int, x.g.cells())
	for i := range cost {
		cost[i], parent[i] = far, -1
	}
	// A FIFO that re-queues a slot whenever its cost drops: at these sizes
	// simpler than a deque and still exact.
	var queue []int
	push := func(i, c, p int) {
		if c < cost[i] {
			cost[i], parent[i] = c, p
			queue = append(queue, i)
		}
	}
	for d := 0; d < 6; d++ {
		n := from.Neighbour(d)
		if x.g.contains(n) && !x.occupied[x.g.index(n)] {
			c := 0
			if !x.passable(n) {
				c = 1
			}
			push(x.g.index(n), c, -1)
		}
	}
	for head := 0; head < len(queue); head++ {
		i := queue[head]
		h := x.g.hex(i)
		for d := 0; d < 6; d++ {
			n := h.Neighbour(d)
			if !x.g.contains(n) {
				continue
			}
			j := x.g.index(n)
			if x.occupied[j] {
				continue
			}
			c := cost[i]
			if !x.pass[x.terrain[j]] {
				c++
			}
			push(j, c, i)
		}
	}
	return cost, parent
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
