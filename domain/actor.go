package domain

import "strings"

// Role is what an authenticated caller is allowed to be. The platform knows
// guests, players and itself; a game adds roles of its own for principals
// scoped to one game of it (Tile Race's teams and admins).
type Role string

const (
	RoleGuest  Role = "guest"  // a nickname, no account
	RolePlayer Role = "player" // a registered account
	RoleSystem Role = "system" // the server itself: timers, the tick, triggers
)

// Actor is who performs an action, as the session token says.
type Actor struct {
	// ID is unique across the deployment: a guest's or an account's player
	// id, or for a principal scoped to one game "{gameId}:{local id}"
	// (ScopedID), so two games' "master" admins are two actors.
	ID   string `json:"id"`
	Name string `json:"name"`           // display name, recorded in events
	Role Role   `json:"role"`           // what the token grants
	Game string `json:"game,omitempty"` // the one game a scoped token is for
	// Gen is the session generation the token was issued in: a principal's
	// generation moves on when its sessions must end (a password change, a
	// removal, signing out everywhere), and a token of an older one is
	// refused (docs/security.md).
	Gen int64 `json:"gen,omitempty"`
}

// System is the actor for work no player drives.
var System = Actor{ID: "system", Name: "system", Role: RoleSystem}

// ScopedID is the actor id of principal local of game gameID.
func ScopedID(gameID, local string) string { return gameID + ":" + local }

// Local is the actor's id within its game: ID without the "{gameId}:"
// prefix of a scoped actor, ID itself otherwise.
func (a Actor) Local() string {
	if a.Game != "" {
		if rest, ok := strings.CutPrefix(a.ID, a.Game+":"); ok {
			return rest
		}
	}
	return a.ID
}
