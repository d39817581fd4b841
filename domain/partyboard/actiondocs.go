package partyboard

import (
	"encoding/json"

	"github.com/meeple-games/meeple/domain"
)

// UploadRequest is the payload of "uploadBoard".
type UploadRequest struct {
	Board   json.RawMessage `json:"board" field:"json"`       // the board file
	Name    *string         `json:"name" field:"text,max=24"` // overrides the file's name
	Lenient bool            `json:"lenient"`                  // accept boards with rules the engine keeps as text
	DryRun  bool            `json:"dryRun"`                   // check only: store nothing
}

// GetBoardRequest is the payload of "getBoard".
type GetBoardRequest struct {
	Board string `json:"board" field:"id"` // a built-in board id or an uploaded board's id
}

// SimulateRequest is the payload of "simulateBoard".
type SimulateRequest struct {
	Board   json.RawMessage `json:"board" field:"json,orid"`          // a board id, or a board file
	Games   int             `json:"games" field:"int,min=0,max=200"`  // 0: DefaultSimGames, or fewer to fit SimBudget
	Players int             `json:"players" field:"int,min=0,max=12"` // 0: 4; else MinPlayers to MaxPlayers
	Seed    string          `json:"seed" field:"text,max=128"`
	Lenient bool            `json:"lenient"`
}

// RemovePlayerRequest is the payload of "removePlayer".
type RemovePlayerRequest struct {
	PlayerID string `json:"playerId" field:"id"`
}

// ActionDocs implements domain.ActionDocer.
func (PlatformGame) ActionDocs() []domain.ActionDoc {
	awaited := "the player the game awaits (see state.await)"
	input := func(typ, summary string) domain.ActionDoc {
		return domain.ActionDoc{Type: typ, Payload: InputRequest{}, Who: awaited, Summary: summary}
	}
	return []domain.ActionDoc{
		{Type: domain.ActionCreate, Payload: CreateRequest{}, Who: "any signed-in player (the host)", Summary: "open a game on a board",
			Platform: []domain.Field{domain.PlatformField("seed", "local stack only")}},
		{Type: ActionJoin, Who: "any signed-in player, before the start", Summary: "take a seat",
			Platform: []domain.Field{domain.PlatformField("roomCode", "")}},
		{Type: ActionStart, Who: "the host", Summary: "start the game with the players seated"},
		{Type: ActionRemovePlayer, Payload: RemovePlayerRequest{}, Who: "the host (anyone) or a player (themselves)", Summary: "take a player out of the game"},
		input(ActionRoll, "roll the dice the game awaits"),
		input(ActionChoose, "pick one of the offered choices (choice)"),
		input(ActionTarget, "pick a target player (playerId)"),
		input(ActionStarter, "pick who starts a duel (starter)"),
		input(ActionGroupRoll, "roll in a roll everyone makes"),
		input(ActionConfirm, "acknowledge what the game shows"),
		input(ActionChallenge, "report a challenge's winner and loser"),
		{Type: ActionListBoards, Who: "any signed-in player", Summary: "the built-in boards"},
		{Type: ActionUploadBoard, Payload: UploadRequest{}, Who: "any signed-in player", Summary: "store a board file (checked; dryRun only checks)"},
		{Type: ActionGetBoard, Payload: GetBoardRequest{}, Who: "any signed-in player", Summary: "a board's whole content, to draw it"},
		{Type: ActionSimulateBoard, Payload: SimulateRequest{}, Who: "any signed-in player", Summary: "play random games on a board and report"},
	}
}
