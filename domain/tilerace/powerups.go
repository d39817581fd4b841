package tilerace

import "strings"

// Powerup ids (the seed's "Powerup System"): rewards, inventory entries, grant
// targets, and what UsePowerup uses.
const (
	PowerupSkip1          = "skip1"
	PowerupSkip2          = "skip2"
	PowerupSkip3          = "skip3"
	PowerupBack1          = "back1"
	PowerupBack2          = "back2"
	PowerupBack3          = "back3"
	PowerupCopyPaste      = "copypaste"
	PowerupChangeTile     = "changeTile"
	PowerupDoubleEasy     = "doubleEasy"
	PowerupDoubleMedium   = "doubleMedium"
	PowerupDoubleHard     = "doubleHard"
	PowerupClearCooldown  = "clearCooldown"
	PowerupDisablePowerup = "disablePowerup"
	PowerupDoublePowerup  = "doublePowerup"
)

// Powerup describes a powerup.
type Powerup struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"` // movement, offensive, tile, utility
}

// Powerups lists every known powerup, in display order.
func Powerups() []Powerup {
	return []Powerup{
		{PowerupSkip1, "Skip 1 tile", "movement"},
		{PowerupSkip2, "Skip 2 tiles", "movement"},
		{PowerupSkip3, "Skip 3 tiles", "movement"},
		{PowerupBack1, "Back 1 tile", "offensive"},
		{PowerupBack2, "Back 2 tiles", "offensive"},
		{PowerupBack3, "Back 3 tiles", "offensive"},
		{PowerupDisablePowerup, "Disable Powerup", "offensive"},
		{PowerupCopyPaste, "Copy and Paste", "tile"},
		{PowerupChangeTile, "Change Tile", "tile"},
		{PowerupDoubleEasy, "Double Easy", "tile"},
		{PowerupDoubleMedium, "Double Medium", "tile"},
		{PowerupDoubleHard, "Double Hard", "tile"},
		{PowerupClearCooldown, "Clear Cooldown", "utility"},
		{PowerupDoublePowerup, "Double Powerup", "utility"},
	}
}

// PowerupByID returns the canonical id of a powerup named by id or display
// name, ignoring case, spaces, '-' and '_' ("Skip 1 tile", "SKIP1",
// "change_tile" all work).
func PowerupByID(s string) (string, bool) {
	k := powerupKey(s)
	if k == "" {
		return "", false
	}
	for _, p := range Powerups() {
		if powerupKey(p.ID) == k || powerupKey(p.Name) == k {
			return p.ID, true
		}
	}
	return "", false
}

func powerupKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case ' ', '-', '_', '\t':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
