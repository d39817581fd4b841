package codebowl

import (
	"fmt"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// Player is one member of a coach's team, as the team document holds it.
// Stats: ST (strength), AG (agility), MV (movement) share StatBudget points,
// each at least MinStat; AR (armor, used only by matches with the armor
// option) is MinArmor…MaxArmor, and a team's seven AR sum to ArmorBudget.
type Player struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Image string `json:"image,omitempty"` // https URL; empty for the client's default
	ST    int    `json:"st"`
	AG    int    `json:"ag"`
	MV    int    `json:"mv"`
	AR    int    `json:"ar"`
	// Dead players were injured in a match (ruling 7). They stay in their slot,
	// for the record, until RestartTeam replaces them, and never play again.
	Dead bool `json:"dead,omitempty"`
}

// Team is a coach's team: its own document on the platform, outside any
// match. Only its coach edits it, and not while it plays (Match set).
type Team struct {
	ID      string           `json:"id"`
	Coach   string           `json:"coach"` // the coach's account id
	Name    string           `json:"name"`
	Image   string           `json:"image,omitempty"` // https URL
	Players [TeamSize]Player `json:"players"`
	// Match is the id of the match the team is playing in; while it is set the
	// team is locked: EditTeam and RestartTeam refuse, and it cannot enter
	// another match. See LockTeam and UnlockTeam.
	Match string `json:"match,omitempty"`
	// NextPlayer numbers the next player created for the team: player ids are
	// "<team id>.<n>", never reused, so a dead player's id stays his.
	NextPlayer int `json:"nextPlayer"`
	// Restarts counts RestartTeam calls that replaced dead players.
	Restarts int `json:"restarts"`
}

// PlayerSpec is what a coach chooses for a player.
type PlayerSpec struct {
	Name  string `json:"name" field:"text,max=30"`            // at most MaxPlayerName
	Image string `json:"image,omitempty" field:"url,max=500"` // at most MaxImageURL
	ST    int    `json:"st" field:"int,min=0,max=12"`
	AG    int    `json:"ag" field:"int,min=0,max=12"`
	MV    int    `json:"mv" field:"int,min=0,max=12"`
	AR    int    `json:"ar,omitempty" field:"int,min=0,max=6"` // 0 on every player: DefaultArmor each
}

// TeamSpec is what a coach chooses for a team.
type TeamSpec struct {
	Name    string       `json:"name" field:"text,max=40"`            // at most MaxTeamName
	Image   string       `json:"image,omitempty" field:"url,max=500"` // at most MaxImageURL
	Players []PlayerSpec `json:"players" field:"list,max=7"`          // TeamSize
}

// Alive returns how many of t's players are not dead.
func (t Team) Alive() int {
	n := 0
	for _, p := range t.Players {
		if !p.Dead {
			n++
		}
	}
	return n
}

// playerID is the id of the n-th player created for team id.
func playerID(teamID string, n int) string { return fmt.Sprintf("%s.%d", teamID, n) }

// NewTeam creates coach's team id from spec: names and URLs are trimmed, a
// spec with AR 0 on every player gets DefaultArmor on each, and the players
// get ids "<id>.1" … "<id>.7".
//
// Errors: EINVALID naming the field at fault (see ValidateTeam).
func NewTeam(id, coach string, spec TeamSpec) (Team, error) {
	if err := checkID("team id", id); err != nil {
		return Team{}, err
	}
	if err := checkID("coach", coach); err != nil {
		return Team{}, err
	}
	if len(spec.Players) != TeamSize {
		return Team{}, domain.Errorf(domain.EINVALID, "players: a team has exactly %d players, not %d", TeamSize, len(spec.Players))
	}
	t := Team{ID: id, Coach: coach, NextPlayer: 1}
	applySpec(&t, spec)
	for i := range t.Players {
		t.Players[i].ID = playerID(id, t.NextPlayer)
		t.NextPlayer++
	}
	if err := ValidateTeam(t); err != nil {
		return Team{}, err
	}
	return t, nil
}

// applySpec writes spec's name, image and the living players' choices into t.
// Dead players keep what they had.
func applySpec(t *Team, spec TeamSpec) {
	t.Name, t.Image = strings.TrimSpace(spec.Name), strings.TrimSpace(spec.Image)
	defaultArmor := true
	for _, p := range spec.Players {
		if p.AR != 0 {
			defaultArmor = false
		}
	}
	for i, ps := range spec.Players {
		p := &t.Players[i]
		if p.Dead {
			continue
		}
		p.Name, p.Image = strings.TrimSpace(ps.Name), strings.TrimSpace(ps.Image)
		p.ST, p.AG, p.MV, p.AR = ps.ST, ps.AG, ps.MV, ps.AR
		if defaultArmor {
			p.AR = DefaultArmor
		}
	}
}

// coachCheck refuses a caller who is not t's coach, and a locked team.
func coachCheck(t Team, coach, what string) error {
	if coach == "" || coach != t.Coach {
		return domain.Errorf(domain.EFORBIDDEN, "only the team's coach may %s it", what)
	}
	if t.Match != "" {
		return domain.Errorf(domain.ECONFLICT, "the team is playing match %s: %s it after the match", t.Match, what)
	}
	return nil
}

// EditTeam returns t with spec's name, image and players: spec.Players[i]
// edits the player in slot i, keeping his id. Entries for dead players are
// ignored (RestartTeam replaces them). AR 0 on every entry means DefaultArmor
// on each living player.
//
// Errors: EFORBIDDEN (coach is not t's coach), ECONFLICT (t is locked in a
// match), EINVALID naming the field at fault.
func EditTeam(t Team, coach string, spec TeamSpec) (Team, error) {
	if err := coachCheck(t, coach, "edit"); err != nil {
		return t, err
	}
	if len(spec.Players) != TeamSize {
		return t, domain.Errorf(domain.EINVALID, "players: a team has exactly %d players, not %d", TeamSize, len(spec.Players))
	}
	next := t // Players is an array: a copy
	applySpec(&next, spec)
	if err := ValidateTeam(next); err != nil {
		return t, err
	}
	return next, nil
}

// RestartTeam replaces t's dead players with new ones and keeps every
// survivor as he is (his stats are the coach's investment). fresh holds the
// new players in slot order, one per dead player; empty fresh makes each a
// rookie: "Rookie <n>", no image, ST/AG/MV 4/4/4 and the dead player's AR (so
// the armor budget still holds). New players get new ids.
//
// Errors: EFORBIDDEN (not t's coach), ECONFLICT (t is locked in a match, or
// has no dead player), EINVALID (len(fresh) is neither 0 nor the number of
// dead players, or a field at fault).
func RestartTeam(t Team, coach string, fresh []PlayerSpec) (Team, error) {
	if err := coachCheck(t, coach, "restart"); err != nil {
		return t, err
	}
	dead := TeamSize - t.Alive()
	switch {
	case dead == 0:
		return t, domain.Errorf(domain.ECONFLICT, "the team has no dead player to replace")
	case len(fresh) != 0 && len(fresh) != dead:
		return t, domain.Errorf(domain.EINVALID, "players: %d new players for %d dead ones", len(fresh), dead)
	}
	next := t
	k := 0
	for i, p := range t.Players {
		if !p.Dead {
			continue
		}
		np := Player{ID: playerID(t.ID, next.NextPlayer), AR: p.AR}
		next.NextPlayer++
		if len(fresh) == 0 {
			np.Name = fmt.Sprintf("Rookie %d", next.NextPlayer-1)
			np.ST, np.AG, np.MV = 4, 4, 4
		} else {
			f := fresh[k]
			np.Name, np.Image = strings.TrimSpace(f.Name), strings.TrimSpace(f.Image)
			np.ST, np.AG, np.MV = f.ST, f.AG, f.MV
			if f.AR != 0 {
				np.AR = f.AR
			}
		}
		k++
		next.Players[i] = np
	}
	next.Restarts++
	if err := ValidateTeam(next); err != nil {
		return t, err
	}
	return next, nil
}

// RemoveDead marks the players named by ids dead. It is idempotent: ids that
// are already dead, or not in the team, change nothing, and changed reports
// whether anything did. The platform calls it with the players of each
// playerKilled event, in the transaction that records the event; it works on a
// locked team.
func RemoveDead(t Team, ids []string) (Team, bool) {
	changed := false
	for _, id := range ids {
		for i := range t.Players {
			if p := &t.Players[i]; p.ID == id && !p.Dead {
				p.Dead = true // t is a copy; Players an array
				changed = true
			}
		}
	}
	return t, changed
}

// LockTeam marks t as playing match id. Locking it again for the same match
// changes nothing.
//
// Errors: ECONFLICT (t plays another match, or has no living player),
// EINVALID (empty id).
func LockTeam(t Team, matchID string) (Team, error) {
	switch {
	case matchID == "":
		return t, domain.Errorf(domain.EINVALID, "match id is required")
	case t.Match == matchID:
		return t, nil
	case t.Match != "":
		return t, domain.Errorf(domain.ECONFLICT, "the team is already playing match %s", t.Match)
	case t.Alive() == 0:
		return t, domain.Errorf(domain.ECONFLICT, "every player of the team is dead: restart the team first")
	}
	t.Match = matchID
	return t, nil
}

// UnlockTeam releases t from match id (when that match is over). A team not
// locked by that match is returned as it is, with changed false.
func UnlockTeam(t Team, matchID string) (Team, bool) {
	if matchID == "" || t.Match != matchID {
		return t, false
	}
	t.Match = ""
	return t, true
}
