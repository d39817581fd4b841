package partyboard

import (
	"embed"
	"sort"
	"strings"
	"sync"

	"github.com/meeple-games/meeple/domain"
)

// The real boards of the seed's public repository, built in (shared/boards).
//
//go:embed boards/*.json
var builtinFiles embed.FS

// BuiltinBoardIDs lists the built-in boards.
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

// BuiltinBoard returns a built-in board by id (e.g. "pokemon-gen1"), loaded
// once per process. Callers must not change it.
//
// Errors: ENOTFOUND.
func BuiltinBoard(id string) (*Board, error) {
	if b, ok := builtins.Load(id); ok {
		return b.(*Board), nil
	}
	b, err := loadBuiltin(id)
	if err != nil {
		return nil, err
	}
	builtins.Store(id, b)
	return b, nil
}

func loadBuiltin(id string) (*Board, error) {
	file, err := builtinFiles.ReadFile("boards/" + id + ".json")
	if err != nil || strings.ContainsAny(id, "/.") {
		return nil, domain.Errorf(domain.ENOTFOUND, "no built-in board %q (have %s)", id, strings.Join(BuiltinBoardIDs(), ", "))
	}
	b, _, _, err := LoadBoard(file, LoadOptions{})
	if err != nil {
		return nil, err
	}
	b.ID, b.Name = id, id
	return b, nil
}
