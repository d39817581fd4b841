package partyboard

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

func init() {
	// A board extension for the ProxyRule tests: the player leaps to the
	// tile after the leading other player.
	RegisterProxyRule("test-leapfrog", func(c *ProxyCall) {
		lead := 0
		for i, p := range c.Game.Players {
			if i != c.Player {
				lead = max(lead, p.Tile)
			}
		}
		c.Game.Players[c.Player].Tile = lead + 1
		c.Emit("leapfrog", map[string]int{"to": lead + 1})
	})
}

// rule builds a rule's JSON from its type and extra fields.
func rule(typ, fields string) string {
	if fields != "" {
		fields = "," + fields
	}
	return `{"type":"` + typ + `","displayText":"` + typ + ` text"` + fields + `}`
}

// TestRuleTypes plays each rule type with scripted dice on a small board.
func TestRuleTypes(t *testing.T) {
	tests := []struct {
		rule string // the rule type the case is about
		name string
		run  func(t *testing.T)
	}{
		{DisplayRule, "waits for the lander to confirm", func(t *testing.T) {
			p := newPlay(t, testBoard(t, ""), 2)
			p.awaits(ActionRoll, 0)
			require.Equal(t, PurposeTurnRoll, p.g.Await.Purpose)
			p.roll(0, 1)
			p.awaits(ActionConfirm, 0)
			require.Equal(t, "tiles[1].rule", p.g.Await.Rule)
			require.Equal(t, ".", p.g.Await.Text)
			p.refused(1, ActionConfirm, "", domain.ECONFLICT)
			p.refused(0, ActionRoll, "", domain.ECONFLICT)
			p.confirm(0)
			p.awaits(ActionRoll, 1)
		}},
		{ExtraTurnRule, "the same player goes again, numTurns times", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(ExtraTurnRule, ""), rule(ExtraTurnRule, `"numTurns":2`)), 2)
			p.roll(0, 1)
			p.awaits(ActionRoll, 0)
			require.True(t, p.happened(EventExtraTurn))
			p.roll(0, 1)
			require.Equal(t, 1, p.player(0).ExtraTurns, "two extra turns, one being taken now")
			p.awaits(ActionRoll, 0)
			p.roll(0, 2)
			p.confirm(0)
			p.awaits(ActionRoll, 0)
			p.roll(0, 1)
			p.confirm(0)
			p.awaits(ActionRoll, 1)
			require.Zero(t, p.player(0).ExtraTurns)
		}},
		{SkipTurnRule, "the lander loses the next numTurns turns", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(SkipTurnRule, `"numTurns":2`)), 2)
			p.roll(0, 1)
			require.Equal(t, 2, p.player(0).LostTurns)
			p.awaits(ActionRoll, 1)
			p.roll(1, 2)
			p.confirm(1)
			require.True(t, p.happened(EventTurnLost), "p0's turn is skipped")
			require.Equal(t, 1, p.player(0).LostTurns)
			p.awaits(ActionRoll, 1)
			p.roll(1, 1)
			p.confirm(1)
			require.Equal(t, TurnLostData{Turn: 5, Remaining: 0}, p.event(EventTurnLost).Data)
			p.awaits(ActionRoll, 1)
			p.roll(1, 1)
			p.confirm(1)
			p.awaits(ActionRoll, 0)
		}},
		{MoveRule, "tileIndex moves straight there; that tile's rule does not run", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(MoveRule, `"playerTarget":"self","tileIndex":6`)), 2)
			p.roll(0, 1)
			require.Equal(t, 6, p.at(0))
			require.Equal(t, MovedData{From: 1, To: 6, Cause: "rule", Rule: "tiles[1].rule"}, p.event(EventMoved).Data)
			p.awaits(ActionRoll, 1)
		}},
		{MoveRule, "numSpaces forward and back; a negative count is back; clamped to the board", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(MoveRule, `"direction":"forward","numSpaces":3`), rule(MoveRule, `"direction":"back","numSpaces":-10`)), 2)
			p.roll(0, 1)
			require.Equal(t, 4, p.at(0))
			p.roll(1, 2)
			require.Equal(t, 0, p.at(1))
		}},
		{MoveRule, "custom: the lander picks another player", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(MoveRule, `"playerTarget":"custom","direction":"back","numSpaces":2`)), 3)
			p.place(1, 9)
			p.roll(0, 1)
			p.awaits(ActionTarget, 0)
			require.Equal(t, []string{"p1", "p2"}, p.g.Await.Targets)
			p.refused(0, ActionTarget, `"playerId":"p0"`, domain.EINVALID)
			p.refused(0, ActionTarget, `"playerId":"zed"`, domain.EINVALID)
			p.refused(0, ActionTarget, `"playerId":7`, domain.EINVALID)
			p.refused(1, ActionTarget, `"playerId":"p2"`, domain.ECONFLICT)
			p.target(0, 1)
			require.Equal(t, 7, p.at(1))
			p.awaits(ActionRoll, 1)
		}},
		{MoveRule, "allOthers moves everyone else", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(MoveRule, `"playerTarget":"allOthers","direction":"forward","numSpaces":2`)), 3)
			p.roll(0, 1)
			require.Equal(t, []int{1, 2, 2}, []int{p.at(0), p.at(1), p.at(2)})
		}},
		{MoveRule, "diceRolls: the lander rolls them all in one roll", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", plain, plain, rule(MoveRule, `"playerTarget":"self","direction":"back","diceRolls":{"numRequired":2}`)), 2)
			p.roll(0, 3)
			p.awaits(ActionRoll, 0)
			require.Equal(t, 2, p.g.Await.Dice)
			require.Equal(t, PurposeRule, p.g.Await.Purpose)
			p.roll(0, 1, 1)
			require.Equal(t, 1, p.at(0))
			p.awaits(ActionRoll, 1)
		}},
		{MoveRule, "custom with diceRolls: target first, then the roll", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(MoveRule, `"playerTarget":"custom","direction":"forward","diceRolls":{"numRequired":1}`)), 2)
			p.roll(0, 1)
			p.target(0, 1)
			p.awaits(ActionRoll, 0)
			require.Equal(t, "p1", p.g.Await.Target)
			p.roll(0, 4)
			require.Equal(t, 4, p.at(1))
			require.Equal(t, 1, p.at(0))
		}},
		{MoveRule, "a move onto the finish wins", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(MoveRule, `"tileIndex":21`)), 2)
			p.roll(0, 1)
			require.Equal(t, PhaseOver, p.g.Phase)
			require.Equal(t, "p0", p.g.Winner)
		}},
		{RollUntilRule, "rolls until a die meets the criteria", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(RollUntilRule, `"criteria":[5,6]`)), 2)
			p.roll(0, 1)
			for _, v := range []int{1, 3, 4} {
				p.awaits(ActionRoll, 0)
				require.Equal(t, "tiles[1].rule", p.g.Await.Rule)
				p.roll(0, v)
			}
			p.awaits(ActionRoll, 0)
			p.roll(0, 6)
			p.awaits(ActionRoll, 1)
			require.Equal(t, []int{6}, p.g.LastRolls)
		}},
		{AddMandatoryRule, "the tile becomes a stop for the lander only, until they stop there", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(AddMandatoryRule, `"tileIndex":5`)), 2)
			p.roll(0, 1)
			require.Equal(t, []int{5}, p.player(0).Mandatory)
			p.roll(1, 6)
			require.Equal(t, 6, p.at(1), "not a stop for p1")
			p.confirm(1)
			p.roll(0, 6)
			require.Equal(t, 5, p.at(0))
			require.Equal(t, StopMandatory, p.event(EventMoved).Data.(MovedData).Stop)
			require.Nil(t, p.player(0).Mandatory)
			p.confirm(0)
			p.roll(1, 1)
			p.confirm(1)
			p.roll(0, 3)
			require.Equal(t, 8, p.at(0))
		}},
		{DiceRollRule, "default: the outcome every die meets", func(t *testing.T) {
			gym := rule(DiceRollRule, `"diceRolls":{"numRequired":1,"outcomes":[`+
				`{"rule":`+rule(SkipTurnRule, `"numTurns":1`)+`,"criteria":[2,4,6]},`+
				`{"rule":`+rule(DisplayRule, "")+`,"criteria":[1,3,5]}]}`)
			p := newPlay(t, testBoard(t, "", gym), 2)
			p.roll(0, 1)
			p.awaits(ActionRoll, 0)
			require.Equal(t, 1, p.g.Await.Dice)
			p.roll(0, 4)
			require.Equal(t, 1, p.player(0).LostTurns)
			p.awaits(ActionRoll, 1)
			p.roll(1, 1)
			p.roll(1, 3)
			p.awaits(ActionConfirm, 1)
			require.Equal(t, "tiles[1].rule.diceRolls.outcomes[1].rule", p.g.Await.Rule)
		}},
		{DiceRollRule, "isAny wins when one die meets it (gen1 Missingno)", func(t *testing.T) {
			missingno := rule(DiceRollRule, `"diceRolls":{"numRequired":3,"outcomes":[`+
				`{"rule":`+rule(MoveRule, `"playerTarget":"self","tileIndex":0`)+`,"criteria":[1,2,3,4]},`+
				`{"isAny":true,"rule":`+rule(DisplayRule, "")+`,"criteria":[5,6]}]}`)
			p := newPlay(t, testBoard(t, "", plain, missingno), 2)
			p.roll(0, 2)
			p.roll(0, 1, 2, 5)
			p.awaits(ActionConfirm, 0)
			p.confirm(0)
			p.roll(1, 2)
			p.roll(1, 1, 2, 3)
			require.Equal(t, 0, p.at(1), "glitched back to the start")
		}},
		{DiceRollRule, "cumulative: the sum meets the criteria (gen2 Game Center)", func(t *testing.T) {
			center := rule(DiceRollRule, `"diceRolls":{"numRequired":2,"type":"cumulative","outcomes":[`+
				`{"rule":`+rule(DisplayRule, `"displayText":"seven"`)+`,"criteria":[7]},`+
				`{"rule":`+rule(SkipTurnRule, `"numTurns":1`)+`,"criteria":[2,3,4,5,6,8,9,10,11,12]}]}`)
			p := newPlay(t, testBoard(t, "", center), 2)
			p.roll(0, 1)
			p.roll(0, 3, 4)
			p.awaits(ActionConfirm, 0)
			p.confirm(0)
			p.roll(1, 1)
			p.roll(1, 6, 6)
			require.Equal(t, 1, p.player(1).LostTurns)
		}},
		{DiceRollRule, "allMatch: every die must meet the criteria; no outcome is fine", func(t *testing.T) {
			four := rule(DiceRollRule, `"diceRolls":{"numRequired":4,"type":"allMatch","outcomes":[`+
				`{"rule":`+rule(ExtraTurnRule, "")+`,"criteria":[1,2,3,4]}]}`)
			p := newPlay(t, testBoard(t, "", four), 2)
			p.roll(0, 1)
			p.roll(0, 1, 4, 2, 5)
			p.awaits(ActionRoll, 1)
			p.roll(1, 1)
			p.roll(1, 1, 4, 2, 3)
			p.awaits(ActionRoll, 1)
			require.Equal(t, 0, p.player(1).ExtraTurns, "taken already")
		}},
		{GameOverRule, "the first to reach the finish wins; the game then refuses everything", func(t *testing.T) {
			b := testBoard(t, "")
			p := newPlay(t, b, 3)
			p.place(0, 19)
			p.roll(0, 6)
			require.Equal(t, PhaseOver, p.g.Phase)
			require.Equal(t, "p0", p.g.Winner)
			require.Equal(t, 21, p.at(0))
			over := p.event(domain.EventGameOver)
			require.Equal(t, domain.GameOver{Kind: Kind, Mode: b.ID, Winners: []string{"p0"}, Losers: []string{"p1", "p2"},
				Players: []string{"p0", "p1", "p2"}, Reason: "finish"}, over.Data)
			require.Equal(t, domain.StatusOver, Rules{}.Header(p.g).Status)
			p.refused(1, ActionRoll, "", domain.ECONFLICT)
			p.refused(0, ActionConfirm, "", domain.ECONFLICT)
			p.refused(5, ActionJoin, "", domain.ECONFLICT)
		}},
		{DrinkDuringLostTurnsRule, "two dice: turns lost, and drinks in each", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule("DrinkDuringLostTu", `"diceRolls":{"numRequired":2}`)), 2)
			p.roll(0, 1)
			p.awaits(ActionRoll, 0)
			require.Equal(t, 2, p.g.Await.Dice)
			p.roll(0, 2, 5)
			require.Equal(t, 2, p.player(0).LostTurns)
			require.Equal(t, 5, p.player(0).LostTurnDrinks)
			p.roll(1, 2)
			p.confirm(1)
			require.Equal(t, TurnLostData{Turn: 3, Remaining: 1, Drinks: 5}, p.event(EventTurnLost).Data)
			p.roll(1, 2)
			p.confirm(1)
			require.Equal(t, TurnLostData{Turn: 5, Remaining: 0, Drinks: 5}, p.event(EventTurnLost).Data)
			require.Zero(t, p.player(0).LostTurnDrinks)
		}},
		{ProxyRule, "runs the Go rule registered under proxyRuleId", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(ProxyRule, `"proxyRuleId":"test-leapfrog"`)), 2)
			p.place(1, 7)
			p.roll(0, 1)
			require.Equal(t, 8, p.at(0))
			require.True(t, p.happened("leapfrog"))
			p.awaits(ActionRoll, 1)
		}},
		{ApplyMoveConditionRule, "a failed roll keeps the player; with no successes required the condition ends", func(t *testing.T) {
			zubat := rule(ApplyMoveConditionRule, `"condition":{"criteria":[3,4,5,6],"description":"Must roll 3-6"}`)
			p := newPlay(t, testBoard(t, "", zubat), 2)
			p.roll(0, 1)
			require.Equal(t, &MoveCondition{Rule: "tiles[1].rule", Description: "Must roll 3-6", Dice: 1}, p.player(0).Condition)
			p.roll(1, 2)
			p.confirm(1)
			p.awaits(ActionRoll, 0)
			require.Equal(t, "Must roll 3-6", p.g.Await.Text)
			p.roll(0, 2)
			require.Equal(t, 1, p.at(0), "the roll did not move")
			require.Nil(t, p.player(0).Condition)
			require.Equal(t, ConditionData{Rule: "tiles[1].rule", Rolls: []int{2}, Cleared: true}, p.event(EventCondition).Data)
			p.roll(1, 1)
			p.confirm(1)
			p.roll(0, 1)
			require.Equal(t, 2, p.at(0))
		}},
		{ApplyMoveConditionRule, "numSuccessesRequired: failures keep it, successes count, the last one moves", func(t *testing.T) {
			cond := rule(ApplyMoveConditionRule, `"condition":{"criteria":[4,5,6],"numSuccessesRequired":2}`)
			p := newPlay(t, testBoard(t, "", cond), 2)
			p.place(1, 10)
			p.roll(0, 1)
			for _, v := range []int{1, 5} {
				p.roll(1, 1)
				p.confirm(1)
				p.roll(0, v)
				require.Equal(t, 1, p.at(0))
				require.NotNil(t, p.player(0).Condition)
			}
			require.Equal(t, 1, p.player(0).Condition.Successes)
			p.roll(1, 1)
			p.confirm(1)
			p.roll(0, 4)
			require.Equal(t, 5, p.at(0))
			require.Nil(t, p.player(0).Condition)
		}},
		{ApplyMoveConditionRule, "a failed roll runs the consequence (gen2 Ilex Forest)", func(t *testing.T) {
			ilex := rule(ApplyMoveConditionRule, `"condition":{"criteria":[1,2,3,4],"consequence":`+rule(MoveRule, `"playerTarget":"self","tileIndex":0`)+`}`)
			p := newPlay(t, testBoard(t, "", plain, ilex), 2)
			p.roll(0, 2)
			p.roll(1, 1)
			p.confirm(1)
			p.roll(0, 6)
			require.Equal(t, 0, p.at(0))
			require.Nil(t, p.player(0).Condition)
			p.awaits(ActionRoll, 1)
		}},
		{ApplyMoveConditionRule, "immediate: rolled for at once, then on later turns (gen1 birds)", func(t *testing.T) {
			birds := rule(ApplyMoveConditionRule, `"condition":{"criteria":[4,5,6],"numSuccessesRequired":3,"immediate":true}`)
			p := newPlay(t, testBoard(t, "", birds), 2)
			p.roll(0, 1)
			p.awaits(ActionRoll, 0)
			require.Equal(t, PurposeRule, p.g.Await.Purpose)
			p.roll(0, 5)
			require.Equal(t, 1, p.player(0).Condition.Successes)
			p.awaits(ActionRoll, 1)
			for _, v := range []int{2, 6} {
				p.roll(1, 2)
				p.confirm(1)
				p.roll(0, v)
				require.Equal(t, 1, p.at(0))
			}
			p.roll(1, 1)
			p.confirm(1)
			p.roll(0, 4)
			require.Equal(t, 5, p.at(0))
			require.Nil(t, p.player(0).Condition)
		}},
		{ApplyMoveConditionRule, "several dice: rolled for before the turn roll (gen3 Elite Four)", func(t *testing.T) {
			elite := rule(ApplyMoveConditionRule, `"condition":{"criteria":[1,2,3,4],"numSuccessesRequired":1,"immediate":true,"diceRolls":{"numRequired":4,"type":"allMatch"}}`)
			p := newPlay(t, testBoard(t, "", elite), 2)
			p.roll(0, 1)
			p.awaits(ActionRoll, 0)
			require.Equal(t, 4, p.g.Await.Dice)
			p.roll(0, 1, 2, 5, 1)
			require.NotNil(t, p.player(0).Condition)
			p.roll(1, 2)
			p.confirm(1)
			p.awaits(ActionRoll, 0)
			require.Equal(t, PurposeCondition, p.g.Await.Purpose)
			p.roll(0, 6, 1, 1, 1)
			p.awaits(ActionRoll, 1)
			p.roll(1, 1)
			p.confirm(1)
			p.roll(0, 1, 2, 3, 4)
			p.awaits(ActionRoll, 0)
			require.Equal(t, PurposeTurnRoll, p.g.Await.Purpose)
			p.roll(0, 2)
			require.Equal(t, 3, p.at(0))
		}},
		{ApplyMoveConditionRule, "custom: on the player picked (gen1 Lapras)", func(t *testing.T) {
			lapras := rule(ApplyMoveConditionRule, `"playerTarget":"custom","condition":{"criteria":[1,2,3]}`)
			p := newPlay(t, testBoard(t, "", lapras), 2)
			p.roll(0, 1)
			p.target(0, 1)
			require.NotNil(t, p.player(1).Condition)
			p.roll(1, 5)
			require.Equal(t, 0, p.at(1))
			p.awaits(ActionRoll, 0)
		}},
		{ChoiceRule, "the lander picks an option by index; its rule runs", func(t *testing.T) {
			evolve := rule(ChoiceRule, `"choices":[{"rule":`+rule(SkipNextMandatoryRule, `"numSpaces":1`)+`},{"rule":`+rule(ExtraTurnRule, `"displayText":"again"`)+`}]`)
			p := newPlay(t, testBoard(t, "", evolve), 2)
			p.roll(0, 1)
			p.awaits(ActionChoose, 0)
			require.Equal(t, []string{"SkipNextMandatoryRule text", "again"}, p.g.Await.Choices)
			p.refused(0, ActionChoose, `"choice":2`, domain.EINVALID)
			p.refused(0, ActionChoose, `"choice":-1`, domain.EINVALID)
			p.refused(0, ActionChoose, ``, domain.EINVALID)
			p.refused(0, ActionChoose, `"choice":"1"`, domain.EINVALID)
			p.refused(1, ActionChoose, `"choice":1`, domain.ECONFLICT)
			for _, bad := range []string{`"choice":null`, `"choice":1e100`, `"choice":1.5`, `"choice":[1]`, `"choice":{}`} {
				p.refused(0, ActionChoose, bad, domain.EINVALID)
			}
			for _, raw := range []string{`null`, `"choice"`, `{`, `[]`, `{"choice":1}}`, "\x00"} {
				_, _, err := p.r.Apply(p.g, domain.Action{Type: ActionChoose, Actor: actor(0), Payload: json.RawMessage(raw)}, domain.Env{})
				require.Equal(t, domain.EINVALID, domain.ErrorCode(err), raw)
			}
			p.choose(0, 1)
			p.awaits(ActionRoll, 0)
			require.Equal(t, ChoseData{Rule: "tiles[1].rule", Choice: 1, Text: "again"}, p.event(EventChose).Data)
		}},
		{ChoiceRule, "with diceRolls: roll first, then choose (gen1 Saffron Gym)", func(t *testing.T) {
			saffron := rule(ChoiceRule, `"diceRolls":{"numRequired":1},"choices":[{"rule":`+rule(ExtraTurnRule, "")+`},{"rule":`+rule(DisplayRule, "")+`}]`)
			p := newPlay(t, testBoard(t, "", saffron), 2)
			p.roll(0, 1)
			p.awaits(ActionRoll, 0)
			p.roll(0, 3)
			p.awaits(ActionChoose, 0)
			p.choose(0, 1)
			p.awaits(ActionConfirm, 0)
		}},
		{ReverseTurnOrderRule, "turns go the other way round", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(ReverseTurnOrderRule, "")), 3)
			p.roll(0, 1)
			require.True(t, p.g.Reversed)
			p.awaits(ActionRoll, 2)
			p.roll(2, 2)
			p.confirm(2)
			p.awaits(ActionRoll, 1)
		}},
		{ChallengeRule, "the lander reports who won against whom", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(ChallengeRule, "")), 3)
			p.roll(0, 1)
			p.awaits(ActionChallenge, 0)
			require.Equal(t, []string{"p0", "p1", "p2"}, p.g.Await.Targets)
			p.refused(0, ActionChallenge, `"winner":"p1","loser":"p2"`, domain.EINVALID)
			p.refused(0, ActionChallenge, `"winner":"p0","loser":"p0"`, domain.EINVALID)
			p.refused(0, ActionChallenge, `"winner":"p0","loser":"zed"`, domain.EINVALID)
			p.refused(0, ActionChallenge, `"winner":"p0"`, domain.EINVALID)
			p.do(0, ActionChallenge, `"winner":"p2","loser":"p0"`)
			require.Equal(t, [2]int{1, 1}, [2]int{p.player(2).ExtraTurns, p.player(0).LostTurns})
			p.awaits(ActionRoll, 1)
			p.roll(1, 2)
			p.confirm(1)
			p.roll(2, 2)
			p.confirm(2)
			p.awaits(ActionRoll, 2)
			p.roll(2, 1)
			p.confirm(2)
			require.True(t, p.happened(EventTurnLost))
			p.awaits(ActionRoll, 1)
		}},
		{SpeedModifierRule, "self *2 on the next move roll", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(SpeedModifierRule, `"playerTarget":"self","numTurns":1,"modifier":["*",2]`)), 2)
			p.roll(0, 1)
			require.Equal(t, []Mod{{Op: "*", Value: 2, Turns: 1}}, p.player(0).SpeedMods)
			p.roll(1, 2)
			p.confirm(1)
			p.roll(0, 3)
			require.Equal(t, 7, p.at(0))
			require.Equal(t, 6, *p.event(EventRolled).Data.(RolledData).Spaces)
			require.Nil(t, p.player(0).SpeedMods)
		}},
		{SpeedModifierRule, "allOthers halve for two turns, rounding down; 0 does not move", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(SpeedModifierRule, `"playerTarget":"allOthers","numTurns":2,"modifier":["*",0.5]`)), 3)
			p.place(1, 10)
			p.place(2, 10)
			p.roll(0, 1)
			require.Nil(t, p.player(0).SpeedMods)
			p.roll(1, 3)
			require.Equal(t, 11, p.at(1))
			p.confirm(1)
			p.roll(2, 1)
			require.Equal(t, 10, p.at(2), "half of 1 is 0: no move, no tile")
			p.awaits(ActionRoll, 0)
			p.roll(0, 1)
			p.confirm(0)
			p.roll(1, 5)
			require.Equal(t, 13, p.at(1))
			require.Nil(t, p.player(1).SpeedMods)
		}},
		{SpeedModifierRule, "custom =, and - never below 0; modifiers stack in order", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "",
				rule(SpeedModifierRule, `"playerTarget":"custom","numTurns":1,"modifier":["=",1]`),
				rule(SpeedModifierRule, `"playerTarget":"self","numTurns":1,"modifier":["-",5]`)), 2)
			p.place(1, 10)
			p.roll(0, 1)
			p.target(0, 1)
			p.roll(1, 6)
			require.Equal(t, 11, p.at(1))
			p.confirm(1)
			p.roll(0, 1)
			p.roll(1, 2)
			p.confirm(1)
			p.roll(0, 3)
			require.Equal(t, 2, p.at(0))
			p.awaits(ActionRoll, 1)

			pl := &Player{SpeedMods: []Mod{{Op: "+", Value: 3, Turns: 1}, {Op: "*", Value: 2, Turns: 2}}, RollMods: []Mod{{Op: "-", Value: 1, Turns: 1}}}
			require.Equal(t, 9, (&step{}).moveRoll(pl, 2), "(2+3)*2-1")
			require.Equal(t, []Mod{{Op: "*", Value: 2, Turns: 1}}, pl.SpeedMods)
			require.Nil(t, pl.RollMods)
		}},
		{SkipNextMandatoryRule, "passes the next mandatory stop; landing on one spends nothing", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(SkipNextMandatoryRule, `"numSpaces":1`), plain, "!"+plain, plain, "!"+plain), 2)
			p.roll(0, 1)
			require.Equal(t, 1, p.player(0).MandatorySkips)
			p.roll(1, 4)
			require.Equal(t, 3, p.at(1), "p1 stops at the mandatory tile")
			p.confirm(1)
			p.roll(0, 2)
			require.Equal(t, 3, p.at(0), "landed exactly")
			require.Equal(t, 1, p.player(0).MandatorySkips)
			p.confirm(0)
			p.roll(1, 1)
			p.confirm(1)
			p.place(0, 1)
			p.roll(0, 6)
			require.Equal(t, 5, p.at(0), "passed 3, stopped at 5")
			require.Equal(t, []int{3}, p.event(EventMoved).Data.(MovedData).Passed)
			require.Zero(t, p.player(0).MandatorySkips)
		}},
		{RollAugmentationRule, "augments the next move roll (RollAugmentRule spelling)", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule("RollAugmentRule", `"modifier":["+",1]`)), 2)
			p.roll(0, 1)
			require.Equal(t, []Mod{{Op: "+", Value: 1, Turns: 1}}, p.player(0).RollMods)
			p.roll(1, 2)
			p.confirm(1)
			p.roll(0, 2)
			require.Equal(t, 4, p.at(0))
		}},
		{StarterSelectionRule, "on tile 0 every player picks one when the game starts", func(t *testing.T) {
			b := testBoardStart(t, rule(StarterSelectionRule, `"starters":["A","B","C"]`), "")
			p := newPlay(t, b, 3)
			p.awaits(ActionStarter, 0, 1, 2)
			require.Equal(t, []string{"A", "B", "C"}, p.g.Await.Starters)
			p.do(1, ActionStarter, `"starter":"B"`)
			p.awaits(ActionStarter, 0, 2)
			p.refused(1, ActionStarter, `"starter":"C"`, domain.ECONFLICT)
			p.refused(0, ActionStarter, `"starter":"Mew"`, domain.EINVALID)
			p.refused(0, ActionStarter, `"starter":1`, domain.EINVALID)
			p.do(2, ActionStarter, `"starter":"A"`)
			p.do(0, ActionStarter, `"starter":"A"`)
			p.awaits(ActionRoll, 0)
			require.Equal(t, []string{"A", "B", "A"}, []string{p.player(0).Starter, p.player(1).Starter, p.player(2).Starter})
			require.Equal(t, 1, p.g.Turn)
		}},
		{UpdateStarterRule, "starters[0] replaces the lander's; custom swaps with a player", func(t *testing.T) {
			b := testBoardStart(t, rule(StarterSelectionRule, `"starters":["A","B"]`), "",
				rule(UpdateStarterRule, `"starters":["Pikachu"]`), rule(UpdateStarterRule, `"playerTarget":"custom"`))
			p := newPlay(t, b, 2)
			p.do(0, ActionStarter, `"starter":"A"`)
			p.do(1, ActionStarter, `"starter":"B"`)
			p.roll(0, 1)
			require.Equal(t, "Pikachu", p.player(0).Starter)
			p.roll(1, 2)
			p.target(1, 0)
			require.Equal(t, []string{"B", "Pikachu"}, []string{p.player(0).Starter, p.player(1).Starter})
		}},
		{AnchorRule, "others cannot roll past the anchored player; each stop uses an anchor", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", plain, plain, rule(AnchorRule, `"numTurns":1`)), 2)
			p.roll(0, 3)
			require.Equal(t, 1, p.player(0).Anchors)
			p.roll(1, 5)
			require.Equal(t, 3, p.at(1))
			require.Equal(t, StopAnchor, p.event(EventMoved).Data.(MovedData).Stop)
			require.Zero(t, p.player(0).Anchors)
			require.Equal(t, 1, p.player(1).Anchors, "p1 landed on the anchor tile too")
			p.roll(0, 5)
			require.Equal(t, 8, p.at(0), "an anchor on one's own tile is not in the way")
			p.confirm(0)
			p.roll(1, 6)
			require.Equal(t, 9, p.at(1), "p0's anchor is used up")
		}},
		{GroupRollRule, "every player rolls one die, in any order", func(t *testing.T) {
			p := newPlay(t, testBoard(t, "", rule(GroupRollRule, "")), 3)
			p.roll(0, 1)
			p.awaits(ActionGroupRoll, 0, 1, 2)
			p.do(1, ActionGroupRoll, "", 4)
			p.awaits(ActionGroupRoll, 0, 2)
			p.refused(1, ActionGroupRoll, "", domain.ECONFLICT)
			p.refused(2, ActionRoll, "", domain.ECONFLICT)
			p.do(2, ActionGroupRoll, "", 2)
			p.do(0, ActionGroupRoll, "", 6)
			require.Equal(t, []int{6, 4, 2}, []int{p.player(0).GroupRoll, p.player(1).GroupRoll, p.player(2).GroupRoll})
			p.awaits(ActionRoll, 1)
		}},
	}
	for _, c := range zeldaRuleCases() {
		tests = append(tests, c)
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.rule] = true
		t.Run(tt.rule+"/"+tt.name, tt.run)
	}
	for _, typ := range RuleTypes {
		require.True(t, covered[typ], "no test for %s", typ)
	}
}

// testBoardStart is testBoard with tile 0's rule given.
func testBoardStart(t testing.TB, start, zones string, rules ...string) *Board {
	t.Helper()
	b := testBoard(t, zones, rules...)
	file, err := json.Marshal(b)
	require.NoError(t, err)
	var raw map[string]any
	require.NoError(t, json.Unmarshal(file, &raw))
	var r any
	require.NoError(t, json.Unmarshal([]byte(start), &r))
	raw["tiles"].([]any)[0].(map[string]any)["rule"] = r
	file, _ = json.Marshal(raw)
	b, problems, _, err := LoadBoard(file, LoadOptions{})
	require.NoError(t, err, "%v", problems)
	return b
}

func TestZones(t *testing.T) {
	t.Run("an active zone's rule runs first in each turn of a player inside", func(t *testing.T) {
		zones := `[{"name":"Z","type":"active","rule":` + rule(DisplayRule, "") + `},{"name":"P","type":"passive","rule":` + rule(DisplayRule, "") + `}]`
		p := newPlay(t, testBoard(t, zones, plain, "Z@"+plain, "Z@"+plain, "P@"+plain), 2)
		p.roll(0, 2)
		p.awaits(ActionConfirm, 0)
		require.Equal(t, "tiles[2].rule", p.g.Await.Rule, "landing runs the tile's rule, not the zone's")
		p.confirm(0)
		p.roll(1, 4)
		p.confirm(1)
		p.awaits(ActionConfirm, 0)
		require.Equal(t, "zones[0].rule", p.g.Await.Rule)
		p.confirm(0)
		p.awaits(ActionRoll, 0)
		p.roll(0, 1)
		p.confirm(0)
		p.awaits(ActionRoll, 1) // p1 is in the passive zone: nothing happens
	})
	t.Run("a zone rule that costs a turn costs this one (gen1 Safari Zone)", func(t *testing.T) {
		safari := rule(DiceRollRule, `"diceRolls":{"numRequired":1,"outcomes":[{"rule":`+rule(SkipTurnRule, `"numTurns":1`)+`,"criteria":[3,4]}]}`)
		p := newPlay(t, testBoard(t, `[{"name":"S","type":"active","rule":`+safari+`}]`, "S@"+plain, "S@"+plain), 2)
		p.roll(0, 1)
		p.confirm(0)
		p.roll(1, 3)
		p.confirm(1)
		p.awaits(ActionRoll, 0)
		require.Equal(t, "zones[0].rule", p.g.Await.Rule)
		p.roll(0, 3)
		require.True(t, p.happened(EventTurnLost))
		require.Zero(t, p.player(0).LostTurns)
		p.awaits(ActionRoll, 1)
		p.roll(1, 1)
		p.confirm(1)
		p.roll(0, 5) // the zone roll: nothing
		p.awaits(ActionRoll, 0)
		require.Equal(t, PurposeTurnRoll, p.g.Await.Purpose)
		p.roll(0, 1)
		require.Equal(t, 2, p.at(0))
	})
	t.Run("a move condition zone with a consequence (gen2 Ilex Forest)", func(t *testing.T) {
		ilex := rule(ApplyMoveConditionRule, `"condition":{"criteria":[1,2,3,4],"consequence":`+rule(MoveRule, `"playerTarget":"self","tileIndex":2`)+`,"description":"Must roll 1-4"}`)
		p := newPlay(t, testBoard(t, `[{"name":"I","type":"active","rule":`+ilex+`}]`, plain, "I@"+plain, "I@"+plain, "I@"+plain), 2)
		p.roll(0, 3)
		p.confirm(0)
		p.roll(1, 1)
		p.confirm(1)
		p.awaits(ActionRoll, 0)
		require.Equal(t, "Must roll 1-4", p.g.Await.Text)
		p.roll(0, 5)
		require.Equal(t, 2, p.at(0), "back to the start of the forest")
		p.awaits(ActionRoll, 1)
		p.roll(1, 1)
		p.confirm(1)
		p.roll(0, 3)
		require.Equal(t, 5, p.at(0))
	})
	t.Run("mandatory tiles stop every player", func(t *testing.T) {
		p := newPlay(t, testBoard(t, "", plain, plain, "!"+plain), 2)
		p.roll(0, 6)
		require.Equal(t, 3, p.at(0))
	})
}

func TestLobby(t *testing.T) {
	b := testBoard(t, "")
	r := Rules{Boards: MapSource{b.ID: b}}
	env := domain.Env{Now: t0, Dice: domain.Script()}
	apply := func(g Game, a domain.Action) (Game, error) {
		before, _ := json.Marshal(g)
		next, _, err := r.Apply(g, a, env)
		after, _ := json.Marshal(g)
		require.JSONEq(t, string(before), string(after), "Apply changed its input")
		if err != nil {
			require.Equal(t, g, next, "an error returns the input")
		}
		return next, err
	}

	_, err := NewGame("", actor(0), b, t0)
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	_, err = NewGame("g", domain.Actor{}, b, t0)
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	_, err = NewGame("g", actor(0), nil, t0)
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))

	g, err := NewGame("g1", actor(0), b, t0)
	require.NoError(t, err)
	require.Equal(t, domain.Header{Status: domain.StatusWaiting, Players: []string{"p0"}}, r.Header(g))
	require.Nil(t, g.Await)

	tests := []struct {
		name string
		a    domain.Action
		code string
	}{
		{"start alone", action(0, ActionStart, ""), domain.ECONFLICT},
		{"roll in the lobby", action(0, ActionRoll, ""), domain.ECONFLICT},
		{"unknown action", action(0, "fly", ""), domain.EINVALID},
		{"join twice", action(0, ActionJoin, ""), domain.ECONFLICT},
		{"join without id", domain.Action{Type: ActionJoin, Payload: body(ActionJoin, "")}, domain.EINVALID},
		{"malformed payload", domain.Action{Type: ActionJoin, Actor: actor(1), Payload: json.RawMessage(`[1]`)}, domain.EINVALID},
		{"start by a stranger", action(9, ActionStart, ""), domain.EFORBIDDEN},
	}
	for _, tt := range tests {
		_, err := apply(g, tt.a)
		require.Equal(t, tt.code, domain.ErrorCode(err), "%s: %v", tt.name, err)
	}
	for i := 1; i < MaxPlayers; i++ {
		var err error
		g, err = apply(g, action(i, ActionJoin, ""))
		require.NoError(t, err)
	}
	_, err = apply(g, action(MaxPlayers, ActionJoin, ""))
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "full")
	_, err = apply(g, action(1, ActionStart, ""))
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "only the host starts")
	_, err = apply(g, action(0, ActionStart, `"extra":true`))
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err), "an unknown field is refused, naming it")
	require.Contains(t, err.Error(), `"extra"`)
	g, err = apply(g, action(0, ActionStart, ""))
	require.NoError(t, err)
	require.Equal(t, PhasePlaying, g.Phase)
	require.Equal(t, domain.StatusActive, r.Header(g).Status)
	require.Len(t, r.Header(g).Players, MaxPlayers)
	_, err = apply(g, action(0, ActionStart, ""))
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	_, err = apply(g, action(MaxPlayers, ActionJoin, ""))
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))

	_, _, err = r.Expire(g, env)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	require.Equal(t, Kind, r.Kind())
	_, _, err = Rules{Boards: MapSource{}}.Apply(g, action(0, ActionRoll, ""), env)
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err), "the board is gone")
}

func TestOnlyTheAwaitedPlayerActs(t *testing.T) {
	p := newPlay(t, testBoard(t, ""), 3)
	p.refused(9, ActionRoll, "", domain.EFORBIDDEN)
	p.refused(1, ActionRoll, "", domain.ECONFLICT)
	p.refused(0, ActionConfirm, "", domain.ECONFLICT)
	p.refused(0, "teleport", "", domain.EINVALID)
	_, _, err := p.r.Apply(p.g, domain.Action{Type: ActionRoll, Actor: actor(0), Payload: json.RawMessage(`"roll"`)}, domain.Env{Dice: domain.Script()})
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	_, _, err = p.r.Apply(p.g, action(2, ActionRoll, ""), domain.Env{Dice: domain.Script()})
	require.Equal(t, "waiting for Player 0 to roll", domain.ErrorMessage(err))
	_, _, err = p.r.Apply(p.g, action(0, ActionRoll, ""), domain.Env{})
	require.Equal(t, domain.EINTERNAL, domain.ErrorCode(err), "no dice")
	_, out, err := p.r.Apply(p.g, action(0, ActionRoll, ""), domain.Env{Dice: domain.Script(2)})
	require.NoError(t, err)
	require.Equal(t, RollResult{Purpose: PurposeTurnRoll, Rolls: []int{2}, Tile: 2}, out.Result)
}

func TestLogKeepsTheLastHappenings(t *testing.T) {
	p := newPlay(t, testBoard(t, ""), 2)
	for i := 0; i < 8; i++ {
		p.roll(i%2, 1)
		p.confirm(i % 2)
	}
	require.Len(t, p.g.Log, LogSize)
	last := p.g.Log[len(p.g.Log)-1]
	require.Equal(t, Entry{Turn: 8, Player: "p1", Type: EventRule, Rule: "tiles[4].rule", Text: "."}, last)
	var types []string
	for _, e := range p.g.Log[len(p.g.Log)-3:] {
		types = append(types, e.Type)
	}
	require.Equal(t, "rolled moved rule", strings.Join(types, " "))
	require.Equal(t, fmt.Sprint([]int{3, 4}), fmt.Sprint(p.g.Log[len(p.g.Log)-2].Tiles))
}
