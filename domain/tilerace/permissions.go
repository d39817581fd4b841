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
	Who     Who   `json:"who"`
	Reads   []Doc `json:"reads"`
	Writes  []Doc `json:"writes"`
	Deletes []Doc `json:"deletes,omitempty"`
}

// Specs lists every action. Whenever an Outcome lists DocPublicBoard, the
// store also reads the content of the tiles in Outcome.Publish (before
// writing anything) to project them with PublicTiles.
var Specs = map[string]Spec{
	ActionComplete:         {Who: WhoTeam, Reads: []Doc{DocGame, DocTeam, DocTile}, Writes: []Doc{DocTeam, DocGame}},
	ActionClaimPowerupTile: {Who: WhoTeam, Reads: []Doc{DocGame, DocTeam, DocPowerupTile}, Writes: []Doc{DocTeam, DocPowerupTile}},
	// usePowerup reads only what its powerup needs (PowerupReads); this is
	// the union.
	ActionUsePowerup: {Who: WhoTeam, Reads: []Doc{DocGame, DocTeam, DocTarget, DocTeams, DocBoard, DocPools},
		Writes: []Doc{DocTeam, DocTarget, DocBoard, DocPools, DocPublicBoard}},
	ActionStart:                 {Who: WhoAdmin, Reads: []Doc{DocGame, DocBoard}, Writes: []Doc{DocGame}},
	ActionReset:                 {Who: WhoAdmin, Reads: []Doc{DocGame, DocTeams, DocPowerupTiles}, Writes: []Doc{DocGame, DocTeams, DocPowerupTiles, DocPublicBoard}},
	ActionCreateTeam:            {Who: WhoAdmin, Reads: []Doc{DocGame}, Writes: []Doc{DocGame, DocTeam}},
	ActionUpdateTeam:            {Who: WhoAdmin, Reads: []Doc{DocGame, DocTeam}, Writes: []Doc{DocTeam, DocGame}},
	ActionRemoveTeam:            {Who: WhoAdmin, Reads: []Doc{DocGame, DocTeam}, Writes: []Doc{DocGame}, Deletes: []Doc{DocTeam}},
	ActionMoveTeam:              {Who: WhoAdmin, Reads: []Doc{DocGame, DocTeam}, Writes: []Doc{DocTeam, DocPublicBoard}},
	ActionGrantPowerup:          {Who: WhoAdmin, Reads: []Doc{DocGame, DocTeam}, Writes: []Doc{DocTeam}},
	ActionSetCooldown:           {Who: WhoAdmin, Reads: []Doc{DocGame, DocTeam}, Writes: []Doc{DocTeam}},
	ActionEditTile:              {Who: WhoAdmin, Reads: []Doc{DocGame, DocTile}, Writes: []Doc{DocTile, DocPublicBoard}},
	ActionCreatePowerupTile:     {Who: WhoAdmin, Reads: []Doc{DocGame}, Writes: []Doc{DocGame, DocPowerupTile}},
	ActionEditPowerupTile:       {Who: WhoAdmin, Reads: []Doc{DocGame, DocPowerupTile}, Writes: []Doc{DocPowerupTile}},
	ActionRemovePowerupTile:     {Who: WhoAdmin, Reads: []Doc{DocGame, DocPowerupTile}, Deletes: []Doc{DocPowerupTile}},
	ActionClearPowerupTiles:     {Who: WhoAdmin, Reads: []Doc{DocGame, DocPowerupTiles}, Deletes: []Doc{DocPowerupTiles}},
	ActionImportPowerupTiles:    {Who: WhoAdmin, Reads: []Doc{DocGame}, Writes: []Doc{DocGame, DocPowerupTiles}},
	ActionImportTasks:           {Who: WhoAdmin, Reads: []Doc{DocGame, DocPools}, Writes: []Doc{DocPools}},
	ActionAddPoolTask:           {Who: WhoAdmin, Reads: []Doc{DocGame, DocPools}, Writes: []Doc{DocPools}},
	ActionEditPoolTask:          {Who: WhoAdmin, Reads: []Doc{DocGame, DocPools}, Writes: []Doc{DocPools}},
	ActionRemovePoolTask:        {Who: WhoAdmin, Reads: []Doc{DocGame, DocPools}, Writes: []Doc{DocPools}},
	ActionClearPools:            {Who: WhoAdmin, Reads: []Doc{DocGame, DocPools}, Writes: []Doc{DocPools}},
	ActionRandomiseDifficulties: {Who: WhoAdmin, Reads: []Doc{DocGame, DocBoard, DocPools}, Writes: []Doc{DocGame, DocBoard, DocPools, DocPublicBoard}},
	ActionRandomiseTiles:        {Who: WhoAdmin, Reads: []Doc{DocGame, DocBoard, DocPools}, Writes: []Doc{DocBoard, DocPools, DocPublicBoard}},
	ActionSetSettings:           {Who: WhoAdmin, Reads: []Doc{DocGame}, Writes: []Doc{DocGame}},
	ActionSetFog:                {Who: WhoAdmin, Reads: []Doc{DocGame}, Writes: []Doc{DocGame, DocPublicBoard}},
	ActionViewBoard:             {Who: WhoAdmin, Reads: []Doc{DocGame, DocBoard}},
	ActionExportTasks:           {Who: WhoAdmin, Reads: []Doc{DocGame, DocBoard, DocPools}},
	ActionUndo:                  {Who: WhoAdmin, Reads: []Doc{DocGame, DocHistory}, Writes: undoWrites, Deletes: []Doc{DocTeam, DocPowerupTile}},
	ActionUndoTo:                {Who: WhoAdmin, Reads: []Doc{DocGame, DocHistory}, Writes: undoWrites, Deletes: []Doc{DocTeam, DocPowerupTile}},
	ActionAddAdmin:              {Who: WhoMaster, Reads: []Doc{DocGame}, Writes: []Doc{DocGame}},
	ActionRemoveAdmin:           {Who: WhoMaster, Reads: []Doc{DocGame}, Writes: []Doc{DocGame}},
	ActionSetDiscord:            {Who: WhoAdmin, Reads: []Doc{DocGame, DocDiscord}, Writes: []Doc{DocGame, DocDiscord}},
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
