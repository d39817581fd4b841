package functions_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/functions"
)

// TestVerifyRemembers: a token Verify accepted is accepted again as it was,
// until it expires or the secret changes; a token that differs by a byte is
// checked, and refused.
func TestVerifyRemembers(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	s := &functions.Sessions{Secret: []byte("first secret"), TTL: time.Hour, Now: func() time.Time { return now }}
	ann := domain.Actor{ID: "p-ann", Name: "Ann", Role: domain.RolePlayer, Gen: 2}
	tok, _, err := s.Issue(ann)
	require.NoError(t, err)
	for range 2 {
		got, err := s.Verify(tok)
		require.NoError(t, err)
		require.Equal(t, ann, got)
	}
	tampered := tok[:len(tok)-2] + map[bool]string{true: "AA", false: "BB"}[tok[len(tok)-2:] != "AA"]
	_, err = s.Verify(tampered)
	require.Equal(t, domain.EUNAUTHORIZED, domain.ErrorCode(err), "a token one byte off")

	now = now.Add(time.Hour)
	_, err = s.Verify(tok)
	require.Equal(t, domain.EUNAUTHORIZED, domain.ErrorCode(err), "expired")

	now = now.Add(-time.Minute)
	s.Secret = []byte("second secret")
	_, err = s.Verify(tok)
	require.Equal(t, domain.EUNAUTHORIZED, domain.ErrorCode(err), "signed with a secret no longer used")
}
