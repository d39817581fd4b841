// Package hexdice is the rule set of Hex & Dice, a two-player turn-based
// tactics game on a generated hex map (seed 003, rulings in
// shared/rulings/hexdice.md). It is pure: time comes in through env.Now,
// randomness through env.Dice, maps through a MapSource.
//
// Three values make a game, kept in three places by the platform:
//
//   - Game, the public state (the game document): small, no map, no orders;
//   - Map, immutable, regenerated from (size, seed) and cached (MapSource);
//   - Orders, a player's private orders in simultaneous mode, which the
//     opponent must never read (a private per-player document).
//
// docs/hexdice.md describes every rule as implemented.
package hexdice

import (
	"slices"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Kind is the game kind.
const Kind = "hexdice"

// Seat is a player's place: 0 for the host, 1 for the player who joined.
type Seat int

// Neutral owns the structures no player holds.
const Neutral Seat = -1

// Other returns the opposing seat.
func (s Seat) Other() Seat { return 1 - s }

// TurnMode is how players take turns (seed §9).
type TurnMode string

const (
	Alternating  TurnMode = "alternating"  // one player acts, then the other
	Simultaneous TurnMode = "simultaneous" // both plan orders, then all resolve at once
)

// Phase is where a game is in its life.
type Phase string

const (
	PhaseWaiting Phase = "waiting" // the host waits for an opponent
	PhasePlaying Phase = "playing"
	PhaseOver    Phase = "over"
)

// End reasons (Result.Reason, domain.GameOver.Reason).
const (
	ReasonHQ          = "hqDestroyed" // an HQ fell to 0 HP and was captured
	ReasonDominance   = "dominance"   // a majority of the structures for DominanceTurns own turns
	ReasonSuddenDeath = "suddenDeath" // the safe zone closed: structures, then troop HP, then a draw
	ReasonSurrender   = "surrender"
	ReasonDisconnect  = "disconnect" // a player stayed disconnected past the forfeit window
	ReasonCancelled   = "cancelled"  // nobody joined, or the host left the room: no result
)

// Player is a seated player's public state.
type Player struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Coins int    `json:"coins"`
	// Dominance counts this player's own turns in a row that ended with a
	// majority of all structures held (ruling 10).
	Dominance int `json:"dominance"`
	// Submitted: simultaneous mode, the player's orders for this round are
	// locked in. The orders themselves are never in the game state as
	// text anyone can read.
	Submitted bool `json:"submitted,omitempty"`
	// SealedOrders: simultaneous mode, the player's saved or submitted
	// orders for this round sealed by the platform (domain.Sealer, keyed by
	// the game's seed, which stays secret while the game is played): only
	// the server opens them. Empty when the player saved none this round,
	// and once the round resolves or the game ends.
	SealedOrders string `json:"sealedOrders,omitempty"`
	// LastSeen is the last heartbeat or action of the player.
	LastSeen time.Time `json:"lastSeen,omitzero"`
	// DisconnectedAt is set while the player is disconnected: since when.
	DisconnectedAt time.Time `json:"disconnectedAt,omitzero"`
	Kills          int       `json:"kills"` // enemy troops killed (attacks, counters, own structures)
	Losses         int       `json:"losses"`
	Turns          int       `json:"turns"` // own turns played to their end
	// EmoteTimes are the times of the player's last emotes, for the rate limit.
	EmoteTimes []time.Time `json:"emoteTimes,omitempty"`
}

// Disconnected reports whether the player missed heartbeats (ruling 12).
func (p Player) Disconnected() bool { return !p.DisconnectedAt.IsZero() }

// Troop is a unit on the map.
type Troop struct {
	ID    int      `json:"id"` // unique in the game, ascending in order of purchase
	Owner Seat     `json:"owner"`
	Type  UnitType `json:"type"`
	Hex
	HP int `json:"hp"`
	// Ready is false in the turn the troop was bought: it acts from its
	// owner's next turn on.
	Ready    bool `json:"ready"`
	Moved    bool `json:"moved,omitempty"`
	Attacked bool `json:"attacked,omitempty"`
	// Engaged: the troop attacked or was attacked since its owner's last
	// turn began; it does not heal (ruling 7).
	Engaged bool `json:"engaged,omitempty"`
}

// Structure is a structure's live state.
type Structure struct {
	ID    string        `json:"id"`
	Kind  StructureKind `json:"kind"`
	Owner Seat          `json:"owner"` // Neutral when no player holds it
	Hex                 // an HQ may move in sudden death
	HP    int           `json:"hp"`
}

// Emote is one sent emote.
type Emote struct {
	Seat  Seat      `json:"seat"`
	Emote string    `json:"emote"`
	At    time.Time `json:"at"`
}

// Summary is one player's end-of-game statistics.
type Summary struct {
	ID             string `json:"id"`
	TroopsKilled   int    `json:"troopsKilled"`
	TroopsLost     int    `json:"troopsLost"`
	StructuresHeld int    `json:"structuresHeld"`
	TurnsPlayed    int    `json:"turnsPlayed"`
}

// Result is how a game ended.
type Result struct {
	Winner  Seat      `json:"winner"` // Neutral for a draw or a cancelled game
	Draw    bool      `json:"draw,omitempty"`
	Reason  string    `json:"reason"`
	EndedAt time.Time `json:"endedAt"`
	Rounds  int       `json:"rounds"`
	Players []Summary `json:"players,omitempty"` // by seat; empty when cancelled
}

// Game is the whole public state of a Hex & Dice game, the game document.
// It holds no map (only what finds it) and no pending orders.
type Game struct {
	ID          string    `json:"id"`
	Phase       Phase     `json:"phase"`
	Mode        TurnMode  `json:"mode"`
	Size        Size      `json:"size"`
	TurnSeconds int       `json:"turnSeconds"`
	MapSeed     string    `json:"mapSeed"`
	MapHash     string    `json:"mapHash"`
	MapRadius   int       `json:"mapRadius"`
	Config      Config    `json:"config"` // the balance the game was created with
	CreatedAt   time.Time `json:"createdAt"`
	// JoinDeadline: while waiting, when the room is cancelled.
	JoinDeadline time.Time `json:"joinDeadline,omitzero"`
	// Private: the room is joined with its room code only and never listed
	// (Header.Private; the code itself is the platform's, never in the state).
	Private bool `json:"private,omitempty"`

	Players []Player `json:"players"` // by seat: the host, then the opponent

	// First is the seat that plays first in each round (alternating mode;
	// chosen with the dice when the opponent joins, ruling 8).
	First Seat `json:"first"`
	// Current is the seat whose turn it is (alternating mode), Neutral when
	// nobody's (simultaneous mode: both plan at once; or not playing).
	Current Seat `json:"current"`
	Round   int  `json:"round"` // 1 in the first round; 0 before play
	Turn    int  `json:"turn"`  // turns begun in the game (alternating: two per round)
	// TurnDeadline is when the current turn (alternating) or the planning
	// phase (simultaneous) times out.
	TurnDeadline time.Time `json:"turnDeadline,omitzero"`

	// SafeRadius is the radius of the safe zone: the map radius until
	// sudden death, then smaller each round (ruling 11).
	SafeRadius int `json:"safeRadius"`
	// SuddenDeath counts the sudden-death rounds begun (0: not yet).
	SuddenDeath int `json:"suddenDeath"`

	Troops     []Troop     `json:"troops"`     // ordered by id
	Structures []Structure `json:"structures"` // in the map's site order
	NextTroop  int         `json:"nextTroop"`  // the id the next troop gets

	Emotes []Emote `json:"emotes,omitempty"` // the last few, oldest first
	Result *Result `json:"result,omitempty"`

	// Fog: fog of war (fog.go). Memory is each seat's, by seat; it and
	// every troop and structure live only in the server's copy of the
	// state while the game is played (Public).
	Fog    bool     `json:"fog,omitempty"`
	Memory []Memory `json:"memory,omitempty"`

	// Rematch (rematch.go): RematchOf is the finished game this one is the
	// rematch of; RematchID the rematch of this one once both asked;
	// RematchAsked, by seat, who asked for it.
	RematchOf    string `json:"rematchOf,omitempty"`
	RematchID    string `json:"rematchId,omitempty"`
	RematchAsked []bool `json:"rematchAsked,omitempty"`
}

// Options are a room's settings chosen at creation (ruling 13).
type Options struct {
	Size        Size     // small, medium (default) or large
	TurnSeconds int      // one of Config.Timers.TurnSeconds; 0 for the default
	Mode        TurnMode // alternating (default) or simultaneous
	// MapSeed picks the map; empty uses the game id. It is public.
	MapSeed string
	// Config overrides DefaultConfig (an operator's config document).
	Config *Config
	// Private rooms are joined with their room code only (ruling 13).
	Private bool
	// Fog of war (fog.go).
	Fog bool
}

// NewGame creates a room hosted by host, waiting for an opponent until
// now + Config.Timers.JoinSeconds. It generates the map (through
// DefaultMaps, so the map is cached) to place the structures.
//
// Errors: EINVALID (empty id or host id, unknown size or mode, a timer not
// offered, an invalid config), EINTERNAL (no map could be generated).
func NewGame(id string, host domain.Actor, opts Options, now time.Time) (Game, error) {
	return newGame(id, host, opts, now, DefaultMaps)
}

// NewGame creates a room as the package-level NewGame does, generating the
// map through the rules' MapSource.
//
// Errors: as NewGame.
func (r Rules) NewGame(id string, host domain.Actor, opts Options, now time.Time) (Game, error) {
	return newGame(id, host, opts, now, r.maps())
}

func newGame(id string, host domain.Actor, opts Options, now time.Time, maps MapSource) (Game, error) {
	cfg := DefaultConfig()
	if opts.Config != nil {
		cfg = *opts.Config
	}
	if opts.Size == "" {
		opts.Size = Medium
	}
	if opts.Mode == "" {
		opts.Mode = Alternating
	}
	if opts.TurnSeconds == 0 {
		opts.TurnSeconds = cfg.Timers.DefaultTurnSeconds
	}
	if opts.MapSeed == "" {
		opts.MapSeed = id
	}
	switch {
	case id == "":
		return Game{}, domain.Errorf(domain.EINVALID, "game id is required")
	case host.ID == "":
		return Game{}, domain.Errorf(domain.EINVALID, "host id is required")
	case opts.Mode != Alternating && opts.Mode != Simultaneous:
		return Game{}, domain.Errorf(domain.EINVALID, "mode must be alternating or simultaneous, not %q", opts.Mode)
	case len(opts.MapSeed) > 200:
		return Game{}, domain.Errorf(domain.EINVALID, "mapSeed is longer than 200 bytes")
	}
	if opts.Fog && cfg.Vision.empty() {
		cfg.Vision = DefaultVision()
	}
	if err := cfg.Validate(); err != nil {
		return Game{}, err
	}
	if _, ok := cfg.Sizes[opts.Size]; !ok {
		return Game{}, domain.Errorf(domain.EINVALID, "size must be small, medium or large, not %q", opts.Size)
	}
	if !slices.Contains(cfg.Timers.TurnSeconds, opts.TurnSeconds) {
		return Game{}, domain.Errorf(domain.EINVALID, "turnSeconds must be one of %v, not %d", cfg.Timers.TurnSeconds, opts.TurnSeconds)
	}
	m, err := maps.Map(opts.Size, opts.MapSeed, "", cfg)
	if err != nil {
		return Game{}, err
	}
	now = now.UTC()
	g := Game{
		ID: id, Phase: PhaseWaiting, Mode: opts.Mode, Size: opts.Size, TurnSeconds: opts.TurnSeconds,
		MapSeed: opts.MapSeed, MapHash: m.Hash(), MapRadius: m.Radius(), Config: cfg,
		CreatedAt: now, JoinDeadline: now.Add(seconds(cfg.Timers.JoinSeconds)), Private: opts.Private,
		Players:    []Player{{ID: host.ID, Name: host.Name, Coins: cfg.Economy.StartCoins, LastSeen: now}},
		First:      0,
		Current:    Neutral,
		SafeRadius: m.Radius(),
		Troops:     []Troop{},
		NextTroop:  1,
	}
	for _, s := range m.sites {
		g.Structures = append(g.Structures, Structure{ID: s.ID, Kind: s.Kind, Owner: s.Owner, Hex: s.Hex, HP: cfg.Structures[s.Kind].HP})
	}
	if opts.Fog {
		g.Fog = true
		g.Memory = []Memory{newMemory(g)}
		s := preview(g, m)
		s.remember()
		g = s.g
	}
	return g, nil
}

func seconds(n int) time.Duration { return time.Duration(n) * time.Second }

// clone returns a copy of g sharing nothing the rules change. The Config is
// shared: rules never change it.
func (g Game) clone() Game {
	g.Players = slices.Clone(g.Players)
	for i := range g.Players {
		g.Players[i].EmoteTimes = slices.Clone(g.Players[i].EmoteTimes)
	}
	g.Troops = slices.Clone(g.Troops)
	g.Structures = slices.Clone(g.Structures)
	g.Emotes = slices.Clone(g.Emotes)
	g.Memory = slices.Clone(g.Memory)
	g.RematchAsked = slices.Clone(g.RematchAsked)
	if g.Result != nil {
		r := *g.Result
		r.Players = slices.Clone(r.Players)
		g.Result = &r
	}
	return g
}

// SeatOf returns the seat of player id, or Neutral when id is not seated.
func (g Game) SeatOf(id string) Seat {
	for i, p := range g.Players {
		if id != "" && p.ID == id {
			return Seat(i)
		}
	}
	return Neutral
}

// PlayerIDs lists the seated players' ids by seat.
func (g Game) PlayerIDs() []string {
	out := make([]string, len(g.Players))
	for i, p := range g.Players {
		out[i] = p.ID
	}
	return out
}

// TroopByID returns the index of troop id in g.Troops, -1 if none.
func (g Game) TroopByID(id int) int {
	i, ok := slices.BinarySearchFunc(g.Troops, id, func(t Troop, id int) int { return t.ID - id })
	if !ok {
		return -1
	}
	return i
}

// StructuresHeld counts the structures seat holds (HQ included).
func (g Game) StructuresHeld(seat Seat) int {
	n := 0
	for _, s := range g.Structures {
		if s.Owner == seat {
			n++
		}
	}
	return n
}

// TroopHP sums the HP of seat's troops.
func (g Game) TroopHP(seat Seat) int {
	n := 0
	for _, t := range g.Troops {
		if t.Owner == seat {
			n += t.HP
		}
	}
	return n
}

// Income is what seat receives at the start of its turn: the passive income
// plus every held structure's income.
func (g Game) Income(seat Seat) int {
	n := g.Config.Economy.Income
	for _, s := range g.Structures {
		if s.Owner == seat {
			n += g.Config.Structures[s.Kind].Income
		}
	}
	return n
}

// StormDamage is the damage troops outside the safe zone take at the start
// of sudden-death round k (1, 2, ...).
func (c Config) StormDamage(k int) int {
	return c.SuddenDeath.FirstDamage + (k-1)*c.SuddenDeath.DamageStep
}
