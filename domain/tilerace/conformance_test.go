package tilerace

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// TestConformance runs Tile Race through the platform's conformance kit:
// three teams race on a randomised board until one wins; four races, two
// under the race detector (MEEPLE_FULL_GAMES=1: four).
func TestConformance(t *testing.T) {
	var tasks strings.Builder
	tasks.WriteString("label,difficulty,max,min,instructions,image,start proof,group\n")
	for _, d := range []string{"easy", "medium", "hard"} {
		for i := 0; i < 40; i++ {
			max, min, group := 1, 1, "no"
			switch i % 4 {
			case 1:
				max, min = 3, 2
			case 2:
				max, min, group = 2, 2, "yes"
			}
			fmt.Fprintf(&tasks, "%s %d,%s,%d,%d,,,no,%s\n", d, i, d, max, min, group)
		}
	}
	master := domain.Actor{ID: "p-mia", Name: "Mia", Role: domain.RoleGuest}
	rulestest.Run(t, rulestest.Kit{Game: RaceGame{}, Games: randomGames(4, 2), Steps: 1500, Rare: []string{ActionViewBoard}, State: Game{},
		Setup: func(t testing.TB, w *rulestest.World) []domain.Actor {
			do := func(a domain.Action) domain.Change {
				ch, err := w.Do(a)
				require.NoError(t, err, a.Type)
				return ch
			}
			do(domain.Action{ID: "new", Type: domain.ActionCreate, Actor: master, Payload: json.RawMessage(`{"name":"Mia"}`), Secret: "hash"})
			admin := domain.Actor{ID: domain.ScopedID(w.Games, MasterAdminID), Name: "Mia", Role: RoleMaster, Game: w.Games}
			actors := []domain.Actor{admin}
			for i := range 3 {
				body, _ := json.Marshal(map[string]any{"name": fmt.Sprint("Team ", i), "members": []string{fmt.Sprint("A", i), fmt.Sprint("B", i)}})
				ch := do(domain.Action{ID: fmt.Sprint("team", i), Type: ActionCreateTeam, Actor: admin, Payload: body, Secret: "hash"})
				id := ch.Result.(TeamResult).Team.ID
				actors = append(actors, domain.Actor{ID: domain.ScopedID(w.Games, id), Name: fmt.Sprint("Team ", i), Role: RoleTeam, Game: w.Games})
			}
			body, _ := json.Marshal(map[string]any{"data": tasks.String()})
			do(domain.Action{ID: "tasks", Type: ActionImportTasks, Actor: admin, Payload: body})
			do(domain.Action{ID: "board", Type: ActionRandomiseDifficulties, Actor: admin, Payload: json.RawMessage(`{"fill":true}`)})
			do(domain.Action{ID: "start", Type: ActionStart, Actor: admin})
			return actors
		},
		Bad: []domain.Action{
			{Type: "nope"},
			{Type: ActionComplete, Payload: json.RawMessage(`{"tile":"x"}`)},
			{Type: ActionComplete, Payload: json.RawMessage(`{"tile":99,"recorded":0,"players":["A0"]}`)},
		}})
}
