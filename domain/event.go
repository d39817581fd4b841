package domain

// Event is one thing that happened in a game, appended to its public log.
// Data is a game-specific value that marshals to a JSON object. Text is the
// event in plain words with display names ("Ben rolled 5 (turn total 11)"),
// said by the game itself (Sayer) so that every client and the Discord
// messages read the same.
type Event struct {
	Type   string `json:"type"`
	Player string `json:"player,omitempty"`
	Data   any    `json:"data,omitempty"`
	Text   string `json:"text,omitempty"`
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
