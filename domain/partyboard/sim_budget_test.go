package partyboard

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// neverEnds is a valid board whose games never end: every tile between the
// start and the goal sends the player back to the start (issue 23).
func neverEnds(tiles int) string {
	var out []string
	out = append(out, `{"rule":{"type":"DisplayRule","displayText":"start"},"position":[{"x":1,"y":2}]}`)
	for i := 1; i < tiles-1; i++ {
		out = append(out, `{"rule":{"type":"MoveRule","displayText":"back","playerTarget":"self","tileIndex":0},"position":[{"x":1,"y":2}]}`)
	}
	out = append(out, `{"rule":{"type":"GameOverRule","displayText":"win"},"position":[{"x":0,"y":0}]}`)
	return `{"tiles":[` + strings.Join(out, ",") + `],"zones":[{"name":"Z","type":"active","rule":{"type":"DisplayRule","displayText":"z"}}]}`
}

func simulate(t *testing.T, body string) (SimReport, time.Duration, error) {
	t.Helper()
	w := rulestest.NewWorld(NewPlatformGame(), "s", time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
	start := time.Now()
	ch, err := w.Do(domain.Action{ID: "s", Type: ActionSimulateBoard, Actor: domain.Actor{ID: "g_1", Name: "G", Role: domain.RoleGuest}, Payload: json.RawMessage(body)})
	took := time.Since(start)
	if err != nil {
		return SimReport{}, took, err
	}
	require.Empty(t, ch.Writes, "a simulation writes nothing")
	return ch.Result.(SimReport), took, nil
}

// TestSimulateBudget: a simulateBoard request does a bounded amount of work:
// each game at most SimStepCap(players) actions (a game that reaches it is
// reported stalled, not run out), games × that cap at most SimBudget (a
// request over it is refused naming games and players), so the worst board
// there is runs about as long as the longest real simulation.
func TestSimulateBudget(t *testing.T) {
	most := SimBudget / SimStepCap(MaxPlayers)
	t.Run("a board whose games never end", func(t *testing.T) {
		rep, took, err := simulate(t, fmt.Sprintf(`{"board":%s,"games":%d,"players":%d}`, neverEnds(8), most, MaxPlayers))
		require.NoError(t, err)
		require.Equal(t, most, rep.Stalled, "every game stalls, and is reported so")
		require.Equal(t, SimStepCap(MaxPlayers), rep.MaxSteps)
		require.LessOrEqual(t, rep.Games*rep.MaxSteps, SimBudget)
		t.Logf("%d games of %d players on a board that never ends: %d actions at most, %s", most, MaxPlayers, rep.Games*rep.MaxSteps, took)
	})
	t.Run("the built-in boards end within the cap", func(t *testing.T) {
		for _, board := range []string{"pokemon-gen1", "pokemon-gen2"} {
			rep, took, err := simulate(t, fmt.Sprintf(`{"board":%q,"games":%d,"players":%d}`, board, most, MaxPlayers))
			require.NoError(t, err)
			require.Zero(t, rep.Stalled, board)
			require.Less(t, rep.Actions.Max, rep.MaxSteps, board)
			t.Logf("%s, %d games of %d players: %d actions at most per game (cap %d), %s", board, most, MaxPlayers, rep.Actions.Max, rep.MaxSteps, took)
		}
	})
	t.Run("over the budget", func(t *testing.T) {
		_, _, err := simulate(t, fmt.Sprintf(`{"board":"pokemon-gen1","games":%d,"players":%d}`, most+1, MaxPlayers))
		require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
		require.Contains(t, domain.ErrorMessage(err), "games × players")
		_, _, err = simulate(t, fmt.Sprintf(`{"board":"pokemon-gen1","games":%d,"players":6}`, SimBudget/SimStepCap(6)))
		require.NoError(t, err, "6 players fit the most games the budget allows them")
	})
	t.Run("games left out fit the budget", func(t *testing.T) {
		for _, tc := range []struct{ players, want int }{{2, DefaultSimGames}, {4, DefaultSimGames}, {12, most}} {
			rep, _, err := simulate(t, fmt.Sprintf(`{"board":"pokemon-gen1","players":%d}`, tc.players))
			require.NoError(t, err, "%d players", tc.players)
			require.Equal(t, tc.want, rep.Games, "%d players: got %d games, want %d", tc.players, rep.Games, tc.want)
		}
	})
}

// TestSimulateStops: a simulation whose Stop says the time is up plays no
// further game and reports the ones it played as cut; without Stop, or
// before it says so, the report is the whole one.
func TestSimulateStops(t *testing.T) {
	b, _, _, err := LoadBoard(json.RawMessage(neverEnds(8)), LoadOptions{})
	require.NoError(t, err)
	for _, tc := range []struct {
		name      string
		after     int // Stop says so from its (after+1)th call; -1: never
		wantGames int
		wantCut   bool
	}{
		{"never", -1, 10, false},
		{"after 3 games", 2, 3, true},
		{"at once: the first game is still played", 0, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			stop := func() bool { calls++; return tc.after >= 0 && calls > tc.after }
			rep, err := Simulate(b, SimOptions{Games: 10, Players: 2, MaxSteps: 50, Stop: stop})
			require.NoError(t, err)
			require.Equal(t, tc.wantGames, rep.Games, "games: got %d, want %d", rep.Games, tc.wantGames)
			require.Equal(t, tc.wantCut, rep.Cut)
			require.Equal(t, rep.Games, rep.Stalled, "the games played are the games reported")
		})
	}
}
