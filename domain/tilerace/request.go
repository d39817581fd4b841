package tilerace

import (
	"encoding/json"

	"github.com/meeple-games/meeple/domain"
)

// NoRequest is the payload of actions without fields (start, reset,
// clearPowerupTiles, randomiseTiles, viewBoard).
type NoRequest struct{}

// newRequest returns a pointer to the request type of action typ.
func newRequest(typ string) (any, bool) {
	switch typ {
	case ActionComplete:
		return &CompleteRequest{}, true
	case ActionClaimPowerupTile:
		return &ClaimRequest{}, true
	case ActionUsePowerup:
		return &PowerupRequest{}, true
	case ActionStart, ActionReset, ActionClearPowerupTiles, ActionRandomiseTiles, ActionViewBoard:
		return &NoRequest{}, true
	case ActionCreateTeam:
		return &CreateTeamRequest{}, true
	case ActionUpdateTeam:
		return &UpdateTeamRequest{}, true
	case ActionRemoveTeam:
		return &TeamRequest{}, true
	case ActionMoveTeam:
		return &MoveRequest{}, true
	case ActionGrantPowerup:
		return &GrantRequest{}, true
	case ActionSetCooldown:
		return &CooldownRequest{}, true
	case ActionEditTile:
		return &EditTileRequest{}, true
	case ActionCreatePowerupTile, ActionEditPowerupTile:
		return &PowerupTileRequest{}, true
	case ActionRemovePowerupTile:
		return &PowerupTileRef{}, true
	case ActionImportTasks, ActionImportPowerupTiles:
		return &ImportRequest{}, true
	case ActionAddPoolTask, ActionEditPoolTask, ActionRemovePoolTask:
		return &PoolTaskRequest{}, true
	case ActionClearPools:
		return &ClearPoolsRequest{}, true
	case ActionRandomiseDifficulties:
		return &RandomiseRequest{}, true
	case ActionSetSettings:
		return &SettingsRequest{}, true
	case ActionSetFog:
		return &FogRequest{}, true
	case ActionAddAdmin, ActionRemoveAdmin:
		return &AdminRequest{}, true
	case ActionExportTasks:
		return &ExportRequest{}, true
	case ActionUndo, ActionUndoTo:
		return &UndoRequest{}, true
	case ActionSetDiscord:
		return &SetDiscordRequest{}, true
	}
	return nil, false
}

// DecodeRequest decodes the payload of action typ (the whole request body;
// fields the action does not use, such as gameId and actionId, are ignored)
// into a pointer to its request type: *CompleteRequest for "complete", and
// so on (see newRequest). An empty payload counts as {}.
//
// Errors: EINVALID (unknown type, not a JSON object, a field of the wrong
// JSON type).
func DecodeRequest(typ string, payload json.RawMessage) (any, error) {
	v, ok := newRequest(typ)
	if !ok {
		return nil, domain.Errorf(domain.EINVALID, "unknown action type %q", typ)
	}
	if err := domain.DecodePayload(payload, v); err != nil {
		return nil, err
	}
	return v, nil
}

// TeamOf is the team a team-targeted request acts for: the request's team,
// or, when it names none, the team of a team token.
func TeamOf(actor domain.Actor, reqTeam string) string {
	if reqTeam == "" && actor.Role == RoleTeam {
		return actor.Local()
	}
	return reqTeam
}
