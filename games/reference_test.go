package games

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/functions"
)

// TestReferenceIsGenerated: docs/reference.md is what cmd/apidoc prints from
// the code, so an action, field or caller changed in code and not in the
// reference fails here.
func TestReferenceIsGenerated(t *testing.T) {
	got, err := os.ReadFile("../docs/reference.md")
	require.NoError(t, err)
	require.Equal(t, functions.Reference(All()), string(got), "docs/reference.md is stale: run go run ./cmd/apidoc > docs/reference.md")
}

// TestActionDocsAreTheActions: every game documents exactly the actions it
// takes, each with who may call it and what it does.
func TestActionDocsAreTheActions(t *testing.T) {
	for _, e := range All() {
		t.Run(e.Kind(), func(t *testing.T) {
			docer, ok := e.Game.(domain.ActionDocer)
			require.True(t, ok, "%s implements domain.ActionDocer", e.Kind())
			var documented []string
			for _, d := range docer.ActionDocs() {
				require.NotEmpty(t, d.Who, "%s: who may call it", d.Type)
				require.NotEmpty(t, d.Summary, "%s: what it does", d.Type)
				documented = append(documented, d.Type)
			}
			types := e.Game.(domain.ActionTyper).ActionTypes()
			slices.Sort(types)
			slices.Sort(documented)
			require.Equal(t, types, documented)
		})
	}
}

// TestEveryFieldDeclaresItsKind: every string, number, array, map or JSON
// field of every action's documented payload, nested objects' included,
// declares what it holds in a `field` tag (domain/fields.go) that fits its
// type, so the one decoder checks it before any game code runs and the
// reference shows it. A new action or field without one fails here.
func TestEveryFieldDeclaresItsKind(t *testing.T) {
	fields := 0
	for _, e := range All() {
		for _, d := range e.Game.(domain.ActionDocer).ActionDocs() {
			for _, err := range domain.CheckTags(d.Payload) {
				t.Errorf("%s %s: %v", e.Kind(), d.Type, err)
			}
			fields += len(domain.DescribeFields(d.Payload)) + len(d.Platform)
		}
	}
	t.Logf("%d fields of documented actions, each declaring its kind", fields)
}

// TestActionDocsAreWhatTheCodeDecodes: each action is sent with a field no
// action takes to the code that decodes it before reading anything (Plan, or
// the quick-match queue); the refusal must name exactly the documented
// fields. Actions decoded only once their documents are read are checked the
// same way by the conformance kit (domain/rulestest) as it plays them.
func TestActionDocsAreWhatTheCodeDecodes(t *testing.T) {
	probe, _ := json.Marshal(map[string]any{domain.ProbeField: 1, "gameId": "g1", "actionId": "a1"})
	for _, e := range All() {
		docer := e.Game.(domain.ActionDocer)
		var checked []string
		for _, d := range docer.ActionDocs() {
			t.Run(e.Kind()+"/"+d.Type, func(t *testing.T) {
				a := domain.Action{ID: "a1", GameID: "g1", Type: d.Type, Payload: probe,
					Actor: domain.Actor{ID: "p1", Name: "P", Role: domain.RoleGuest}}
				var err error
				if m, ok := e.Game.(domain.Matcher); ok && (d.Type == domain.ActionQuickMatch || d.Type == domain.ActionLeaveQueue) {
					_, _, err = m.Queue(probe)
				} else if _, err = e.Game.Plan(a); err == nil {
					// Actions on no game (board uploads) and creates decode
					// in Run; with no documents they get that far.
					env := domain.Env{Now: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC),
						New:    &domain.Created{GameID: "g1", RoomCode: "ROOM42", SeedHash: domain.SeedHash("s")},
						DiceAt: func(seq int64) domain.Dice { return domain.NewSeededDice("s", seq) }}
					_, err = e.Game.Run(domain.NewDocs(), a, env)
				}
				if err == nil || !strings.HasPrefix(domain.ErrorMessage(err), `unknown field "`+domain.ProbeField+`"`) {
					return // decoded later, with the documents: the kit's check
				}
				checked = append(checked, d.Type)
				require.Equal(t, domain.ProbeMessage(d.Payload), domain.ErrorMessage(err))
			})
		}
		t.Logf("%s: checked here: %v", e.Kind(), checked)
	}
}
