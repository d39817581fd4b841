package tilerace

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

var (
	single = Task{Label: "Single", Difficulty: Medium, Min: 1, Max: 1, Points: 100}
	multi  = Task{Label: "Multi", Difficulty: Hard, Min: 2, Max: 4, Points: 125}
	group  = Task{Label: "Raid", Difficulty: Hard, Min: 2, Max: 3, Points: 100, Group: true}
)

// Rulings 4 and 5: what a completion request may do.
func TestCompleteRules(t *testing.T) {
	tests := []struct {
		name     string
		task     Task
		progress []string // already recorded
		req      CompleteRequest
		actor    domain.Actor
		code     string // "" for success
		advanced bool
		recorded int
	}{
		{name: "single, one player, complete", task: single, req: CompleteRequest{Tile: 1, Players: []string{"t1-cap"}, Complete: true}, advanced: true},
		{name: "player names match ignoring case", task: single, req: CompleteRequest{Tile: 1, Players: []string{"T1-CAP"}, Complete: true}, advanced: true},
		{name: "record without completing", task: multi, req: CompleteRequest{Tile: 1, Players: []string{"t1-b"}}, recorded: 1},
		{name: "same player twice on a non-group tile", task: multi, req: CompleteRequest{Tile: 1, Players: []string{"t1-b", "t1-b"}, Complete: true}, advanced: true},
		{name: "complete with earlier progress", task: multi, progress: []string{"t1-b"}, req: CompleteRequest{Tile: 1, Recorded: 1, Players: []string{"t1-c"}, Complete: true}, advanced: true},
		{name: "complete with only earlier progress", task: multi, progress: []string{"t1-b", "t1-c"}, req: CompleteRequest{Tile: 1, Recorded: 2, Complete: true}, advanced: true},
		{name: "up to max", task: multi, req: CompleteRequest{Tile: 1, Players: []string{"t1-b", "t1-b", "t1-c", "t1-cap"}, Complete: true}, advanced: true},
		{name: "admin on behalf", task: single, actor: adminAct, req: CompleteRequest{Team: "t1", Tile: 1, Players: []string{"t1-cap"}, Complete: true}, advanced: true},

		{name: "stale tile", task: single, req: CompleteRequest{Tile: 2, Players: []string{"t1-cap"}, Complete: true}, code: domain.ECONFLICT},
		{name: "stale recorded count", task: multi, progress: []string{"t1-b"}, req: CompleteRequest{Tile: 1, Recorded: 0, Players: []string{"t1-c"}}, code: domain.ECONFLICT},
		{name: "below min", task: multi, req: CompleteRequest{Tile: 1, Players: []string{"t1-b"}, Complete: true}, code: domain.EINVALID},
		{name: "above max", task: multi, progress: []string{"t1-b", "t1-c", "t1-b"}, req: CompleteRequest{Tile: 1, Recorded: 3, Players: []string{"t1-c", "t1-b"}}, code: domain.EINVALID},
		{name: "group: a player counts once", task: group, req: CompleteRequest{Tile: 1, Players: []string{"t1-b", "t1-B"}, Complete: true}, code: domain.EINVALID},
		{name: "group: once across submissions", task: group, progress: []string{"t1-b"}, req: CompleteRequest{Tile: 1, Recorded: 1, Players: []string{"t1-b"}}, code: domain.EINVALID},
		{name: "group: distinct players", task: group, progress: []string{"t1-b"}, req: CompleteRequest{Tile: 1, Recorded: 1, Players: []string{"t1-c"}, Complete: true}, advanced: true},
		{name: "not a member", task: single, req: CompleteRequest{Tile: 1, Players: []string{"t2-cap"}, Complete: true}, code: domain.EINVALID},
		{name: "blank player", task: single, req: CompleteRequest{Tile: 1, Players: []string{"  "}, Complete: true}, code: domain.EINVALID},
		{name: "nothing to do", task: single, req: CompleteRequest{Tile: 1}, code: domain.EINVALID},
		{name: "complete with nothing recorded", task: single, req: CompleteRequest{Tile: 1, Complete: true}, code: domain.EINVALID},
		{name: "another team's token", task: single, actor: teamAct("t2"), req: CompleteRequest{Team: "t1", Tile: 1, Players: []string{"t1-cap"}, Complete: true}, code: domain.EFORBIDDEN},
		{name: "request names another team", task: single, req: CompleteRequest{Team: "t2", Tile: 1, Players: []string{"t1-cap"}, Complete: true}, code: domain.EINVALID},
		{name: "empty tile", task: Task{Difficulty: Easy, Min: 1, Max: 1}, req: CompleteRequest{Tile: 1, Players: []string{"t1-cap"}, Complete: true}, code: domain.ECONFLICT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := race(t, 2)
			w.setTile(1, tt.task, "")
			tm := w.teams["t1"]
			tm.Progress = tt.progress
			w.teams["t1"] = tm
			actor := tt.actor
			if actor.Role == "" {
				actor = teamAct("t1")
			}
			o, err := w.complete(actor, "t1", tt.req)
			if tt.code != "" {
				require.Error(t, err)
				require.Equal(t, tt.code, domain.ErrorCode(err), "%v", err)
				require.NotEmpty(t, domain.ErrorMessage(err))
				return
			}
			require.NoError(t, err)
			res := o.Result.(CompleteResult)
			require.Equal(t, tt.advanced, res.Advanced)
			require.Equal(t, tt.recorded, res.Recorded)
			got := w.teams["t1"]
			if tt.advanced {
				require.Equal(t, 2, got.Position)
				require.Empty(t, got.Progress, "progress resets on advancing")
				require.Equal(t, 1, got.Moves)
			} else {
				require.Equal(t, 1, got.Position)
				require.Len(t, got.Progress, tt.recorded)
			}
			w.checkWorld()
		})
	}
}

// Ruling 4: a repeated request never advances twice.
func TestCompleteRepeatedRequestNeverAdvancesTwice(t *testing.T) {
	w := race(t, 1)
	w.setTile(1, single, "")
	req := CompleteRequest{Tile: 1, Players: []string{"t1-cap"}, Complete: true}
	_, err := w.complete(teamAct("t1"), "t1", req)
	require.NoError(t, err)
	for i := 0; i < 3; i++ {
		_, err = w.complete(teamAct("t1"), "t1", req)
		require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	}
	require.Equal(t, 2, w.teams["t1"].Position)
	require.Len(t, w.awards, 1, "points awarded once")

	// a repeated "record" request cannot record twice either
	w.setTile(2, multi, "")
	rec := CompleteRequest{Tile: 2, Players: []string{"t1-b"}}
	_, err = w.complete(teamAct("t1"), "t1", rec)
	require.NoError(t, err)
	_, err = w.complete(teamAct("t1"), "t1", rec)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	require.Equal(t, []string{"t1-b"}, w.teams["t1"].Progress)
}

// Rulings 5, 6, 9: progress over several submissions; one award per
// completion with the tile's points and a unique, stable key.
func TestCompletePointsAndAwards(t *testing.T) {
	w := race(t, 1)
	w.setTile(1, multi, "")
	o, err := w.complete(teamAct("t1"), "t1", CompleteRequest{Tile: 1, Players: []string{"t1-b", "t1-b"}})
	require.NoError(t, err)
	require.Equal(t, []string{EventCompletionsRecorded, EventPointsAwarded, EventPointsAwarded}, rulestest.Types(o.Events))
	require.Equal(t, AwardData{Key: "t1-1", Player: "t1-b", Points: 125, Team: "t1", TeamName: "Team 1", Tile: 1}, o.Events[1].Data)
	require.Equal(t, AwardData{Key: "t1-2", Player: "t1-b", Points: 125, Team: "t1", TeamName: "Team 1", Tile: 1}, o.Events[2].Data)
	require.Equal(t, []Doc{DocTeam}, o.Writes, "recording writes only the team")

	o, err = w.complete(teamAct("t1"), "t1", CompleteRequest{Tile: 1, Recorded: 2, Players: []string{"t1-c"}, Complete: true})
	require.NoError(t, err)
	require.Equal(t, []string{EventCompletionsRecorded, EventPointsAwarded, EventTileCompleted, EventTilesRevealed}, rulestest.Types(o.Events))
	done := o.Events[2].Data.(TileCompletedData)
	require.Equal(t, []string{"t1-b", "t1-b", "t1-c"}, done.Players)
	require.Equal(t, 2, done.Position)
	require.Equal(t, RevealedData{From: 7, To: 7}, o.Events[3].Data)
	require.Equal(t, []int{7}, o.Publish)
	require.ElementsMatch(t, []Doc{DocTeam, DocPublicBoard}, o.Writes, "the team, then (RaiseFrontier) the public board")
	require.Equal(t, 375, o.Result.(CompleteResult).Points+250)
	require.Equal(t, map[string]int{"t1-b": 250, "t1-c": 125}, w.points)
	require.Equal(t, w.points, w.teams["t1"].Points, "the team carries its points")

	// single-completion tiles give the difficulty value
	w.setTile(2, Task{Label: "Hard one", Difficulty: Hard, Min: 1, Max: 1, Points: 999}, "")
	o = w.finishTile("t1")
	require.Equal(t, 300, o.Events[1].Data.(AwardData).Points)
	require.Equal(t, "t1-4", o.Events[1].Data.(AwardData).Key)

	// a doubled single-completion tile keeps difficulty points
	w.setTile(3, Task{Label: "Doubled", Difficulty: Medium, Min: 2, Max: 2, Points: 10}, "")
	w.board.Tiles[2].Mods = Mods{Doubled: true, DifficultyPoints: true}
	o = w.finishTile("t1")
	require.Equal(t, 200, o.Events[1].Data.(AwardData).Points)
	require.True(t, o.Events[3].Data.(TileCompletedData).Doubled)
}

// Rulings 5, 7, 11: reward once per tile, cooldown cleared, progress reset
// by a move (points stay).
func TestCompleteRewardCooldownAndMoves(t *testing.T) {
	w := race(t, 1)
	w.setTile(1, single, PowerupSkip2)
	tm := w.teams["t1"]
	tm.Cooldown = true
	w.teams["t1"] = tm
	o := w.finishTile("t1")
	require.Contains(t, rulestest.Types(o.Events), EventPowerupGained)
	got := w.teams["t1"]
	require.Equal(t, []string{PowerupSkip2}, got.Inventory)
	require.False(t, got.Cooldown, "completing a tile clears the cooldown")
	require.Equal(t, []int{1}, got.Rewarded)

	// sent back, the team completes tile 1 again: points again, no second reward
	w.g, got, o, _ = MoveTeam(ctx(adminAct), w.g, got, MoveRequest{Team: "t1", To: 1})
	w.teams["t1"] = got
	w.apply(o)
	o = w.finishTile("t1")
	require.NotContains(t, rulestest.Types(o.Events), EventPowerupGained)
	require.Equal(t, []string{PowerupSkip2}, w.teams["t1"].Inventory)
	require.Equal(t, 400, w.points["t1-cap"], "two medium completions")

	// a move resets progress; the points already earned stay
	w.setTile(2, multi, "")
	_, err := w.complete(teamAct("t1"), "t1", CompleteRequest{Tile: 2, Players: []string{"t1-b"}})
	require.NoError(t, err)
	g, moved, o, err := MoveTeam(ctx(adminAct), w.g, w.teams["t1"], MoveRequest{Team: "t1", To: 4})
	require.NoError(t, err)
	require.Empty(t, moved.Progress)
	require.Equal(t, MovedData{Team: "t1", TeamName: "Team 1", From: 2, To: 4, By: "Ada"}, o.Events[0].Data)
	w.g, w.teams["t1"] = g, moved
	w.apply(o)
	require.Equal(t, 125, w.points["t1-b"])
	w.checkWorld()
}

// Ruling 8: the first team to complete tile 56 wins; team actions stop.
func TestWin(t *testing.T) {
	w := race(t, 3)
	for w.teams["t2"].Position < FinalTile {
		w.finishTile("t2")
	}
	w.finishTile("t1")
	require.Equal(t, 56, w.g.RevealedUpTo)
	o := w.finishTile("t2")
	require.Equal(t, StatusFinished, w.g.Status)
	require.Equal(t, "t2", w.g.Winner)
	require.Equal(t, t0, w.g.FinishedAt)
	require.Equal(t, FinalTile, w.teams["t2"].Position)
	types := rulestest.Types(o.Events)
	require.Equal(t, domain.EventGameOver, types[len(types)-1])
	require.Equal(t, EventTeamWon, types[len(types)-2])
	require.Equal(t, RaceOver{GameOver: domain.GameOver{Kind: Kind, Winners: []string{"t2"}, Losers: []string{"t1", "t3"},
		Players: []string{"t1", "t2", "t3"}, Reason: ReasonFinalTile}, Teams: true}, o.Events[len(types)-1].Data)
	require.Equal(t, TeamWonData{Team: "t2", TeamName: "Team 2", Members: []string{"t2-cap", "t2-b", "t2-c"}}, o.Events[len(types)-2].Data)

	// everyone else is stopped, admins on behalf of a team too
	for _, a := range []domain.Actor{teamAct("t1"), adminAct} {
		tm := w.teams["t1"]
		_, err := w.complete(a, "t1", CompleteRequest{Team: "t1", Tile: tm.Position, Players: []string{"t1-cap"}, Complete: true})
		require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
		require.Contains(t, domain.ErrorMessage(err), "Team 2 won")
		_, err = w.claim(a, "t1", ClaimRequest{Team: "t1", PowerupTile: "pt-1", Players: []string{"t1-cap"}})
		require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	}
	_, _, _, err := MoveTeam(ctx(adminAct), w.g, w.teams["t1"], MoveRequest{Team: "t1", To: 9})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	_, _, err = GrantPowerup(ctx(adminAct), w.g, w.teams["t1"], GrantRequest{Team: "t1", Powerup: "skip1"})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	_, _, _, _, err = RandomiseDifficulties(ctx(adminAct), w.g, w.board, w.pools, RandomiseRequest{}, domain.NewSeededDice("x", 1))
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	_, _, _, err = CreateTeam(ctx(adminAct), w.g, "t9", CreateTeamRequest{Name: "Late", Members: []string{"x"}})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	_, _, err = RemoveTeam(ctx(adminAct), w.g, w.teams["t2"], TeamRequest{Team: "t2"})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "the winner stays")
}

func TestTeamActionsBeforeStart(t *testing.T) {
	w := newWorld(t)
	w.addTeams(1)
	w.prepare("x")
	_, err := w.complete(teamAct("t1"), "t1", CompleteRequest{Tile: 1, Players: []string{"t1-cap"}, Complete: true})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	require.Contains(t, domain.ErrorMessage(err), "not started")
}

func TestStartAndReset(t *testing.T) {
	w := newWorld(t)
	_, _, err := Start(ctx(adminAct), w.g, w.board)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "no team")
	w.addTeams(2)
	_, _, err = Start(ctx(adminAct), w.g, w.board)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "empty tiles")
	require.Contains(t, domain.ErrorMessage(err), "56 tiles have no task")
	w.prepare("x")
	_, _, err = Start(ctx(teamAct("t1")), w.g, w.board)
	require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err))
	w.start()
	require.Equal(t, StatusActive, w.g.Status)
	require.Equal(t, t0, w.g.StartedAt)
	_, _, err = Start(ctx(adminAct), w.g, w.board)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))

	for i := 0; i < 20; i++ {
		w.finishTile("t1")
	}
	_, err = w.claim(teamAct("t2"), "t2", ClaimRequest{PowerupTile: "pt-2", Players: []string{"t2-cap"}})
	require.NoError(t, err)
	teams := []Team{w.teams["t1"], w.teams["t2"]}
	ptiles := []PowerupTile{w.ptiles["pt-1"], w.ptiles["pt-2"], w.ptiles["pt-3"]}
	_, _, _, _, err = Reset(ctx(adminAct), w.g, teams[:1], ptiles)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "every team is needed")
	g, nt, np, o, err := Reset(ctx(adminAct), w.g, teams, ptiles)
	require.NoError(t, err)
	require.Equal(t, StatusSetup, g.Status)
	require.Equal(t, 6, g.RevealedUpTo)
	require.Equal(t, span(7, 26), o.Publish, "tiles hidden again")
	for _, tm := range nt {
		require.Equal(t, 1, tm.Position)
		require.Empty(t, tm.Inventory)
		require.Empty(t, tm.Claims)
	}
	require.Equal(t, teams[0].Awards, nt[0].Awards, "award numbers never go back")
	require.Positive(t, nt[0].Awards)
	require.Empty(t, np[1].ClaimedBy)
	w.g = g
	w.teams["t1"], w.teams["t2"] = nt[0], nt[1]
	w.apply(o)
	w.checkWorld()
}

// Ruling 10: claim types, checked against the team's and the tile's record.
func TestClaimPowerupTile(t *testing.T) {
	type step struct {
		team    string
		claims  int
		players []string
		code    string
	}
	tests := []struct {
		name  string
		tile  string // pt-1 eachTeam (1..3, 1.5 pts), pt-2 firstTeam (1..1, 2 pts), pt-3 unlimited (1..2, 0.25 pts)
		steps []step
	}{
		{"each team once", "pt-1", []step{
			{"t1", 0, []string{"t1-cap"}, ""},
			{"t1", 1, []string{"t1-cap"}, domain.ECONFLICT},
			{"t2", 0, []string{"t2-cap", "t2-b", "t2-b"}, ""},
		}},
		{"first team only", "pt-2", []step{
			{"t2", 0, []string{"t2-cap"}, ""},
			{"t1", 0, []string{"t1-cap"}, domain.ECONFLICT},
			{"t2", 1, []string{"t2-cap"}, domain.ECONFLICT},
		}},
		{"unlimited", "pt-3", []step{
			{"t1", 0, []string{"t1-cap"}, ""},
			{"t1", 1, []string{"t1-cap", "t1-b"}, ""},
			{"t1", 1, []string{"t1-cap"}, domain.ECONFLICT}, // stale count: a repeated request
			{"t1", 2, []string{"t1-cap"}, ""},
		}},
		{"completions within min and max", "pt-1", []step{
			{"t1", 0, nil, domain.EINVALID},
			{"t1", 0, []string{"t1-cap", "t1-b", "t1-c", "t1-cap"}, domain.EINVALID},
			{"t1", 0, []string{"t2-cap"}, domain.EINVALID},
			{"t1", 0, []string{"t1-cap", "t1-b", "t1-c"}, ""},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := race(t, 2)
			for i, s := range tt.steps {
				before := w.teams[s.team]
				o, err := w.claim(teamAct(s.team), s.team, ClaimRequest{PowerupTile: tt.tile, Claims: s.claims, Players: s.players})
				if s.code != "" {
					require.Equal(t, s.code, domain.ErrorCode(err), "step %d: %v", i, err)
					continue
				}
				require.NoError(t, err, "step %d", i)
				pt := w.ptiles[tt.tile]
				after := w.teams[s.team]
				require.Equal(t, append(before.Inventory, pt.Reward), after.Inventory)
				require.Equal(t, s.claims+1, after.Claims[tt.tile])
				require.Equal(t, pt.Claim == ClaimFirstTeam, o.Wrote(DocPowerupTile), "only first-team claims write the tile")
				n := 0
				for _, e := range o.Events {
					if a, ok := e.Data.(AwardData); ok {
						n++
						require.Equal(t, pt.Points, a.Points)
						require.Equal(t, tt.tile, a.PowerupTile)
					}
				}
				require.Equal(t, len(s.players), n, "one award per listed player")
			}
			w.checkWorld()
		})
	}
	w := race(t, 2)
	_, err := w.claim(adminAct, "t1", ClaimRequest{Team: "t1", PowerupTile: "pt-2", Players: []string{"t1-cap"}})
	require.NoError(t, err)
	require.Equal(t, "t1", w.ptiles["pt-2"].ClaimedBy)
	last := w.events[len(w.events)-1].Data.(PowerupGainedData)
	require.Equal(t, "Ada", last.By, "admin on behalf is named")
	require.Equal(t, 200, w.points["t1-cap"])
}
