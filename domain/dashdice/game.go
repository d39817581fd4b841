package dashdice

import (
	"encoding/json"

	"github.com/meeple-games/meeple/domain"
)

// SlotMode is an operator's mode document, config/dashdice/modes/{id}: it
// overrides a built-in mode or adds one (read by create, never by clients).
const SlotMode = "mode"

// CreateRequest is the payload of a DashDice "create" (and of the game a
// quickMatch pair plays).
type CreateRequest struct {
	Mode        string `json:"mode" field:"id"`                       // built in or an operator's: the game checks which
	Private     bool   `json:"private"`                               // reserve a room code for a friend
	TurnSeconds *int   `json:"turnSeconds" field:"int,min=0,max=600"` // absent: 30 s; 0: no timer; else MinTurnSeconds to MaxTurnSeconds
}

// Game is DashDice as the platform drives it: a one-document game (Rules)
// whose create reads the operator's mode document, with a quick match per
// mode.
type Game struct{ domain.Game }

// NewGame returns DashDice's game.
func NewGame() Game {
	return Game{domain.Single(domain.SingleGame[Match]{
		Rules:       Rules{},
		Create:      create,
		CreateReads: createReads,
		MoreSlots: []domain.Slot{{Name: SlotMode, Path: "/config/dashdice/modes/{key}", Type: Mode{},
			Access: domain.ReadNever, CacheFor: domain.ConfigCacheFor,
			Doc: "an operator's mode: overrides or adds to the built-in modes (each instance reads it at most once a minute)"}},
	})}
}

func decodeCreate(p json.RawMessage) (CreateRequest, error) {
	var req CreateRequest
	if err := domain.DecodePayload(p, &req); err != nil {
		return req, err
	}
	if req.Mode == "" {
		return req, domain.Errorf(domain.EINVALID, "mode is required")
	}
	return req, nil
}

func createReads(a domain.Action) ([]domain.Read, error) {
	req, err := decodeCreate(a.Payload)
	if err != nil {
		return nil, err
	}
	// A snapshot: only operators write mode documents, so creates (and
	// every quick-match pairing) need not hold a lock on the one a crowd
	// of players of the mode all read.
	return []domain.Read{{DocID: domain.Doc(SlotMode, req.Mode), Snapshot: true}}, nil
}

// ModeOf finds a mode: an operator's document (read into d) overrides or adds
// to the built-in modes.
//
// Errors: EINVALID (unknown mode), EINTERNAL (a misconfigured mode document).
func ModeOf(d domain.Docs, id string) (Mode, error) {
	var m Mode
	found, err := d.Get(domain.Doc(SlotMode, id), &m)
	if err != nil {
		return m, err
	}
	if found {
		m.ID = id
		if err := m.Validate(); err != nil {
			return m, domain.Errorf(domain.EINTERNAL, "mode %q is misconfigured: %v", id, err)
		}
		return m, nil
	}
	for _, b := range BuiltinModes() {
		if b.ID == id {
			return b, nil
		}
	}
	return m, domain.Errorf(domain.EINVALID, "unknown mode %s", domain.Quote(id))
}

func create(d domain.Docs, a domain.Action, env domain.Env) (Match, bool, error) {
	req, err := decodeCreate(a.Payload)
	if err != nil {
		return Match{}, false, err
	}
	mode, err := ModeOf(d, req.Mode)
	if err != nil {
		return Match{}, false, err
	}
	opts := Options{Private: req.Private}
	if req.TurnSeconds != nil {
		// On the wire 0 is "no timer" (and absent the default).
		t := *req.TurnSeconds
		if t != 0 && (t < MinTurnSeconds || t > MaxTurnSeconds) {
			return Match{}, false, domain.Errorf(domain.EINVALID, "turnSeconds must be 0 (no timer) or from %d to %d, not %d", MinTurnSeconds, MaxTurnSeconds, t)
		}
		opts.TurnSeconds = t
		if t == 0 {
			opts.TurnSeconds = NoTimer
		}
	}
	m, err := NewMatch(a.GameID, a.Actor, mode, opts, env.Now)
	return m, req.Private, err
}

// Queue implements domain.Matcher: one queue per mode; quick matches always
// use the default timer and no room code.
//
// Errors: EINVALID.
func (Game) Queue(p json.RawMessage) (string, json.RawMessage, error) {
	var req QueueRequest
	if err := domain.DecodePayload(p, &req); err != nil {
		return "", nil, err
	}
	if req.Seed != "" || req.Private {
		return "", nil, domain.Errorf(domain.EINVALID, "quickMatch takes only a mode")
	}
	if req.Mode == "" {
		return "", nil, domain.Errorf(domain.EINVALID, "mode is required")
	}
	create, _ := json.Marshal(map[string]string{"mode": req.Mode})
	return req.Mode, create, nil
}

// ActionTypes implements domain.ActionTyper.
func (Game) ActionTypes() []string {
	return append(domain.SortedKeys(handlers), domain.ActionCreate, domain.ActionQuickMatch, domain.ActionLeaveQueue)
}
