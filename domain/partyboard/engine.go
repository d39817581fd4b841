package partyboard

import (
	"fmt"
	"math"
	"slices"

	"github.com/meeple-games/meeple/domain"
)

// BoardSource finds a board by id: built-in boards, and uploaded ones the
// functions layer loads (boards never change, so it may cache them).
type BoardSource interface {
	Board(id string) (*Board, error)
}

// BuiltinSource serves the built-in boards.
type BuiltinSource struct{}

// Board implements BoardSource.
func (BuiltinSource) Board(id string) (*Board, error) { return BuiltinBoard(id) }

// MapSource serves the boards it holds, by id (tests, tools).
type MapSource map[string]*Board

// Board implements BoardSource.
func (m MapSource) Board(id string) (*Board, error) {
	if b, ok := m[id]; ok {
		return b, nil
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no board %q", id)
}

// Rules is Party Board's rule set for the shared pipeline. Work no player
// drives (skipping players who lose turns, zone rules at the start of a turn,
// moving, the landing tile's rule) runs inside Apply until the next input is
// needed, so it happens exactly once, in the transaction of the action that
// caused it.
type Rules struct{ Boards BoardSource }

var _ domain.Rules[Game] = Rules{}

// Kind implements domain.Rules.
func (Rules) Kind() string { return Kind }

// Header implements domain.Rules. Party Board has no timers.
func (Rules) Header(g Game) domain.Header {
	h := domain.Header{Players: g.ids(), Status: domain.StatusActive}
	switch g.Phase {
	case PhaseLobby:
		h.Status = domain.StatusWaiting
	case PhaseOver:
		h.Status = domain.StatusOver
	}
	return h
}

// Expire implements domain.Rules: Party Board sets no deadlines.
func (Rules) Expire(g Game, env domain.Env) (Game, domain.Outcome, error) {
	return g, domain.Outcome{}, domain.Errorf(domain.ECONFLICT, "party board games have no deadlines")
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

func (s *step) emit(player, typ string, data any) {
	s.events = append(s.events, domain.Event{Type: typ, Player: player, Data: data})
}

// Apply implements domain.Rules. On an error it returns g unchanged.
//
// Errors: EINVALID (bad payload or choice), ECONFLICT (not awaited, wrong
// phase), EFORBIDDEN (not seated), ENOTFOUND (the board is gone).
func (r Rules) Apply(g Game, a domain.Action, env domain.Env) (Game, domain.Outcome, error) {
	src := r.Boards
	if src == nil {
		src = BuiltinSource{}
	}
	b, err := src.Board(g.BoardID)
	if err != nil {
		return g, domain.Outcome{}, err
	}
	s := &step{g: g.clone(), b: b, dice: env.Dice}
	if err := s.apply(a); err != nil {
		return g, domain.Outcome{}, err
	}
	return s.g, domain.Outcome{Events: s.events, Result: s.result}, nil
}

func (s *step) apply(a domain.Action) error {
	g := &s.g
	switch a.Type {
	case ActionJoin:
		switch {
		case g.Phase != PhaseLobby:
			return domain.Errorf(domain.ECONFLICT, "the game has started")
		case g.seat(a.Actor.ID) >= 0:
			return domain.Errorf(domain.ECONFLICT, "you are already in this game")
		case len(g.Players) >= MaxPlayers:
			return domain.Errorf(domain.ECONFLICT, "the game is full (%d players)", MaxPlayers)
		}
		g.Players = append(g.Players, Player{ID: a.Actor.ID, Name: a.Actor.Name})
		s.emit(a.Actor.ID, "joined", map[string]any{"name": a.Actor.Name})
		return nil
	case ActionStart:
		switch {
		case g.seat(a.Actor.ID) < 0:
			return domain.Errorf(domain.EFORBIDDEN, "you are not in this game")
		case a.Actor.ID != g.Host:
			return domain.Errorf(domain.ECONFLICT, "only the host starts the game")
		case g.Phase != PhaseLobby:
			return domain.Errorf(domain.ECONFLICT, "the game has started")
		case len(g.Players) < MinPlayers:
			return domain.Errorf(domain.ECONFLICT, "at least %d players are needed", MinPlayers)
		}
		g.Phase, g.Turn, g.Current = PhasePlaying, 1, 0
		s.emit(a.Actor.ID, "started", map[string]any{"players": g.ids()})
		if s.b.Tiles[0].Rule.Type == StarterSelectionRule {
			g.Then = []string{"turnRoll"}
			s.run("tiles[0].rule", g.Current)
			return s.settle()
		}
		s.startTurn()
		return s.settle()
	}
	if g.Phase != PhasePlaying || g.Await == nil {
		return domain.Errorf(domain.ECONFLICT, "the game is not being played")
	}
	if g.seat(a.Actor.ID) < 0 {
		return domain.Errorf(domain.EFORBIDDEN, "you are not in this game")
	}
	w := g.Await
	if w.Action != a.Type || !slices.Contains(w.Players, a.Actor.ID) {
		return domain.Errorf(domain.ECONFLICT, "the game waits for %s to %s", s.names(w.Players), w.Action)
	}
	if err := s.answer(a); err != nil {
		return err
	}
	return s.settle()
}

// settle runs automatic work until an input is awaited or the game is over.
func (s *step) settle() error {
	for s.g.Phase == PhasePlaying && s.g.Await == nil {
		if s.guard++; s.guard > 1000 {
			return domain.Errorf(domain.EINTERNAL, "the board loops without input")
		}
		s.proceed()
	}
	return nil
}

func (s *step) names(ids []string) string {
	if len(ids) > 1 {
		return fmt.Sprintf("%d players", len(ids))
	}
	for _, p := range s.g.Players {
		if len(ids) == 1 && p.ID == ids[0] {
			return p.Name
		}
	}
	return "nobody"
}

func (s *step) cur() *Player { return &s.g.Players[s.g.Current] }

// proceed does what follows a finished rule.
func (s *step) proceed() {
	g := &s.g
	if len(g.Then) == 0 {
		s.endTurn()
		return
	}
	next := g.Then[len(g.Then)-1]
	g.Then = g.Then[:len(g.Then)-1]
	switch next {
	case "turnRoll":
		g.Then = append(g.Then, "endTurn")
		g.Await = &Await{Action: ActionRoll, Players: []string{s.cur().ID}, Purpose: "turnRoll", Dice: 1}
	default:
		s.endTurn()
	}
}

// endTurn passes the turn, or gives an extra turn.
func (s *step) endTurn() {
	g := &s.g
	g.Then = nil
	p := s.cur()
	g.Turn++
	if p.ExtraTurns > 0 {
		p.ExtraTurns--
		s.emit(p.ID, "extraTurn", nil)
	} else {
		s.advance()
	}
	s.startTurn()
}

func (s *step) advance() {
	n := len(s.g.Players)
	if s.g.Reversed {
		s.g.Current = (s.g.Current - 1 + n) % n
	} else {
		s.g.Current = (s.g.Current + 1) % n
	}
}

// startTurn skips players who lose turns, then runs the active zone rule of
// the player's tile and asks for the turn roll.
func (s *step) startTurn() {
	g := &s.g
	for i := 0; i < len(g.Players)*(MaxTurns*4+1); i++ {
		p := s.cur()
		if p.Anchors > 0 { // an anchor holds until its player's next turn
			p.Anchors--
		}
		if p.LostTurns == 0 {
			break
		}
		p.LostTurns--
		s.emit(p.ID, "turnLost", map[string]any{"remaining": p.LostTurns})
		g.Turn++
		s.advance()
	}
	p := s.cur()
	g.Then = []string{"turnRoll"}
	s.emit(p.ID, "turnStarted", map[string]any{"turn": g.Turn})
	if z := s.zoneOf(p.Tile); z >= 0 && s.b.Zones[z].Type == "active" {
		s.run(fmt.Sprintf("zones[%d].rule", z), g.Current)
	}
}

func (s *step) zoneOf(tile int) int {
	name := s.b.Tiles[tile].Zone
	for i, z := range s.b.Zones {
		if name != "" && z.Name == name {
			return i
		}
	}
	return -1
}

func (s *step) roll(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = s.dice.Roll(6)
	}
	s.g.LastRolls = out
	return out
}

// moveRoll applies a player's speed modifiers (ruling 7: round down, never
// below 0) and counts their turns down.
func (s *step) moveRoll(p *Player, roll int) int {
	v := float64(roll)
	var keep []SpeedMod
	for _, m := range p.SpeedMods {
		switch m.Op {
		case "*":
			v *= m.Value
		case "+":
			v += m.Value
		case "-":
			v -= m.Value
		case "=":
			v = m.Value
		}
		if m.Turns--; m.Turns > 0 {
			keep = append(keep, m)
		}
	}
	p.SpeedMods = keep
	return max(0, int(math.Floor(v)))
}

func (s *step) last() int { return len(s.b.Tiles) - 1 }

// walk moves p forward n spaces for a turn roll, stopping at mandatory tiles
// (unless skipped) and at anchored players, and returns the landing tile.
func (s *step) walk(pi, n int) int {
	p := &s.g.Players[pi]
	pos := p.Tile
	for i := 0; i < n && pos < s.last(); i++ {
		pos++
		if s.anchoredAt(pi, pos) {
			break
		}
		if s.b.Tiles[pos].Mandatory || slices.Contains(p.Mandatory, pos) {
			if p.SkipMandatory > 0 {
				p.SkipMandatory--
				continue
			}
			break
		}
	}
	return pos
}

func (s *step) anchoredAt(mover, tile int) bool {
	for i, q := range s.g.Players {
		if i != mover && q.Anchors > 0 && q.Tile == tile {
			return true
		}
	}
	return false
}

// land puts a player on a tile after a turn roll and runs its rule.
func (s *step) land(pi, tile int) {
	p := &s.g.Players[pi]
	from := p.Tile
	p.Tile = tile
	s.emit(p.ID, "moved", map[string]any{"from": from, "to": tile})
	if tile != from {
		s.run(fmt.Sprintf("tiles[%d].rule", tile), pi)
	}
}

func (s *step) moveBy(pi, n int) {
	p := &s.g.Players[pi]
	from := p.Tile
	p.Tile = min(max(0, p.Tile+n), s.last())
	p.Condition = nil
	s.emit(p.ID, "moved", map[string]any{"from": from, "to": p.Tile})
}

func (s *step) others(pi int) []int {
	var out []int
	for i := range s.g.Players {
		if i != pi {
			out = append(out, i)
		}
	}
	return out
}
