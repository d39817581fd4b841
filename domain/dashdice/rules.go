package dashdice

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Rules is DashDice's rule set for the shared pipeline.
type Rules struct{}

var _ domain.Rules[Match] = Rules{}

// Kind implements domain.Rules.
func (Rules) Kind() string { return Kind }

// Header implements domain.Rules. Status: waiting while the host waits for an
// opponent, active in turnDecider and gameplay, over in gameOver. Deadline is
// the join deadline while waiting and the turn deadline (the odd/even call's
// in turnDecider) after that; zero when the match has no timer or is over.
func (Rules) Header(m Match) domain.Header {
	h := domain.Header{Players: []string{m.Host.ID}, Private: m.Private}
	if m.Opponent != nil {
		h.Players = append(h.Players, m.Opponent.ID)
	}
	switch m.Phase {
	case PhaseWaiting:
		h.Status, h.Deadline = domain.StatusWaiting, m.JoinDeadline
	case PhaseTurnDecider, PhaseGameplay:
		h.Status, h.Deadline = domain.StatusActive, m.TurnDeadline
	default:
		h.Status = domain.StatusOver
	}
	return h
}

// Action types Apply handles.
const (
	ActionJoin    = "join"
	ActionCall    = "call"
	ActionRoll    = "roll"
	ActionBank    = "bank"
	ActionForfeit = "forfeit"
	ActionRematch = "rematch"
)

// step is one Apply or Expire call at work on a copy of the match.
type step struct {
	m      Match
	now    time.Time
	dice   domain.Dice
	events []domain.Event
	result any
	spawn  []domain.Spawn
}

func (s *step) emit(player, typ string, data any) {
	s.events = append(s.events, domain.Event{Type: typ, Player: player, Data: data})
}

func (s *step) outcome() domain.Outcome {
	return domain.Outcome{Events: s.events, Result: s.result, Spawn: s.spawn}
}

var handlers = map[string]func(*step, domain.Actor, json.RawMessage) error{
	ActionJoin:    (*step).join,
	ActionCall:    (*step).call,
	ActionRoll:    (*step).roll,
	ActionBank:    (*step).bank,
	ActionForfeit: (*step).forfeit,
	ActionRematch: (*step).rematch,
}

// Apply implements domain.Rules. On an error it returns m unchanged.
func (Rules) Apply(m Match, a domain.Action, env domain.Env) (Match, domain.Outcome, error) {
	h, err := domain.Handler(handlers, a.Type)
	if err != nil {
		return m, domain.Outcome{}, err
	}
	s := &step{m: m.clone(), now: env.Now.UTC(), dice: env.Dice}
	if err := h(s, a.Actor, a.Payload); err != nil {
		return m, domain.Outcome{}, err
	}
	return s.m, s.outcome(), nil
}

// Expire implements domain.Rules: what happens when Header(m).Deadline passes.
// It works as of that deadline (env.Now must not be before it), so a late tick
// changes nothing:
//
//   - waiting: nobody joined; the match is cancelled with no result.
//   - turnDecider: the opponent did not call; the host starts. It counts as a
//     timeout of the opponent's.
//   - gameplay: the turn ends as if the player banked (True Grit: as if a single
//     1 was rolled, which banks the turn score). A player whose turns time out
//     AbandonAfter times in a row with no action of theirs forfeits ("abandoned").
//
// The next deadline is the expired one plus the turn timer.
func (r Rules) Expire(m Match, env domain.Env) (Match, domain.Outcome, error) {
	deadline := r.Header(m).Deadline
	if err := domain.Due("the match", m.Phase == PhaseGameOver, deadline, env.Now); err != nil {
		return m, domain.Outcome{}, err
	}
	s := &step{m: m.clone(), now: deadline.UTC(), dice: env.Dice}
	switch m.Phase {
	case PhaseWaiting:
		s.cancel("noOpponent")
	case PhaseTurnDecider:
		opp := s.m.Opponent
		opp.Timeouts++
		s.emit(opp.ID, EventTimedOut, TimedOutData{Phase: PhaseTurnDecider, Seat: SeatOpponent, Timeouts: opp.Timeouts})
		s.m.FirstTurn = SeatHost
		s.emit(opp.ID, EventCalled, CalledData{FirstTurn: SeatHost})
		s.m.Phase = PhaseGameplay
		s.startTurn(SeatHost)
	case PhaseGameplay:
		seat := s.m.CurrentTurn
		p := s.m.player(seat)
		p.Timeouts++
		s.emit(p.ID, EventTimedOut, TimedOutData{Phase: PhaseGameplay, Seat: seat, Timeouts: p.Timeouts})
		s.bankTurn(seat, EndTimeout) // True Grit: as a single 1 does, this banks the turn score
		switch {
		case s.m.Phase == PhaseGameOver: // the bank reached the goal
		case p.Timeouts >= AbandonAfter:
			s.emit(p.ID, EventForfeited, ForfeitedData{Seat: seat, Reason: ReasonAbandoned})
			s.finish(seat.Other(), ReasonAbandoned)
		default:
			s.endTurn(EndTimeout)
		}
	default:
		return m, domain.Outcome{}, domain.Errorf(domain.ECONFLICT, "the match is in an unknown phase %q", m.Phase)
	}
	return s.m, s.outcome(), nil
}

// seated returns the actor's seat, EFORBIDDEN when they have none.
func (s *step) seated(a domain.Actor) (Seat, error) {
	seat := s.m.SeatOf(a.ID)
	if seat == "" {
		return "", domain.Errorf(domain.EFORBIDDEN, "you are not a player in this match")
	}
	return seat, nil
}

// playing checks that the actor may roll or bank now and returns their seat.
func (s *step) playing(a domain.Actor, what string) (Seat, error) {
	seat, err := s.seated(a)
	if err != nil {
		return "", err
	}
	switch s.m.Phase {
	case PhaseGameOver:
		return "", domain.Errorf(domain.ECONFLICT, "the match is over")
	case PhaseWaiting:
		return "", domain.Errorf(domain.ECONFLICT, "you cannot %s yet: the match is waiting for an opponent", what)
	case PhaseTurnDecider:
		return "", domain.Errorf(domain.ECONFLICT, "you cannot %s yet: the opponent must first call odd or even", what)
	}
	if s.m.CurrentTurn != seat {
		return "", domain.Errorf(domain.ECONFLICT, "it is not your turn")
	}
	return seat, nil
}

func (s *step) join(a domain.Actor, p json.RawMessage) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	if a.ID == "" {
		return domain.Errorf(domain.EINVALID, "a player id is required to join")
	}
	switch {
	case s.m.SeatOf(a.ID) != "":
		return domain.Errorf(domain.ECONFLICT, "you are already in this match")
	case s.m.Phase == PhaseGameOver:
		return domain.Errorf(domain.ECONFLICT, "the match is over")
	case s.m.Phase != PhaseWaiting || s.m.Opponent != nil:
		return domain.Errorf(domain.ECONFLICT, "the match is full")
	}
	s.m.Opponent = &Player{ID: a.ID, Name: a.Name, Score: s.m.Mode.StartingScore}
	s.m.Phase = PhaseTurnDecider
	s.m.JoinDeadline = time.Time{}
	s.m.TurnDeadline = s.deadline()
	s.emit(a.ID, EventJoined, JoinedData{Seat: SeatOpponent, Name: a.Name})
	s.result = JoinResult{Seat: SeatOpponent, Phase: PhaseTurnDecider}
	return nil
}

func (s *step) call(a domain.Actor, p json.RawMessage) error {
	var req CallRequest
	if err := domain.DecodePayload(p, &req); err != nil {
		return err
	}
	call := strings.ToLower(strings.TrimSpace(req.Call))
	if call != "odd" && call != "even" {
		return domain.Errorf(domain.EINVALID, `call must be "odd" or "even", not %q`, req.Call)
	}
	seat, err := s.seated(a)
	if err != nil {
		return err
	}
	switch {
	case s.m.Phase == PhaseGameOver:
		return domain.Errorf(domain.ECONFLICT, "the match is over")
	case s.m.Phase != PhaseTurnDecider:
		return domain.Errorf(domain.ECONFLICT, "there is nothing to call: the match is in phase %s", s.m.Phase)
	case seat != SeatOpponent:
		return domain.Errorf(domain.ECONFLICT, "only the opponent calls odd or even")
	}
	die := s.dice.Roll(6)
	correct := (die%2 == 1) == (call == "odd")
	first := SeatHost
	if correct {
		first = SeatOpponent
	}
	s.m.Opponent.Timeouts = 0
	s.m.Call, s.m.DeciderDie, s.m.FirstTurn = call, die, first
	s.emit(a.ID, EventCalled, CalledData{Call: call, Die: die, Correct: correct, FirstTurn: first})
	s.m.Phase = PhaseGameplay
	s.startTurn(first)
	s.result = CallResult{Die: die, Correct: correct, FirstTurn: first}
	return nil
}

// effect is what one roll does under a rule set.
type effect struct {
	points     int    // added to the turn score
	gift       int    // added to the opponent's banked score (Zero Hour)
	multiplier int    // the multiplier afterwards
	lose       bool   // the turn score is lost
	reset      bool   // the banked score goes back to 0 (Classic double six)
	bank       bool   // the turn score is banked before the turn ends
	end        string // why the turn ends; "" when it goes on
}

// rollEffect applies rule set rs to dice a, b rolled with multiplier mult.
func rollEffect(rs string, a, b, mult int) effect {
	sum := a + b
	class := Classify(a, b)
	switch rs {
	case RuleSetClassic:
		switch class {
		case ClassSingleOne:
			return effect{lose: true, end: EndSingleOne, multiplier: 1}
		case ClassDoubleSix:
			return effect{lose: true, reset: true, end: EndDoubleSix, multiplier: 1}
		case ClassSnakeEyes:
			return effect{points: 20, multiplier: mult}
		case ClassDouble:
			return effect{points: sum, multiplier: 2}
		}
		return effect{points: sum * mult, multiplier: mult}
	case RuleSetZeroHour:
		switch class {
		case ClassSingleOne:
			return effect{lose: true, end: EndSingleOne, multiplier: 1}
		case ClassSnakeEyes:
			return effect{points: 20, gift: 20, multiplier: 2}
		case ClassDouble, ClassDoubleSix:
			return effect{points: sum, gift: sum, multiplier: 2}
		}
		return effect{points: sum * mult, multiplier: mult}
	case RuleSetLastLine:
		switch class {
		case ClassSingleOne:
			return effect{bank: true, end: EndSingleOne, multiplier: 1}
		case ClassSnakeEyes:
			return effect{points: 20, multiplier: mult}
		case ClassDouble, ClassDoubleSix:
			return effect{points: sum * 2, multiplier: 2}
		}
		return effect{points: sum * mult, multiplier: mult}
	case RuleSetTrueGrit:
		switch class {
		case ClassSingleOne:
			return effect{bank: true, end: EndSingleOne, multiplier: 1}
		case ClassSnakeEyes:
			return effect{points: 20, multiplier: 7}
		case ClassDouble, ClassDoubleSix:
			return effect{points: sum * mult, multiplier: a}
		}
		return effect{points: sum * mult, multiplier: mult}
	}
	panic("dashdice: unknown rule set " + rs) // NewMatch validated the mode
}

func (s *step) roll(a domain.Actor, p json.RawMessage) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	seat, err := s.playing(a, "roll")
	if err != nil {
		return err
	}
	if !knownRuleSet(s.m.Mode.RuleSet) {
		return domain.Errorf(domain.ECONFLICT, "the match has an unknown rule set %q", s.m.Mode.RuleSet)
	}
	me, opp := s.m.player(seat), s.m.player(seat.Other())
	me.Timeouts = 0
	d1, d2 := s.dice.Roll(6), s.dice.Roll(6)
	e := rollEffect(s.m.Mode.RuleSet, d1, d2, s.m.Multiplier)
	s.m.Dice, s.m.RollClass = [2]int{d1, d2}, Classify(d1, d2)
	s.m.TurnRolls++
	s.m.TurnScore += e.points
	s.m.Multiplier = e.multiplier
	opp.Score += e.gift
	if e.lose {
		s.m.TurnScore = 0
	}
	if e.reset {
		me.Score = 0
	}
	s.emit(a.ID, EventRolled, RolledData{
		Dice: s.m.Dice, Class: s.m.RollClass, Points: e.points, TurnScore: s.m.TurnScore, Multiplier: e.multiplier,
		OpponentPoints: e.gift, ScoreReset: e.reset, TurnOver: e.end != "",
	})
	res := RollResult{Dice: s.m.Dice, Class: s.m.RollClass, Points: e.points, TurnScore: s.m.TurnScore,
		Multiplier: e.multiplier, TurnOver: e.end != ""}
	if e.end != "" {
		if e.bank {
			s.bankTurn(seat, e.end)
		}
		if s.m.Phase == PhaseGameplay {
			s.endTurn(e.end)
		}
	}
	res.Score = me.Score
	res.GameOver = s.m.Phase == PhaseGameOver
	s.result = res
	return nil
}

func knownRuleSet(rs string) bool {
	switch rs {
	case RuleSetClassic, RuleSetZeroHour, RuleSetLastLine, RuleSetTrueGrit:
		return true
	}
	return false
}

func (s *step) bank(a domain.Actor, p json.RawMessage) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	seat, err := s.playing(a, "bank")
	if err != nil {
		return err
	}
	if s.m.Mode.RuleSet == RuleSetTrueGrit {
		return domain.Errorf(domain.EINVALID, "banking is not allowed in True Grit: your turn ends on a single 1")
	}
	me, opp := s.m.player(seat), s.m.player(seat.Other())
	me.Timeouts = 0
	amount := s.m.TurnScore
	ok := s.bankTurn(seat, EndBank)
	res := BankResult{Bust: !ok, Score: me.Score, OpponentScore: opp.Score}
	if ok {
		res.Banked = amount
	}
	if s.m.Phase == PhaseGameplay {
		if ok {
			s.endTurn(EndBank)
		} else {
			s.endTurn(EndBust)
		}
	}
	res.GameOver = s.m.Phase == PhaseGameOver
	s.result = res
	return nil
}

// bankTurn banks the turn score of seat under the mode's rule set, ending the
// match when that reaches its goal. cause is what made it bank (EndBank,
// EndSingleOne, EndTimeout). It reports false for a Zero Hour bust. It leaves
// the turn running (endTurn ends it) unless the match ended.
func (s *step) bankTurn(seat Seat, cause string) bool {
	me, opp := s.m.player(seat), s.m.player(seat.Other())
	amount := s.m.TurnScore
	s.m.TurnScore = 0
	data := BankedData{Amount: amount, Cause: cause}
	won := false
	switch s.m.Mode.RuleSet {
	case RuleSetClassic:
		me.Score += amount
		won = me.Score >= s.m.Mode.TargetScore
	case RuleSetZeroHour:
		if me.Score-amount < 0 {
			s.emit(me.ID, EventBust, BustData{Amount: amount, Score: me.Score})
			return false
		}
		me.Score -= amount
		won = me.Score == 0
	case RuleSetLastLine:
		taken := min(amount, opp.Score)
		opp.Score -= taken
		me.Score += taken
		data.Taken = taken
		won = opp.Score == 0
	case RuleSetTrueGrit:
		me.Score += amount
	}
	data.Score, data.OpponentScore = me.Score, opp.Score
	s.emit(me.ID, EventBanked, data)
	if won {
		s.finish(seat, ReasonTarget)
	}
	return true
}

// deadline is the turn deadline for a turn starting now.
func (s *step) deadline() time.Time {
	if s.m.TurnSeconds <= 0 {
		return time.Time{}
	}
	return s.now.Add(time.Duration(s.m.TurnSeconds) * time.Second)
}

// startTurn gives the turn to seat.
func (s *step) startTurn(seat Seat) {
	s.m.CurrentTurn = seat
	s.m.CurrentPlayerID = s.m.player(seat).ID
	s.m.Turn++
	s.m.TurnScore, s.m.TurnRolls, s.m.Multiplier = 0, 0, 1
	s.m.TurnDeadline = s.deadline()
	s.emit(s.m.CurrentPlayerID, EventTurnStarted, TurnStartedData{Turn: s.m.Turn, Seat: seat, Deadline: s.m.TurnDeadline})
}

// endTurn ends the current turn (the turn score is already banked or lost) and
// starts the next, or, in True Grit after both turns, ends the match.
func (s *step) endTurn(reason string) {
	seat := s.m.CurrentTurn
	s.emit(s.m.CurrentPlayerID, EventTurnEnded, TurnEndedData{Turn: s.m.Turn, Seat: seat, Reason: reason})
	s.m.TurnScore, s.m.Multiplier = 0, 1
	if s.m.Mode.RuleSet == RuleSetTrueGrit && s.m.Turn >= 2 {
		host, opp := s.m.Host.Score, s.m.Opponent.Score
		switch {
		case host > opp:
			s.finish(SeatHost, ReasonScore)
		case opp > host:
			s.finish(SeatOpponent, ReasonScore)
		default:
			s.finish("", ReasonScore)
		}
		return
	}
	s.startTurn(seat.Other())
}

// finish ends the match with winner's seat winning; an empty winner is a draw.
func (s *step) finish(winner Seat, reason string) {
	m := &s.m
	m.Phase = PhaseGameOver
	m.CurrentTurn, m.CurrentPlayerID = "", ""
	m.TurnScore, m.Multiplier = 0, 1
	m.TurnDeadline = time.Time{}
	m.EndReason = reason
	m.EndedAt = s.now
	g := domain.GameOver{Kind: Kind, Mode: m.Mode.ID, Reason: reason, Players: Rules{}.Header(*m).Players}
	actor := ""
	if winner == "" {
		m.Draw, g.Draw = true, true
	} else {
		m.Winner, m.Loser = m.player(winner).ID, m.player(winner.Other()).ID
		g.Winners, g.Losers = []string{m.Winner}, []string{m.Loser}
		actor = m.Winner
	}
	s.emit(actor, domain.EventGameOver, g)
}

// cancel ends a match that never got an opponent: no result, no gameOver event.
func (s *step) cancel(reason string) {
	m := &s.m
	m.Phase = PhaseGameOver
	m.JoinDeadline, m.TurnDeadline = time.Time{}, time.Time{}
	m.EndReason = ReasonCancelled
	m.EndedAt = s.now
	s.emit(m.Host.ID, EventCancelled, CancelledData{Reason: reason})
}

func (s *step) forfeit(a domain.Actor, p json.RawMessage) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	seat, err := s.seated(a)
	if err != nil {
		return err
	}
	switch s.m.Phase {
	case PhaseGameOver:
		return domain.Errorf(domain.ECONFLICT, "the match is over")
	case PhaseWaiting:
		s.cancel("hostLeft")
		s.result = ForfeitResult{Cancelled: true}
		return nil
	}
	s.emit(a.ID, EventForfeited, ForfeitedData{Seat: seat, Reason: ReasonForfeit})
	s.finish(seat.Other(), ReasonForfeit)
	s.result = ForfeitResult{Winner: s.m.Winner}
	return nil
}

// RematchID is the id of the rematch of match id: the same for every call, so
// a retried transaction spawns the same game.
func RematchID(id string) string {
	sum := sha256.Sum256([]byte(id + ":rematch"))
	return hex.EncodeToString(sum[:])[:20]
}

func (s *step) rematch(a domain.Actor, p json.RawMessage) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	seat, err := s.seated(a)
	if err != nil {
		return err
	}
	m := &s.m
	switch {
	case m.Phase != PhaseGameOver:
		return domain.Errorf(domain.ECONFLICT, "a rematch can be asked for only when the match is over")
	case m.Opponent == nil:
		return domain.Errorf(domain.ECONFLICT, "the match was cancelled before anyone joined: there is no one to rematch")
	case m.RematchID != "":
		return domain.Errorf(domain.ECONFLICT, "the rematch %s has already been created", m.RematchID)
	}
	me := m.player(seat)
	if me.Rematch {
		return domain.Errorf(domain.ECONFLICT, "you already asked for a rematch; waiting for the other player")
	}
	me.Rematch = true
	s.emit(a.ID, EventRematchRequested, RematchRequestedData{Seat: seat})
	if !m.player(seat.Other()).Rematch {
		s.result = RematchResult{Waiting: true}
		return nil
	}
	next, err := s.newRematch()
	if err != nil {
		return err
	}
	m.RematchID = next.ID
	s.spawn = []domain.Spawn{{ID: next.ID, State: next}}
	s.emit(a.ID, EventRematchCreated, RematchCreatedData{RematchID: next.ID})
	s.result = RematchResult{RematchID: next.ID}
	return nil
}

// newRematch builds the next match: same mode, timer, privacy and seats, with
// the opponent already seated, so it starts at the odd/even call.
func (s *step) newRematch() (Match, error) {
	m := s.m
	opts := Options{TurnSeconds: m.TurnSeconds, Private: m.Private}
	if m.TurnSeconds == 0 {
		opts.TurnSeconds = NoTimer
	}
	next, err := NewMatch(RematchID(m.ID), domain.Actor{ID: m.Host.ID, Name: m.Host.Name}, m.Mode, opts, s.now)
	if err != nil {
		return Match{}, err
	}
	next.RematchOf = m.ID
	t := &step{m: next, now: s.now}
	if err := t.join(domain.Actor{ID: m.Opponent.ID, Name: m.Opponent.Name}, nil); err != nil {
		return Match{}, err
	}
	return t.m, nil
}
