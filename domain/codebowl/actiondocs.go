package codebowl

import "github.com/meeple-games/meeple/domain"

// PlaceRequest is the payload of "place": every living player of the
// placing coach's team on his half, at once.
type PlaceRequest struct {
	Positions []Placement `json:"positions" field:"list,max=7"` // at most TeamSize
}

// ActionDocs implements domain.ActionDocer.
func (PlatformGame) ActionDocs() []domain.ActionDoc {
	coach := "a coach of the match"
	active := "the coach whose turn it is"
	return []domain.ActionDoc{
		{Type: ActionCreateTeam, Payload: TeamSpec{}, Who: "a signed-in account (a registered player)", Summary: "found a team of a roster"},
		{Type: ActionEditTeam, Payload: EditTeamRequest{}, Who: "the team's coach", Summary: "rename a team or its players"},
		{Type: ActionRestartTeam, Payload: RestartTeamRequest{}, Who: "the team's coach", Summary: "replace a team's dead players with new ones (new ids; survivors kept)"},
		{Type: domain.ActionCreate, Payload: CreateRequest{}, Who: "a coach with a team", Summary: "open a match with one of your teams",
			Platform: []domain.Field{domain.PlatformField("seed", "local stack only")}},
		{Type: domain.ActionJoin, Payload: JoinRequest{}, Who: "a coach with a team, not the host", Summary: "take the other side with one of your teams",
			Platform: []domain.Field{domain.PlatformField("roomCode", "")}},
		{Type: ActionPlace, Payload: PlaceRequest{}, Who: "the coach who places now (setup)", Summary: "place your players for the kick-off"},
		{Type: ActionMove, Payload: MoveRequest{}, Who: active, Summary: "move a player along a path (pick up the ball on the way, attack an enemy at the end, score)"},
		{Type: ActionStandUp, Payload: MoveRequest{}, Who: active, Summary: "stand a player up (optionally moving on)"},
		{Type: ActionEndTurn, Who: active, Summary: "end your turn"},
		{Type: ActionForfeit, Who: coach, Summary: "give up the match"},
		{Type: ActionChat, Payload: ChatRequest{}, Who: coach, Summary: "post a chat message (rate-limited)"},
		{Type: domain.ActionQuickMatch, Payload: QueueRequest{}, Who: "a coach with a team", Summary: "wait in the queue with a team, or be paired"},
		{Type: domain.ActionLeaveQueue, Payload: QueueRequest{}, Who: "a coach in the queue", Summary: "leave the queue"},
	}
}
