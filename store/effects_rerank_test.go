package store

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func entry(id string, wins, losses int64) LeaderEntry {
	return LeaderEntry{PlayerID: id, Name: "N" + id, Wins: wins, Losses: losses}
}

func ids(es []LeaderEntry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.PlayerID)
	}
	return out
}

// pool returns a board holding n players p00.. with n-i wins each, so p00 leads.
func pool(n int, complete bool) Leaderboard {
	var es []LeaderEntry
	for i := range n {
		es = append(es, entry(fmt.Sprintf("p%02d", i), int64(100-i), 0))
	}
	top := min(n, LeaderboardTop)
	return Leaderboard{Kind: "k", Mode: "m", Entries: es[:top], Reserve: es[top:], Complete: complete}
}

func TestRerank(t *testing.T) {
	for _, tc := range []struct {
		name         string
		board        Leaderboard
		changed      []LeaderEntry
		wantTop      []string
		wantReserve  int
		wantComplete bool
	}{
		{
			name:         "order: wins desc, losses asc, id",
			board:        Leaderboard{Complete: true},
			changed:      []LeaderEntry{entry("b", 1, 1), entry("c", 2, 5), entry("a", 1, 1), entry("d", 1, 0)},
			wantTop:      []string{"c", "d", "a", "b"},
			wantComplete: true,
		},
		{
			name:         "a complete board takes anyone",
			board:        pool(3, true),
			changed:      []LeaderEntry{entry("new", 0, 1)},
			wantTop:      []string{"p00", "p01", "p02", "new"},
			wantComplete: true,
		},
		{
			name:         "overflowing the pool makes it incomplete",
			board:        pool(LeaderboardPool, true),
			changed:      []LeaderEntry{entry("new", 0, 1)},
			wantTop:      []string{"p00", "p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p09"},
			wantReserve:  LeaderboardPool - LeaderboardTop,
			wantComplete: false,
		},
		{
			name:        "a newcomer below the pool stays out of an incomplete board",
			board:       pool(LeaderboardPool, false),
			changed:     []LeaderEntry{entry("new", 1, 0)},
			wantTop:     []string{"p00", "p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p09"},
			wantReserve: LeaderboardPool - LeaderboardTop,
		},
		{
			name:        "a newcomer above the last entry gets in",
			board:       pool(12, false),
			changed:     []LeaderEntry{entry("new", 95, 0)},
			wantTop:     []string{"p00", "p01", "p02", "p03", "p04", "new", "p05", "p06", "p07", "p08"}, // ties on wins and losses go by id
			wantReserve: 3,
		},
		{
			name:        "a shown player who slips below the last entry leaves the pool",
			board:       pool(12, false),
			changed:     []LeaderEntry{entry("p02", 96, 1), entry("p05", 80, 1)},
			wantTop:     []string{"p00", "p01", "p03", "p04", "p02", "p06", "p07", "p08", "p09", "p10"},
			wantReserve: 1,
		},
		{
			name:        "the last entry drawing keeps its place",
			board:       pool(12, false),
			changed:     []LeaderEntry{{PlayerID: "p11", Wins: 89, Draws: 3}},
			wantTop:     []string{"p00", "p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p09"},
			wantReserve: 2,
		},
		{
			name:        "the last entry losing leaves an incomplete board",
			board:       pool(12, false),
			changed:     []LeaderEntry{entry("p11", 89, 1)},
			wantTop:     []string{"p00", "p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p09"},
			wantReserve: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := rerank(tc.board, tc.changed)
			require.Equal(t, tc.wantTop, ids(got.Entries), "entries")
			require.Len(t, got.Reserve, tc.wantReserve, "reserve %v", ids(got.Reserve))
			require.Equal(t, tc.wantComplete, got.Complete, "complete")
			for i := 1; i < len(got.Entries)+len(got.Reserve); i++ {
				all := append(append([]LeaderEntry(nil), got.Entries...), got.Reserve...)
				require.True(t, all[i-1].ranksBefore(all[i]), "%v before %v", all[i-1], all[i])
			}
		})
	}
}
