package tilerace

import (
	"slices"

	"github.com/meeple-games/meeple/domain"
)

// PowerupRequest is the payload of "usePowerup" (rulings 11–14). Which of
// Target, Tile, Remove and Duplicate a powerup takes is fixed per powerup
// (PowerupFields); a field the powerup does not take is refused, so a client
// sending the wrong shape learns it instead of seeing it ignored.
type PowerupRequest struct {
	// Team is the team using the powerup; a team's own token may leave it
	// empty, an admin acting on the team's behalf names it.
	Team string `json:"team,omitempty" field:"id,max=64"`
	// Powerup is the powerup to use: an id ("skip1") or a display name
	// ("Skip 1 tile"), as PowerupByID reads them.
	Powerup string `json:"powerup" field:"text,max=40"`
	// Target is the team sent back (back1–3) or disabled (disablePowerup).
	Target string `json:"target,omitempty" field:"id,max=64"`
	// Tile is the tile modified: the paste destination (copypaste), the tile
	// changed (changeTile) or doubled (doubleEasy/Medium/Hard).
	Tile int `json:"tile,omitempty" field:"int,min=0,max=56"`
	// Remove is the powerup taken from the target (disablePowerup).
	Remove string `json:"remove,omitempty" field:"text,max=40"`
	// Duplicate is the powerup copied (doublePowerup).
	Duplicate string `json:"duplicate,omitempty" field:"text,max=40"`
}

// Powerup kinds by what they act on; they decide what a use reads.
const (
	usesSelf   = "self"   // skip, clearCooldown, doublePowerup: the team alone
	usesTarget = "target" // back, disablePowerup: the team and its target
	usesTile   = "tile"   // copypaste, changeTile, doubleX: the team, every team and the board
)

// PowerupFields reports which request fields powerup id takes.
func PowerupFields(id string) (target, tile, remove, duplicate bool) {
	switch id {
	case PowerupBack1, PowerupBack2, PowerupBack3:
		return true, false, false, false
	case PowerupDisablePowerup:
		return true, false, true, false
	case PowerupCopyPaste, PowerupChangeTile, PowerupDoubleEasy, PowerupDoubleMedium, PowerupDoubleHard:
		return false, true, false, false
	case PowerupDoublePowerup:
		return false, false, false, true
	}
	return false, false, false, false
}

// powerupUses is what powerup id acts on (usesSelf, usesTarget, usesTile).
func powerupUses(id string) string {
	target, tile, _, _ := PowerupFields(id)
	switch {
	case target:
		return usesTarget
	case tile:
		return usesTile
	}
	return usesSelf
}

// PowerupReads lists the values a use of powerup id reads, for the store's
// plan: the game and the team always; the target team for back and
// disablePowerup; the board (tile labels; for skips also the frontier's
// newly revealed tiles) for skips and backs; every team (who stands where),
// the board and the frontier for tile modifications; the pools for
// changeTile. Clear Cooldown, Double Powerup and Disable Powerup read no
// board.
func PowerupReads(id string) []Doc {
	reads := []Doc{DocGame, DocTeam}
	switch id {
	case PowerupSkip1, PowerupSkip2, PowerupSkip3:
		reads = append(reads, DocBoard)
	case PowerupBack1, PowerupBack2, PowerupBack3:
		reads = append(reads, DocTarget, DocBoard)
	case PowerupDisablePowerup:
		reads = append(reads, DocTarget)
	case PowerupChangeTile:
		reads = append(reads, DocTeams, DocBoard, DocPools)
	case PowerupCopyPaste, PowerupDoubleEasy, PowerupDoubleMedium, PowerupDoubleHard:
		reads = append(reads, DocTeams, DocBoard)
	}
	return reads
}

// ReadsFrontier reports whether a use of powerup id needs the fog frontier
// (kept with the public board): skips raise it, tile modifications only
// target revealed tiles and rewrite the public board, backs name tile labels
// only when revealed.
func ReadsFrontier(id string) bool {
	switch powerupUses(id) {
	case usesTile:
		return true
	}
	switch id {
	case PowerupSkip1, PowerupSkip2, PowerupSkip3, PowerupBack1, PowerupBack2, PowerupBack3:
		return true
	}
	return false
}

// powerupSteps is how far skip and back powerups move.
func powerupSteps(id string) int {
	switch id {
	case PowerupSkip1, PowerupBack1:
		return 1
	case PowerupSkip2, PowerupBack2:
		return 2
	case PowerupSkip3, PowerupBack3:
		return 3
	}
	return 0
}

// doubleDifficulty is the difficulty a Double powerup needs (0 otherwise).
func doubleDifficulty(id string) Difficulty {
	switch id {
	case PowerupDoubleEasy:
		return Easy
	case PowerupDoubleMedium:
		return Medium
	case PowerupDoubleHard:
		return Hard
	}
	return 0
}

// PowerupName is the display name of powerup id (id itself if unknown).
func PowerupName(id string) string {
	for _, p := range Powerups() {
		if p.ID == id {
			return p.Name
		}
	}
	return id
}

// PowerupUsedData is the data of EventPowerupUsed. Labels are given only
// for tiles players can see.
type PowerupUsedData struct {
	Team        string `json:"team"`
	TeamName    string `json:"teamName"`
	Powerup     string `json:"powerup"`
	PowerupName string `json:"powerupName"`
	Target      string `json:"target,omitempty"`     // back1–3, disablePowerup
	TargetName  string `json:"targetName,omitempty"` // back1–3, disablePowerup
	Tile        int    `json:"tile,omitempty"`       // copypaste destination, changeTile, doubleX
	Source      int    `json:"source,omitempty"`     // copypaste: the tile copied from
	Removed     string `json:"removed,omitempty"`    // disablePowerup
	Duplicated  string `json:"duplicated,omitempty"` // doublePowerup
	From        int    `json:"from,omitempty"`       // skip/back: the moved team's position before
	To          int    `json:"to,omitempty"`         // and after
	FromLabel   string `json:"fromLabel,omitempty"`
	ToLabel     string `json:"toLabel,omitempty"`
	Label       string `json:"label,omitempty"` // the tile's label after copypaste/changeTile
	By          string `json:"by,omitempty"`
}

// PowerupResult is the result of UsePowerup.
type PowerupResult struct {
	Powerup   string   `json:"powerup"`
	Position  int      `json:"position"` // the team's position now
	Cooldown  bool     `json:"cooldown"`
	Inventory []string `json:"inventory"`
	// Target and TargetPosition: the team sent back or disabled.
	Target         string `json:"target,omitempty"`
	TargetPosition int    `json:"targetPosition,omitempty"`
	Tile           int    `json:"tile,omitempty"`
	Label          string `json:"label,omitempty"` // the modified tile's label (it is revealed)
}

// UsePowerup uses a powerup from the team's inventory (rulings 11–14; seed
// "Powerup System"). The powerup must be held and the team must not be on
// cooldown (Clear Cooldown is the one powerup used during a cooldown, and
// only then). A use spends one of the powerup and sets the cooldown (Clear
// Cooldown clears it); completing a tile and the admins' setCooldown clear
// it too. A refused use changes nothing.
//
//   - skip1–3 move the team forward, never onto or past the final tile; the
//     fog lifts as far as the new position reveals.
//   - back1–3 move another team back, to tile 1 at the lowest (at tile 1
//     nothing moves, the powerup is spent).
//   - Moves reset the moved team's progress and count in Moves; skipped tiles
//     give nothing.
//   - copypaste copies the task of the team's current tile onto a clean,
//     revealed tile of equal or lower difficulty without a reward or a team.
//   - changeTile swaps an unmodified revealed tile's task for an unused pool
//     task of its difficulty (rolled with dice); the old task goes back to
//     the pool.
//   - doubleEasy/Medium/Hard double min and max of a revealed tile of that
//     difficulty that is not doubled yet and has no team on it; the tile is
//     then locked.
//   - disablePowerup removes one named powerup from another team.
//   - doublePowerup adds a copy of another powerup the team holds.
//
// The final tile is never a target. Only tiles players can see are targets.
//
// Reads and writes: see PowerupReads; writes the team, the target (when it
// changes), the board and its public projection (tile modifications; skips
// that move the frontier) and the pools (changeTile).
//
// Errors: EFORBIDDEN; ENOTFOUND (target not on the roster); EINVALID
// (unknown powerup, missing or unused fields, the final tile, oneself as
// target); ECONFLICT (race not running, powerup not held, cooldown, and
// every Cannot of the seed's lists).
func UsePowerup(c Ctx, v Values, req PowerupRequest, dice domain.Dice) (Values, Outcome, error) {
	var o Outcome
	g, t := v.Game, v.Team
	if err := sameTeam(req.Team, t); err != nil {
		return v, o, err
	}
	if err := Authorize(g, c.Actor, ActionUsePowerup, t.ID); err != nil {
		return v, o, err
	}
	if err := raceOn(g); err != nil {
		return v, o, err
	}
	if req.Powerup == "" {
		return v, o, domain.Errorf(domain.EINVALID, "powerup is required")
	}
	id, ok := PowerupByID(req.Powerup)
	if !ok {
		return v, o, domain.Errorf(domain.EINVALID, "unknown powerup %q", req.Powerup)
	}
	if err := checkPowerupFields(id, req); err != nil {
		return v, o, err
	}
	held := slices.Index(t.Inventory, id)
	if held < 0 {
		return v, o, domain.Errorf(domain.ECONFLICT, "team %s holds no %s", t.Name, PowerupName(id))
	}
	if id == PowerupClearCooldown {
		if !t.Cooldown {
			return v, o, domain.Errorf(domain.ECONFLICT, "team %s is not on cooldown: nothing to clear", t.Name)
		}
	} else if t.Cooldown {
		return v, o, domain.Errorf(domain.ECONFLICT, "team %s is on cooldown: complete a tile or use Clear Cooldown first", t.Name)
	}

	nv := v
	nv.Game, nv.Team = g.clone(), t.clone()
	nv.Team.Inventory = slices.Delete(nv.Team.Inventory, held, held+1)
	nv.Team.Cooldown = id != PowerupClearCooldown
	o.write(DocTeam)
	by := c.by(g)
	data := PowerupUsedData{Team: t.ID, TeamName: t.Name, Powerup: id, PowerupName: PowerupName(id), By: by}
	res := PowerupResult{Powerup: id}
	var err error
	switch {
	case id == PowerupClearCooldown:
	case id == PowerupDoublePowerup:
		err = doublePowerup(&nv, &data, req)
	case id == PowerupDisablePowerup:
		err = disablePowerup(&nv, &o, &data, &res, req)
	case id == PowerupSkip1 || id == PowerupSkip2 || id == PowerupSkip3:
		err = skip(&nv, &o, &data, id, by)
	case powerupUses(id) == usesTarget:
		err = back(&nv, &o, &data, &res, id, req, by)
	default:
		err = modifyTile(&nv, &o, &data, &res, id, req, dice)
	}
	if err != nil {
		return v, Outcome{}, err
	}
	used := domain.Event{Type: EventPowerupUsed, Player: t.ID, Data: data}
	o.Events = append([]domain.Event{used}, o.Events...)
	res.Position, res.Cooldown = nv.Team.Position, nv.Team.Cooldown
	res.Inventory = append([]string{}, nv.Team.Inventory...)
	o.Result = res
	return nv, o, nil
}

// checkPowerupFields refuses a request that leaves out a field the powerup
// needs or gives one it does not take.
func checkPowerupFields(id string, req PowerupRequest) error {
	target, tile, remove, duplicate := PowerupFields(id)
	for _, f := range []struct {
		name  string
		takes bool
		given bool
		what  string
	}{
		{"target", target, req.Target != "", "the team to target"},
		{"tile", tile, req.Tile != 0, "the tile to modify"},
		{"remove", remove, req.Remove != "", "the powerup to take from the target"},
		{"duplicate", duplicate, req.Duplicate != "", "the powerup to duplicate"},
	} {
		switch {
		case f.takes && !f.given:
			return domain.Errorf(domain.EINVALID, "%s is required for %s: %s", f.name, PowerupName(id), f.what)
		case !f.takes && f.given:
			return domain.Errorf(domain.EINVALID, "%s is not used by %s", f.name, PowerupName(id))
		}
	}
	if tile && (req.Tile < 1 || req.Tile > NumTiles) {
		return domain.Errorf(domain.EINVALID, "tile must be between 1 and %d, not %d", NumTiles, req.Tile)
	}
	return nil
}

// label is tile n's label if players can see it, "" otherwise.
func label(g Game, b Board, n int) string {
	if !g.Visible(n, false) {
		return ""
	}
	tile, _ := b.Tile(n)
	return tile.Label
}

func doublePowerup(v *Values, data *PowerupUsedData, req PowerupRequest) error {
	dup, ok := PowerupByID(req.Duplicate)
	if !ok {
		return domain.Errorf(domain.EINVALID, "duplicate: unknown powerup %q", req.Duplicate)
	}
	if dup == PowerupDoublePowerup {
		return domain.Errorf(domain.EINVALID, "Double Powerup cannot duplicate a Double Powerup")
	}
	if !slices.Contains(v.Team.Inventory, dup) {
		return domain.Errorf(domain.ECONFLICT, "team %s holds no %s to duplicate", v.Team.Name, PowerupName(dup))
	}
	v.Team.Inventory = append(v.Team.Inventory, dup)
	data.Duplicated = dup
	return nil
}

// target checks the target team of a back or disablePowerup.
func target(v *Values, req PowerupRequest, what string) error {
	if req.Target == v.Team.ID {
		return domain.Errorf(domain.EINVALID, "a team cannot %s; target another team", what)
	}
	if _, ok := v.Game.TeamRef(req.Target); !ok {
		return domain.Errorf(domain.ENOTFOUND, "there is no team %q", req.Target)
	}
	if v.Target.ID != req.Target {
		return domain.Errorf(domain.EINVALID, "the request targets team %q but team %q was loaded", req.Target, v.Target.ID)
	}
	return nil
}

func disablePowerup(v *Values, o *Outcome, data *PowerupUsedData, res *PowerupResult, req PowerupRequest) error {
	if err := target(v, req, "disable its own powerups"); err != nil {
		return err
	}
	rm, ok := PowerupByID(req.Remove)
	if !ok {
		return domain.Errorf(domain.EINVALID, "remove: unknown powerup %q", req.Remove)
	}
	tg := v.Target
	if len(tg.Inventory) == 0 {
		return domain.Errorf(domain.ECONFLICT, "team %s holds no powerups", tg.Name)
	}
	i := slices.Index(tg.Inventory, rm)
	if i < 0 {
		return domain.Errorf(domain.ECONFLICT, "team %s holds no %s", tg.Name, PowerupName(rm))
	}
	tg = tg.clone()
	tg.Inventory = slices.Delete(tg.Inventory, i, i+1)
	v.Target = tg
	o.write(DocTarget)
	data.Target, data.TargetName, data.Removed = tg.ID, tg.Name, rm
	res.Target, res.TargetPosition = tg.ID, tg.Position
	return nil
}

// move puts team t on tile to: progress resets, the move counts.
func move(t *Team, to int) {
	t.Position = to
	t.Moves++
	t.Progress = []string{}
}

func skip(v *Values, o *Outcome, data *PowerupUsedData, id, by string) error {
	from := v.Team.Position
	to := from + powerupSteps(id)
	if to >= FinalTile {
		return domain.Errorf(domain.ECONFLICT, "%s would take team %s from tile %d to tile %d: a skip may not move onto or past the final tile (%d)",
			PowerupName(id), v.Team.Name, from, to, FinalTile)
	}
	move(&v.Team, to)
	o.emit(EventTeamMoved, v.Team.ID, MovedData{Team: v.Team.ID, TeamName: v.Team.Name, From: from, To: to, By: by})
	revealFor(&v.Game, o, to)
	data.From, data.To = from, to
	data.FromLabel, data.ToLabel = label(v.Game, v.Board, from), label(v.Game, v.Board, to)
	return nil
}

func back(v *Values, o *Outcome, data *PowerupUsedData, res *PowerupResult, id string, req PowerupRequest, by string) error {
	if err := target(v, req, "send itself back"); err != nil {
		return err
	}
	tg := v.Target
	from := tg.Position
	to := max(1, from-powerupSteps(id))
	if to != from {
		tg = tg.clone()
		move(&tg, to)
		v.Target = tg
		o.write(DocTarget)
		o.emit(EventTeamMoved, tg.ID, MovedData{Team: tg.ID, TeamName: tg.Name, From: from, To: to, By: by})
	}
	data.Target, data.TargetName = tg.ID, tg.Name
	data.From, data.To = from, to
	data.FromLabel, data.ToLabel = label(v.Game, v.Board, from), label(v.Game, v.Board, to)
	res.Target, res.TargetPosition = tg.ID, to
	return nil
}

// modifyTile applies copypaste, changeTile or doubleX to tile req.Tile.
func modifyTile(v *Values, o *Outcome, data *PowerupUsedData, res *PowerupResult, id string, req PowerupRequest, dice domain.Dice) error {
	g, n := v.Game, req.Tile
	if n == FinalTile {
		return domain.Errorf(domain.EINVALID, "the final tile (%d) is never modified by powerups", FinalTile)
	}
	if err := checkBoard(v.Board); err != nil {
		return err
	}
	// Before anything that looks at the tile's content: a refusal must not
	// tell what a hidden tile holds.
	if !g.Visible(n, false) {
		return domain.Errorf(domain.ECONFLICT, "tile %d is hidden by the fog of war: only revealed tiles can be targeted", n)
	}
	if id == PowerupCopyPaste && n == v.Team.Position {
		return domain.Errorf(domain.ECONFLICT, "tile %d is your own tile: paste onto another tile", n)
	}
	if err := noTeamOn(v, n); err != nil {
		return err
	}
	tile, _ := v.Board.Tile(n)
	b := v.Board.clone()
	changed := []int{n}
	switch id {
	case PowerupCopyPaste:
		src, _ := v.Board.Tile(v.Team.Position)
		if src.N == FinalTile {
			return domain.Errorf(domain.ECONFLICT, "the final tile's task cannot be copied: the final tile is never modified")
		}
		if err := pasteTarget(tile, src); err != nil {
			return err
		}
		tile.Task = src.Task
		tile.TaskID = src.TaskID
		tile.Mods = Mods{Pasted: true, PastedFrom: src.N, DifficultyPoints: src.Mods.DifficultyPoints}
		src.Mods.CopySource = true
		b.Tiles[src.N-1] = src
		changed = append(changed, src.N)
		data.Source = src.N
	case PowerupChangeTile:
		if err := changeTarget(tile); err != nil {
			return err
		}
		p := v.Pools.clone()
		pool := p.Pool(tile.Difficulty)
		var unused []int
		for i, pt := range *pool {
			if !pt.Used {
				unused = append(unused, i)
			}
		}
		if len(unused) == 0 {
			return domain.Errorf(domain.ECONFLICT, "the %s pool has no unused task left for Change Tile; ask an admin to add tasks", tile.Difficulty)
		}
		if dice == nil {
			return domain.Errorf(domain.ECONFLICT, "Change Tile needs dice")
		}
		pick := unused[dice.Roll(len(unused))-1]
		task := (*pool)[pick]
		(*pool)[pick].Used = true
		if old, i := p.find(tile.TaskID); tile.TaskID != "" && i >= 0 {
			(*old)[i].Used = false
		} else if tile.TaskID == "" && len(*pool) < MaxPoolTasks {
			// Content an admin typed becomes a pool task, so it goes back too.
			*pool = append(*pool, PoolTask{ID: nextTaskID(&p), Task: tile.Task})
		}
		d := tile.Difficulty
		tile.Task = task.Task
		tile.Difficulty = d // a pool task's is its pool's; this says so whatever the pool holds
		tile.TaskID = task.ID
		tile.Mods = Mods{Changed: true}
		v.Pools = p
		o.write(DocPools)
	default:
		want := doubleDifficulty(id)
		if tile.Difficulty != want {
			return domain.Errorf(domain.ECONFLICT, "%s only targets %s tiles; tile %d is %s", PowerupName(id), want, n, tile.Difficulty)
		}
		if tile.Mods.Doubled {
			return domain.Errorf(domain.ECONFLICT, "tile %d is already doubled", n)
		}
		if tile.Max <= 1 {
			tile.Mods.DifficultyPoints = true
		}
		tile.Min *= 2
		tile.Max *= 2
		tile.Mods.Doubled = true
	}
	b.Tiles[n-1] = tile
	v.Board = b
	o.write(DocBoard)
	o.publish(visibleToPlayers(g, changed)...)
	data.Tile = n
	data.Label = label(g, b, n)
	res.Tile, res.Label = n, data.Label
	return nil
}

// noTeamOn refuses tile n when a team on the roster stands on it. Teams are
// every team read (the acting team's own value is the one it acts with).
func noTeamOn(v *Values, n int) error {
	for _, ref := range v.Game.Teams {
		pos := -1
		if ref.ID == v.Team.ID {
			pos = v.Team.Position
		} else {
			for _, t := range v.Teams {
				if t.ID == ref.ID {
					pos = t.Position
				}
			}
		}
		if pos < 0 {
			return domain.Errorf(domain.ECONFLICT, "team %q was not loaded", ref.ID)
		}
		if pos == n {
			return domain.Errorf(domain.ECONFLICT, "team %s is on tile %d: tiles with teams on them cannot be targeted", ref.Name, n)
		}
	}
	return nil
}

// pasteTarget applies the seed's Copy and Paste list to destination tile.
func pasteTarget(tile, src Tile) error {
	n := tile.N
	switch {
	case tile.Reward != "":
		return domain.Errorf(domain.ECONFLICT, "tile %d gives a powerup reward: reward tiles cannot be pasted onto", n)
	case tile.Mods.Changed:
		return domain.Errorf(domain.ECONFLICT, "tile %d was changed: changed tiles cannot be pasted onto", n)
	case tile.Mods.Doubled:
		return domain.Errorf(domain.ECONFLICT, "tile %d is doubled: doubled tiles cannot be pasted onto", n)
	case tile.Mods.CopySource:
		return domain.Errorf(domain.ECONFLICT, "tile %d was copied from: it cannot be pasted onto", n)
	case tile.Mods.Pasted:
		return domain.Errorf(domain.ECONFLICT, "tile %d already received a pasted task", n)
	case tile.Difficulty > src.Difficulty:
		return domain.Errorf(domain.ECONFLICT, "tile %d is %s, harder than your tile's %s task: paste onto tiles of equal or lower difficulty", n, tile.Difficulty, src.Difficulty)
	}
	return nil
}

// changeTarget applies the seed's Change Tile list: unmodified tiles only.
func changeTarget(tile Tile) error {
	n := tile.N
	switch {
	case tile.Mods.Changed:
		return domain.Errorf(domain.ECONFLICT, "tile %d was already changed", n)
	case tile.Mods.Pasted || tile.Mods.CopySource:
		return domain.Errorf(domain.ECONFLICT, "tile %d was copied: Change Tile takes unmodified tiles only", n)
	case tile.Mods.Doubled:
		return domain.Errorf(domain.ECONFLICT, "tile %d is doubled: Change Tile takes unmodified tiles only", n)
	}
	return nil
}
