package tilerace

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// memStore is a race's documents as the effects and the projection see
// them: the platform's part (read what is asked, write what is returned,
// refuse a Create of a document that exists) done in memory.
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

func (m *memStore) apply(r domain.Record) {
	for _, h := range Effects() {
		has := false
		for _, e := range r.Events {
			has = has || e.Type == h.Event
		}
		if !has {
			continue
		}
		reads, err := h.Reads(r)
		require.NoError(m.t, err)
		ch, err := h.Run(m.read(reads), r, t0)
		require.NoError(m.t, err)
		m.write(ch)
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

func recordOf(t *testing.T, id string, events ...domain.Event) domain.Record {
	r := domain.Record{GameID: gameID, ID: id, Kind: Kind, At: t0}
	for _, e := range events {
		r.Events = append(r.Events, domain.RecordEvent{Type: e.Type, Player: e.Player, Data: json.RawMessage(jsonOf(t, e.Data))})
	}
	return r
}

// Awards and their reversals, applied in any order, some twice, always sum
// to the same leaderboard: the ledger's sum by player, with the awards and
// reversals counted once each. The effects never write the leaderboard;
// the projection does, and only when it changes.
func TestPointsProjectionOrderIndependent(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		m := &memStore{t: t, docs: map[domain.DocID]json.RawMessage{}}
		players := []string{"Zezima", "Lynx", "B0aty", "Woox"}
		var records []domain.Record
		want := map[string]int{}
		awards, reversed := 0, 0
		seq := map[string]int{}
		var undone []domain.Event
		for i := range 12 {
			team := fmt.Sprintf("t%d", r.IntN(3)+1)
			var evs []domain.Event
			for range r.IntN(3) + 1 {
				seq[team]++
				a := AwardData{Key: AwardKey(team, seq[team]), Player: players[r.IntN(len(players))], Points: (r.IntN(30) + 1) * 25, Team: team, TeamName: team}
				evs = append(evs, domain.Event{Type: EventPointsAwarded, Player: team, Data: a})
				awards++
				if r.IntN(3) == 0 {
					undone = append(undone, domain.Event{Type: EventPointsReversed, Player: team, Data: PointsReversedData{
						Key: a.Key, Player: a.Player, Points: a.Points, Team: team, TeamName: team, Event: fmt.Sprintf("%s~a%d", team, i), By: "Ada"}})
					reversed++
				} else {
					want[a.Player] += a.Points
				}
			}
			records = append(records, recordOf(t, fmt.Sprintf("%s~a%d", team, i), evs...))
		}
		for i := 0; i < len(undone); i += 2 {
			records = append(records, recordOf(t, fmt.Sprintf("ada~u%d", i), undone[i:min(i+2, len(undone))]...))
		}
		r.Shuffle(len(records), func(i, j int) { records[i], records[j] = records[j], records[i] })
		for i, rec := range records {
			m.apply(rec)
			if r.IntN(4) == 0 { // a redelivery, at once or later
				m.apply(records[r.IntN(i+1)])
			}
			if r.IntN(5) == 0 {
				m.project()
			}
		}
		for _, rec := range records {
			m.apply(rec) // every record again: nothing changes
		}
		m.project()
		lb := m.leaderboard()
		for p, pts := range want {
			if pts == 0 {
				delete(want, p)
			}
		}
		require.Equal(t, want, lb.Totals, "seed %d", seed)
		require.Equal(t, awards, lb.Awards, "seed %d", seed)
		require.Equal(t, reversed, lb.Reversed, "seed %d", seed)
		require.Equal(t, Leaderboard(want, LeaderboardSize), lb.Top, "seed %d", seed)
		require.False(t, m.project(), "seed %d: projecting again writes nothing", seed)
	}
}

// The effects write ledger entries and team points, never the leaderboard.
func TestPointsEffectsWriteNoLeaderboard(t *testing.T) {
	m := &memStore{t: t, docs: map[domain.DocID]json.RawMessage{}}
	m.apply(recordOf(t, "t1~a1", domain.Event{Type: EventPointsAwarded, Player: "t1", Data: AwardData{Key: "t1-1", Player: "Zezima", Points: 300, Team: "t1", TeamName: "Red"}}))
	m.apply(recordOf(t, "ada~u1", domain.Event{Type: EventPointsReversed, Player: "t1", Data: PointsReversedData{Key: "t1-1", Player: "Zezima", Points: 300, Team: "t1", TeamName: "Red", Event: "t1~a1"}}))
	for id := range m.docs {
		require.Contains(t, []string{SlotLedger, SlotPoints}, id.Slot, "%v", id)
	}
	var tp TeamPoints
	require.NoError(t, json.Unmarshal(m.docs[domain.Doc(SlotPoints, "t1")], &tp))
	require.Equal(t, TeamPoints{Totals: map[string]int{}, Awards: 1, Reversed: 1}, tp)
	ch, err := LeaderboardProjection().Run(domain.NewDocs(), t0)
	require.NoError(t, err)
	require.Empty(t, ch.Writes, "nothing to project for a race without points")
	require.True(t, m.project())
	require.Equal(t, RaceLeaderboard{Totals: map[string]int{}, Top: []Standing{}, Awards: 1, Reversed: 1}, m.leaderboard())
}
