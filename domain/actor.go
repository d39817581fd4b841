package domain

// Role is what an authenticated caller is allowed to be.
type Role string

const (
	RoleGuest  Role = "guest"  // a nickname, no account
	RolePlayer Role = "player" // a registered account
	RoleTeam   Role = "team"   // a Tile Race team logged in with its password
	RoleAdmin  Role = "admin"  // a Tile Race event admin
	RoleMaster Role = "master" // the master admin of a Tile Race event
	RoleSystem Role = "system" // the server itself: timers, the tick, triggers
)

// Actor is who performs an action, as the session token says.
type Actor struct {
	ID   string `json:"id"`             // player id (guest or account), team id, admin id
	Name string `json:"name"`           // display name, recorded in events
	Role Role   `json:"role"`           // what the token grants
	Game string `json:"game,omitempty"` // the one game a team or admin token is for
	Team string `json:"team,omitempty"` // the team a team token is for
}

// System is the actor for work no player drives.
var System = Actor{ID: "system", Name: "system", Role: RoleSystem}
