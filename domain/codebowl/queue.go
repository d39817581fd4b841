package codebowl

import (
	"encoding/json"

	"github.com/meeple-games/meeple/domain"
)

// QuickMatchQueue is the one CodeBowl queue: default match options (two
// halves of 8 turns, the basic injury rule, the default turn timer).
const QuickMatchQueue = "default"

// QueueRequest is the payload of "quickMatch" (and "leaveQueue"): the team
// the coach plays with.
type QueueRequest struct {
	TeamID string `json:"teamId" field:"id"`
}

func queueRequest(payload json.RawMessage) (QueueRequest, error) {
	var req QueueRequest
	if err := domain.DecodePayload(payload, &req); err != nil {
		return req, err
	}
	return req, checkTeamID(req.TeamID)
}

// Queue implements domain.Matcher. The waiting coach's team is checked
// (theirs, not in a match, complete) by running their create when they
// queue, and again when someone pairs with them; their team is locked only
// once the match is made. A coach whose team went into another match
// meanwhile leaves the queue to the newcomer.
//
// Errors: EINVALID (teamId missing or malformed, another field).
func (PlatformGame) Queue(payload json.RawMessage) (string, json.RawMessage, error) {
	req, err := queueRequest(payload)
	if err != nil {
		return "", nil, err
	}
	create, err := json.Marshal(CreateRequest{TeamID: req.TeamID})
	if err != nil {
		return "", nil, err
	}
	return QuickMatchQueue, create, nil
}

// JoinPayload implements domain.QueueJoiner: the newcomer joins with the
// team they queued with.
//
// Errors: EINVALID.
func (PlatformGame) JoinPayload(payload json.RawMessage) (json.RawMessage, error) {
	req, err := queueRequest(payload)
	if err != nil {
		return nil, err
	}
	return json.Marshal(JoinRequest{TeamID: req.TeamID})
}
