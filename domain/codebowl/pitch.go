package codebowl

// Square is one tile of the pitch. Row 0 is the top edge, column 0 the left
// (home) end.
type Square struct {
	X int `json:"x" field:"coord"`
	Y int `json:"y" field:"coord"`
}

// offPitch is the position of a player who is not on the pitch (not placed
// yet, or dead).
var offPitch = Square{X: -1, Y: -1}

// OnPitch reports whether q is a square of the pitch.
func (q Square) OnPitch() bool { return q.X >= 0 && q.X < Width && q.Y >= 0 && q.Y < Height }

// Adjacent reports whether q and r are different squares touching in any of
// the 8 directions (ruling 1).
func (q Square) Adjacent(r Square) bool {
	dx, dy := q.X-r.X, q.Y-r.Y
	return q != r && dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1
}

// Add returns q moved by d.
func (q Square) Add(d Square) Square { return Square{q.X + d.X, q.Y + d.Y} }

// Directions in clockwise order on screen (y grows downwards), starting north.
// A scatter's d8 picks Directions[die-1].
var Directions = [8]Square{
	{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1},
}

// dirIndex returns the index of d in Directions, -1 if d is not a unit step.
func dirIndex(d Square) int {
	for i, e := range Directions {
		if e == d {
			return i
		}
	}
	return -1
}

// Neighbours3x3 is the 3×3 block around a square in row-major order; a
// dropped ball's d9 picks Neighbours3x3[die-1] (5 is the square itself).
var Neighbours3x3 = [9]Square{
	{-1, -1}, {0, -1}, {1, -1},
	{-1, 0}, {0, 0}, {1, 0},
	{-1, 1}, {0, 1}, {1, 1},
}

// InHalf reports whether q lies in side's half of the pitch: home has columns
// 0…9, away 10…19, for the whole match.
func InHalf(side Side, q Square) bool {
	if !q.OnPitch() {
		return false
	}
	if side == Home {
		return q.X < HalfWidth
	}
	return q.X >= HalfWidth
}

// GoalColumn is the column side scores in: the far column of the opposing
// half (ruling 1).
func GoalColumn(side Side) int {
	if side == Home {
		return Width - 1
	}
	return 0
}

// halfSquare returns the square a d110 picks in side's half: die 1…110 runs
// row by row, left to right, from the top of that half.
func halfSquare(side Side, die int) Square {
	x := (die - 1) % HalfWidth
	if side == Away {
		x += HalfWidth
	}
	return Square{X: x, Y: (die - 1) / HalfWidth}
}

// pitchSquare returns the square a d220 picks: row by row from the top left.
func pitchSquare(die int) Square {
	return Square{X: (die - 1) % Width, Y: (die - 1) / Width}
}

// column returns the column depth squares back from the halfway line in
// side's half: depth 0 is the column next to the line.
func column(side Side, depth int) int {
	if side == Home {
		return HalfWidth - 1 - depth
	}
	return HalfWidth + depth
}
