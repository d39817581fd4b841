package partyboard

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

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
// over at the end. Deadline is the awaited input's, in a game with a timer.
func (Rules) Header(g Game) domain.Header {
	h := domain.Header{Players: g.PlayerIDs(), Status: domain.StatusActive, Private: g.Private}
	switch g.Phase {
	case PhaseLobby:
		h.Status = domain.StatusWaiting
	case PhaseOver:
		h.Status = domain.StatusOver
	default:
		h.Deadline = g.Deadline
	}
	return h
}

// Expire implements domain.Rules: the awaited input timed out, so it is
// taken with its default for every player awaited, as of the deadline
// (env.Now): a roll is rolled, a confirm confirmed, a choice is the first
// option, a target the first player listed, a starter the first starter, a
// challenge lost by the challenger to the first player listed. Each such
// player gets a strike; MaxStrikes in a row remove them from the game.
//
// Errors: ECONFLICT (no deadline has passed), ENOTFOUND (the board is gone).
func (r Rules) Expire(g Game, env domain.Env) (Game, domain.Outcome, error) {
	if g.Phase != PhasePlaying || g.Await == nil || g.Deadline.IsZero() || env.Now.Before(g.Deadline) {
		return g, domain.Outcome{}, domain.Errorf(domain.ECONFLICT, "no deadline has passed")
	}
	s, err := r.step(g, env)
	if err != nil {
		return g, domain.Outcome{}, err
	}
	w := *s.g.Await
	if (w.Action == ActionRoll || w.Action == ActionGroupRoll) && s.dice == nil {
		return g, domain.Outcome{}, domain.Errorf(domain.EINTERNAL, "no dice to roll with")
	}
	req := defaultAnswer(w)
	who := slices.Clone(w.Players)
	for _, id := range who {
		pi := s.g.Seat(id)
		p := &s.g.Players[pi]
		p.Strikes++
		s.emit(id, EventTimedOut, TimedOutData{Action: w.Action, Purpose: w.Purpose, Rule: w.Rule, Strikes: p.Strikes})
		if a := s.g.Await; a == nil || a.Action != w.Action || !slices.Contains(a.Players, id) {
			continue
		}
		if err := s.answer(pi, w.Action, req); err != nil {
			return g, domain.Outcome{}, err
		}
	}
	if err := s.settle(); err != nil {
		return g, domain.Outcome{}, err
	}
	for _, id := range who {
		if pi := s.g.Seat(id); s.g.Phase == PhasePlaying && s.g.Players[pi].Strikes >= MaxStrikes && !s.g.Players[pi].Removed {
			s.remove(pi, ByTimeout)
		}
	}
	if err := s.settle(); err != nil {
		return g, domain.Outcome{}, err
	}
	s.timer(env.Now, true)
	return s.g, domain.Outcome{Events: s.events}, nil
}

// defaultAnswer is what the timer answers for an awaited input w.
func defaultAnswer(w Await) InputRequest {
	var req InputRequest
	switch w.Action {
	case ActionChoose:
		first := 0
		req.Choice = &first
	case ActionTarget:
		req.PlayerID = w.Targets[0]
	case ActionStarter:
		req.Starter = w.Starters[0]
	case ActionChallenge: // an absent challenger loses to the first player they could challenge
		req.Winner, req.Loser = w.Targets[1], w.Targets[0]
	}
	return req
}

// timer sets the deadline of the awaited input: turnSeconds from now when
// restart (the input changed), none when the game has no timer or awaits
// nothing.
func (s *step) timer(now time.Time, restart bool) {
	g := &s.g
	switch {
	case g.TurnSeconds == 0 || g.Phase != PhasePlaying || g.Await == nil:
		g.Deadline = time.Time{}
	case restart || g.Deadline.IsZero():
		g.Deadline = now.Add(time.Duration(g.TurnSeconds) * time.Second).UTC()
	}
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
	ActionJoin:         (*step).join,
	ActionStart:        (*step).start,
	ActionRemovePlayer: (*step).removePlayer,
	ActionRoll:         (*step).input,
	ActionChoose:       (*step).input,
	ActionTarget:       (*step).input,
	ActionStarter:      (*step).input,
	ActionGroupRoll:    (*step).input,
	ActionConfirm:      (*step).input,
	ActionChallenge:    (*step).input,
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
	h, err := domain.Handler(handlers, a.Type)
	if err != nil {
		return g, domain.Outcome{}, err
	}
	s, err := r.step(g, env)
	if err != nil {
		return g, domain.Outcome{}, err
	}
	restart := func() bool { return true }
	if a.Type == ActionRemovePlayer { // removing a player who is not awaited leaves the timer running
		before := awaitKey(&g)
		restart = func() bool { return awaitKey(&s.g) != before }
	}
	if err := h(s, a); err != nil {
		return g, domain.Outcome{}, err
	}
	s.timer(env.Now, restart())
	return s.g, domain.Outcome{Events: s.events, Result: s.result}, nil
}

// step starts work on a copy of g.
//
// Errors: ENOTFOUND (the board is gone).
func (r Rules) step(g Game, env domain.Env) (*step, error) {
	src := r.Boards
	if src == nil {
		src = BuiltinSource{}
	}
	b, err := src.Board(g.BoardID)
	if err != nil {
		return nil, err
	}
	return &step{g: g.clone(), b: b, dice: env.Dice}, nil
}

// awaitKey says which input g awaits, to tell whether an action changed it.
func awaitKey(g *Game) string {
	if g.Await == nil {
		return g.Phase
	}
	w := g.Await
	return fmt.Sprint(g.Turn, g.Current, w.Action, w.Rule, w.Players, w.Targets, w.Target, len(w.Rolls))
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
		e.Rule, e.Text = d.Rule, d.Text
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
		e.Rule, e.Text = fmt.Sprintf("%s.choices[%d].rule", d.Rule, d.Choice), d.Text
		if d.Tile != nil { // a RefightRule's choice: the tile
			e.Rule = fmt.Sprintf("tiles[%d].rule", *d.Tile)
		}
	case RolledUntilData:
		e.Rule, e.Rolls = d.Rule, d.Rolls
	case ItemCheckedData:
		e.Rule = d.Rule
	case TimedOutData:
		e.Rule = d.Rule
	case TurnLostData, ExtraTurnData, RemovedData:
	default: // joined, started, turnStarted, effect, starterChosen, gameOver: the state shows them
		return
	}
	if e.Rule != "" && e.Text == "" { // the text the entry refers to, not only its location
		if r, ok := s.b.RuleAt(e.Rule); ok {
			e.Text = r.DisplayText
		}
	}
	e.Text = logText(e.Text)
	if len(s.g.Log) < LogSize {
		s.g.Log = append(s.g.Log, e)
		return
	}
	// The log is this step's own copy (clone): shift it in place.
	n := copy(s.g.Log, s.g.Log[len(s.g.Log)-LogSize+1:])
	s.g.Log = append(s.g.Log[:n], e)
}

// logText cuts a rule's text to LogTextMax bytes (on a rune boundary).
func logText(t string) string {
	if len(t) <= LogTextMax {
		return t
	}
	cut := LogTextMax - len("…")
	for cut > 0 && !utf8.RuneStart(t[cut]) {
		cut--
	}
	return t[:cut] + "…"
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

// InputRequest are the fields of the inputs' payloads.
type InputRequest struct {
	Choice   *int   `json:"choice" field:"int,min=0,max=499"` // an index into the offered choices (at most MaxTiles)
	PlayerID string `json:"playerId" field:"id"`
	Starter  string `json:"starter" field:"text,max=100"` // a starter's name, as the board has it
	Winner   string `json:"winner" field:"id"`
	Loser    string `json:"loser" field:"id"`
}

// input answers what the game awaits.
func (s *step) input(a domain.Action) error {
	var req InputRequest
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
	case g.Players[pi].Removed:
		return domain.Errorf(domain.ECONFLICT, "you are no longer in this game")
	}
	w := g.Await
	if w.Action != a.Type || !slices.Contains(w.Players, a.Actor.ID) {
		return domain.Errorf(domain.ECONFLICT, "waiting for %s to %s", s.names(w.Players), verbs[w.Action])
	}
	if (a.Type == ActionRoll || a.Type == ActionGroupRoll) && s.dice == nil {
		return domain.Errorf(domain.EINTERNAL, "no dice to roll with")
	}
	g.Players[pi].Strikes = 0 // they are here
	if err := s.answer(pi, a.Type, req); err != nil {
		return err
	}
	return s.settle()
}

// answer gives player pi's answer to the awaited input (an action of type
// typ): from the player, or the timer's default.
func (s *step) answer(pi int, typ string, req InputRequest) error {
	switch typ {
	case ActionRoll:
		s.answerRoll()
	case ActionConfirm:
		s.g.Await = nil
	case ActionChoose:
		return s.answerChoose(req.Choice)
	case ActionTarget:
		return s.answerTarget(req.PlayerID)
	case ActionChallenge:
		return s.answerChallenge(req.Winner, req.Loser)
	case ActionStarter:
		return s.answerStarter(pi, req.Starter)
	case ActionGroupRoll:
		s.answerGroupRoll(pi)
	}
	return nil
}

// removePlayer takes a player out of the game: the host removes anyone, a
// player removes themselves. In the lobby they lose their seat; in play
// they keep it, out of the turn order (remove).
func (s *step) removePlayer(a domain.Action) error {
	var req RemovePlayerRequest
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return err
	}
	g := &s.g
	me := g.Seat(a.Actor.ID)
	switch {
	case me < 0:
		return domain.Errorf(domain.EFORBIDDEN, "you are not a player in this game")
	case g.Phase == PhaseOver:
		return domain.Errorf(domain.ECONFLICT, "the game is over")
	case req.PlayerID == "":
		return domain.Errorf(domain.EINVALID, "playerId is required: the player to remove (yourself to leave)")
	}
	ti := g.Seat(req.PlayerID)
	switch {
	case ti < 0:
		return domain.Errorf(domain.EINVALID, "playerId %s is not a player in this game", domain.Quote(req.PlayerID))
	case g.Players[me].Removed:
		return domain.Errorf(domain.ECONFLICT, "you are no longer in this game")
	case g.Players[ti].Removed:
		return domain.Errorf(domain.ECONFLICT, "%s is no longer in this game", g.Players[ti].Name)
	case ti != me && a.Actor.ID != g.Host:
		return domain.Errorf(domain.ECONFLICT, "only the host (%s) removes other players", g.Players[g.Seat(g.Host)].Name)
	case g.Phase == PhaseLobby && len(g.Players) == 1:
		return domain.Errorf(domain.ECONFLICT, "the host is the only player: nobody would be left to host")
	}
	by := ByHost
	if ti == me {
		by = BySelf
	}
	if g.Phase == PhaseLobby {
		id := g.Players[ti].ID
		g.Players = slices.Delete(g.Players, ti, ti+1)
		d := RemovedData{By: by, Remaining: len(g.Players)}
		if id == g.Host {
			g.Host, d.Host = g.Players[0].ID, g.Players[0].ID
		}
		s.emit(id, EventRemoved, d)
		return nil
	}
	s.remove(ti, by)
	return s.settle()
}

// remove takes player ti out of a game in play: they keep their seat but
// take no more turns and no rule picks them. The host passes on to the next
// player still in; one player left wins. The input in progress goes on
// without them: their turn ends (the next player's begins), a group input
// waits for the others only, and a target or challenge may no longer name
// them (with nobody left to name, the rule does nothing).
func (s *step) remove(ti int, by string) {
	g := &s.g
	p := &g.Players[ti]
	p.Removed = true
	active := g.Active()
	d := RemovedData{By: by, Remaining: len(active)}
	if g.Host == p.ID && len(active) > 0 {
		for k := 1; k <= len(g.Players); k++ {
			if q := g.Players[(ti+k)%len(g.Players)]; !q.Removed {
				g.Host, d.Host = q.ID, q.ID
				break
			}
		}
	}
	s.emit(p.ID, EventRemoved, d)
	if len(active) == 1 {
		s.finish(active[0], ReasonLastPlayer)
		return
	}
	id := p.ID
	drop := func(ids []string) []string { return slices.DeleteFunc(ids, func(x string) bool { return x == id }) }
	if w := g.Await; w != nil {
		group := w.Action == ActionStarter || w.Action == ActionGroupRoll
		switch {
		case group:
			if w.Players = drop(w.Players); len(w.Players) == 0 {
				g.Await = nil
			}
		case ti == g.Current:
			g.Await = nil
		case w.Target == id:
			g.Await = nil // a MoveRule's dice for them: nobody to move
		case w.Action == ActionTarget:
			if w.Targets = drop(w.Targets); len(w.Targets) == 0 {
				g.Await = nil
			}
		case w.Action == ActionChallenge:
			if w.Targets = drop(w.Targets); len(w.Targets) < 2 {
				g.Await = nil
			}
		}
	}
	if ti == g.Current {
		g.Next = []string{StepBegin}
		s.advance()
	}
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
