// Command apidoc prints the API reference (docs/reference.md) from the
// registry: every action of every game, the fields its code decodes, who may
// call it, and the error codes.
//
//	go run ./cmd/apidoc > docs/reference.md
package main

import (
	"fmt"

	"github.com/meeple-games/meeple/functions"
	"github.com/meeple-games/meeple/games"
)

func main() { fmt.Print(functions.Reference(games.All())) }
