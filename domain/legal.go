package domain

// Move is one action an actor may take now, fully specified: sending Type
// with Payload's fields (next to gameId and actionId) as a request is legal in
// the state the move was listed for. Clients draw buttons from moves, bots and
// random-play tests pick among them.
type Move struct {
	Type    string         `json:"type"`
	Payload map[string]any `json:"payload,omitempty"`
}

// Lister is implemented by rules that can list what an actor may do. A game
// whose choices are too many to list (every path a piece may take) lists a
// representative set, one move per distinct outcome (one path per reachable
// square), so that every listed move is legal and every kind of action
// available is represented. An actor with nothing to do gets no moves.
type Lister[S any] interface {
	Legal(s S, actor Actor) []Move
}
