package store_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// ender is a one-document game for the stats tests: its create seats the
// creator and whoever it names, and its one action, "end", ends the game with
// the gameOver its payload gives (a draw naming nobody, as events from
// before GameOver named its players; a player id no document can have).
type ender struct {
	Players []string `json:"players"`
	Over    bool     `json:"over"`
}

type enderRules struct{}

func (enderRules) Kind() string { return "ender" }

func (enderRules) Header(s ender) domain.Header {
	h := domain.Header{Status: domain.StatusActive, Players: s.Players}
	if s.Over {
		h.Status = domain.StatusOver
	}
	return h
}

func (enderRules) Apply(s ender, a domain.Action, env domain.Env) (ender, domain.Outcome, error) {
	if s.Over {
		return s, domain.Outcome{}, domain.Errorf(domain.ECONFLICT, "over")
	}
	var over domain.GameOver
	if err := json.Unmarshal(a.Payload, &over); err != nil {
		return s, domain.Outcome{}, domain.Errorf(domain.EINVALID, "%v", err)
	}
	over.Kind, s.Over = "ender", true
	return s, domain.Outcome{Events: []domain.Event{{Type: domain.EventGameOver, Data: over}}}, nil
}

func (enderRules) Expire(s ender, env domain.Env) (ender, domain.Outcome, error) {
	return s, domain.Outcome{}, nil
}

func enderEntry() domain.Entry {
	return domain.Entry{Function: "Ender", Stats: true, Game: domain.Single(domain.SingleGame[ender]{
		Rules: enderRules{},
		Create: func(_ domain.Docs, a domain.Action, _ domain.Env) (ender, bool, error) {
			var o struct {
				With []string `json:"with"`
			}
			_ = json.Unmarshal(a.Payload, &o)
			return ender{Players: append([]string{a.Actor.ID}, o.With...)}, false, nil
		},
	})}
}

// TestStatsLeftPendingWhenTheCommitCannot: a game's end whose stats the
// action's commit cannot write — a draw that names no players (they must be
// read from the game), a player id that cannot name a document (the effects
// retire the record) — still ends the game, and its record is left pending
// for ApplyEffects, which awards the draw and retires the other. An ordinary
// end in the same game writes its stats in the commit.
func TestStatsLeftPendingWhenTheCommitCannot(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, enderEntry())
	f.kind = "ender"
	st := f.st
	for _, tc := range []struct {
		name    string
		end     map[string]any
		pending bool
		applied bool   // by ApplyEffects, when pending
		invalid bool   // ApplyEffects retires the record
		totals  string // whose totals count one game afterwards
		pair    string // the game's players are ann{pair} and bob{pair}
	}{
		{"ordinary win", map[string]any{"winners": []string{"ann1"}, "losers": []string{"bob1"}, "players": []string{"ann1", "bob1"}}, false, false, false, "bob1", "1"},
		{"a draw naming nobody", map[string]any{"draw": true}, true, true, false, "bob2", "2"},
		{"a player id no document can have", map[string]any{"winners": []string{"a/b"}, "players": []string{"a/b"}}, true, false, true, "", "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.pair
			actor := domain.Actor{ID: "ann" + n, Name: "Ann", Role: domain.RolePlayer}
			created, err := f.run(t, actor, "", tc.name, domain.ActionCreate, map[string]any{"with": []string{"bob" + n}})
			require.NoError(t, err, "create")
			_, err = f.run(t, actor, created.GameID, "end", "end", tc.end)
			require.NoError(t, err, "end")
			events, err := st.Events(ctx, created.GameID)
			require.NoError(t, err)
			last := events[len(events)-1]
			require.Equal(t, tc.pending, last.Pending, "pending")
			if tc.pending {
				applied, err := st.ApplyEffects(ctx, created.GameID, last.ID)
				require.Equal(t, tc.invalid, domain.ErrorCode(err) == domain.EINVALID, "ApplyEffects: %v", err)
				require.Equal(t, tc.applied, applied, "applied")
			}
			if tc.totals != "" {
				got, err := st.PlayerTotals(ctx, tc.totals, "ender", store.DefaultMode)
				require.NoError(t, err)
				require.Equal(t, int64(1), got.Played, "%s's games played", tc.totals)
			}
			pending, err := st.PendingEvents(ctx, f.now.Add(time.Hour), 10)
			require.NoError(t, err)
			for _, p := range pending {
				require.NotEqual(t, created.GameID, p.GameID, "a record of this game is still pending")
			}
		})
	}
}
