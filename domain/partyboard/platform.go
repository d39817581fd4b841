package partyboard

import (
	"cmp"
	"encoding/json"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/meeple-games/meeple/domain"
)

// SlotBoardFile is an uploaded board file, boards/{boardId}: stored under its
// content id, so it never changes once written.
const SlotBoardFile = "boardFile"

// BoardFile is the document of an uploaded board.
type BoardFile struct {
	Name string `json:"name,omitempty"`
	File string `json:"file"` // the board file's JSON, as uploaded
}

// Action types of Party Board that act on no game.
const (
	ActionListBoards    = "listBoards"
	ActionUploadBoard   = "uploadBoard"
	ActionGetBoard      = "getBoard"
	ActionSimulateBoard = "simulateBoard"
)

// Limits of simulateBoard, which runs in the request: its work is bounded
// so that it ends in well under a second on two cores whatever the board
// (issue 23), and three at once on a loaded machine still answer in time.
const (
	MaxSimGames     = 200
	DefaultSimGames = 100
	// SimStepsBase and SimStepsPerPlayer cap one simulated game of a
	// request (SimStepCap): the built-in boards' longest games take up to
	// about 65 actions per player (775 of 12 players, 293 of 4, 194 of 2).
	// A game that reaches the cap is reported stalled.
	SimStepsBase      = 128
	SimStepsPerPlayer = 64
	// SimBudget caps one request's simulated actions: games × SimStepCap.
	// A simulated action costs 10 to 15 µs on the 2-core development
	// machine, so a request that uses it all (a board whose games never end)
	// runs 0.5 to 0.7 s; a request over it is refused. (It was 120,000, and
	// three such requests at once under CI's load ran past the 20 s request
	// timeout.)
	SimBudget = 48_000
)

// SimStepCap is the most actions one simulated game of players may take in
// a simulateBoard request.
func SimStepCap(players int) int { return SimStepsBase + SimStepsPerPlayer*players }

// PlatformGame is Party Board as the platform drives it: a one-document game
// (Rules) on a board that is built in or uploaded, plus the board listing and
// upload, which act on no game.
//
// Uploaded boards are read from their documents once per process and kept
// (a board's id is its content hash): an action whose game plays a board not
// yet loaded asks for the board's document (NeedDocs) and runs again.
type PlatformGame struct {
	single domain.Game
	boards *boardCache
}

var _ domain.Game = PlatformGame{}

// NewPlatformGame returns Party Board's game.
func NewPlatformGame() PlatformGame {
	boards := &boardCache{}
	return PlatformGame{boards: boards, single: domain.Single(domain.SingleGame[Game]{
		Rules: Rules{Boards: boards},
		Create: func(d domain.Docs, a domain.Action, env domain.Env) (Game, bool, error) {
			return Create(boards, a, env)
		},
	})}
}

// Create makes the game a create action asks for, on a board of src: a lobby
// with the caller hosting. Every game gets a room code.
//
// Errors: EINVALID (the payload), ENOTFOUND (no such board).
func Create(src BoardSource, a domain.Action, env domain.Env) (Game, bool, error) {
	var req CreateRequest
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return Game{}, false, err
	}
	if t := req.TurnSeconds; t != 0 && (t < MinTurnSeconds || t > MaxTurnSeconds) {
		return Game{}, false, domain.Errorf(domain.EINVALID, "turnSeconds must be 0 (no timer) or from %d to %d, not %d", MinTurnSeconds, MaxTurnSeconds, t)
	}
	b, err := src.Board(req.Board)
	if err != nil {
		return Game{}, false, err
	}
	g, err := NewGame(a.GameID, a.Actor, b, env.Now)
	g.Private, g.TurnSeconds = req.Private, req.TurnSeconds
	return g, true, err
}

// CreateRequest is the payload of a Party Board create. Every game gets a
// room code; a private one can be joined only with it. TurnSeconds is the
// input timer (0: none).
type CreateRequest struct {
	Board       string `json:"board" field:"id"`
	Private     bool   `json:"private"`
	TurnSeconds int    `json:"turnSeconds" field:"int,min=0,max=86400"` // 0: no timer; else MinTurnSeconds to MaxTurnSeconds
}

// Kind implements domain.Game.
func (PlatformGame) Kind() string { return Kind }

// Slots implements domain.Game.
func (PlatformGame) Slots() []domain.Slot {
	return []domain.Slot{{Name: SlotBoardFile, Path: "/boards/{key}", Type: BoardFile{}, Access: domain.ReadNever,
		Doc: "an uploaded board file, under its content id"}}
}

// Plan implements domain.Game.
func (p PlatformGame) Plan(a domain.Action) (domain.Plan, error) {
	switch a.Type {
	case ActionListBoards, ActionUploadBoard, ActionGetBoard, ActionSimulateBoard:
		return domain.Plan{Scope: domain.ScopeNone}, nil
	case domain.ActionCreate:
		var req CreateRequest
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return domain.Plan{}, err
		}
		if req.Board == "" {
			return domain.Plan{}, domain.Errorf(domain.EINVALID, "board is required: a built-in board id or an uploaded board's id")
		}
	}
	return p.single.Plan(a)
}

// Run implements domain.Game.
func (p PlatformGame) Run(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	switch a.Type {
	case ActionListBoards:
		if err := domain.DecodePayload(a.Payload, nil); err != nil {
			return domain.Change{}, err
		}
		return listBoards()
	case ActionUploadBoard:
		return uploadBoard(a)
	case ActionGetBoard:
		return p.getBoard(d, a)
	case ActionSimulateBoard:
		return p.simulateBoard(d, a, env)
	}
	id, err := p.boardOf(d, a)
	if err != nil {
		return domain.Change{}, err
	}
	if err := p.boards.load(d, id); err != nil {
		return domain.Change{}, err
	}
	return p.single.Run(d, a, env)
}

// boardOf is the board an action plays: the create request's, or the game's.
func (PlatformGame) boardOf(d domain.Docs, a domain.Action) (string, error) {
	if a.Type == domain.ActionCreate {
		var req CreateRequest
		err := domain.DecodePayload(a.Payload, &req)
		return req.Board, err
	}
	doc, err := domain.ReadGame[Game](d, Kind)
	return doc.State.BoardID, err
}

// boardCache serves the built-in boards and the uploaded ones loaded so far.
type boardCache struct{ m sync.Map }

// Board implements BoardSource.
//
// Errors: ENOTFOUND.
func (c *boardCache) Board(id string) (*Board, error) {
	if !strings.HasPrefix(id, "b-") {
		return BuiltinBoard(id)
	}
	if b, ok := c.m.Load(id); ok {
		return b.(*Board), nil
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no board %s", domain.Quote(id))
}

// load makes sure an uploaded board is cached, asking for its document when
// it is not (and was not read).
//
// Errors: *NeedDocs, ENOTFOUND, EINVALID (a stored file no longer loads).
func (c *boardCache) load(d domain.Docs, id string) error {
	if !strings.HasPrefix(id, "b-") {
		return nil
	}
	if _, ok := c.m.Load(id); ok {
		return nil
	}
	doc := domain.Doc(SlotBoardFile, id)
	var f BoardFile
	found, err := d.Get(doc, &f)
	if err != nil {
		return err
	}
	if !found {
		if !d.Asked(doc) {
			return domain.Need(domain.Locked(doc))
		}
		return domain.Errorf(domain.ENOTFOUND, "no board %s", domain.Quote(id))
	}
	b, _, _, err := LoadBoard([]byte(f.File), LoadOptions{Lenient: true})
	if err != nil {
		return err
	}
	if b.Name == "" {
		b.Name = f.Name
	}
	c.m.Store(id, b)
	return nil
}

// board returns a built-in or uploaded board, reading an uploaded one's
// document the first time.
//
// Errors: *NeedDocs, ENOTFOUND, EINVALID.
func (c *boardCache) board(d domain.Docs, id string) (*Board, error) {
	if err := c.load(d, id); err != nil {
		return nil, err
	}
	return c.Board(id)
}

// BoardSummary describes a board in listings and upload replies.
type BoardSummary struct {
	ID       string    `json:"id"`
	Name     string    `json:"name,omitempty"`
	Tiles    int       `json:"tiles"`
	Zones    int       `json:"zones"`
	Warnings []Problem `json:"warnings,omitempty"`
}

func listBoards() (domain.Change, error) {
	var out []BoardSummary
	for _, b := range BuiltinBoards() {
		out = append(out, BoardSummary{ID: b.ID, Name: b.Name, Tiles: len(b.Tiles), Zones: len(b.Zones)})
	}
	return domain.Change{Result: map[string]any{"boards": out}}, nil
}

// DryRun is the reply of an uploadBoard with dryRun: what an upload would
// say, and nothing stored.
type DryRun struct {
	Valid    bool      `json:"valid"`
	ID       string    `json:"id"` // the id the board would get
	Name     string    `json:"name,omitempty"`
	Tiles    int       `json:"tiles"`
	Zones    int       `json:"zones"`
	Problems []Problem `json:"problems"`
	Warnings []Problem `json:"warnings"`
}

// uploadBoard validates a board file and stores it under its content id. A
// refused file gets every problem with its location in the error's details.
// With dryRun it stores nothing and replies with the problems and warnings
// (a web editor checks a board as it is written).
func uploadBoard(a domain.Action) (domain.Change, error) {
	var req UploadRequest
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return domain.Change{}, err
	}
	if len(req.Board) == 0 {
		return domain.Change{}, domain.Errorf(domain.EINVALID, "board is required: the board file's JSON object")
	}
	var name string
	var err error
	if !req.DryRun || req.Name != nil { // a dry run may leave the name out
		if req.Name == nil {
			req.Name = new(string)
		}
		if name, err = cleanName("name", *req.Name); err != nil {
			return domain.Change{}, err
		}
	}
	b, problems, warnings, err := LoadBoard(req.Board, LoadOptions{Lenient: req.Lenient})
	if req.DryRun {
		r := DryRun{Valid: err == nil, ID: BoardID(req.Board), Name: name, Problems: problems, Warnings: warnings}
		if r.Problems == nil {
			r.Problems = []Problem{}
		}
		if r.Warnings == nil {
			r.Warnings = []Problem{}
		}
		if b != nil {
			r.Tiles, r.Zones = len(b.Tiles), len(b.Zones)
		}
		return domain.Change{Result: r}, nil
	}
	if err != nil {
		return domain.Change{}, err
	}
	return domain.Change{
		Writes: []domain.Write{{DocID: domain.Doc(SlotBoardFile, b.ID), Value: BoardFile{Name: name, File: string(req.Board)}}},
		Result: BoardSummary{ID: b.ID, Name: name, Tiles: len(b.Tiles), Zones: len(b.Zones), Warnings: warnings},
	}, nil
}

// getBoard replies with a board's whole drawable content: every tile with
// its rule, corner points, zone, kind and mandatory marks, the zones and the
// items, as the board file has them.
func (p PlatformGame) getBoard(d domain.Docs, a domain.Action) (domain.Change, error) {
	var req GetBoardRequest
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return domain.Change{}, err
	}
	if req.Board == "" {
		return domain.Change{}, domain.Errorf(domain.EINVALID, "board is required: a built-in board id or an uploaded board's id")
	}
	b, err := p.boards.board(d, req.Board)
	if err != nil {
		return domain.Change{}, err
	}
	return domain.Change{Result: map[string]any{"board": b}}, nil
}

// simulateBoard plays random games on a board (a built-in or uploaded id,
// or a board file) and replies with the SimReport. The budget bounds its
// work; env.Stop bounds its time, for a machine too busy to do that work
// within the request's time: the report then covers the games played (Cut)
// rather than the request failing with a 503.
func (p PlatformGame) simulateBoard(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	var req SimulateRequest
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return domain.Change{}, err
	}
	switch {
	case len(req.Board) == 0:
		return domain.Change{}, domain.Errorf(domain.EINVALID, "board is required: a board id, or a board file's JSON object")
	case req.Players == 1: // the tag bounds it; one player is no game
		return domain.Change{}, domain.Errorf(domain.EINVALID, "players must be from %d to %d (default 4)", MinPlayers, MaxPlayers)
	}
	players := cmp.Or(req.Players, 4)
	steps := SimStepCap(players)
	// Games left out means DefaultSimGames, or as many as the budget allows
	// for this many players when that is fewer: a default is never refused.
	games := cmp.Or(req.Games, min(DefaultSimGames, SimBudget/steps))
	if games*steps > SimBudget {
		return domain.Change{}, domain.Errorf(domain.EINVALID, "games × players is over the simulation budget: with %d players at most %d games (each may take %d actions, %d in all)",
			players, SimBudget/steps, steps, SimBudget)
	}
	var b *Board
	var err error
	var id string
	if json.Unmarshal(req.Board, &id) == nil {
		b, err = p.boards.board(d, id)
	} else {
		b, _, _, err = LoadBoard(req.Board, LoadOptions{Lenient: req.Lenient})
	}
	if err != nil {
		return domain.Change{}, err
	}
	rep, err := Simulate(b, SimOptions{Games: games, Players: players, Seed: req.Seed, MaxSteps: steps, Stop: env.Stop})
	if err != nil {
		return domain.Change{}, err
	}
	return domain.Change{Result: rep}, nil
}

// cleanName checks a display name: 1 to 24 printable characters.
//
// Errors: EINVALID.
func cleanName(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n < 1 || n > 24 {
		return "", domain.Errorf(domain.EINVALID, "%s must be 1 to 24 characters", field)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return "", domain.Errorf(domain.EINVALID, "%s has a character that cannot be shown", field)
		}
	}
	return s, nil
}

// ActionTypes implements domain.ActionTyper.
func (PlatformGame) ActionTypes() []string {
	return append(domain.SortedKeys(handlers), domain.ActionCreate, ActionListBoards, ActionUploadBoard, ActionGetBoard, ActionSimulateBoard)
}
