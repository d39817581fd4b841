package partyboard

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

func TestRealBoardsLoadCleanly(t *testing.T) {
	for _, id := range BuiltinBoardIDs() {
		t.Run(id, func(t *testing.T) {
			file, err := os.ReadFile("boards/" + id + ".json")
			require.NoError(t, err)
			b, problems, warnings, err := LoadBoard(file, LoadOptions{})
			require.NoError(t, err, "problems: %v", problems)
			require.Empty(t, warnings)
			if got, want := len(b.Tiles), 72; got != want {
				t.Fatalf("tiles = %d, want %d", got, want)
			}
			require.Equal(t, GameOverRule, b.Tiles[len(b.Tiles)-1].Rule.Type)
			built, err := BuiltinBoard(id)
			require.NoError(t, err)
			require.Equal(t, id, built.ID)
			out, err := json.Marshal(built)
			require.NoError(t, err)
			var back Board
			require.NoError(t, json.Unmarshal(out, &back), "a loaded board marshals and reads back")
			require.Equal(t, *built, back)
		})
	}
	gen1, err := BuiltinBoard("pokemon-gen1")
	require.NoError(t, err)
	haunter := gen1.Tiles[25].Rule
	require.Equal(t, [2]any{"back", 10}, [2]any{haunter.Direction, haunter.NumSpaces}, "numSpaces -10 reads as ten back")
	require.Equal(t, &Modifier{Op: "*", Value: 0.5}, gen1.Tiles[3].Rule.Modifier)
	_, err = BuiltinBoard("../boards/pokemon-gen1")
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err))
}

// board builds a minimal valid board around the given tile rules (JSON), with
// a GameOverRule tile at the end.
func board(rules ...string) string {
	var tiles []string
	for _, r := range rules {
		tiles = append(tiles, `{"rule":`+r+`,"position":[{"x":1,"y":2}]}`)
	}
	tiles = append(tiles, `{"rule":{"type":"GameOverRule","displayText":"win"},"position":[{"x":0,"y":0}]}`)
	return `{"tiles":[` + strings.Join(tiles, ",") + `],"zones":[{"name":"Z","type":"active","rule":{"type":"DisplayRule","displayText":"z"}}]}`
}

func TestLoadBoardReportsLocatedProblems(t *testing.T) {
	tests := []struct {
		name string
		file string
		want []string // "path: message fragment"
	}{
		{"not json", `{"tiles":`, []string{"not valid JSON"}},
		{"not an object", `[1]`, []string{"must be an object"}},
		{"no tiles", `{"zones":[]}`, []string{"tiles: is required"}},
		{"no game over", `{"tiles":[{"rule":{"type":"DisplayRule","displayText":"x"},"position":[{"x":0,"y":0}]}]}`, []string{"tiles: no tile has a GameOverRule"}},
		{"unknown rule", board(`{"type":"FlyRule","displayText":"x"}`), []string{`tiles[0].rule.type: unknown rule type "FlyRule"`}},
		{"missing type", board(`{"displayText":"x"}`), []string{"tiles[0].rule.type: is required"}},
		{"bad position", board(`{"type":"DisplayRule","displayText":"x"}`)[:0] + `{"tiles":[{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":"a"}]}]}`,
			[]string{"tiles[0].position[0].x: must be a number", "tiles[0].position[0].y: is required"}},
		{"unknown zone", `{"tiles":[{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":0,"y":0}],"zone":"Nowhere"}]}`, []string{`tiles[0].zone: no zone named "Nowhere"`}},
		{"bad zone type", `{"zones":[{"name":"A","type":"sleepy","rule":{"type":"DisplayRule","displayText":"x"}}],"tiles":[{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":0,"y":0}]}]}`, []string{"zones[0].type: must be"}},
		{"deep outcome criteria", board(`{"type":"DiceRollRule","displayText":"x","diceRolls":{"numRequired":1,"outcomes":[{"rule":{"type":"DisplayRule","displayText":"y"},"criteria":[7]}]}}`),
			[]string{"tiles[0].rule.diceRolls.outcomes[0].criteria[0]: must be a whole number from 1 to 6"}},
		{"cumulative criteria go higher", board(`{"type":"DiceRollRule","displayText":"x","diceRolls":{"numRequired":2,"type":"cumulative","outcomes":[{"rule":{"type":"DisplayRule","displayText":"y"},"criteria":[13]}]}}`),
			[]string{"tiles[0].rule.diceRolls.outcomes[0].criteria[0]: must be a whole number from 1 to 12"}},
		{"bad dice type", board(`{"type":"DiceRollRule","displayText":"x","diceRolls":{"numRequired":1,"type":"sometimes"}}`), []string{"tiles[0].rule.diceRolls.type: must be default"}},
		{"too many dice", board(`{"type":"DiceRollRule","displayText":"x","diceRolls":{"numRequired":11}}`), []string{"tiles[0].rule.diceRolls.numRequired: must be between 1 and 10"}},
		{"move without distance", board(`{"type":"MoveRule","displayText":"x","playerTarget":"self","direction":"forward"}`), []string{"tiles[0].rule: a MoveRule needs exactly one of"}},
		{"move to missing tile", board(`{"type":"MoveRule","displayText":"x","playerTarget":"self","tileIndex":99}`), []string{"tiles[0].rule.tileIndex: tile 99 does not exist"}},
		{"bad target", board(`{"type":"MoveRule","displayText":"x","playerTarget":"everyone","numSpaces":2,"direction":"back"}`), []string{"tiles[0].rule.playerTarget: must be one of"}},
		{"bad modifier", board(`{"type":"SpeedModifierRule","displayText":"x","playerTarget":"self","numTurns":1,"modifier":["^",2]}`), []string{"tiles[0].rule.modifier[0]: must be one of"}},
		{"speed needs target", board(`{"type":"SpeedModifierRule","displayText":"x","numTurns":1,"modifier":["+",2]}`), []string{"tiles[0].rule.playerTarget: is required"}},
		{"skip turns needs count", board(`{"type":"SkipTurnRule","displayText":"x"}`), []string{"tiles[0].rule.numTurns: is required"}},
		{"lost turns need two dice", board(`{"type":"DrinkDuringLostTu","displayText":"x","diceRolls":{"numRequired":1}}`), []string{"tiles[0].rule.diceRolls.numRequired: must be 2"}},
		{"unknown proxy", board(`{"type":"ProxyRule","displayText":"x","proxyRuleId":"zelda-boomerang"}`), []string{`tiles[0].rule.proxyRuleId: no board extension provides "zelda-boomerang"`}},
		{"update starter needs something", board(`{"type":"UpdateStarterRule","displayText":"x"}`), []string{"tiles[0].rule: an UpdateStarterRule needs"}},
		{"empty choices", board(`{"type":"ChoiceRule","displayText":"x","choices":[]}`), []string{"tiles[0].rule.choices: needs at least 1 entries"}},
		{"bad choice", board(`{"type":"ChoiceRule","displayText":"x","choices":[{"rule":{"type":"SkipTurnRule","displayText":"y","numTurns":-1}}]}`), []string{"tiles[0].rule.choices[0].rule.numTurns: must be between 1 and 20"}},
		{"several problems at once", board(`{"type":"FlyRule"}`, `{"type":"SkipTurnRule","displayText":"x","numTurns":"two"}`, `{"type":"AddMandatoryRule","displayText":"x"}`),
			[]string{`tiles[0].rule.type: unknown rule type "FlyRule"`, "tiles[1].rule.numTurns: must be a number", "tiles[2].rule.tileIndex: is required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, problems, _, err := LoadBoard([]byte(tt.file), LoadOptions{})
			require.Nil(t, b, "a bad board never loads")
			require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
			var got []string
			for _, p := range problems {
				got = append(got, p.String())
			}
			for _, want := range tt.want {
				found := false
				for _, g := range got {
					if strings.HasPrefix(g, want) || strings.Contains(g, want) {
						found = true
					}
				}
				if !found {
					t.Errorf("problems %q lack %q", got, want)
				}
			}
		})
	}
}

func TestLoadBoardAliasesAndLenience(t *testing.T) {
	file := board(`{"type":"RollAugmentRule","displayText":"x","modifier":["*",2]}`, `{"type":"ApplyMoveConditio","displayText":"x","condition":{"criteria":[1,2]}}`)
	b, problems, _, err := LoadBoard([]byte(file), LoadOptions{})
	require.NoError(t, err, "%v", problems)
	require.Equal(t, RollAugmentationRule, b.Tiles[0].Rule.Type)
	require.Equal(t, &Modifier{Op: "*", Value: 2}, b.Tiles[0].Rule.Modifier)
	require.Equal(t, ApplyMoveConditionRule, b.Tiles[1].Rule.Type)

	unknown := board(`{"type":"FlyRule","displayText":"Fly away"}`)
	b, _, warnings, err := LoadBoard([]byte(unknown), LoadOptions{Lenient: true})
	require.NoError(t, err)
	require.Equal(t, Rule{Type: DisplayRule, DisplayText: "Fly away"}, b.Tiles[0].Rule)
	require.Len(t, warnings, 1)
	require.Equal(t, "tiles[0].rule.type", warnings[0].Path)
}

func TestLoadBoardConvertsV1(t *testing.T) {
	file := board(
		`{"type":"TeleportRule","displayText":"warp","tileIndex":1}`,
		`{"type":"ChoiceRule","displayText":"pick","choices":[{"type":"DisplayRule","displayText":"a"},{"type":"ExtraTurnRule","displayText":"b"}]}`,
		`{"type":"DiceRollRule","displayText":"roll","diceRolls":{"numRequired":1,"any":{"type":"DisplayRule","displayText":"any"},"outcomes":[{"rule":{"type":"SkipTurnRule","displayText":"s","numTurns":1},"criteria":[1]}]}}`,
	)
	b, problems, warnings, err := LoadBoard([]byte(file), LoadOptions{})
	require.NoError(t, err, "%v", problems)
	require.Len(t, warnings, 4, "%v", warnings)
	one := 1
	require.Equal(t, Rule{Type: MoveRule, DisplayText: "warp", PlayerTarget: TargetSelf, TileIndex: &one}, b.Tiles[0].Rule)
	require.Equal(t, []Choice{{Rule: Rule{Type: DisplayRule, DisplayText: "a"}}, {Rule: Rule{Type: ExtraTurnRule, DisplayText: "b"}}}, b.Tiles[1].Rule.Choices)
	outs := b.Tiles[2].Rule.DiceRolls.Outcomes
	require.Len(t, outs, 2)
	require.Equal(t, []int{1, 2, 3, 4, 5, 6}, outs[0].Criteria, "the v1 any outcome matches every roll")
}

func TestBoardIDIsContentHash(t *testing.T) {
	a, b := []byte(board()), []byte(board(`{"type":"DisplayRule","displayText":"x"}`))
	require.Equal(t, BoardID(a), BoardID(append([]byte(nil), a...)))
	require.NotEqual(t, BoardID(a), BoardID(b))
	require.True(t, strings.HasPrefix(BoardID(a), "b-"))
}

// FuzzLoadBoard: no input makes loading panic; a refused file always says
// where, and an accepted one is a board with tiles.
func FuzzLoadBoard(f *testing.F) {
	for _, id := range BuiltinBoardIDs() {
		file, err := os.ReadFile("boards/" + id + ".json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(file)
		f.Add(file[:len(file)/2])
	}
	f.Add([]byte(board(`{"type":"ChoiceRule","displayText":"pick","choices":[{"type":"TeleportRule","tileIndex":0}]}`)))
	f.Add([]byte(`{"tiles":[{"rule":{"type":"MoveRule","tileIndex":-1}}]}`))
	f.Fuzz(func(t *testing.T, file []byte) {
		b, problems, _, err := LoadBoard(file, LoadOptions{Lenient: len(file)%2 == 0})
		if err != nil {
			if len(problems) == 0 || domain.ErrorCode(err) != domain.EINVALID {
				t.Fatalf("refused without a located problem: %v", err)
			}
			return
		}
		if b == nil || len(b.Tiles) == 0 {
			t.Fatal("accepted a board without tiles")
		}
	})
}
