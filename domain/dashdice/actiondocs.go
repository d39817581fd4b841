package dashdice

import "github.com/meeple-games/meeple/domain"

// CallRequest is the payload of "call": the opponent calls the decider roll.
type CallRequest struct {
	Call string `json:"call" field:"enum=odd|even,fold"`
}

// QueueRequest is the payload of "quickMatch" and "leaveQueue": the queue is
// the mode's. Seed and private are refused (a quick match uses neither); they
// are decoded only to say so.
type QueueRequest struct {
	CreateRequest
	Seed string `json:"seed" field:"text,max=128"`
}

// ActionDocs implements domain.ActionDocer.
func (Game) ActionDocs() []domain.ActionDoc {
	player := "a player of the match"
	return []domain.ActionDoc{
		{Type: domain.ActionCreate, Payload: CreateRequest{}, Who: "any signed-in player (the host)", Summary: "open a match in a mode",
			Platform: []domain.Field{domain.PlatformField("seed", "local stack only")}},
		{Type: ActionJoin, Who: "any signed-in player but the host", Summary: "take the opponent's seat (by gameId, or roomCode for a private match)",
			Platform: []domain.Field{domain.PlatformField("roomCode", "")}},
		{Type: ActionCall, Payload: CallRequest{}, Who: "the opponent, in the turn decider", Summary: "call odd or even; the decider roll picks who starts"},
		{Type: ActionRoll, Who: player + " whose turn it is", Summary: "roll the dice"},
		{Type: ActionBank, Who: player + " whose turn it is", Summary: "bank the turn score and pass the turn"},
		{Type: ActionForfeit, Who: player, Summary: "give up the match"},
		{Type: ActionRematch, Who: player + ", once it is over", Summary: "offer or accept a rematch (a new match, same mode)"},
		{Type: domain.ActionQuickMatch, Payload: QueueRequest{}, Who: "any signed-in player", Summary: "wait in the mode's queue, or be paired with who waits"},
		{Type: domain.ActionLeaveQueue, Payload: QueueRequest{}, Who: "a player in the queue", Summary: "leave the mode's queue"},
	}
}
