package tilerace

import (
	"slices"
	"strconv"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// AdminRequest is the payload of "addAdmin" and "removeAdmin". For
// addAdmin, ID is the new admin's id (the functions layer chooses it and
// stores the password hash); for removeAdmin only ID is read.
type AdminRequest struct {
	ID   string `json:"id" field:"id,max=64"`
	Name string `json:"name,omitempty" field:"text,max=40"`
}

// AddAdmin adds a regular admin (ruling 19). Master admin only.
//
// Reads and writes the game.
//
// Errors: EFORBIDDEN; EINVALID; EEXISTS (id or name taken); ECONFLICT (too
// many admins).
func AddAdmin(c Ctx, g Game, req AdminRequest) (Game, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionAddAdmin, ""); err != nil {
		return g, o, err
	}
	if !validID(req.ID) {
		return g, o, domain.Errorf(domain.EINVALID, "admin id must be 1 to %d characters without '/'", maxIDLen)
	}
	name, err := cleanName("admin name", req.Name)
	if err != nil {
		return g, o, err
	}
	if _, ok := g.Admin(req.ID); ok {
		return g, o, domain.Errorf(domain.EEXISTS, "there is already an admin with id %q", req.ID)
	}
	for _, a := range g.Admins {
		if strings.EqualFold(a.Name, name) {
			return g, o, domain.Errorf(domain.EEXISTS, "there is already an admin called %s", name)
		}
	}
	if len(g.Admins) >= MaxAdmins {
		return g, o, domain.Errorf(domain.ECONFLICT, "a game has at most %d admins", MaxAdmins)
	}
	g = g.clone()
	g.NextGen++
	g.Admins = append(g.Admins, Admin{ID: req.ID, Name: name, Gen: g.NextGen})
	o.write(DocGame)
	o.emit(EventAdminAdded, "", AdminChangeData{Admin: req.ID, Name: name, By: c.by(g)})
	return g, o, nil
}

// RemoveAdmin removes a regular admin. The master admin cannot be removed.
// Master admin only.
//
// Reads and writes the game.
//
// Errors: EFORBIDDEN; ENOTFOUND; ECONFLICT (the master admin).
func RemoveAdmin(c Ctx, g Game, req AdminRequest) (Game, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionRemoveAdmin, ""); err != nil {
		return g, o, err
	}
	a, ok := g.Admin(req.ID)
	if !ok {
		return g, o, domain.Errorf(domain.ENOTFOUND, "there is no admin %q", req.ID)
	}
	if a.Master {
		return g, o, domain.Errorf(domain.ECONFLICT, "the master admin cannot be removed")
	}
	by := c.by(g)
	g = g.clone()
	g.Admins = slices.DeleteFunc(slices.Clone(g.Admins), func(x Admin) bool { return x.ID == req.ID })
	o.write(DocGame)
	o.emit(EventAdminRemoved, "", AdminChangeData{Admin: a.ID, Name: a.Name, By: by})
	return g, o, nil
}

// FogRequest is the payload of "setFog".
type FogRequest struct {
	Mode FogMode `json:"mode" field:"enum=enabled|admins|all"`
}

// SetFog sets the fog of war mode (ruling 15). Turning the fog off for all
// publishes every hidden tile; turning it back on hides again the tiles
// beyond the reveal frontier (the frontier itself does not move).
//
// Reads and writes the game; the store republishes the tiles in Publish.
//
// Errors: EFORBIDDEN; EINVALID (unknown mode); ECONFLICT (already so).
func SetFog(c Ctx, g Game, req FogRequest) (Game, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionSetFog, ""); err != nil {
		return g, o, err
	}
	if !req.Mode.Valid() {
		return g, o, domain.Errorf(domain.EINVALID, `fog mode must be "enabled", "admins" or "all", not %q`, req.Mode)
	}
	if req.Mode == g.Fog {
		return g, o, domain.Errorf(domain.ECONFLICT, "the fog mode is already %q", req.Mode)
	}
	g, o = setFog(g, req.Mode)
	o.emit(EventFogSet, "", FogData{Mode: req.Mode, By: c.by(g)})
	return g, o, nil
}

func setFog(g Game, mode FogMode) (Game, Outcome) {
	var o Outcome
	g = g.clone()
	wasAll := g.Fog == FogOffForAll
	g.Fog = mode
	o.write(DocGame, DocPublicBoard) // the public board names the mode too
	if wasAll != (mode == FogOffForAll) && g.RevealedUpTo < NumTiles {
		o.publish(span(g.RevealedUpTo+1, NumTiles)...)
	}
	return g, o
}

// AutoDisableFog turns the fog off for all after a randomisation failed
// (ruling 17, the seed's "Auto-Disable"). The failed action itself changes
// nothing (ruling 21); the functions layer applies this as a separate,
// system-made step when RandomiseDifficulties or RandomiseTiles refuses with
// ECONFLICT, naming the admin whose action failed. ok is false when the fog
// was already off for all (nothing to write).
func AutoDisableFog(g Game, admin string) (Game, Outcome, bool) {
	if g.Fog == FogOffForAll {
		return g, Outcome{}, false
	}
	g, o := setFog(g, FogOffForAll)
	o.emit(EventFogSet, "", FogData{Mode: FogOffForAll, Auto: true, By: admin})
	return g, o, true
}

// SettingsRequest is the payload of "setSettings": absent fields stay.
type SettingsRequest struct {
	Gradient *Gradient `json:"gradient,omitempty"`
	Reserve  *int      `json:"reserve,omitempty" field:"int,min=0,max=100"` // at most MaxReserve
}

// CheckGradient validates difficulty weights: each 0..1000, and each of
// Early and Late with a positive sum.
func CheckGradient(gr Gradient) error {
	for _, w := range []struct {
		name string
		w    Weights
	}{{"early", gr.Early}, {"late", gr.Late}} {
		for _, x := range []int{w.w.Easy, w.w.Medium, w.w.Hard} {
			if x < 0 || x > 1000 {
				return domain.Errorf(domain.EINVALID, "%s weights must be between 0 and 1000", w.name)
			}
		}
		if w.w.Easy+w.w.Medium+w.w.Hard == 0 {
			return domain.Errorf(domain.EINVALID, "%s weights must not all be 0", w.name)
		}
	}
	return nil
}

// SetSettings changes the gradient weights or the pool reserve.
//
// Reads and writes the game.
//
// Errors: EFORBIDDEN; EINVALID; ECONFLICT (nothing to change).
func SetSettings(c Ctx, g Game, req SettingsRequest) (Game, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionSetSettings, ""); err != nil {
		return g, o, err
	}
	if req.Gradient == nil && req.Reserve == nil {
		return g, o, domain.Errorf(domain.ECONFLICT, "nothing to change")
	}
	g = g.clone()
	if req.Gradient != nil {
		if err := CheckGradient(*req.Gradient); err != nil {
			return g, o, err
		}
		g.Settings.Gradient = *req.Gradient
	}
	if req.Reserve != nil {
		if *req.Reserve < 0 || *req.Reserve > MaxReserve {
			return g, o, domain.Errorf(domain.EINVALID, "the reserve must be between 0 and %d, not %d", MaxReserve, *req.Reserve)
		}
		g.Settings.Reserve = *req.Reserve
	}
	o.write(DocGame)
	o.emit(EventSettingsSet, "", AdminData{By: c.by(g)})
	return g, o, nil
}

// AdminBoard is the board as the admin calling sees it: everything when the
// fog is off for admins or for all, the revealed tiles otherwise.
//
// Errors: EFORBIDDEN.
func AdminBoard(c Ctx, g Game, b Board) ([]PublicTile, error) {
	if err := Authorize(g, c.Actor, ActionViewBoard, ""); err != nil {
		return nil, err
	}
	return ViewBoard(g, b, true), nil
}

// EditTileRequest is the payload of "editTile": the tile's whole content.
type EditTileRequest struct {
	Tile   int    `json:"tile" field:"int,min=0,max=56"`
	Task          // label, difficulty, instructions, image, min, max, points, group, startProof
	Reward string `json:"reward,omitempty" field:"text,max=40"` // a powerup, as PowerupByID reads it
}

// EditTile replaces a race tile's content. The final tile stays hard. The
// tile's pool task id and powerup modifications are kept.
//
// Reads the game and the tile; writes the tile, and its public projection
// when players can see it.
//
// Errors: EFORBIDDEN; EINVALID.
func EditTile(c Ctx, g Game, tile Tile, req EditTileRequest) (Tile, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionEditTile, ""); err != nil {
		return tile, o, err
	}
	if req.Tile < 1 || req.Tile > NumTiles {
		return tile, o, domain.Errorf(domain.EINVALID, "tile must be between 1 and %d, not %d", NumTiles, req.Tile)
	}
	if tile.N != req.Tile {
		return tile, o, domain.Errorf(domain.EINVALID, "the request names tile %d but tile %d was loaded", req.Tile, tile.N)
	}
	what := "tile " + strconv.Itoa(req.Tile)
	task, err := cleanTask(what, req.Task)
	if err != nil {
		return tile, o, err
	}
	if req.Tile == FinalTile && task.Difficulty != Hard {
		return tile, o, domain.Errorf(domain.EINVALID, "the final tile is always hard")
	}
	reward := ""
	if strings.TrimSpace(req.Reward) != "" {
		var ok bool
		if reward, ok = PowerupByID(req.Reward); !ok {
			return tile, o, domain.Errorf(domain.EINVALID, "%s: unknown reward powerup %q", what, req.Reward)
		}
	}
	tile.Task, tile.Reward = task, reward
	tile.Layout = TileLayout(tile.N)
	o.write(DocTile)
	data := TileEditedData{Tile: tile.N, By: c.by(g)}
	if g.Visible(tile.N, false) {
		o.publish(tile.N)
		data.Label = tile.Label
	}
	o.emit(EventTileEdited, "", data)
	return tile, o, nil
}

// PowerupTileRequest is the payload of "createPowerupTile" and
// "editPowerupTile" (the tile's whole content; PowerupTile names the tile to
// edit).
type PowerupTileRequest struct {
	PowerupTile  string    `json:"powerupTile,omitempty" field:"id,max=64"`
	Label        string    `json:"label" field:"text,max=150"`
	Instructions string    `json:"instructions,omitempty" field:"longtext,max=1000"`
	Image        string    `json:"image,omitempty" field:"url,http,max=500"`
	Points       int       `json:"points" field:"int,min=0,max=100000"` // hundredths per completion; 0 for 1 point
	Min          int       `json:"min" field:"int,min=0,max=100"`
	Max          int       `json:"max" field:"int,min=0,max=100"`
	Group        bool      `json:"group,omitempty"`
	Claim        ClaimType `json:"claim" field:"text,max=40"`  // as parseClaim reads it
	Reward       string    `json:"reward" field:"text,max=40"` // a powerup, as PowerupByID reads it
}

func cleanPowerupTile(req PowerupTileRequest) (PowerupTile, error) {
	var err error
	pt := PowerupTile{Min: req.Min, Max: req.Max, Group: req.Group, Points: req.Points}
	if pt.Label, err = cleanText("label", req.Label, MaxLabelLen); err != nil {
		return pt, err
	}
	if pt.Label == "" {
		return pt, domain.Errorf(domain.EINVALID, "label is required")
	}
	if pt.Instructions, err = cleanText("instructions", req.Instructions, MaxTextLen); err != nil {
		return pt, err
	}
	if pt.Image, err = cleanURL("image", req.Image); err != nil {
		return pt, err
	}
	if pt.Points == 0 {
		pt.Points = DefaultPoints
	}
	if pt.Points < 1 || pt.Points > MaxPoints {
		return pt, domain.Errorf(domain.EINVALID, "points must be between 1 and %d hundredths", MaxPoints)
	}
	if err := checkMinMax("powerup tile", pt.Min, pt.Max); err != nil {
		return pt, err
	}
	var ok bool
	if pt.Claim, ok = parseClaim(string(req.Claim)); !ok {
		return pt, domain.Errorf(domain.EINVALID, `claim type must be "eachTeam", "firstTeam" or "unlimited", not %q`, req.Claim)
	}
	if pt.Reward, ok = PowerupByID(req.Reward); !ok {
		return pt, domain.Errorf(domain.EINVALID, "unknown reward powerup %q", req.Reward)
	}
	return pt, nil
}

// parseClaim reads a claim type, ignoring case, spaces, '-' and '_'; it also
// takes the seed's names ("each team once", "first team only").
func parseClaim(s string) (ClaimType, bool) {
	switch powerupKey(s) {
	case "eachteam", "eachteamonce", "each", "once":
		return ClaimEachTeam, true
	case "firstteam", "firstteamonly", "first":
		return ClaimFirstTeam, true
	case "unlimited", "any", "repeat":
		return ClaimUnlimited, true
	}
	return "", false
}

// CreatePowerupTile adds a powerup tile with the next id ("pt-N").
//
// Reads and writes the game (the id counter); writes the new powerup tile.
//
// Errors: EFORBIDDEN; EINVALID.
func CreatePowerupTile(c Ctx, g Game, req PowerupTileRequest) (Game, PowerupTile, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionCreatePowerupTile, ""); err != nil {
		return g, PowerupTile{}, o, err
	}
	pt, err := cleanPowerupTile(req)
	if err != nil {
		return g, PowerupTile{}, o, err
	}
	g = g.clone()
	pt.ID = nextPowerupTileID(&g)
	o.write(DocGame, DocPowerupTile)
	o.emit(EventPowerupTiles, "", PowerupTilesData{What: "created", IDs: []string{pt.ID}, Count: 1, By: c.by(g)})
	return g, pt, o, nil
}

func nextPowerupTileID(g *Game) string { return nextID("pt-", &g.NextPowerupTile) }

// nextID takes the next number of a counter that starts at 1 and never goes
// back, so ids are never reused.
func nextID(prefix string, counter *int) string {
	*counter = max(*counter, 1)
	id := prefix + strconv.Itoa(*counter)
	*counter++
	return id
}

// EditPowerupTile replaces a powerup tile's content. Its claims stay; a tile
// that stops being first-team-only forgets who claimed it.
//
// Reads the game and the powerup tile; writes the powerup tile.
//
// Errors: EFORBIDDEN; EINVALID.
func EditPowerupTile(c Ctx, g Game, pt PowerupTile, req PowerupTileRequest) (PowerupTile, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionEditPowerupTile, ""); err != nil {
		return pt, o, err
	}
	if req.PowerupTile != pt.ID {
		return pt, o, domain.Errorf(domain.EINVALID, "the request names powerup tile %q but %q was loaded", req.PowerupTile, pt.ID)
	}
	n, err := cleanPowerupTile(req)
	if err != nil {
		return pt, o, err
	}
	n.ID = pt.ID
	if n.Claim == ClaimFirstTeam {
		n.ClaimedBy, n.ClaimedAt = pt.ClaimedBy, pt.ClaimedAt
	}
	o.write(DocPowerupTile)
	o.emit(EventPowerupTiles, "", PowerupTilesData{What: "edited", IDs: []string{pt.ID}, Count: 1, By: c.by(g)})
	return n, o, nil
}

// PowerupTileRef is the payload of "removePowerupTile".
type PowerupTileRef struct {
	PowerupTile string `json:"powerupTile" field:"id,max=64"`
}

// RemovePowerupTile deletes a powerup tile. Its id is never reused.
//
// Reads the game and the powerup tile; deletes the powerup tile.
//
// Errors: EFORBIDDEN; EINVALID.
func RemovePowerupTile(c Ctx, g Game, pt PowerupTile, req PowerupTileRef) (Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionRemovePowerupTile, ""); err != nil {
		return o, err
	}
	if req.PowerupTile != pt.ID {
		return o, domain.Errorf(domain.EINVALID, "the request names powerup tile %q but %q was loaded", req.PowerupTile, pt.ID)
	}
	o.Deletes = []Doc{DocPowerupTile}
	o.emit(EventPowerupTiles, "", PowerupTilesData{What: "removed", IDs: []string{pt.ID}, Count: 1, By: c.by(g)})
	return o, nil
}

// ClearPowerupTiles deletes every powerup tile (before a fresh import).
//
// Reads the game and every powerup tile; deletes them all.
//
// Errors: EFORBIDDEN; ECONFLICT (none).
func ClearPowerupTiles(c Ctx, g Game, ptiles []PowerupTile) (Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionClearPowerupTiles, ""); err != nil {
		return o, err
	}
	if len(ptiles) == 0 {
		return o, domain.Errorf(domain.ECONFLICT, "there are no powerup tiles")
	}
	o.Deletes = []Doc{DocPowerupTiles}
	o.emit(EventPowerupTiles, "", PowerupTilesData{What: "cleared", Count: len(ptiles), By: c.by(g)})
	return o, nil
}

// PoolTaskRequest is the payload of "addPoolTask", "editPoolTask" and
// "removePoolTask" (ID names the task to edit or remove; the task's fields
// are ignored by removePoolTask).
type PoolTaskRequest struct {
	ID   string `json:"id,omitempty" field:"id,max=64"`
	Task        // label, difficulty, …
}

// AddPoolTask adds a task to the pool of its difficulty.
//
// Reads the game and the pools; writes the pools.
//
// Errors: EFORBIDDEN; EINVALID; ECONFLICT (pool full).
func AddPoolTask(c Ctx, g Game, p Pools, req PoolTaskRequest) (Pools, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionAddPoolTask, ""); err != nil {
		return p, o, err
	}
	task, err := cleanTask("task", req.Task)
	if err != nil {
		return p, o, err
	}
	if len(*p.Pool(task.Difficulty)) >= MaxPoolTasks {
		return p, o, domain.Errorf(domain.ECONFLICT, "the %s pool holds %d tasks, the most it can", task.Difficulty, MaxPoolTasks)
	}
	p = p.clone()
	id := nextTaskID(&p)
	pool := p.Pool(task.Difficulty)
	*pool = append(*pool, PoolTask{ID: id, Task: task})
	o.write(DocPools)
	o.emit(EventPoolsChanged, "", PoolsChangedData{What: "added", Count: 1, By: c.by(g)})
	o.Result = map[string]string{"id": id}
	return p, o, nil
}

func nextTaskID(p *Pools) string { return nextID("t-", &p.NextID) }

// EditPoolTask replaces a pool task's content; a new difficulty moves it to
// that pool. Its used flag stays; tiles it was placed on keep their copy.
//
// Reads the game and the pools; writes the pools.
//
// Errors: EFORBIDDEN; ENOTFOUND; EINVALID.
func EditPoolTask(c Ctx, g Game, p Pools, req PoolTaskRequest) (Pools, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionEditPoolTask, ""); err != nil {
		return p, o, err
	}
	task, err := cleanTask("task", req.Task)
	if err != nil {
		return p, o, err
	}
	p = p.clone()
	pool, i := p.find(req.ID)
	if pool == nil {
		return p, o, domain.Errorf(domain.ENOTFOUND, "there is no pool task %q", req.ID)
	}
	old := (*pool)[i]
	if old.Difficulty == task.Difficulty {
		(*pool)[i].Task = task
	} else {
		if len(*p.Pool(task.Difficulty)) >= MaxPoolTasks {
			return p, o, domain.Errorf(domain.ECONFLICT, "the %s pool holds %d tasks, the most it can", task.Difficulty, MaxPoolTasks)
		}
		*pool = append((*pool)[:i:i], (*pool)[i+1:]...)
		to := p.Pool(task.Difficulty)
		*to = append(*to, PoolTask{ID: old.ID, Task: task, Used: old.Used})
	}
	o.write(DocPools)
	o.emit(EventPoolsChanged, "", PoolsChangedData{What: "edited", Count: 1, By: c.by(g)})
	return p, o, nil
}

// RemovePoolTask deletes a pool task. Tiles it was placed on keep their copy.
//
// Reads the game and the pools; writes the pools.
//
// Errors: EFORBIDDEN; ENOTFOUND.
func RemovePoolTask(c Ctx, g Game, p Pools, req PoolTaskRequest) (Pools, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionRemovePoolTask, ""); err != nil {
		return p, o, err
	}
	p = p.clone()
	pool, i := p.find(req.ID)
	if pool == nil {
		return p, o, domain.Errorf(domain.ENOTFOUND, "there is no pool task %q", req.ID)
	}
	*pool = append((*pool)[:i:i], (*pool)[i+1:]...)
	o.write(DocPools)
	o.emit(EventPoolsChanged, "", PoolsChangedData{What: "removed", Count: 1, By: c.by(g)})
	return p, o, nil
}

// ClearPoolsRequest is the payload of "clearPools".
type ClearPoolsRequest struct {
	Difficulty Difficulty `json:"difficulty,omitempty" field:"int,min=0,max=3"` // 0 for every pool
}

// ClearPools empties one pool or all three, used tasks included (tiles keep
// their copies). Task ids are never reused.
//
// Reads the game and the pools; writes the pools.
//
// Errors: EFORBIDDEN; EINVALID; ECONFLICT (already empty).
func ClearPools(c Ctx, g Game, p Pools, req ClearPoolsRequest) (Pools, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionClearPools, ""); err != nil {
		return p, o, err
	}
	if req.Difficulty != 0 && !req.Difficulty.Valid() {
		return p, o, domain.Errorf(domain.EINVALID, "difficulty must be 1, 2, 3 or 0 for every pool, not %d", req.Difficulty)
	}
	p = p.clone()
	n := 0
	for _, d := range Difficulties {
		if req.Difficulty == 0 || req.Difficulty == d {
			n += len(*p.Pool(d))
			*p.Pool(d) = []PoolTask{}
		}
	}
	if n == 0 {
		return p, o, domain.Errorf(domain.ECONFLICT, "the pools are already empty")
	}
	o.write(DocPools)
	o.emit(EventPoolsChanged, "", PoolsChangedData{What: "cleared", Count: n, By: c.by(g)})
	return p, o, nil
}
