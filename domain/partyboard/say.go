package partyboard

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// Say implements domain.Sayer: each Party Board event in words, with the
// players' names as of g (the state right after the event's step). A rule's
// own words are its displayText, as the board gives it.
func (Rules) Say(g Game, e domain.Event) string {
	who := g.nameOf(e.Player)
	switch d := e.Data.(type) {
	case JoinedData:
		return fmt.Sprintf("%s joined", cmp.Or(d.Name, who))
	case StartedData:
		names := make([]string, len(d.Players))
		for i, id := range d.Players {
			names[i] = g.nameOf(id)
		}
		return fmt.Sprintf("the game starts on %s: %s", d.Board, domain.JoinNames(names))
	case TurnStartedData:
		return fmt.Sprintf("turn %d: %s's turn, on tile %d", d.Turn, who, d.Tile)
	case TurnLostData:
		s := fmt.Sprintf("%s loses this turn (%d more to lose)", who, d.Remaining)
		if d.Remaining == 0 {
			s = fmt.Sprintf("%s loses this turn", who)
		}
		if d.Drinks > 0 {
			s += fmt.Sprintf(": drink %d", d.Drinks)
		}
		return s
	case ExtraTurnData:
		return fmt.Sprintf("%s takes an extra turn", who)
	case RolledData:
		return fmt.Sprintf("%s rolled %s%s", who, rollWords(d.Rolls), purposeWords[d.Purpose])
	case MovedData:
		return sayMove(who, d)
	case RuleData:
		if d.Text == "" {
			return fmt.Sprintf("%s: %s", who, d.Type)
		}
		return fmt.Sprintf("%s: %s", who, d.Text)
	case EffectData:
		return sayEffect(g, who, d)
	case ConditionData:
		if d.CanMove {
			return fmt.Sprintf("%s rolled %s: the condition is met, the roll moves", who, rollWords(d.Rolls))
		}
		if d.Met {
			return fmt.Sprintf("%s rolled %s: a success (%d of %d)", who, rollWords(d.Rolls), d.Successes, d.Required)
		}
		return fmt.Sprintf("%s rolled %s: the condition is not met", who, rollWords(d.Rolls))
	case ChoseData:
		if d.Text == "" {
			return fmt.Sprintf("%s chose option %d", who, d.Choice+1)
		}
		return fmt.Sprintf("%s chose: %s", who, d.Text)
	case TargetedData:
		return fmt.Sprintf("%s picked %s", who, g.nameOf(d.Target))
	case StarterChosenData:
		return fmt.Sprintf("%s chose %s as starter", who, d.Starter)
	case GroupRolledData:
		return fmt.Sprintf("%s rolled %d for everyone", who, d.Roll)
	case ChallengedData:
		return fmt.Sprintf("%s won the challenge against %s: an extra turn, and %s loses one", g.nameOf(d.Winner), g.nameOf(d.Loser), g.nameOf(d.Loser))
	case RolledUntilData:
		if d.Met {
			return fmt.Sprintf("%s rolled %s: done after %d rolls", who, rollWords(d.Rolls), d.Count)
		}
		return fmt.Sprintf("%s rolled %s (%d rolls)", who, rollWords(d.Rolls), d.Count)
	case ItemCheckedData:
		switch {
		case d.Used:
			return fmt.Sprintf("%s used %s", who, d.Item)
		case d.Has:
			return fmt.Sprintf("%s has %s", who, d.Item)
		}
		return fmt.Sprintf("%s does not have %s", who, d.Item)
	case TimedOutData:
		return fmt.Sprintf("%s ran out of time: the default was played (%d in a row)", who, d.Strikes)
	case RemovedData:
		switch d.By {
		case BySelf:
			return fmt.Sprintf("%s left the game", who)
		case ByTimeout:
			return fmt.Sprintf("%s was removed after too many timeouts", who)
		}
		return fmt.Sprintf("%s was removed by the host", who)
	case domain.GameOver:
		names := make([]string, len(d.Winners))
		for i, id := range d.Winners {
			names[i] = g.nameOf(id)
		}
		if d.Reason == ReasonLastPlayer {
			return fmt.Sprintf("%s wins: the last player in the game", domain.JoinNames(names))
		}
		return fmt.Sprintf("%s wins: reached the finish", domain.JoinNames(names))
	}
	return ""
}

var purposeWords = map[string]string{
	PurposeTurnRoll:  " to move",
	PurposeCondition: " for a move condition",
	PurposeRule:      " for a rule",
}

func sayMove(who string, d MovedData) string {
	s := fmt.Sprintf("%s moved from tile %d to tile %d", who, d.From, d.To)
	switch d.Cause {
	case CauseSwap:
		s = fmt.Sprintf("%s swapped places: tile %d to tile %d", who, d.From, d.To)
	case CauseRefight:
		s = fmt.Sprintf("%s went back to refight tile %d", who, d.To)
	case CauseReturn:
		s = fmt.Sprintf("%s returned to tile %d", who, d.To)
	}
	switch d.Stop {
	case StopMandatory:
		s += " (stopped at a mandatory tile)"
	case StopAnchor:
		s += " (anchored)"
	case StopEnd:
		s += " (the finish)"
	}
	return s
}

func sayEffect(g Game, who string, d EffectData) string {
	if d.Target != "" {
		who = g.nameOf(d.Target)
	}
	switch d.Effect {
	case EffectExtraTurns:
		return fmt.Sprintf("%s gains %s", who, count(d.Value, "extra turn"))
	case EffectLostTurns:
		return fmt.Sprintf("%s will lose %s", who, count(d.Value, "turn"))
	case EffectMandatorySkips:
		return fmt.Sprintf("%s may skip %s", who, count(d.Value, "mandatory tile"))
	case EffectMandatoryTile:
		if d.Tile != nil {
			return fmt.Sprintf("tile %d is now mandatory for %s", *d.Tile, who)
		}
		return fmt.Sprintf("%s has a mandatory tile", who)
	case EffectAnchors:
		return fmt.Sprintf("%s gains %s", who, count(d.Value, "anchor"))
	case EffectTurnOrder:
		return "the turn order is reversed"
	case EffectSpeedModifier, EffectRollAugmentation:
		if d.Modifier != nil {
			return fmt.Sprintf("%s's next rolls change: %s%g for %s", who, d.Modifier.Op, d.Modifier.Value, count(d.Modifier.Turns, "turn"))
		}
		return fmt.Sprintf("%s's next rolls change", who)
	case EffectMoveCondition:
		return fmt.Sprintf("%s must meet a condition to move", who)
	case EffectStarter:
		return fmt.Sprintf("%s's starter is %s", who, d.Starter)
	case EffectItemGained:
		return fmt.Sprintf("%s gained %s", who, d.Item)
	case EffectItemLost:
		return fmt.Sprintf("%s lost %s", who, d.Item)
	case EffectItemUsed:
		return fmt.Sprintf("%s used %s", who, d.Item)
	}
	return fmt.Sprintf("%s: %s", who, d.Effect)
}

func rollWords(rolls []int) string {
	parts := make([]string, len(rolls))
	for i, r := range rolls {
		parts[i] = fmt.Sprint(r)
	}
	if len(parts) == 0 {
		return "nothing"
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func count(n int, what string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// nameOf is a player's display name ("a player" when no longer in
// the game).
func (g Game) nameOf(id string) string {
	for _, p := range g.Players {
		if p.ID == id {
			return p.Name
		}
	}
	if id == "" {
		return "the game"
	}
	return "a player"
}
