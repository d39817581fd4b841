package codebowl

import (
	"fmt"

	"github.com/meeple-games/meeple/domain"
)

// A bot's seat (docs/bots.md, "Seats: addBot"). A coach enters a match with
// a team document of its own (/cbteams/{id}), which it made with
// createTeam. A bot (role domain.RoleBot) has none: its join makes one —
// BotRoster, owned by the bot, under BotTeamID(bot, match) — in the join's
// own transaction, locked to the match like any joiner's team, and plays
// with it. The join's payload is not read (the platform sends {}). The
// team then lives as a person's does: deaths are removed from it and the
// match's end unlocks it; it never plays another match (the next bot seat
// gets a team of its own), and nobody edits it (editTeam and restartTeam
// need its coach, the bot, whom no session stands for).

// BotTeamID is the id of the team bot plays match matchID with.
func BotTeamID(bot, matchID string) string { return TeamKey(bot, "botTeam~"+matchID) }

// BotRoster is the team a bot plays with: seven players of 4 ST, 4 AG and
// 4 MV (the stat budget spread evenly: the teams cmd/botmatch measures the
// bots with), default armor.
func BotRoster(bot domain.Actor) TeamSpec {
	spec := TeamSpec{Name: "Botball"}
	for i := 1; i <= TeamSize; i++ {
		spec.Players = append(spec.Players, PlayerSpec{Name: fmt.Sprintf("Robo %d", i), ST: 4, AG: 4, MV: 4})
	}
	return spec
}

// isBotJoin reports whether a is a bot's join.
func isBotJoin(a domain.Action) bool {
	return a.Type == domain.ActionJoin && a.Actor.Role == domain.RoleBot
}

// botJoinPlan is the plan of a bot's join: the match, and the bot's team
// document of this match, locked (absent until the join makes it).
func botJoinPlan(a domain.Action) (domain.Plan, error) {
	if a.GameID == "" {
		return domain.Plan{}, domain.Errorf(domain.EINVALID, "gameId is required")
	}
	return domain.Plan{Reads: []domain.Read{gameRead, domain.Locked(teamDoc(BotTeamID(a.Actor.ID, a.GameID)))}}, nil
}

// botTeam is the team of a bot's join: the one stored for this match if
// any, else a new BotRoster (fresh: the join must create it).
//
// Errors: EINTERNAL (a stored team that does not decode, a roster that is
// not a valid team).
func botTeam(d domain.Docs, a domain.Action) (t Team, fresh bool, err error) {
	id := BotTeamID(a.Actor.ID, a.GameID)
	found, err := d.Get(teamDoc(id), &t)
	if err != nil || found {
		return t, false, err
	}
	t, err = NewTeam(id, a.Actor.ID, BotRoster(a.Actor))
	if err != nil {
		return t, false, domain.Errorf(domain.EINTERNAL, "the bots' roster: %v", err)
	}
	return t, true, nil
}

// botTeamWrite is the creation of a fresh bot team, locked to the match its
// join entered.
func botTeamWrite(t Team, matchID string) (domain.Write, error) {
	t, err := LockTeam(t, matchID)
	if err != nil {
		return domain.Write{}, err
	}
	return domain.Write{DocID: teamDoc(t.ID), Value: t, Create: true}, nil
}
