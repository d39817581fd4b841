package domain_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

func TestSeededSealer(t *testing.T) {
	s := domain.NewSeededSealer("seed-a")
	plain := []byte(`{"round":3,"troops":[{"troop":7,"move":{"q":1,"r":-2}}],"buys":[{"unit":"marine","q":0,"r":4}]}`)
	sealed := s.Seal("alice", plain)

	t.Run("opens", func(t *testing.T) {
		got, err := s.Open("alice", sealed)
		require.NoError(t, err)
		require.Equal(t, plain, got)
	})
	t.Run("deterministic", func(t *testing.T) {
		require.Equal(t, sealed, domain.NewSeededSealer("seed-a").Seal("alice", plain), "a replay seals to the same text")
	})
	t.Run("hides the text", func(t *testing.T) {
		for _, word := range []string{"troop", "marine", "round"} {
			require.NotContains(t, strings.ToLower(sealed), word)
		}
	})
	t.Run("length rounded up", func(t *testing.T) {
		short := s.Seal("alice", []byte(`{}`))
		longer := s.Seal("alice", []byte(`{"round":3}`))
		require.Equal(t, len(short), len(longer), "small differences in length do not show")
	})
	refusals := []struct {
		name, label, text string
		sealer            *domain.SeededSealer
	}{
		{"another label", "bob", sealed, s},
		{"another game's key", "alice", sealed, domain.NewSeededSealer("seed-b")},
		{"a byte changed", "alice", flip(sealed), s},
		{"truncated", "alice", sealed[:len(sealed)-4], s},
		{"not sealed", "alice", `{"round":3}`, s},
		{"empty", "alice", "", s},
	}
	for _, c := range refusals {
		t.Run("refuses "+c.name, func(t *testing.T) {
			got, err := c.sealer.Open(c.label, c.text)
			require.Nil(t, got)
			require.Equal(t, domain.EINTERNAL, domain.ErrorCode(err), "got %v", err)
		})
	}
	t.Run("large", func(t *testing.T) {
		big := bytes.Repeat([]byte(`{"troop":12,"move":{"q":3,"r":-1},"attack":{"q":4,"r":-1}},`), 200)
		got, err := s.Open("bob", s.Seal("bob", big))
		require.NoError(t, err)
		require.Equal(t, big, got)
	})
}

// flip changes one character in the middle of a sealed text.
func flip(s string) string {
	b := []byte(s)
	i := len(b) / 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

func BenchmarkSeal(b *testing.B) {
	s := domain.NewSeededSealer("seed-a")
	plain := bytes.Repeat([]byte(`{"troop":12,"move":{"q":3,"r":-1},"attack":{"q":4,"r":-1}},`), 20)
	b.ReportAllocs()
	for b.Loop() {
		s.Seal("alice", plain)
	}
}

func BenchmarkOpen(b *testing.B) {
	s := domain.NewSeededSealer("seed-a")
	sealed := s.Seal("alice", bytes.Repeat([]byte(`{"troop":12,"move":{"q":3,"r":-1},"attack":{"q":4,"r":-1}},`), 20))
	b.ReportAllocs()
	for b.Loop() {
		s.Open("alice", sealed)
	}
}

func BenchmarkNewSeededSealer(b *testing.B) {
	for b.Loop() {
		domain.NewSeededSealer("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")
	}
}

// TestViewKeys: a view sealed under ViewLabel(v) opens with the game's
// sealer and with v's key alone (AES-256-GCM, the nonce first, the label
// as additional data); v's key opens neither another viewer's view nor
// anything sealed under the game's key, and another game's sealer opens
// nothing of it.
func TestViewKeys(t *testing.T) {
	s := domain.NewSeededSealer("game seed")
	plain := []byte(`{"version":3,"view":{"seat":0}}`)
	ann := s.Seal(domain.ViewLabel("ann"), plain)
	bob := s.Seal(domain.ViewLabel("bob"), plain)
	whole := s.Seal(domain.HiddenLabel, plain)

	got, err := s.Open(domain.ViewLabel("ann"), ann)
	require.NoError(t, err)
	require.Equal(t, string(plain), string(got))
	_, err = s.Open(domain.ViewLabel("bob"), ann)
	require.Error(t, err, "ann's view under bob's label")

	key, err := s.ViewKey("ann")
	require.NoError(t, err)
	open := func(text, label string) bool {
		_, err := rulestest.OpenWithKey(key, label, text)
		return err == nil
	}
	require.True(t, open(ann, domain.ViewLabel("ann")), "ann's key opens ann's view")
	require.False(t, open(bob, domain.ViewLabel("bob")), "ann's key does not open bob's")
	require.False(t, open(whole, domain.HiddenLabel), "nor the whole state")
	bobKey, err := s.ViewKey("bob")
	require.NoError(t, err)
	require.NotEqual(t, key, bobKey)
	other, err := domain.NewSeededSealer("another game").ViewKey("ann")
	require.NoError(t, err)
	require.NotEqual(t, key, other, "ann's key is this game's only")
	_, err = domain.NewSeededSealer("another game").Open(domain.ViewLabel("ann"), ann)
	require.Error(t, err)
}
