package functions

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/partyboard"
)

// MaxBoardBody caps a Party Board request: a board upload carries the whole
// file (the real boards are about 35 KB).
const MaxBoardBody = 1 << 20

// partyBoard serves POST /PartyBoard. So far it handles boards: listBoards
// and uploadBoard. Playing (create, join, roll, ...) comes with the turn
// engine; until then other action types are refused.
func (s *Server) partyBoard() http.HandlerFunc {
	return s.serve(endpoint{maxBody: MaxBoardBody, specials: map[string]special{
		"listBoards":  s.listBoards,
		"uploadBoard": s.uploadBoard,
	}}, func(context.Context, Call) (any, error) {
		return nil, domain.Errorf(domain.EINVALID, "Party Board play is not available yet; this function takes listBoards and uploadBoard")
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
