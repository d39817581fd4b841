package tilerace

import (
	"encoding/json"

	"github.com/meeple-games/meeple/domain"
)

// Event types. Event.Player is the id of the team concerned ("" for events
// about the game). Every event that an admin caused names the admin in By;
// events are public, so none carries the content of a tile players cannot
// see.
const (
	EventCompletionsRecorded = "completionsRecorded" // RecordedData
	EventPointsAwarded       = "pointsAwarded"       // AwardData: one per player a completion or claim awards: the points ledger's entry (LedgerOf)
	EventTileCompleted       = "tileCompleted"       // TileCompletedData
	EventPowerupGained       = "powerupGained"       // PowerupGainedData
	EventTilesRevealed       = "tilesRevealed"       // RevealedData
	EventTeamWon             = "teamWon"             // TeamWonData, followed by domain.EventGameOver
	EventPowerupTileClaimed  = "powerupTileClaimed"  // ClaimedData
	EventPowerupUsed         = "powerupUsed"         // PowerupUsedData; movement also emits teamMoved

	EventGameStarted = "gameStarted" // AdminData
	EventGameReset   = "gameReset"   // AdminData

	EventTeamCreated  = "teamCreated"         // TeamData
	EventTeamUpdated  = "teamUpdated"         // TeamUpdatedData
	EventTeamRemoved  = "teamRemoved"         // TeamData
	EventTeamMoved    = "teamMoved"           // MovedData
	EventCooldownSet  = "cooldownSet"         // CooldownData
	EventTileEdited   = "tileEdited"          // TileEditedData
	EventSettingsSet  = "settingsSet"         // AdminData
	EventFogSet       = "fogSet"              // FogData
	EventAdminAdded   = "adminAdded"          // AdminChangeData
	EventAdminRemoved = "adminRemoved"        // AdminChangeData
	EventBoardChanged = "boardChanged"        // BoardChangedData: randomised difficulties or tiles
	EventPoolsChanged = "poolsChanged"        // PoolsChangedData: imports and pool edits (no task content: pools are private)
	EventPowerupTiles = "powerupTilesChanged" // PowerupTilesData
	// and domain.EventGameOver with a domain.GameOver when a team wins.
)

// Reason of the GameOver event.
const ReasonFinalTile = "finalTile"

// RecordedData is the data of EventCompletionsRecorded.
type RecordedData struct {
	Team     string   `json:"team"`
	TeamName string   `json:"teamName"`
	Tile     int      `json:"tile"`
	Label    string   `json:"label"`
	Players  []string `json:"players"`  // the completions this action recorded
	Points   int      `json:"points"`   // hundredths per completion
	Recorded int      `json:"recorded"` // completions recorded on the tile so far
	Min      int      `json:"min"`
	Max      int      `json:"max"`
	By       string   `json:"by,omitempty"`
}

// AwardData is the data of EventPointsAwarded: one completion's points for
// one player, and the points ledger's entry for it (LedgerOf). Key is
// unique in the race and stable (AwardKey: from the team's awards counter,
// raised in the same commit), so an award is never counted twice.
type AwardData struct {
	Key         string `json:"key"`
	Player      string `json:"player"`
	Points      int    `json:"points"` // hundredths, > 0
	Team        string `json:"team"`
	TeamName    string `json:"teamName"`
	Tile        int    `json:"tile,omitempty"`        // race tile, or
	PowerupTile string `json:"powerupTile,omitempty"` // powerup tile id
	By          string `json:"by,omitempty"`
}

// TileCompletedData is the data of EventTileCompleted.
type TileCompletedData struct {
	Team       string   `json:"team"`
	TeamName   string   `json:"teamName"`
	Tile       int      `json:"tile"`
	Label      string   `json:"label"`
	Players    []string `json:"players"` // every completion recorded on the tile
	Points     int      `json:"points"`  // hundredths per completion
	Doubled    bool     `json:"doubled,omitempty"`
	StartProof bool     `json:"startProof,omitempty"`
	Position   int      `json:"position"` // where the team is now (56 after winning)
	Reward     string   `json:"reward,omitempty"`
	By         string   `json:"by,omitempty"`
}

// PowerupGainedData is the data of EventPowerupGained.
type PowerupGainedData struct {
	Team        string `json:"team"`
	TeamName    string `json:"teamName"`
	Powerup     string `json:"powerup"`
	Tile        int    `json:"tile,omitempty"`        // from completing a race tile
	PowerupTile string `json:"powerupTile,omitempty"` // from claiming a powerup tile
	Granted     bool   `json:"granted,omitempty"`     // granted by an admin
	By          string `json:"by,omitempty"`
}

// RevealedData is the data of EventTilesRevealed: tiles From..To are now
// revealed. The store writes their public projection in the same transaction.
type RevealedData struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// TeamWonData is the data of EventTeamWon.
type TeamWonData struct {
	Team     string   `json:"team"`
	TeamName string   `json:"teamName"`
	Members  []string `json:"members"`
	By       string   `json:"by,omitempty"`
}

// ClaimedData is the data of EventPowerupTileClaimed.
type ClaimedData struct {
	Team        string   `json:"team"`
	TeamName    string   `json:"teamName"`
	PowerupTile string   `json:"powerupTile"`
	Label       string   `json:"label"`
	Players     []string `json:"players"`
	Points      int      `json:"points"` // hundredths per completion
	Reward      string   `json:"reward"`
	Claims      int      `json:"claims"` // the team's claims of this tile, this one included
	By          string   `json:"by,omitempty"`
}

// AdminData is the data of events that only name the admin.
type AdminData struct {
	By string `json:"by"`
}

// TeamData is the data of EventTeamCreated and EventTeamRemoved.
type TeamData struct {
	Team     string   `json:"team"`
	TeamName string   `json:"teamName"`
	Color    string   `json:"color,omitempty"`
	Members  []string `json:"members,omitempty"`
	Slot     int      `json:"slot,omitempty"`
	By       string   `json:"by"`
}

// TeamUpdatedData is the data of EventTeamUpdated.
type TeamUpdatedData struct {
	Team     string   `json:"team"`
	TeamName string   `json:"teamName"`
	Changes  []string `json:"changes"` // human-readable, e.g. `name "A" → "B"`
	By       string   `json:"by"`
}

// MovedData is the data of EventTeamMoved.
type MovedData struct {
	Team     string `json:"team"`
	TeamName string `json:"teamName"`
	From     int    `json:"from"`
	To       int    `json:"to"`
	By       string `json:"by"`
}

// CooldownData is the data of EventCooldownSet.
type CooldownData struct {
	Team     string `json:"team"`
	TeamName string `json:"teamName"`
	Cooldown bool   `json:"cooldown"`
	By       string `json:"by"`
}

// TileEditedData is the data of EventTileEdited. Label is given only when
// players can see the tile.
type TileEditedData struct {
	Tile  int    `json:"tile"`
	Label string `json:"label,omitempty"`
	By    string `json:"by"`
}

// FogData is the data of EventFogSet.
type FogData struct {
	Mode FogMode `json:"mode"`
	Auto bool    `json:"auto,omitempty"` // disabled by the server after a failed randomisation
	By   string  `json:"by,omitempty"`
}

// AdminChangeData is the data of EventAdminAdded and EventAdminRemoved.
type AdminChangeData struct {
	Admin string `json:"admin"` // id
	Name  string `json:"name"`
	By    string `json:"by"`
}

// BoardChangedData is the data of EventBoardChanged. It says what was
// randomised, not the result, which is hidden under the fog.
type BoardChangedData struct {
	What string `json:"what"` // "difficulties", "tiles" or "board" (both)
	By   string `json:"by"`
}

// PoolsChangedData is the data of EventPoolsChanged.
type PoolsChangedData struct {
	What  string `json:"what"` // "imported", "added", "edited", "removed", "cleared"
	Count int    `json:"count"`
	By    string `json:"by"`
}

// PowerupTilesData is the data of EventPowerupTiles.
type PowerupTilesData struct {
	What  string   `json:"what"` // "created", "edited", "removed", "cleared", "imported"
	IDs   []string `json:"ids,omitempty"`
	Count int      `json:"count"`
	By    string   `json:"by"`
}

// Results: Outcome.Result of the actions that return more than their events.

// CompleteResult is the result of Complete.
type CompleteResult struct {
	Tile     int      `json:"tile"`     // the tile the request named
	Recorded int      `json:"recorded"` // completions now recorded on it (0 after advancing)
	Advanced bool     `json:"advanced"`
	Position int      `json:"position"`
	Points   int      `json:"points"` // hundredths awarded by this request
	Reward   string   `json:"reward,omitempty"`
	Won      bool     `json:"won,omitempty"`
	Progress []string `json:"progress"`
}

// ClaimResult is the result of ClaimPowerupTile.
type ClaimResult struct {
	PowerupTile string `json:"powerupTile"`
	Reward      string `json:"reward"`
	Points      int    `json:"points"` // hundredths awarded
	Claims      int    `json:"claims"`
}

// RandomiseResult is the result of the randomisers (for the admin only).
type RandomiseResult struct {
	Counts map[string]int `json:"counts"` // tiles per difficulty
}

// ImportResult is the result of the imports.
type ImportResult struct {
	Imported int            `json:"imported"`
	Counts   map[string]int `json:"counts,omitempty"` // tasks per difficulty
	IDs      []string       `json:"ids,omitempty"`    // powerup tile ids
}

// HasEffects reports whether events hold one the triggers must act on: points
// to award (EventPointsAwarded), a completed tile (EventTileCompleted: the fog
// frontier to raise, should the store's own call after the completion not
// have done it) or a finished game (domain.EventGameOver).
// The store marks such event records pending until the effects ran.
func HasEffects(events []domain.Event) bool {
	for _, e := range events {
		if e.Type == EventPointsAwarded || e.Type == EventPointsReversed || e.Type == EventTileCompleted || e.Type == domain.EventGameOver {
			return true
		}
	}
	return false
}

// dataOf decodes event e's data into v, whether the data is typed (as a
// step made it) or decoded from JSON (as the store reads it back).
func dataOf(e domain.Event, v any) error {
	b, err := json.Marshal(e.Data)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
