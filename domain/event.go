package domain

// Event is one thing that happened in a game, appended to its public log.
// Data is a game-specific value that marshals to a JSON object.
type Event struct {
	Type   string `json:"type"`
	Player string `json:"player,omitempty"`
	Data   any    `json:"data,omitempty"`
}

// EventGameOver ends a game. Its Data is a GameOver; triggers award results from
// it (per-mode wins and losses, leaderboards), so every game emits it the same way.
const EventGameOver = "gameOver"

// GameOver is the data of EventGameOver.
type GameOver struct {
	Kind    string   `json:"kind"`              // the game kind, e.g. "dashdice"
	Mode    string   `json:"mode,omitempty"`    // a variant whose results are kept apart
	Winners []string `json:"winners,omitempty"` // player ids
	Losers  []string `json:"losers,omitempty"`
	Draw    bool     `json:"draw,omitempty"` // every player drew; Winners and Losers are empty
	Players []string `json:"players"`        // everyone who played, so a draw names them too
	Reason  string   `json:"reason"`         // "target", "forfeit", "timeout", ...
}
