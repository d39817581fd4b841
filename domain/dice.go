package domain

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
)

// Dice rolls dice. Rules receive one and never touch a global random source.
type Dice interface {
	// Roll returns a value in [1, sides].
	Roll(sides int) int
}

// SeedHash is what a game publishes at creation: the hex SHA-256 of its seed
// string. Revealing the seed at the end lets anyone check it against this.
func SeedHash(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	return hex.EncodeToString(sum[:])
}

// SeededDice is the deterministic generator for the action applied at game
// version seq. The derivation, documented in docs/randomness.md, is:
//
//	block_k = SHA-256(seed + ":" + seq + ":" + k)   for k = 0, 1, 2, ...
//
// Each block is read as four big-endian uint64 words, in order. A die with s
// sides takes the next word w; it is rejected (and the next word taken) when
// w >= 2^64 - (2^64 mod s), so every face is equally likely; otherwise the die
// shows w mod s + 1.
type SeededDice struct {
	seed  string
	seq   int64
	block int
	words []uint64
}

// NewSeededDice returns the generator for seed at action sequence seq.
func NewSeededDice(seed string, seq int64) *SeededDice {
	return &SeededDice{seed: seed, seq: seq}
}

func (d *SeededDice) next() uint64 {
	if len(d.words) == 0 {
		sum := sha256.Sum256([]byte(d.seed + ":" + strconv.FormatInt(d.seq, 10) + ":" + strconv.Itoa(d.block)))
		d.block++
		for i := 0; i < 4; i++ {
			d.words = append(d.words, binary.BigEndian.Uint64(sum[i*8:]))
		}
	}
	w := d.words[0]
	d.words = d.words[1:]
	return w
}

// Roll implements Dice.
func (d *SeededDice) Roll(sides int) int {
	if sides < 1 {
		panic(fmt.Sprintf("dice: %d sides", sides))
	}
	s := uint64(sides)
	limit := math.MaxUint64 - (math.MaxUint64%s+1)%s // largest accepted word
	for {
		if w := d.next(); w <= limit {
			return int(w%s) + 1
		}
	}
}

// ScriptedDice returns the values it was given, in order: for tests and replays.
// It panics when it runs out or a value does not fit the die, which in a test
// means the rule rolled more, or differently, than the test expected.
type ScriptedDice struct {
	Values []int
	used   int
}

// Script returns dice that roll the given values in order.
func Script(values ...int) *ScriptedDice { return &ScriptedDice{Values: values} }

// Roll implements Dice.
func (d *ScriptedDice) Roll(sides int) int {
	if d.used >= len(d.Values) {
		panic(fmt.Sprintf("scripted dice: roll %d asked for, only %d scripted", d.used+1, len(d.Values)))
	}
	v := d.Values[d.used]
	if v < 1 || v > sides {
		panic(fmt.Sprintf("scripted dice: value %d on a %d-sided die", v, sides))
	}
	d.used++
	return v
}

// Remaining reports how many scripted values are left.
func (d *ScriptedDice) Remaining() int { return len(d.Values) - d.used }
