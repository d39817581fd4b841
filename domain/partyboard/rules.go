package partyboard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// Rules is Party Board's rule set for the shared pipeline. Boards finds a
// game's board by its id (nil: the built-in boards only).
//
// Work no player drives — skipping players who lose turns, active zone rules
// at the start of a turn, moving, the landing tile's rule and the rules it
// chains to — runs inside Apply, synchronously, until the next input is
// needed. So each player action is one transaction and every automatic step
// happens exactly once.
type Rules struct{ Boards BoardSource }

var _ domain.Rules[Game] = Rules{}

// Kind implements domain.Rules.
func (Rules) Kind() string { return Kind }

// Header implements domain.Rules: waiting in the lobby, active while playing,
// over at the end. Party Board has no timers, so Deadline is always zero.
func (Rules) Header(g Game) domain.Header {
	h := domain.Header{Players: g.PlayerIDs(), Status: domain.StatusActive, Private: g.Private}
	switch g.Phase {
	case PhaseLobby:
		h.Status = domain.StatusWaiting
	case PhaseOver:
		h.Status = domain.StatusOver
	}
	return h
}

// Expire implements domain.Rules. Party Board sets no deadlines.
//
// Errors: ECONFLICT, always.
func (Rules) Expire(g Game, env domain.Env) (Game, domain.Outcome, error) {
	return g, domain.Outcome{}, domain.Errorf(domain.ECONFLICT, "party board games have no deadline")
}

// step is one Apply at work on a copy of the game.
type step struct {
	g      Game
	b      *Board
	dice   domain.Dice
	events []domain.Event
	result any
	guard  int
}

// maxAutoSteps bounds the automatic work of one Apply. Validated boards never
// come near it: it would take every player losing turns without end.
const maxAutoSteps = 100000

var handlers = map[string]func(*step, domain.Action) error{
	ActionJoin:      (*step).join,
	ActionStart:     (*step).start,
	ActionRoll:      (*step).input,
	ActionChoose:    (*step).input,
	ActionTarget:    (*step).input,
	ActionStarter:   (*step).input,
	ActionGroupRoll: (*step).input,
	ActionConfirm:   (*step).input,
	ActionChallenge: (*step).input,
}

// Apply implements domain.Rules: join, start, and the inputs the game awaits
// (roll, choose, target, starter, groupRoll, confirm, challenge). On an error
// it returns g unchanged.
//
// Errors: EINVALID (unknown action, malformed payload, a choice, target or
// starter not allowed), EFORBIDDEN (not a player of this game), ECONFLICT
// (not the awaited player or action, wrong phase), ENOTFOUND (the board is
// gone), EINTERNAL (no dice to roll with).
func (r Rules) Apply(g Game, a domain.Action, env domain.Env) (Game, domain.Outcome, error) {
	h, ok := handlers[a.Type]
	if !ok {
		return g, domain.Outcome{}, domain.Errorf(domain.EINVALID, "unknown action type %q (join, start, roll, choose, target, starter, groupRoll, confirm, challenge)", a.Type)
	}
	src := r.Boards
	if src == nil {
		src = BuiltinSource{}
	}
	b, err := src.Board(g.BoardID)
	if err != nil {
		return g, domain.Outcome{}, err
	}
	s := &step{g: g.clone(), b: b, dice: env.Dice}
	if err := h(s, a); err != nil {
		return g, domain.Outcome{}, err
	}
	return s.g, domain.Outcome{Events: s.events, Result: s.result}, nil
}

func (s *step) emit(player, typ string, data any) {
	s.events = append(s.events, domain.Event{Type: typ, Player: player, Data: data})
	e := Entry{Turn: s.g.Turn, Player: player, Type: typ}
	switch d := data.(type) {
	case RolledData:
		e.Rule, e.Rolls = d.Rule, d.Rolls
	case MovedData:
		e.Rule, e.Tiles = d.Rule, []int{d.From, d.To}
	case RuleData:
		e.Rule = d.Rule
	case ConditionData:
		e.Rule, e.Rolls = d.Rule, d.Rolls
	case TargetedData:
		e.Rule, e.Target = d.Rule, d.Target
	case ChallengedData:
		e.Rule, e.Target = d.Rule, d.Loser
		if d.Loser == player {
			e.Target = d.Winner
		}
	case GroupRolledData:
		e.Rule, e.Rolls = d.Rule, []int{d.Roll}
	case ChoseData:
		e.Rule = fmt.Sprintf("%s.choices[%d].rule", d.Rule, d.Choice)
	case TurnLostData, ExtraTurnData:
	default: // joined, started, turnStarted, effect, starterChosen, gameOver: the state shows them
		return
	}
	if len(s.g.Log) < LogSize {
		s.g.Log = append(s.g.Log, e)
		return
	}
	// The log is this step's own copy (clone): shift it in place.
	n := copy(s.g.Log, s.g.Log[len(s.g.Log)-LogSize+1:])
	s.g.Log = append(s.g.Log[:n], e)
}

func (s *step) join(a domain.Action) error {
	if err := domain.DecodePayload(a.Payload, nil); err != nil {
		return err
	}
	g := &s.g
	switch {
	case a.Actor.ID == "":
		return domain.Errorf(domain.EINVALID, "a player id is required to join")
	case g.Seat(a.Actor.ID) >= 0:
		return domain.Errorf(domain.ECONFLICT, "you are already in this game")
	case g.Phase == PhaseOver:
		return domain.Errorf(domain.ECONFLICT, "the game is over")
	case g.Phase != PhaseLobby:
		return domain.Errorf(domain.ECONFLICT, "the game has started")
	case len(g.Players) >= MaxPlayers:
		return domain.Errorf(domain.ECONFLICT, "the game is full (%d players)", MaxPlayers)
	}
	name := playerName(a.Actor)
	g.Players = append(g.Players, Player{ID: a.Actor.ID, Name: name})
	seat := len(g.Players) - 1
	s.emit(a.Actor.ID, EventJoined, JoinedData{Name: name, Seat: seat})
	s.result = JoinResult{Seat: seat, Players: len(g.Players)}
	return nil
}

func (s *step) start(a domain.Action) error {
	if err := domain.DecodePayload(a.Payload, nil); err != nil {
		return err
	}
	g := &s.g
	switch {
	case g.Seat(a.Actor.ID) < 0:
		return domain.Errorf(domain.EFORBIDDEN, "you are not a player in this game")
	case g.Phase == PhaseOver:
		return domain.Errorf(domain.ECONFLICT, "the game is over")
	case g.Phase != PhaseLobby:
		return domain.Errorf(domain.ECONFLICT, "the game has started")
	case a.Actor.ID != g.Host:
		return domain.Errorf(domain.ECONFLICT, "only the host (%s) starts the game", g.Players[g.Seat(g.Host)].Name)
	case len(g.Players) < MinPlayers:
		return domain.Errorf(domain.ECONFLICT, "at least %d players are needed to start", MinPlayers)
	}
	g.Phase, g.Turn, g.Current = PhasePlaying, 0, 0
	s.emit(a.Actor.ID, EventStarted, StartedData{Board: g.BoardID, Players: g.PlayerIDs()})
	g.Next = []string{StepBegin}
	// The seed: a StarterSelectionRule on tile 0 runs once, when the game
	// starts, with every player choosing; then the first turn begins.
	if s.b.Tiles[0].Rule.Type == StarterSelectionRule {
		s.run("tiles[0].rule")
	}
	return s.settle()
}

// verbs say what an awaited action asks for, in ECONFLICT messages.
var verbs = map[string]string{
	ActionRoll:      "roll",
	ActionChoose:    "choose an option",
	ActionTarget:    "pick a player",
	ActionStarter:   "pick a starter",
	ActionGroupRoll: "roll their die",
	ActionConfirm:   "confirm",
	ActionChallenge: "report the challenge",
}

// input answers what the game awaits.
func (s *step) input(a domain.Action) error {
	var req struct {
		Choice   *int   `json:"choice"`
		PlayerID string `json:"playerId"`
		Starter  string `json:"starter"`
		Winner   string `json:"winner"`
		Loser    string `json:"loser"`
	}
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return err
	}
	g := &s.g
	pi := g.Seat(a.Actor.ID)
	switch {
	case pi < 0:
		return domain.Errorf(domain.EFORBIDDEN, "you are not a player in this game")
	case g.Phase == PhaseLobby:
		return domain.Errorf(domain.ECONFLICT, "the game has not started")
	case g.Phase == PhaseOver || g.Await == nil:
		return domain.Errorf(domain.ECONFLICT, "the game is over")
	}
	w := g.Await
	if w.Action != a.Type || !slices.Contains(w.Players, a.Actor.ID) {
		return domain.Errorf(domain.ECONFLICT, "waiting for %s to %s", s.names(w.Players), verbs[w.Action])
	}
	if (a.Type == ActionRoll || a.Type == ActionGroupRoll) && s.dice == nil {
		return domain.Errorf(domain.EINTERNAL, "no dice to roll with")
	}
	var err error
	switch a.Type {
	case ActionRoll:
		s.answerRoll()
	case ActionConfirm:
		g.Await = nil
	case ActionChoose:
		err = s.answerChoose(req.Choice)
	case ActionTarget:
		err = s.answerTarget(req.PlayerID)
	case ActionChallenge:
		err = s.answerChallenge(req.Winner, req.Loser)
	case ActionStarter:
		err = s.answerStarter(pi, req.Starter)
	case ActionGroupRoll:
		s.answerGroupRoll(pi)
	}
	if err != nil {
		return err
	}
	return s.settle()
}

// names names the players awaited, for messages.
func (s *step) names(ids []string) string {
	var names []string
	for _, id := range ids {
		if i := s.g.Seat(id); i >= 0 {
			names = append(names, s.g.Players[i].Name)
		}
	}
	switch n := len(names); {
	case n == 0:
		return "nobody"
	case n == 1:
		return names[0]
	case n <= 3:
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	default:
		return fmt.Sprintf("%s, %s and %d more", names[0], names[1], n-2)
	}
}

// settle runs automatic steps until an input is awaited or the game is over.
func (s *step) settle() error {
	for s.g.Phase == PhasePlaying && s.g.Await == nil {
		if s.guard++; s.guard > maxAutoSteps {
			return domain.Errorf(domain.EINTERNAL, "the board loops without input")
		}
		s.proceed()
	}
	return nil
}
