package codebowl

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Rules is CodeBowl's rule set for the shared pipeline.
type Rules struct{}

var (
	_ domain.Rules[Match]  = Rules{}
	_ domain.Lister[Match] = Rules{}
)

// Kind implements domain.Rules.
func (Rules) Kind() string { return Kind }

// Header implements domain.Rules. Status: waiting while the home coach waits
// for an opponent, active in setup and play, over at the end. Players: the
// home coach, then the away coach once joined. Deadline: the join deadline
// while waiting, the placement or turn deadline in setup and play (none
// without a timer), none when over.
func (Rules) Header(m Match) domain.Header {
	h := domain.Header{Players: []string{m.Home.Coach}, Private: m.Options.Private}
	if m.Away.Coach != "" {
		h.Players = append(h.Players, m.Away.Coach)
	}
	switch m.Phase {
	case PhaseWaiting:
		h.Status, h.Deadline = domain.StatusWaiting, m.JoinDeadline
	case PhaseSetup, PhasePlay:
		h.Status, h.Deadline = domain.StatusActive, m.Deadline
	default:
		h.Status = domain.StatusOver
	}
	return h
}

// Action types Apply handles. (Joining is Join, called by the platform.)
const (
	ActionPlace   = "place"
	ActionMove    = "move"
	ActionStandUp = "standUp"
	ActionEndTurn = "endTurn"
	ActionForfeit = "forfeit"
)

// step is one Apply, Join or Expire call at work on a copy of the match.
type step struct {
	m      Match
	now    time.Time
	dice   domain.Dice
	by     string // the coach id events name: who acted, or whose time ran out
	events []domain.Event
	result any
	// Set while an action resolves:
	turnover string // why the active turn must end at once ("" when it need not)
	scorer   *ref   // a player who scored
}

func newStep(m Match, now time.Time, dice domain.Dice, by string) *step {
	return &step{m: m.clone(), now: now.UTC(), dice: dice, by: by}
}

// emit appends an event; its player is the coach who acted (or timed out).
func (s *step) emit(typ string, data any) {
	s.events = append(s.events, domain.Event{Type: typ, Player: s.by, Data: data})
}

// logf appends a line to the match log, keeping the last LogSize.
func (s *step) logf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if s.m.Phase == PhasePlay && s.m.Active != "" {
		line = fmt.Sprintf("H%d T%d %s: %s", s.m.Half, s.m.Turn, s.m.Active, line)
	}
	if len(s.m.Log) >= LogSize { // the step's clone owns its Log: shift in place
		n := copy(s.m.Log, s.m.Log[len(s.m.Log)-LogSize+1:])
		s.m.Log = s.m.Log[:n]
	}
	s.m.Log = append(s.m.Log, line)
}

func (s *step) outcome() domain.Outcome { return domain.Outcome{Events: s.events, Result: s.result} }

func (s *step) teamName(side Side) string { return s.m.side(side).TeamName }

// roll100 rolls a d100 for an attempt at chance percent.
func (s *step) roll100() int { return s.dice.Roll(100) }

var handlers = map[string]func(*step, Side, json.RawMessage) error{
	ActionPlace:   (*step).place,
	ActionMove:    (*step).move,
	ActionStandUp: (*step).standUp,
	ActionEndTurn: (*step).endTurnAction,
	ActionForfeit: (*step).forfeit,
}

// Apply implements domain.Rules. On an error it returns m unchanged, no
// events, and an *domain.Error:
//
//   - EINVALID: unknown action type, malformed payload, a field at fault
//     (named in the message);
//   - EFORBIDDEN: the actor is not a coach of this match;
//   - ECONFLICT: the wrong moment — the match is waiting or over, not your
//     turn or placement, the player already acted.
func (Rules) Apply(m Match, a domain.Action, env domain.Env) (Match, domain.Outcome, error) {
	h, err := domain.Handler(handlers, a.Type)
	if err != nil {
		return m, domain.Outcome{}, err
	}
	side := m.SideOf(a.Actor.ID)
	if side == "" {
		return m, domain.Outcome{}, domain.Errorf(domain.EFORBIDDEN, "you are not a coach in this match")
	}
	s := newStep(m, env.Now, env.Dice, a.Actor.ID)
	if err := h(s, side, a.Payload); err != nil {
		return m, domain.Outcome{}, err
	}
	return s.m, s.outcome(), nil
}

// phaseCheck refuses an action outside phase want.
func (s *step) phaseCheck(want Phase, what string) error {
	switch s.m.Phase {
	case want:
		return nil
	case PhaseOver:
		return domain.Errorf(domain.ECONFLICT, "the match is over")
	case PhaseWaiting:
		return domain.Errorf(domain.ECONFLICT, "you cannot %s yet: the match is waiting for an opponent", what)
	case PhaseSetup:
		return domain.Errorf(domain.ECONFLICT, "you cannot %s now: the teams are being placed", what)
	case PhasePlay:
		return domain.Errorf(domain.ECONFLICT, "you cannot %s now: the match is in play", what)
	}
	return domain.Errorf(domain.ECONFLICT, "the match is in an unknown phase %q", s.m.Phase)
}

// turnCheck refuses an action of side's outside its turn in play.
func (s *step) turnCheck(side Side, what string) error {
	if err := s.phaseCheck(PhasePlay, what); err != nil {
		return err
	}
	if s.m.Active != side {
		return domain.Errorf(domain.ECONFLICT, "it is not your turn")
	}
	return nil
}

// Expire implements domain.Rules: what happens when Header(m).Deadline
// passes. It works as of that deadline (env.Now must not be before it), so a
// late tick changes nothing:
//
//   - waiting: nobody joined; the match is cancelled with no result.
//   - setup: the placing coach's players are placed in the default
//     formation (Formations()[0]) and setup goes on.
//   - play: the turn ends (reason timeout).
//
// Either counts as a timeout of that coach's; AbandonAfter in a row forfeit
// the match ("abandoned"). The next deadline is the expired one plus the
// timer.
//
// Errors: ECONFLICT (the match is over, has no deadline, or it has not
// passed).
func (r Rules) Expire(m Match, env domain.Env) (Match, domain.Outcome, error) {
	deadline := r.Header(m).Deadline
	if err := domain.Due("the match", m.Phase == PhaseOver, deadline, env.Now); err != nil {
		return m, domain.Outcome{}, err
	}
	s := newStep(m, deadline, env.Dice, m.Home.Coach)
	switch m.Phase {
	case PhaseWaiting:
		s.cancel("noOpponent")
		return s.m, s.outcome(), nil
	case PhaseSetup, PhasePlay:
	default:
		return m, domain.Outcome{}, domain.Errorf(domain.ECONFLICT, "the match is in an unknown phase %q", m.Phase)
	}
	side := s.m.Active
	if m.Phase == PhaseSetup {
		side = s.m.Placing
	}
	ts := s.m.side(side)
	s.by = ts.Coach
	ts.Timeouts++
	s.emit(EventTimedOut, TimedOutData{Side: side, Phase: m.Phase, Timeouts: ts.Timeouts})
	s.logf("%s timed out", ts.TeamName)
	if ts.Timeouts >= AbandonAfter {
		s.emit(EventForfeited, ForfeitedData{Side: side, Reason: ReasonAbandoned})
		s.finish(side.Other(), ReasonAbandoned)
		return s.m, s.outcome(), nil
	}
	if m.Phase == PhaseSetup {
		s.placeAll(side, defaultPlacement(s.m, side), true)
	} else {
		s.endTurn(EndTimeout)
	}
	return s.m, s.outcome(), nil
}

// deadline is the deadline of a turn or placement starting now.
func (s *step) deadline() time.Time {
	if s.m.Options.TurnSeconds <= 0 {
		return time.Time{}
	}
	return s.now.Add(time.Duration(s.m.Options.TurnSeconds) * time.Second)
}

// forfeit: a seated coach leaves. While waiting this cancels the match.
func (s *step) forfeit(side Side, p json.RawMessage) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	switch s.m.Phase {
	case PhaseOver:
		return domain.Errorf(domain.ECONFLICT, "the match is over")
	case PhaseWaiting:
		s.cancel("homeLeft")
		s.result = ForfeitResult{Cancelled: true}
		return nil
	}
	s.emit(EventForfeited, ForfeitedData{Side: side, Reason: ReasonForfeit})
	s.logf("%s forfeits", s.teamName(side))
	s.finish(side.Other(), ReasonForfeit)
	s.result = ForfeitResult{Winner: s.m.Winner}
	return nil
}
