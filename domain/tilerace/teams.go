package tilerace

import (
	"fmt"
	"slices"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// CreateTeamRequest is the payload of "createTeam" (ruling 2).
type CreateTeamRequest struct {
	Name    string   `json:"name" field:"text,max=40"`
	Color   string   `json:"color,omitempty" field:"text,max=16"`            // "#rrggbb", no other team's; empty picks the first palette colour no team has
	Members []string `json:"members" field:"list,max=50" elem:"text,max=40"` // the first is the captain
	Slot    int      `json:"slot,omitempty" field:"int,min=0,max=5"`         // Discord webhook slot 1..5, 0 for none
}

// cleanMembers checks a member list: 1..MaxMembers names, unique ignoring
// case.
func cleanMembers(members []string) ([]string, error) {
	if len(members) == 0 {
		return nil, domain.Errorf(domain.EINVALID, "a team needs at least one member (the first is the captain)")
	}
	if len(members) > MaxMembers {
		return nil, domain.Errorf(domain.EINVALID, "a team has at most %d members", MaxMembers)
	}
	out := make([]string, 0, len(members))
	seen := map[string]bool{}
	for _, m := range members {
		name, err := cleanName("member name", m)
		if err != nil {
			return nil, err
		}
		k := strings.ToLower(name)
		if seen[k] {
			return nil, domain.Errorf(domain.EINVALID, "member %q is listed twice", name)
		}
		seen[k] = true
		out = append(out, name)
	}
	return out, nil
}

func checkSlot(slot int) error {
	if slot < 0 || slot > 5 {
		return domain.Errorf(domain.EINVALID, "the Discord slot must be 1 to 5 (or 0 for none), not %d", slot)
	}
	return nil
}

// nameTaken reports whether another team than except already has name.
func nameTaken(g Game, name, except string) bool {
	for _, r := range g.Teams {
		if r.ID != except && strings.EqualFold(r.Name, name) {
			return true
		}
	}
	return false
}

// colorTaken names the team other than except that has color: teams are
// told apart on the board and in Discord by their colour (with their name).
func colorTaken(g Game, color, except string) (string, bool) {
	for _, r := range g.Teams {
		if r.ID != except && strings.EqualFold(r.Color, color) {
			return r.Name, true
		}
	}
	return "", false
}

// freeColor is the first palette colour no team has; once all are taken,
// the palette again in turn (more teams than colours share one, and the
// board tells them apart by name and pattern).
func freeColor(g Game) string {
	for _, c := range Palette {
		if _, ok := colorTaken(g, c, ""); !ok {
			return c
		}
	}
	return Palette[len(g.Teams)%len(Palette)]
}

// CreateTeam adds team id (chosen by the functions layer) to the game: on
// tile 1, with an empty inventory and no cooldown. The team's password is set
// by the functions layer, which keeps only its hash.
//
// Reads the game; writes the game (roster) and the new team.
//
// Errors: EFORBIDDEN; EINVALID (bad id, name, colour, members, slot);
// EEXISTS (id, name or colour taken); ECONFLICT (race over, too many teams).
func CreateTeam(c Ctx, g Game, id string, req CreateTeamRequest) (Game, Team, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionCreateTeam, ""); err != nil {
		return g, Team{}, o, err
	}
	if err := notFinished(g); err != nil {
		return g, Team{}, o, err
	}
	if !validID(id) {
		return g, Team{}, o, domain.Errorf(domain.EINVALID, "team id must be 1 to %d characters without '/'", maxIDLen)
	}
	if _, ok := g.TeamRef(id); ok {
		return g, Team{}, o, domain.Errorf(domain.EEXISTS, "there is already a team with id %q", id)
	}
	if len(g.Teams) >= MaxTeams {
		return g, Team{}, o, domain.Errorf(domain.ECONFLICT, "a game has at most %d teams", MaxTeams)
	}
	name, err := cleanName("team name", req.Name)
	if err != nil {
		return g, Team{}, o, err
	}
	if nameTaken(g, name, "") {
		return g, Team{}, o, domain.Errorf(domain.EEXISTS, "there is already a team called %s", name)
	}
	color := freeColor(g)
	if req.Color != "" {
		if color, err = cleanColor(req.Color); err != nil {
			return g, Team{}, o, err
		}
		if other, ok := colorTaken(g, color, ""); ok {
			return g, Team{}, o, domain.Errorf(domain.EEXISTS, "color: team %s already has colour %s (leave it empty for a free one)", other, color)
		}
	}
	members, err := cleanMembers(req.Members)
	if err != nil {
		return g, Team{}, o, err
	}
	if err := checkSlot(req.Slot); err != nil {
		return g, Team{}, o, err
	}
	t := Team{ID: id, Name: name, Color: color, Captain: members[0], Members: members, Position: 1,
		Progress: []string{}, Inventory: []string{}, Slot: req.Slot, CreatedAt: c.Now.UTC()}
	g = g.clone()
	g.Teams = append(g.Teams, TeamRef{ID: id, Name: name, Color: color, Slot: req.Slot})
	o.write(DocGame, DocTeam)
	o.emit(EventTeamCreated, id, TeamData{Team: id, TeamName: name, Color: color, Members: append([]string(nil), members...), Slot: req.Slot, By: c.by(g)})
	o.Result = TeamResult{Team: t}
	return g, t, o, nil
}

// TeamResult is the result of createTeam: the new team, with the id the
// team signs in with.
type TeamResult struct {
	Team Team `json:"team"`
}

// UpdateTeamRequest is the payload of "updateTeam": absent fields stay.
type UpdateTeamRequest struct {
	Team      string    `json:"team" field:"id,max=64"`
	Name      *string   `json:"name,omitempty" field:"text,max=40"`
	Color     *string   `json:"color,omitempty" field:"text,max=16"`
	Members   *[]string `json:"members,omitempty" field:"list,max=50" elem:"text,max=40"` // the whole list; the first is the captain
	Captain   *string   `json:"captain,omitempty" field:"text,max=40"`                    // a member, moved to the front
	Slot      *int      `json:"slot,omitempty" field:"int,min=0,max=5"`
	Inventory *[]string `json:"inventory,omitempty" field:"list,max=100" elem:"text,max=40"` // the whole inventory, in order
	// PasswordChanged is set by the functions layer when the request carries
	// a new password (which it hashes and stores; the domain never sees it),
	// so a password-only update is a change and is logged.
	PasswordChanged bool `json:"-"`
}

// UpdateTeam edits a team's name, colour, members, captain, Discord slot or
// inventory. Position and cooldown have their own actions (MoveTeam,
// SetCooldown).
//
// Reads the game and the team; writes the team, and the game when the name
// or colour (the roster) changes.
//
// Errors: EFORBIDDEN; ENOTFOUND; EINVALID; EEXISTS (name or colour taken); ECONFLICT
// (nothing to change).
func UpdateTeam(c Ctx, g Game, t Team, req UpdateTeamRequest) (Game, Team, Outcome, error) {
	var o Outcome
	if err := sameTeam(req.Team, t); err != nil {
		return g, t, o, err
	}
	if err := Authorize(g, c.Actor, ActionUpdateTeam, t.ID); err != nil {
		return g, t, o, err
	}
	ref, ok := g.TeamRef(t.ID)
	if !ok {
		return g, t, o, domain.Errorf(domain.ENOTFOUND, "there is no team %q", t.ID)
	}
	nt := t.clone()
	var changes []string
	if req.Name != nil {
		name, err := cleanName("team name", *req.Name)
		if err != nil {
			return g, t, o, err
		}
		if nameTaken(g, name, t.ID) {
			return g, t, o, domain.Errorf(domain.EEXISTS, "there is already a team called %s", name)
		}
		if name != nt.Name {
			changes = append(changes, fmt.Sprintf("name %q → %q", nt.Name, name))
			nt.Name = name
		}
	}
	if req.Color != nil {
		color, err := cleanColor(*req.Color)
		if err != nil {
			return g, t, o, err
		}
		if other, ok := colorTaken(g, color, t.ID); ok {
			return g, t, o, domain.Errorf(domain.EEXISTS, "color: team %s already has colour %s", other, color)
		}
		if color != nt.Color {
			changes = append(changes, fmt.Sprintf("colour %s → %s", nt.Color, color))
			nt.Color = color
		}
	}
	if req.Members != nil {
		members, err := cleanMembers(*req.Members)
		if err != nil {
			return g, t, o, err
		}
		if strings.Join(members, "\x00") != strings.Join(nt.Members, "\x00") {
			changes = append(changes, fmt.Sprintf("members: %s", strings.Join(members, ", ")))
			nt.Members = members
		}
	}
	if req.Captain != nil {
		name, err := cleanName("captain", *req.Captain)
		if err != nil {
			return g, t, o, err
		}
		m, ok := nt.member(name)
		if !ok {
			return g, t, o, domain.Errorf(domain.EINVALID, "the captain must be a member; %q is not", name)
		}
		if nt.Members[0] != m {
			rest := []string{m}
			for _, x := range nt.Members {
				if x != m {
					rest = append(rest, x)
				}
			}
			nt.Members = rest
			changes = append(changes, "captain: "+m)
		}
	}
	nt.Captain = nt.Members[0]
	if req.Slot != nil {
		if err := checkSlot(*req.Slot); err != nil {
			return g, t, o, err
		}
		if *req.Slot != nt.Slot {
			changes = append(changes, fmt.Sprintf("Discord slot %d → %d", nt.Slot, *req.Slot))
			nt.Slot = *req.Slot
		}
	}
	if req.Inventory != nil {
		inv, err := cleanInventory(*req.Inventory)
		if err != nil {
			return g, t, o, err
		}
		if strings.Join(inv, ",") != strings.Join(nt.Inventory, ",") {
			changes = append(changes, "inventory: "+strings.Join(inv, ", "))
			nt.Inventory = inv
		}
	}
	if req.PasswordChanged {
		changes = append(changes, "password")
		nt.Gen++ // the old password's sessions end
	}
	if len(changes) == 0 {
		return g, t, o, domain.Errorf(domain.ECONFLICT, "nothing to change")
	}
	o.write(DocTeam)
	if nt.Name != ref.Name || nt.Color != ref.Color || nt.Slot != ref.Slot {
		g = g.clone()
		for i := range g.Teams {
			if g.Teams[i].ID == t.ID {
				g.Teams[i].Name, g.Teams[i].Color, g.Teams[i].Slot = nt.Name, nt.Color, nt.Slot
			}
		}
		o.write(DocGame)
	}
	o.emit(EventTeamUpdated, t.ID, TeamUpdatedData{Team: t.ID, TeamName: nt.Name, Changes: changes, By: c.by(g)})
	return g, nt, o, nil
}

func cleanInventory(ids []string) ([]string, error) {
	if len(ids) > MaxInventory {
		return nil, domain.Errorf(domain.EINVALID, "a team holds at most %d powerups", MaxInventory)
	}
	out := make([]string, 0, len(ids))
	for _, s := range ids {
		id, ok := PowerupByID(s)
		if !ok {
			return nil, domain.Errorf(domain.EINVALID, "unknown powerup %q", s)
		}
		out = append(out, id)
	}
	return out, nil
}

// TeamRequest is the payload of admin actions that only name a team
// ("removeTeam").
type TeamRequest struct {
	Team string `json:"team" field:"id,max=64"`
}

// RemoveTeam removes a team from the roster; the store deletes its document
// (and its password hash). The winner cannot be removed.
//
// Reads the game and the team; writes the game and deletes the team.
//
// Errors: EFORBIDDEN; ENOTFOUND; ECONFLICT (the winner).
func RemoveTeam(c Ctx, g Game, t Team, req TeamRequest) (Game, Outcome, error) {
	var o Outcome
	if err := sameTeam(req.Team, t); err != nil {
		return g, o, err
	}
	if err := Authorize(g, c.Actor, ActionRemoveTeam, t.ID); err != nil {
		return g, o, err
	}
	if _, ok := g.TeamRef(t.ID); !ok {
		return g, o, domain.Errorf(domain.ENOTFOUND, "there is no team %q", t.ID)
	}
	if g.Winner == t.ID {
		return g, o, domain.Errorf(domain.ECONFLICT, "team %s won the race and cannot be removed", t.Name)
	}
	g = g.clone()
	g.Teams = slices.DeleteFunc(slices.Clone(g.Teams), func(r TeamRef) bool { return r.ID == t.ID })
	o.write(DocGame)
	o.Deletes = []Doc{DocTeam}
	o.emit(EventTeamRemoved, t.ID, TeamData{Team: t.ID, TeamName: t.Name, By: c.by(g)})
	return g, o, nil
}

// MoveRequest is the payload of "moveTeam".
type MoveRequest struct {
	Team string `json:"team" field:"id,max=64"`
	To   int    `json:"to" field:"int,min=0,max=56"` // 1..56
}

// MoveTeam puts a team on another tile: its progress resets (points already
// earned stay) and the fog lifts as far as the new position reveals. Moving
// onto the final tile does not win; completing it does.
//
// Reads the game and the team; writes the team, and the game when the reveal
// frontier moves.
//
// Errors: EFORBIDDEN; ENOTFOUND; EINVALID (bad tile); ECONFLICT (race not
// running, already there).
func MoveTeam(c Ctx, g Game, t Team, req MoveRequest) (Game, Team, Outcome, error) {
	var o Outcome
	if err := sameTeam(req.Team, t); err != nil {
		return g, t, o, err
	}
	if err := Authorize(g, c.Actor, ActionMoveTeam, t.ID); err != nil {
		return g, t, o, err
	}
	if _, ok := g.TeamRef(t.ID); !ok {
		return g, t, o, domain.Errorf(domain.ENOTFOUND, "there is no team %q", t.ID)
	}
	if err := raceOn(g); err != nil {
		return g, t, o, err
	}
	if req.To < 1 || req.To > NumTiles {
		return g, t, o, domain.Errorf(domain.EINVALID, "tile must be between 1 and %d, not %d", NumTiles, req.To)
	}
	if req.To == t.Position {
		return g, t, o, domain.Errorf(domain.ECONFLICT, "team %s is already on tile %d", t.Name, req.To)
	}
	g, t2 := g.clone(), t.clone()
	from := t2.Position
	t2.Position = req.To
	t2.Moves++
	t2.Progress = []string{}
	o.write(DocTeam)
	o.emit(EventTeamMoved, t.ID, MovedData{Team: t.ID, TeamName: t.Name, From: from, To: req.To, By: c.by(g)})
	revealFor(&g, &o, t2.Position)
	return g, t2, o, nil
}

// GrantRequest is the payload of "grantPowerup".
type GrantRequest struct {
	Team    string `json:"team" field:"id,max=64"`
	Powerup string `json:"powerup" field:"text,max=40"` // as PowerupByID reads it
}

// GrantPowerup adds a powerup to a team's inventory.
//
// Reads the game and the team; writes the team.
//
// Errors: EFORBIDDEN; ENOTFOUND; EINVALID (unknown powerup); ECONFLICT (race
// over, inventory full).
func GrantPowerup(c Ctx, g Game, t Team, req GrantRequest) (Team, Outcome, error) {
	var o Outcome
	if err := sameTeam(req.Team, t); err != nil {
		return t, o, err
	}
	if err := Authorize(g, c.Actor, ActionGrantPowerup, t.ID); err != nil {
		return t, o, err
	}
	if _, ok := g.TeamRef(t.ID); !ok {
		return t, o, domain.Errorf(domain.ENOTFOUND, "there is no team %q", t.ID)
	}
	if err := notFinished(g); err != nil {
		return t, o, err
	}
	id, ok := PowerupByID(req.Powerup)
	if !ok {
		return t, o, domain.Errorf(domain.EINVALID, "unknown powerup %q", req.Powerup)
	}
	if len(t.Inventory) >= MaxInventory {
		return t, o, domain.Errorf(domain.ECONFLICT, "team %s holds %d powerups, the most a team can hold", t.Name, MaxInventory)
	}
	t = t.clone()
	t.Inventory = append(t.Inventory, id)
	o.write(DocTeam)
	o.emit(EventPowerupGained, t.ID, PowerupGainedData{Team: t.ID, TeamName: t.Name, Powerup: id, Granted: true, By: c.by(g)})
	return t, o, nil
}

// CooldownRequest is the payload of "setCooldown".
type CooldownRequest struct {
	Team     string `json:"team" field:"id,max=64"`
	Cooldown bool   `json:"cooldown"`
}

// SetCooldown turns a team's powerup cooldown on or off.
//
// Reads the game and the team; writes the team.
//
// Errors: EFORBIDDEN; ENOTFOUND; ECONFLICT (race over, already so).
func SetCooldown(c Ctx, g Game, t Team, req CooldownRequest) (Team, Outcome, error) {
	var o Outcome
	if err := sameTeam(req.Team, t); err != nil {
		return t, o, err
	}
	if err := Authorize(g, c.Actor, ActionSetCooldown, t.ID); err != nil {
		return t, o, err
	}
	if _, ok := g.TeamRef(t.ID); !ok {
		return t, o, domain.Errorf(domain.ENOTFOUND, "there is no team %q", t.ID)
	}
	if err := notFinished(g); err != nil {
		return t, o, err
	}
	if t.Cooldown == req.Cooldown {
		state := "off"
		if t.Cooldown {
			state = "on"
		}
		return t, o, domain.Errorf(domain.ECONFLICT, "team %s's cooldown is already %s", t.Name, state)
	}
	t = t.clone()
	t.Cooldown = req.Cooldown
	o.write(DocTeam)
	o.emit(EventCooldownSet, t.ID, CooldownData{Team: t.ID, TeamName: t.Name, Cooldown: t.Cooldown, By: c.by(g)})
	return t, o, nil
}
