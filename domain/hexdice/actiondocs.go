package hexdice

import "github.com/meeple-games/meeple/domain"

// BuyRequest is the payload of "buy": a unit on a free hex next to a spawn
// structure the buyer holds.
type BuyRequest struct {
	Unit UnitType `json:"unit" field:"enum=marine|sniper|hoverbike|mech"`
	Q    *int     `json:"q" field:"coord"`
	R    *int     `json:"r" field:"coord"`
}

// TroopRequest is the payload of "move" and "attack": a troop and the hex it
// moves to or attacks.
type TroopRequest struct {
	Troop *int `json:"troop" field:"int,min=0,max=1000000"`
	Q     *int `json:"q" field:"coord"`
	R     *int `json:"r" field:"coord"`
}

// EmoteRequest is the payload of "emote".
type EmoteRequest struct {
	Emote string `json:"emote" field:"enum=hello|goodMove|gg|oops|wellPlayed|thanks|hurry|wow"`
}

// OrdersRequest is the payload of "orders" (simultaneous mode): the round's
// orders, saved as a draft or submitted.
type OrdersRequest struct {
	Orders *Orders `json:"orders"`
	Submit bool    `json:"submit"`
}

// ActionDocs implements domain.ActionDocer.
func (PlatformGame) ActionDocs() []domain.ActionDoc {
	turn := "the player whose turn it is (alternating) or either player while planning (simultaneous: use orders)"
	player := "a player of the match"
	return []domain.ActionDoc{
		{Type: domain.ActionCreate, Payload: CreateRequest{}, Who: "any signed-in player (the host)", Summary: "open a match: map size and seed, timer, turn mode",
			Platform: []domain.Field{domain.PlatformField("seed", "local stack only")}},
		{Type: ActionJoin, Who: "any signed-in player but the host", Summary: "take the second seat",
			Platform: []domain.Field{domain.PlatformField("roomCode", "")}},
		{Type: ActionBuy, Payload: BuyRequest{}, Who: turn, Summary: "buy a unit onto a hex next to a spawn structure you hold"},
		{Type: ActionMove, Payload: TroopRequest{}, Who: turn, Summary: "move a troop"},
		{Type: ActionAttack, Payload: TroopRequest{}, Who: turn, Summary: "attack the hex with a troop"},
		{Type: ActionEndTurn, Who: "the player whose turn it is (alternating)", Summary: "end the turn"},
		{Type: ActionOrders, Payload: OrdersRequest{}, Who: player + " (simultaneous mode, while planning)", Summary: "save or submit the round's orders"},
		{Type: ActionSurrender, Who: player, Summary: "give up the match"},
		{Type: ActionHeartbeat, Who: player, Summary: "say you are still here (the disconnect timer)"},
		{Type: ActionEmote, Payload: EmoteRequest{}, Who: player, Summary: "send one of the emotes (rate-limited)"},
		{Type: ActionRematch, Who: player + ", once it is over", Summary: "ask for (or agree to) a rematch: same options, the other player first; made when both asked"},
		{Type: ActionPreview, Payload: PreviewRequest{}, Who: "any signed-in viewer", Summary: "read-only: where you can buy what, and a troop's reachable hexes and attack targets from a hex (no odds)"},
		{Type: domain.ActionQuickMatch, Who: "any signed-in player", Summary: "wait in the queue, or be paired with who waits"},
		{Type: domain.ActionLeaveQueue, Who: "a player in the queue", Summary: "leave the queue"},
	}
}
