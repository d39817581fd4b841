package partyboard

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// plain is a tile rule that does nothing but show text.
const plain = `{"type":"DisplayRule","displayText":"."}`

// testBoard builds a board: tile 0 is the start, then the given rules, then
// filler tiles and a GameOverRule at the end. Rules prefixed "!" are mandatory.
func testBoard(t *testing.T, zones string, rules ...string) *Board {
	t.Helper()
	var tiles []string
	tiles = append(tiles, `{"rule":{"type":"DisplayRule","displayText":"start"},"position":[{"x":0,"y":0}]}`)
	for len(rules) < 12 {
		rules = append(rules, plain)
	}
	for _, r := range rules {
		extra := ""
		if strings.HasPrefix(r, "!") {
			r, extra = r[1:], `,"mandatory":true`
		}
		if zone, rest, ok := strings.Cut(r, "@"); ok && !strings.HasPrefix(r, "{") {
			r, extra = rest, extra+`,"zone":"`+zone+`"`
		}
		tiles = append(tiles, `{"rule":`+r+`,"position":[{"x":0,"y":0}]`+extra+`}`)
	}
	tiles = append(tiles, `{"rule":{"type":"GameOverRule","displayText":"win"},"position":[{"x":0,"y":0}]}`)
	if zones == "" {
		zones = "[]"
	}
	b, problems, _, err := LoadBoard([]byte(`{"tiles":[`+strings.Join(tiles, ",")+`],"zones":`+zones+`}`), LoadOptions{})
	require.NoError(t, err, "%v", problems)
	return b
}

// play is a game on a test board driven with scripted dice.
type play struct {
	t      *testing.T
	r      Rules
	g      Game
	events []domain.Event
}

func newPlay(t *testing.T, b *Board, players int) *play {
	t.Helper()
	r := Rules{Boards: MapSource{b.ID: b}}
	return &play{t: t, r: r, g: lobby(t, r, b, players, domain.Script())}
}

// do sends player i's action with a payload and the dice it rolls.
func (p *play) do(i int, typ, payload string, dice ...int) {
	p.t.Helper()
	d := domain.Script(dice...)
	g, out, err := p.r.Apply(p.g, domain.Action{Type: typ, Actor: actor(i), Payload: json.RawMessage(payload)}, domain.Env{Now: t0, Dice: d})
	require.NoError(p.t, err, "%s by p%d", typ, i)
	require.Zero(p.t, d.Remaining(), "%s by p%d rolled fewer dice than scripted", typ, i)
	p.g, p.events = g, out.Events
}

func (p *play) roll(i int, dice ...int) { p.t.Helper(); p.do(i, ActionRoll, "", dice...) }
func (p *play) confirm(i int)           { p.t.Helper(); p.do(i, ActionConfirm, "") }

func (p *play) awaits(action string, players ...string) {
	p.t.Helper()
	require.NotNil(p.t, p.g.Await, "the game awaits nothing")
	if got, want := p.g.Await.Action+" "+strings.Join(p.g.Await.Players, ","), action+" "+strings.Join(players, ","); got != want {
		p.t.Fatalf("awaits %q, want %q", got, want)
	}
}

func (p *play) at(i int) int { return p.g.Players[i].Tile }

func TestRuleTypes(t *testing.T) {
	tests := []struct {
		name    string
		zones   string
		rules   []string
		players int
		run     func(p *play)
	}{
		{"DisplayRule waits for the lander to confirm", "", []string{plain}, 2, func(p *play) {
			p.roll(0, 1)
			p.awaits(ActionConfirm, "p0")
			p.confirm(0)
			p.awaits(ActionRoll, "p1")
		}},
		{"ExtraTurnRule gives the same player another turn", "", []string{`{"type":"ExtraTurnRule","displayText":"again"}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.awaits(ActionRoll, "p0")
		}},
		{"SkipTurnRule skips the lander's next turn", "", []string{`{"type":"SkipTurnRule","displayText":"skip","numTurns":1}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.awaits(ActionRoll, "p1")
			p.roll(1, 2)
			p.confirm(1)
			p.awaits(ActionRoll, "p1")
			require.Equal(p.t, 0, p.g.Players[0].LostTurns)
		}},
		{"MoveRule forward spaces", "", []string{`{"type":"MoveRule","displayText":"go","playerTarget":"self","direction":"forward","numSpaces":3}`}, 2, func(p *play) {
			p.roll(0, 1)
			require.Equal(p.t, 4, p.at(0))
			p.awaits(ActionRoll, "p1")
		}},
		{"MoveRule to a tile index", "", []string{plain, `{"type":"MoveRule","displayText":"warp","tileIndex":7}`}, 2, func(p *play) {
			p.roll(0, 2)
			require.Equal(p.t, 7, p.at(0))
		}},
		{"MoveRule back with dice", "", []string{plain, plain, plain, `{"type":"MoveRule","displayText":"roar","playerTarget":"self","direction":"back","diceRolls":{"numRequired":2}}`}, 2, func(p *play) {
			p.roll(0, 4)
			p.awaits(ActionRoll, "p0")
			require.Equal(p.t, 2, p.g.Await.Dice)
			p.roll(0, 1, 2)
			require.Equal(p.t, 1, p.at(0))
		}},
		{"MoveRule custom target", "", []string{`{"type":"MoveRule","displayText":"push","playerTarget":"custom","direction":"forward","numSpaces":2}`}, 3, func(p *play) {
			p.roll(0, 1)
			p.awaits(ActionTarget, "p0")
			require.Equal(p.t, []string{"p1", "p2"}, p.g.Await.Targets)
			p.do(0, ActionTarget, `{"playerId":"p2"}`)
			require.Equal(p.t, 2, p.at(2))
			require.Equal(p.t, 0, p.at(1))
		}},
		{"MoveRule all others", "", []string{`{"type":"MoveRule","displayText":"all","playerTarget":"allOthers","direction":"forward","numSpaces":1}`}, 3, func(p *play) {
			p.roll(0, 1)
			require.Equal(p.t, []int{1, 1, 1}, []int{p.at(0), p.at(1), p.at(2)})
		}},
		{"RollUntilRule rolls until a match", "", []string{`{"type":"RollUntilRule","displayText":"until 6","criteria":[6]}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.roll(0, 2)
			p.awaits(ActionRoll, "p0")
			p.roll(0, 6)
			p.awaits(ActionRoll, "p1")
		}},
		{"AddMandatoryRule makes a tile a stop for the lander", "", []string{`{"type":"AddMandatoryRule","displayText":"stop at 4","tileIndex":4}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.roll(1, 1)
			p.roll(0, 6)
			require.Equal(p.t, 4, p.at(0))
		}},
		{"mandatory tiles stop every player; SkipNextMandatoryRule passes one", "", []string{`{"type":"SkipNextMandatoryRule","displayText":"skip","numSpaces":1}`, plain, "!" + plain, plain, "!" + plain}, 2, func(p *play) {
			p.roll(0, 1)
			p.roll(1, 6)
			require.Equal(p.t, 3, p.at(1), "p1 stops at the mandatory tile 3")
			p.confirm(1)
			p.roll(0, 6)
			require.Equal(p.t, 5, p.at(0), "p0 skipped tile 3 and stopped at 5")
		}},
		{"DiceRollRule default outcome", "", []string{`{"type":"DiceRollRule","displayText":"roll","diceRolls":{"numRequired":1,"outcomes":[{"rule":{"type":"SkipTurnRule","displayText":"s","numTurns":2},"criteria":[3,4]}]}}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.roll(0, 4)
			require.Equal(p.t, 2, p.g.Players[0].LostTurns)
		}},
		{"DiceRollRule cumulative", "", []string{`{"type":"DiceRollRule","displayText":"7","diceRolls":{"numRequired":2,"type":"cumulative","outcomes":[{"rule":{"type":"ExtraTurnRule","displayText":"e"},"criteria":[7]}]}}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.roll(0, 3, 4)
			p.awaits(ActionRoll, "p0")
			require.Equal(p.t, "turnRoll", p.g.Await.Purpose)
		}},
		{"DiceRollRule allMatch", "", []string{`{"type":"DiceRollRule","displayText":"pair","diceRolls":{"numRequired":2,"type":"allMatch","outcomes":[{"rule":{"type":"SkipTurnRule","displayText":"s","numTurns":1},"criteria":[5]}]}}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.roll(0, 5, 4)
			require.Equal(p.t, 0, p.g.Players[0].LostTurns, "5 and 4 do not all match")
		}},
		{"DiceRollRule isAny", "", []string{`{"type":"DiceRollRule","displayText":"any 1","diceRolls":{"numRequired":3,"outcomes":[{"rule":{"type":"SkipTurnRule","displayText":"s","numTurns":1},"criteria":[1],"isAny":true}]}}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.roll(0, 6, 1, 6)
			require.Equal(p.t, 1, p.g.Players[0].LostTurns)
		}},
		{"DrinkDuringLostTurnsRule loses the first die's turns", "", []string{`{"type":"DrinkDuringLostTu","displayText":"SS Anne","diceRolls":{"numRequired":2}}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.roll(0, 3, 5)
			require.Equal(p.t, 3, p.g.Players[0].LostTurns)
		}},
		{"ChoiceRule runs the chosen rule", "", []string{`{"type":"ChoiceRule","displayText":"pick","choices":[{"rule":{"type":"DisplayRule","displayText":"a"}},{"rule":{"type":"SkipTurnRule","displayText":"b","numTurns":1}}]}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.awaits(ActionChoose, "p0")
			require.Equal(p.t, []string{"a", "b"}, p.g.Await.Choices)
			p.do(0, ActionChoose, `{"choice":1}`)
			require.Equal(p.t, 1, p.g.Players[0].LostTurns)
		}},
		{"ReverseTurnOrderRule", "", []string{`{"type":"ReverseTurnOrderRule","displayText":"rev"}`}, 3, func(p *play) {
			p.roll(0, 1)
			p.awaits(ActionRoll, "p2")
		}},
		{"ChallengeRule: winner gets an extra turn, loser loses one", "", []string{`{"type":"ChallengeRule","displayText":"chug"}`}, 3, func(p *play) {
			p.roll(0, 1)
			p.awaits(ActionChallenge, "p0")
			p.do(0, ActionChallenge, `{"winner":"p0","loser":"p2"}`)
			p.awaits(ActionRoll, "p0")
			require.Equal(p.t, 1, p.g.Players[2].LostTurns)
		}},
		{"SpeedModifierRule multiplies the next move, rounding down", "", []string{`{"type":"SpeedModifierRule","displayText":"half","playerTarget":"self","numTurns":1,"modifier":["*",0.5]}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.roll(1, 2)
			p.confirm(1)
			p.roll(0, 5)
			require.Equal(p.t, 3, p.at(0), "1 + floor(5 × 0.5)")
			require.Empty(p.t, p.g.Players[0].SpeedMods)
		}},
		{"RollAugmentationRule adds to rolls", "", []string{`{"type":"RollAugmentRule","displayText":"+2","numTurns":1,"modifier":["+",2]}`}, 2, func(p *play) {
			p.roll(0, 1)
			p.roll(1, 2)
			p.confirm(1)
			p.roll(0, 1)
			require.Equal(p.t, 4, p.at(0))
		}},
		{"AnchorRule: an anchored player cannot be passed", "", []string{plain, plain, `{"type":"AnchorRule","displayText":"anchor","numTurns":1}`}, 2, func(p *play) {
			p.roll(0, 3)
			p.roll(1, 6)
			require.Equal(p.t, 3, p.at(1), "p1 stops at p0's anchor")
		}},
		{"GroupRollRule waits for everyone", "", []string{`{"type":"GroupRollRule","displayText":"contest"}`}, 3, func(p *play) {
			p.roll(0, 1)
			p.awaits(ActionGroupRoll, "p0", "p1", "p2")
			p.do(2, ActionGroupRoll, "", 4)
			p.awaits(ActionGroupRoll, "p0", "p1")
			p.do(0, ActionGroupRoll, "", 2)
			p.do(1, ActionGroupRoll, "", 6)
			p.awaits(ActionRoll, "p1")
			require.Equal(p.t, 4, p.g.Players[2].GroupRoll)
		}},
		{"UpdateStarterRule: fixed and swapped", "", []string{`{"type":"UpdateStarterRule","displayText":"evolve","starters":["Raichu"]}`, `{"type":"UpdateStarterRule","displayText":"steal","playerTarget":"custom"}`}, 2, func(p *play) {
			p.roll(0, 1)
			require.Equal(p.t, "Raichu", p.g.Players[0].Starter)
			p.roll(1, 2)
			p.do(1, ActionTarget, `{"playerId":"p0"}`)
			require.Equal(p.t, "Raichu", p.g.Players[1].Starter)
			require.Equal(p.t, "", p.g.Players[0].Starter)
		}},
		{"active zone with a move condition: a failed roll runs the consequence", `[{"name":"Ilex","type":"active","rule":{"type":"ApplyMoveConditionRule","displayText":"lost","condition":{"criteria":[1,2,3,4],"consequence":{"type":"MoveRule","displayText":"back","playerTarget":"self","tileIndex":1}}}}]`,
			[]string{"Ilex@" + plain, "Ilex@" + plain, "Ilex@" + plain}, 2, func(p *play) {
				p.roll(0, 2)
				p.confirm(0)
				p.roll(1, 1)
				p.confirm(1)
				require.NotNil(p.t, p.g.Players[0].Condition, "p0 starts the turn in the zone")
				p.roll(0, 5)
				require.Equal(p.t, 1, p.at(0), "5 fails the condition: back to tile 1")
				p.roll(1, 1)
				p.confirm(1)
				p.roll(0, 2)
				require.Equal(p.t, 3, p.at(0), "2 meets it: moves")
			}},
		{"GameOverRule ends the game", "", nil, 2, func(p *play) {
			p.g.Players[0].Tile = 12
			p.roll(0, 1)
			require.Equal(p.t, PhaseOver, p.g.Phase)
			require.Equal(p.t, "p0", p.g.Winner)
			require.Nil(p.t, p.g.Await)
			last := p.events[len(p.events)-1]
			require.Equal(p.t, domain.EventGameOver, last.Type)
			require.Equal(p.t, domain.GameOver{Kind: Kind, Mode: p.g.BoardID, Winners: []string{"p0"}, Losers: []string{"p1"}, Players: []string{"p0", "p1"}, Reason: "finish"}, last.Data)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.run(newPlay(t, testBoard(t, tt.zones, tt.rules...), tt.players))
		})
	}
}

func TestStarterSelectionAtTheStart(t *testing.T) {
	file := `{"tiles":[{"rule":{"type":"StarterSelectionRule","displayText":"pick","starters":["Bulbasaur","Charmander"]},"position":[{"x":0,"y":0}]},` +
		`{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":0,"y":0}]}]}`
	b, _, _, err := LoadBoard([]byte(file), LoadOptions{})
	require.NoError(t, err)
	p := newPlay(t, b, 2)
	p.awaits(ActionStarter, "p0", "p1")
	p.do(1, ActionStarter, `{"starter":"Charmander"}`)
	p.do(0, ActionStarter, `{"starter":"Bulbasaur"}`)
	p.awaits(ActionRoll, "p0")
	require.Equal(t, []string{"Bulbasaur", "Charmander"}, []string{p.g.Players[0].Starter, p.g.Players[1].Starter})
}

func TestLobby(t *testing.T) {
	r := Rules{Boards: BuiltinSource{}}
	b, _ := BuiltinBoard("pokemon-gen2")
	g, err := NewGame("g", actor(0), b, t0)
	require.NoError(t, err)
	env := domain.Env{Now: t0, Dice: domain.Script()}
	_, _, err = r.Apply(g, domain.Action{Type: ActionStart, Actor: actor(0)}, env)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "one player cannot start")
	for i := 1; i < MaxPlayers; i++ {
		g, _, err = r.Apply(g, domain.Action{Type: ActionJoin, Actor: actor(i)}, env)
		require.NoError(t, err)
	}
	_, _, err = r.Apply(g, domain.Action{Type: ActionJoin, Actor: actor(99)}, env)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "13th player")
	_, _, err = r.Apply(g, domain.Action{Type: ActionJoin, Actor: actor(3)}, env)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "twice")
	require.Equal(t, domain.StatusWaiting, r.Header(g).Status)
	require.Len(t, r.Header(g).Players, MaxPlayers)
	_, _, err = r.Expire(g, env)
	require.Error(t, err)
}
