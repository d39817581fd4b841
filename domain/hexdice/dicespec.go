package hexdice

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// DiceSpec is a damage roll such as 2D6+2: N dice of Sides faces plus Mod.
// In JSON it is that string, so a config document reads like the seed's tables.
type DiceSpec struct {
	N     int
	Sides int
	Mod   int
}

// D returns the spec NdS+mod.
func D(n, sides, mod int) DiceSpec { return DiceSpec{N: n, Sides: sides, Mod: mod} }

// String writes the spec as "NDS", "NDS+M" or "NDS-M".
func (d DiceSpec) String() string {
	s := strconv.Itoa(d.N) + "D" + strconv.Itoa(d.Sides)
	switch {
	case d.Mod > 0:
		s += "+" + strconv.Itoa(d.Mod)
	case d.Mod < 0:
		s += strconv.Itoa(d.Mod)
	}
	return s
}

// MarshalText implements encoding.TextMarshaler.
func (d DiceSpec) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; see ParseDice.
func (d *DiceSpec) UnmarshalText(b []byte) error {
	v, err := ParseDice(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// ParseDice reads "NDS", "NDS+M" or "NDS-M" (the D in either case).
//
// Errors: EINVALID.
func ParseDice(s string) (DiceSpec, error) {
	bad := domain.Errorf(domain.EINVALID, "dice %q: want NdS, NdS+M or NdS-M, e.g. 2D6+2", s)
	t := strings.ToUpper(strings.TrimSpace(s))
	dpos := strings.IndexByte(t, 'D')
	if dpos <= 0 {
		return DiceSpec{}, bad
	}
	n, err := strconv.Atoi(t[:dpos])
	if err != nil {
		return DiceSpec{}, bad
	}
	rest, mod := t[dpos+1:], 0
	if i := strings.IndexAny(rest, "+-"); i >= 0 {
		if mod, err = strconv.Atoi(rest[i:]); err != nil {
			return DiceSpec{}, bad
		}
		rest = rest[:i]
	}
	sides, err := strconv.Atoi(rest)
	if err != nil {
		return DiceSpec{}, bad
	}
	return DiceSpec{N: n, Sides: sides, Mod: mod}, nil
}

// validate checks the spec can be rolled and stays small.
func (d DiceSpec) validate() error {
	switch {
	case d.N < 1 || d.N > 10:
		return fmt.Errorf("%s: 1 to 10 dice", d)
	case d.Sides < 2 || d.Sides > 100:
		return fmt.Errorf("%s: dice of 2 to 100 sides", d)
	case d.Mod < -20 || d.Mod > 20:
		return fmt.Errorf("%s: a modifier from -20 to +20", d)
	}
	return nil
}

// Half is a counterattack's damage (ruling 4): each die's size and the
// modifier halved, rounding down. 1D6+1 → 1D3, 1D8+1 → 1D4, 2D6+2 → 2D3+1.
// A die halved below two sides becomes a fixed 1 (a one-sided die).
func (d DiceSpec) Half() DiceSpec {
	return DiceSpec{N: d.N, Sides: max(d.Sides/2, 1), Mod: d.Mod / 2}
}

// Doubled is a natural 20's damage: twice the dice, the same modifier.
func (d DiceSpec) Doubled() DiceSpec { return DiceSpec{N: 2 * d.N, Sides: d.Sides, Mod: d.Mod} }

// StepDown is a neutral structure's damage (ruling 5): each die one size
// lower on ladder (ascending die sizes), the modifier kept. A size not on
// the ladder becomes the largest ladder size below it; the smallest stays.
func (d DiceSpec) StepDown(ladder []int) DiceSpec {
	out := d
	for i := len(ladder) - 1; i >= 0; i-- {
		if ladder[i] < d.Sides {
			out.Sides = ladder[i]
			return out
		}
	}
	return out
}

// Roll rolls the spec and returns each die and the total (never below 0).
// A one-sided die shows 1 without a roll.
func (d DiceSpec) Roll(dice domain.Dice) ([]int, int) {
	rolls := make([]int, d.N)
	total := d.Mod
	for i := range rolls {
		v := 1
		if d.Sides > 1 {
			v = dice.Roll(d.Sides)
		}
		rolls[i] = v
		total += v
	}
	return rolls, max(total, 0)
}
