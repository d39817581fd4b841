package codebowl

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// maxSteps bounds one random match; every match must end well within it.
const maxSteps = 5000

// randomSpec returns a valid team spec with random stats and armor.
func randomSpec(r *rand.Rand, name string) TeamSpec {
	ts := TeamSpec{Name: name}
	armor := [TeamSize]int{}
	for i := range armor {
		armor[i] = DefaultArmor
	}
	for k := 0; k < 10; k++ { // move armor points around, keeping the sum
		i, j := r.IntN(TeamSize), r.IntN(TeamSize)
		if armor[i] > MinArmor && armor[j] < MaxArmor && i != j {
			armor[i]--
			armor[j]++
		}
	}
	for i := 0; i < TeamSize; i++ {
		st := 1 + r.IntN(StatBudget-2)
		ag := 1 + r.IntN(StatBudget-st-1)
		ts.Players = append(ts.Players, PlayerSpec{Name: fmt.Sprintf("%s %d", name, i+1),
			ST: st, AG: ag, MV: StatBudget - st - ag, AR: armor[i]})
	}
	return ts
}

// game is one random match in progress.
type game struct {
	t     testing.TB
	r     *rand.Rand
	seed  string
	check bool // check invariants and refusals at every step (tests, not benchmarks)
	legal bool // also apply every listed move now and then
	m     Match
	seq   int64
	now   time.Time
	dead  map[string]bool
	overs int
	snap  string // m's JSON, when check
	// style is how the bot picks among legal moves: 0 at random, 1 runs for
	// the ball and the goal, 2 attacks whenever it can.
	style int
}

// newGame starts a random match: random teams and, unless opts is given,
// random options.
func newGame(t testing.TB, seed string, check bool, opts *Options) *game {
	t.Helper()
	r := rand.New(rand.NewPCG(hash(seed), 7))
	o := Options{
		TurnSeconds:  []int{0, NoTimer, 30}[r.IntN(3)],
		TurnsPerHalf: []int{0, 6, 2, 1}[r.IntN(4)],
		Armor:        r.IntN(2) == 0,
	}
	if opts != nil {
		o = *opts
	}
	home, err := NewTeam("reds", ann.ID, randomSpec(r, "Reds"))
	require.NoError(t, err)
	away, err := NewTeam("blues", ben.ID, randomSpec(r, "Blues"))
	require.NoError(t, err)
	if r.IntN(4) == 0 { // a team that lost players before
		home, _ = RemoveDead(home, []string{home.Players[1].ID, home.Players[4].ID})
	}
	m, err := NewMatch("g-"+seed, ann, home, o, t0)
	require.NoError(t, err)
	m, _, err = Join(m, ben, away, domain.Env{Now: t0, Dice: domain.NewSeededDice(seed, 0)})
	require.NoError(t, err)
	return &game{t: t, r: r, seed: seed, check: check, m: m, now: t0, dead: map[string]bool{}, style: r.IntN(3)}
}

func hash(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// play runs the match to its end and returns the number of steps.
func (g *game) play() int {
	t := g.t
	t.Helper()
	for step := 0; step < maxSteps; step++ {
		if g.m.Phase == PhaseOver {
			if g.check {
				require.Equal(t, 1, g.overs, "one gameOver event per match")
			}
			return step
		}
		g.step()
	}
	t.Fatalf("match %s did not end in %d steps", g.seed, maxSteps)
	return maxSteps
}

func (g *game) step() {
	t, r, m := g.t, g.r, g.m
	t.Helper()
	g.seq++
	g.now = g.now.Add(time.Duration(r.IntN(20)) * time.Second)
	env := domain.Env{Now: g.now, Dice: domain.NewSeededDice(g.seed, g.seq)}
	dl := Rules{}.Header(m).Deadline
	if g.check && g.snap == "" {
		g.snap = checkInvariants(t, m)
	}
	var before Match
	if g.check {
		before = m.clone()
	}
	var (
		next Match
		out  domain.Outcome
		err  error
		what string
	)
	if !dl.IsZero() && (r.IntN(25) == 0 || !g.now.Before(dl)) {
		// The pipeline expires an overdue deadline first, as of the deadline.
		env.Now = dl
		if g.now.Before(dl) {
			g.now = dl
		}
		what = "expire"
		next, out, err = Rules{}.Expire(m, env)
	} else {
		if g.check && r.IntN(8) == 0 {
			g.refusal()
		}
		a := g.pick()
		what = a.Type + " " + string(a.Payload)
		next, out, err = Rules{}.Apply(m, a, env)
	}
	require.NoError(t, err, "step %d: %s", g.seq, what)
	for _, e := range out.Events {
		if e.Type == domain.EventGameOver {
			g.overs++
		}
	}
	if g.check {
		if !reflect.DeepEqual(before, m) {
			t.Fatalf("step %d (%s) changed its input", g.seq, what)
		}
		g.snap = checkInvariants(t, next)
		g.checkStep(m, next, out)
		if g.legal && r.IntN(15) == 0 {
			g.checkLegal(next)
		}
	}
	g.m = next
}

// pick chooses an action for the coach who must act: a legal move, a random
// placement, or now and then a forfeit.
func (g *game) pick() domain.Action {
	r, m := g.r, g.m
	side := m.Active
	if m.Phase == PhaseSetup {
		side = m.Placing
	}
	who := coach(side)
	if r.IntN(2000) == 0 {
		return domain.Action{ID: "f", Type: ActionForfeit, Actor: coach(Side([]Side{Home, Away}[r.IntN(2)])), Payload: json.RawMessage(`{}`)}
	}
	if m.Phase == PhaseSetup && r.IntN(2) == 0 {
		return domain.Action{ID: "p", Type: ActionPlace, Actor: who, Payload: json.RawMessage(placeBody(randomPlacement(r, m, side)))}
	}
	moves := Rules{}.Legal(m, who)
	require.NotEmpty(g.t, moves, "the coach to act has moves")
	mv := moves[r.IntN(len(moves))]
	if mv.Type == ActionEndTurn && r.IntN(3) != 0 { // end turns a little less often
		mv = moves[r.IntN(len(moves))]
	}
	if g.style != 0 && r.IntN(5) != 0 {
		if best, ok := g.preferred(side, moves); ok {
			mv = best
		}
	}
	return moveAction(who, mv)
}

// preferred picks a move by the game's style: the carrier runs furthest
// towards his goal column; a player steps on the loose ball; an attack.
func (g *game) preferred(side Side, moves []domain.Move) (domain.Move, bool) {
	m := g.m
	var best domain.Move
	bestScore := -1 << 30
	for _, mv := range moves {
		if mv.Type != ActionMove {
			continue
		}
		id := mv.Payload["player"].(string)
		ps := mv.Payload["path"].([]Square)
		end := ps[len(ps)-1]
		_, attack := m.at(end)
		score := -1 << 20
		switch {
		case g.style == 2 && attack:
			score = 100 + g.r.IntN(10)
		case g.style == 1 && m.Ball.State == BallCarried && m.Ball.Carrier == id:
			score = 1000 - abs(GoalColumn(side)-end.X)*10 - len(ps)
		case g.style == 1 && m.Ball.State == BallLoose && containsSq(ps, m.Ball.Pos):
			score = 500 - len(ps)
		case g.style == 1 && attack:
			score = 50 + g.r.IntN(10)
		}
		if score > bestScore {
			best, bestScore = mv, score
		}
	}
	return best, bestScore > -1<<20
}

func containsSq(ps []Square, q Square) bool {
	for _, p := range ps {
		if p == q {
			return true
		}
	}
	return false
}

func moveAction(who domain.Actor, mv domain.Move) domain.Action {
	b, err := json.Marshal(mv.Payload)
	if err != nil {
		panic(err)
	}
	if mv.Payload == nil {
		b = []byte(`{}`)
	}
	return domain.Action{ID: "x", Type: mv.Type, Actor: who, Payload: b}
}

// randomPlacement puts side's living players on random squares of its half.
func randomPlacement(r *rand.Rand, m Match, side Side) []Placement {
	used := map[Square]bool{}
	var out []Placement
	for _, p := range m.side(side).Players {
		if p.State == StateDead {
			continue
		}
		for {
			q := halfSquare(side, 1+r.IntN(HalfWidth*Height))
			if !used[q] {
				used[q] = true
				out = append(out, Placement{Player: p.ID, X: q.X, Y: q.Y})
				break
			}
		}
	}
	return out
}

// refusal tries an action that must be refused and checks it changes nothing.
func (g *game) refusal() {
	t, r, m := g.t, g.r, g.m
	t.Helper()
	other := Home
	switch m.Phase {
	case PhasePlay:
		other = m.Active.Other()
	case PhaseSetup:
		other = m.Placing.Other()
	}
	var a domain.Action
	switch r.IntN(5) {
	case 0: // not seated
		a = domain.Action{Type: ActionEndTurn, Actor: eve}
	case 1: // not your turn
		a = domain.Action{Type: ActionEndTurn, Actor: coach(other)}
		if m.Phase == PhaseSetup {
			a = domain.Action{Type: ActionPlace, Actor: coach(other), Payload: json.RawMessage(placeBody(defaultPlacement(m, other)))}
		}
	case 2: // off the pitch
		a = domain.Action{Type: ActionMove, Actor: coach(m.Active), Payload: json.RawMessage(`{"player":"reds.1","path":[{"x":-1,"y":0}]}`)}
	case 3: // a path too long for anyone
		body := moveBody("blues.1", "10,0 11,0 12,0 13,0 14,0 15,0 16,0 17,0 18,0 19,0 18,1")
		a = domain.Action{Type: ActionMove, Actor: coach(m.Active), Payload: json.RawMessage(body)}
	default: // unknown type
		a = domain.Action{Type: "dance", Actor: ann}
	}
	if m.Phase != PhasePlay && (a.Type == ActionMove) {
		a.Actor = eve
	}
	got, out, err := Rules{}.Apply(m, a, domain.Env{Now: g.now, Dice: domain.Script()})
	require.Error(t, err, "%s by %s must be refused", a.Type, a.Actor.ID)
	require.Contains(t, []string{domain.EINVALID, domain.ECONFLICT, domain.EFORBIDDEN}, domain.ErrorCode(err))
	if !reflect.DeepEqual(m, got) {
		t.Fatalf("a refused %s returned a changed state", a.Type)
	}
	require.Equal(t, g.snap, rulestest.JSON(t, m), "a refused action changed its input")
	require.Empty(t, out.Events)
}

// checkLegal applies every move Legal lists for the coach to act, each on
// the same state: each must be accepted.
func (g *game) checkLegal(m Match) {
	t := g.t
	t.Helper()
	for _, side := range []Side{Home, Away} {
		moves := Rules{}.Legal(m, coach(side))
		mine := (m.Phase == PhasePlay && m.Active == side) || (m.Phase == PhaseSetup && m.Placing == side)
		require.Equal(t, mine, len(moves) > 0, "%s has moves exactly when it must act", side)
		for k, mv := range moves {
			a := moveAction(coach(side), mv)
			_, _, err := Rules{}.Apply(m, a, domain.Env{Now: g.now, Dice: domain.NewSeededDice(g.seed, int64(1000000+k))})
			require.NoError(t, err, "listed move %s %s", a.Type, a.Payload)
		}
	}
	require.Empty(t, Rules{}.Legal(m, eve))
}

// checkStep checks how a state may change in one step.
func (g *game) checkStep(prev, next Match, out domain.Outcome) {
	t := g.t
	t.Helper()
	over := rulestest.GameOver(t, out.Events)
	ended := prev.Phase != PhaseOver && next.Phase == PhaseOver
	require.Equal(t, ended && !next.Cancelled(), over != nil, "a gameOver event exactly when a match ends with a result")
	if over != nil {
		want := domain.GameOver{Kind: Kind, Reason: next.EndReason, Players: []string{ann.ID, ben.ID}, Draw: next.Draw}
		if !next.Draw {
			want.Winners, want.Losers = []string{next.Winner}, []string{next.Loser}
		}
		require.Equal(t, want, *over)
	}
	require.GreaterOrEqual(t, next.Home.Score, prev.Home.Score)
	require.GreaterOrEqual(t, next.Away.Score, prev.Away.Score)
	require.LessOrEqual(t, next.Home.Score+next.Away.Score, prev.Home.Score+prev.Away.Score+1, "at most one score a step")
	require.GreaterOrEqual(t, next.Half, prev.Half)
	require.GreaterOrEqual(t, next.Home.Turns+next.Away.Turns, prev.Home.Turns+prev.Away.Turns)
	// Dead players never return; every death is announced once.
	killed := map[string]bool{}
	for _, k := range rulestest.All[PlayerKilledData](t, out.Events, EventPlayerKilled) {
		require.False(t, killed[k.Player], "%s killed twice", k.Player)
		killed[k.Player] = true
		require.Equal(t, next.side(k.Side).Coach, k.Coach)
		require.Equal(t, next.side(k.Side).TeamID, k.TeamID)
	}
	for _, side := range []Side{Home, Away} {
		for _, p := range next.side(side).Players {
			if g.dead[p.ID] {
				require.Equal(t, StateDead, p.State, "%s came back from the dead", p.ID)
			}
			if p.State == StateDead && !g.dead[p.ID] {
				require.True(t, killed[p.ID], "%s died without a playerKilled event", p.ID)
				g.dead[p.ID] = true
			}
		}
	}
	for _, e := range out.Events {
		if e.Type != domain.EventGameOver || !next.Draw {
			require.NotEmpty(t, e.Player, "event %s names its coach", e.Type)
		}
		_, err := json.Marshal(e)
		require.NoError(t, err)
	}
}

func TestRandomMatches(t *testing.T) {
	games := 400
	switch {
	case testing.Short():
		games = 60
	case raceEnabled:
		games = 160 // keeps the package under ~15 s with -race on 2 cores
	}
	reasons := map[string]int{}
	steps, scores, deaths := 0, 0, 0
	for i := 0; i < games; i++ {
		g := newGame(t, fmt.Sprintf("rnd-%d", i), true, nil)
		g.legal = i%10 == 0
		steps += g.play()
		reasons[g.m.EndReason]++
		scores += g.m.Home.Score + g.m.Away.Score
		deaths += len(g.dead)
	}
	t.Logf("%d matches, %.1f steps, %.2f scores and %.2f deaths each; endings %v",
		games, float64(steps)/float64(games), float64(scores)/float64(games), float64(deaths)/float64(games), reasons)
	require.Positive(t, reasons[ReasonPoints], "some matches go the distance")
	require.Positive(t, reasons[ReasonElimination]+reasons[ReasonAbandoned]+reasons[ReasonForfeit], "some end otherwise")
	require.Positive(t, scores, "somebody scores")
}

// cycleDice rolls through fixed values, fitting each to the die.
type cycleDice struct {
	values []int
	i      int
}

func (d *cycleDice) Roll(sides int) int {
	v := d.values[d.i%len(d.values)]
	d.i++
	return (v-1)%sides + 1
}

func BenchmarkMove(b *testing.B) {
	// A dodge, a step, a pickup and an attack: most of what a move can do.
	m := withBall(scene(b, h(5, 5), h(6, 6), a(6, 4), a(8, 5)), 6, 5)
	act := domain.Action{ID: "x", Type: ActionMove, Actor: ann, Payload: json.RawMessage(moveBody("h1", "6,5 7,5 8,5"))}
	env := domain.Env{Now: t0, Dice: &cycleDice{values: []int{30, 40, 60, 70}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := (Rules{}).Apply(m, act, env); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLegal(b *testing.B) {
	m := kickedOff(b, Options{})
	b.ReportAllocs()
	for b.Loop() {
		if len(Rules{}.Legal(m, ann)) == 0 {
			b.Fatal("no moves")
		}
	}
}

// BenchmarkMatch plays whole random matches (Legal, a pick, Apply or Expire
// and the seeded dice at each step), with the default options and with
// random ones.
func BenchmarkMatch(b *testing.B) {
	for _, c := range []struct {
		name string
		opts *Options
	}{{"default", &Options{}}, {"random-options", nil}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			steps, i := 0, 0
			var size int
			for b.Loop() {
				g := newGame(b, fmt.Sprintf("bench-%d", i), false, c.opts)
				steps += g.play()
				bs, _ := json.Marshal(g.m)
				size += len(bs)
				i++
			}
			b.ReportMetric(float64(steps)/float64(i), "steps/match")
			b.ReportMetric(float64(size)/float64(i), "final-JSON-bytes")
		})
	}
}

// BenchmarkApply replays the actions of recorded default matches through
// Apply (and Expire) alone: ns/op is the cost of one action.
func BenchmarkApply(b *testing.B) {
	type rec struct {
		m      Match
		a      *domain.Action // nil: Expire
		seed   string
		seq    int64
		now    time.Time
		expire bool
	}
	var recs []rec
	var sizes, states int
	for i := 0; len(recs) < 2000; i++ {
		g := newGame(b, fmt.Sprintf("apply-%d", i), false, &Options{})
		for g.m.Phase != PhaseOver {
			before := g.m
			g.seq++
			dl := Rules{}.Header(before).Deadline
			if !dl.IsZero() && g.r.IntN(25) == 0 {
				recs = append(recs, rec{m: before, seed: g.seed, seq: g.seq, now: dl, expire: true})
				g.m, _, _ = Rules{}.Expire(before, domain.Env{Now: dl, Dice: domain.NewSeededDice(g.seed, g.seq)})
			} else {
				a := g.pick()
				recs = append(recs, rec{m: before, a: &a, seed: g.seed, seq: g.seq, now: t0})
				var err error
				g.m, _, err = Rules{}.Apply(before, a, domain.Env{Now: t0, Dice: domain.NewSeededDice(g.seed, g.seq)})
				if err != nil {
					b.Fatal(err)
				}
			}
			bs, _ := json.Marshal(g.m)
			sizes += len(bs)
			states++
		}
	}
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		r := recs[k%len(recs)]
		k++
		d := domain.NewSeededDice(r.seed, r.seq)
		if r.expire {
			_, _, _ = Rules{}.Expire(r.m, domain.Env{Now: r.now, Dice: d})
		} else if _, _, err := (Rules{}).Apply(r.m, *r.a, domain.Env{Now: r.now, Dice: d}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(sizes)/float64(states), "state-JSON-bytes")
}
