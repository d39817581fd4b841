package tilerace

import (
	"github.com/meeple-games/meeple/domain"
)

// Values are the documents one action works on. The store fills the fields
// the action's Spec reads, runs it with Run and writes back the ones its
// Outcome lists. The board holds the tiles (DocTile and DocBoard: the store
// keeps all 56 in one private document, so a tile costs one read either way).
type Values struct {
	Game   Game
	Team   Team  // DocTeam: the team the action names
	Target Team  // DocTarget: the team a powerup targets
	Board  Board // DocTile, DocBoard
	// Tile is the team's tile when the board was not read: a completion
	// reads it from the public board (tileOfCompletion).
	Tile          *Tile
	Pools         Pools         // DocPools
	Teams         []Team        // DocTeams: every team
	PowerupTile   PowerupTile   // DocPowerupTile: the one the action names
	PowerupTiles  []PowerupTile // DocPowerupTiles: every powerup tile (read); the created ones (written)
	Discord       DiscordDoc    // DocDiscord: the webhook URLs
	DiscordStatus DiscordStatus // DocDiscord: their delivery status
}

// Keys are the documents an action names, besides the game: what the store
// must look up before running it.
type Keys struct {
	Team        string // for DocTeam
	Target      string // for DocTarget
	PowerupTile string // for DocPowerupTile
}

// KeysOf returns the keys of a decoded request (from DecodeRequest) sent by
// actor. A team token may leave the team out of its own team actions.
func KeysOf(actor domain.Actor, req any) Keys {
	switch r := req.(type) {
	case *CompleteRequest:
		return Keys{Team: TeamOf(actor, r.Team)}
	case *ClaimRequest:
		return Keys{Team: TeamOf(actor, r.Team), PowerupTile: r.PowerupTile}
	case *PowerupRequest:
		return Keys{Team: TeamOf(actor, r.Team), Target: r.Target}
	case *UpdateTeamRequest:
		return Keys{Team: r.Team}
	case *TeamRequest:
		return Keys{Team: r.Team}
	case *MoveRequest:
		return Keys{Team: r.Team}
	case *GrantRequest:
		return Keys{Team: r.Team}
	case *CooldownRequest:
		return Keys{Team: r.Team}
	case *PowerupTileRequest:
		return Keys{PowerupTile: r.PowerupTile}
	case *PowerupTileRef:
		return Keys{PowerupTile: r.PowerupTile}
	}
	return Keys{}
}

// Input is one action to run.
type Input struct {
	Type string
	Req  any // from DecodeRequest(Type, …)
	// NewID is the id a createTeam gives the new team (the functions layer
	// derives it so a retried request makes the same team; never reused).
	NewID string
	Dice  domain.Dice // for the randomisers and Change Tile
}

// Run performs one action on v: the one entry point the store calls, so it
// needs no knowledge of the individual actions. It returns the new values;
// only those the Outcome lists in Writes changed.
//
// Errors: whatever the action returns (see each function), and EINVALID for
// an unknown type or a request of the wrong type.
func Run(c Ctx, v Values, in Input) (Values, Outcome, error) {
	orig := v
	var o Outcome
	var err error
	bad := func() (Values, Outcome, error) {
		return v, Outcome{}, domain.Errorf(domain.EINVALID, "request of type %T does not fit action %q", in.Req, in.Type)
	}
	switch in.Type {
	case ActionComplete:
		r, ok := in.Req.(*CompleteRequest)
		if !ok {
			return bad()
		}
		tile, _ := v.Board.Tile(v.Team.Position)
		if v.Tile != nil {
			tile = *v.Tile
		}
		v.Game, v.Team, o, err = Complete(c, v.Game, v.Team, tile, *r)
		if err == nil && o.Wrote(DocTeam) {
			// The fog frontier follows the team in the same commit (its
			// write is conditional on the public board being unchanged
			// since the read, so two teams raising it at once end as one
			// serial order would).
			v.Game = raiseAfter(v.Game, &o)
		}
	case ActionClaimPowerupTile:
		r, ok := in.Req.(*ClaimRequest)
		if !ok {
			return bad()
		}
		v.Team, v.PowerupTile, o, err = ClaimPowerupTile(c, v.Game, v.Team, v.PowerupTile, *r)
	case ActionUsePowerup:
		r, ok := in.Req.(*PowerupRequest)
		if !ok {
			return bad()
		}
		v, o, err = UsePowerup(c, v, *r, in.Dice)
	case ActionStart:
		v.Game, o, err = Start(c, v.Game, v.Board)
	case ActionReset:
		v.Game, v.Teams, v.PowerupTiles, o, err = Reset(c, v.Game, v.Teams, v.PowerupTiles)
	case ActionCreateTeam:
		r, ok := in.Req.(*CreateTeamRequest)
		if !ok {
			return bad()
		}
		v.Game, v.Team, o, err = CreateTeam(c, v.Game, in.NewID, *r)
	case ActionUpdateTeam:
		r, ok := in.Req.(*UpdateTeamRequest)
		if !ok {
			return bad()
		}
		v.Game, v.Team, o, err = UpdateTeam(c, v.Game, v.Team, *r)
	case ActionRemoveTeam:
		r, ok := in.Req.(*TeamRequest)
		if !ok {
			return bad()
		}
		v.Game, o, err = RemoveTeam(c, v.Game, v.Team, *r)
	case ActionMoveTeam:
		r, ok := in.Req.(*MoveRequest)
		if !ok {
			return bad()
		}
		v.Game, v.Team, o, err = MoveTeam(c, v.Game, v.Team, *r)
	case ActionGrantPowerup:
		r, ok := in.Req.(*GrantRequest)
		if !ok {
			return bad()
		}
		v.Team, o, err = GrantPowerup(c, v.Game, v.Team, *r)
	case ActionSetCooldown:
		r, ok := in.Req.(*CooldownRequest)
		if !ok {
			return bad()
		}
		v.Team, o, err = SetCooldown(c, v.Game, v.Team, *r)
	case ActionEditTile:
		r, ok := in.Req.(*EditTileRequest)
		if !ok {
			return bad()
		}
		tile, found := v.Board.Tile(r.Tile)
		if !found {
			return v, o, domain.Errorf(domain.EINVALID, "tile must be 1 to %d, not %d", NumTiles, r.Tile)
		}
		var nt Tile
		nt, o, err = EditTile(c, v.Game, tile, *r)
		if err == nil {
			v.Board = v.Board.clone()
			v.Board.Tiles[nt.N-1] = nt
		}
	case ActionCreatePowerupTile:
		r, ok := in.Req.(*PowerupTileRequest)
		if !ok {
			return bad()
		}
		v.Game, v.PowerupTile, o, err = CreatePowerupTile(c, v.Game, *r)
	case ActionEditPowerupTile:
		r, ok := in.Req.(*PowerupTileRequest)
		if !ok {
			return bad()
		}
		v.PowerupTile, o, err = EditPowerupTile(c, v.Game, v.PowerupTile, *r)
	case ActionRemovePowerupTile:
		r, ok := in.Req.(*PowerupTileRef)
		if !ok {
			return bad()
		}
		o, err = RemovePowerupTile(c, v.Game, v.PowerupTile, *r)
	case ActionClearPowerupTiles:
		o, err = ClearPowerupTiles(c, v.Game, v.PowerupTiles)
	case ActionImportPowerupTiles:
		r, ok := in.Req.(*ImportRequest)
		if !ok {
			return bad()
		}
		v.Game, v.PowerupTiles, o, err = ImportPowerupTiles(c, v.Game, *r)
	case ActionImportTasks:
		r, ok := in.Req.(*ImportRequest)
		if !ok {
			return bad()
		}
		v.Pools, o, err = ImportTasks(c, v.Game, v.Pools, *r)
	case ActionAddPoolTask, ActionEditPoolTask, ActionRemovePoolTask:
		r, ok := in.Req.(*PoolTaskRequest)
		if !ok {
			return bad()
		}
		switch in.Type {
		case ActionAddPoolTask:
			v.Pools, o, err = AddPoolTask(c, v.Game, v.Pools, *r)
		case ActionEditPoolTask:
			v.Pools, o, err = EditPoolTask(c, v.Game, v.Pools, *r)
		default:
			v.Pools, o, err = RemovePoolTask(c, v.Game, v.Pools, *r)
		}
	case ActionClearPools:
		r, ok := in.Req.(*ClearPoolsRequest)
		if !ok {
			return bad()
		}
		v.Pools, o, err = ClearPools(c, v.Game, v.Pools, *r)
	case ActionRandomiseDifficulties:
		r, ok := in.Req.(*RandomiseRequest)
		if !ok {
			return bad()
		}
		v.Game, v.Board, v.Pools, o, err = RandomiseDifficulties(c, v.Game, v.Board, v.Pools, *r, in.Dice)
	case ActionRandomiseTiles:
		v.Board, v.Pools, o, err = RandomiseTiles(c, v.Game, v.Board, v.Pools, in.Dice)
	case ActionSetSettings:
		r, ok := in.Req.(*SettingsRequest)
		if !ok {
			return bad()
		}
		v.Game, o, err = SetSettings(c, v.Game, *r)
	case ActionSetFog:
		r, ok := in.Req.(*FogRequest)
		if !ok {
			return bad()
		}
		v.Game, o, err = SetFog(c, v.Game, *r)
	case ActionViewBoard:
		var view []PublicTile
		view, err = AdminBoard(c, v.Game, v.Board)
		o.Result = map[string]any{"tiles": view}
	case ActionExportTasks:
		r, ok := in.Req.(*ExportRequest)
		if !ok {
			return bad()
		}
		var file string
		file, err = ExportTasks(c, v.Game, v.Pools, v.Board, *r)
		o.Result = map[string]any{"csv": file}
	case ActionAddAdmin, ActionRemoveAdmin:
		r, ok := in.Req.(*AdminRequest)
		if !ok {
			return bad()
		}
		if in.Type == ActionAddAdmin {
			v.Game, o, err = AddAdmin(c, v.Game, *r)
		} else {
			v.Game, o, err = RemoveAdmin(c, v.Game, *r)
		}
	case ActionUndo, ActionUndoTo:
		// Undo works on the stored documents and their history, not on
		// Values: RaceGame runs it (undo.go).
		return v, Outcome{}, domain.Errorf(domain.EINVALID, "%s runs on the stored documents, not through Run", in.Type)
	case ActionSetDiscord:
		r, ok := in.Req.(*SetDiscordRequest)
		if !ok {
			return bad()
		}
		v.Game, v.Discord, v.DiscordStatus, o, err = SetDiscord(c, v.Game, v.Discord, v.DiscordStatus, *r)
	default:
		return v, Outcome{}, domain.Errorf(domain.EINVALID, "unknown action type %q", in.Type)
	}
	if err != nil {
		return orig, Outcome{}, err
	}
	if o.Events == nil {
		o.Events = []domain.Event{}
	}
	return v, o, nil
}
