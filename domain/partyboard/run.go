package partyboard

import (
	"fmt"
	"slices"
	"strconv"
	"time"

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

// others returns the ids of every player still in the game but player pi,
// in turn order.
func (s *step) others(pi int) []string {
	out := make([]string, 0, len(s.g.Players)-1)
	for i, p := range s.g.Players {
		if i != pi && !p.Removed {
			out = append(out, p.ID)
		}
	}
	return out
}

// activeIDs returns the ids of the players still in the game, in turn order.
func (s *step) activeIDs() []string { return s.others(-1) }

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
	if r.LoseItem != "" || r.AcquireItem != "" {
		s.itemsOf(path, r)
	}
	switch r.Type {
	case DisplayRule, TodoRule:
		s.await(ActionConfirm, PurposeRule, path, r, me)
	case SwapPlacesRule:
		var targets []string
		for _, id := range s.others(pi) {
			q := &g.Players[g.Seat(id)]
			if z := s.b.zoneOf(q.Tile); r.Zone == "" || (z >= 0 && s.b.Zones[z].Name == r.Zone) {
				targets = append(targets, id)
			}
		}
		if len(targets) > 0 { // nobody to swap with: nothing happens
			s.await(ActionTarget, PurposeRule, path, r, me).Targets = targets
		}
	case RefightRule:
		s.refight(path, r)
	case ItemRule:
		has := slices.Contains(p.Items, r.Item)
		d := ItemCheckedData{Rule: path, Item: r.Item, Has: has, Used: has && r.Use}
		if d.Used {
			p.Items = dropItem(p.Items, r.Item)
			s.effect(EffectData{Rule: path, Target: p.ID, Effect: EffectItemUsed, Item: r.Item})
		}
		s.emit(p.ID, EventItemChecked, d)
		switch {
		case has && r.IfHas != nil:
			s.run(path + ".ifHas")
		case !has && r.IfNot != nil:
			s.run(path + ".ifNot")
		}
	case GameOverRule:
		s.finish(pi, ReasonFinish)
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
		s.await(ActionStarter, PurposeRule, path, r, s.activeIDs()).Starters = slices.Clone(r.Starters)
	case GroupRollRule:
		for i := range g.Players {
			g.Players[i].GroupRoll = 0
		}
		s.await(ActionGroupRoll, PurposeRule, path, r, s.activeIDs()).Dice = 1
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
				if i != pi && !g.Players[i].Removed && g.Phase == PhasePlaying {
					s.affect(path, r, i)
				}
			}
		default:
			s.affect(path, r, pi)
		}
	}
}

// itemsOf applies a rule's loseItem, then its acquireItem, to the player.
func (s *step) itemsOf(path string, r *Rule) {
	p := s.cur()
	if r.LoseItem != "" {
		lost := p.Items
		if r.LoseItem != AllItems {
			lost = nil
			if slices.Contains(p.Items, r.LoseItem) {
				lost = []string{r.LoseItem}
			}
		}
		for _, it := range slices.Clone(lost) {
			p.Items = dropItem(p.Items, it)
			s.effect(EffectData{Rule: path, Target: p.ID, Effect: EffectItemLost, Item: it})
		}
	}
	if r.AcquireItem != "" && !slices.Contains(p.Items, r.AcquireItem) {
		p.Items = append(p.Items, r.AcquireItem)
		s.effect(EffectData{Rule: path, Target: p.ID, Effect: EffectItemGained, Item: r.AcquireItem})
	}
}

func dropItem(items []string, item string) []string {
	items = slices.DeleteFunc(items, func(it string) bool { return it == item })
	if len(items) == 0 {
		return nil
	}
	return items
}

// refight sends the player back to an earlier tile (RefightRule): the tile
// its tileIndex names, or one of the earlier tiles of its tileKind (the
// nearest, or the player's choice). None: nothing happens.
func (s *step) refight(path string, r *Rule) {
	if r.TileIndex != nil {
		s.refightAt(path, *r.TileIndex)
		return
	}
	p := s.cur()
	var tiles []int // board order
	for i := 0; i < p.Tile; i++ {
		if s.b.Tiles[i].Kind == r.TileKind {
			tiles = append(tiles, i)
		}
	}
	switch {
	case len(tiles) == 0:
	case len(tiles) == 1 || r.Pick == PickNearest:
		s.refightAt(path, tiles[len(tiles)-1])
	default:
		w := s.await(ActionChoose, PurposeRule, path, r, []string{p.ID})
		w.Tiles = tiles
		for _, t := range tiles {
			w.Choices = append(w.Choices, s.b.Tiles[t].Rule.DisplayText)
		}
	}
}

// refightAt moves the player to tile, runs its rule as if they had landed
// there, and queues their return to the tile they came from (StepBack),
// which follows once that rule and everything it leads to is done.
func (s *step) refightAt(path string, tile int) {
	g := &s.g
	pi := g.Current
	origin := g.Players[pi].Tile
	g.Next = append([]string{StepBack + strconv.Itoa(origin)}, g.Next...)
	s.moveTo(pi, tile, CauseRefight, path)
	s.stopped(pi)
	s.run(fmt.Sprintf("tiles[%d].rule", tile))
}

// stopped records that player pi stopped on their tile: a mandatoryType
// "once" tile no longer stops them.
func (s *step) stopped(pi int) {
	p := &s.g.Players[pi]
	if s.b.Tiles[p.Tile].MandatoryType == MandatoryOnce && !slices.Contains(p.Cleared, p.Tile) {
		p.Cleared = append(p.Cleared, p.Tile)
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
	case SwapPlacesRule:
		me := s.cur()
		mine, theirs := me.Tile, t.Tile
		s.moveTo(s.g.Current, theirs, CauseSwap, path)
		s.moveTo(ti, mine, CauseSwap, path)
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
	if s.moveTo(ti, tile, CauseRule, path) && s.b.finishes(s.g.Players[ti].Tile) {
		s.finish(ti, ReasonFinish)
	}
}

// moveTo puts player ti on tile (clamped to the board), running no rule, and
// reports whether they moved.
func (s *step) moveTo(ti, tile int, cause, path string) bool {
	t := &s.g.Players[ti]
	from := t.Tile
	t.Tile = min(max(0, tile), s.b.last())
	if t.Tile == from {
		return false
	}
	s.emit(t.ID, EventMoved, MovedData{From: from, To: t.Tile, Cause: cause, Rule: path})
	return true
}

// finish ends the game with player wi the winner: they reached the finish
// (ReasonFinish) or everyone else is out (ReasonLastPlayer).
func (s *step) finish(wi int, reason string) {
	g := &s.g
	if g.Phase != PhasePlaying {
		return
	}
	g.Phase, g.Winner, g.Await, g.Next, g.Deadline = PhaseOver, g.Players[wi].ID, nil, nil, time.Time{}
	var losers []string
	for i, p := range g.Players {
		if i != wi {
			losers = append(losers, p.ID)
		}
	}
	s.emit(g.Winner, domain.EventGameOver, domain.GameOver{Kind: Kind, Mode: g.BoardID,
		Winners: []string{g.Winner}, Losers: losers, Players: g.PlayerIDs(), Reason: reason})
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
		s.outcomes(w.Rule, r.DiceRolls, rolls)
	case DrinkDuringLostTurnsRule:
		p.LostTurns += rolls[0]
		p.LostTurnDrinks = rolls[len(rolls)-1]
		s.effect(EffectData{Rule: w.Rule, Target: p.ID, Effect: EffectLostTurns, Value: p.LostTurns})
	case RollUntilRule:
		v := rolls[0]
		var met bool
		switch r.Until {
		case UntilRepeat:
			met = len(w.Rolls) > 0 && w.Rolls[len(w.Rolls)-1] == v
		case UntilMatch:
			met = slices.Contains(w.Rolls, v)
		default:
			met = slices.Contains(r.Criteria, v)
		}
		seq := append(slices.Clone(w.Rolls), v)
		if !met && (r.MaxRolls == 0 || len(seq) < r.MaxRolls) {
			w.Rolls = seq
			g.Await = &w // again, until a roll meets the rule
			return
		}
		s.emit(p.ID, EventRolledUntil, RolledUntilData{Rule: w.Rule, Rolls: seq, Count: len(seq), Met: met})
		if !met && r.Consequence != nil {
			s.run(w.Rule + ".consequence")
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
			if g.Players[i].Removed {
				continue
			}
			if (w.Target == "" && i != g.Current) || g.Players[i].ID == w.Target {
				s.relocate(w.Rule, i, g.Players[i].Tile+n)
			}
		}
	}
}

// outcomes runs the outcomes of a DiceRollRule's dice: every outcome the
// rolls meet, in file order (ApplyAll), or the one ApplyFirst picks. The
// first runs now; the others are queued (StepRun) to run once it and any
// input it needs are done.
func (s *step) outcomes(path string, d *DiceRolls, rolls []int) {
	met := Outcomes(d, rolls)
	if len(met) == 0 {
		return
	}
	var more []string
	for _, i := range met[1:] {
		more = append(more, fmt.Sprintf("%s%s.diceRolls.outcomes[%d].rule", StepRun, path, i))
	}
	s.g.Next = append(more, s.g.Next...)
	s.run(fmt.Sprintf("%s.diceRolls.outcomes[%d].rule", path, met[0]))
}

// Outcomes returns the indexes of the outcomes of d that rolls meet, in the
// order they run. An outcome is met when the sum (cumulative) or every die
// (default, allMatch) is in its criteria, or, for an isAny outcome, when one
// die is. With ApplyAll (the default) every met outcome runs, in file order;
// with ApplyFirst only one: the first isAny outcome met (the reference
// returns it at once), else the first met in file order.
func Outcomes(d *DiceRolls, rolls []int) []int {
	if d == nil {
		return nil
	}
	var met []int
	first := -1
	for i, o := range d.Outcomes {
		ok := len(rolls) > 0
		switch {
		case o.IsAny:
			ok = slices.ContainsFunc(rolls, func(v int) bool { return contains(o.Criteria, v) })
		case d.Type == RollsCumulative:
			ok = contains(o.Criteria, sum(rolls))
		default:
			for _, v := range rolls {
				ok = ok && contains(o.Criteria, v)
			}
		}
		if !ok {
			continue
		}
		met = append(met, i)
		if first < 0 || (o.IsAny && !d.Outcomes[first].IsAny) {
			first = i
		}
	}
	if d.Apply == ApplyFirst && first >= 0 {
		return []int{first}
	}
	return met
}

func (s *step) answerChoose(choice *int) error {
	w := s.g.Await
	if choice == nil || *choice < 0 || *choice >= len(w.Choices) {
		return domain.Errorf(domain.EINVALID, "choice must be a number from 0 to %d", len(w.Choices)-1)
	}
	s.g.Await = nil
	d := ChoseData{Rule: w.Rule, Choice: *choice, Text: w.Choices[*choice]}
	if w.RuleType == RefightRule {
		tile := w.Tiles[*choice]
		d.Tile = &tile
		s.emit(s.cur().ID, EventChose, d)
		s.refightAt(w.Rule, tile)
		return nil
	}
	s.emit(s.cur().ID, EventChose, d)
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
	// An extension that puts someone on the finish has made them win.
	for k := range s.g.Players {
		i := (s.g.Current + k) % n
		if p := s.g.Players[i]; !p.Removed && s.b.finishes(p.Tile) {
			s.finish(i, ReasonFinish)
			return
		}
	}
}
