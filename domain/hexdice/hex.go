package hexdice

// Hex is a cell in pointy-top axial coordinates: q grows to the east, r to the
// south-east; the third cube coordinate is s = -q-r. The map is a hexagon
// centred on (0,0).
type Hex struct {
	Q int `json:"q" field:"coord"`
	R int `json:"r" field:"coord"`
}

// directions are the six neighbour offsets, clockwise from east.
var directions = [6]Hex{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}

// Add returns h moved by d.
func (h Hex) Add(d Hex) Hex { return Hex{h.Q + d.Q, h.R + d.R} }

// Neighbour returns the neighbour of h in direction i (0..5).
func (h Hex) Neighbour(i int) Hex { return h.Add(directions[i]) }

// Rotate180 returns h rotated by 180° about the centre: the map's symmetry.
func (h Hex) Rotate180() Hex { return Hex{-h.Q, -h.R} }

// Length is the hex distance from h to the centre.
func (h Hex) Length() int { return max(abs(h.Q), abs(h.R), abs(h.Q+h.R)) }

// Distance is the number of steps between a and b.
func Distance(a, b Hex) int { return Hex{a.Q - b.Q, a.R - b.R}.Length() }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// less orders hexes by r then q: the order hexes are listed in.
func (h Hex) less(o Hex) bool {
	if h.R != o.R {
		return h.R < o.R
	}
	return h.Q < o.Q
}

// canonical reports whether h is in the half of the map the generator draws
// (the other half is its 180° image); the centre is its own image and in
// neither half.
func (h Hex) canonical() bool { return h.Q > 0 || (h.Q == 0 && h.R > 0) }

// grid indexes the hexes of a hexagon of radius r in a (2r+1)² array, so
// lookups are array reads instead of map reads.
type grid struct {
	radius int
	width  int
}

func newGrid(radius int) grid { return grid{radius: radius, width: 2*radius + 1} }

// cells is the length of an array indexed by the grid.
func (g grid) cells() int { return g.width * g.width }

// contains reports whether h is on the map.
func (g grid) contains(h Hex) bool { return h.Length() <= g.radius }

// index returns h's slot; h must be on the map.
func (g grid) index(h Hex) int { return (h.R+g.radius)*g.width + h.Q + g.radius }

// hex returns the hex at slot i.
func (g grid) hex(i int) Hex { return Hex{i%g.width - g.radius, i/g.width - g.radius} }

// all lists the map's hexes in (r, q) order.
func (g grid) all() []Hex {
	out := make([]Hex, 0, 3*g.radius*(g.radius+1)+1)
	for r := -g.radius; r <= g.radius; r++ {
		for q := -g.radius; q <= g.radius; q++ {
			if h := (Hex{q, r}); g.contains(h) {
				out = append(out, h)
			}
		}
	}
	return out
}

// HexCount is the number of hexes in a hexagon of radius r: 3r(r+1)+1.
func HexCount(r int) int { return 3*r*(r+1) + 1 }
