package store_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/pig"
	"github.com/meeple-games/meeple/store"
)

// noter is Pig with one more action, "note": it writes a document of its
// own (notes/{actorId}), leaves the game document alone and asks for its
// record in its event record (domain.Plan.RecordInEvent). A note refuses a
// second note by the same player, so a retry must find its record.
type noter struct{ domain.Game }

func (noter) Kind() string { return "noter" }

func (g noter) Slots() []domain.Slot {
	return append(g.Game.Slots(), domain.Slot{Name: "note", Path: "notes/{key}", Type: map[string]any{}, Access: domain.ReadPublic, Doc: "a note"})
}

func (g noter) Plan(a domain.Action) (domain.Plan, error) {
	if a.Type != "note" {
		return g.Game.Plan(a)
	}
	return domain.Plan{Reads: []domain.Read{{DocID: domain.GameDocID, Snapshot: true}, domain.Locked(domain.Doc("note", a.Actor.ID))}, RecordInEvent: true}, nil
}

func (g noter) Run(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	if a.Type != "note" {
		return g.Game.Run(d, a, env)
	}
	if d.Has(domain.Doc("note", a.Actor.ID)) {
		return domain.Change{}, domain.Errorf(domain.ECONFLICT, "noted already")
	}
	return domain.Change{
		Writes: []domain.Write{{DocID: domain.Doc("note", a.Actor.ID), Value: map[string]any{"by": a.Actor.ID}}},
		Steps:  []domain.Step{{Actor: a.Actor, Type: "note", Events: []domain.Event{{Type: "noted", Player: a.Actor.ID}}}},
		Result: map[string]any{"noted": a.Actor.ID},
	}, nil
}

// An action whose plan asks for its record in its event record keeps it
// there (field "act") and writes no action record, unless the record holds
// what readers of the events may not see (a secret hash): then it keeps the
// usual server-only record and its event record carries none. Either way a
// retry gets the first reply (the note refuses a second one: the retry must
// find the record) and a reused id is refused.
func TestRecordInEvent(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, domain.Entry{Game: noter{pig.NewPlatformGame()}, Function: "Noter"})
	f.kind = "noter"
	id := f.game(t, nil)
	for _, tc := range []struct {
		name    string
		who     domain.Actor
		secret  string
		inEvent bool
	}{
		{"a plain action", ann, "", true},
		{"an action with a secret hash", bob, "a-secret-hash", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(payload string) (json.RawMessage, error) {
				t.Helper()
				req := store.Request{Kind: "noter", GameID: id, Action: domain.Action{ID: "n1", Type: "note", Actor: tc.who, Payload: json.RawMessage(payload), Secret: tc.secret}}
				out, _, err := store.Run(ctx, f.st, req)
				return out, err
			}
			first, err := run(`{"type":"note"}`)
			require.NoError(t, err)
			key := tc.who.ID + "~n1"
			ev, err := f.st.FS.Doc("games/" + id + "/events/" + key).Get(ctx)
			require.NoError(t, err)
			_, actErr := f.st.FS.Doc("games/" + id + "/actions/" + key).Get(ctx)
			act, inEvent := ev.Data()["act"].(map[string]any)
			require.Equal(t, tc.inEvent, inEvent, "record in the event record: %v", ev.Data())
			if tc.inEvent {
				require.Equal(t, codes.NotFound, status.Code(actErr), "no action record: %v", actErr)
				require.Equal(t, "note", act["type"])
				require.Equal(t, string(first), act["reply"])
			} else {
				require.NoError(t, actErr, "the usual action record")
			}

			again, err := run(`{"type":"note"}`)
			require.NoError(t, err, "a retry is not refused")
			require.JSONEq(t, string(first), string(again), "a retry gets the first reply")

			_, err = run(`{"type":"note","more":1}`)
			require.Equal(t, domain.EEXISTS, domain.ErrorCode(err), "the id reused for another request: %v", err)
		})
	}
}
