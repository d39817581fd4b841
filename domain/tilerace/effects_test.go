package tilerace

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// memStore is a race's documents as the projection sees them: the
// platform's part (read what is asked, write what is returned, refuse a
// Create of a document that exists) done in memory.
type memStore struct {
	t    *testing.T
	docs map[domain.DocID]json.RawMessage
}

func (m *memStore) read(reads []domain.Read) domain.Docs {
	d := domain.NewDocs()
	for _, r := range reads {
		if r.All {
			found := map[string]json.RawMessage{}
			for id, doc := range m.docs {
				if id.Slot == r.Slot {
					found[id.Key] = doc
				}
			}
			d.PutAll(r.Slot, found)
			continue
		}
		d.Put(r.DocID, m.docs[r.DocID])
	}
	return d
}

func (m *memStore) write(ch domain.Change) {
	for _, w := range ch.Writes {
		_, exists := m.docs[w.DocID]
		require.False(m.t, w.Create && exists, "create of %v, which exists", w.DocID)
		m.docs[w.DocID] = json.RawMessage(jsonOf(m.t, w.Value))
	}
}

func (m *memStore) project() bool {
	p := LeaderboardProjection()
	ch, err := p.Run(m.read(p.Reads), t0)
	require.NoError(m.t, err)
	m.write(ch)
	return len(ch.Writes) > 0
}

func (m *memStore) leaderboard() RaceLeaderboard {
	var lb RaceLeaderboard
	require.NoError(m.t, json.Unmarshal(m.docs[domain.Doc(SlotLeaderboard, "")], &lb))
	return lb
}

// The projection sums the teams' points (a player on several teams has one
// total), awards and reversals; it writes only when that changes the board.
func TestLeaderboardProjection(t *testing.T) {
	m := &memStore{t: t, docs: map[domain.DocID]json.RawMessage{}}
	ch, err := LeaderboardProjection().Run(domain.NewDocs(), t0)
	require.NoError(t, err)
	require.Empty(t, ch.Writes, "nothing to project for a race without teams")
	put := func(tm Team) { m.docs[domain.Doc(SlotTeam, tm.ID)] = json.RawMessage(jsonOf(t, tm)) }
	put(Team{ID: "t1", Points: map[string]int{"Zezima": 300, "Lynx": 125}, Awards: 4, Reversed: 1})
	put(Team{ID: "t2", Points: map[string]int{"Zezima": 150}, Awards: 1})
	put(Team{ID: "t3", Awards: 2, Reversed: 2})
	require.True(t, m.project())
	require.Equal(t, RaceLeaderboard{Totals: map[string]int{"Zezima": 450, "Lynx": 125},
		Top:    []Standing{{Rank: 1, Player: "Zezima", Points: 450, Display: "4.50"}, {Rank: 2, Player: "Lynx", Points: 125, Display: "1.25"}},
		Awards: 7, Reversed: 3}, m.leaderboard())
	require.False(t, m.project(), "projecting again writes nothing")
	m.docs[domain.Doc(SlotTeam, "t4")] = json.RawMessage(`{"id":"t4","points":"lots"}`)
	p := LeaderboardProjection()
	_, err = p.Run(m.read(p.Reads), t0)
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err), "%v", err)
}

// Completions, claims, undos and undoTos in any mix: every award is in the
// ledger once, every reversal once and only for an award, and the projected
// leaderboard is exactly the ledger's sum, counted by its entries.
func TestPointsLedgerMatchesLeaderboard(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 9))
			u := newUndoWorld(t, true)
			m := &memStore{t: t, docs: u.w.Docs}
			setup := len(u.history()) // undo goes back no further than the race's start
			for step := range 40 {
				i := r.IntN(len(u.teams))
				tm := u.team(i)
				var err error
				switch k := r.IntN(10); {
				case k < 6:
					_, err = u.do(u.teams[i], ActionComplete, map[string]any{"tile": tm.Position, "recorded": len(tm.Progress),
						"players": []string{tm.Members[r.IntN(len(tm.Members))]}, "complete": r.IntN(3) > 0}, "")
				case k < 7:
					_, err = u.do(u.teams[i], ActionClaimPowerupTile, map[string]any{"powerupTile": "pt-1", "claims": tm.Claims["pt-1"],
						"players": tm.Members[:1+r.IntN(len(tm.Members))]}, "")
				case k < 8:
					if len(u.history()) > setup {
						_, err = u.do(u.master, ActionUndo, nil, "")
					}
				default:
					if h := u.history(); len(h) > setup {
						_, err = u.do(u.master, ActionUndoTo, map[string]any{"to": h[r.IntN(min(len(h)-setup, HistoryDepth))].Record}, "")
					}
				}
				if c := domain.ErrorCode(err); err != nil && c != domain.ECONFLICT && c != domain.EINVALID {
					t.Fatalf("step %d: %v", step, err)
				}
				if r.IntN(4) == 0 {
					m.project()
				}
			}
			m.project()
			want := RaceLeaderboard{Totals: map[string]int{}}
			for _, le := range u.book {
				want.Totals[le.Player] += le.Points
				if le.Reverses != "" {
					want.Reversed++
					_, ok := u.ledger(le.Reverses)
					require.True(t, ok, "%s takes back an award in the ledger", le.Key)
				} else {
					want.Awards++
				}
			}
			for p, pts := range want.Totals {
				require.GreaterOrEqual(t, pts, 0, p)
				if pts == 0 {
					delete(want.Totals, p)
				}
			}
			want.Top = Leaderboard(want.Totals, LeaderboardSize)
			require.Equal(t, want, m.leaderboard())
			require.Positive(t, want.Awards)
			t.Logf("%d awards, %d taken back", want.Awards, want.Reversed)
		})
	}
}

// TestSignInReadsAtOnce: sign-ins run at once; under the race detector a
// value shared by their strict decoding shows as a data race.
func TestSignInReadsAtOnce(t *testing.T) {
	for _, si := range SignIns() {
		t.Run(si.Type, func(t *testing.T) {
			var wg sync.WaitGroup
			for i := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var req string
					if si.Type == "teamLogin" {
						req = fmt.Sprintf(`{"gameId":"g%d","team":"t%d","password":"p%d"}`, i, i, i)
					} else {
						req = fmt.Sprintf(`{"gameId":"g%d","admin":"a%d","password":"p%d"}`, i, i, i)
					}
					id, _, err := si.Reads(json.RawMessage(req))
					if err != nil || id != fmt.Sprint("g", i) {
						t.Errorf("got %q, %v; want g%d", id, err, i)
					}
				}()
			}
			wg.Wait()
		})
	}
}
