package partyboard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

func seedRand(seed string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(seed))
	return rand.New(rand.NewPCG(h.Sum64(), 7))
}

// randomInput picks a random legal input for what g awaits.
func randomInput(rng *rand.Rand, g Game) domain.Action {
	w := g.Await
	who := w.Players[rng.IntN(len(w.Players))]
	fields := ""
	switch w.Action {
	case ActionChoose:
		fields = fmt.Sprintf(`"choice":%d`, rng.IntN(len(w.Choices)))
	case ActionTarget:
		fields = fmt.Sprintf(`"playerId":%q`, w.Targets[rng.IntN(len(w.Targets))])
	case ActionStarter:
		fields = fmt.Sprintf(`"starter":%q`, w.Starters[rng.IntN(len(w.Starters))])
	case ActionChallenge:
		me, other := w.Targets[0], w.Targets[1+rng.IntN(len(w.Targets)-1)]
		if rng.IntN(2) == 0 {
			me, other = other, me
		}
		fields = fmt.Sprintf(`"winner":%q,"loser":%q`, me, other)
	}
	return domain.Action{ID: "a", Type: w.Action, Actor: domain.Actor{ID: who, Name: who}, Payload: body(w.Action, fields)}
}

// illegalInput picks an input the game must refuse: a player not awaited,
// the wrong action, or a stranger.
func illegalInput(rng *rand.Rand, g Game) (domain.Action, string) {
	w := g.Await
	for _, p := range g.Players {
		if !slices.Contains(w.Players, p.ID) && rng.IntN(2) == 0 {
			return domain.Action{Type: w.Action, Actor: domain.Actor{ID: p.ID}, Payload: body(w.Action, "")}, domain.ECONFLICT
		}
	}
	if rng.IntN(2) == 0 {
		return domain.Action{Type: w.Action, Actor: domain.Actor{ID: "stranger"}, Payload: body(w.Action, "")}, domain.EFORBIDDEN
	}
	wrong := ActionConfirm
	if w.Action == ActionConfirm {
		wrong = ActionRoll
	}
	return domain.Action{Type: wrong, Actor: domain.Actor{ID: w.Players[0]}, Payload: body(wrong, "")}, domain.ECONFLICT
}

// randomGame plays a game of players on b with random legal inputs, the
// dice of action n drawn from domain.NewSeededDice(seed, n). With check it
// checks every step (and that illegal inputs are refused without a change).
// It stops at the end or after maxSteps and returns the state and the steps.
func randomGame(t testing.TB, rules Rules, b *Board, players int, seed string, maxSteps int, check bool) (Game, int) {
	rng := seedRand(seed)
	var r domain.Rules[Game] = rules
	if check {
		r = rulestest.PureRules[Game](t, rules)
	}
	g := lobby(t, rules, b, players, domain.NewSeededDice(seed, 0))
	if check {
		checkInvariants(t, b, g)
	}
	for step := 1; step <= maxSteps; step++ {
		if g.Phase == PhaseOver {
			return g, step - 1
		}
		if check {
			before, _ := json.Marshal(g)
			if rng.IntN(8) == 0 {
				a, code := illegalInput(rng, g)
				same, out, err := r.Apply(g, a, domain.Env{Now: t0, Dice: domain.Script()})
				after, _ := json.Marshal(same)
				if domain.ErrorCode(err) != code || len(out.Events) > 0 || !bytes.Equal(before, after) {
					t.Fatalf("game %s step %d: %s by %s: got %v, want %s and no change", seed, step, a.Type, a.Actor.ID, err, code)
				}
			}
		}
		a := randomInput(rng, g)
		next, out, err := r.Apply(g, a, domain.Env{Now: t0, Dice: domain.NewSeededDice(seed, int64(step))})
		if err != nil {
			t.Fatalf("game %s step %d: %s by %s: %v", seed, step, a.Type, a.Actor.ID, err)
		}
		if check {
			checkStep(t, b, g, next, out)
		}
		g = next
	}
	return g, maxSteps
}

// playRandomly plays a game on any board for a while, checking every step.
func playRandomly(t testing.TB, b *Board, players int, seed string, maxSteps int) Game {
	t.Helper()
	g, _ := randomGame(t, Rules{Boards: MapSource{b.ID: b}}, b, players, seed, maxSteps, true)
	return g
}

// maxSteps bounds a game on a real board; they end well within it.
const maxSteps = 20000

// TestRealBoardsPlayToTheEnd plays seeded games with 2 to 12 players and
// random legal inputs on both real boards, checking every step.
func TestRealBoardsPlayToTheEnd(t *testing.T) {
	games := 200
	if testing.Short() || raceEnabled {
		games = 24
	}
	r := Rules{Boards: BuiltinSource{}}
	for _, b := range BuiltinBoards() {
		t.Run(b.ID, func(t *testing.T) {
			t.Parallel()
			winners := map[int]int{}
			steps := 0
			for n := 0; n < games; n++ {
				seed := fmt.Sprintf("%s-%d", b.ID, n)
				players := 2 + n%11
				g, k := randomGame(t, r, b, players, seed, maxSteps, true)
				require.Equal(t, PhaseOver, g.Phase, "game %s did not end in %d steps", seed, maxSteps)
				require.Equal(t, b.last(), g.Players[g.Seat(g.Winner)].Tile, "the winner is on the finish")
				winners[g.Seat(g.Winner)]++
				steps += k
			}
			t.Logf("%d games, %.0f actions a game on average; wins by seat %v", games, float64(steps)/float64(games), winners)
		})
	}
}

// TestRandomBoardsPlay generates boards that use every rule type (and tile
// kinds, "once" tiles, items, leader zones, boards without a finish) in
// random combinations and plays them with random inputs: every step must
// succeed and keep the invariants.
func TestRandomBoardsPlay(t *testing.T) {
	boards := 80
	if testing.Short() || raceEnabled {
		boards = 20
	}
	types := map[string]bool{}
	features := map[string]int{}
	ended := 0
	for n := 0; n < boards; n++ {
		seed := fmt.Sprint("random-board-", n)
		rng := seedRand(seed)
		file := randomBoard(rng)
		b, problems, _, err := LoadBoard(file, LoadOptions{})
		require.NoError(t, err, "%v\n%s", problems, file)
		countFeatures(b, types, features)
		g := playRandomly(t, b, 2+rng.IntN(5), seed, 3000)
		if g.Phase == PhaseOver {
			ended++
		}
	}
	for _, typ := range RuleTypes {
		require.True(t, types[typ], "no random board used %s", typ)
	}
	for _, f := range []string{"once", "kind", "items", "acquire", "lose", "leader", "noFinish", "repeat", "match", "maxRolls", "applyFirst", "swapZone", "pickNearest"} {
		require.NotZero(t, features[f], "no random board used %s", f)
	}
	t.Logf("%d of %d random games ended within 3000 steps; features %v", ended, boards, features)
}

// TestRandomGamesWithTimersAndLeavers plays timed games on random and real
// boards where inputs often time out (Expire at the deadline), players
// leave or are removed by the host now and then, and any move Legal lists
// may be played: every step must succeed and keep the invariants, and every
// game must end.
func TestRandomGamesWithTimersAndLeavers(t *testing.T) {
	games := 40
	if testing.Short() || raceEnabled {
		games = 16
	}
	var boards []*Board
	for n := 0; n < games; n++ {
		if n%4 == 0 {
			boards = append(boards, BuiltinBoards()[n%8/4])
			continue
		}
		b, problems, _, err := LoadBoard(randomBoard(seedRand(fmt.Sprint("timed-board-", n))), LoadOptions{})
		require.NoError(t, err, "%v", problems)
		boards = append(boards, b)
	}
	reasons := map[string]int{}
	for n, b := range boards {
		seed := fmt.Sprint("timed-", n)
		rng := seedRand(seed)
		r := Rules{Boards: MapSource{b.ID: b}}
		pure := rulestest.PureRules[Game](t, r)
		players := 2 + rng.IntN(6)
		g, _, err := Create(MapSource{b.ID: b}, domain.Action{GameID: "g1", Actor: actor(0),
			Payload: json.RawMessage(fmt.Sprintf(`{"board":%q,"turnSeconds":30}`, b.ID))}, domain.Env{Now: t0})
		require.NoError(t, err)
		now := t0
		for i := 1; i < players; i++ {
			g, _, err = r.Apply(g, action(i, ActionJoin, ""), domain.Env{Now: now})
			require.NoError(t, err)
		}
		g, _, err = r.Apply(g, action(0, ActionStart, ""), domain.Env{Now: now, Dice: domain.NewSeededDice(seed, 0)})
		require.NoError(t, err)
		for step := 1; g.Phase == PhasePlaying; step++ {
			require.Less(t, step, 5000, "game %s did not end", seed)
			dice := domain.NewSeededDice(seed, int64(step))
			var next Game
			var out domain.Outcome
			switch k := rng.IntN(100); {
			case k < 25: // nobody answers in time
				now = g.Deadline
				next, out, err = pure.Expire(g, domain.Env{Now: now, Dice: dice})
			case k < 27: // any listed move of anyone, leaving and removing included
				who := actor(rng.IntN(players))
				moves := r.Legal(g, who)
				if len(moves) == 0 {
					continue
				}
				m := moves[rng.IntN(len(moves))]
				now = now.Add(time.Second)
				next, out, err = pure.Apply(g, domain.Action{Type: m.Type, Actor: who, Payload: rulestest.Body(m, "g1", "a")}, domain.Env{Now: now, Dice: dice})
			default:
				now = now.Add(time.Second)
				next, out, err = pure.Apply(g, randomInput(rng, g), domain.Env{Now: now, Dice: dice})
			}
			require.NoError(t, err, "game %s step %d", seed, step)
			checkStep(t, b, g, next, out)
			g = next
			for _, e := range out.Events {
				if e.Type == domain.EventGameOver {
					reasons[e.Data.(domain.GameOver).Reason]++
				}
			}
		}
	}
	t.Logf("%d timed games ended: %v", len(boards), reasons)
	require.NotZero(t, reasons[ReasonLastPlayer], "some games end with one player left")
	require.NotZero(t, reasons[ReasonFinish], "some games end at the finish")
}

// countFeatures tallies what a board uses, so the tests know they covered it.
func countFeatures(b *Board, types map[string]bool, features map[string]int) {
	b.Walk(func(_ string, r *Rule) {
		types[r.Type] = true
		for f, on := range map[string]bool{"acquire": r.AcquireItem != "", "lose": r.LoseItem != "", "repeat": r.Until == UntilRepeat,
			"match": r.Until == UntilMatch, "maxRolls": r.MaxRolls > 0, "applyFirst": r.DiceRolls != nil && r.DiceRolls.Apply == ApplyFirst,
			"swapZone": r.Type == SwapPlacesRule && r.Zone != "", "pickNearest": r.Pick == PickNearest} {
			if on {
				features[f]++
			}
		}
	})
	for _, t := range b.Tiles {
		if t.MandatoryType == MandatoryOnce {
			features["once"]++
		}
		if t.Kind != "" {
			features["kind"]++
		}
	}
	if b.Items != nil {
		features["items"]++
	}
	if b.leaderZone() >= 0 {
		features["leader"]++
	}
	if b.NoFinish() {
		features["noFinish"]++
	}
}

// generator writes random valid board files.
type generator struct {
	rng      *rand.Rand
	tiles    int
	zones    []string     // zones with tiles (not the leader zone)
	items    []string     // item ids rules may name
	refights map[int]bool // tiles a RefightRule's tileIndex names
}

var genItems = []string{"BOMB", "BOW", "SHIELD"}

// randomBoard writes a valid board file with random tiles, zones and rules.
func randomBoard(rng *rand.Rand) []byte {
	n := 12 + rng.IntN(40)
	gen := &generator{rng: rng, tiles: n, items: genItems, refights: map[int]bool{}}
	root := map[string]any{}
	if rng.IntN(2) == 0 {
		root["items"] = map[string]any{"_desc": "ignored", "BOMB": map[string]any{"name": "Bomb"}, "BOW": map[string]any{}, "SHIELD": map[string]any{"description": "blocks"}}
	}
	zones := []map[string]any{}
	for i := 0; i < rng.IntN(4); i++ {
		gen.zones = append(gen.zones, fmt.Sprint("zone ", i))
	}
	for i, name := range gen.zones {
		typ := []string{ZoneActive, ZonePassive}[rng.IntN(2)]
		if i == 0 && rng.IntN(3) == 0 {
			typ = ZoneLeader
		}
		r := gen.rule(1)
		for typ != ZonePassive && (r["type"] == SkipTurnRule || r["type"] == DrinkDuringLostTurnsRule) {
			r = gen.rule(1)
		}
		zones = append(zones, map[string]any{"name": name, "type": typ, "rule": r})
	}
	if len(zones) > 0 && zones[0]["type"] == ZoneLeader {
		gen.zones = gen.zones[1:] // no tile in it
	}
	noFinish := rng.IntN(5) == 0
	var tiles []map[string]any
	for i := 0; i < n; i++ {
		t := map[string]any{"rule": gen.rule(0), "position": []map[string]int{{"x": i, "y": 0}}}
		switch {
		case i == 0 && rng.IntN(2) == 0:
			t["rule"] = map[string]any{"type": StarterSelectionRule, "displayText": "pick", "starters": []string{"A", "B", "C"}}
		case i == n-1 && noFinish:
			t["rule"] = map[string]any{"type": TodoRule, "displayText": "the finish, one day"}
		case i == n-1:
			t["rule"] = map[string]any{"type": GameOverRule, "displayText": "win"}
		case noFinish && t["rule"].(map[string]any)["type"] == GameOverRule:
			t["rule"] = map[string]any{"type": DisplayRule, "displayText": "not the finish"}
		}
		switch k := rng.IntN(12); {
		case k < 2 || (i == n-1 && !noFinish):
			t["mandatory"] = true
		case k < 4 && i < n-1:
			t["mandatoryType"] = MandatoryOnce
		}
		if rng.IntN(4) == 0 && i < n-1 {
			t["kind"] = "boss"
		}
		if len(gen.zones) > 0 && rng.IntN(3) == 0 {
			t["zone"] = gen.zones[rng.IntN(len(gen.zones))]
		}
		tiles = append(tiles, t)
	}
	// A refight's tile may not refight again (LoadBoard refuses the loop).
	for i, t := range tiles {
		if r := t["rule"].(map[string]any); r["type"] == RefightRule && (t["kind"] != nil || gen.refights[i]) {
			t["rule"] = map[string]any{"type": DisplayRule, "displayText": "a boss"}
		}
	}
	if !slices.ContainsFunc(tiles, func(t map[string]any) bool { return t["kind"] != nil }) {
		tiles[0]["kind"] = "boss" // RefightRules name kind "boss"
		if r := tiles[0]["rule"].(map[string]any); r["type"] == RefightRule {
			tiles[0]["rule"] = map[string]any{"type": DisplayRule, "displayText": "a boss"}
		}
	}
	root["tiles"], root["zones"] = tiles, zones
	file, _ := json.Marshal(root)
	return file
}

func (gen *generator) rule(depth int) map[string]any {
	rng, tiles := gen.rng, gen.tiles
	types := RuleTypes
	if depth >= 3 {
		types = []string{DisplayRule, ExtraTurnRule, SkipTurnRule, ReverseTurnOrderRule, TodoRule}
	}
	typ := types[rng.IntN(len(types))]
	r := map[string]any{"type": typ, "displayText": typ + " here"}
	if rng.IntN(8) == 0 {
		r["acquireItem"] = gen.items[rng.IntN(len(gen.items))]
	}
	if rng.IntN(12) == 0 {
		r["loseItem"] = append([]string{AllItems}, gen.items...)[rng.IntN(len(gen.items)+1)]
	}
	target := func(all bool) string {
		if all {
			return []string{TargetSelf, TargetCustom, TargetAllOthers}[rng.IntN(3)]
		}
		return TargetSelf
	}
	criteria := func(hi int) []int {
		var c []int
		for v := 1; v <= hi; v++ {
			if rng.IntN(2) == 0 {
				c = append(c, v)
			}
		}
		if len(c) == 0 {
			c = []int{1 + rng.IntN(hi)}
		}
		return c
	}
	dice := func(outcomes bool) map[string]any {
		d := map[string]any{"numRequired": 1 + rng.IntN(3)}
		kind := []string{"", RollsDefault, RollsCumulative, RollsAllMatch}[rng.IntN(4)]
		if kind != "" {
			d["type"] = kind
		}
		if outcomes {
			hi := 6
			if kind == RollsCumulative {
				hi = 6 * d["numRequired"].(int)
			}
			var os []map[string]any
			for i := 0; i < rng.IntN(4); i++ {
				c := criteria(hi)
				if kind == RollsCumulative {
					c = slices.DeleteFunc(c, func(v int) bool { return v < d["numRequired"].(int) })
					if len(c) == 0 {
						c = []int{hi}
					}
				}
				os = append(os, map[string]any{"rule": gen.rule(depth + 1), "criteria": c, "isAny": rng.IntN(4) == 0})
			}
			d["outcomes"] = os
			if rng.IntN(3) == 0 {
				d["apply"] = []string{ApplyAll, ApplyFirst}[rng.IntN(2)]
			}
		}
		return d
	}
	modifier := func() []any {
		return []any{[]string{"*", "+", "-", "="}[rng.IntN(4)], []float64{0, 0.5, 1, 2, 3}[rng.IntN(5)]}
	}
	switch typ {
	case ExtraTurnRule:
		r["numTurns"] = 1 + rng.IntN(2)
	case SkipTurnRule, AnchorRule:
		r["numTurns"] = 1 + rng.IntN(3)
	case MoveRule:
		r["playerTarget"] = target(true)
		switch rng.IntN(3) {
		case 0:
			r["tileIndex"] = rng.IntN(tiles)
		case 1:
			r["direction"], r["numSpaces"] = []string{Forward, Back}[rng.IntN(2)], 1+rng.IntN(8)
		default:
			r["direction"], r["diceRolls"] = []string{Forward, Back}[rng.IntN(2)], dice(false)
		}
	case RollUntilRule:
		switch rng.IntN(4) {
		case 0:
			r["until"] = UntilRepeat
		case 1:
			r["until"] = UntilMatch
		default:
			r["criteria"] = criteria(6)
		}
		if rng.IntN(3) == 0 {
			r["maxRolls"] = 1 + rng.IntN(4)
			if rng.IntN(2) == 0 && depth < 3 {
				r["consequence"] = gen.rule(depth + 1)
			}
		}
	case AddMandatoryRule:
		r["tileIndex"] = rng.IntN(tiles)
	case DiceRollRule:
		r["diceRolls"] = dice(true)
	case DrinkDuringLostTurnsRule:
		r["diceRolls"] = map[string]any{"numRequired": 2}
	case ProxyRule:
		r["proxyRuleId"] = "test-leapfrog"
	case ApplyMoveConditionRule:
		r["playerTarget"] = target(true)
		c := map[string]any{"criteria": criteria(6), "description": "roll it"}
		if rng.IntN(2) == 0 {
			c["numSuccessesRequired"] = 1 + rng.IntN(3)
		}
		if rng.IntN(3) == 0 {
			c["diceRolls"] = map[string]any{"numRequired": 1 + rng.IntN(3), "type": RollsAllMatch}
		}
		if r["playerTarget"] == TargetSelf && rng.IntN(2) == 0 {
			c["immediate"] = true
		}
		if rng.IntN(2) == 0 && depth < 3 {
			c["consequence"] = gen.rule(depth + 1)
		}
		r["condition"] = c
	case ChoiceRule:
		var cs []map[string]any
		for i := 0; i < 1+rng.IntN(3); i++ {
			cs = append(cs, map[string]any{"rule": gen.rule(depth + 1)})
		}
		r["choices"] = cs
		if rng.IntN(3) == 0 {
			r["diceRolls"] = dice(false)
		}
	case SpeedModifierRule, RollAugmentationRule:
		r["playerTarget"], r["numTurns"], r["modifier"] = target(true), 1+rng.IntN(2), modifier()
	case SkipNextMandatoryRule:
		r["numSpaces"] = 1 + rng.IntN(2)
	case StarterSelectionRule:
		r["starters"] = []string{"A", "B"}
	case UpdateStarterRule:
		if rng.IntN(2) == 0 {
			r["starters"] = []string{"Z"}
		} else {
			r["playerTarget"] = TargetCustom
		}
	case SwapPlacesRule:
		if len(gen.zones) > 0 && rng.IntN(2) == 0 {
			r["zone"] = gen.zones[rng.IntN(len(gen.zones))]
		}
	case RefightRule:
		if rng.IntN(3) == 0 {
			i := rng.IntN(tiles - 1)
			gen.refights[i] = true
			r["tileIndex"] = i
		} else {
			r["tileKind"] = "boss"
			if rng.IntN(2) == 0 {
				r["pick"] = PickNearest
			}
		}
	case ItemRule:
		r["item"] = gen.items[rng.IntN(len(gen.items))]
		r["use"] = rng.IntN(2) == 0
		if rng.IntN(3) > 0 && depth < 3 {
			r["ifHas"] = gen.rule(depth + 1)
		}
		if rng.IntN(3) > 0 && depth < 3 {
			r["ifNot"] = gen.rule(depth + 1)
		}
		if r["ifHas"] == nil && r["ifNot"] == nil {
			r["use"] = true
		}
	}
	return r
}

// TestTwelvePlayerStateSize measures the largest game state of 12-player
// games on the real boards.
func TestTwelvePlayerStateSize(t *testing.T) {
	r := Rules{Boards: BuiltinSource{}}
	for _, b := range BuiltinBoards() {
		largest, sum, n := 0, 0, 0
		for i := 0; i < 5; i++ {
			rng := seedRand(fmt.Sprint("size-", b.ID, i))
			g := lobby(t, r, b, 12, domain.Script())
			for step := int64(1); g.Phase != PhaseOver; step++ {
				var err error
				g, _, err = r.Apply(g, randomInput(rng, g), domain.Env{Now: t0, Dice: domain.NewSeededDice(b.ID, step)})
				require.NoError(t, err)
				raw, _ := json.Marshal(g)
				largest = max(largest, len(raw))
				sum += len(raw)
				n++
			}
		}
		t.Logf("%s: 12-player game state: %d bytes of JSON on average, %d at most", b.ID, sum/n, largest)
		require.Less(t, largest, 8<<10, "a 12-player state should stay a few KB")
	}
}

// BenchmarkGame plays whole seeded 4-player games with random inputs: one
// game per op.
func BenchmarkGame(b *testing.B) {
	r := Rules{Boards: BuiltinSource{}}
	for _, board := range BuiltinBoards() {
		b.Run(board.ID, func(b *testing.B) {
			b.ReportAllocs()
			actions, i := 0, 0
			for b.Loop() {
				_, n := randomGame(b, r, board, 4, fmt.Sprint("bench-", i), maxSteps, false)
				actions += n
				i++
			}
			b.ReportMetric(float64(actions)/float64(i), "actions/game")
			b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkApply is one turn roll in a 12-player game on gen1.
func BenchmarkApply(b *testing.B) {
	r := Rules{Boards: BuiltinSource{}}
	board, _ := BuiltinBoard("pokemon-gen1")
	g := lobby(b, r, board, 12, domain.Script())
	rng := seedRand("apply")
	for g.Await.Action != ActionRoll || g.Await.Purpose != PurposeTurnRoll {
		g, _, _ = r.Apply(g, randomInput(rng, g), domain.Env{Dice: domain.NewSeededDice("x", 1)})
	}
	a := randomInput(rng, g)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := r.Apply(g, a, domain.Env{Dice: domain.Script(3)}); err != nil {
			b.Fatal(err)
		}
	}
}
