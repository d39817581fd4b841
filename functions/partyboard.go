package functions

import (
	"context"
	"encoding/json"
	"net/http"

	"strings"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/partyboard"
	"github.com/meeple-games/meeple/store"
)

// MaxBoardBody caps a Party Board request: a board upload carries the whole
// file (the real boards are about 35 KB).
const MaxBoardBody = 1 << 20

// partyBoard serves POST /PartyBoard: boards (listBoards, uploadBoard),
// create (with a room code) and join by code, and every game action the
// engine takes (start, roll, choose, target, starter, groupRoll, confirm,
// challenge).
func (s *Server) partyBoard() http.HandlerFunc {
	rules := partyboard.Rules{Boards: s.boards()}
	return gameEndpoint(s, rules, endpoint{maxBody: MaxBoardBody, specials: map[string]special{
		"listBoards":  s.listBoards,
		"uploadBoard": s.uploadBoard,
		"create": createSpecial(s, rules, func(ctx context.Context, c Call, id string) (partyboard.Game, store.Create, error) {
			var req struct {
				Board string `json:"board"`
				Seed  string `json:"seed"`
			}
			if err := decodeObject(c.Body, &req); err != nil {
				return partyboard.Game{}, store.Create{}, err
			}
			if req.Board == "" {
				return partyboard.Game{}, store.Create{}, domain.Errorf(domain.EINVALID, "board is required: a built-in board id or an uploaded board's id")
			}
			b, err := rules.Boards.Board(req.Board)
			if err != nil {
				return partyboard.Game{}, store.Create{}, err
			}
			g, err := partyboard.NewGame(id, c.Actor, b, s.now())
			return g, store.Create{RoomCode: true, Seed: req.Seed}, err
		}),
		"join": joinSpecial(s, rules),
	}})
}

// boardSource serves built-in boards and uploaded ones, each loaded from
// Firestore once per process (a board id is its content hash, so it never
// changes).
type boardSource struct {
	s     *Server
	cache cache[*partyboard.Board]
}

func (s *Server) boards() *boardSource { return &boardSource{s: s} }

func (b *boardSource) Board(id string) (*partyboard.Board, error) {
	if !strings.HasPrefix(id, "b-") {
		return b.cache.Get(id, func() (*partyboard.Board, error) { return partyboard.BuiltinBoard(id) })
	}
	return b.cache.Get(id, func() (*partyboard.Board, error) {
		file, err := b.s.Store.BoardFile(context.Background(), id)
		if err != nil {
			return nil, err
		}
		board, _, _, err := partyboard.LoadBoard(file, partyboard.LoadOptions{Lenient: true})
		return board, err
	})
}

// BoardSummary describes a board in listings and upload replies.
type BoardSummary struct {
	ID       string               `json:"id"`
	Name     string               `json:"name,omitempty"`
	Tiles    int                  `json:"tiles"`
	Zones    int                  `json:"zones"`
	Warnings []partyboard.Problem `json:"warnings,omitempty"`
}

func (s *Server) listBoards(ctx context.Context, c Call) (any, error) {
	var out []BoardSummary
	for _, id := range partyboard.BuiltinBoardIDs() {
		b, err := partyboard.BuiltinBoard(id)
		if err != nil {
			return nil, err
		}
		out = append(out, BoardSummary{ID: b.ID, Name: b.Name, Tiles: len(b.Tiles), Zones: len(b.Zones)})
	}
	return map[string]any{"result": map[string]any{"boards": out}}, nil
}

// uploadBoard validates a board file and stores it under its content id. A
// refused file gets every problem with its location in error.details.problems.
func (s *Server) uploadBoard(ctx context.Context, c Call) (any, error) {
	var req struct {
		Board   json.RawMessage `json:"board"`
		Name    string          `json:"name"`
		Lenient bool            `json:"lenient"`
	}
	if err := decodeObject(c.Body, &req); err != nil {
		return nil, err
	}
	if len(req.Board) == 0 {
		return nil, domain.Errorf(domain.EINVALID, "board is required: the board file's JSON object")
	}
	name, err := cleanName("name", req.Name)
	if err != nil {
		return nil, err
	}
	b, _, warnings, err := partyboard.LoadBoard(req.Board, partyboard.LoadOptions{Lenient: req.Lenient})
	if err != nil {
		return nil, err
	}
	if err := s.Store.SaveBoard(ctx, b.ID, name, req.Board); err != nil {
		return nil, err
	}
	return map[string]any{"result": BoardSummary{ID: b.ID, Name: name, Tiles: len(b.Tiles), Zones: len(b.Zones), Warnings: warnings}}, nil
}
