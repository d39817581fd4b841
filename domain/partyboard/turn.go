package partyboard

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Steps of a turn (Game.Next), run in order until one awaits input (ruling 4).
const (
	StepBegin = "begin" // the turn starts: count it, queue the steps below
	StepZone  = "zone"  // an active zone's rule for the player's tile
	StepLead  = "lead"  // the leader zone's rule, if the player leads
	StepLost  = "lost"  // a lost turn ends here
	StepCond  = "cond"  // a move condition with several dice is rolled for first
	StepRoll  = "roll"  // the turn roll, the move and the landing tile's rule
	StepEnd   = "end"   // an extra turn, or the next player
	// Continuations a rule queues in front of the others.
	StepRun  = "run:"  // run:<location> runs that rule (a DiceRollRule's next outcome)
	StepBack = "back:" // back:<tile> returns the player from a refight
)

// proceed runs the next automatic step.
func (s *step) proceed() {
	g := &s.g
	if len(g.Next) == 0 {
		g.Next = []string{StepEnd}
	}
	next := g.Next[0]
	g.Next = g.Next[1:]
	p := &g.Players[g.Current]
	if path, ok := strings.CutPrefix(next, StepRun); ok {
		s.run(path)
		return
	}
	if tile, ok := strings.CutPrefix(next, StepBack); ok {
		if t, err := strconv.Atoi(tile); err == nil {
			s.moveTo(g.Current, t, CauseReturn, "")
		}
		return
	}
	switch next {
	case StepBegin:
		g.Turn++
		g.Next = []string{StepZone, StepLead, StepLost, StepCond, StepRoll, StepEnd}
		z := s.b.zoneOf(p.Tile)
		s.emit(p.ID, EventTurnStarted, TurnStartedData{Turn: g.Turn, Tile: p.Tile,
			Zone: z >= 0 && s.b.Zones[z].Type == ZoneActive, Leader: s.b.leaderZone() >= 0 && s.leads(g.Current)})
	case StepZone:
		// The reference runs the zone rule before the lost-turn check, so a
		// zone rule that costs a turn ("Lose your turn") costs this one.
		if z := s.b.zoneOf(p.Tile); z >= 0 && s.b.Zones[z].Type == ZoneActive {
			s.run(fmt.Sprintf("zones[%d].rule", z))
		}
	case StepLead:
		if z := s.b.leaderZone(); z >= 0 && s.leads(g.Current) {
			s.run(fmt.Sprintf("zones[%d].rule", z))
		}
	case StepLost:
		if p.LostTurns > 0 {
			p.LostTurns--
			drinks := p.LostTurnDrinks
			if p.LostTurns == 0 {
				p.LostTurnDrinks = 0
			}
			s.emit(p.ID, EventTurnLost, TurnLostData{Turn: g.Turn, Remaining: p.LostTurns, Drinks: drinks})
			g.Next = []string{StepEnd}
		}
	case StepCond:
		if c := s.condition(p); c != nil && p.Condition.Dice > 1 {
			r, _ := s.b.RuleAt(p.Condition.Rule)
			s.await(ActionRoll, PurposeCondition, p.Condition.Rule, r, []string{p.ID}).Dice = p.Condition.Dice
			g.Await.Text = c.Description
		}
	case StepRoll:
		w := s.await(ActionRoll, PurposeTurnRoll, "", nil, []string{p.ID})
		w.Dice = 1
		if c := s.condition(p); c != nil {
			w.Text = c.Description
		}
	case StepEnd:
		if p.ExtraTurns > 0 {
			p.ExtraTurns--
			s.emit(p.ID, EventExtraTurn, ExtraTurnData{Remaining: p.ExtraTurns})
		} else {
			s.advance()
		}
		g.Next = []string{StepBegin}
	}
}

// advance passes the turn to the next player still in the game, in turn
// order.
func (s *step) advance() {
	n := len(s.g.Players)
	for range n {
		if s.g.Reversed {
			s.g.Current = (s.g.Current - 1 + n) % n
		} else {
			s.g.Current = (s.g.Current + 1) % n
		}
		if !s.g.Players[s.g.Current].Removed {
			return
		}
	}
}

// leads reports whether player pi is strictly further along than every
// other player still in the game (a tie leads nobody).
func (s *step) leads(pi int) bool {
	for i, q := range s.g.Players {
		if i != pi && !q.Removed && q.Tile >= s.g.Players[pi].Tile {
			return false
		}
	}
	return true
}

// condition returns the move condition on p, clearing one whose rule is gone.
func (s *step) condition(p *Player) *Condition {
	if p.Condition == nil {
		return nil
	}
	r, ok := s.b.RuleAt(p.Condition.Rule)
	if !ok || r.Condition == nil {
		p.Condition = nil
		return nil
	}
	return r.Condition
}

// turnRoll moves the current player by a turn roll: a move condition first
// (ruling 6), then the modifiers (ruling 7), the walk and the landing tile.
func (s *step) turnRoll(roll int) {
	g := &s.g
	pi := g.Current
	p := &g.Players[pi]
	d := RolledData{Purpose: PurposeTurnRoll, Rolls: []int{roll}}
	var cond *ConditionData
	if c := s.condition(p); c != nil && p.Condition.Dice == 1 {
		cd, consequence := s.checkCondition(pi, []int{roll})
		if !cd.CanMove {
			s.emit(p.ID, EventRolled, d)
			s.emit(p.ID, EventCondition, cd)
			if consequence != "" {
				s.run(consequence)
			}
			return
		}
		cond = &cd
	}
	n := s.moveRoll(p, roll)
	d.Spaces = &n
	s.emit(p.ID, EventRolled, d)
	if cond != nil {
		s.emit(p.ID, EventCondition, *cond)
	}
	to, stop, passed := s.walk(pi, n)
	if to == p.Tile {
		return // a roll of 0 (or at the end of the board): no move, no tile rule
	}
	from := p.Tile
	p.Tile = to
	p.Mandatory = slices.DeleteFunc(p.Mandatory, func(t int) bool { return t == to })
	if len(p.Mandatory) == 0 {
		p.Mandatory = nil
	}
	s.stopped(pi)
	s.emit(p.ID, EventMoved, MovedData{From: from, To: to, Cause: CauseRoll, Spaces: n, Stop: stop, Passed: passed})
	path := fmt.Sprintf("tiles[%d].rule", to)
	if to == s.b.last() && s.b.NoFinish() {
		// A board without a GameOverRule: the first to reach the last tile
		// wins. Its rule is shown, not played.
		r := &s.b.Tiles[to].Rule
		s.emit(p.ID, EventRule, RuleData{Rule: path, Type: r.Type, Text: r.DisplayText})
		s.finish(pi, ReasonFinish)
		return
	}
	s.run(path)
}

// moveRoll applies the player's speed modifiers, then roll augmentations, in
// the order gained, each rounding down and never below 0 (ruling 7), and
// counts their turns down.
func (s *step) moveRoll(p *Player, roll int) int {
	v := roll
	use := func(mods []Mod) []Mod {
		var keep []Mod
		for _, m := range mods {
			v = m.apply(v)
			if m.Turns--; m.Turns > 0 {
				keep = append(keep, m)
			}
		}
		return keep
	}
	p.SpeedMods = use(p.SpeedMods)
	p.RollMods = use(p.RollMods)
	return v
}

func (m Mod) apply(v int) int {
	f := float64(v)
	switch m.Op {
	case "*":
		f *= m.Value
	case "+":
		f += m.Value
	case "-":
		f -= m.Value
	case "=":
		f = m.Value
	}
	return int(min(max(0, math.Floor(f)), 1000))
}

// walk moves player pi forward n spaces as a turn roll does and returns the
// tile reached, why it stopped short, and the mandatory tiles it passed with
// skips. It stops at a mandatory tile (the board's or one of the player's
// own) unless a skip is spent, and at another player with an anchor (which
// uses the anchor; skips do not help). Landing on such a tile by the exact
// roll is no stop: it spends nothing.
func (s *step) walk(pi, n int) (to int, stop string, passed []int) {
	p := &s.g.Players[pi]
	pos := p.Tile
	for i := 1; i <= n; i++ {
		if pos >= s.b.last() {
			return pos, StopEnd, passed
		}
		pos++
		if i == n {
			break
		}
		if q := s.anchorAt(pi, pos); q >= 0 {
			s.g.Players[q].Anchors--
			return pos, StopAnchor, passed
		}
		if s.mandatory(p, pos) {
			if p.MandatorySkips > 0 {
				p.MandatorySkips--
				passed = append(passed, pos)
				continue
			}
			return pos, StopMandatory, passed
		}
	}
	return pos, "", passed
}

// mandatory reports whether tile stops player p: the board's mandatory tiles,
// "once" tiles p has not stopped on yet, and tiles AddMandatoryRule gave p.
func (s *step) mandatory(p *Player, tile int) bool {
	t := &s.b.Tiles[tile]
	return t.Mandatory || (t.MandatoryType == MandatoryOnce && !slices.Contains(p.Cleared, tile)) || slices.Contains(p.Mandatory, tile)
}

// anchorAt returns the index of another player with an anchor on tile, -1 for none.
func (s *step) anchorAt(mover, tile int) int {
	for i, q := range s.g.Players {
		if i != mover && !q.Removed && q.Anchors > 0 && q.Tile == tile {
			return i
		}
	}
	return -1
}

// checkCondition applies rolls to player pi's move condition (ruling 6, as
// the reference does): a roll that meets it is a success, and once enough
// succeeded the condition is off and the player may move. A failed roll
// keeps the condition when successes are required (otherwise it is off: the
// next turn is normal). It returns what happened (d.CanMove: the player may
// move now) for the caller to emit and, for a failed roll, the location of
// the consequence to run ("" for none).
func (s *step) checkCondition(pi int, rolls []int) (d ConditionData, consequence string) {
	p := &s.g.Players[pi]
	c := s.condition(p)
	if c == nil {
		return ConditionData{Rolls: rolls, Met: true, CanMove: true, Cleared: true}, ""
	}
	mc := p.Condition
	d = ConditionData{Rule: mc.Rule, Rolls: rolls, Met: c.met(rolls), Required: c.NumSuccessesRequired}
	if d.Met {
		mc.Successes++
		d.CanMove = c.NumSuccessesRequired == 0 || mc.Successes >= c.NumSuccessesRequired
		d.Cleared = d.CanMove
	} else {
		d.Cleared = c.NumSuccessesRequired == 0
		if c.Consequence != nil {
			consequence = mc.Rule + ".condition.consequence"
		}
	}
	d.Successes = mc.Successes
	if d.Cleared {
		p.Condition = nil
	}
	return d, consequence
}
