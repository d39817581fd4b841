package tilerace

import (
	"reflect"

	"github.com/meeple-games/meeple/domain"
)

// summaries says in one line what each action does (the API reference).
var summaries = map[string]string{
	ActionComplete:              "record completions on the team's current tile; at min it advances",
	ActionClaimPowerupTile:      "claim a powerup tile's reward with its completions",
	ActionUsePowerup:            "use a powerup from the inventory (skip, back, tile changes, utilities); sets the cooldown",
	ActionStart:                 "start the race",
	ActionReset:                 "put every team back on tile 1 with nothing; the board stays",
	ActionCreateTeam:            "add a team with its password",
	ActionUpdateTeam:            "change a team's name, colour, members, slot, inventory or password",
	ActionRemoveTeam:            "remove a team",
	ActionMoveTeam:              "put a team on a tile (progress resets)",
	ActionGrantPowerup:          "add powerups to a team's inventory",
	ActionSetCooldown:           "set or clear a team's powerup cooldown",
	ActionEditTile:              "change a race tile's task",
	ActionCreatePowerupTile:     "add a powerup tile",
	ActionEditPowerupTile:       "change a powerup tile",
	ActionRemovePowerupTile:     "remove a powerup tile",
	ActionClearPowerupTiles:     "remove every powerup tile",
	ActionImportPowerupTiles:    "add powerup tiles from a CSV/TSV file",
	ActionImportTasks:           "add pool tasks from a CSV/TSV file",
	ActionAddPoolTask:           "add a task to a pool",
	ActionEditPoolTask:          "change a pool task",
	ActionRemovePoolTask:        "remove a pool task",
	ActionClearPools:            "empty pools",
	ActionRandomiseDifficulties: "give the tiles seeded random difficulties (the gradient)",
	ActionRandomiseTiles:        "fill the tiles from the pools, seeded",
	ActionSetSettings:           "change the race's settings",
	ActionSetFog:                "set the fog of war mode",
	ActionViewBoard:             "the board as the admin may see it (read-only)",
	ActionExportTasks:           "the pools or the board as a task file (read-only)",
	ActionUndo:                  "revert the last action (its points too); not itself undoable",
	ActionUndoTo:                "revert an action of the last 10 and every later one",
	ActionSetDiscord:            "set or remove the Discord webhooks (main, team slots 1-5); the URLs are never shown again",
	ActionAddAdmin:              "add a regular admin with a password",
	ActionRemoveAdmin:           "remove a regular admin",
}

var whoDoc = map[Who]string{
	WhoTeam:   "the team (team token), or an admin naming the team",
	WhoAdmin:  "an admin of the race (regular or master)",
	WhoMaster: "the race's master admin",
}

// ActionDocs implements domain.ActionDocer: the Specs, each with the request
// type DecodeRequest decodes it into.
func (g RaceGame) ActionDocs() []domain.ActionDoc {
	password := []domain.Field{{Name: "password", Type: "string"}}
	out := []domain.ActionDoc{{Type: domain.ActionCreate, Payload: raceCreate{}, Who: "any signed-in player or guest (becomes the master admin)",
		Summary: "make a race in setup; replies with the master admin's session", Platform: password}}
	for _, typ := range ActionTypes() {
		req, _ := newRequest(typ)
		d := domain.ActionDoc{Type: typ, Payload: reflect.ValueOf(req).Elem().Interface(), Who: whoDoc[Specs[typ].Who], Summary: summaries[typ]}
		if g.PasswordMin(typ) > 0 {
			d.Platform = password
		}
		out = append(out, d)
	}
	return out
}
