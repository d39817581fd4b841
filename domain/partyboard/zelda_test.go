package partyboard

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// ruleCase is one case of TestRuleTypes.
type ruleCase struct {
	rule string // the rule type the case is about
	name string
	run  func(t *testing.T)
}

// boardFile builds a board like testBoard and lets the test change the
// file first (tile fields, items, zones).
func boardFile(t testing.TB, edit func(root map[string]any, tiles []map[string]any), zones string, rules ...string) *Board {
	t.Helper()
	var root map[string]any
	require.NoError(t, json.Unmarshal(testBoardFile(zones, rules...), &root))
	var tiles []map[string]any
	for _, tile := range root["tiles"].([]any) {
		tiles = append(tiles, tile.(map[string]any))
	}
	edit(root, tiles)
	file, _ := json.Marshal(root)
	return loadTestBoard(t, file)
}

// zeldaRuleCases are the rule types of ruling 10 (the Zelda board's needs),
// each played with scripted dice.
func zeldaRuleCases() []ruleCase {
	return []ruleCase{
		{TodoRule, "an unfinished tile plays as a DisplayRule", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(TodoRule, `"someField":1`)), 2)
			p.roll(0, 1)
			p.awaits(ActionConfirm, 0)
			require.Equal(t, TodoRule, p.g.Await.RuleType)
			require.Equal(t, "TodoRule text", p.g.Await.Text)
			p.confirm(0)
			p.awaits(ActionRoll, 1)
		}},
		{SwapPlacesRule, "the lander swaps places with the player they pick; no tile rule runs", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(SwapPlacesRule, "")), 3)
			p.place(1, 9)
			p.place(2, 5)
			p.roll(0, 1)
			p.awaits(ActionTarget, 0)
			require.Equal(t, []string{"p1", "p2"}, p.g.Await.Targets)
			p.target(0, 1)
			require.Equal(t, []int{9, 1, 5}, []int{p.at(0), p.at(1), p.at(2)})
			require.Equal(t, MovedData{From: 9, To: 1, Cause: CauseSwap, Rule: "tiles[1].rule"}, p.event(EventMoved).Data)
			p.awaits(ActionRoll, 1)
		}},
		{SwapPlacesRule, "zone: only players in that zone may be picked; nobody there, nothing happens", func(t *testing.T) {
			zones := `[{"name":"Water Temple","type":"passive","rule":{"type":"DisplayRule","displayText":"wet"}}]`
			p := newPlay(t, testBoard(t, zones, rule(SwapPlacesRule, `"zone":"Water Temple"`), plain, plain, "Water Temple@"+plain, "Water Temple@"+plain), 3)
			p.roll(0, 1)
			require.False(t, p.happened(EventTargeted))
			p.awaits(ActionRoll, 1)
			p.place(2, 5)
			p.roll(1, 1)
			p.awaits(ActionTarget, 1)
			require.Equal(t, []string{"p2"}, p.g.Await.Targets, "p0 is not in the Water Temple")
			p.target(1, 2)
			require.Equal(t, []int{5, 1}, []int{p.at(1), p.at(2)})
		}},
		{RefightRule, "tileIndex: fight that tile's rule again, then come back", func(t *testing.T) {
			boss := rule(DiceRollRule, `"diceRolls":{"numRequired":1,"outcomes":[{"rule":`+rule(DisplayRule, "")+`,"criteria":[1,2,3]}]}`)
			p := newPlay(t, testBoard(t, "", plain, boss, plain, plain, rule(RefightRule, `"tileIndex":2`)), 2)
			p.roll(0, 5)
			require.Equal(t, 2, p.at(0), "sent to the boss")
			require.Equal(t, MovedData{From: 5, To: 2, Cause: CauseRefight, Rule: "tiles[5].rule"}, p.event(EventMoved).Data)
			p.awaits(ActionRoll, 0)
			require.Equal(t, "tiles[2].rule", p.g.Await.Rule)
			p.roll(0, 2)
			p.awaits(ActionConfirm, 0)
			require.Equal(t, 2, p.at(0), "still fighting")
			p.confirm(0)
			require.Equal(t, 5, p.at(0), "back where the refight was")
			require.Equal(t, MovedData{From: 2, To: 5, Cause: CauseReturn}, p.event(EventMoved).Data)
			p.awaits(ActionRoll, 1)
		}},
		{RefightRule, "tileKind: the player picks among the earlier tiles of the kind; a once tile counts as cleared", func(t *testing.T) {
			b := boardFile(t, func(_ map[string]any, tiles []map[string]any) {
				for _, i := range []int{2, 4, 12} {
					tiles[i]["kind"] = "boss"
				}
				tiles[4]["mandatoryType"] = MandatoryOnce
			}, "", plain, rule(ExtraTurnRule, ""), plain, rule(SkipTurnRule, `"numTurns":1`), plain, rule(RefightRule, `"tileKind":"boss"`))
			p := newPlay(t, b, 2)
			p.place(0, 4)
			p.roll(0, 2)
			p.awaits(ActionChoose, 0)
			require.Equal(t, []int{2, 4}, p.g.Await.Tiles, "earlier boss tiles only, in board order")
			require.Equal(t, []string{"ExtraTurnRule text", "SkipTurnRule text"}, p.g.Await.Choices)
			p.choose(0, 1)
			require.Equal(t, 6, p.at(0), "fought and came back")
			require.Equal(t, 1, p.player(0).LostTurns)
			require.Equal(t, []int{4}, p.player(0).Cleared)
			require.Equal(t, Entry{Turn: 1, Player: "p0", Type: EventChose, Rule: "tiles[4].rule", Text: "SkipTurnRule text"}, p.g.Log[lastEntry(p.g.Log, EventChose)])
		}},
		{RefightRule, "pick nearest, or the only one, needs no choice; none earlier: nothing happens", func(t *testing.T) {
			b := boardFile(t, func(_ map[string]any, tiles []map[string]any) {
				tiles[2]["kind"] = "boss"
				tiles[3]["kind"] = "boss"
			}, "", rule(RefightRule, `"tileKind":"boss"`), rule(ExtraTurnRule, ""), plain, plain, rule(RefightRule, `"tileKind":"boss","pick":"nearest"`))
			p := newPlay(t, b, 2)
			p.roll(0, 1)
			require.False(t, p.happened(EventMoved) && p.event(EventMoved).Data.(MovedData).Cause == CauseRefight, "no boss before tile 1")
			p.awaits(ActionRoll, 1)
			p.roll(1, 5)
			p.awaits(ActionConfirm, 1)
			require.Equal(t, 3, p.at(1), "the nearest boss: tile 3")
			p.confirm(1)
			require.Equal(t, 5, p.at(1))
		}},
		{ItemRule, "items: gained with acquireItem, checked, used, lost", func(t *testing.T) {
			b := boardFile(t, func(root map[string]any, tiles []map[string]any) {
				root["items"] = map[string]any{"BOMB": map[string]any{"name": "Bomb"}, "BOW": map[string]any{}}
			}, "",
				rule(ExtraTurnRule, `"acquireItem":"BOMB"`),
				rule(ItemRule, `"item":"BOMB","use":true,"ifHas":`+rule(ExtraTurnRule, "")+`,"ifNot":`+rule(SkipTurnRule, `"numTurns":1`)),
				rule(ItemRule, `"item":"BOMB","ifHas":`+rule(ExtraTurnRule, "")+`,"ifNot":`+rule(SkipTurnRule, `"numTurns":1`)),
				rule(ExtraTurnRule, `"acquireItem":"BOW"`),
				rule(ExtraTurnRule, `"loseItem":"*"`))
			p := newPlay(t, b, 2)
			p.roll(0, 1)
			require.Equal(t, []string{"BOMB"}, p.player(0).Items)
			require.Equal(t, EffectData{Rule: "tiles[1].rule", Target: "p0", Effect: EffectItemGained, Item: "BOMB"}, p.effect(EffectItemGained))
			p.roll(0, 1) // the bomb is used: extra turn
			require.Nil(t, p.player(0).Items)
			require.Equal(t, ItemCheckedData{Rule: "tiles[2].rule", Item: "BOMB", Has: true, Used: true}, p.event(EventItemChecked).Data)
			p.awaits(ActionRoll, 0)
			p.roll(0, 1) // no bomb now: lose a turn
			require.Equal(t, 1, p.player(0).LostTurns)
			require.Equal(t, "tiles[3].rule.ifNot", p.event(EventRule).Data.(RuleData).Rule)
			p.roll(1, 1)
			p.roll(1, 3)
			require.Equal(t, []string{"BOMB", "BOW"}, p.player(1).Items, "in the order gained")
			p.roll(1, 1)
			require.Nil(t, p.player(1).Items, "loseItem * drops everything")
		}},
		{ItemRule, "holding an item: ifHas runs and, without use, the item is kept", func(t *testing.T) {
			b := testBoard(t, "", rule(DisplayRule, `"acquireItem":"SHIELD"`), rule(ItemRule, `"item":"SHIELD","ifHas":`+rule(ExtraTurnRule, "")))
			p := newPlay(t, b, 2)
			p.roll(0, 1)
			p.confirm(0)
			p.roll(1, 2)
			require.False(t, p.happened(EventExtraTurn), "p1 has no shield")
			p.roll(0, 1)
			require.Equal(t, []string{"SHIELD"}, p.player(0).Items)
			p.awaits(ActionRoll, 0)
		}},
	}
}

func lastEntry(log []Entry, typ string) int {
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Type == typ {
			return i
		}
	}
	return -1
}

// TestMandatoryOnce: a "once" tile stops a player until they have stopped
// there (the Zelda bosses), then lets them pass.
func TestMandatoryOnce(t *testing.T) {
	b := boardFile(t, func(_ map[string]any, tiles []map[string]any) {
		tiles[3]["mandatoryType"] = MandatoryOnce
	}, "", plain, plain, plain, plain, plain, rule(MoveRule, `"tileIndex":1`))
	p := newPlay(t, b, 2)
	p.roll(0, 5)
	require.Equal(t, 3, p.at(0), "the boss stops p0")
	require.Equal(t, StopMandatory, p.event(EventMoved).Data.(MovedData).Stop)
	require.Equal(t, []int{3}, p.player(0).Cleared)
	p.confirm(0)
	p.roll(1, 3)
	require.Equal(t, 3, p.at(1), "landing exactly clears it too")
	require.Equal(t, []int{3}, p.player(1).Cleared)
	p.confirm(1)
	p.roll(0, 3) // 3 → 6: sent back to 1
	require.Equal(t, 1, p.at(0))
	p.roll(1, 1)
	p.confirm(1)
	p.roll(0, 4)
	require.Equal(t, 5, p.at(0), "p0 beat this boss: it no longer stops them")
	require.Empty(t, p.event(EventMoved).Data.(MovedData).Stop)

	t.Run("skips pass it without clearing it", func(t *testing.T) {
		b := boardFile(t, func(_ map[string]any, tiles []map[string]any) {
			tiles[3]["mandatoryType"] = MandatoryOnce
		}, "", rule(SkipNextMandatoryRule, `"numSpaces":1`))
		p := newPlay(t, b, 2)
		p.roll(0, 1)
		p.roll(1, 1)
		p.roll(0, 4)
		require.Equal(t, 5, p.at(0))
		require.Equal(t, []int{3}, p.event(EventMoved).Data.(MovedData).Passed)
		require.Nil(t, p.player(0).Cleared)
	})
	t.Run("the mandatoryType inside a rule is moved to its tile, with a warning", func(t *testing.T) {
		file := board(`{"type":"DisplayRule","displayText":"GANONDORF","mandatoryType":"once"}`)
		b, _, warnings, err := LoadBoard([]byte(file), LoadOptions{})
		require.NoError(t, err)
		require.Equal(t, MandatoryOnce, b.Tiles[0].MandatoryType)
		require.Equal(t, []Problem{{Path: "tiles[0].rule.mandatoryType", Message: "mandatoryType belongs on the tile, not its rule; applied to tiles[0]"}}, warnings)
	})
}

// TestRollUntilTweaks: roll until a number, until a repeat or a match of an
// earlier roll, with a cap and a consequence; every roll is counted.
func TestRollUntilTweaks(t *testing.T) {
	tests := []struct {
		name   string
		fields string
		dice   []int
		want   RolledUntilData
		after  func(t *testing.T, p *play)
	}{
		{"until a number", `"criteria":[6]`, []int{2, 6}, RolledUntilData{Rolls: []int{2, 6}, Count: 2, Met: true}, nil},
		{"until the same number twice in a row (Ganondorf)", `"until":"repeat"`, []int{3, 5, 3, 4, 4},
			RolledUntilData{Rolls: []int{3, 5, 3, 4, 4}, Count: 5, Met: true}, nil},
		{"until a number rolled before", `"until":"match"`, []int{3, 5, 1, 5},
			RolledUntilData{Rolls: []int{3, 5, 1, 5}, Count: 4, Met: true}, nil},
		{"a first roll never repeats", `"until":"repeat"`, []int{1, 1}, RolledUntilData{Rolls: []int{1, 1}, Count: 2, Met: true}, nil},
		{"maxRolls ran out: the consequence runs", `"criteria":[6],"maxRolls":3,"consequence":` + rule(SkipTurnRule, `"numTurns":2`),
			[]int{1, 2, 3}, RolledUntilData{Rolls: []int{1, 2, 3}, Count: 3, Met: false}, func(t *testing.T, p *play) {
				require.Equal(t, 2, p.player(0).LostTurns)
			}},
		{"met within maxRolls: no consequence", `"criteria":[6],"maxRolls":3,"consequence":` + rule(SkipTurnRule, `"numTurns":2`),
			[]int{1, 6}, RolledUntilData{Rolls: []int{1, 6}, Count: 2, Met: true}, func(t *testing.T, p *play) {
				require.Zero(t, p.player(0).LostTurns)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(RollUntilRule, tt.fields)), 2)
			p.roll(0, 1)
			for i, v := range tt.dice {
				p.awaits(ActionRoll, 0)
				require.Equal(t, tt.dice[:i], append([]int{}, p.g.Await.Rolls...), "the rolls so far are in the await")
				p.roll(0, v)
			}
			tt.want.Rule = "tiles[1].rule"
			require.Equal(t, tt.want, p.event(EventRolledUntil).Data)
			require.Equal(t, tt.want.Rolls, p.g.Log[lastEntry(p.g.Log, EventRolledUntil)].Rolls)
			p.awaits(ActionRoll, 1)
			if tt.after != nil {
				tt.after(t, p)
			}
		})
	}
}

// TestLeaderZone: the leader zone's rule runs at the start of the turn of
// the player strictly in the lead.
func TestLeaderZone(t *testing.T) {
	zones := `[{"name":"Lead","type":"leader","rule":` + rule(DisplayRule, "") + `}]`
	p := newPlay(t, testBoard(t, zones), 3)
	p.roll(0, 2)
	p.confirm(0)
	p.awaits(ActionRoll, 1)
	require.False(t, p.event(EventTurnStarted).Data.(TurnStartedData).Leader, "p1 does not lead")
	p.roll(1, 2)
	p.confirm(1)
	p.awaits(ActionRoll, 2)
	p.roll(2, 1)
	p.confirm(2)
	p.awaits(ActionRoll, 0)
	require.False(t, p.event(EventTurnStarted).Data.(TurnStartedData).Leader, "tied with p1: nobody leads")
	p.roll(0, 1)
	p.confirm(0)
	p.roll(1, 4)
	p.confirm(1)
	p.roll(2, 1)
	p.confirm(2)
	// p0 on 3, p1 on 6, p2 on 2: p0's turn starts, not the leader
	p.awaits(ActionRoll, 0)
	p.roll(0, 1)
	p.confirm(0)
	p.awaits(ActionConfirm, 1)
	require.True(t, p.event(EventTurnStarted).Data.(TurnStartedData).Leader)
	require.Equal(t, "zones[0].rule", p.g.Await.Rule, "p1 leads: the zone's rule first")
	p.confirm(1)
	p.awaits(ActionRoll, 1)
}

// TestBoardWithoutFinish: a board without a GameOverRule loads with a
// warning; the first to reach its last tile, by a roll or a move, wins.
func TestBoardWithoutFinish(t *testing.T) {
	file := `{"tiles":[` + strings.Repeat(`{"rule":{"type":"DisplayRule","displayText":"x"},"position":[{"x":0,"y":0}]},`, 3) +
		`{"rule":{"type":"MoveRule","displayText":"to the end","tileIndex":5},"position":[{"x":0,"y":0}]},` +
		`{"rule":{"type":"DisplayRule","displayText":"x"},"position":[{"x":0,"y":0}]},` +
		`{"rule":{"type":"TodoRule","displayText":"GANON"},"position":[{"x":0,"y":0}]}]}`
	b, _, warnings, err := LoadBoard([]byte(file), LoadOptions{})
	require.NoError(t, err)
	require.True(t, b.NoFinish())
	require.Equal(t, []Problem{
		{Path: "tiles[5].rule.type", Message: "unfinished rule (TodoRule) plays as a DisplayRule of its text"},
		{Path: "tiles", Message: "no tile has a GameOverRule: the first player to reach the last tile (tiles[5]) wins"},
	}, warnings)

	t.Run("by a roll", func(t *testing.T) {
		p := newPlay(t, b, 2)
		p.roll(0, 6)
		require.Equal(t, PhaseOver, p.g.Phase)
		require.Equal(t, "p0", p.g.Winner)
		require.Equal(t, RuleData{Rule: "tiles[5].rule", Type: TodoRule, Text: "GANON"}, p.event(EventRule).Data, "the last tile's text is shown")
		require.Equal(t, ReasonFinish, p.event(domain.EventGameOver).Data.(domain.GameOver).Reason)
	})
	t.Run("by a move", func(t *testing.T) {
		p := newPlay(t, b, 2)
		p.roll(0, 3)
		require.Equal(t, PhaseOver, p.g.Phase)
		require.Equal(t, 5, p.at(0))
	})
	t.Run("v1 boards with TodoRule and no finish play to the end", func(t *testing.T) {
		v1 := `{"tiles":[` +
			`{"rule":{"type":"DisplayRule","displayText":"start"},"position":[{"x":0,"y":0}]},` +
			`{"rule":{"type":"TeleportRule","displayText":"warp","tileIndex":3},"position":[{"x":0,"y":0}]},` +
			`{"rule":{"type":"ChoiceRule","displayText":"pick","choices":[{"type":"TodoRule","displayText":"soon"},{"type":"ExtraTurnRule","displayText":"again"}]},"position":[{"x":0,"y":0}]},` +
			`{"rule":{"type":"DiceRollRule","displayText":"roll","diceRolls":{"numRequired":1,"any":{"type":"TodoRule","displayText":"any"}}},"position":[{"x":0,"y":0}]},` +
			`{"rule":{"type":"SpeedModifierRule","displayText":"fast","modifier":["+",1],"numTurns":1},"position":[{"x":0,"y":0}]},` +
			`{"rule":{"type":"TodoRule","displayText":"the end"},"position":[{"x":0,"y":0}]}],"zones":[]}`
		b, problems, warnings, err := LoadBoard([]byte(v1), LoadOptions{})
		require.NoError(t, err, "%v", problems)
		require.NotEmpty(t, warnings)
		for i := range 20 {
			g := playRandomly(t, b, 3, fmt.Sprint("v1-", i), 2000)
			require.Equal(t, PhaseOver, g.Phase)
			require.Equal(t, 5, g.Players[g.Seat(g.Winner)].Tile)
		}
	})
}

// TestDiceRollOutcomes: every outcome the dice meet runs, in file order,
// each after the input the one before needed; apply "first" runs one.
func TestDiceRollOutcomes(t *testing.T) {
	outcomes := `"outcomes":[` +
		`{"rule":` + rule(DisplayRule, "") + `,"criteria":[1,2,3]},` +
		`{"rule":` + rule(SkipTurnRule, `"numTurns":1`) + `,"criteria":[3,4]},` +
		`{"rule":` + rule(ExtraTurnRule, "") + `,"criteria":[5,6]},` +
		`{"isAny":true,"rule":` + rule(AnchorRule, `"numTurns":1`) + `,"criteria":[3]}]`
	tests := []struct {
		name  string
		apply string
		roll  int
		want  []string // the outcomes' rules that ran, in order
		next  []string // what follows the first outcome's confirm
	}{
		{"all that match, in file order", "", 3, []string{"outcomes[0]", "outcomes[1]", "outcomes[3]"},
			[]string{StepRun + "tiles[1].rule.diceRolls.outcomes[1].rule", StepRun + "tiles[1].rule.diceRolls.outcomes[3].rule", StepEnd}},
		{"all is the default", `"apply":"all",`, 4, []string{"outcomes[1]"}, nil},
		{"first: the isAny outcome wins", `"apply":"first",`, 3, []string{"outcomes[3]"}, nil},
		{"first: else the first in file order", `"apply":"first",`, 2, []string{"outcomes[0]"}, []string{StepEnd}},
		{"one", "", 6, []string{"outcomes[2]"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gym := rule(DiceRollRule, `"diceRolls":{`+tt.apply+`"numRequired":1,`+outcomes+`}`)
			p := newPlay(t, testBoard(t, "", gym), 2)
			p.roll(0, 1)
			p.roll(0, tt.roll)
			var ran []string
			record := func() {
				for _, e := range p.events {
					if d, ok := e.Data.(RuleData); ok && strings.Contains(d.Rule, "outcomes") {
						ran = append(ran, d.Rule[strings.Index(d.Rule, "outcomes"):strings.LastIndex(d.Rule, ".rule")])
					}
				}
			}
			record()
			if p.g.Await.Action == ActionConfirm { // outcome 0 waits; the others follow the confirm
				require.Equal(t, tt.next, p.g.Next)
				p.confirm(0)
				record()
			}
			require.Equal(t, tt.want, ran)
		})
	}
	t.Run("the real boards never overlap, so they play as before", func(t *testing.T) {
		for _, b := range BuiltinBoards() {
			b.Walk(func(path string, r *Rule) {
				if r.DiceRolls == nil || len(r.DiceRolls.Outcomes) < 2 {
					return
				}
				for v := 1; v <= 6*r.DiceRolls.NumRequired; v++ {
					rolls := []int{v}
					if r.DiceRolls.Type != RollsCumulative {
						if v > 6 {
							break
						}
						rolls = make([]int, r.DiceRolls.NumRequired)
						for i := range rolls {
							rolls[i] = v
						}
					}
					require.LessOrEqual(t, len(Outcomes(r.DiceRolls, rolls)), 1, "%s %s on %v", b.ID, path, rolls)
				}
			})
		}
	})
}

// TestLogEntriesCarryText: the log says what happened in words, not only
// where on the board.
func TestLogEntriesCarryText(t *testing.T) {
	long := strings.Repeat("é", LogTextMax)
	p := newPlay(t, testBoard(t, "", rule(MoveRule, `"direction":"forward","numSpaces":1`), `{"type":"DisplayRule","displayText":"`+long+`"}`), 2)
	p.roll(0, 1)
	e := p.g.Log[len(p.g.Log)-1]
	require.Equal(t, EventMoved, e.Type)
	require.Equal(t, Entry{Turn: 1, Player: "p0", Type: EventMoved, Rule: "tiles[1].rule", Text: "MoveRule text", Tiles: []int{1, 2}}, e)
	p.roll(1, 2)
	e = p.g.Log[len(p.g.Log)-1]
	require.Equal(t, "tiles[2].rule", e.Rule)
	require.LessOrEqual(t, len(e.Text), LogTextMax)
	require.True(t, strings.HasSuffix(e.Text, "é…"), "cut on a rune boundary: %q", e.Text[len(e.Text)-8:])
}
