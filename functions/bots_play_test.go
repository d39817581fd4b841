package functions_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/codebowl"
	"github.com/meeple-games/meeple/domain/partyboard"
	"github.com/meeple-games/meeple/store"
)

// playVsBot plays game gameID of function fn between host and the bots
// seated in it until over says it ended (at most maxSteps actions): the
// bots move through store.PlayBots, as the trigger moves them; when no bot
// has a move, host plays the move pick chooses among those "legal" lists.
// It returns how many moves the bots made.
func playVsBot(t *testing.T, s *stack, fn, gameID string, host player, maxSteps int, pick func(moves []map[string]any) map[string]any, over func() bool) int {
	t.Helper()
	ctx := context.Background()
	bots, idle, n := 0, 0, 0
	for step := 0; step < maxSteps; step++ {
		if over() {
			return bots
		}
		played, err := store.PlayBots(ctx, s.store, gameID)
		require.NoError(t, err)
		if played > 0 {
			bots++
			idle = 0
			continue
		}
		code, out := s.post(host.Token, fn, map[string]any{"gameId": gameID, "actionId": "legal", "type": "legal"})
		require.Equal(t, http.StatusOK, code, "%v", out)
		var moves []map[string]any
		for _, m := range out["result"].(map[string]any)["moves"].([]any) {
			moves = append(moves, m.(map[string]any))
		}
		if len(moves) == 0 {
			idle++
			require.Less(t, idle, 3, "step %d: neither the bot nor the host has a move", step)
			continue
		}
		mv := pick(moves)
		n++
		body := map[string]any{"gameId": gameID, "actionId": "host-" + itoa(n), "type": mv["type"]}
		if p, ok := mv["payload"].(map[string]any); ok {
			for k, v := range p {
				body[k] = v
			}
		}
		code, out = s.post(host.Token, fn, body)
		require.Equal(t, http.StatusOK, code, "the host's listed move %v: %v", mv, out)
	}
	require.True(t, over(), "the game did not end in %d steps", maxSteps)
	return bots
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// noStatsFor checks that a finished game with a bot changed nobody's
// stats, ledger or leaderboard of kind for person.
func noStatsFor(t *testing.T, s *stack, kind string, person player) {
	t.Helper()
	var pl map[string]any
	if s.readDoc("players/"+person.ID, &pl) {
		stats, _ := pl["stats"].(map[string]any)
		require.NotContains(t, stats, kind, "the person has %s stats after a game with a bot: %v", kind, pl)
	}
	ledger, err := s.store.PlayerResults(context.Background(), person.ID, 10)
	require.NoError(t, err)
	for _, r := range ledger {
		require.NotEqual(t, kind, r.Kind, "the person has a %s result in their ledger after a game with a bot: %+v", kind, r)
	}
	var lb map[string]any
	if s.readDoc("leaderboards/"+kind, &lb) {
		raw, _ := json.Marshal(lb)
		require.NotContains(t, string(raw), person.ID, "the person is on the %s leaderboard after a game with a bot", kind)
	}
}

// TestCodeBowlHostPlaysAStrongBot: a coach creates a match with a team of
// his own and adds a strong bot, which joins through the game's join with
// a team its join makes (owned by the bot, locked to the match); the match
// is played to its end through the HTTP function, the host ending his
// turns (his setup: random listed moves) and the bot moving through store.PlayBots. At the end both teams
// are unlocked and nobody's stats or the leaderboard changed. A retried
// addBot seats nobody else; a second addBot finds the match full.
func TestCodeBowlHostPlaysAStrongBot(t *testing.T) {
	s := newStack(t)
	ann := s.cbCoach("cb_bot_ann")
	reds := s.cbTeam(ann, "t1", cbSpec("Reds", 6, 3, 3))
	code, out := s.post(ann.Token, "CodeBowl", map[string]any{"type": "create", "actionId": "c1", "teamId": reds, "private": true})
	require.Equal(t, http.StatusOK, code, "create: %v", out)
	id := out["result"].(map[string]any)["gameId"].(string)
	add := map[string]any{"gameId": id, "actionId": "add-1", "type": domain.ActionAddBot, "level": domain.BotStrong}
	code, first := s.post(ann.Token, "CodeBowl", add)
	require.Equal(t, http.StatusOK, code, "addBot: %v", first)
	code, again := s.post(ann.Token, "CodeBowl", add)
	require.Equal(t, http.StatusOK, code, "retried addBot: %v", again)
	require.Equal(t, first["version"], again["version"], "a retried addBot is answered with the first reply")
	code, out = s.post(ann.Token, "CodeBowl", with(add, map[string]any{"actionId": "add-2"}))
	require.Equal(t, http.StatusConflict, code, "a second bot: %v", out)

	bot := domain.BotActor(domain.BotStrong, 1)
	m, _ := s.cbMatch(id)
	require.Equal(t, bot.ID, m.Away.Coach)
	botTeam := codebowl.BotTeamID(bot.ID, id)
	require.Equal(t, botTeam, m.Away.TeamID)
	tm := s.cbTeamDoc(botTeam)
	require.Equal(t, bot.ID, tm.Coach, "the bot's team is the bot's")
	require.Equal(t, id, tm.Match, "the bot's team is locked to the match")
	require.Equal(t, id, s.cbTeamDoc(reds).Match)

	rng := rand.New(rand.NewPCG(1, 2))
	moves := playVsBot(t, s, "CodeBowl", id, ann, 3000, func(ms []map[string]any) map[string]any {
		for _, mv := range ms {
			if mv["type"] == codebowl.ActionEndTurn {
				return mv
			}
		}
		return ms[rng.IntN(len(ms))]
	}, func() bool { m, _ := s.cbMatch(id); return m.Phase == codebowl.PhaseOver })
	m, _ = s.cbMatch(id)
	t.Logf("CodeBowl: host %d – bot %d (%s, winner %q) after %d bot moves", m.Home.Score, m.Away.Score, m.EndReason, m.Winner, moves)
	require.Empty(t, s.cbTeamDoc(reds).Match, "the host's team is unlocked at the end")
	require.Empty(t, s.cbTeamDoc(botTeam).Match, "the bot's team is unlocked at the end")
	noStatsFor(t, s, codebowl.Kind, ann)
}

// TestPartyBoardWithABot: a guest hosts a Party Board lobby on each level,
// adds a bot, starts, and plays to the end through the HTTP function (the
// host answers what the game awaits of him with a random listed move, never
// leaving); the bot answers for itself through store.PlayBots and never
// removes anyone. Nobody's stats change.
func TestPartyBoardWithABot(t *testing.T) {
	for _, level := range domain.BotLevels {
		t.Run(level, func(t *testing.T) {
			s := newStack(t)
			host := s.guest("Hana")
			code, out := s.post(host.Token, "PartyBoard", map[string]any{"actionId": "c1", "type": "create", "board": "pokemon-gen1"})
			require.Equal(t, http.StatusOK, code, "create: %v", out)
			id := out["result"].(map[string]any)["gameId"].(string)
			code, out = s.post(host.Token, "PartyBoard", map[string]any{"gameId": id, "actionId": "add-1", "type": domain.ActionAddBot, "level": level})
			require.Equal(t, http.StatusOK, code, "addBot: %v", out)
			code, out = s.post(host.Token, "PartyBoard", map[string]any{"gameId": id, "actionId": "start", "type": partyboard.ActionStart})
			require.Equal(t, http.StatusOK, code, "start: %v", out)
			bot := domain.BotActor(level, 1)
			game := func() partyboard.Game {
				var g partyboard.Game
				_, err := s.store.GameState(context.Background(), id, &g)
				require.NoError(t, err)
				return g
			}
			g0 := game()
			require.Equal(t, []string{host.ID, bot.ID}, g0.PlayerIDs())
			rng := rand.New(rand.NewPCG(3, 4))
			moves := playVsBot(t, s, "PartyBoard", id, host, 5000, func(ms []map[string]any) map[string]any {
				var mine []map[string]any
				for _, mv := range ms {
					if mv["type"] != partyboard.ActionRemovePlayer {
						mine = append(mine, mv)
					}
				}
				return mine[rng.IntN(len(mine))]
			}, func() bool { return game().Phase == partyboard.PhaseOver })
			g := game()
			for _, p := range g.Players {
				require.False(t, p.Removed, "%s was removed", p.ID)
			}
			t.Logf("Party Board, %s bot: over after %d turns, %d bot moves; winner %s", level, g.Turn, moves, g.Winner)
			noStatsFor(t, s, partyboard.Kind, host)
		})
	}
}
