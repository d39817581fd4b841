package tilerace

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// Say is a Tile Race event in words. Every event's data carries the team
// names it needs, so Say needs no state; it reads typed data or data decoded
// from JSON alike (the Discord outbox reads events back from the store).
// The Discord messages' titles are these words with an emoji (discord.go).
func Say(e domain.Event) string {
	raw, err := json.Marshal(e.Data)
	if err != nil {
		return ""
	}
	get := func(v any) bool { return json.Unmarshal(raw, v) == nil }
	switch e.Type {
	case EventTileCompleted:
		var d TileCompletedData
		if get(&d) {
			return d.words()
		}
	case EventCompletionsRecorded:
		var d RecordedData
		if get(&d) {
			return d.words()
		}
	case EventPointsAwarded:
		var d AwardData
		if get(&d) {
			what := fmt.Sprintf("tile %d", d.Tile)
			if d.PowerupTile != "" {
				what = "a powerup tile"
			}
			return fmt.Sprintf("%s (%s) earned %s pts on %s", d.Player, d.TeamName, FormatPoints(d.Points), what)
		}
	case EventPowerupGained:
		var d PowerupGainedData
		if get(&d) {
			return d.words()
		}
	case EventTilesRevealed:
		var d RevealedData
		if get(&d) {
			return fmt.Sprintf("tiles %d to %d are revealed", d.From, d.To)
		}
	case EventTeamWon:
		var d TeamWonData
		if get(&d) {
			return d.words()
		}
	case EventPowerupTileClaimed:
		var d ClaimedData
		if get(&d) {
			return d.words()
		}
	case EventPowerupUsed:
		var d PowerupUsedData
		if get(&d) {
			return d.words()
		}
	case EventGameStarted:
		return "The race has started"
	case EventGameReset:
		return "The game was reset"
	case EventTeamCreated, EventTeamRemoved:
		var d TeamData
		if get(&d) {
			return d.words(e.Type)
		}
	case EventTeamUpdated:
		var d TeamUpdatedData
		if get(&d) {
			if len(d.Changes) == 0 {
				return d.words()
			}
			return d.words() + ": " + strings.Join(d.Changes, ", ")
		}
	case EventTeamMoved:
		var d MovedData
		if get(&d) {
			return d.words()
		}
	case EventCooldownSet:
		var d CooldownData
		if get(&d) {
			return d.words()
		}
	case EventTileEdited:
		var d TileEditedData
		if get(&d) {
			return fmt.Sprintf("Tile %d was edited", d.Tile)
		}
	case EventSettingsSet:
		return "The settings were changed"
	case EventFogSet:
		var d FogData
		if get(&d) {
			if d.Auto {
				return fmt.Sprintf("Fog set to %s by the server", d.Mode)
			}
			return fmt.Sprintf("Fog set to %s", d.Mode)
		}
	case EventAdminAdded, EventAdminRemoved:
		var d AdminChangeData
		if get(&d) {
			if e.Type == EventAdminAdded {
				return fmt.Sprintf("%s is now an admin", d.Name)
			}
			return fmt.Sprintf("%s is no longer an admin", d.Name)
		}
	case EventBoardChanged:
		var d BoardChangedData
		if get(&d) {
			return fmt.Sprintf("The board was randomised (%s)", d.What)
		}
	case EventPoolsChanged:
		var d PoolsChangedData
		if get(&d) {
			return fmt.Sprintf("Task pools %s (%s)", d.What, plural(d.Count, "task"))
		}
	case EventPowerupTiles:
		var d PowerupTilesData
		if get(&d) {
			return fmt.Sprintf("Powerup tiles %s (%d)", d.What, d.Count)
		}
	case EventDiscordSet:
		return "The Discord webhooks were changed"
	case EventUndone:
		var d UndoneData
		if get(&d) {
			return d.words()
		}
	case EventPointsReversed:
		var d PointsReversedData
		if get(&d) {
			return fmt.Sprintf("%s pts taken back from %s (%s)", FormatPoints(d.Points), d.Player, d.TeamName)
		}
	case domain.EventGameOver:
		return "The race is over"
	}
	return "" // unsaid: the conformance kit reports it
}

// SayAll fills the Text of each event that has none: Tile Race runs its
// own steps (not domain.Single), so each place that makes a step calls it.
func SayAll(events []domain.Event) []domain.Event {
	for i := range events {
		if events[i].Text == "" {
			events[i].Text = Say(events[i])
		}
	}
	return events
}

func (d TileCompletedData) words() string {
	return fmt.Sprintf("%s completed tile %d", d.TeamName, d.Tile)
}

func (d RecordedData) words() string {
	return fmt.Sprintf("%s recorded %s on tile %d", d.TeamName, plural(len(d.Players), "completion"), d.Tile)
}

func (d ClaimedData) words() string { return fmt.Sprintf("%s claimed %s", d.TeamName, d.Label) }

func (d PowerupGainedData) words() string {
	if d.Granted {
		return fmt.Sprintf("%s was granted %s", d.TeamName, powerupName(d.Powerup))
	}
	return fmt.Sprintf("%s gained %s", d.TeamName, powerupName(d.Powerup))
}

func (d PowerupUsedData) words() string {
	return fmt.Sprintf("%s used %s", d.TeamName, orDefault(d.PowerupName, powerupName(d.Powerup)))
}

func (d MovedData) words() string {
	return fmt.Sprintf("%s moved from tile %d to tile %d", d.TeamName, d.From, d.To)
}

func (d TeamData) words(typ string) string {
	if typ == EventTeamRemoved {
		return fmt.Sprintf("Team %s removed", d.TeamName)
	}
	return fmt.Sprintf("Team %s added", d.TeamName)
}

func (d TeamUpdatedData) words() string { return fmt.Sprintf("Team %s updated", d.TeamName) }

func (d CooldownData) words() string {
	state := "off"
	if d.Cooldown {
		state = "on"
	}
	return fmt.Sprintf("Cooldown %s for %s", state, d.TeamName)
}

func (d TeamWonData) words() string { return fmt.Sprintf("%s won the race!", d.TeamName) }

func (d UndoneData) words() string {
	return fmt.Sprintf("Undo: %s reverted", plural(len(d.Actions), "action"))
}
