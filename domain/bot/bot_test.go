package bot_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/bot"
	"github.com/meeple-games/meeple/domain/dashdice"
	"github.com/meeple-games/meeple/domain/pig"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// pigGame is a started Pig game between two bots.
func pigGame(t *testing.T, a, b domain.Actor, target int) pig.Game {
	t.Helper()
	return pig.Game{ID: "p", Players: []string{a.ID, b.ID}, Names: []string{a.Name, b.Name}, Scores: []int{0, 0},
		Target: target, Started: true}
}

func pigSpec() bot.Spec[pig.Game] {
	return bot.Spec[pig.Game]{Rules: pig.Rules{}, Lister: pig.Rules{}, Playouts: 100}
}

// play plays one game of sp from s between a (level la) and b (lb) and
// returns the winner's id ("" for none), checking every chosen move is one
// the rules list and accept.
func play[S any](t *testing.T, sp bot.Spec[S], s S, a, b domain.Actor, la, lb string, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	dice := &bot.Dice{R: rand.New(rand.NewPCG(seed, 2))}
	level := map[string]string{a.ID: la, b.ID: lb}
	for step := 0; step < 5000; step++ {
		who, moves := sp.Mover(s, rng)
		if len(moves) == 0 {
			return ""
		}
		mv, ok := sp.Choose(s, who, level[who.ID], rng, t0)
		require.True(t, ok)
		require.Contains(t, keys(sp.Lister.Legal(s, who)), key(mv), "%s chose a move the rules do not list", who.ID)
		next, out, err := sp.Apply(s, who, mv, dice, t0)
		require.NoError(t, err, "%s played %s", who.ID, key(mv))
		s = next
		for _, id := range []string{a.ID, b.ID} {
			if v, over := bot.Result(out, id); over && v == 1 {
				return id
			}
		}
		if sp.Rules.Header(s).Status == domain.StatusOver {
			return ""
		}
	}
	t.Fatal("the game did not end in 5000 steps")
	return ""
}

func key(mv domain.Move) string { b, _ := json.Marshal(mv); return string(b) }

func keys(mvs []domain.Move) []string {
	out := make([]string, len(mvs))
	for i, mv := range mvs {
		out[i] = key(mv)
	}
	return out
}

func TestRandomPlaysOnlyListedMoves(t *testing.T) {
	a, b := domain.BotActor(domain.BotRandom, 1), domain.BotActor(domain.BotRandom, 2)
	for seed := uint64(0); seed < 20; seed++ {
		play(t, pigSpec(), pigGame(t, a, b, 30), a, b, domain.BotRandom, domain.BotRandom, seed)
	}
	dd := dashdice.BotSpec()
	for seed := uint64(0); seed < 10; seed++ {
		m, err := dashdice.NewMatch("m", a, dashdice.BuiltinModes()[0], dashdice.Options{}, t0)
		require.NoError(t, err)
		m, _, err = dd.Apply(m, b, domain.Move{Type: dashdice.ActionJoin}, &bot.Dice{R: rand.New(rand.NewPCG(seed, 3))}, t0)
		require.NoError(t, err)
		play(t, dd, m, a, b, domain.BotRandom, domain.BotRandom, seed)
	}
}

func TestBotsNeverResign(t *testing.T) {
	a, b := domain.BotActor(domain.BotStrong, 1), domain.BotActor(domain.BotRandom, 2)
	sp := dashdice.BotSpec()
	m, err := dashdice.NewMatch("m", a, dashdice.BuiltinModes()[0], dashdice.Options{}, t0)
	require.NoError(t, err)
	m, _, err = sp.Apply(m, b, domain.Move{Type: dashdice.ActionJoin}, &bot.Dice{R: rand.New(rand.NewPCG(1, 1))}, t0)
	require.NoError(t, err)
	listed := keys(sp.Lister.Legal(m, b))
	require.Contains(t, listed, key(domain.Move{Type: dashdice.ActionForfeit}), "the listing offers forfeit")
	for _, mv := range sp.Moves(m, b) {
		if mv.Type == dashdice.ActionForfeit {
			t.Fatalf("a bot may forfeit")
		}
	}
}

func TestStrongBeatsRandom(t *testing.T) {
	// Pig to 20: a random player holds half the time, so the strong bot
	// wins most games (random against random wins half): 20 seeded games,
	// at least 15 (botmatch measures the real games over 200).
	strong, random := domain.BotActor(domain.BotStrong, 1), domain.BotActor(domain.BotRandom, 2)
	wins := 0
	for seed := uint64(0); seed < 20; seed++ {
		a, b := strong, random
		if seed%2 == 1 {
			a, b = random, strong
		}
		if play(t, pigSpec(), pigGame(t, a, b, 20), a, b, map[bool]string{true: domain.BotStrong, false: domain.BotRandom}[a == strong],
			map[bool]string{true: domain.BotStrong, false: domain.BotRandom}[b == strong], seed) == strong.ID {
			wins++
		}
	}
	if got, want := wins, 15; got < want {
		t.Fatalf("got %d wins of 20 for the strong bot, want at least %d", got, want)
	}
	if testing.Verbose() {
		t.Logf("strong won %d of 20", wins)
	}
}

func TestSameSeedSameMove(t *testing.T) {
	a, b := domain.BotActor(domain.BotStrong, 1), domain.BotActor(domain.BotRandom, 2)
	g := pigGame(t, a, b, 30)
	g.TurnTotal = 12
	state, err := json.Marshal(g)
	require.NoError(t, err)
	bots := bot.New(pigSpec())
	first, ok, err := bots.Move(state, a, domain.BotStrong, 42, t0)
	require.NoError(t, err)
	require.True(t, ok)
	for i := 0; i < 3; i++ {
		again, _, err := bots.Move(state, a, domain.BotStrong, 42, t0)
		require.NoError(t, err)
		if got, want := key(again), key(first); got != want {
			t.Fatalf("got %s, want %s (same state and seed)", got, want)
		}
	}
	_, ok, err = bots.Move(state, b, domain.BotStrong, 42, t0)
	require.NoError(t, err)
	require.False(t, ok, "a bot moved out of turn")
}

func TestBotIDs(t *testing.T) {
	for _, c := range []struct {
		id    string
		level string
		ok    bool
	}{
		{"bot-strong-1", domain.BotStrong, true},
		{"bot-random-4", domain.BotRandom, true},
		{"bot-random-5", "", false},
		{"bot-genius-1", "", false},
		{"g_0123", "", false},
		{"bot-strong", "", false},
	} {
		t.Run(c.id, func(t *testing.T) {
			a, level, ok := domain.BotOf(c.id)
			if got, want := ok, c.ok; got != want {
				t.Fatalf("got ok %v, want %v", got, want)
			}
			if ok {
				require.Equal(t, c.level, level)
				require.Equal(t, c.id, a.ID)
				require.Equal(t, domain.RoleBot, a.Role)
			}
		})
	}
}
