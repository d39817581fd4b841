package tilerace

import (
	"strconv"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// raceOn rejects team actions unless the race is running.
func raceOn(g Game) error {
	switch g.Status {
	case StatusActive:
		return nil
	case StatusSetup:
		return domain.Errorf(domain.ECONFLICT, "the race has not started yet")
	case StatusFinished:
		name := g.Winner
		if r, ok := g.TeamRef(g.Winner); ok {
			name = r.Name
		}
		return domain.Errorf(domain.ECONFLICT, "the race is over: %s won", name)
	}
	return domain.Errorf(domain.ECONFLICT, "the game is in an unknown status %q", g.Status)
}

// notFinished rejects admin actions that change the race once it is won
// (undo, later, is how admins change a finished race).
func notFinished(g Game) error {
	if g.Status == StatusFinished {
		return domain.Errorf(domain.ECONFLICT, "the race is over; undo first to change it")
	}
	return nil
}

// sameTeam checks that the team value the store read is the team the request
// names.
func sameTeam(reqTeam string, t Team) error {
	if reqTeam != "" && reqTeam != t.ID {
		return domain.Errorf(domain.EINVALID, "the request names team %q but team %q was loaded", reqTeam, t.ID)
	}
	return nil
}

// CompleteRequest is the payload of "complete" (ruling 4, 5): record
// completions on the team's current tile and, with Complete, advance.
type CompleteRequest struct {
	// Team is the team acting; a team's own token may leave it empty.
	Team string `json:"team,omitempty" field:"id,max=64"`
	// Tile must be the team's current tile: a stale or repeated request names
	// a tile the team has left and is rejected.
	Tile int `json:"tile" field:"int,min=0,max=56"`
	// Recorded is how many completions the client saw recorded on the tile.
	// It must match, so a repeated "record" request cannot record twice.
	Recorded int `json:"recorded" field:"int,min=0,max=100"`
	// Players are the new completions, one player name per completion.
	Players []string `json:"players" field:"list,max=100" elem:"text,max=40"`
	// Complete advances the team once at least min completions are recorded
	// (these included).
	Complete bool `json:"complete"`
}

// Complete records completions on the team's current tile and, when the
// request says so and at least min are recorded, completes the tile: the team
// advances one tile, gains the tile's reward, loses its cooldown, and the
// fog lifts as far as its new position reveals. Completing the final tile
// wins the race (rulings 4–8).
//
// Reads the game, the team and the team's current tile; writes the team, and
// the game only when the reveal frontier moves or the race is won.
//
// Errors: EFORBIDDEN; ECONFLICT (race not running, stale tile, stale
// recorded count, tile without a task); EINVALID (bad players, count outside
// [min, max], group task rule).
func Complete(c Ctx, g Game, t Team, tile Tile, req CompleteRequest) (Game, Team, Outcome, error) {
	var o Outcome
	if err := sameTeam(req.Team, t); err != nil {
		return g, t, o, err
	}
	if err := Authorize(g, c.Actor, ActionComplete, t.ID); err != nil {
		return g, t, o, err
	}
	if err := raceOn(g); err != nil {
		return g, t, o, err
	}
	if req.Tile != t.Position {
		return g, t, o, domain.Errorf(domain.ECONFLICT, "team %s is on tile %d, not tile %d: the request is stale or was already applied", t.Name, t.Position, req.Tile)
	}
	if tile.N != t.Position {
		return g, t, o, domain.Errorf(domain.ECONFLICT, "tile %d was loaded for a team on tile %d", tile.N, t.Position)
	}
	if tile.Empty() {
		return g, t, o, domain.Errorf(domain.ECONFLICT, "tile %d has no task yet; ask an admin", tile.N)
	}
	if req.Recorded != len(t.Progress) {
		return g, t, o, domain.Errorf(domain.ECONFLICT, "%d completions are recorded on tile %d, not %d: refresh and try again", len(t.Progress), tile.N, req.Recorded)
	}
	if len(req.Players) == 0 && !req.Complete {
		return g, t, o, domain.Errorf(domain.EINVALID, "name at least one player, or complete the tile")
	}
	players, err := cleanPlayers(t, req.Players)
	if err != nil {
		return g, t, o, err
	}
	all := append(append([]string(nil), t.Progress...), players...)
	if len(players) > 0 && len(all) > tile.Max { // (progress above a max an admin lowered may still complete)
		return g, t, o, domain.Errorf(domain.EINVALID, "tile %d allows at most %d completions: %d recorded and %d more given", tile.N, tile.Max, len(t.Progress), len(players))
	}
	if tile.Group {
		if err := checkGroup(all); err != nil {
			return g, t, o, err
		}
	}
	if req.Complete && len(all) < tile.Min {
		return g, t, o, domain.Errorf(domain.EINVALID, "tile %d needs at least %s to complete, %d given", tile.N, plural(tile.Min, "completion"), len(all))
	}

	g, t = g.clone(), t.clone()
	by := c.by(g)
	pts := PointsPerCompletion(tile)
	res := CompleteResult{Tile: tile.N}
	o.write(DocTeam)
	if len(players) > 0 {
		t.Progress = all
		o.emit(EventCompletionsRecorded, t.ID, RecordedData{Team: t.ID, TeamName: t.Name, Tile: tile.N, Label: tile.Label,
			Players: players, Points: pts, Recorded: len(all), Min: tile.Min, Max: tile.Max, By: by})
		for _, p := range players {
			o.emit(EventPointsAwarded, t.ID, AwardData{Key: t.award(p, pts), Player: p, Points: pts,
				Team: t.ID, TeamName: t.Name, Tile: tile.N, By: by})
			res.Points += pts
		}
	}
	if req.Complete {
		t.Progress = []string{}
		t.Cooldown = false
		reward := ""
		if tile.Reward != "" && !containsInt(t.Rewarded, tile.N) && len(t.Inventory) < MaxInventory {
			reward = tile.Reward
			t.Inventory = append(t.Inventory, reward)
			t.Rewarded = append(t.Rewarded, tile.N)
		}
		won := tile.N == FinalTile
		if !won {
			t.Position++
			t.Moves++
		}
		o.emit(EventTileCompleted, t.ID, TileCompletedData{Team: t.ID, TeamName: t.Name, Tile: tile.N, Label: tile.Label,
			Players: all, Points: pts, Doubled: tile.Mods.Doubled, StartProof: tile.StartProof, Position: t.Position, Reward: reward, By: by})
		if reward != "" {
			o.emit(EventPowerupGained, t.ID, PowerupGainedData{Team: t.ID, TeamName: t.Name, Powerup: reward, Tile: tile.N, By: by})
		}
		if won {
			g.Status = StatusFinished
			g.Winner = t.ID
			g.FinishedAt = c.Now.UTC()
			o.write(DocGame)
			o.emit(EventTeamWon, t.ID, TeamWonData{Team: t.ID, TeamName: t.Name, Members: append([]string(nil), t.Members...), By: by})
			o.emit(domain.EventGameOver, t.ID, gameOver(g, t.ID))
		}
		res.Advanced, res.Reward, res.Won = true, reward, won
	}
	res.Position, res.Recorded, res.Progress = t.Position, len(t.Progress), append([]string{}, t.Progress...)
	o.Result = res
	return g, t, o, nil
}

// RaceOver is the data of a race's gameOver event: Tile Race is played by
// teams, so Winners, Losers and Players are team ids (Teams says so), and the
// registry keeps no per-player stats for it (players' points go to the
// points ledger by name instead).
type RaceOver struct {
	domain.GameOver
	Teams bool `json:"teams"`
}

// gameOver is the gameOver event data of a race won by team winner.
func gameOver(g Game, winner string) RaceOver {
	over := RaceOver{GameOver: domain.GameOver{Kind: Kind, Winners: []string{winner}, Players: []string{}, Reason: ReasonFinalTile}, Teams: true}
	for _, r := range g.Teams {
		over.Players = append(over.Players, r.ID)
		if r.ID != winner {
			over.Losers = append(over.Losers, r.ID)
		}
	}
	return over
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// ClaimRequest is the payload of "claimPowerupTile" (ruling 10).
type ClaimRequest struct {
	Team        string `json:"team,omitempty" field:"id,max=64"`
	PowerupTile string `json:"powerupTile" field:"id,max=64"`
	// Claims is how many times the client saw its team claim this tile
	// before. It must match, so a repeated request cannot claim twice (which
	// matters for unlimited tiles).
	Claims int `json:"claims" field:"int,min=0,max=1000000"`
	// Players are the completions, one player name per completion.
	Players []string `json:"players" field:"list,max=100" elem:"text,max=40"`
}

// ClaimPowerupTile claims a powerup tile for a team: each listed player
// earns the tile's points, and the reward powerup goes to the inventory. The
// claim type is checked here, inside the store's transaction: each team once
// (the team's own claim count), first team only (the tile's ClaimedBy), or
// unlimited.
//
// Reads the game, the team and the powerup tile; writes the team, and the
// powerup tile only when a first-team-only tile is claimed.
//
// Errors: EFORBIDDEN; ECONFLICT (race not running, already claimed, stale
// claim count); EINVALID (bad players, count outside [min, max]).
func ClaimPowerupTile(c Ctx, g Game, t Team, pt PowerupTile, req ClaimRequest) (Team, PowerupTile, Outcome, error) {
	var o Outcome
	if err := sameTeam(req.Team, t); err != nil {
		return t, pt, o, err
	}
	if err := Authorize(g, c.Actor, ActionClaimPowerupTile, t.ID); err != nil {
		return t, pt, o, err
	}
	if err := raceOn(g); err != nil {
		return t, pt, o, err
	}
	if req.PowerupTile != pt.ID {
		return t, pt, o, domain.Errorf(domain.EINVALID, "the request names powerup tile %q but %q was loaded", req.PowerupTile, pt.ID)
	}
	claims := t.Claims[pt.ID]
	if req.Claims != claims {
		return t, pt, o, domain.Errorf(domain.ECONFLICT, "team %s has claimed %q %d times, not %d: refresh and try again", t.Name, pt.Label, claims, req.Claims)
	}
	switch pt.Claim {
	case ClaimEachTeam:
		if claims > 0 {
			return t, pt, o, domain.Errorf(domain.ECONFLICT, "team %s already claimed %q; each team can claim it once", t.Name, pt.Label)
		}
	case ClaimFirstTeam:
		if pt.ClaimedBy != "" {
			if pt.ClaimedBy == t.ID {
				return t, pt, o, domain.Errorf(domain.ECONFLICT, "team %s already claimed %q", t.Name, pt.Label)
			}
			by := pt.ClaimedBy
			if r, ok := g.TeamRef(pt.ClaimedBy); ok {
				by = r.Name
			}
			return t, pt, o, domain.Errorf(domain.ECONFLICT, "%q was already claimed by %s; only the first team gets it", pt.Label, by)
		}
	case ClaimUnlimited:
	default:
		return t, pt, o, domain.Errorf(domain.ECONFLICT, "powerup tile %q has an unknown claim type %q", pt.Label, pt.Claim)
	}
	players, err := cleanPlayers(t, req.Players)
	if err != nil {
		return t, pt, o, err
	}
	if len(players) < pt.Min || len(players) > pt.Max {
		return t, pt, o, domain.Errorf(domain.EINVALID, "%q needs between %d and %d completions, %d given", pt.Label, pt.Min, pt.Max, len(players))
	}
	if pt.Group {
		if err := checkGroup(players); err != nil {
			return t, pt, o, err
		}
	}
	if pt.Reward == "" {
		return t, pt, o, domain.Errorf(domain.ECONFLICT, "powerup tile %q has no reward", pt.Label)
	}
	if len(t.Inventory) >= MaxInventory {
		return t, pt, o, domain.Errorf(domain.ECONFLICT, "team %s holds %d powerups, the most a team can hold", t.Name, MaxInventory)
	}
	t = t.clone()
	by := c.by(g)
	pts := pt.Points
	if pts <= 0 {
		pts = DefaultPoints
	}
	if t.Claims == nil {
		t.Claims = map[string]int{}
	}
	t.Claims[pt.ID] = claims + 1
	t.Inventory = append(t.Inventory, pt.Reward)
	o.write(DocTeam)
	if pt.Claim == ClaimFirstTeam {
		pt.ClaimedBy, pt.ClaimedAt = t.ID, c.Now.UTC()
		o.write(DocPowerupTile)
	}
	o.emit(EventPowerupTileClaimed, t.ID, ClaimedData{Team: t.ID, TeamName: t.Name, PowerupTile: pt.ID, Label: pt.Label,
		Players: players, Points: pts, Reward: pt.Reward, Claims: claims + 1, By: by})
	res := ClaimResult{PowerupTile: pt.ID, Reward: pt.Reward, Claims: claims + 1}
	for _, p := range players {
		o.emit(EventPointsAwarded, t.ID, AwardData{Key: t.award(p, pts), Player: p, Points: pts,
			Team: t.ID, TeamName: t.Name, PowerupTile: pt.ID, By: by})
		res.Points += pts
	}
	o.emit(EventPowerupGained, t.ID, PowerupGainedData{Team: t.ID, TeamName: t.Name, Powerup: pt.Reward, PowerupTile: pt.ID, By: by})
	o.Result = res
	return t, pt, o, nil
}

// Start starts the race: setup → active. It needs at least one team and a
// task on every tile.
//
// Reads the game and the board; writes the game.
//
// Errors: EFORBIDDEN; ECONFLICT (not in setup, no team, empty tiles).
func Start(c Ctx, g Game, b Board) (Game, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionStart, ""); err != nil {
		return g, o, err
	}
	if g.Status != StatusSetup {
		return g, o, domain.Errorf(domain.ECONFLICT, "the race has already started")
	}
	if len(g.Teams) == 0 {
		return g, o, domain.Errorf(domain.ECONFLICT, "create at least one team first")
	}
	if err := checkBoard(b); err != nil {
		return g, o, err
	}
	var empty []int
	for _, t := range b.Tiles {
		if t.Empty() {
			empty = append(empty, t.N)
		}
	}
	if len(empty) > 0 {
		return g, o, domain.Errorf(domain.ECONFLICT, "%d tiles have no task yet (first: tile %d); import tasks and randomise the tiles, or edit them", len(empty), empty[0])
	}
	if b.Tiles[FinalTile-1].Difficulty != Hard {
		return g, o, domain.Errorf(domain.ECONFLICT, "the final tile must be hard")
	}
	g = g.clone()
	g.Status = StatusActive
	g.StartedAt = c.Now.UTC()
	o.write(DocGame)
	o.emit(EventGameStarted, "", AdminData{By: c.by(g)})
	return g, o, nil
}

// Reset clears all progress and returns the game to setup: every team back
// on tile 1 with no progress, inventory, cooldown, claims or rewards; no
// winner; first-team-only powerup tiles unclaimed; the fog back to tile 1's.
// The board, pools, teams' members and the points ledger are kept (points
// are reversed by undo, not by reset). teams must be every team on the
// roster.
//
// Reads the game, every team and every powerup tile; writes them all.
//
// Errors: EFORBIDDEN; ECONFLICT (teams do not match the roster).
func Reset(c Ctx, g Game, teams []Team, ptiles []PowerupTile) (Game, []Team, []PowerupTile, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionReset, ""); err != nil {
		return g, teams, ptiles, o, err
	}
	if len(teams) != len(g.Teams) {
		return g, teams, ptiles, o, domain.Errorf(domain.ECONFLICT, "%d teams were loaded for a roster of %d", len(teams), len(g.Teams))
	}
	for _, t := range teams {
		if _, ok := g.TeamRef(t.ID); !ok {
			return g, teams, ptiles, o, domain.Errorf(domain.ECONFLICT, "team %q is not on the roster", t.ID)
		}
	}
	g = g.clone()
	old := g.RevealedUpTo
	g.Status, g.Winner = StatusSetup, ""
	g.StartedAt, g.FinishedAt = time.Time{}, time.Time{}
	g.RevealedUpTo = RevealUpTo(1)
	if old != g.RevealedUpTo {
		o.write(DocPublicBoard)
	}
	if g.Fog != FogOffForAll && old > g.RevealedUpTo {
		o.publish(span(g.RevealedUpTo+1, old)...)
	}
	newTeams := make([]Team, len(teams))
	for i, t := range teams {
		t = t.clone()
		if t.Position != 1 || len(t.Progress) > 0 {
			t.Moves++
		}
		t.Position = 1
		t.Progress = []string{}
		t.Inventory = []string{}
		t.Cooldown = false
		t.Claims = nil
		t.Rewarded = nil
		newTeams[i] = t
	}
	newTiles := make([]PowerupTile, len(ptiles))
	for i, pt := range ptiles {
		pt.ClaimedBy, pt.ClaimedAt = "", time.Time{}
		newTiles[i] = pt
	}
	o.write(DocGame, DocTeams, DocPowerupTiles)
	o.emit(EventGameReset, "", AdminData{By: c.by(g)})
	return g, newTeams, newTiles, o, nil
}

// plural says n things: "1 completion", "2 completions".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}
