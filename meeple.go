// Package meeple is the module root the Go buildpack imports when a function
// is deployed with --source=. : importing it registers every HTTP function
// and every CloudEvent function of the registry (package games) with the
// Functions Framework, and --entry-point picks one by name. See
// docs/deploy.md.
package meeple

import (
	"github.com/meeple-games/meeple/functions"
	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/triggers"
)

func init() {
	functions.Deploy(games.All())
	triggers.Deploy(games.All())
}
