// Package tilerace is the rule set of Tile Race: teams race across 56 tiles by
// doing real-world tasks, earning points for their players and powerups for
// themselves, under a shared fog of war, run by a master admin and regular
// admins.
//
// The state is split into values the store keeps in separate documents, so
// that teams acting at the same time do not contend on one hot document:
//
//   - Game: settings, status, fog mode and reveal frontier, winner, admins and
//     the team roster (ids, names, colours). Public. Written by admin actions
//     and by a team action only when something global changes (the reveal
//     frontier moves, the race is won).
//   - Team: one per team: position, progress on the current tile, inventory,
//     cooldown, members, Discord slot, claims. Public. A team's own actions
//     write only its own Team.
//   - Tile: the full content of one race tile. Private (fog of war); the
//     public projection (PublicTile) carries no content for hidden tiles.
//     Board is all 56 of them, for admin actions and the randomisers.
//   - PowerupTile: one per powerup task. Public.
//   - Pools: the three difficulty pools of tasks. Private.
//
// Every action is a pure function over exactly the values it needs, returning
// the new values and an Outcome (events, result, what changed). Time comes in
// through Ctx and randomness through a domain.Dice. No function changes the
// values it is given. docs/tilerace.md describes every rule as implemented.
package tilerace

import (
	"strings"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Kind is the game kind.
const Kind = "tilerace"

// Board geometry.
const (
	NumTiles  = 56 // tiles on the board, numbered 1..56
	FinalTile = 56 // the final tile: always hard, never modified by powerups
	// FixedHardTile is the tile the difficulty randomiser always makes hard,
	// besides the final tile.
	FixedHardTile = 5
)

// Limits on admin-supplied values.
const (
	MaxTeams         = 20
	MaxMembers       = 50
	MaxAdmins        = 20
	MaxNameLen       = 40   // team, player and admin names, in characters
	MaxLabelLen      = 150  // task labels
	MaxTextLen       = 1000 // instructions
	MaxURLLen        = 500  // image URLs
	MaxCompletions   = 100  // a task's max
	MaxPoints        = 100_000
	MaxPoolTasks     = 500 // per pool
	MaxPowerupTiles  = 200
	MaxInventory     = 100
	DefaultReserve   = 3 // pool tasks Randomise Tiles leaves unused per pool
	MaxReserve       = 100
	DefaultPoints    = 100 // hundredths: 1 point
	maxIDLen         = 64
	maxPlayersPerReq = 100
)

// Difficulty of a task: 1 easy, 2 medium, 3 hard.
type Difficulty int

const (
	Easy   Difficulty = 1
	Medium Difficulty = 2
	Hard   Difficulty = 3
)

// Valid reports whether d is easy, medium or hard.
func (d Difficulty) Valid() bool { return d >= Easy && d <= Hard }

func (d Difficulty) String() string {
	switch d {
	case Easy:
		return "easy"
	case Medium:
		return "medium"
	case Hard:
		return "hard"
	}
	return "unknown"
}

// Difficulties lists the three difficulties in order.
var Difficulties = [3]Difficulty{Easy, Medium, Hard}

// Status is where the race is.
type Status string

const (
	StatusSetup    Status = "setup"    // admins form teams and prepare the board; teams cannot act
	StatusActive   Status = "active"   // the race is on
	StatusFinished Status = "finished" // a team completed the final tile
)

// FogMode is who the fog of war hides tiles from.
type FogMode string

const (
	FogEnabled      FogMode = "enabled" // everyone sees only revealed tiles
	FogOffForAdmins FogMode = "admins"  // admins see every tile, players see revealed tiles
	FogOffForAll    FogMode = "all"     // everyone sees every tile
)

// Valid reports whether m is a known mode.
func (m FogMode) Valid() bool {
	return m == FogEnabled || m == FogOffForAdmins || m == FogOffForAll
}

// Task is the content of a race tile or a pool task.
type Task struct {
	Label        string     `json:"label" field:"text,max=150"`
	Difficulty   Difficulty `json:"difficulty" field:"int,min=0,max=3"`
	Instructions string     `json:"instructions,omitempty" field:"longtext,max=1000"`
	Image        string     `json:"image,omitempty" field:"url,http,max=500"`
	Min          int        `json:"min" field:"int,min=0,max=100"` // completions needed to advance
	Max          int        `json:"max" field:"int,min=0,max=100"` // completions allowed on the tile
	// Points is the points per completion, in hundredths, used when Max > 1
	// (ruling 6). Tiles with Max 1 give the difficulty value instead.
	Points int `json:"points" field:"int,min=0,max=100000"`
	// Group marks a group task: each player counts at most once.
	Group bool `json:"group,omitempty"`
	// StartProof: a "before" picture is needed (START CHECK).
	StartProof bool `json:"startProof,omitempty"`
}

// Mods records what powerups did to a tile (UsePowerup).
type Mods struct {
	Pasted     bool `json:"pasted,omitempty"`     // received a task by Copy and Paste (📋)
	PastedFrom int  `json:"pastedFrom,omitempty"` // the tile it was copied from
	CopySource bool `json:"copySource,omitempty"` // its task was copied to another tile
	Changed    bool `json:"changed,omitempty"`    // its task was swapped by Change Tile (🔄)
	Doubled    bool `json:"doubled,omitempty"`    // min and max doubled (2×); locked
	// DifficultyPoints: doubled from a single-completion tile, so it keeps
	// difficulty points (ruling 6).
	DifficultyPoints bool `json:"difficultyPoints,omitempty"`
}

// Any reports whether the tile was modified at all.
func (m Mods) Any() bool { return m.Pasted || m.CopySource || m.Changed || m.Doubled }

// Layout is where a tile sits on the serpentine board: rows of 4 and 1
// alternating direction (ruling 1). Col is 0..3 from the left; Span is how
// many columns the tile covers (the final tile fills its row).
type Layout struct {
	Row  int `json:"row"`
	Col  int `json:"col"`
	Span int `json:"span"`
}

// TileLayout returns the layout of tile n (1..56): tiles 1–4 left to right on
// row 0, tile 5 alone at the right edge (row 1, col 3), tiles 6–9 right to
// left on row 2, tile 10 alone at the left edge (row 3, col 0), and so on
// every 10 tiles. The final tile starts a right-to-left row of its own and
// fills it (col 0, span 4).
func TileLayout(n int) Layout {
	if n < 1 || n > NumTiles {
		return Layout{}
	}
	if n == FinalTile {
		i := n - 1
		return Layout{Row: i/10*4 + 2, Col: 0, Span: 4}
	}
	i := n - 1
	base, r := i/10*4, i%10
	switch {
	case r < 4:
		return Layout{Row: base, Col: r, Span: 1}
	case r == 4:
		return Layout{Row: base + 1, Col: 3, Span: 1}
	case r < 9:
		return Layout{Row: base + 2, Col: 3 - (r - 5), Span: 1}
	default:
		return Layout{Row: base + 3, Col: 0, Span: 1}
	}
}

// Tile is one race tile with its full content. Private while hidden.
type Tile struct {
	N      int `json:"n"`
	Layout     // row, col, span
	Task       // label, difficulty, instructions, image, min, max, points, group, startProof
	// TaskID is the pool task placed here ("" for content typed by an admin).
	TaskID string `json:"taskId,omitempty"`
	// Reward is the powerup granted on completion ("" for none).
	Reward string `json:"reward,omitempty"`
	Mods   Mods   `json:"mods"`
}

// Empty reports whether the tile has no task yet.
func (t Tile) Empty() bool { return t.Label == "" }

// Board is the 56 race tiles, Tiles[i] being tile i+1.
type Board struct {
	Tiles []Tile `json:"tiles"`
}

// NewBoard returns an empty board: every tile easy without a task, except
// the final tile, which is hard.
func NewBoard() Board {
	b := Board{Tiles: make([]Tile, NumTiles)}
	for i := range b.Tiles {
		n := i + 1
		b.Tiles[i] = emptyTile(n, Easy)
	}
	b.Tiles[FinalTile-1].Difficulty = Hard
	return b
}

func emptyTile(n int, d Difficulty) Tile {
	return Tile{N: n, Layout: TileLayout(n), Task: Task{Difficulty: d, Min: 1, Max: 1, Points: DefaultPoints}}
}

// Tile returns tile n; ok is false when n is out of range or the board is
// malformed.
func (b Board) Tile(n int) (Tile, bool) {
	if n < 1 || n > len(b.Tiles) || b.Tiles[n-1].N != n {
		return Tile{}, false
	}
	return b.Tiles[n-1], true
}

func (b Board) clone() Board {
	return Board{Tiles: append([]Tile(nil), b.Tiles...)}
}

// checkBoard reports a malformed board (a store bug, never a caller's).
func checkBoard(b Board) error {
	if len(b.Tiles) != NumTiles {
		return domain.Errorf(domain.ECONFLICT, "the board has %d tiles, not %d", len(b.Tiles), NumTiles)
	}
	for i, t := range b.Tiles {
		if t.N != i+1 {
			return domain.Errorf(domain.ECONFLICT, "the board's tile %d is numbered %d", i+1, t.N)
		}
	}
	return nil
}

// Admin is an admin of the game (no password: the functions layer keeps the
// hashes in private documents).
type Admin struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Master bool   `json:"master,omitempty"`
	// Gen is the admin's session generation: a token of another one is
	// refused. A re-added admin gets a new one (Game.NextGen).
	Gen int64 `json:"gen,omitempty"`
}

// TeamRef is a team as the game document lists it: the roster every player
// sees. Positions are on the team documents (they change too often for the
// game document).
type TeamRef struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
	Slot  int    `json:"slot,omitempty"` // the team's Discord webhook slot (0: none)
}

// Weights are relative weights of easy, medium and hard tiles.
type Weights struct {
	Easy   int `json:"easy" field:"int,min=0,max=1000"`
	Medium int `json:"medium" field:"int,min=0,max=1000"`
	Hard   int `json:"hard" field:"int,min=0,max=1000"`
}

func (w Weights) of(d Difficulty) int {
	switch d {
	case Easy:
		return w.Easy
	case Medium:
		return w.Medium
	}
	return w.Hard
}

// Gradient is the difficulty gradient: Early applies to the first 30 % of
// tiles, Late to the last 30 %, linear in between (ruling 17).
type Gradient struct {
	Early Weights `json:"early"`
	Late  Weights `json:"late"`
}

// DefaultGradient is the seed's gradient: 65/30/5 early, 5/35/60 late.
func DefaultGradient() Gradient {
	return Gradient{Early: Weights{65, 30, 5}, Late: Weights{5, 35, 60}}
}

// Settings are the admin-configurable settings of a game.
type Settings struct {
	Gradient Gradient `json:"gradient"`
	// Reserve is how many tasks of each pool stay unused after the board is
	// filled, for Change Tile.
	Reserve int `json:"reserve"`
}

// Game is the game document: everything global and public.
type Game struct {
	ID       string   `json:"id"`
	Status   Status   `json:"status"`
	Settings Settings `json:"settings"`
	Fog      FogMode  `json:"fog"`
	// RevealedUpTo: tiles 1..RevealedUpTo are revealed. It only grows while
	// the race runs (revealed tiles stay revealed). It changes as teams move,
	// so it is not part of the game document every completion reads: the
	// store keeps it with the public board (PublicBoard.RevealedUpTo) and
	// fills it in for the actions that use it. Completions never read it;
	// RaiseFrontier raises it after them.
	RevealedUpTo int       `json:"-"`
	Admins       []Admin   `json:"admins"`
	Teams        []TeamRef `json:"teams"`
	Winner       string    `json:"winner,omitempty"` // team id
	// Webhooks lists the Discord destinations configured ("main",
	// "slot1" … "slot5"; their URLs are in private/discord), so an action
	// knows where its announcements go without reading the secret.
	Webhooks []string `json:"webhooks,omitempty"`
	// NextPowerupTile numbers powerup tiles ("pt-1", "pt-2", …); ids are never
	// reused, so claims recorded on teams never point at a different tile.
	NextPowerupTile int `json:"nextPowerupTile"`
	// NextGen numbers admins' session generations, never reused, so an
	// admin removed and added again is a new identity to the sessions.
	NextGen    int64     `json:"nextGen,omitempty"`
	CreatedAt  time.Time `json:"createdAt"`
	StartedAt  time.Time `json:"startedAt,omitzero"`
	FinishedAt time.Time `json:"finishedAt,omitzero"`
}

// NewGame creates a game in setup with master as its master admin, an empty
// board and empty pools. Tiles 1..6 are revealed (fog as if the furthest team
// stood on tile 1).
//
// Errors: EINVALID (bad game id, master id or name).
func NewGame(id string, master Admin, now time.Time) (Game, Board, Pools, error) {
	if !validID(id) {
		return Game{}, Board{}, Pools{}, domain.Errorf(domain.EINVALID, "game id must be 1 to %d characters without '/'", maxIDLen)
	}
	if !validID(master.ID) {
		return Game{}, Board{}, Pools{}, domain.Errorf(domain.EINVALID, "master admin id must be 1 to %d characters without '/'", maxIDLen)
	}
	name, err := cleanName("master admin name", master.Name)
	if err != nil {
		return Game{}, Board{}, Pools{}, err
	}
	g := Game{
		ID:              id,
		Status:          StatusSetup,
		Settings:        Settings{Gradient: DefaultGradient(), Reserve: DefaultReserve},
		Fog:             FogEnabled,
		RevealedUpTo:    RevealUpTo(1),
		Admins:          []Admin{{ID: master.ID, Name: name, Master: true}},
		Teams:           []TeamRef{},
		NextPowerupTile: 1,
		CreatedAt:       now.UTC(),
	}
	return g, NewBoard(), Pools{NextID: 1}, nil
}

func (g Game) clone() Game {
	g.Admins = append([]Admin(nil), g.Admins...)
	g.Teams = append([]TeamRef(nil), g.Teams...)
	return g
}

// TeamRef returns the roster entry of team id.
func (g Game) TeamRef(id string) (TeamRef, bool) {
	for _, t := range g.Teams {
		if t.ID == id {
			return t, true
		}
	}
	return TeamRef{}, false
}

// Admin returns the admin with id.
func (g Game) Admin(id string) (Admin, bool) {
	for _, a := range g.Admins {
		if a.ID == id {
			return a, true
		}
	}
	return Admin{}, false
}

// Team is a team document. The password is not here: the functions layer
// keeps its hash in a private document.
type Team struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Color   string   `json:"color"`
	Captain string   `json:"captain"` // always Members[0]
	Members []string `json:"members"`
	// Position is the current tile, 1..56.
	Position int `json:"position"`
	// Moves counts every change of position (completion, admin move,
	// powerup); Progress belongs to the position reached by the latest move.
	Moves int `json:"moves"`
	// Progress holds the completions recorded on the current tile, one player
	// name per completion (ruling 5). It resets whenever the team moves.
	Progress []string `json:"progress"`
	// Inventory holds powerup ids in the order gained; duplicates allowed.
	Inventory []string `json:"inventory"`
	// Cooldown: the team used a powerup and may not use another until it
	// completes a tile, uses Clear Cooldown, or an admin clears it.
	Cooldown bool `json:"cooldown"`
	// Slot is the Discord webhook slot 1..5 (0: none).
	Slot int `json:"slot"`
	// Claims counts the team's claims per powerup tile id.
	Claims map[string]int `json:"claims,omitempty"`
	// Rewarded lists race tiles whose reward the team already received; a
	// tile's reward is granted once per team.
	Rewarded []int `json:"rewarded,omitempty"`
	// Awards counts the points awards the team's completions and claims
	// produced; award keys are derived from it and it never goes down.
	Awards int `json:"awards"`
	// Points are the team's awards summed by player name (hundredths; no
	// zeros), added in the action that awards them; an undo takes them back
	// by restoring the team's before-image. The tick's projection sums every
	// team's into the leaderboard.
	Points map[string]int `json:"points,omitempty"`
	// Reversed counts the team's awards undo took back; it never goes down.
	Reversed int `json:"reversed,omitempty"`
	// Gen is the team's session generation: it moves on when the team's
	// password changes or its sessions are ended, and a team token of
	// another generation is refused.
	Gen       int64     `json:"gen,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

func (t Team) clone() Team {
	t.Members = append([]string(nil), t.Members...)
	t.Progress = append([]string(nil), t.Progress...)
	t.Inventory = append([]string(nil), t.Inventory...)
	t.Rewarded = append([]int(nil), t.Rewarded...)
	if t.Claims != nil {
		c := make(map[string]int, len(t.Claims))
		for k, v := range t.Claims {
			c[k] = v
		}
		t.Claims = c
	}
	if t.Points != nil {
		p := make(map[string]int, len(t.Points))
		for k, v := range t.Points {
			p[k] = v
		}
		t.Points = p
	}
	return t
}

// award gives player pts hundredths: the team's next award, whose key it
// returns. The caller emits its pointsAwarded event and writes the team.
func (t *Team) award(player string, pts int) string {
	t.Awards++
	if t.Points == nil {
		t.Points = map[string]int{}
	}
	t.Points[player] += pts
	if t.Points[player] == 0 {
		delete(t.Points, player)
	}
	return AwardKey(t.ID, t.Awards)
}

// member returns the member's name as the team spells it.
func (t Team) member(name string) (string, bool) {
	for _, m := range t.Members {
		if strings.EqualFold(m, name) {
			return m, true
		}
	}
	return "", false
}

// ClaimType says who may claim a powerup tile and how often (ruling 10).
type ClaimType string

const (
	ClaimEachTeam  ClaimType = "eachTeam"  // every team once
	ClaimFirstTeam ClaimType = "firstTeam" // only the first team to claim
	ClaimUnlimited ClaimType = "unlimited" // any team, any number of times
)

// Valid reports whether c is a known claim type.
func (c ClaimType) Valid() bool {
	return c == ClaimEachTeam || c == ClaimFirstTeam || c == ClaimUnlimited
}

// PowerupTile is a powerup task: complete it to gain its reward powerup.
// Public: powerup tiles are not under fog.
type PowerupTile struct {
	ID           string    `json:"id"`
	Label        string    `json:"label"`
	Instructions string    `json:"instructions,omitempty"`
	Image        string    `json:"image,omitempty"`
	Points       int       `json:"points"` // hundredths per completion
	Min          int       `json:"min"`
	Max          int       `json:"max"`
	Group        bool      `json:"group,omitempty"`
	Claim        ClaimType `json:"claim"`
	Reward       string    `json:"reward"`
	// ClaimedBy is the team that claimed a first-team-only tile ("" while
	// unclaimed; never set for the other claim types, so their claims never
	// write this document).
	ClaimedBy string    `json:"claimedBy,omitempty"`
	ClaimedAt time.Time `json:"claimedAt,omitzero"`
}

// PoolTask is a task in a difficulty pool.
type PoolTask struct {
	ID   string `json:"id"`
	Task        // its Difficulty is the pool's
	Used bool   `json:"used"` // placed on the board
}

// Pools are the three difficulty pools. Private.
type Pools struct {
	Easy   []PoolTask `json:"easy"`
	Medium []PoolTask `json:"medium"`
	Hard   []PoolTask `json:"hard"`
	NextID int        `json:"nextId"` // numbers pool tasks: "t-1", "t-2", …
}

// Pool returns the pool of difficulty d.
func (p *Pools) Pool(d Difficulty) *[]PoolTask {
	switch d {
	case Easy:
		return &p.Easy
	case Medium:
		return &p.Medium
	}
	return &p.Hard
}

// Unused counts the unused tasks of pool d.
func (p Pools) Unused(d Difficulty) int {
	n := 0
	for _, t := range *p.Pool(d) {
		if !t.Used {
			n++
		}
	}
	return n
}

func (p Pools) clone() Pools {
	p.Easy = append([]PoolTask(nil), p.Easy...)
	p.Medium = append([]PoolTask(nil), p.Medium...)
	p.Hard = append([]PoolTask(nil), p.Hard...)
	return p
}

// find returns the pool and index of task id.
func (p *Pools) find(id string) (*[]PoolTask, int) {
	for _, d := range Difficulties {
		pool := p.Pool(d)
		for i, t := range *pool {
			if t.ID == id {
				return pool, i
			}
		}
	}
	return nil, -1
}

// Ctx is who performs an action and when.
type Ctx struct {
	Actor domain.Actor
	Now   time.Time
	// WebhookBase is a base URL whose webhooks setDiscord accepts besides
	// Discord's own: the fake Discord of tests and the local stack only.
	WebhookBase string
}

// by returns the admin name to record on events of an action: the admin's
// name when an admin acts (on behalf of a team or not), "" for a team.
func (c Ctx) by(g Game) string {
	if c.Actor.Role == RoleAdmin || c.Actor.Role == RoleMaster {
		if a, ok := g.Admin(c.Actor.Local()); ok {
			return a.Name
		}
		return c.Actor.Name
	}
	return ""
}

// Outcome is what an action did besides returning new values.
type Outcome struct {
	Events []domain.Event `json:"events"`
	Result any            `json:"result,omitempty"`
	// Writes lists the values the action changed (a subset of its
	// Spec.Writes): the store writes exactly these. DocPublicBoard means the
	// tiles in Publish.
	Writes []Doc `json:"-"`
	// Deletes lists the values the action deletes (a removed team, removed
	// powerup tiles).
	Deletes []Doc `json:"-"`
	// Publish lists tiles whose public projection must be rewritten (with
	// PublicTiles): newly revealed, hidden again, or changed while players can
	// see them.
	Publish []int `json:"-"`
}

// Wrote reports whether the action changed d.
func (o Outcome) Wrote(d Doc) bool {
	for _, w := range o.Writes {
		if w == d {
			return true
		}
	}
	return false
}

func (o *Outcome) write(ds ...Doc) {
	for _, d := range ds {
		if !o.Wrote(d) {
			o.Writes = append(o.Writes, d)
		}
	}
}

// publish adds tiles to Publish (and the public board to Writes).
func (o *Outcome) publish(ns ...int) {
	for _, n := range ns {
		dup := false
		for _, m := range o.Publish {
			if m == n {
				dup = true
				break
			}
		}
		if !dup {
			o.Publish = append(o.Publish, n)
		}
	}
	if len(o.Publish) > 0 {
		o.write(DocPublicBoard)
	}
}

func (o *Outcome) emit(typ, team string, data any) {
	o.Events = append(o.Events, domain.Event{Type: typ, Player: team, Data: data})
}
