package partyboard

import (
	"embed"
	"sort"
	"strings"
	"sync"

	"github.com/meeple-games/meeple/domain"
)

// The real boards of the seed's public repository (shared/boards), built in.
//
//go:embed boards/*.json
var builtinFiles embed.FS

// builtinNames are the display names of the built-in boards, by id.
var builtinNames = map[string]string{
	"pokemon-gen1": "Pokémon Gen 1",
	"pokemon-gen2": "Pokémon Gen 2",
}

// BuiltinBoardIDs lists the built-in boards' ids, sorted.
func BuiltinBoardIDs() []string {
	entries, _ := builtinFiles.ReadDir("boards")
	var ids []string
	for _, e := range entries {
		ids = append(ids, strings.TrimSuffix(e.Name(), ".json"))
	}
	sort.Strings(ids)
	return ids
}

var builtins sync.Map // id → *Board, loaded once

// BuiltinBoard returns a built-in board by id ("pokemon-gen1",
// "pokemon-gen2"), loaded once per process. Callers must not change it.
//
// Errors: ENOTFOUND.
func BuiltinBoard(id string) (*Board, error) {
	if b, ok := builtins.Load(id); ok {
		return b.(*Board), nil
	}
	file, err := builtinFiles.ReadFile("boards/" + id + ".json")
	if err != nil || id == "" || strings.ContainsAny(id, "/.\\") {
		return nil, domain.Errorf(domain.ENOTFOUND, "no built-in board %q (have %s)", id, strings.Join(BuiltinBoardIDs(), ", "))
	}
	b, _, _, err := LoadBoard(file, LoadOptions{})
	if err != nil {
		return nil, err // a test keeps this from happening
	}
	b.ID, b.Name = id, builtinNames[id]
	if b.Name == "" {
		b.Name = id
	}
	actual, _ := builtins.LoadOrStore(id, b)
	return actual.(*Board), nil
}

// BuiltinBoards returns every built-in board, by id.
func BuiltinBoards() []*Board {
	var out []*Board
	for _, id := range BuiltinBoardIDs() {
		if b, err := BuiltinBoard(id); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// BoardSource finds a board by id. The functions layer supplies one that
// serves the built-in boards and uploaded ones (a board id is its content
// hash, so a source may cache boards forever).
type BoardSource interface {
	Board(id string) (*Board, error)
}

// BuiltinSource serves the built-in boards.
type BuiltinSource struct{}

// Board implements BoardSource.
//
// Errors: ENOTFOUND.
func (BuiltinSource) Board(id string) (*Board, error) { return BuiltinBoard(id) }

// MapSource serves the boards it holds, by id (tests, tools).
type MapSource map[string]*Board

// Board implements BoardSource.
//
// Errors: ENOTFOUND.
func (m MapSource) Board(id string) (*Board, error) {
	if b, ok := m[id]; ok && b != nil {
		return b, nil
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no board %s", domain.Quote(id))
}
