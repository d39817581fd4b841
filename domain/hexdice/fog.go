package hexdice

import (
	"slices"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// Fog of war (seed Phase 2, ruling 14; docs/hexdice.md "Fog of war"). A game
// created with fog keeps, for each seat, what it has seen (Memory); the
// platform keeps the whole state server-only and gives each player a view
// (domain.Hidden, wired in platform.go).

// Memory is what one seat remembers of the map.
type Memory struct {
	// Seen has one character per hex of the map, in the map document's
	// order: '1' once the seat has seen the hex, '0' never.
	Seen string `json:"seen"`
	// Structures are every structure as the seat last saw it (owner, hex;
	// at the start, as the public map places them).
	Structures []Structure `json:"structures"`
}

// remember adds what each seat sees now to its memory (fog games).
func (s *step) remember() {
	if !s.g.Fog || len(s.g.Memory) == 0 {
		return
	}
	all := s.m.g.all()
	s.g.Memory = slices.Clone(s.g.Memory)
	for seat := range s.g.Memory {
		if seat >= len(s.g.Players) {
			continue
		}
		mem := s.g.Memory[seat]
		v := s.vision(Seat(seat))
		b := []byte(mem.Seen)
		if len(b) != len(all) {
			b = []byte(strings.Repeat("0", len(all)))
		}
		for i, h := range all {
			if v[s.m.g.index(h)] {
				b[i] = '1'
			}
		}
		mem.Seen = string(b)
		mem.Structures = slices.Clone(mem.Structures)
		for _, st := range s.g.Structures {
			if !v[s.m.g.index(st.Hex)] {
				continue
			}
			st.HP = 0 // remembered: owner and place, not HP
			k := slices.IndexFunc(mem.Structures, func(x Structure) bool { return x.ID == st.ID })
			if k < 0 {
				mem.Structures = append(mem.Structures, st)
			} else {
				mem.Structures[k] = st
			}
		}
		s.g.Memory[seat] = mem
	}
}

// newMemory is a seat's memory at the start: nothing seen, the structures
// where the public map puts them.
func newMemory(g Game) Memory {
	sts := slices.Clone(g.Structures)
	for i := range sts {
		sts[i].HP = 0
	}
	return Memory{Seen: strings.Repeat("0", HexCount(g.MapRadius)), Structures: sts}
}

// hides reports whether g keeps anything from anyone: a fog game until it
// is over (then its whole final state is public).
func hides(g Game) bool { return g.Fog && g.Phase != PhaseOver }

// Public is what the game document shows of a fog game while it is played:
// no troops, no structures (their sites are on the public map), no memory.
// Players' coins, kills, losses, the round and the clocks stay public.
func Public(g Game) Game {
	if !hides(g) {
		return g
	}
	g = g.clone()
	g.Troops = []Troop{}
	g.Structures = []Structure{}
	g.Memory = nil
	return g
}

// Mask is g as seat sees it: its own troops and structures; enemy troops in
// its vision; other structures as it last saw them. Everything else is
// gone. A spectator (Neutral) gets Public(g). "legal" and "preview" answer
// from it, and simultaneous orders are checked against it.
func Mask(g Game, m *Map, seat Seat) Game {
	if !g.Fog {
		return g
	}
	if seat < 0 || int(seat) >= len(g.Memory) {
		return Public(g)
	}
	s := preview(g, m)
	v := s.vision(seat)
	out := g.clone()
	out.Troops = out.Troops[:0]
	for _, t := range g.Troops {
		if t.Owner == seat || v[m.g.index(t.Hex)] {
			out.Troops = append(out.Troops, t)
		}
	}
	mem := g.Memory[seat]
	out.Structures = out.Structures[:0]
	for _, st := range g.Structures {
		if st.Owner != seat && !v[m.g.index(st.Hex)] {
			if k := slices.IndexFunc(mem.Structures, func(x Structure) bool { return x.ID == st.ID }); k >= 0 {
				st = mem.Structures[k]
			}
			st.HP = 0 // unknown
		}
		out.Structures = append(out.Structures, st)
	}
	out.Memory = make([]Memory, len(g.Memory))
	out.Memory[seat] = mem
	return out
}

// View is a player's view document (views/{playerId}) in a fog game.
type View struct {
	Seat Seat `json:"seat"`
	// Fog has one character per hex of the map, in the map document's
	// order (public/map "hexes"): '0' never seen, '1' remembered (terrain
	// and structures as last seen, no troops), '2' in vision now.
	Fog string `json:"fog"`
	// Troops are the seat's own troops and the enemy troops it sees now.
	Troops []Troop `json:"troops"`
	// Structures are every structure: live (with HP) when the seat sees its
	// hex, as last seen otherwise (Seen false, no HP).
	Structures []SeenStructure `json:"structures"`
}

// SeenStructure is a structure in a view.
type SeenStructure struct {
	ID    string        `json:"id"`
	Kind  StructureKind `json:"kind"`
	Owner Seat          `json:"owner"`
	Hex
	HP   int  `json:"hp,omitempty"`
	Seen bool `json:"seen"` // in vision now
}

// ViewOf is seat's view of g.
func ViewOf(g Game, m *Map, seat Seat) View {
	out := View{Seat: seat, Troops: []Troop{}, Structures: []SeenStructure{}}
	if seat < 0 || int(seat) >= len(g.Memory) {
		return out
	}
	s := preview(g, m)
	v := s.vision(seat)
	mem := g.Memory[seat]
	b := []byte(mem.Seen)
	for i, h := range m.g.all() {
		if i < len(b) && v[m.g.index(h)] {
			b[i] = '2'
		}
	}
	out.Fog = string(b)
	for _, t := range g.Troops {
		if t.Owner == seat || v[m.g.index(t.Hex)] {
			out.Troops = append(out.Troops, t)
		}
	}
	for _, st := range g.Structures {
		if st.Owner == seat || v[m.g.index(st.Hex)] {
			out.Structures = append(out.Structures, SeenStructure{ID: st.ID, Kind: st.Kind, Owner: st.Owner, Hex: st.Hex, HP: st.HP, Seen: true})
			continue
		}
		if k := slices.IndexFunc(mem.Structures, func(x Structure) bool { return x.ID == st.ID }); k >= 0 {
			r := mem.Structures[k]
			out.Structures = append(out.Structures, SeenStructure{ID: r.ID, Kind: r.Kind, Owner: r.Owner, Hex: r.Hex})
		}
	}
	return out
}

// seenBy is what one viewer saw during a step: the hexes it saw before or
// after it (a unit is seen in an event when one of its hexes there is).
type seenBy struct {
	seat   Seat
	hexes  map[Hex]bool
	owners map[int]Seat // troop id → owner, before and after
	where  map[int]Hex  // troop id → hex before (after for a new one)
	sts    map[string]Structure
}

func newSeenBy(before, after Game, m *Map, seat Seat) seenBy {
	sb := seenBy{seat: seat, hexes: map[Hex]bool{}, owners: map[int]Seat{}, where: map[int]Hex{}, sts: map[string]Structure{}}
	if seat >= 0 {
		for _, g := range []Game{before, after} {
			for h := range Visible(g, m, seat) {
				sb.hexes[h] = true
			}
		}
	}
	for _, t := range after.Troops {
		sb.owners[t.ID], sb.where[t.ID] = t.Owner, t.Hex
	}
	for _, t := range before.Troops {
		sb.owners[t.ID], sb.where[t.ID] = t.Owner, t.Hex
	}
	for _, st := range after.Structures {
		sb.sts[st.ID] = st
	}
	for _, st := range before.Structures {
		sb.sts[st.ID] = st
	}
	return sb
}

func (sb seenBy) own(seat Seat) bool { return sb.seat >= 0 && seat == sb.seat }

func (sb seenBy) troop(id int) bool {
	o, ok := sb.owners[id]
	return ok && (sb.own(o) || sb.hexes[sb.where[id]])
}

func (sb seenBy) structure(id string) bool {
	st, ok := sb.sts[id]
	return ok && (sb.own(st.Owner) || sb.hexes[st.Hex])
}

func (sb seenBy) unit(u Unit) bool { return sb.own(u.Owner) || sb.hexes[u.Hex] }

// SeenMoveData is the data of EventMoved as a viewer saw an enemy troop's
// move: only the hexes it saw (From and To absent when unseen).
type SeenMoveData struct {
	Troop int   `json:"troop"`
	From  *Hex  `json:"from,omitempty"`
	To    *Hex  `json:"to,omitempty"`
	Path  []Hex `json:"path"`
}

// UnseenUnit stands for the side of an attack a viewer did not see.
type UnseenUnit struct {
	Owner  Seat `json:"owner"`
	Unseen bool `json:"unseen"`
}

// SeenAttackData is the data of EventAttacked when the viewer saw one side
// only: the other is an UnseenUnit, and an unseen target's HP and damage
// are left out.
type SeenAttackData struct {
	Kind     string `json:"kind"`
	Attacker any    `json:"attacker"`
	Target   any    `json:"target"`
	Hit      bool   `json:"hit"`
	Damage   *int   `json:"damage,omitempty"`
	HP       *int   `json:"hp,omitempty"`
	Captured bool   `json:"captured,omitempty"`
}

// SeenEvents is a step's events as seat saw them in a fog game (Neutral:
// the neutral account the game document's log and the history keep).
// What names no troop, hex or HP (turns, rounds, coins, connections,
// emotes, the end) is everyone's; an event about a troop or structure is
// kept when the viewer saw it before or after the step, trimmed to what it
// saw; enemy orders are never revealed.
func SeenEvents(before, after Game, m *Map, events []domain.Event, seat Seat) []domain.Event {
	out := []domain.Event{}
	if !before.Fog && !after.Fog {
		return append(out, events...)
	}
	sb := newSeenBy(before, after, m, seat)
	mine := func(e domain.Event) bool {
		return seat >= 0 && int(seat) < len(after.Players) && e.Player == after.Players[seat].ID
	}
	for _, e := range events {
		keep := true
		switch d := e.Data.(type) {
		case StormData:
			keep = sb.troop(d.Troop)
		case HealedData:
			keep = sb.troop(d.Troop)
		case RepairedData:
			keep = sb.structure(d.Structure)
		case BoughtData:
			keep = mine(e) || sb.hexes[d.Hex]
		case MovedData:
			if !mine(e) {
				sm := SeenMoveData{Troop: d.Troop, Path: []Hex{}}
				if sb.hexes[d.From] {
					sm.From = &d.From
				}
				if sb.hexes[d.To] {
					sm.To = &d.To
				}
				for _, h := range d.Path {
					if sb.hexes[h] {
						sm.Path = append(sm.Path, h)
					}
				}
				keep = sm.From != nil || sm.To != nil || len(sm.Path) > 0
				e.Data = sm
			}
		case AttackData:
			a, t := sb.unit(d.Attacker), sb.unit(d.Target)
			switch {
			case a && t:
			case !a && !t:
				keep = false
			default:
				sa := SeenAttackData{Kind: d.Kind, Attacker: d.Attacker, Target: d.Target, Hit: d.Hit, Captured: d.Captured}
				if !a {
					sa.Attacker = UnseenUnit{Owner: d.Attacker.Owner, Unseen: true}
				}
				if t {
					sa.Damage, sa.HP = &d.Damage, &d.HP
				} else {
					sa.Target = UnseenUnit{Owner: d.Target.Owner, Unseen: true}
				}
				e.Data = sa
			}
		case AttackVoidData:
			keep = sb.troop(d.Troop)
		case TroopKilledData:
			keep = sb.own(d.Owner) || sb.hexes[d.Hex]
		case CapturedData:
			keep = sb.own(d.From) || sb.own(d.To) || sb.structure(d.Structure)
		case HQRelocatedData:
			keep = sb.structure(d.Structure) || sb.hexes[d.To]
		case OrdersRevealedData:
			keep = sb.own(d.Seat)
		case MoveCancelledData:
			if keep = sb.troop(d.Troop); keep && !mine(e) && !sb.hexes[d.To] {
				keep = false
			}
		case BuyCancelledData:
			keep = mine(e) || sb.hexes[d.Hex]
		}
		if keep {
			out = append(out, e)
		}
	}
	return out
}

// maskedStep is a read-only step over seat's masked view.
func (s *step) maskedStep(seat Seat) *step {
	ms := newStep(Mask(s.g, s.m, seat), s.m, s.now, nil)
	ms.masked = true
	return ms
}

// fogMove moves troop t of seat to h in a fog game. The move is checked
// against the board as seat sees it (a hidden enemy never makes it refused,
// which would tell where that enemy is). The troop then walks its path; if
// it runs into a hidden enemy troop it stops on the last free hex before it
// (ambushed: the move is spent), and now sees the enemy.
func (s *step) fogMove(seat Seat, t Troop, h Hex) error {
	ms := s.maskedStep(seat)
	mt := ms.g.Troops[ms.g.TroopByID(t.ID)]
	ps := ms.reach(mt)
	j := s.m.g.index(h)
	if ps.cost[j] <= 0 || ms.troopAt(h) >= 0 {
		return domain.Errorf(domain.EINVALID, "q, r: troop %d cannot reach and stop on (%d,%d) (mobility %d)", t.ID, h.Q, h.R, s.unit(t).Mobility)
	}
	path := ms.path(ps, j)
	stop, walked, ambush := t.Hex, []Hex{}, (*Hex)(nil)
	for k, x := range path {
		if ti := s.troopAt(x); ti >= 0 && s.g.Troops[ti].Owner != seat {
			a := x
			ambush = &a
			break
		} else if ti < 0 {
			stop, walked = x, path[:k+1]
		}
	}
	if ambush != nil && stop != t.Hex {
		// Drop the friendly troops passed through after the last free hex.
		for len(walked) > 0 && walked[len(walked)-1] != stop {
			walked = walked[:len(walked)-1]
		}
	}
	i := s.g.TroopByID(t.ID)
	tt := &s.g.Troops[i]
	tt.Hex, tt.Moved = stop, true
	s.moved()
	cost := 0
	if stop != t.Hex {
		cost = int(ps.cost[s.m.g.index(stop)])
	}
	s.emit(seat, EventMoved, MovedData{Troop: t.ID, From: t.Hex, To: stop, Cost: cost, Path: walked, Ambush: ambush})
	return nil
}
