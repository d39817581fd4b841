package partyboard

import (
	"fmt"
	"slices"

	"github.com/meeple-games/meeple/domain"
)

// await makes the game wait for action from players, for the rule at path (r
// may be nil for the turn roll), and returns the Await to fill in.
func (s *step) await(action, purpose, path string, r *Rule, players []string) *Await {
	w := &Await{Action: action, Players: players, Purpose: purpose, Rule: path}
	if r != nil {
		w.RuleType, w.Text = r.Type, r.DisplayText
	}
	s.g.Await = w
	return w
}

func (s *step) cur() *Player { return &s.g.Players[s.g.Current] }

// others returns the ids of every player but player pi, in turn order.
func (s *step) others(pi int) []string {
	out := make([]string, 0, len(s.g.Players)-1)
	for i, p := range s.g.Players {
		if i != pi {
			out = append(out, p.ID)
		}
	}
	return out
}

func (s *step) effect(d EffectData) {
	s.emit(s.cur().ID, EventEffect, d)
}

// run applies the rule at path to the current player (rules always happen
// to the player whose turn it is; targets name the others). A rule that needs
// input leaves s.g.Await set; the answer carries it on. Rules a rule leads to
// (outcomes, choices, consequences) run the same way.
func (s *step) run(path string) {
	r, ok := s.b.RuleAt(path)
	if !ok || s.g.Phase != PhasePlaying {
		return
	}
	g := &s.g
	pi := g.Current
	p := s.cur()
	me := []string{p.ID}
	s.emit(p.ID, EventRule, RuleData{Rule: path, Type: r.Type, Text: r.DisplayText})
	switch r.Type {
	case DisplayRule:
		s.await(ActionConfirm, PurposeRule, path, r, me)
	case GameOverRule:
		s.finish(pi)
	case ExtraTurnRule:
		p.ExtraTurns += max(1, r.NumTurns)
		s.effect(EffectData{Rule: path, Target: p.ID, Effect: EffectExtraTurns, Value: p.ExtraTurns})
	case SkipTurnRule:
		p.LostTurns += r.NumTurns
		s.effect(EffectData{Rule: path, Target: p.ID, Effect: EffectLostTurns, Value: p.LostTurns})
	case SkipNextMandatoryRule:
		p.MandatorySkips += r.NumSpaces
		s.effect(EffectData{Rule: path, Target: p.ID, Effect: EffectMandatorySkips, Value: p.MandatorySkips})
	case AddMandatoryRule:
		if !slices.Contains(p.Mandatory, *r.TileIndex) {
			p.Mandatory = append(p.Mandatory, *r.TileIndex)
		}
		s.effect(EffectData{Rule: path, Target: p.ID, Effect: EffectMandatoryTile, Tile: r.TileIndex})
	case AnchorRule:
		p.Anchors += r.NumTurns
		s.effect(EffectData{Rule: path, Target: p.ID, Effect: EffectAnchors, Value: p.Anchors})
	case ReverseTurnOrderRule:
		g.Reversed = !g.Reversed
		rev := g.Reversed
		s.effect(EffectData{Rule: path, Effect: EffectTurnOrder, Reversed: &rev})
	case ChallengeRule:
		// The reference: the lander picks an opponent, then who won; the
		// winner gains an extra turn and the loser loses one.
		s.await(ActionChallenge, PurposeRule, path, r, me).Targets = append(me[:1:1], s.others(pi)...)
	case StarterSelectionRule:
		s.await(ActionStarter, PurposeRule, path, r, g.PlayerIDs()).Starters = slices.Clone(r.Starters)
	case GroupRollRule:
		for i := range g.Players {
			g.Players[i].GroupRoll = 0
		}
		s.await(ActionGroupRoll, PurposeRule, path, r, g.PlayerIDs()).Dice = 1
	case UpdateStarterRule:
		if len(r.Starters) > 0 {
			p.Starter = r.Starters[0]
			s.effect(EffectData{Rule: path, Target: p.ID, Effect: EffectStarter, Starter: p.Starter})
			break
		}
		s.await(ActionTarget, PurposeRule, path, r, me).Targets = s.others(pi)
	case ChoiceRule:
		if r.DiceRolls != nil { // the reference: roll first (Saffron Gym), then choose
			s.await(ActionRoll, PurposeRule, path, r, me).Dice = r.DiceRolls.NumRequired
			break
		}
		s.awaitChoice(path, r)
	case DiceRollRule, DrinkDuringLostTurnsRule:
		s.await(ActionRoll, PurposeRule, path, r, me).Dice = r.DiceRolls.NumRequired
	case RollUntilRule:
		s.await(ActionRoll, PurposeRule, path, r, me).Dice = 1
	case ProxyRule:
		s.proxy(path, r)
	case MoveRule, SpeedModifierRule, RollAugmentationRule, ApplyMoveConditionRule:
		switch r.PlayerTarget {
		case TargetCustom:
			s.await(ActionTarget, PurposeRule, path, r, me).Targets = s.others(pi)
		case TargetAllOthers:
			if r.Type == MoveRule && r.TileIndex == nil && r.DiceRolls != nil {
				s.await(ActionRoll, PurposeRule, path, r, me).Dice = r.DiceRolls.NumRequired // one roll moves them all
				break
			}
			for i := range g.Players {
				if i != pi && g.Phase == PhasePlaying {
					s.affect(path, r, i)
				}
			}
		default:
			s.affect(path, r, pi)
		}
	}
}

func (s *step) awaitChoice(path string, r *Rule) {
	w := s.await(ActionChoose, PurposeRule, path, r, []string{s.cur().ID})
	for _, c := range r.Choices {
		w.Choices = append(w.Choices, c.Rule.DisplayText)
	}
}

// affect applies a targeted rule to player ti.
func (s *step) affect(path string, r *Rule, ti int) {
	t := &s.g.Players[ti]
	switch r.Type {
	case SpeedModifierRule, RollAugmentationRule:
		m := Mod{Op: r.Modifier.Op, Value: r.Modifier.Value, Turns: max(1, r.NumTurns)}
		effect := EffectSpeedModifier
		if r.Type == SpeedModifierRule {
			t.SpeedMods = append(t.SpeedMods, m)
		} else {
			t.RollMods = append(t.RollMods, m)
			effect = EffectRollAugmentation
		}
		s.effect(EffectData{Rule: path, Target: t.ID, Effect: effect, Modifier: &m})
	case ApplyMoveConditionRule:
		c := r.Condition
		t.Condition = &MoveCondition{Rule: path, Description: c.Description, Required: c.NumSuccessesRequired, Dice: c.dice()}
		s.effect(EffectData{Rule: path, Target: t.ID, Effect: EffectMoveCondition})
		if c.Immediate { // self only (checked at load): roll for it now
			s.await(ActionRoll, PurposeRule, path, r, []string{t.ID}).Dice = c.dice()
		}
	case UpdateStarterRule: // a chosen player: swap starters
		me := s.cur()
		me.Starter, t.Starter = t.Starter, me.Starter
		s.effect(EffectData{Rule: path, Target: me.ID, Effect: EffectStarter, Starter: me.Starter})
		s.effect(EffectData{Rule: path, Target: t.ID, Effect: EffectStarter, Starter: t.Starter})
	case MoveRule:
		switch {
		case r.TileIndex != nil:
			s.relocate(path, ti, *r.TileIndex)
		case r.DiceRolls != nil:
			s.await(ActionRoll, PurposeRule, path, r, []string{s.cur().ID}).Dice = r.DiceRolls.NumRequired
			s.g.Await.Target = t.ID
		default:
			n := r.NumSpaces
			if r.Direction == Back {
				n = -n
			}
			s.relocate(path, ti, t.Tile+n)
		}
	}
}

// relocate puts player ti on tile (clamped to the board) for a MoveRule. As in
// the reference, the tile's rule does not run and mandatory tiles and anchors
// do not stop the move, with one exception: a player moved onto a tile with a
// GameOverRule has reached the finish and wins.
func (s *step) relocate(path string, ti, tile int) {
	t := &s.g.Players[ti]
	from := t.Tile
	t.Tile = min(max(0, tile), s.b.last())
	if t.Tile == from {
		return
	}
	s.emit(t.ID, EventMoved, MovedData{From: from, To: t.Tile, Cause: "rule", Rule: path})
	if s.b.Tiles[t.Tile].Rule.Type == GameOverRule {
		s.finish(ti)
	}
}

// finish ends the game with player wi the winner.
func (s *step) finish(wi int) {
	g := &s.g
	if g.Phase != PhasePlaying {
		return
	}
	g.Phase, g.Winner, g.Await, g.Next = PhaseOver, g.Players[wi].ID, nil, nil
	var losers []string
	for i, p := range g.Players {
		if i != wi {
			losers = append(losers, p.ID)
		}
	}
	s.emit(g.Winner, domain.EventGameOver, domain.GameOver{Kind: Kind, Mode: g.BoardID,
		Winners: []string{g.Winner}, Losers: losers, Players: g.PlayerIDs(), Reason: "finish"})
}

// rollDice rolls n dice for the current input.
func (s *step) rollDice(n int) []int {
	out := make([]int, max(1, n))
	for i := range out {
		out[i] = s.dice.Roll(6)
	}
	s.g.LastRolls = out
	return out
}

// answerRoll rolls what the game awaits and carries on.
func (s *step) answerRoll() {
	g := &s.g
	w := *g.Await
	g.Await = nil
	rolls := s.rollDice(w.Dice)
	p := s.cur()
	defer func() { s.result = RollResult{Purpose: w.Purpose, Rolls: rolls, Tile: p.Tile} }()
	switch w.Purpose {
	case PurposeTurnRoll:
		s.turnRoll(rolls[0])
		return
	case PurposeCondition:
		s.emit(p.ID, EventRolled, RolledData{Purpose: w.Purpose, Rule: w.Rule, Rolls: rolls})
		d, consequence := s.checkCondition(g.Current, rolls)
		s.emit(p.ID, EventCondition, d)
		if !d.CanMove {
			g.Next = []string{StepEnd} // no turn roll this turn
			if consequence != "" {
				s.run(consequence)
			}
		}
		return
	}
	s.emit(p.ID, EventRolled, RolledData{Purpose: w.Purpose, Rule: w.Rule, Rolls: rolls})
	r, ok := s.b.RuleAt(w.Rule)
	if !ok {
		return
	}
	switch r.Type {
	case DiceRollRule:
		if i := outcome(r.DiceRolls, rolls); i >= 0 {
			s.run(fmt.Sprintf("%s.diceRolls.outcomes[%d].rule", w.Rule, i))
		}
	case DrinkDuringLostTurnsRule:
		p.LostTurns += rolls[0]
		p.LostTurnDrinks = rolls[len(rolls)-1]
		s.effect(EffectData{Rule: w.Rule, Target: p.ID, Effect: EffectLostTurns, Value: p.LostTurns})
	case RollUntilRule:
		if !slices.Contains(r.Criteria, rolls[0]) {
			g.Await = &w // again, until a roll meets the criteria
		}
	case ChoiceRule:
		s.awaitChoice(w.Rule, r)
	case ApplyMoveConditionRule: // an immediate condition: it counts, but no move now
		d, consequence := s.checkCondition(g.Current, rolls)
		s.emit(p.ID, EventCondition, d)
		if consequence != "" {
			s.run(consequence)
		}
	case MoveRule:
		n := sum(rolls)
		if r.Direction == Back {
			n = -n
		}
		for i := range g.Players {
			if g.Phase != PhasePlaying {
				break // someone was moved onto the finish
			}
			if (w.Target == "" && i != g.Current) || g.Players[i].ID == w.Target {
				s.relocate(w.Rule, i, g.Players[i].Tile+n)
			}
		}
	}
}

// outcome returns the index of the outcome rolls meet, -1 for none. An isAny
// outcome needs one die in its criteria and wins over the others (the
// reference returns it at once); otherwise the first outcome, in file order,
// that the sum (cumulative) or every die (default, allMatch) meets.
func outcome(d *DiceRolls, rolls []int) int {
	if d == nil {
		return -1
	}
	for i, o := range d.Outcomes {
		if o.IsAny && slices.ContainsFunc(rolls, func(v int) bool { return contains(o.Criteria, v) }) {
			return i
		}
	}
	for i, o := range d.Outcomes {
		if o.IsAny {
			continue
		}
		met := len(rolls) > 0
		if d.Type == RollsCumulative {
			met = contains(o.Criteria, sum(rolls))
		} else {
			for _, v := range rolls {
				met = met && contains(o.Criteria, v)
			}
		}
		if met {
			return i
		}
	}
	return -1
}

func (s *step) answerChoose(choice *int) error {
	w := s.g.Await
	if choice == nil || *choice < 0 || *choice >= len(w.Choices) {
		return domain.Errorf(domain.EINVALID, "choice must be a number from 0 to %d", len(w.Choices)-1)
	}
	s.g.Await = nil
	s.emit(s.cur().ID, EventChose, ChoseData{Rule: w.Rule, Choice: *choice, Text: w.Choices[*choice]})
	s.run(fmt.Sprintf("%s.choices[%d].rule", w.Rule, *choice))
	return nil
}

func (s *step) answerTarget(id string) error {
	w := s.g.Await
	if !slices.Contains(w.Targets, id) {
		return domain.Errorf(domain.EINVALID, "playerId must be one of %v", w.Targets)
	}
	r, ok := s.b.RuleAt(w.Rule)
	s.g.Await = nil
	s.emit(s.cur().ID, EventTargeted, TargetedData{Rule: w.Rule, Target: id})
	if ok {
		s.affect(w.Rule, r, s.g.Seat(id))
	}
	return nil
}

func (s *step) answerChallenge(winner, loser string) error {
	w := s.g.Await
	me := s.cur().ID
	if !slices.Contains(w.Targets, winner) || !slices.Contains(w.Targets, loser) || winner == loser || (winner != me && loser != me) {
		return domain.Errorf(domain.EINVALID, "winner and loser must be you and the player you challenged (one of %v)", w.Targets[1:])
	}
	s.g.Await = nil
	wi, li := s.g.Seat(winner), s.g.Seat(loser)
	s.g.Players[wi].ExtraTurns++
	s.g.Players[li].LostTurns++
	s.emit(me, EventChallenged, ChallengedData{Rule: w.Rule, Winner: winner, Loser: loser})
	return nil
}

func (s *step) answerStarter(pi int, starter string) error {
	w := s.g.Await
	if !slices.Contains(w.Starters, starter) {
		return domain.Errorf(domain.EINVALID, "starter must be one of %v", w.Starters)
	}
	p := &s.g.Players[pi]
	p.Starter = starter
	s.emit(p.ID, EventStarterChosen, StarterChosenData{Starter: starter})
	s.answered(p.ID)
	return nil
}

func (s *step) answerGroupRoll(pi int) {
	w := s.g.Await
	rolls := s.rollDice(1)
	p := &s.g.Players[pi]
	p.GroupRoll = rolls[0]
	s.emit(p.ID, EventGroupRolled, GroupRolledData{Rule: w.Rule, Roll: rolls[0]})
	s.result = RollResult{Purpose: w.Purpose, Rolls: rolls, Tile: p.Tile}
	s.answered(p.ID)
}

// answered takes a player off a group input; the last answer ends it.
func (s *step) answered(id string) {
	w := s.g.Await
	w.Players = slices.DeleteFunc(w.Players, func(p string) bool { return p == id })
	if len(w.Players) == 0 {
		s.g.Await = nil
	}
}

// proxy runs a board extension's rule (ruling 8) and keeps what it did
// within the board.
func (s *step) proxy(path string, r *Rule) {
	f, ok := proxyRule(r.ProxyRuleID)
	if !ok {
		return // LoadBoard refuses such a board
	}
	n := len(s.g.Players)
	f(&ProxyCall{Game: &s.g, Board: s.b, Player: s.g.Current, Rule: r, Path: path, Dice: s.dice, step: s})
	if len(s.g.Players) != n {
		panic(fmt.Sprintf("partyboard: proxy rule %q added or removed players", r.ProxyRuleID))
	}
	for i := range s.g.Players {
		p := &s.g.Players[i]
		p.Tile = min(max(0, p.Tile), s.b.last())
		p.LostTurns, p.ExtraTurns = max(0, p.LostTurns), max(0, p.ExtraTurns)
		p.MandatorySkips, p.Anchors = max(0, p.MandatorySkips), max(0, p.Anchors)
	}
}
