// Package meeple is the module root the Go buildpack imports when a function
// is deployed with --source=. : importing it registers every HTTP function
// (functions/) and every CloudEvent function (triggers/) with the Functions
// Framework, and --entry-point picks one by name. See docs/deploy.md.
package meeple

import (
	_ "github.com/meeple-games/meeple/functions"
	_ "github.com/meeple-games/meeple/triggers"
)
