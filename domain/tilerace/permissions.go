package tilerace

import (
	"sort"

	"github.com/meeple-games/meeple/domain"
)

// Action types, as the HTTP function's "type" names them.
const (
	// Team actions: a team for itself, or an admin on behalf of any team.
	ActionComplete         = "complete"
	ActionClaimPowerupTile = "claimPowerupTile"
	ActionUsePowerup       = "usePowerup"

	// Admin actions: regular and master admins.
	ActionStart                 = "start"
	ActionReset                 = "reset"
	ActionCreateTeam            = "createTeam"
	ActionUpdateTeam            = "updateTeam"
	ActionRemoveTeam            = "removeTeam"
	ActionMoveTeam              = "moveTeam"
	ActionGrantPowerup          = "grantPowerup"
	ActionSetCooldown           = "setCooldown"
	ActionEditTile              = "editTile"
	ActionCreatePowerupTile     = "createPowerupTile"
	ActionEditPowerupTile       = "editPowerupTile"
	ActionRemovePowerupTile     = "removePowerupTile"
	ActionClearPowerupTiles     = "clearPowerupTiles"
	ActionImportPowerupTiles    = "importPowerupTiles"
	ActionImportTasks           = "importTasks"
	ActionAddPoolTask           = "addPoolTask"
	ActionEditPoolTask          = "editPoolTask"
	ActionRemovePoolTask        = "removePoolTask"
	ActionClearPools            = "clearPools"
	ActionRandomiseDifficulties = "randomiseDifficulties"
	ActionRandomiseTiles        = "randomiseTiles"
	ActionSetSettings           = "setSettings"
	ActionSetFog                = "setFog"
	ActionViewBoard             = "viewBoard"   // read-only: the admin view of the board
	ActionExportTasks           = "exportTasks" // read-only: the pools or the board as a task file

	// ActionUndo and ActionUndoTo (undo.go): any admin.

	// Master admin actions.
	ActionAddAdmin    = "addAdmin"
	ActionRemoveAdmin = "removeAdmin"

	// ActionSetDiscord sets the Discord webhook URLs (any admin).
	ActionSetDiscord = "setDiscord"
)

// Roles of the principals a race signs in (scoped to the race: their actor
// ids are "{gameId}:{teamId}" and "{gameId}:{adminId}").
const (
	RoleTeam   domain.Role = "team"   // a team, signed in with its password
	RoleAdmin  domain.Role = "admin"  // an event admin
	RoleMaster domain.Role = "master" // the master admin, who made the race
)

// Who may perform an action.
type Who string

const (
	WhoTeam   Who = "team"   // the team itself, or any admin on its behalf
	WhoAdmin  Who = "admin"  // any admin (regular or master)
	WhoMaster Who = "master" // the master admin only
)

// Doc names the values (documents) an action reads or writes.
type Doc string

const (
	DocGame         Doc = "game"         // the game document
	DocTeam         Doc = "team"         // the one team the action names
	DocTeams        Doc = "teams"        // every team
	DocTarget       Doc = "target"       // the other team a powerup targets (back, disablePowerup)
	DocTile         Doc = "tile"         // one race tile with its content (private); for complete, the team's current tile
	DocBoard        Doc = "board"        // all 56 tiles (private)
	DocPublicBoard  Doc = "publicBoard"  // public projection of the tiles listed in Outcome.Publish
	DocPowerupTile  Doc = "powerupTile"  // the one powerup tile the action names
	DocPowerupTiles Doc = "powerupTiles" // every powerup tile
	DocPools        Doc = "pools"        // the task pools (private)
	DocHistory      Doc = "history"      // the latest undo history entries (private)
	DocDiscord      Doc = "discord"      // the webhook URLs (never readable) and their delivery status (admins)
)

// Spec describes an action for the functions layer and the store: who may
// perform it, what it reads, what it may write or delete. The Outcome
// (Writes, Deletes, Publish) says what one run did change.
type Spec struct {
	// Summary says what the action does, in one line (the API reference).
	Summary string `json:"summary"`
	Who     Who    `json:"who"`
	Reads   []Doc  `json:"reads"`
	Writes  []Doc  `json:"writes"`
	Deletes []Doc  `json:"deletes,omitempty"`
}

// Specs lists every action. Whenever an Outcome lists DocPublicBoard, the
// store also reads the content of the tiles in Outcome.Publish (before
// writing anything) to project them with PublicTiles.
var Specs = map[string]Spec{
	ActionComplete:         {Summary: "record completions on the team's current tile; at min it advances", Who: WhoTeam, Reads: []Doc{DocGame, DocTeam, DocTile, DocPublicBoard}, Writes: []Doc{DocTeam, DocGame, DocPublicBoard}},
	ActionClaimPowerupTile: {Summary: "claim a powerup tile's reward with its completions", Who: WhoTeam, Reads: []Doc{DocGame, DocTeam, DocPowerupTile}, Writes: []Doc{DocTeam, DocPowerupTile}},
	// usePowerup reads only what its powerup needs (PowerupReads); this is
	// the union.
	ActionUsePowerup: {Summary: "use a powerup from the inventory (skip, back, tile changes, utilities); sets the cooldown", Who: WhoTeam, Reads: []Doc{DocGame, DocTeam, DocTarget, DocTeams, DocBoard, DocPools},
		Writes: []Doc{DocTeam, DocTarget, DocBoard, DocPools, DocPublicBoard}},
	ActionStart:                 {Summary: "start the race", Who: WhoAdmin, Reads: []Doc{DocGame, DocBoard}, Writes: []Doc{DocGame}},
	ActionReset:                 {Summary: "put every team back on tile 1 with nothing; the board stays", Who: WhoAdmin, Reads: []Doc{DocGame, DocTeams, DocPowerupTiles}, Writes: []Doc{DocGame, DocTeams, DocPowerupTiles, DocPublicBoard}},
	ActionCreateTeam:            {Summary: "add a team with its password", Who: WhoAdmin, Reads: []Doc{DocGame}, Writes: []Doc{DocGame, DocTeam}},
	ActionUpdateTeam:            {Summary: "change a team's name, colour, members, slot, inventory or password", Who: WhoAdmin, Reads: []Doc{DocGame, DocTeam}, Writes: []Doc{DocTeam, DocGame}},
	ActionRemoveTeam:            {Summary: "remove a team", Who: WhoAdmin, Reads: []Doc{DocGame, DocTeam}, Writes: []Doc{DocGame}, Deletes: []Doc{DocTeam}},
	ActionMoveTeam:              {Summary: "put a team on a tile (progress resets)", Who: WhoAdmin, Reads: []Doc{DocGame, DocTeam}, Writes: []Doc{DocTeam, DocPublicBoard}},
	ActionGrantPowerup:          {Summary: "add powerups to a team's inventory", Who: WhoAdmin, Reads: []Doc{DocGame, DocTeam}, Writes: []Doc{DocTeam}},
	ActionSetCooldown:           {Summary: "set or clear a team's powerup cooldown", Who: WhoAdmin, Reads: []Doc{DocGame, DocTeam}, Writes: []Doc{DocTeam}},
	ActionEditTile:              {Summary: "change a race tile's task", Who: WhoAdmin, Reads: []Doc{DocGame, DocTile}, Writes: []Doc{DocTile, DocPublicBoard}},
	ActionCreatePowerupTile:     {Summary: "add a powerup tile", Who: WhoAdmin, Reads: []Doc{DocGame}, Writes: []Doc{DocGame, DocPowerupTile}},
	ActionEditPowerupTile:       {Summary: "change a powerup tile", Who: WhoAdmin, Reads: []Doc{DocGame, DocPowerupTile}, Writes: []Doc{DocPowerupTile}},
	ActionRemovePowerupTile:     {Summary: "remove a powerup tile", Who: WhoAdmin, Reads: []Doc{DocGame, DocPowerupTile}, Deletes: []Doc{DocPowerupTile}},
	ActionClearPowerupTiles:     {Summary: "remove every powerup tile", Who: WhoAdmin, Reads: []Doc{DocGame, DocPowerupTiles}, Deletes: []Doc{DocPowerupTiles}},
	ActionImportPowerupTiles:    {Summary: "add powerup tiles from a CSV/TSV file", Who: WhoAdmin, Reads: []Doc{DocGame}, Writes: []Doc{DocGame, DocPowerupTiles}},
	ActionImportTasks:           {Summary: "add pool tasks from a CSV/TSV file", Who: WhoAdmin, Reads: []Doc{DocGame, DocPools}, Writes: []Doc{DocPools}},
	ActionAddPoolTask:           {Summary: "add a task to a pool", Who: WhoAdmin, Reads: []Doc{DocGame, DocPools}, Writes: []Doc{DocPools}},
	ActionEditPoolTask:          {Summary: "change a pool task", Who: WhoAdmin, Reads: []Doc{DocGame, DocPools}, Writes: []Doc{DocPools}},
	ActionRemovePoolTask:        {Summary: "remove a pool task", Who: WhoAdmin, Reads: []Doc{DocGame, DocPools}, Writes: []Doc{DocPools}},
	ActionClearPools:            {Summary: "empty pools", Who: WhoAdmin, Reads: []Doc{DocGame, DocPools}, Writes: []Doc{DocPools}},
	ActionRandomiseDifficulties: {Summary: "give the tiles seeded random difficulties (the gradient)", Who: WhoAdmin, Reads: []Doc{DocGame, DocBoard, DocPools}, Writes: []Doc{DocGame, DocBoard, DocPools, DocPublicBoard}},
	ActionRandomiseTiles:        {Summary: "fill the tiles from the pools, seeded", Who: WhoAdmin, Reads: []Doc{DocGame, DocBoard, DocPools}, Writes: []Doc{DocBoard, DocPools, DocPublicBoard}},
	ActionSetSettings:           {Summary: "change the race's settings", Who: WhoAdmin, Reads: []Doc{DocGame}, Writes: []Doc{DocGame}},
	ActionSetFog:                {Summary: "set the fog of war mode", Who: WhoAdmin, Reads: []Doc{DocGame}, Writes: []Doc{DocGame, DocPublicBoard}},
	ActionViewBoard:             {Summary: "the board as the admin may see it (read-only)", Who: WhoAdmin, Reads: []Doc{DocGame, DocBoard}},
	ActionExportTasks:           {Summary: "the pools or the board as a task file (read-only)", Who: WhoAdmin, Reads: []Doc{DocGame, DocBoard, DocPools}},
	ActionUndo:                  {Summary: "revert the last action (its points too); not itself undoable", Who: WhoAdmin, Reads: []Doc{DocGame, DocHistory}, Writes: undoWrites, Deletes: []Doc{DocTeam, DocPowerupTile}},
	ActionUndoTo:                {Summary: "revert an action of the last 10 and every later one", Who: WhoAdmin, Reads: []Doc{DocGame, DocHistory}, Writes: undoWrites, Deletes: []Doc{DocTeam, DocPowerupTile}},
	ActionAddAdmin:              {Summary: "add a regular admin with a password", Who: WhoMaster, Reads: []Doc{DocGame}, Writes: []Doc{DocGame}},
	ActionRemoveAdmin:           {Summary: "remove a regular admin", Who: WhoMaster, Reads: []Doc{DocGame}, Writes: []Doc{DocGame}},
	ActionSetDiscord:            {Summary: "set or remove the Discord webhooks (main, team slots 1-5); the URLs are never shown again", Who: WhoAdmin, Reads: []Doc{DocGame, DocDiscord}, Writes: []Doc{DocGame, DocDiscord}},
}

// undoWrites: an undo restores whatever the undone actions wrote (it reads
// those documents once it knows which; docs/tilerace.md).
var undoWrites = []Doc{DocGame, DocTeam, DocBoard, DocPools, DocPowerupTile, DocPublicBoard}

// ActionTypes lists every action type, sorted.
func ActionTypes() []string {
	out := make([]string, 0, len(Specs))
	for k := range Specs {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Authorize checks that actor may perform action on game g; team is the team
// a team action acts for ("" otherwise). Every action calls it first.
//
//   - A team token (RoleTeam) may perform team actions for its own team only,
//     and only in its own game; the team must be on the roster.
//   - An admin token (RoleAdmin or RoleMaster) must name an admin on the
//     game's admin list (a removed admin's token stops working at once). The
//     list decides: a regular admin holding a master token is still regular.
//     Admins may perform team actions on behalf of any team on the roster
//     (the events name them) and every admin action; only the master admin
//     may add or remove admins.
//   - Everyone else (guests, players, the system) may do nothing.
//
// Errors: EINVALID (unknown action), EFORBIDDEN, ENOTFOUND (no such team).
func Authorize(g Game, actor domain.Actor, action, team string) error {
	spec, ok := Specs[action]
	if !ok {
		return domain.Errorf(domain.EINVALID, "unknown action type %q", action)
	}
	switch actor.Role {
	case RoleTeam, RoleAdmin, RoleMaster:
	default:
		return domain.Errorf(domain.EFORBIDDEN, "only a team or an admin of this game can do that")
	}
	if actor.Game != g.ID {
		return domain.Errorf(domain.EFORBIDDEN, "your session is for another game")
	}
	if actor.Role == RoleTeam {
		if spec.Who != WhoTeam {
			return domain.Errorf(domain.EFORBIDDEN, "only an admin can do that")
		}
		if actor.Local() != team {
			return domain.Errorf(domain.EFORBIDDEN, "a team can act only for itself")
		}
		if _, ok := g.TeamRef(team); !ok {
			return domain.Errorf(domain.EFORBIDDEN, "your team is no longer in this game")
		}
		return nil
	}
	admin, ok := g.Admin(actor.Local())
	if !ok {
		return domain.Errorf(domain.EFORBIDDEN, "you are not an admin of this game")
	}
	if admin.Gen != actor.Gen {
		return domain.Errorf(domain.EUNAUTHORIZED, "this admin session has ended; sign in again")
	}
	if spec.Who == WhoMaster && !admin.Master {
		return domain.Errorf(domain.EFORBIDDEN, "only the master admin can manage admins")
	}
	if spec.Who == WhoTeam {
		if _, ok := g.TeamRef(team); !ok {
			return domain.Errorf(domain.ENOTFOUND, "there is no team %q", team)
		}
	}
	return nil
}
