package partyboard

import (
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
	ActionListBoards  = "listBoards"
	ActionUploadBoard = "uploadBoard"
)

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
			var req createRequest
			if err := domain.DecodePayload(a.Payload, &req); err != nil {
				return Game{}, false, err
			}
			b, err := boards.Board(req.Board)
			if err != nil {
				return Game{}, false, err
			}
			g, err := NewGame(a.GameID, a.Actor, b, env.Now)
			g.Private = req.Private
			return g, true, err
		},
	})}
}

// createRequest is the payload of a Party Board create. Every game gets a
// room code; a private one can be joined only with it.
type createRequest struct {
	Board   string `json:"board"`
	Private bool   `json:"private"`
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
	case ActionListBoards, ActionUploadBoard:
		return domain.Plan{Scope: domain.ScopeNone}, nil
	case domain.ActionCreate:
		var req createRequest
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return domain.Plan{}, err
		}
		if req.Board == "" {
			return domain.Plan{}, domain.Errorf(domain.EINVALID, "board is required: a built-in board id or an uploaded board's id")
		}
		if err := domain.CheckID("board", req.Board); err != nil {
			return domain.Plan{}, err
		}
	}
	return p.single.Plan(a)
}

// Run implements domain.Game.
func (p PlatformGame) Run(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	switch a.Type {
	case ActionListBoards:
		return listBoards()
	case ActionUploadBoard:
		return uploadBoard(a)
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
		var req createRequest
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
	return nil, domain.Errorf(domain.ENOTFOUND, "no board %q", id)
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
		return domain.Errorf(domain.ENOTFOUND, "no board %q", id)
	}
	b, _, _, err := LoadBoard([]byte(f.File), LoadOptions{Lenient: true})
	if err != nil {
		return err
	}
	c.m.Store(id, b)
	return nil
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

// uploadBoard validates a board file and stores it under its content id. A
// refused file gets every problem with its location in the error's details.
func uploadBoard(a domain.Action) (domain.Change, error) {
	var req struct {
		Board   json.RawMessage `json:"board"`
		Name    string          `json:"name"`
		Lenient bool            `json:"lenient"`
	}
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return domain.Change{}, err
	}
	if len(req.Board) == 0 {
		return domain.Change{}, domain.Errorf(domain.EINVALID, "board is required: the board file's JSON object")
	}
	name, err := cleanName("name", req.Name)
	if err != nil {
		return domain.Change{}, err
	}
	b, _, warnings, err := LoadBoard(req.Board, LoadOptions{Lenient: req.Lenient})
	if err != nil {
		return domain.Change{}, err
	}
	return domain.Change{
		Writes: []domain.Write{{DocID: domain.Doc(SlotBoardFile, b.ID), Value: BoardFile{Name: name, File: string(req.Board)}}},
		Result: BoardSummary{ID: b.ID, Name: name, Tiles: len(b.Tiles), Zones: len(b.Zones), Warnings: warnings},
	}, nil
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
	return append(domain.SortedKeys(handlers), domain.ActionCreate, ActionListBoards, ActionUploadBoard)
}
