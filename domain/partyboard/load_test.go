package partyboard

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

func TestRealBoardsLoadCleanly(t *testing.T) {
	zones := map[string]int{"pokemon-gen1": 3, "pokemon-gen2": 4}
	require.Equal(t, []string{"pokemon-gen1", "pokemon-gen2"}, BuiltinBoardIDs())
	for _, id := range BuiltinBoardIDs() {
		t.Run(id, func(t *testing.T) {
			file, err := os.ReadFile("boards/" + id + ".json")
			require.NoError(t, err)
			b, problems, warnings, err := LoadBoard(file, LoadOptions{})
			require.NoError(t, err, "problems: %v", problems)
			require.Empty(t, problems)
			require.Empty(t, warnings)
			require.Len(t, b.Tiles, 72)
			require.Len(t, b.Zones, zones[id])
			require.Equal(t, BoardID(file), b.ID)
			require.Equal(t, StarterSelectionRule, b.Tiles[0].Rule.Type)
			require.Equal(t, GameOverRule, b.Tiles[71].Rule.Type)
			require.Equal(t, []Point{{262, 1764}, {448, 1764}, {448, 1948}, {262, 1948}}, b.Tiles[0].Position, "corner coordinates are kept")
			for i, tile := range b.Tiles {
				require.Len(t, tile.Position, 4, "tile %d", i)
			}

			built, err := BuiltinBoard(id)
			require.NoError(t, err)
			require.Equal(t, id, built.ID)
			require.NotEmpty(t, built.Name)
			again, err := BuiltinBoard(id)
			require.NoError(t, err)
			require.Same(t, built, again, "built-in boards load once")

			// A loaded board marshals cleanly, reads back, and loads again as itself.
			out, err := json.Marshal(built)
			require.NoError(t, err)
			var back Board
			require.NoError(t, json.Unmarshal(out, &back))
			require.Equal(t, *built, back)
			reloaded, problems, warnings, err := LoadBoard(out, LoadOptions{})
			require.NoError(t, err, "%v", problems)
			require.Empty(t, warnings)
			reloaded.ID, reloaded.Name = built.ID, built.Name
			require.Equal(t, built, reloaded)
		})
	}
	require.Len(t, BuiltinBoards(), 2)
	gen1, err := BuiltinBoard("pokemon-gen1")
	require.NoError(t, err)
	haunter := gen1.Tiles[25].Rule
	require.Equal(t, [3]any{Back, 10, TargetCustom}, [3]any{haunter.Direction, haunter.NumSpaces, haunter.PlayerTarget}, "numSpaces -10 reads as ten back")
	require.Equal(t, &Modifier{Op: "*", Value: 0.5}, gen1.Tiles[3].Rule.Modifier)
	require.Equal(t, DrinkDuringLostTurnsRule, gen1.Tiles[18].Rule.Type)
	gen2, err := BuiltinBoard("pokemon-gen2")
	require.NoError(t, err)
	require.Equal(t, RollsCumulative, gen2.Zones[3].Rule.Choices[0].Rule.DiceRolls.Type)
	for _, id := range []string{"", "../boards/pokemon-gen1", "pokemon-gen1.json", "pokemon-gen3", "boards"} {
		_, err = BuiltinBoard(id)
		require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err), id)
	}
	_, err = BuiltinSource{}.Board("nope")
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err))
	_, err = MapSource{}.Board("nope")
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err))
}

// board builds a minimal valid board file around the given tile rules
// (JSON), with a GameOverRule tile at the end and an active zone "Z".
func board(rules ...string) string {
	var tiles []string
	for _, r := range rules {
		tiles = append(tiles, `{"rule":`+r+`,"position":[{"x":1,"y":2}]}`)
	}
	tiles = append(tiles, `{"rule":{"type":"GameOverRule","displayText":"win"},"position":[{"x":0,"y":0}]}`)
	return `{"tiles":[` + strings.Join(tiles, ",") + `],"zones":[{"name":"Z","type":"active","rule":{"type":"DisplayRule","displayText":"z"}}]}`
}

const win = `{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":0,"y":0}]}`

func TestLoadBoardReportsLocatedProblems(t *testing.T) {
	tests := []struct {
		name string
		file string
		want []string // every problem, as "path: message" (a message may be cut short)
	}{
		{"empty", ``, []string{"not valid JSON"}},
		{"not json", `{"tiles":`, []string{"not valid JSON"}},
		{"two values", `{} {}`, []string{"not valid JSON: more than one value"}},
		{"not an object", `[1]`, []string{"must be an object, not an array"}},
		{"no tiles", `{"zones":[]}`, []string{"tiles: is required"}},
		{"empty tiles", `{"tiles":[]}`, []string{"tiles: needs at least 1 entry"}},
		{"tiles not an array", `{"tiles":{}}`, []string{"tiles: must be an array, not an object"}},
		{"tile not an object", `{"tiles":[7,` + win + `]}`, []string{"tiles[0]: must be an object, not a number"}},
		{"the finish is not last", `{"tiles":[` + win + `,{"rule":{"type":"DisplayRule","displayText":"x"},"position":[{"x":0,"y":0}]}]}`,
			[]string{`tiles[1].rule.type: the last tile must have a GameOverRule (the finish), not "DisplayRule"`}},
		{"unknown rule", board(`{"type":"FlyRule","displayText":"x"}`), []string{`tiles[0].rule.type: unknown rule type "FlyRule"`}},
		{"missing type and text", board(`{}`), []string{"tiles[0].rule.displayText: is required", "tiles[0].rule.type: is required"}},
		{"text not a string", board(`{"type":"DisplayRule","displayText":3}`), []string{"tiles[0].rule.displayText: must be a string, not a number"}},
		{"no rule", `{"tiles":[{"position":[{"x":0,"y":0}]},` + win + `]}`, []string{"tiles[0].rule: is required"}},
		{"bad position", `{"tiles":[{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":"a"}]}]}`,
			[]string{"tiles[0].position[0].x: must be a number, not a string", "tiles[0].position[0].y: is required"}},
		{"no position", `{"tiles":[{"rule":{"type":"GameOverRule","displayText":"w"}}]}`, []string{"tiles[0].position: is required"}},
		{"mandatory not a boolean", `{"tiles":[{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":0,"y":0}],"mandatory":"yes"}]}`,
			[]string{"tiles[0].mandatory: must be a boolean, not a string"}},
		{"unknown zone", `{"tiles":[{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":0,"y":0}],"zone":"Nowhere"}]}`, []string{`tiles[0].zone: no zone named "Nowhere"`}},
		{"bad zones", `{"zones":[{"name":"A","type":"sleepy","rule":{"type":"DisplayRule","displayText":"x"}},{"name":"A","type":"passive","rule":{"type":"DisplayRule","displayText":"x"}},{"type":"active"}],"tiles":[` + win + `]}`,
			[]string{`zones[0].type: must be "active", "passive" or "leader", not "sleepy"`, `zones[1].name: zone "A" is defined twice`, "zones[2].name: is required", "zones[2].rule: is required"}},
		{"zone that skips every turn", `{"zones":[{"name":"A","type":"active","rule":{"type":"SkipTurnRule","displayText":"x","numTurns":1}}],"tiles":[` + win + `]}`,
			[]string{"zones[0].rule.type: an active zone's rule cannot be a SkipTurnRule"}},
		{"zone that costs every turn", `{"zones":[{"name":"A","type":"active","rule":{"type":"DrinkDuringLostTurnsRule","displayText":"x","diceRolls":{"numRequired":2}}}],"tiles":[` + win + `]}`,
			[]string{"zones[0].rule.type: an active zone's rule cannot be a DrinkDuringLostTurnsRule"}},
		{"zone rule to a missing tile", `{"zones":[{"name":"A","type":"active","rule":{"type":"MoveRule","displayText":"x","tileIndex":5}}],"tiles":[` + win + `]}`,
			[]string{"zones[0].rule.tileIndex: tile 5 does not exist (the board has 1 tiles)"}},
		{"deep outcome criteria", board(`{"type":"DiceRollRule","displayText":"x","diceRolls":{"numRequired":1,"outcomes":[{"rule":{"type":"DisplayRule","displayText":"y"},"criteria":[7]}]}}`),
			[]string{"tiles[0].rule.diceRolls.outcomes[0].criteria[0]: must be a whole number from 1 to 6"}},
		{"unknown rule deep down", board(`{"type":"ChoiceRule","displayText":"x","choices":[{"rule":{"type":"DiceRollRule","displayText":"y","diceRolls":{"numRequired":1,"outcomes":[{"rule":{"type":"Foo","displayText":"z"},"criteria":[1]}]}}}]}`),
			[]string{`tiles[0].rule.choices[0].rule.diceRolls.outcomes[0].rule.type: unknown rule type "Foo"`}},
		{"cumulative criteria go higher", board(`{"type":"DiceRollRule","displayText":"x","diceRolls":{"numRequired":2,"type":"cumulative","outcomes":[{"rule":{"type":"DisplayRule","displayText":"y"},"criteria":[13]}]}}`),
			[]string{"tiles[0].rule.diceRolls.outcomes[0].criteria[0]: must be a whole number from 1 to 12"}},
		{"bad dice", board(`{"type":"DiceRollRule","displayText":"x","diceRolls":{"numRequired":1.5,"type":"sometimes"}}`),
			[]string{"tiles[0].rule.diceRolls.numRequired: must be a whole number, not 1.5", `tiles[0].rule.diceRolls.type: must be default, cumulative or allMatch, not "sometimes"`}},
		{"no dice", board(`{"type":"DiceRollRule","displayText":"x"}`), []string{"tiles[0].rule.diceRolls: is required"}},
		{"too many dice", board(`{"type":"DiceRollRule","displayText":"x","diceRolls":{"numRequired":11}}`), []string{"tiles[0].rule.diceRolls.numRequired: must be between 1 and 10, not 11"}},
		{"outcomes where nothing reads them", board(`{"type":"ChoiceRule","displayText":"x","diceRolls":{"numRequired":1,"outcomes":[{"rule":{"type":"DisplayRule","displayText":"y"},"criteria":[1]}]},"choices":[{"rule":{"type":"DisplayRule","displayText":"a"}}]}`),
			[]string{"tiles[0].rule.diceRolls.outcomes: only a DiceRollRule's dice have outcomes"}},
		{"move without distance", board(`{"type":"MoveRule","displayText":"x","playerTarget":"self","direction":"forward"}`), []string{"tiles[0].rule: a MoveRule needs exactly one of tileIndex, numSpaces (not 0) or diceRolls"}},
		{"move with both", board(`{"type":"MoveRule","displayText":"x","direction":"back","numSpaces":2,"diceRolls":{"numRequired":1}}`), []string{"tiles[0].rule: a MoveRule needs exactly one of"}},
		{"move without direction", board(`{"type":"MoveRule","displayText":"x","numSpaces":2}`), []string{`tiles[0].rule.direction: must be "forward" or "back" (or give a tileIndex), not ""`}},
		{"move to missing tile", board(`{"type":"MoveRule","displayText":"x","playerTarget":"self","tileIndex":99}`), []string{"tiles[0].rule.tileIndex: tile 99 does not exist (the board has 2 tiles)"}},
		{"negative tile", board(`{"type":"MoveRule","displayText":"x","tileIndex":-1}`), []string{"tiles[0].rule.tileIndex: must be between 0 and 499, not -1"}},
		{"bad target", board(`{"type":"MoveRule","displayText":"x","playerTarget":"everyone","numSpaces":2,"direction":"back"}`), []string{`tiles[0].rule.playerTarget: must be one of self, custom, allOthers, not "everyone"`}},
		{"bad modifier", board(`{"type":"SpeedModifierRule","displayText":"x","playerTarget":"self","numTurns":1,"modifier":["^",2]}`), []string{`tiles[0].rule.modifier[0]: must be one of "*", "+", "-", "=", not ^`}},
		{"modifier not a pair", board(`{"type":"RollAugmentationRule","displayText":"x","modifier":3}`), []string{`tiles[0].rule.modifier: must be [operator, number]`}},
		{"modifier out of range", board(`{"type":"SpeedModifierRule","displayText":"x","playerTarget":"self","numTurns":1,"modifier":["*",-2]}`), []string{"tiles[0].rule.modifier[1]: must be a number from 0 to 100"}},
		{"speed needs turns", board(`{"type":"SpeedModifierRule","displayText":"x","playerTarget":"self","modifier":["+",2]}`), []string{"tiles[0].rule.numTurns: is required"}},
		{"skip turns needs count", board(`{"type":"SkipTurnRule","displayText":"x"}`), []string{"tiles[0].rule.numTurns: is required"}},
		{"roll until needs criteria", board(`{"type":"RollUntilRule","displayText":"x","criteria":[]}`), []string{"tiles[0].rule.criteria: needs at least 1 entry"}},
		{"roll until without criteria", board(`{"type":"RollUntilRule","displayText":"x"}`), []string{`tiles[0].rule.criteria: is required (or set until to "repeat" or "match")`}},
		{"roll until repeat with criteria", board(`{"type":"RollUntilRule","displayText":"x","until":"repeat","criteria":[1]}`),
			[]string{`tiles[0].rule.criteria: only with until "criteria"`}},
		{"roll until tweaks", board(`{"type":"RollUntilRule","displayText":"x","until":"twice","maxRolls":0,"consequence":{"type":"Nope","displayText":"n"}}`),
			[]string{`tiles[0].rule.until: must be "criteria", "repeat" or "match", not "twice"`, "tiles[0].rule.maxRolls: must be between 1 and 50, not 0",
				"tiles[0].rule.consequence: runs when maxRolls pass unmet: give maxRolls", `tiles[0].rule.consequence.type: unknown rule type "Nope"`}},
		{"mandatory types", `{"tiles":[{"rule":{"type":"DisplayRule","displayText":"x"},"position":[{"x":0,"y":0}],"mandatoryType":"twice"},` +
			`{"rule":{"type":"DisplayRule","displayText":"x"},"position":[{"x":0,"y":0}],"mandatory":true,"mandatoryType":"once"},` + win + `]}`,
			[]string{`tiles[0].mandatoryType: must be "always" or "once", not "twice"`, `tiles[1].mandatoryType: a tile with "mandatory": true is mandatory every time`}},
		{"tile kind", `{"tiles":[{"rule":{"type":"GameOverRule","displayText":"x"},"position":[{"x":0,"y":0}],"kind":7}]}`, []string{"tiles[0].kind: must be a string, not a number"}},
		{"swap", `{"zones":[{"name":"L","type":"leader","rule":{"type":"SwapPlacesRule","displayText":"s","zone":"Nowhere"}}],"tiles":[` +
			`{"rule":{"type":"SwapPlacesRule","displayText":"s","playerTarget":"self","zone":"L"},"position":[{"x":0,"y":0}]},` + win + `]}`,
			[]string{`tiles[0].rule.playerTarget: must be one of custom, not "self"`, `tiles[0].rule.zone: zone "L" is a leader zone: no player stands in it`,
				`zones[0].rule.zone: no zone named "Nowhere" with tiles`}},
		{"leader zones", `{"zones":[{"name":"A","type":"leader","rule":{"type":"SkipTurnRule","displayText":"x","numTurns":1}},{"name":"B","type":"leader","rule":{"type":"DisplayRule","displayText":"x"}}],` +
			`"tiles":[{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":0,"y":0}],"zone":"A"}]}`,
			[]string{"zones[0].rule.type: a leader zone's rule cannot be a SkipTurnRule", `zones[1].type: a board has at most one "leader" zone`,
				`tiles[0].zone: zone "A" is a leader zone`}},
		{"refight", board(`{"type":"RefightRule","displayText":"r"}`, `{"type":"RefightRule","displayText":"r","tileIndex":0,"tileKind":"boss"}`,
			`{"type":"RefightRule","displayText":"r","tileKind":"boss","pick":"random"}`, `{"type":"RefightRule","displayText":"r","tileIndex":0,"pick":"nearest"}`,
			`{"type":"RefightRule","displayText":"r","tileIndex":5}`),
			[]string{"tiles[0].rule: a RefightRule needs exactly one of tileIndex or tileKind", "tiles[1].rule: a RefightRule needs exactly one of tileIndex or tileKind",
				`tiles[2].rule.pick: must be "choose" or "nearest", not "random"`, "tiles[3].rule.pick: only with tileKind",
				"tiles[1].rule: it may send the player to tiles[0], whose rule is a RefightRule too", `tiles[1].rule.tileKind: no tile has kind "boss"`,
				`tiles[2].rule.tileKind: no tile has kind "boss"`, "tiles[3].rule: it may send the player to tiles[0], whose rule is a RefightRule too",
				"tiles[4].rule: a refight comes back: it cannot go to tiles[5], the last tile"}},
		{"items", `{"items":{"_desc":"comment","BOMB":{"name":"Bomb"},"SHIELD":[1],"*":{}},"tiles":[` +
			`{"rule":{"type":"ItemRule","displayText":"i","item":"BOW","ifHas":{"type":"Nope","displayText":"n"}},"position":[{"x":0,"y":0}]},` +
			`{"rule":{"type":"ItemRule","displayText":"i"},"position":[{"x":0,"y":0}]},` +
			`{"rule":{"type":"DisplayRule","displayText":"i","acquireItem":"BOW","loseItem":"*"},"position":[{"x":0,"y":0}]},` + win + `]}`,
			[]string{`items.*: an item id is 1 to 64 bytes, and not "*"`, "items.SHIELD: must be an object, not an array",
				`tiles[0].rule.item: no item "BOW" in the board's items (BOMB)`, `tiles[0].rule.ifHas.type: unknown rule type "Nope"`,
				"tiles[1].rule.item: is required", "tiles[1].rule: an ItemRule needs ifHas, ifNot or use",
				`tiles[2].rule.acquireItem: no item "BOW" in the board's items (BOMB)`}},
		{"apply", board(`{"type":"DiceRollRule","displayText":"x","diceRolls":{"numRequired":1,"apply":"some"}}`, `{"type":"MoveRule","displayText":"x","direction":"back","diceRolls":{"numRequired":1,"apply":"first"}}`),
			[]string{`tiles[0].rule.diceRolls.apply: must be "all" or "first", not "some"`, "tiles[1].rule.diceRolls.apply: only a DiceRollRule's dice have outcomes to apply"}},
		{"lost turns need two dice", board(`{"type":"DrinkDuringLostTu","displayText":"x","diceRolls":{"numRequired":1}}`), []string{"tiles[0].rule.diceRolls.numRequired: must be 2"}},
		{"unknown proxy", board(`{"type":"ProxyRule","displayText":"x","proxyRuleId":"zelda-boomerang"}`), []string{`tiles[0].rule.proxyRuleId: no board extension provides "zelda-boomerang"`}},
		{"update starter needs something", board(`{"type":"UpdateStarterRule","displayText":"x"}`), []string{`tiles[0].rule: an UpdateStarterRule needs starters or playerTarget "custom"`}},
		{"starters", board(`{"type":"StarterSelectionRule","displayText":"x","starters":["A",""]}`), []string{"tiles[0].rule.starters[1]: must be a non-empty string"}},
		{"empty choices", board(`{"type":"ChoiceRule","displayText":"x","choices":[]}`), []string{"tiles[0].rule.choices: needs at least 1 entry"}},
		{"bad choice", board(`{"type":"ChoiceRule","displayText":"x","choices":[{"rule":{"type":"SkipTurnRule","displayText":"y","numTurns":-1}}]}`), []string{"tiles[0].rule.choices[0].rule.numTurns: must be between 1 and 20, not -1"}},
		{"condition", board(`{"type":"ApplyMoveConditionRule","displayText":"x","playerTarget":"custom","condition":{"criteria":[0],"immediate":true,"consequence":{"type":"Nope","displayText":"n"}}}`),
			[]string{"tiles[0].rule.condition.criteria[0]: must be a whole number from 1 to 6", `tiles[0].rule.condition.consequence.type: unknown rule type "Nope"`,
				`tiles[0].rule.condition.immediate: an immediate condition is rolled by the player it applies to: playerTarget must be "self"`}},
		{"no condition", board(`{"type":"ApplyMoveConditionRule","displayText":"x"}`), []string{"tiles[0].rule.condition: is required"}},
		{"nested too deep", board(strings.Repeat(`{"type":"ChoiceRule","displayText":"x","choices":[{"rule":`, 10) + `{"type":"DisplayRule","displayText":"x"}` + strings.Repeat(`}]}`, 10)),
			[]string{"tiles[0].rule.choices[0].rule.choices[0].rule.choices[0].rule.choices[0].rule.choices[0].rule.choices[0].rule.choices[0].rule.choices[0].rule.choices[0].rule: rules are nested more than 8 deep"}},
		{"several problems at once", board(`{"type":"FlyRule","displayText":"x"}`, `{"type":"SkipTurnRule","displayText":"x","numTurns":"two"}`, `{"type":"AddMandatoryRule","displayText":"x"}`),
			[]string{`tiles[0].rule.type: unknown rule type "FlyRule"`, "tiles[1].rule.numTurns: must be a number, not a string", "tiles[2].rule.tileIndex: is required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, problems, _, err := LoadBoard([]byte(tt.file), LoadOptions{})
			require.Nil(t, b, "a bad board never loads")
			require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
			require.Equal(t, map[string]any{"problems": problems}, domain.ErrorDetails(err), "the error carries every problem")
			var got []string
			for _, p := range problems {
				got = append(got, p.String())
			}
			require.Len(t, got, len(tt.want), "problems: %q", got)
			for i, want := range tt.want {
				require.True(t, strings.HasPrefix(got[i], want), "problem %d is %q, want %q", i, got[i], want)
			}
			require.Contains(t, err.Error(), got[0])
		})
	}
}

func TestLoadBoardAcceptsOtherSpellingsAndLenience(t *testing.T) {
	file := board(`{"type":"RollAugmentRule","displayText":"x","modifier":["*",2]}`,
		`{"type":"ApplyMoveConditio","displayText":"x","condition":{"criteria":[1,2]}}`,
		`{"type":"DrinkDuringLostTu","displayText":"x","diceRolls":{"numRequired":2}}`)
	b, problems, warnings, err := LoadBoard([]byte(file), LoadOptions{})
	require.NoError(t, err, "%v", problems)
	require.Empty(t, warnings)
	require.Equal(t, Rule{Type: RollAugmentationRule, DisplayText: "x", PlayerTarget: TargetSelf, Modifier: &Modifier{Op: "*", Value: 2}}, b.Tiles[0].Rule)
	require.Equal(t, ApplyMoveConditionRule, b.Tiles[1].Rule.Type)
	require.Equal(t, DrinkDuringLostTurnsRule, b.Tiles[2].Rule.Type)

	unknown := board(`{"type":"FlyRule","displayText":"Fly away"}`, `{"type":"ChoiceRule","displayText":"c","choices":[{"rule":{"type":"TodoRule","displayText":"later"}}]}`)
	_, problems, _, err = LoadBoard([]byte(unknown), LoadOptions{})
	require.Error(t, err)
	require.Len(t, problems, 1, "TodoRule is known: only FlyRule is refused")
	b, _, warnings, err = LoadBoard([]byte(unknown), LoadOptions{Lenient: true})
	require.NoError(t, err)
	require.Equal(t, Rule{Type: DisplayRule, DisplayText: "Fly away"}, b.Tiles[0].Rule)
	require.Equal(t, Rule{Type: TodoRule, DisplayText: "later"}, b.Tiles[1].Rule.Choices[0].Rule)
	require.Equal(t, []Problem{
		{Path: "tiles[0].rule.type", Message: `unknown rule type "FlyRule" shown as a DisplayRule`},
		{Path: "tiles[1].rule.choices[0].rule.type", Message: "unfinished rule (TodoRule) plays as a DisplayRule of its text"},
	}, warnings)
	_, problems, _, err = LoadBoard([]byte(board(`{"type":"FlyRule"}`, `{"type":"SkipTurnRule","displayText":"x"}`)), LoadOptions{Lenient: true})
	require.Error(t, err, "lenience is for unknown types only")
	require.Len(t, problems, 2)
}

func TestLoadBoardConvertsV1(t *testing.T) {
	file := board(
		`{"type":"TeleportRule","displayText":"warp","tileIndex":1}`,
		`{"type":"ChoiceRule","displayText":"pick","choices":[{"type":"DisplayRule","displayText":"a"},{"type":"TeleportRule","displayText":"b","tileIndex":0}]}`,
		`{"type":"DiceRollRule","displayText":"missingno","diceRolls":{"numRequired":3,"outcomes":[{"rule":{"type":"TeleportRule","displayText":"glitch","tileIndex":0},"criteria":[1,2,3,4]}],"any":{"rule":{"type":"DisplayRule","displayText":"Phew"},"criteria":[5,6]}}}`,
		`{"type":"DiceRollRule","displayText":"bare","diceRolls":{"numRequired":1,"any":{"type":"ExtraTurnRule","displayText":"any"}}}`,
		`{"type":"SpeedModifierRule","displayText":"bike","modifier":["*",2],"numTurns":1}`,
		`{"type":"ProxyRule","displayText":"steal","proxyRuleId":"StealStarterRule"}`,
	)
	b, problems, warnings, err := LoadBoard([]byte(file), LoadOptions{})
	require.NoError(t, err, "%v", problems)
	one, zero := 1, 0
	require.Equal(t, Rule{Type: MoveRule, DisplayText: "warp", PlayerTarget: TargetSelf, TileIndex: &one}, b.Tiles[0].Rule)
	require.Equal(t, []Choice{{Rule: Rule{Type: DisplayRule, DisplayText: "a"}}, {Rule: Rule{Type: MoveRule, DisplayText: "b", PlayerTarget: TargetSelf, TileIndex: &zero}}}, b.Tiles[1].Rule.Choices)
	require.Equal(t, []Outcome{
		{Rule: Rule{Type: DisplayRule, DisplayText: "Phew"}, Criteria: []int{5, 6}, IsAny: true},
		{Rule: Rule{Type: MoveRule, DisplayText: "glitch", PlayerTarget: TargetSelf, TileIndex: &zero}, Criteria: []int{1, 2, 3, 4}},
	}, b.Tiles[2].Rule.DiceRolls.Outcomes)
	require.Equal(t, []Outcome{{Rule: Rule{Type: ExtraTurnRule, DisplayText: "any"}, Criteria: []int{1, 2, 3, 4, 5, 6}, IsAny: true}}, b.Tiles[3].Rule.DiceRolls.Outcomes)
	require.Equal(t, TargetSelf, b.Tiles[4].Rule.PlayerTarget)
	require.Equal(t, Rule{Type: UpdateStarterRule, DisplayText: "steal", PlayerTarget: TargetCustom}, b.Tiles[5].Rule)
	var paths []string
	for _, w := range warnings {
		paths = append(paths, w.Path)
	}
	require.Equal(t, []string{
		"tiles[0].rule.type",
		"tiles[1].rule.choices[0]", "tiles[1].rule.choices[1]", "tiles[1].rule.choices[1].rule.type",
		"tiles[2].rule.diceRolls.any", "tiles[2].rule.diceRolls.outcomes[0].rule.type",
		"tiles[3].rule.diceRolls.any",
		"tiles[4].rule.playerTarget",
		"tiles[5].rule.proxyRuleId",
	}, paths)
}

func TestBoardIDIsContentHash(t *testing.T) {
	a, b := []byte(board()), []byte(board(`{"type":"DisplayRule","displayText":"x"}`))
	require.Equal(t, BoardID(a), BoardID(append([]byte(nil), a...)))
	require.NotEqual(t, BoardID(a), BoardID(b))
	require.Regexp(t, `^b-[0-9a-f]{16}$`, BoardID(a))
	loaded, _, _, err := LoadBoard(a, LoadOptions{})
	require.NoError(t, err)
	require.Equal(t, BoardID(a), loaded.ID)
}

func TestRuleAt(t *testing.T) {
	gen2, err := BuiltinBoard("pokemon-gen2")
	require.NoError(t, err)
	tests := []struct {
		path string
		typ  string // "" when there is no such rule
	}{
		{"tiles[0].rule", StarterSelectionRule},
		{"tiles[71].rule", GameOverRule},
		{"tiles[20].rule.diceRolls.outcomes[1].rule", RollUntilRule},
		{"tiles[3].rule.choices[0].rule", UpdateStarterRule},
		{"zones[0].rule.condition.consequence", MoveRule},
		{"zones[3].rule.choices[0].rule.diceRolls.outcomes[1].rule", SkipTurnRule},
		{"tiles[72].rule", ""},
		{"tiles[-1].rule", ""},
		{"tiles[1]", ""},
		{"tiles[1].rule.", ""},
		{"tiles[1].rule.choices[0].rule", ""},
		{"zones[0].rule.condition", ""},
		{"zones[1].rule.condition.consequence", ""},
		{"tiles[3].rule.choices[9].rule", ""},
		{"tiles[99999999].rule", ""},
		{"", ""},
		{"players[0].rule", ""},
	}
	for _, tt := range tests {
		r, ok := gen2.RuleAt(tt.path)
		if tt.typ == "" {
			require.False(t, ok, tt.path)
			continue
		}
		require.True(t, ok, tt.path)
		require.Equal(t, tt.typ, r.Type, tt.path)
	}
}

// FuzzLoadBoard: no input makes loading panic; a refused file says where,
// and an accepted board is well formed and plays.
func FuzzLoadBoard(f *testing.F) {
	for _, id := range BuiltinBoardIDs() {
		file, err := os.ReadFile("boards/" + id + ".json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(file)
		f.Add(file[:len(file)/2])
		f.Add([]byte(strings.Replace(string(file), `"DisplayRule"`, `"FlyRule"`, 3)))
		f.Add([]byte(strings.ReplaceAll(string(file), `"numRequired": 1`, `"numRequired": 0`)))
	}
	f.Add([]byte(board(`{"type":"ChoiceRule","displayText":"pick","choices":[{"type":"TeleportRule","tileIndex":0}]}`)))
	f.Add([]byte(board(`{"type":"ProxyRule","displayText":"p","proxyRuleId":"test-leapfrog"}`, `{"type":"AnchorRule","displayText":"a","numTurns":1}`)))
	f.Add([]byte(`{"tiles":[{"rule":{"type":"MoveRule","tileIndex":-1}}]}`))
	f.Add([]byte(`{"tiles":[{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":1e308,"y":-0}]}],"zones":null}`))
	f.Fuzz(func(t *testing.T, file []byte) {
		lenient := len(file)%2 == 0
		b, problems, _, err := LoadBoard(file, LoadOptions{Lenient: lenient})
		if err != nil {
			if len(problems) == 0 || domain.ErrorCode(err) != domain.EINVALID {
				t.Fatalf("refused without a located problem: %v", err)
			}
			for _, p := range problems {
				if p.Message == "" {
					t.Fatalf("a problem without a message at %q", p.Path)
				}
			}
			return
		}
		if b == nil || len(b.Tiles) == 0 {
			t.Fatal("accepted a board without tiles")
		}
		if finish := slices.IndexFunc(b.Tiles, func(t Tile) bool { return t.Rule.Type == GameOverRule }); finish >= 0 && finish != len(b.Tiles)-1 {
			t.Fatal("accepted a board whose finish is not its last tile")
		}
		if _, err := json.Marshal(b); err != nil {
			t.Fatal(err)
		}
		playRandomly(t, b, 3, string(file), 200)
	})
}
