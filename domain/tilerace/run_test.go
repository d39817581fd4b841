package tilerace

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// valuesOf is every document of a world, as the store would load them.
func valuesOf(w *world, team, pt string) Values {
	v := Values{Game: w.g, Board: w.board, Pools: w.pools, Team: w.teams[team], PowerupTile: w.ptiles[pt]}
	for _, id := range sortedKeys(w.teams) {
		v.Teams = append(v.Teams, w.teams[id])
	}
	for _, id := range sortedKeys(w.ptiles) {
		v.PowerupTiles = append(v.PowerupTiles, w.ptiles[id])
	}
	return v
}

// TestRunEveryAction runs every action type through Run with an empty and
// with a typical payload, as admin and as a team: no panic, refusals are
// domain errors that write nothing, and what is written stays within Specs.
func TestRunEveryAction(t *testing.T) {
	payloads := map[string]string{
		ActionComplete:           `{"team":"t1","tile":1,"recorded":0,"players":["t1-cap"]}`,
		ActionClaimPowerupTile:   `{"team":"t1","powerupTile":"pt-1","claims":0,"players":["t1-cap"]}`,
		ActionCreateTeam:         `{"name":"New","members":["Zed"]}`,
		ActionUpdateTeam:         `{"team":"t1","name":"Gold"}`,
		ActionRemoveTeam:         `{"team":"t2"}`,
		ActionMoveTeam:           `{"team":"t1","to":9}`,
		ActionGrantPowerup:       `{"team":"t1","powerup":"skip2"}`,
		ActionSetCooldown:        `{"team":"t1","cooldown":true}`,
		ActionEditTile:           `{"tile":2,"label":"Fish","difficulty":1,"min":1,"max":1}`,
		ActionCreatePowerupTile:  `{"label":"Boss","points":150,"min":1,"max":2,"claim":"firstTeam","reward":"skip2"}`,
		ActionEditPowerupTile:    `{"powerupTile":"pt-1","label":"Boss","points":150,"min":1,"max":2,"claim":"eachTeam","reward":"skip2"}`,
		ActionRemovePowerupTile:  `{"powerupTile":"pt-2"}`,
		ActionImportPowerupTiles: `{"data":"skip1,Kill,1,1,1,eachTeam\n"}`,
		ActionImportTasks:        `{"data":"Fish,1\n"}`,
		ActionAddPoolTask:        `{"label":"Fish","difficulty":1,"min":1,"max":1}`,
		ActionEditPoolTask:       `{"id":"t-1","label":"Fish","difficulty":1,"min":1,"max":1}`,
		ActionRemovePoolTask:     `{"id":"t-2"}`,
		ActionClearPools:         `{"difficulty":1}`,
		ActionSetSettings:        `{"reserve":4}`,
		ActionSetFog:             `{"mode":"admins"}`,
		ActionAddAdmin:           `{"id":"a9","name":"Neo"}`,
		ActionRemoveAdmin:        `{"id":"a1"}`,
	}
	for _, typ := range ActionTypes() {
		for _, body := range []string{`{}`, payloads[typ]} {
			if body == "" {
				continue
			}
			for _, actor := range []domain.Actor{masterAct, teamAct("t1")} {
				t.Run(typ+"/"+actor.ID+"/"+body, func(t *testing.T) {
					w := race(t, 3)
					req, err := DecodeRequest(typ, json.RawMessage(body))
					require.NoError(t, err)
					keys := KeysOf(actor, req)
					v := valuesOf(w, keys.Team, keys.PowerupTile)
					before := jsonOf(t, v)
					var got Values
					var o Outcome
					rulestest.Pure(t, v, func(v Values) {
						got, o, err = Run(Ctx{Actor: actor, Now: t0}, v, Input{Type: typ, Req: req, NewID: "t9", Dice: domain.NewSeededDice("s", 1)})
					})
					if err != nil {
						require.True(t, errors.As(err, new(*domain.Error)), "a refusal is a domain error: %v", err)
						require.Empty(t, o.Writes)
						require.True(t, before == jsonOf(t, got), "a refusal returns the values unchanged")
						return
					}
					spec := Specs[typ]
					for _, d := range o.Writes {
						require.Contains(t, spec.Writes, d, "%s writes %s", typ, d)
					}
					for _, d := range o.Deletes {
						require.Contains(t, spec.Deletes, d, "%s deletes %s", typ, d)
					}
					require.NotNil(t, o.Events)
				})
			}
		}
	}
}

func TestRunMatchesActions(t *testing.T) {
	w := race(t, 2)
	tile, _ := w.board.Tile(1)
	req := CompleteRequest{Team: "t1", Tile: 1, Players: []string{"t1-cap"}, Complete: tile.Min <= 1}
	g, team, want, err := Complete(ctx(teamAct("t1")), w.g, w.teams["t1"], tile, req)
	require.NoError(t, err)
	// Run raises the fog frontier after the completion, as RaiseFrontier
	// does for the team's new position.
	g, raised, _ := RaiseFrontier(g, team.Position)
	want.Events = append(want.Events, raised.Events...)
	want.Writes = append(want.Writes, raised.Writes...)
	want.Publish = append(want.Publish, raised.Publish...)
	v, got, err := Run(ctx(teamAct("t1")), valuesOf(w, "t1", ""), Input{Type: ActionComplete, Req: &req})
	require.NoError(t, err)
	require.Equal(t, jsonOf(t, want), jsonOf(t, got))
	require.ElementsMatch(t, want.Writes, got.Writes)
	require.Equal(t, g, v.Game)
	require.Equal(t, team, v.Team)
}

func TestRunRefusesWrongRequests(t *testing.T) {
	w := race(t, 1)
	for _, tc := range []struct {
		name string
		in   Input
	}{
		{"unknown type", Input{Type: "fly", Req: &NoRequest{}}},
		{"request of another action", Input{Type: ActionComplete, Req: &ClaimRequest{}}},
		{"no request", Input{Type: ActionMoveTeam}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Run(ctx(adminAct), valuesOf(w, "t1", ""), tc.in)
			require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
		})
	}
}
