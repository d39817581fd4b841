package hexdice

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Slots of a Hex & Dice game besides the game document (docs/hexdice.md,
// "Documents").
const (
	// SlotMap is games/{id}/public/map: the map as clients draw it
	// (MapJSON), written once when the room is created. Public. The rules
	// never read it: they regenerate the map from the cache.
	SlotMap = "map"
	// SlotOrders is games/{id}/orders/{playerId}: that player's saved or
	// submitted Orders (simultaneous mode). Only that player may read it;
	// the server reads both to resolve a round.
	SlotOrders = "orders"
)

// ActionPreview is the read-only action a client sends when a troop is
// tapped: where it can go, what it can hit, and where the caller can buy.
// It writes nothing (unless a passed deadline is applied first, as for
// "legal"), so it leaves no record.
const ActionPreview = "preview"

// QuickMatchQueue is the one quick-match queue: the default room.
const QuickMatchQueue = "default"

// CreateRequest is the payload of a Hex & Dice "create" (ruling 13). Every
// field may be left out: medium, the default timer (90 s), alternating,
// public, the game id as map seed.
type CreateRequest struct {
	Size Size `json:"size" field:"enum=small|medium|large"`
	// TurnSeconds is one of DefaultConfig's timers; there is no "no timer":
	// 0 sent is refused, left out is the default (a Go client's zero value
	// is left out).
	TurnSeconds int      `json:"turnSeconds,omitempty" field:"enum=60|90|120"`
	Mode        TurnMode `json:"mode" field:"enum=alternating|simultaneous"`
	// Private: joined with the room code only, never listed.
	Private bool `json:"private"`
	// MapSeed picks the map (public; at most 200 bytes): the same seed and
	// size give the same map.
	MapSeed string `json:"mapSeed" field:"text,max=200"`
	// Fog: fog of war (each player sees only what its units see).
	Fog bool `json:"fog"`
}

// PreviewRequest is the payload of "preview". Troop, when given, is the
// troop to preview (anyone's); Q and R, when given, are the hex its targets
// are listed from (a hex it may move to; its own by default). The fields
// are a move's.
type PreviewRequest = TroopRequest

// Preview is the result of "preview".
type Preview struct {
	// Seat is the caller's seat, -1 for a spectator.
	Seat Seat `json:"seat"`
	// CanBuy: the caller may buy now (alternating: its turn; simultaneous:
	// in its orders, until it submits).
	CanBuy bool `json:"canBuy"`
	// Buys are the free hexes next to the caller's spawn structures and the
	// units its coins cover (the shop panel); empty for a spectator.
	Buys  []BuyOption   `json:"buys"`
	Troop *TroopPreview `json:"troop,omitempty"`
	// Orders are the caller's own orders saved or submitted this round
	// (simultaneous mode), as sealed in the game: what a page reloaded in
	// the planning phase shows. Absent when there are none.
	Orders *Orders `json:"orders,omitempty"`
}

// TroopPreview is one troop's preview: the blue and red highlights.
type TroopPreview struct {
	Troop int  `json:"troop"`
	Owner Seat `json:"owner"`
	From  Hex  `json:"from"` // where the targets are counted from
	// CanMove and CanAttack say whether the caller may still give this troop
	// a move or an attack now (its own troop, its turn or planning phase,
	// not bought this turn, not yet moved or attacked, not the first turn's
	// attack); the hexes below are geometry either way.
	CanMove   bool    `json:"canMove"`
	CanAttack bool    `json:"canAttack"`
	Reachable []Reach `json:"reachable"` // cheapest first
	Targets   []Hex   `json:"targets"`
}

// PlatformGame is Hex & Dice as the platform drives it: a one-document game
// (Rules through domain.Single) plus
//
//   - the map document, written once at create from Map.JSON();
//   - simultaneous mode's private orders: an "orders" action seals them
//     into the game document (Player.SealedOrders, with the platform's
//     Env.Seal), so it writes the game document alone; an action that
//     resolves a round opens them there. A game from before the seal kept a
//     player's orders in orders/{playerId}: an action that resolves a round
//     reads that document for a player who submitted and has none sealed
//     (NeedDocs, as a snapshot) and hands it to the rules (Rules.WithOrders);
//   - the "preview" action and the quick-match queue.
//
// Maps is the map source (nil: DefaultMaps). Wrap, when set, wraps the rules
// of every call (tests: rulestest.PureRules).
type PlatformGame struct {
	Maps MapSource
	Wrap func(domain.Rules[Game]) domain.Rules[Game]
}

var (
	_ domain.Game    = PlatformGame{}
	_ domain.Matcher = PlatformGame{}
)

// NewPlatformGame returns Hex & Dice's game.
func NewPlatformGame() PlatformGame { return PlatformGame{} }

// Kind implements domain.Game.
func (PlatformGame) Kind() string { return Kind }

// Slots implements domain.Game.
func (PlatformGame) Slots() []domain.Slot {
	slots := []domain.Slot{
		// The hexes and sites packed (deflated JSON text): a Large map is
		// 16.6 KB of JSON in 700 fields, read once by every client.
		{Name: SlotMap, Path: "public/map", Type: MapJSON{}, Access: domain.ReadPublic, Packed: []string{"hexes", "structures"},
			Doc: "the map: every hex's terrain and the structures' starting sites (hexes, structures: packed JSON text), written once at create"},
		{Name: SlotOrders, Path: "orders/{key}", Type: Orders{}, Access: domain.ReadOwner, Journal: true,
			Doc: "simultaneous mode, games from before the orders were sealed in the game document: a player's saved or submitted orders, keyed by player id, and the records of that player's orders actions (its journal); that player only; no longer written"},
	}
	return append(slots, domain.HiddenSlots()...)
}

func (p PlatformGame) rules(orders map[string]Orders) domain.Rules[Game] {
	var r domain.Rules[Game] = Rules{Maps: p.Maps}.WithOrders(orders)
	if p.Wrap != nil {
		r = p.Wrap(r)
	}
	return r
}

// single is the one-document game over the rules with the private orders
// of this call.
func (p PlatformGame) single(orders map[string]Orders) domain.Game {
	return domain.Single(domain.SingleGame[Game]{Rules: p.rules(orders), Create: p.create, Hidden: p.hidden()})
}

// hidden is fog of war's hook into the platform (domain.Hidden): the game
// document shows Public, each player reads their own View, the whole state
// is server-only. The replies of Hex & Dice's actions tell the caller only
// about its own troops and what they attacked (which it saw), so Reply
// leaves them as they are.
func (p PlatformGame) hidden() *domain.Hidden[Game] {
	maps := Rules{Maps: p.Maps}
	return &domain.Hidden[Game]{
		Hides:   hides,
		Public:  Public,
		Viewers: func(g Game) []string { return g.PlayerIDs() },
		View: func(g Game, viewer string) any {
			m, err := maps.MapOf(g)
			if err != nil {
				return View{Seat: Neutral, Troops: []Troop{}, Structures: []SeenStructure{}}
			}
			return ViewOf(g, m, g.SeatOf(viewer))
		},
		Mask: func(g Game, viewer string) Game {
			m, err := maps.MapOf(g)
			if err != nil {
				return Public(g)
			}
			return Mask(g, m, g.SeatOf(viewer))
		},
		Events: func(before, after Game, evs []domain.Event, viewer string) []domain.Event {
			m, err := maps.MapOf(after)
			if err != nil {
				return []domain.Event{}
			}
			seat := Neutral
			if viewer != "" {
				seat = after.SeatOf(viewer)
			}
			return SeenEvents(before, after, m, evs, seat)
		},
	}
}

func decodeCreate(payload json.RawMessage) (CreateRequest, error) {
	var req CreateRequest
	err := domain.DecodePayload(payload, &req)
	return req, err
}

func decodePreview(payload json.RawMessage) (PreviewRequest, error) {
	var req PreviewRequest
	if err := domain.DecodePayload(payload, &req); err != nil {
		return req, err
	}
	if (req.Q == nil) != (req.R == nil) {
		return req, domain.Errorf(domain.EINVALID, "q and r go together: the hex to list targets from")
	}
	if req.Q != nil && req.Troop == nil {
		return req, domain.Errorf(domain.EINVALID, "troop is required with q and r")
	}
	return req, nil
}

// Plan implements domain.Game: every action reads the game document (as a
// snapshot, as domain.Single does); a malformed create or preview is refused
// before anything is read.
func (p PlatformGame) Plan(a domain.Action) (domain.Plan, error) {
	switch a.Type {
	case domain.ActionCreate:
		if _, err := decodeCreate(a.Payload); err != nil {
			return domain.Plan{}, err
		}
	case ActionPreview:
		if _, err := decodePreview(a.Payload); err != nil {
			return domain.Plan{}, err
		}
	}
	plan, err := p.single(nil).Plan(a)
	// The orders are the player's secret until the round resolves: the
	// platform keeps the payload sealed in the log, and its hash keyed.
	plan.Secret = a.Type == ActionOrders
	return plan, err
}

// create makes a room: every room gets a room code (the seed's "invite a
// friend"); a private one is joined with it only.
func (p PlatformGame) create(d domain.Docs, a domain.Action, env domain.Env) (Game, bool, error) {
	req, err := decodeCreate(a.Payload)
	if err != nil {
		return Game{}, false, err
	}
	g, err := Rules{Maps: p.Maps}.NewGame(a.GameID, a.Actor, Options{Size: req.Size, TurnSeconds: req.TurnSeconds,
		Mode: req.Mode, MapSeed: req.MapSeed, Private: req.Private, Fog: req.Fog}, env.Now)
	return g, true, err
}

// Run implements domain.Game.
func (p PlatformGame) Run(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	if a.Type == domain.ActionCreate {
		return p.runCreate(d, a, env)
	}
	view, err := readOrdersView(d)
	if err != nil {
		return domain.Change{}, err
	}
	orders, err := privateOrders(d, view.needs(a, env.Now))
	if err != nil {
		return domain.Change{}, err
	}
	single := p.single(orders)
	switch a.Type {
	case ActionPreview:
		return p.preview(single, d, a, env)
	case ActionHeartbeat:
		if ch, quiet, err := p.quietHeartbeat(single, d, a, env); err != nil || quiet {
			return ch, err
		}
	}
	return single.Run(d, a, env)
}

// runCreate creates the game (domain.Single) and writes its map document.
func (p PlatformGame) runCreate(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	ch, err := p.single(nil).Run(d, a, env)
	if err != nil {
		return domain.Change{}, err
	}
	w, ok := ch.GameWrite()
	if !ok {
		return domain.Change{}, domain.Errorf(domain.EINTERNAL, "create wrote no game")
	}
	g, ok := w.Value.(Game)
	if !ok {
		return domain.Change{}, domain.Errorf(domain.EINTERNAL, "create wrote a %T", w.Value)
	}
	m, err := Rules{Maps: p.Maps}.MapOf(g)
	if err != nil {
		return domain.Change{}, err
	}
	ch.Writes = append(ch.Writes, domain.Write{DocID: domain.Doc(SlotMap, ""), Value: m.JSON(), Create: true})
	return ch, nil
}

// ordersView is what Run reads of the game state to know which stored
// orders documents an action needs.
type ordersView struct {
	Phase        Phase     `json:"phase"`
	Mode         TurnMode  `json:"mode"`
	TurnDeadline time.Time `json:"turnDeadline"`
	Players      []struct {
		ID           string `json:"id"`
		Submitted    bool   `json:"submitted"`
		SealedOrders string `json:"sealedOrders"`
	} `json:"players"`
}

// readOrdersView reads the ordersView of the game document by splitting
// its text (domain.SplitObject) and decoding the members it needs: the
// mode and phase, and only in a simultaneous game being played the
// deadline and players. Decoding the whole document into an ordersView
// scanned every byte of its state twice (json.Unmarshal checks, then
// decodes), a third of Run's processor time besides the rules' own decode,
// on every action (the load generator's profile, 2026-11-28). Text it
// cannot split is decoded whole, as before.
//
// Errors: ENOTFOUND, EINTERNAL (a document that does not decode).
func readOrdersView(d domain.Docs) (ordersView, error) {
	var v ordersView
	ok, err := d.GetWith(domain.GameDocID, func(raw json.RawMessage) error {
		doc, ok := domain.SplitObject(raw)
		var state map[string]json.RawMessage
		if ok {
			state, ok = domain.SplitObject(doc["state"])
		}
		if !ok {
			var g domain.GameDoc[ordersView]
			err := json.Unmarshal(raw, &g)
			v = g.State
			return err
		}
		member := func(name string, dst any) error {
			if text, ok := state[name]; ok {
				return json.Unmarshal(text, dst)
			}
			return nil
		}
		if err := errors.Join(member("phase", &v.Phase), member("mode", &v.Mode)); err != nil {
			return err
		}
		if v.Mode != Simultaneous || v.Phase != PhasePlaying {
			return nil
		}
		return errors.Join(member("turnDeadline", &v.TurnDeadline), member("players", &v.Players))
	})
	if err != nil {
		return ordersView{}, err
	}
	if !ok {
		return ordersView{}, domain.Errorf(domain.ENOTFOUND, "no such %s game", Kind)
	}
	return v, nil
}

// needs lists the players whose orders documents action a needs on this
// game at now: those of a game from before the seal, who submitted orders
// this round and have none sealed in the game, when their orders are
// played: the planning deadline has passed, or a submits its orders (the
// last submission resolves). A player who only saved a draft there when
// the seal came loses it to the timer (the round plays no orders of
// theirs); every other game needs none.
func (v ordersView) needs(a domain.Action, now time.Time) []string {
	if v.Mode != Simultaneous || v.Phase != PhasePlaying {
		return nil
	}
	due := !v.TurnDeadline.IsZero() && !now.Before(v.TurnDeadline)
	if !due && (a.Type != ActionOrders || !submits(a)) {
		return nil
	}
	var ids []string
	for _, p := range v.Players {
		if p.Submitted && p.SealedOrders == "" && (due || p.ID != a.Actor.ID) {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// submits reports whether orders action a submits: only that, the rules
// decode (and check) the rest.
func submits(a domain.Action) bool {
	var req struct {
		Submit bool `json:"submit"`
	}
	_ = json.Unmarshal(a.Payload, &req)
	return req.Submit
}

// privateOrders returns the orders documents of players ids, asking for
// those not read yet. They are read as snapshots: nothing writes them any
// more (the orders of a player who submitted are final).
//
// Errors: *NeedDocs, EINTERNAL (a document that does not decode).
func privateOrders(d domain.Docs, ids []string) (map[string]Orders, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	out := map[string]Orders{}
	var need []domain.Read
	for _, id := range ids {
		doc := domain.Doc(SlotOrders, id)
		if !d.Asked(doc) {
			need = append(need, domain.Read{DocID: doc, Snapshot: true})
			continue
		}
		var o Orders
		found, err := d.Get(doc, &o)
		if err != nil {
			return nil, err
		}
		if found {
			out[id] = o
		}
	}
	if len(need) > 0 {
		return nil, domain.Need(need...)
	}
	return out, nil
}

// HeartbeatQuiet is how long after a player's last heartbeat or action a
// heartbeat changes nothing: the disconnect clock (60 s) needs one now and
// then, and a flood of them must not bump the version the opponent's
// version-guarded actions are checked against.
const HeartbeatQuiet = 10 * time.Second

// quietHeartbeat answers a heartbeat of a seated, connected player seen less
// than HeartbeatQuiet ago: what a passed deadline changes (as "advance"
// does), and nothing else, so it bumps no version and leaves no record.
// Otherwise (quiet false) the heartbeat runs as a step of its own.
func (p PlatformGame) quietHeartbeat(single domain.Game, d domain.Docs, a domain.Action, env domain.Env) (domain.Change, bool, error) {
	if err := domain.DecodePayload(a.Payload, nil); err != nil {
		return domain.Change{}, false, err
	}
	ch, g, err := p.advanced(single, d, a, env)
	if err != nil {
		return domain.Change{}, false, err
	}
	seat := g.SeatOf(a.Actor.ID)
	if seat < 0 || g.Phase == PhaseOver {
		return domain.Change{}, false, nil
	}
	pl := g.Players[seat]
	if pl.Disconnected() || pl.LastSeen.IsZero() || env.Now.Sub(pl.LastSeen) >= HeartbeatQuiet {
		return domain.Change{}, false, nil
	}
	return ch, true, nil
}

// advanced runs what "advance" would (the deadlines that passed) for a's
// caller, and returns that change and the game it leaves.
func (p PlatformGame) advanced(single domain.Game, d domain.Docs, a domain.Action, env domain.Env) (domain.Change, Game, error) {
	adv := a
	adv.Type = domain.ActionAdvance
	ch, err := single.Run(d, adv, env)
	if err != nil {
		return domain.Change{}, Game{}, err
	}
	for _, w := range ch.Writes {
		// A fog game's whole state is sealed in its game document (or in
		// private/state), whose state is the public projection.
		if w.Sealed != "" {
			hd, err := domain.OpenHidden[Game](env.Seal, w.Sealed)
			return ch, hd.State, err
		}
		switch v := w.Value.(type) {
		case domain.HiddenDoc[Game]:
			return ch, v.State, nil
		case Game:
			if !hides(v) {
				return ch, v, nil
			}
		}
	}
	doc, _, _, err := domain.ReadFull(d, Kind, p.hidden(), env.Seal)
	if err != nil {
		return domain.Change{}, Game{}, err
	}
	return ch, doc.State, nil
}

// preview answers ActionPreview: what the advance would apply first (a
// deadline that passed), then the preview of the state it leaves.
func (p PlatformGame) preview(single domain.Game, d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	req, err := decodePreview(a.Payload)
	if err != nil {
		return domain.Change{}, err
	}
	ch, g, err := p.advanced(single, d, a, env)
	if err != nil {
		return domain.Change{}, err
	}
	m, err := Rules{Maps: p.Maps}.MapOf(g)
	if err != nil {
		return domain.Change{}, err
	}
	seat := g.SeatOf(a.Actor.ID)
	var own *Orders
	if seat >= 0 && g.Phase == PhasePlaying && g.Players[seat].SealedOrders != "" {
		o, err := openOrders(g.Players[seat], env.Seal)
		if err != nil {
			return domain.Change{}, err
		}
		if o.Round == g.Round {
			own = &o
		}
	}
	// Under fog the preview answers from what the caller sees.
	g = Mask(g, m, seat)
	res, err := PreviewOf(g, m, a.Actor, req)
	if err != nil {
		return domain.Change{}, err
	}
	res.Orders = own
	ch.Result = res
	return ch, nil
}

// PreviewOf is the preview of g on map m for actor (the "preview" action's
// result).
//
// Errors: EINVALID (an unknown troop, a hex off the map).
func PreviewOf(g Game, m *Map, actor domain.Actor, req PreviewRequest) (Preview, error) {
	seat := g.SeatOf(actor.ID)
	s := preview(g, m)
	playing := g.Phase == PhasePlaying && seat >= 0
	planning := playing && g.Mode == Simultaneous && !g.Players[seat].Submitted
	myTurn := playing && g.Mode == Alternating && g.Current == seat
	out := Preview{Seat: seat, CanBuy: myTurn || planning, Buys: []BuyOption{}}
	if seat >= 0 {
		if b := BuyOptions(g, m, seat); b != nil {
			out.Buys = b
		}
	}
	if req.Troop == nil {
		return out, nil
	}
	i := g.TroopByID(*req.Troop)
	if i < 0 {
		return out, domain.Errorf(domain.EINVALID, "troop: there is no troop %d", *req.Troop)
	}
	t := g.Troops[i]
	from := t.Hex
	if req.Q != nil {
		from = Hex{*req.Q, *req.R}
		if !m.Contains(from) {
			return out, domain.Errorf(domain.EINVALID, "q, r: (%d,%d) is off the map (radius %d)", from.Q, from.R, m.Radius())
		}
	}
	own := t.Owner == seat
	tp := TroopPreview{Troop: t.ID, Owner: t.Owner, From: from, Reachable: []Reach{}, Targets: []Hex{},
		CanMove:   own && (planning || (myTurn && t.Ready && !t.Moved && !t.Attacked)),
		CanAttack: own && (planning || (myTurn && t.Ready && !t.Attacked && !s.noAttack()))}
	if r := s.destinations(t, s.reach(t), nil); r != nil {
		tp.Reachable = r
	}
	if h := s.targets(t, from); h != nil {
		tp.Targets = h
	}
	out.Troop = &tp
	return out, nil
}

// Queue implements domain.Matcher: one queue, the default room (medium, the
// default timer, alternating; no room code). quickMatch takes no fields.
//
// Errors: EINVALID.
func (PlatformGame) Queue(payload json.RawMessage) (string, json.RawMessage, error) {
	if err := domain.DecodePayload(payload, nil); err != nil {
		return "", nil, err
	}
	create, err := json.Marshal(CreateRequest{Size: Medium, TurnSeconds: DefaultConfig().Timers.DefaultTurnSeconds, Mode: Alternating})
	if err != nil {
		return "", nil, err
	}
	return QuickMatchQueue, create, nil
}

// ActionTypes implements domain.ActionTyper.
func (PlatformGame) ActionTypes() []string {
	return append(domain.SortedKeys(handlers), domain.ActionCreate, domain.ActionQuickMatch, domain.ActionLeaveQueue, ActionPreview)
}
