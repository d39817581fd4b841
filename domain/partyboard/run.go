package partyboard

import (
	"fmt"
	"slices"

	"github.com/meeple-games/meeple/domain"
)

// wait makes the game wait for input on the rule at path.
func (s *step) wait(action, path string, r *Rule, players []string) *Await {
	s.g.Await = &Await{Action: action, Players: players, Purpose: "rule", Rule: path, Text: r.DisplayText}
	return s.g.Await
}

// run applies the rule at path to player pi (the player it happened to). A
// rule that needs input leaves s.g.Await set; otherwise it is done.
func (s *step) run(path string, pi int) {
	r, ok := s.b.RuleAt(path)
	if !ok {
		return
	}
	g := &s.g
	p := &g.Players[pi]
	me := []string{p.ID}
	s.emit(p.ID, "rule", map[string]any{"rule": path, "type": r.Type, "text": r.DisplayText})
	switch r.Type {
	case DisplayRule:
		s.wait(ActionConfirm, path, r, me)
	case ChallengeRule:
		w := s.wait(ActionChallenge, path, r, me)
		w.Targets = g.ids()
	case GameOverRule:
		g.Phase, g.Winner, g.Await, g.Then = PhaseOver, p.ID, nil, nil
		var losers []string
		for _, i := range s.others(pi) {
			losers = append(losers, g.Players[i].ID)
		}
		s.emit(p.ID, domain.EventGameOver, domain.GameOver{Kind: Kind, Mode: g.BoardID, Winners: []string{p.ID},
			Losers: losers, Players: g.ids(), Reason: "finish"})
	case ExtraTurnRule:
		p.ExtraTurns += max(1, r.NumTurns)
	case SkipTurnRule:
		p.LostTurns += r.NumTurns
	case SkipNextMandatoryRule:
		p.SkipMandatory += r.NumSpaces
	case AddMandatoryRule:
		p.Mandatory = append(p.Mandatory, *r.TileIndex)
	case AnchorRule:
		p.Anchors += r.NumTurns
	case ReverseTurnOrderRule:
		g.Reversed = !g.Reversed
	case UpdateStarterRule:
		if len(r.Starters) > 0 {
			p.Starter = r.Starters[0]
			break
		}
		w := s.wait(ActionTarget, path, r, me)
		w.Targets = s.targetIDs(pi)
	case StarterSelectionRule:
		w := s.wait(ActionStarter, path, r, g.ids())
		w.Starters = append([]string(nil), r.Starters...)
	case GroupRollRule:
		s.wait(ActionGroupRoll, path, r, g.ids())
	case ChoiceRule:
		w := s.wait(ActionChoose, path, r, me)
		for _, c := range r.Choices {
			w.Choices = append(w.Choices, c.Rule.DisplayText)
		}
	case DiceRollRule, DrinkDuringLostTurnsRule:
		w := s.wait(ActionRoll, path, r, me)
		w.Dice = r.DiceRolls.NumRequired
	case RollUntilRule:
		w := s.wait(ActionRoll, path, r, me)
		w.Dice = 1
	case MoveRule, SpeedModifierRule, RollAugmentationRule, ApplyMoveConditionRule:
		switch r.PlayerTarget {
		case TargetCustom:
			w := s.wait(ActionTarget, path, r, me)
			w.Targets = s.targetIDs(pi)
		case TargetAllOthers:
			for _, i := range s.others(pi) {
				s.affect(path, r, i)
			}
		default:
			s.affect(path, r, pi)
		}
	}
}

// targetIDs are the players a custom target may name: everyone else.
func (s *step) targetIDs(pi int) []string {
	var out []string
	for _, i := range s.others(pi) {
		out = append(out, s.g.Players[i].ID)
	}
	return out
}

// affect applies a targeted rule to player ti.
func (s *step) affect(path string, r *Rule, ti int) {
	t := &s.g.Players[ti]
	switch r.Type {
	case SpeedModifierRule, RollAugmentationRule:
		if r.Modifier != nil {
			t.SpeedMods = append(t.SpeedMods, SpeedMod{Op: r.Modifier.Op, Value: r.Modifier.Value, Turns: max(1, r.NumTurns)})
		}
	case ApplyMoveConditionRule:
		t.Condition = &MoveCheck{Rule: path}
	case UpdateStarterRule:
		me := s.cur()
		me.Starter, t.Starter = t.Starter, me.Starter
	case MoveRule:
		switch {
		case r.TileIndex != nil:
			from := t.Tile
			t.Tile = min(*r.TileIndex, s.last())
			t.Condition = nil
			s.emit(t.ID, "moved", map[string]any{"from": from, "to": t.Tile})
		case r.DiceRolls != nil:
			w := s.wait(ActionRoll, path, r, []string{s.cur().ID})
			w.Dice = r.DiceRolls.NumRequired
			w.Targets = []string{t.ID}
		default:
			n := r.NumSpaces
			if r.Direction == "back" {
				n = -n
			}
			s.moveBy(ti, n)
		}
	}
}

// answer applies the awaited input a.
func (s *step) answer(a domain.Action) error {
	g := &s.g
	w := *g.Await
	pi := g.seat(a.Actor.ID)
	switch w.Action {
	case ActionRoll:
		return s.answerRoll(w, pi)
	case ActionConfirm:
		g.Await = nil
	case ActionChoose:
		var req struct {
			Choice *int `json:"choice"`
		}
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return err
		}
		if req.Choice == nil || *req.Choice < 0 || *req.Choice >= len(w.Choices) {
			return domain.Errorf(domain.EINVALID, "choice must be a number from 0 to %d", len(w.Choices)-1)
		}
		g.Await = nil
		s.result = map[string]any{"choice": *req.Choice}
		s.run(fmt.Sprintf("%s.choices[%d].rule", w.Rule, *req.Choice), g.Current)
	case ActionTarget:
		var req struct {
			PlayerID string `json:"playerId"`
		}
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return err
		}
		if !slices.Contains(w.Targets, req.PlayerID) {
			return domain.Errorf(domain.EINVALID, "playerId must be one of %v", w.Targets)
		}
		g.Await = nil
		r, _ := s.b.RuleAt(w.Rule)
		s.affect(w.Rule, r, g.seat(req.PlayerID))
	case ActionChallenge:
		var req struct {
			Winner string `json:"winner"`
			Loser  string `json:"loser"`
		}
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return err
		}
		wi, li := g.seat(req.Winner), g.seat(req.Loser)
		if wi < 0 || li < 0 || wi == li {
			return domain.Errorf(domain.EINVALID, "winner and loser must be two different players of this game")
		}
		// Seed: first to finish gets an extra turn, last to finish loses one.
		g.Players[wi].ExtraTurns++
		g.Players[li].LostTurns++
		g.Await = nil
	case ActionStarter:
		var req struct {
			Starter string `json:"starter"`
		}
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return err
		}
		if !slices.Contains(w.Starters, req.Starter) {
			return domain.Errorf(domain.EINVALID, "starter must be one of %v", w.Starters)
		}
		g.Players[pi].Starter = req.Starter
		s.answered(a.Actor.ID)
	case ActionGroupRoll:
		v := s.roll(1)[0]
		g.Players[pi].GroupRoll = v
		s.result = map[string]any{"roll": v}
		s.emit(a.Actor.ID, "groupRolled", map[string]any{"roll": v})
		s.answered(a.Actor.ID)
	}
	return nil
}

// answered removes a player from a group input; the last answer ends it.
func (s *step) answered(id string) {
	w := s.g.Await
	w.Players = slices.DeleteFunc(w.Players, func(p string) bool { return p == id })
	if len(w.Players) == 0 {
		s.g.Await = nil
	}
}

func (s *step) answerRoll(w Await, pi int) error {
	g := &s.g
	if w.Purpose == "turnRoll" {
		p := s.cur()
		roll := s.roll(1)[0]
		s.result = map[string]any{"roll": roll}
		s.emit(p.ID, "rolled", map[string]any{"rolls": []int{roll}, "purpose": "turnRoll"})
		g.Await = nil
		if p.Condition != nil {
			if !s.checkCondition(g.Current, roll) {
				return nil
			}
		}
		n := s.moveRoll(p, roll)
		s.land(g.Current, s.walk(g.Current, n))
		return nil
	}
	r, _ := s.b.RuleAt(w.Rule)
	rolls := s.roll(max(1, w.Dice))
	s.result = map[string]any{"rolls": rolls}
	s.emit(g.Players[pi].ID, "rolled", map[string]any{"rolls": rolls, "rule": w.Rule})
	g.Await = nil
	switch r.Type {
	case RollUntilRule:
		if !slices.Contains(r.Criteria, rolls[0]) {
			g.Await = &w // roll again
		}
	case DrinkDuringLostTurnsRule:
		s.cur().LostTurns += rolls[0]
	case MoveRule:
		sum := 0
		for _, v := range rolls {
			sum += v
		}
		if r.Direction == "back" {
			sum = -sum
		}
		if len(w.Targets) == 1 {
			s.moveBy(g.seat(w.Targets[0]), sum)
		}
	case DiceRollRule, ChoiceRule:
		if r.DiceRolls == nil {
			return nil
		}
		for i, o := range r.DiceRolls.Outcomes {
			if matches(r.DiceRolls.Type, o, rolls) {
				s.run(fmt.Sprintf("%s.diceRolls.outcomes[%d].rule", w.Rule, i), g.Current)
				break
			}
		}
	}
	return nil
}

// matches says whether rolls meet an outcome: default — every roll is in the
// criteria (isAny: at least one); cumulative — the sum is; allMatch — every
// roll shows the same number and it is in the criteria.
func matches(typ string, o Outcome, rolls []int) bool {
	switch typ {
	case RollsCumulative:
		sum := 0
		for _, v := range rolls {
			sum += v
		}
		return slices.Contains(o.Criteria, sum)
	case RollsAllMatch:
		for _, v := range rolls {
			if v != rolls[0] {
				return false
			}
		}
		return slices.Contains(o.Criteria, rolls[0])
	}
	hits := 0
	for _, v := range rolls {
		if slices.Contains(o.Criteria, v) {
			hits++
		}
	}
	if o.IsAny {
		return hits > 0
	}
	return hits == len(rolls)
}

// checkCondition applies a move condition to a turn roll (ruling 6): a roll
// that meets it counts as a success, and once enough succeeded the player
// moves; a failed roll runs the consequence and the player does not move.
func (s *step) checkCondition(pi, roll int) bool {
	p := &s.g.Players[pi]
	r, ok := s.b.RuleAt(p.Condition.Rule)
	if !ok || r.Condition == nil {
		p.Condition = nil
		return true
	}
	if slices.Contains(r.Condition.Criteria, roll) {
		p.Condition.Successes++
		if p.Condition.Successes >= max(1, r.Condition.NumSuccessesRequired) {
			p.Condition = nil
			return true
		}
		return false
	}
	path := p.Condition.Rule
	if r.Condition.Consequence != nil {
		s.run(path+".condition.consequence", pi)
	}
	return false
}
