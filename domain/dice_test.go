package domain_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/meeple-games/meeple/domain"
)

func TestSeedHashIsSHA256OfTheSeedString(t *testing.T) {
	sum := sha256.Sum256([]byte("abc"))
	if got, want := domain.SeedHash("abc"), hex.EncodeToString(sum[:]); got != want {
		t.Fatalf("SeedHash = %s, want %s", got, want)
	}
}

// TestSeededDiceFollowsTheDocumentedDerivation recomputes rolls the way a
// player checking a finished game would, from docs/randomness.md alone.
func TestSeededDiceFollowsTheDocumentedDerivation(t *testing.T) {
	seed, seq := "meeple-demo-seed", int64(7)
	var want []int
	for k := 0; len(want) < 12; k++ {
		sum := sha256.Sum256([]byte(seed + ":7:" + string(rune('0'+k))))
		for i := 0; i < 4 && len(want) < 12; i++ {
			w := binary.BigEndian.Uint64(sum[i*8:])
			if w >= ^uint64(0)-(^uint64(0)%6+1)%6+1 { // rejected: 2^64 - (2^64 mod 6) or more
				continue
			}
			want = append(want, int(w%6)+1)
		}
	}
	d := domain.NewSeededDice(seed, seq)
	for i, w := range want {
		if got := d.Roll(6); got != w {
			t.Fatalf("roll %d = %d, want %d", i, got, w)
		}
	}
}

func TestSeededDiceIsDeterministicAndFair(t *testing.T) {
	a, b := domain.NewSeededDice("s", 1), domain.NewSeededDice("s", 1)
	other := domain.NewSeededDice("s", 2)
	same := 0
	for i := 0; i < 100; i++ {
		x, y, z := a.Roll(6), b.Roll(6), other.Roll(6)
		if x != y {
			t.Fatalf("roll %d: %d != %d for the same seed and sequence", i, x, y)
		}
		if x == z {
			same++
		}
	}
	if same > 40 {
		t.Fatalf("sequence 2 matched sequence 1 on %d of 100 rolls", same)
	}
	counts := make([]int, 7)
	d := domain.NewSeededDice("fairness", 0)
	const n = 60000
	for i := 0; i < n; i++ {
		counts[d.Roll(6)]++
	}
	for face := 1; face <= 6; face++ {
		if c := counts[face]; c < n/6-600 || c > n/6+600 { // about 6 standard deviations
			t.Fatalf("face %d came up %d times in %d rolls", face, c, n)
		}
	}
}

func TestScriptedDice(t *testing.T) {
	d := domain.Script(3, 6)
	if got := d.Roll(6); got != 3 {
		t.Fatalf("got %d, want 3", got)
	}
	if got := d.Roll(6); got != 6 {
		t.Fatalf("got %d, want 6", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("an exhausted script must panic")
		}
	}()
	d.Roll(6)
}

func TestErrorCodeAndMessage(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		code, msg string
	}{
		{"nil", nil, "", ""},
		{"domain", domain.Errorf(domain.ECONFLICT, "not your turn"), domain.ECONFLICT, "not your turn"},
		{"other", errString("db exploded at 10.0.0.1"), domain.EINTERNAL, "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := domain.ErrorCode(tt.err); got != tt.code {
				t.Fatalf("code = %q, want %q", got, tt.code)
			}
			if got := domain.ErrorMessage(tt.err); got != tt.msg {
				t.Fatalf("message = %q, want %q", got, tt.msg)
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }
