package dashdice

import (
	"encoding/base64"
	"fmt"
	"math"
	"sync"
)

// The classic rule set against the random bot, solved exactly.
//
// The random bot's policy is known: in its turn it rolls or banks with
// probability ½ each (forfeit is never played). A classic match's state, as
// far as the result goes, is (my banked a, its banked b, the turn score t,
// the multiplier m ∈ {1, 2}, whose turn) — the turn number, the timer and
// the dice shown change nothing (the bots never let a turn time out). So the
// chance that I win from each state, playing best against that opponent,
// is the fixed point of
//
//	mine(a,b,t,m) = max(bank, roll)
//	  bank = 1 when a+t ≥ target, else theirs(a+t, b, 0, 1)
//	  roll = 10/36 theirs(a,b,0,1)        single 1: the turn score is lost
//	       +  1/36 theirs(0,b,0,1)        double 6: my banked score too
//	       +  1/36 mine(a,b,t+20,m)       snake eyes: +20
//	       +  1/36 mine(a,b,t+2d,2)       each other double d,d: +2d, ×2 on
//	       + Σ n/36 mine(a,b,t+s·m,m)     the 20 normal rolls (sum s)
//	theirs(a,b,t,m) = ½ bank + ½ roll, the same terms from its side
//
// (mine is 1 once a+t ≥ target: banking wins; theirs does not bank for sure
// there, so its value past its target is solved in closed form). Within a
// turn t only grows, so a turn is solved backwards from the target; the
// turns' starting values are iterated (Gauss–Seidel) until no value moves by
// more than 1e-10. A ClassicSolution keeps, for every state of mine, whether
// rolling is strictly better than banking; bot_table.go stores it for the
// built-in targets and classicPolicy reads it back.

// normalRolls are the sums of the 20 ordered normal rolls (no 1, not a
// double) with how many of the 36 rolls make each.
var normalRolls = [...]struct{ sum, n int }{{5, 2}, {6, 2}, {7, 4}, {8, 4}, {9, 4}, {10, 2}, {11, 2}}

// ClassicSolution is the classic rule set with one target score solved
// against the random bot (solveClassic).
type ClassicSolution struct {
	Target int
	// WinRate is the best chance of winning a match against the random bot,
	// either seat starting with probability ½ (the odd/even call).
	WinRate float64
	// Sweeps is how many Gauss–Seidel sweeps the values took to settle.
	Sweeps int
	roll   []bool // roll[idx(a,b,m,t)]: rolling beats banking
}

func (c *ClassicSolution) idx(a, b, m, t int) int {
	return ((a*c.Target+b)*2+(m-1))*(c.Target+1) + t
}

// Roll reports whether the best play with a banked, the opponent b, turn
// score t and multiplier m is to roll (false: bank).
func (c *ClassicSolution) Roll(a, b, t, m int) bool {
	if a < 0 || b < 0 || a >= c.Target || b >= c.Target || t < 0 || m < 1 || m > 2 {
		return a+t < c.Target // outside the table: bank once it wins
	}
	if a+t >= c.Target {
		return false
	}
	return c.roll[c.idx(a, b, m, t)]
}

var (
	tablesOnce sync.Once
	tables     map[int]*classicTable
)

// classicPolicy returns the stored policy for target (bot_table.go), nil
// when there is none: the solver takes half a minute for 100, too long for
// a move, so the tables are solved ahead (TestClassicCeiling -update) for
// the built-in targets, and a mode with another one is left to the search.
func classicPolicy(target int) *classicTable {
	tablesOnce.Do(func() {
		tables = map[int]*classicTable{}
		for t, enc := range classicTables {
			data, err := base64.StdEncoding.DecodeString(enc)
			if err != nil {
				continue
			}
			if tb, err := decodeTable(t, data); err == nil {
				tables[t] = tb
			}
		}
	})
	return tables[target]
}

func solveClassic(T int) *ClassicSolution {
	c := &ClassicSolution{Target: T, roll: make([]bool, T*T*2*(T+1))}
	w := &solver{T: T, c: c, mine0: make([]float64, T*T), theirs0: make([]float64, T*T),
		v: [2][]float64{make([]float64, T+23), make([]float64, T+23)}}
	for sweep := 1; ; sweep++ {
		delta := 0.0
		for a := T - 1; a >= 0; a-- {
			for b := T - 1; b >= 0; b-- {
				delta = math.Max(delta, w.mine(a, b))
				delta = math.Max(delta, w.theirs(a, b))
			}
		}
		if delta < 1e-10 || sweep >= 1000 {
			c.Sweeps = sweep
			break
		}
	}
	c.WinRate = (w.mine0[0] + w.theirs0[0]) / 2
	return c
}

// solver holds the values of the turns' starts: mine0[a*T+b] is my chance
// at the start of my turn, theirs0 at the start of the opponent's.
type solver struct {
	T              int
	c              *ClassicSolution
	mine0, theirs0 []float64
	v              [2][]float64 // one turn's values by multiplier and t
}

const p36 = 1.0 / 36

// rollValue is the value of a roll at turn score t, multiplier m, given
// the values of the turn's later states in s.v and of its ends.
func (s *solver) rollValue(t, m int, lost, wiped float64) float64 {
	v := 10*p36*lost + p36*wiped + p36*s.v[m-1][t+20]
	for d := 2; d <= 5; d++ {
		v += p36 * s.v[1][t+2*d]
	}
	for _, r := range normalRolls {
		v += float64(r.n) * p36 * s.v[m-1][t+r.sum*m]
	}
	return v
}

// mine solves my turn at (a,b) and returns how much its start moved.
func (s *solver) mine(a, b int) float64 {
	T := s.T
	lost, wiped := s.theirs0[a*T+b], s.theirs0[b]
	end := T - a // from here a bank wins
	for m := range 2 {
		for t := end; t < len(s.v[m]); t++ {
			s.v[m][t] = 1
		}
	}
	for t := end - 1; t >= 0; t-- {
		for m := 2; m >= 1; m-- {
			bank := s.theirs0[(a+t)*T+b]
			roll := s.rollValue(t, m, lost, wiped)
			s.v[m-1][t] = math.Max(bank, roll)
			s.c.roll[s.c.idx(a, b, m, t)] = roll > bank
		}
	}
	d := math.Abs(s.v[0][0] - s.mine0[a*T+b])
	s.mine0[a*T+b] = s.v[0][0]
	return d
}

// theirs solves the random bot's turn at (a,b): it banks or rolls with
// probability ½ each. Past its target a bank wins for it (0 for me), so
// there the value depends on m alone, in closed form:
// X(m) = ½·(10/36 A + 1/36 B + the rolls that go on).
func (s *solver) theirs(a, b int) float64 {
	T := s.T
	A, B := s.mine0[a*T+b], s.mine0[a*T]
	x2 := (10*A + B) / 72 / (1 - 25.0/72)
	x1 := ((10*A+B)/72 + 4.0/72*x2) / (1 - 21.0/72)
	end := T - b
	for t := end; t < len(s.v[0]); t++ {
		s.v[0][t], s.v[1][t] = x1, x2
	}
	for t := end - 1; t >= 0; t-- {
		for m := 2; m >= 1; m-- {
			bank := s.mine0[a*T+b+t]
			s.v[m-1][t] = (bank + s.rollValue(t, m, A, B)) / 2
		}
	}
	d := math.Abs(s.v[0][0] - s.theirs0[a*T+b])
	s.theirs0[a*T+b] = s.v[0][0]
	return d
}

// encode writes the policy as the table bot_table.go keeps: for each
// (a, b, m) in order, the number of turn scores t at which the best play
// changes (rolling at t = 0 before any), then those t.
func (c *ClassicSolution) encode() []byte {
	var out []byte
	T := c.Target
	for a := 0; a < T; a++ {
		for b := 0; b < T; b++ {
			for m := 1; m <= 2; m++ {
				var flips []byte
				roll := true
				for t := 0; a+t < T; t++ {
					if r := c.Roll(a, b, t, m); r != roll {
						flips = append(flips, byte(t))
						roll = r
					}
				}
				out = append(out, byte(len(flips)))
				out = append(out, flips...)
			}
		}
	}
	return out
}

// classicTable is an encoded policy (encode) with where each row starts.
type classicTable struct {
	target int
	data   []byte
	row    []int32
}

func decodeTable(target int, data []byte) (*classicTable, error) {
	tb := &classicTable{target: target, data: data, row: make([]int32, 0, target*target*2)}
	for i := 0; i < len(data); i += 1 + int(data[i]) {
		tb.row = append(tb.row, int32(i))
	}
	if len(tb.row) != target*target*2 {
		return nil, fmt.Errorf("dashdice: the classic table for %d has %d rows, not %d", target, len(tb.row), target*target*2)
	}
	return tb, nil
}

// Roll reports whether the table rolls with a banked, the opponent b, turn
// score t and multiplier m (false: bank).
func (tb *classicTable) Roll(a, b, t, m int) bool {
	if a+t >= tb.target {
		return false
	}
	if a < 0 || b < 0 || b >= tb.target || t < 0 || m < 1 || m > 2 {
		return true
	}
	i := tb.row[(a*tb.target+b)*2+m-1]
	roll := true
	for _, f := range tb.data[i+1 : i+1+int32(tb.data[i])] {
		if int(f) > t {
			break
		}
		roll = !roll
	}
	return roll
}
