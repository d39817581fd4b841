package hexdice

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// maxSteps bounds one random game; sudden death ends every game well within.
const maxSteps = 20000

func hash(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// player is a random player's behaviour for one game.
type player struct {
	actor domain.Actor
	// quits: stops sending anything from this step on (disconnect, forfeit).
	quitAt int
}

// platform plays the part of the platform around the rules: it keeps each
// player's private orders and passes them in, as docs/hexdice.md asks.
type platform struct {
	r       Rules
	private map[string]Orders
}

func (p *platform) rules() Rules { return p.r.WithOrders(p.private) }

func (p *platform) store(out domain.Outcome) {
	if id, o, ok := PrivateOrders(out); ok {
		p.private[id] = o
	}
}

// randomGame plays one game with random legal actions, every action's dice
// from domain.NewSeededDice(seed, seq), checking the invariants after every
// step when check is set. It returns the final state and the steps taken.
func randomGame(t testing.TB, size Size, mode TurnMode, seed string, check bool) (Game, int) {
	t.Helper()
	return randomGameUntil(t, size, mode, seed, check, 0)
}

// randomGameUntil is randomGame stopping at the start of round stop (0:
// at the end), for a state in mid-game.
func randomGameUntil(t testing.TB, size Size, mode TurnMode, seed string, check bool, stop int) (Game, int) {
	t.Helper()
	return randomGameWith(t, size, mode, seed, check, stop, false, nil)
}

// randomGameWith is randomGameUntil with fog on or off, calling onStep (if
// set) after every step with the states around it and its outcome.
func randomGameWith(t testing.TB, size Size, mode TurnMode, seed string, check bool, stop int, fog bool,
	onStep func(before, after Game, m *Map, out domain.Outcome)) (Game, int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(hash(seed), 7))
	pf := &platform{r: Rules{}, private: map[string]Orders{}}
	secs := []int{60, 90, 120}[rng.IntN(3)]
	g, err := NewGame("g-"+seed, alice, Options{Size: size, Mode: mode, TurnSeconds: secs, MapSeed: seed, Fog: fog}, t0)
	require.NoError(t, err)
	m, err := pf.r.MapOf(g)
	require.NoError(t, err)
	if check {
		checkMap(t, m, g.Config)
	}
	players := []*player{{actor: alice, quitAt: -1}, {actor: bob, quitAt: -1}}
	if rng.IntN(12) == 0 { // now and then a player walks away for good
		players[rng.IntN(2)].quitAt = rng.IntN(400)
	}
	now := t0
	seq := int64(0)
	gameOvers := 0
	apply := func(who domain.Actor, typ string, payload any) (Game, domain.Outcome, error) {
		body, _ := json.Marshal(payload)
		if payload == nil {
			body = []byte(`{}`)
		}
		return pf.rules().Apply(g, domain.Action{ID: "x", Type: typ, Actor: who, Payload: body},
			domain.Env{Now: now, Dice: domain.NewSeededDice(seed, seq)})
	}
	for step := 0; step < maxSteps; step++ {
		if stop > 0 && g.Round >= stop && g.Phase == PhasePlaying {
			return g, step
		}
		if g.Phase == PhaseOver {
			if stop > 0 {
				return g, step
			}
			if check {
				require.Equal(t, 1, gameOvers, "one gameOver per game")
				// The shared map was not changed by a whole game on it.
				require.Equal(t, m.Hash(), m.contentHash())
				checkMap(t, m, g.Config)
			}
			return g, step
		}
		seq++
		now = now.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
		var before Game
		if check {
			before = g.clone()
		}
		h := pf.r.Header(g)
		var (
			next Game
			out  domain.Outcome
		)
		if g.Phase == PhaseWaiting {
			next, out, err = apply(bob, ActionJoin, nil)
			require.NoError(t, err)
		} else if !h.Deadline.After(now) || (rng.IntN(40) == 0 && (h.Deadline.Equal(g.TurnDeadline) || rng.IntN(8) == 0)) {
			// Now and then time jumps to the next deadline: mostly a turn
			// timer, rarely a connection deadline (a disconnection).
			// The pipeline expires due deadlines before any action, as of the deadline.
			if now.Before(h.Deadline) {
				now = h.Deadline
			}
			next, out, err = pf.rules().Expire(g, domain.Env{Now: h.Deadline, Dice: domain.NewSeededDice(seed, seq)})
			require.NoError(t, err, "expire at step %d", step)
		} else {
			who, typ, payload := randomAction(rng, pf, g, m, players, step, now)
			if who.ID == "" {
				continue
			}
			next, out, err = apply(who, typ, payload)
			if err != nil {
				// Only our deliberate bad actions may fail; they change nothing.
				require.Equal(t, "bad", payload.(map[string]any)["why"], "%s by %s at step %d: %v (payload %v)", typ, who.ID, step, err, payload)
				if !reflect.DeepEqual(g, next) || len(out.Events) > 0 {
					t.Fatalf("a refused action changed the state or emitted events")
				}
				continue
			}
			pf.store(out)
		}
		for _, e := range out.Events {
			if e.Type == domain.EventGameOver {
				gameOvers++
			}
		}
		if check && step%25 == 0 && g.Phase == PhasePlaying {
			// Every listed move is accepted (a sample of them, for speed).
			for _, who := range []domain.Actor{alice, bob, carol} {
				moves := pf.r.Legal(g, who)
				rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
				applyAll(t, pf.rules(), g, who, moves[:min(len(moves), 12)])
			}
		}
		if check {
			if !reflect.DeepEqual(before, g) {
				require.Equal(t, before, g, "the input state was changed")
			}
			checkInvariants(t, next, m)
			checkEvents(t, g, next, out)
		}
		if onStep != nil {
			onStep(g, next, m, out)
		}
		g = next
	}
	t.Fatalf("%s %s game %s did not end in %d steps (round %d)", size, mode, seed, maxSteps, g.Round)
	return g, maxSteps
}

// randomAction picks an action: mostly legal moves, now and then a refused
// one (payload marked "why": "bad"), heartbeats to stay connected.
func randomAction(rng *rand.Rand, pf *platform, g Game, m *Map, players []*player, step int, now time.Time) (domain.Actor, string, any) {
	active := func(seat Seat) bool { q := players[seat].quitAt; return q < 0 || step < q }
	// Stay connected: heartbeat when the last one is getting old.
	for seat, p := range g.Players {
		if active(Seat(seat)) && now.Sub(p.LastSeen) > 40*time.Second && rng.IntN(2) == 0 {
			return players[seat].actor, ActionHeartbeat, nil
		}
	}
	if rng.IntN(50) == 0 { // a refused action: not your turn, nonsense, a stranger
		switch rng.IntN(3) {
		case 0:
			return carol, ActionEndTurn, map[string]any{"why": "bad"}
		case 1:
			return players[rng.IntN(2)].actor, ActionMove, map[string]any{"why": "bad", "troop": 999999, "q": 0, "r": 0}
		default:
			if g.Mode == Alternating {
				return players[g.Current.Other()].actor, ActionEndTurn, map[string]any{"why": "bad"}
			}
			return players[rng.IntN(2)].actor, ActionBuy, map[string]any{"why": "bad"}
		}
	}
	if rng.IntN(60) == 0 {
		seat := Seat(rng.IntN(2))
		if active(seat) && emoteAllowed(g, seat, now) {
			return players[seat].actor, ActionEmote, map[string]any{"emote": Emotes[rng.IntN(len(Emotes))].ID}
		}
	}
	if g.Round >= g.Config.SurrenderRound && rng.IntN(3000) == 0 {
		seat := Seat(rng.IntN(2))
		return players[seat].actor, ActionSurrender, nil
	}
	if g.Mode == Alternating {
		seat := g.Current
		if !active(seat) {
			return domain.Actor{}, "", nil
		}
		typ, payload := pickAlternating(rng, Rules{}.Legal(g, players[seat].actor))
		return players[seat].actor, typ, payload
	}
	seat := Seat(rng.IntN(2))
	if !active(seat) || g.Players[seat].Submitted {
		return domain.Actor{}, "", nil
	}
	o := randomOrders(rng, g, m, seat)
	submit := rng.IntN(3) != 0
	return players[seat].actor, ActionOrders, map[string]any{"orders": o, "submit": submit}
}

// pickAlternating picks among legal moves: end the turn now and then,
// otherwise a random kind of action (attacks weigh more), then a random one.
func pickAlternating(rng *rand.Rand, moves []domain.Move) (string, any) {
	byType := map[string][]domain.Move{}
	for _, mv := range moves {
		byType[mv.Type] = append(byType[mv.Type], mv)
	}
	if rng.IntN(6) == 0 || len(moves) == 1 {
		return ActionEndTurn, nil
	}
	kinds := []string{ActionAttack, ActionAttack, ActionAttack, ActionMove, ActionMove, ActionBuy}
	for range 8 {
		k := kinds[rng.IntN(len(kinds))]
		if mvs := byType[k]; len(mvs) > 0 {
			mv := mvs[rng.IntN(len(mvs))]
			return mv.Type, mv.Payload
		}
	}
	return ActionEndTurn, nil
}

// randomOrders builds a random valid order set for seat, one order at a time,
// keeping each that still validates.
func randomOrders(rng *rand.Rand, g Game, m *Map, seat Seat) Orders {
	var o Orders
	try := func(next Orders) {
		if ValidateOrders(g, m, seat, next) == nil {
			o = next
		}
	}
	for _, tr := range g.Troops {
		if tr.Owner != seat || rng.IntN(5) == 0 {
			continue
		}
		to := TroopOrder{Troop: tr.ID}
		from := tr.Hex
		if reach := Reachable(g, m, tr.ID); len(reach) > 0 && rng.IntN(3) != 0 {
			d := reach[rng.IntN(len(reach))].Hex
			to.Move, from = &d, d
		}
		if targets := Targets(g, m, tr.ID, from); len(targets) > 0 && rng.IntN(5) != 0 {
			a := targets[rng.IntN(len(targets))]
			to.Attack = &a
		}
		if to.Move == nil && to.Attack == nil {
			continue
		}
		next := o
		next.Troops = append(append([]TroopOrder(nil), o.Troops...), to)
		try(next)
	}
	opts := BuyOptions(g, m, seat)
	for range rng.IntN(3) {
		if len(opts) == 0 {
			break
		}
		b := opts[rng.IntN(len(opts))]
		if len(b.Units) == 0 {
			continue
		}
		next := o
		next.Buys = append(append([]BuyOrder(nil), o.Buys...), BuyOrder{Unit: b.Units[rng.IntN(len(b.Units))], Hex: b.Hex})
		try(next)
	}
	return o
}

func TestRandomGames(t *testing.T) {
	games := map[Size]int{Small: randomGames(16, 4), Medium: randomGames(8, 2), Large: randomGames(4, 1)}
	if testing.Short() {
		games = map[Size]int{Small: 3, Medium: 2, Large: 1}
	}
	for _, mode := range []TurnMode{Alternating, Simultaneous} {
		for _, size := range Sizes {
			t.Run(string(mode)+"/"+string(size), func(t *testing.T) {
				t.Parallel()
				reasons := map[string]int{}
				steps, rounds := 0, 0
				for i := 0; i < games[size]; i++ {
					g, n := randomGame(t, size, mode, fmt.Sprintf("%s-%s-%d", mode, size, i), true)
					reasons[g.Result.Reason]++
					steps += n
					rounds += g.Result.Rounds
				}
				t.Logf("%d games, %.0f steps and %.1f rounds each, endings %v", games[size],
					float64(steps)/float64(games[size]), float64(rounds)/float64(games[size]), reasons)
			})
		}
	}
}
