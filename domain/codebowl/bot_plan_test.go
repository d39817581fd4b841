package codebowl

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/bot"
)

// planned returns the plan's next move for home in m, decoded.
func planned(t *testing.T, m Match) (string, MoveRequest) {
	t.Helper()
	mv, ok := plan(m, Home)
	require.True(t, ok, "no plan in home's turn")
	var req MoveRequest
	if mv.Payload != nil {
		b, err := json.Marshal(mv.Payload)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &req))
	}
	// Whatever it is, the rules accept it.
	body, err := bot.Payload(mv)
	require.NoError(t, err)
	_, _, err = Rules{}.Apply(m, domain.Action{ID: "x", Type: mv.Type, Actor: ann, Payload: body},
		domain.Env{Now: t0, Dice: domain.Script(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)})
	require.NoError(t, err, "the rules refuse the plan's %s %v", mv.Type, mv.Payload)
	return mv.Type, req
}

func TestPlan(t *testing.T) {
	last := func(ps []Square) Square {
		if len(ps) == 0 {
			return Square{-1, -1}
		}
		return ps[len(ps)-1]
	}
	t.Run("the carrier walks in", func(t *testing.T) {
		m := carriedBy(scene(t, h(16, 5), a(3, 3)), "h1")
		typ, req := planned(t, m)
		require.Equal(t, ActionMove, typ)
		if got, want := last(req.Path).X, GoalColumn(Home); got != want {
			t.Fatalf("got a path to column %d (%v), want the goal column %d", got, req.Path, want)
		}
	})
	t.Run("the carrier goes round a tackle zone", func(t *testing.T) {
		m := carriedBy(scene(t, h(10, 5), a(13, 5)), "h1")
		typ, req := planned(t, m)
		require.Equal(t, ActionMove, typ)
		from := Square{10, 5}
		for k, q := range req.Path {
			if from.Adjacent(Square{13, 5}) {
				t.Fatalf("path %v leaves (%d,%d), next to the enemy, at step %d: a dodge", req.Path, from.X, from.Y, k)
			}
			from = q
		}
		if got, want := last(req.Path).X, 14; got != want {
			t.Fatalf("got a path to column %d (%v), want %d (four columns)", got, req.Path, want)
		}
	})
	t.Run("a team-mate knocks down the enemy next to the carrier first", func(t *testing.T) {
		m := carriedBy(scene(t, h(10, 5), h(11, 7), a(11, 5)), "h1")
		typ, req := planned(t, m)
		require.Equal(t, ActionMove, typ)
		require.Equal(t, "h2", req.Player)
		if got, want := last(req.Path), (Square{11, 5}); got != want {
			t.Fatalf("got a path to %v (%v), want an attack on %v", got, req.Path, want)
		}
	})
	t.Run("a loose ball is picked up", func(t *testing.T) {
		m := withBall(scene(t, h(5, 5), a(15, 3)), 7, 5)
		typ, req := planned(t, m)
		require.Equal(t, ActionMove, typ)
		require.Contains(t, req.Path, Square{7, 5})
	})
	t.Run("the enemy carrier is attacked", func(t *testing.T) {
		m := carriedBy(scene(t, h(5, 5), a(7, 5)), "a1")
		typ, req := planned(t, m)
		require.Equal(t, ActionMove, typ)
		if got, want := last(req.Path), (Square{7, 5}); got != want {
			t.Fatalf("got a path to %v (%v), want an attack on %v", got, req.Path, want)
		}
	})
	t.Run("nothing left to do ends the turn", func(t *testing.T) {
		m := carriedBy(scene(t, h(5, 5), a(15, 3)), "h1")
		m.Home.Players[0].Acted = true
		typ, _ := planned(t, m)
		require.Equal(t, ActionEndTurn, typ)
	})
	t.Run("a knocked-down player stands up before the turn ends", func(t *testing.T) {
		m := carriedBy(scene(t, h(5, 5), h(3, 3).fallen(), a(15, 3)), "h1")
		m.Home.Players[0].Acted = true
		typ, req := planned(t, m)
		require.Equal(t, ActionStandUp, typ)
		require.Equal(t, "h2", req.Player)
	})
}

// TestPlanPlaysWholeMatches plays seeded matches of the strong bot against
// the random one through the pure rules: the rules accept every move the
// plan makes, and the strong bot wins (cmd/botmatch measures 200).
func TestPlanPlaysWholeMatches(t *testing.T) {
	sp := BotSpec()
	strong, random := domain.BotActor(domain.BotStrong, 1), domain.BotActor(domain.BotRandom, 2)
	wins := 0
	const n = 4
	for seed := uint64(0); seed < n; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		dice := &bot.Dice{R: rand.New(rand.NewPCG(seed, 2))}
		host, guest := strong, random
		if seed%2 == 1 {
			host, guest = random, strong
		}
		m, err := NewMatch("m", host, team(t, "home", host), Options{}, t0)
		require.NoError(t, err)
		m, _, err = Join(m, guest, team(t, "away", guest), domain.Env{Now: t0, Dice: dice})
		require.NoError(t, err)
		level := map[string]string{strong.ID: domain.BotStrong, random.ID: domain.BotRandom}
		over := false
		for step := 0; step < 5000 && !over; step++ {
			who, moves := sp.Mover(m, rng)
			require.NotEmpty(t, moves, "nobody may move in an unfinished match (step %d)", step)
			mv, ok := sp.Choose(m, who, level[who.ID], rng, t0)
			require.True(t, ok)
			next, out, err := sp.Apply(m, who, mv, dice, t0)
			require.NoError(t, err, "%s played %s %v", who.ID, mv.Type, mv.Payload)
			m = next
			if v, done := bot.Result(out, strong.ID); done {
				over = true
				if v == 1 {
					wins++
				}
			}
		}
		require.True(t, over, "match %d did not end", seed)
		t.Logf("match %d: home %d, away %d (strong is %s)", seed, m.Home.Score, m.Away.Score, m.SideOf(strong.ID))
	}
	if got, want := wins, n; got < want {
		t.Fatalf("got %d wins of %d for the strong bot, want %d", got, n, want)
	}
}
