package hexdice

import (
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Rules is Hex & Dice's rule set for the shared pipeline.
//
// Maps finds a game's map (nil: DefaultMaps, the process-wide cache).
//
// Simultaneous mode's private orders: with Env.Seal (the platform always
// passes one), an "orders" action seals the player's orders into the game
// (Player.SealedOrders), and the round's resolution opens them. Without it
// (the rules' own tests, a bot's search), and for a player with no sealed
// orders, the rules take them from Orders, by player id (use WithOrders),
// and an action that stores orders says so in its result (OrdersResult,
// PrivateOrders): games from before the seal kept them in a document of
// their own. The rules only read the orders of the game's current round.
// Alternating games ignore both.
type Rules struct {
	Maps   MapSource
	Orders map[string]Orders
}

var (
	_ domain.Rules[Game]  = Rules{}
	_ domain.Lister[Game] = Rules{}
)

// WithOrders returns r with the private orders for one call.
func (r Rules) WithOrders(orders map[string]Orders) Rules {
	r.Orders = orders
	return r
}

func (r Rules) maps() MapSource {
	if r.Maps == nil {
		return DefaultMaps
	}
	return r.Maps
}

// MapOf returns g's map.
//
// Errors: EINVALID (the game names an unknown size or carries an invalid
// config), EINTERNAL (the map no longer regenerates with the game's hash).
func (r Rules) MapOf(g Game) (*Map, error) {
	return r.maps().Map(g.Size, g.MapSeed, g.MapHash, g.Config)
}

// Kind implements domain.Rules.
func (Rules) Kind() string { return Kind }

// Header implements domain.Rules. Private is the room's setting. Status:
// waiting until the opponent joins, active while playing, over at the end.
// Deadline is the earliest pending one: the join deadline while waiting;
// while playing the earliest of the turn (or planning) deadline and each
// player's connection deadline (disconnection DisconnectSeconds after the
// last heartbeat, forfeit ForfeitSeconds after that). Zero once over.
func (Rules) Header(g Game) domain.Header {
	h := domain.Header{Players: g.PlayerIDs(), Private: g.Private}
	switch g.Phase {
	case PhaseWaiting:
		h.Status, h.Deadline = domain.StatusWaiting, g.JoinDeadline
	case PhasePlaying:
		h.Status, h.Deadline = domain.StatusActive, nextDeadline(g)
	default:
		h.Status = domain.StatusOver
	}
	return h
}

// connectionDeadline is when seat's connection state next changes: its
// disconnection, or, once disconnected, its forfeit.
func connectionDeadline(g Game, p Player) time.Time {
	if p.Disconnected() {
		return p.DisconnectedAt.Add(seconds(g.Config.Timers.ForfeitSeconds))
	}
	return p.LastSeen.Add(seconds(g.Config.Timers.DisconnectSeconds))
}

func nextDeadline(g Game) time.Time {
	d := g.TurnDeadline
	for _, p := range g.Players {
		if c := connectionDeadline(g, p); d.IsZero() || c.Before(d) {
			d = c
		}
	}
	return d
}

// Action types Apply handles.
const (
	ActionJoin      = "join"
	ActionBuy       = "buy"
	ActionMove      = "move"
	ActionAttack    = "attack"
	ActionEndTurn   = "endTurn"
	ActionOrders    = "orders"
	ActionSurrender = "surrender"
	ActionHeartbeat = "heartbeat"
	ActionEmote     = "emote"
	ActionRematch   = "rematch"
)

// step is one Apply or Expire at work on a copy of the game.
type step struct {
	g       Game
	m       *Map
	now     time.Time
	dice    domain.Dice
	private map[string]Orders // Rules.Orders
	seal    domain.Sealer     // Env.Seal: where orders are kept (nil: Rules.Orders)
	events  []domain.Event
	result  any
	spawn   []domain.Spawn
	// masked: the step is over a seat's masked view (fog), not the game.
	masked  bool
	terr    [len(terrains)]TerrainStats
	occ     []int32 // per grid slot: 0 free, i+1 troop i, -(i+1) structure i; nil: stale
	scratch paths   // reach's arrays, reused
	buckets [][]int32
}

func newStep(g Game, m *Map, now time.Time, dice domain.Dice) *step {
	s := &step{g: g, m: m, now: now.UTC(), dice: dice}
	for i, t := range terrains {
		s.terr[i] = g.Config.Terrain[t]
	}
	return s
}

func (s *step) emit(seat Seat, typ string, data any) {
	player := ""
	if seat >= 0 && int(seat) < len(s.g.Players) {
		player = s.g.Players[seat].ID
	}
	s.events = append(s.events, domain.Event{Type: typ, Player: player, Data: data})
}

// done ends a step: fog memory updated, the state and its outcome.
func (s *step) done() (Game, domain.Outcome, error) {
	s.remember()
	if s.g.Phase != PhasePlaying {
		// The seed, which opens sealed orders, is published at the end.
		s.clearSealed()
	}
	return s.g, s.outcome(), nil
}

func (s *step) outcome() domain.Outcome {
	return domain.Outcome{Events: s.events, Result: s.result, Spawn: s.spawn}
}

var handlers = map[string]func(*step, domain.Actor, []byte) error{
	ActionJoin:      (*step).join,
	ActionBuy:       (*step).buy,
	ActionMove:      (*step).move,
	ActionAttack:    (*step).attackAction,
	ActionEndTurn:   (*step).endTurnAction,
	ActionOrders:    (*step).orders,
	ActionSurrender: (*step).surrender,
	ActionHeartbeat: (*step).heartbeat,
	ActionEmote:     (*step).emote,
	ActionRematch:   (*step).rematch,
}

// Apply implements domain.Rules: join, buy, move, attack, endTurn (alternating
// mode), orders (simultaneous mode), surrender, heartbeat and emote. Any
// successful action of a seated player counts as a heartbeat and reconnects
// a disconnected player. On an error it returns g unchanged.
//
// Errors: EINVALID (unknown action, malformed payload, a field naming
// something illegal: the message names the field), EFORBIDDEN (not a
// player of this game), ECONFLICT (not your turn, the wrong phase or mode,
// the troop already moved or attacked, not enough coins, ...), ELIMIT
// (emotes too fast), EINTERNAL (no dice; the map no longer matches the
// game; simultaneous orders the platform should have passed are missing).
func (r Rules) Apply(g Game, a domain.Action, env domain.Env) (Game, domain.Outcome, error) {
	h, err := domain.Handler(handlers, a.Type)
	if err != nil {
		return g, domain.Outcome{}, err
	}
	if env.Dice == nil {
		return g, domain.Outcome{}, domain.Errorf(domain.EINTERNAL, "no dice to roll with")
	}
	m, err := r.MapOf(g)
	if err != nil {
		return g, domain.Outcome{}, err
	}
	s := newStep(g.clone(), m, env.Now, env.Dice)
	s.private, s.seal = r.Orders, env.Seal
	if err := h(s, a.Actor, a.Payload); err != nil {
		return g, domain.Outcome{}, err
	}
	s.touch(a.Actor.ID)
	return s.done()
}

// touch records that player id was seen now and reconnects them.
func (s *step) touch(id string) {
	seat := s.g.SeatOf(id)
	if seat < 0 || s.g.Phase == PhaseOver {
		return
	}
	p := &s.g.Players[seat]
	p.LastSeen = s.now
	if p.Disconnected() {
		p.DisconnectedAt = time.Time{}
		s.emit(seat, EventReconnected, ConnectionData{Seat: seat, At: s.now})
	}
}

// Expire implements domain.Rules: it applies what is due at the earliest
// deadline of Header(g), as of that deadline (env.Now must not be before it;
// a late call changes nothing). Everything due at that same instant is
// handled, in this order:
//
//   - waiting: nobody joined; the room is cancelled (no result).
//   - a disconnected player's forfeit window ran out: that player loses
//     ("disconnect"); both at once is a draw;
//   - a player missed heartbeats for DisconnectSeconds: marked disconnected;
//   - the turn timer: alternating, the turn ends; simultaneous, each player
//     who has not submitted has their saved orders (Rules.Orders, those of
//     this round; none if there are none) submitted as they are, and the
//     round resolves.
//
// The pipeline calls Expire again while the next deadline has passed.
//
// Errors: ECONFLICT (over, no deadline, not yet due), EINTERNAL (no dice;
// the map no longer matches; a submitted player's orders are missing from
// Rules.Orders).
func (r Rules) Expire(g Game, env domain.Env) (Game, domain.Outcome, error) {
	deadline := r.Header(g).Deadline
	if err := domain.Due("the game", g.Phase == PhaseOver, deadline, env.Now); err != nil {
		return g, domain.Outcome{}, err
	}
	if env.Dice == nil {
		return g, domain.Outcome{}, domain.Errorf(domain.EINTERNAL, "no dice to roll with")
	}
	m, err := r.MapOf(g)
	if err != nil {
		return g, domain.Outcome{}, err
	}
	s := newStep(g.clone(), m, deadline, env.Dice)
	s.private, s.seal = r.Orders, env.Seal
	if g.Phase == PhaseWaiting {
		s.cancel("noOpponent")
		return s.done()
	}
	var forfeits []Seat
	for i, p := range g.Players {
		if p.Disconnected() && connectionDeadline(g, p).Equal(deadline) {
			forfeits = append(forfeits, Seat(i))
		}
	}
	if len(forfeits) > 0 {
		for _, seat := range forfeits {
			s.emit(seat, EventForfeited, ConnectionData{Seat: seat, At: s.now})
		}
		if len(forfeits) == 2 {
			s.finish(Neutral, ReasonDisconnect)
		} else {
			s.finish(forfeits[0].Other(), ReasonDisconnect)
		}
		return s.done()
	}
	for i, p := range g.Players {
		if !p.Disconnected() && connectionDeadline(g, p).Equal(deadline) {
			s.g.Players[i].DisconnectedAt = s.now
			s.emit(Seat(i), EventDisconnected, ConnectionData{Seat: Seat(i), At: s.now})
		}
	}
	if g.TurnDeadline.Equal(deadline) {
		if g.Mode == Alternating {
			s.endTurn("timeout")
		} else if err := s.autoSubmit(); err != nil {
			return g, domain.Outcome{}, err
		}
	}
	return s.done()
}

// seated returns the actor's seat, EFORBIDDEN when they have none.
func (s *step) seated(a domain.Actor) (Seat, error) {
	seat := s.g.SeatOf(a.ID)
	if seat < 0 {
		return Neutral, domain.Errorf(domain.EFORBIDDEN, "you are not a player in this game")
	}
	return seat, nil
}

// playing checks the game is being played and returns the actor's seat.
func (s *step) playing(a domain.Actor, what string) (Seat, error) {
	seat, err := s.seated(a)
	if err != nil {
		return Neutral, err
	}
	switch s.g.Phase {
	case PhaseOver:
		return Neutral, domain.Errorf(domain.ECONFLICT, "the game is over")
	case PhaseWaiting:
		return Neutral, domain.Errorf(domain.ECONFLICT, "you cannot %s yet: the game is waiting for an opponent", what)
	}
	return seat, nil
}

// myTurn checks it is the actor's turn in alternating mode.
func (s *step) myTurn(a domain.Actor, what string) (Seat, error) {
	seat, err := s.playing(a, what)
	if err != nil {
		return Neutral, err
	}
	if s.g.Mode != Alternating {
		return Neutral, domain.Errorf(domain.ECONFLICT, "in simultaneous mode you %s by sending orders", what)
	}
	if s.g.Current != seat {
		return Neutral, domain.Errorf(domain.ECONFLICT, "it is not your turn")
	}
	return seat, nil
}

// finish ends the game: winner wins, or Neutral for a draw. It fills the
// result and its summary and emits the one domain.EventGameOver.
func (s *step) finish(winner Seat, reason string) {
	g := &s.g
	g.Phase = PhaseOver
	g.Current = Neutral
	g.TurnDeadline = time.Time{}
	res := &Result{Winner: winner, Draw: winner == Neutral, Reason: reason, EndedAt: s.now, Rounds: g.Round}
	over := domain.GameOver{Kind: Kind, Mode: string(g.Mode), Players: g.PlayerIDs(), Reason: reason, Draw: res.Draw}
	for i, p := range g.Players {
		res.Players = append(res.Players, Summary{ID: p.ID, TroopsKilled: p.Kills, TroopsLost: p.Losses,
			StructuresHeld: g.StructuresHeld(Seat(i)), TurnsPlayed: p.Turns})
		switch {
		case res.Draw:
		case Seat(i) == winner:
			over.Winners = append(over.Winners, p.ID)
		default:
			over.Losers = append(over.Losers, p.ID)
		}
	}
	g.Result = res
	s.emit(winner, domain.EventGameOver, over)
}

// cancel ends a room nobody joined: no result, no GameOver event.
func (s *step) cancel(reason string) {
	s.g.Phase = PhaseOver
	s.g.JoinDeadline = time.Time{}
	s.g.Result = &Result{Winner: Neutral, Reason: ReasonCancelled, EndedAt: s.now}
	s.emit(0, EventCancelled, CancelledData{Reason: reason})
}

func (s *step) over() bool { return s.g.Phase == PhaseOver }
