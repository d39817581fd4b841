package codebowl

import (
	"cmp"
	"fmt"

	"github.com/meeple-games/meeple/domain"
)

// Say implements domain.Sayer: each CodeBowl event in words, with the
// teams' and players' names as of m (the state right after the event's
// step). A side is named by its team.
func (Rules) Say(m Match, e domain.Event) string {
	switch d := e.Data.(type) {
	case JoinedData:
		return fmt.Sprintf("%s (coach %s) joined as %s", d.TeamName, d.CoachName, d.Side)
	case CoinFlippedData:
		return fmt.Sprintf("coin flip (die %d): %s receives", d.Die, m.team(d.Offense))
	case SetupStartedData:
		return fmt.Sprintf("half %d, drive %d: %s places first", d.Half, d.Drive, m.team(d.Placing))
	case PlacedData:
		if d.Auto {
			return fmt.Sprintf("%s placed in the default formation (time ran out)", m.team(d.Side))
		}
		return fmt.Sprintf("%s placed %d players", m.team(d.Side), len(d.Positions))
	case KickoffData:
		return fmt.Sprintf("kick-off: the ball lands at %s", sq(d.To))
	case TurnStartedData:
		return fmt.Sprintf("half %d, turn %d: %s's turn", d.Half, d.Turn, m.team(d.Side))
	case PlayerData:
		return fmt.Sprintf("%s stood up", m.player(d.Side, d.Player))
	case MovedData:
		if e.Type == EventFollowedUp {
			return fmt.Sprintf("%s followed up to %s", m.player(d.Side, d.Player), sq(d.To))
		}
		return fmt.Sprintf("%s moved to %s", m.player(d.Side, d.Player), sq(d.To))
	case DodgeData:
		if e.Type == EventTripped {
			return fmt.Sprintf("%s tripped leaving a tackle zone (rolled %d, needed %d%% chance)", m.player(d.Side, d.Player), d.Roll, d.Chance)
		}
		return fmt.Sprintf("%s dodged to %s (rolled %d)", m.player(d.Side, d.Player), sq(d.To), d.Roll)
	case BallRollData:
		p := m.player(d.Side, d.Player)
		switch e.Type {
		case EventPickedUp:
			return fmt.Sprintf("%s picked up the ball (rolled %d)", p, d.Roll)
		case EventPickupFailed:
			return fmt.Sprintf("%s failed to pick up the ball (rolled %d)", p, d.Roll)
		case EventCaught:
			return fmt.Sprintf("%s caught the ball (rolled %d)", p, d.Roll)
		}
		return fmt.Sprintf("%s failed to catch the ball (rolled %d)", p, d.Roll)
	case BallMoveData:
		switch e.Type {
		case EventScattered:
			return fmt.Sprintf("the ball scattered to %s", sq(d.To))
		case EventDropped:
			return fmt.Sprintf("the ball was dropped and landed at %s", sq(d.To))
		case EventBallOut:
			return fmt.Sprintf("the ball went off the pitch and came back at %s", sq(d.To))
		}
		return fmt.Sprintf("the ball rests at %s", sq(d.To))
	case PossessionData:
		return fmt.Sprintf("%s has the ball: %s on offense", m.player(d.Offense, d.Player), m.team(d.Offense))
	case AttackedData:
		other := Home
		if d.Side == Home {
			other = Away
		}
		return fmt.Sprintf("%s attacked %s (ST %d against %d, rolled %d): %s", m.player(d.Side, d.Attacker), m.player(other, d.Target), d.AttackerST+d.AssistPts, d.TargetST, d.Roll, attackWords[d.Result])
	case KnockedDownData:
		return fmt.Sprintf("%s was knocked down", m.player(d.Side, d.Player))
	case PushedData:
		if d.To == nil {
			return fmt.Sprintf("%s was pushed off the pitch", m.player(d.Side, d.Player))
		}
		return fmt.Sprintf("%s was pushed to %s", m.player(d.Side, d.Player), sq(*d.To))
	case InjuryRollData:
		if d.Dead {
			return fmt.Sprintf("injury roll for %s: %d, dead", m.player(d.Side, d.Player), d.Roll)
		}
		return fmt.Sprintf("injury roll for %s: %d, unhurt", m.player(d.Side, d.Player), d.Roll)
	case PlayerKilledData:
		return fmt.Sprintf("%s of %s is dead", cmp.Or(d.Name, d.Player), m.team(d.Side))
	case ScoredData:
		return fmt.Sprintf("touchdown! %s scored for %s (%d–%d)", m.player(d.Side, d.Player), m.team(d.Side), d.Home, d.Away)
	case TurnoverData:
		return fmt.Sprintf("turnover for %s (%s)", m.team(d.Side), endWords[d.Reason])
	case TurnEndedData:
		return fmt.Sprintf("%s's turn %d ended (%s)", m.team(d.Side), d.Turn, endWords[d.Reason])
	case HalftimeData:
		return fmt.Sprintf("half time: %d–%d; %s receives", d.Home, d.Away, m.team(d.Offense))
	case TimedOutData:
		return fmt.Sprintf("%s ran out of time (%d in a row)", m.team(d.Side), d.Timeouts)
	case ForfeitedData:
		if d.Reason == ReasonAbandoned {
			return fmt.Sprintf("%s abandoned the match (too many timeouts)", m.team(d.Side))
		}
		return fmt.Sprintf("%s forfeited", m.team(d.Side))
	case CancelledData:
		if d.Reason == "homeLeft" {
			return "the match was cancelled: the home coach left"
		}
		return "the match was cancelled: nobody joined in time"
	case domain.GameOver:
		if d.Draw {
			return fmt.Sprintf("a draw, %d–%d", m.Home.Score, m.Away.Score)
		}
		names := make([]string, len(d.Winners))
		for i, id := range d.Winners {
			names[i] = m.teamOfCoach(id)
		}
		return fmt.Sprintf("%s wins, %d–%d: %s", domain.JoinNames(names), m.Home.Score, m.Away.Score, reasonWords[d.Reason])
	}
	return ""
}

var attackWords = map[string]string{
	AttackKnockdown:    "knockdown",
	AttackNoEffect:     "no effect",
	AttackAttackerDown: "the attacker goes down",
}

var endWords = map[string]string{
	EndTripped:      "a player tripped",
	EndPickupFailed: "a failed pick-up",
	EndAttackerDown: "the attacker went down",
	EndScore:        "a touchdown",
	EndEndTurn:      "the coach ended it",
	EndAllActed:     "every player acted",
	EndTimeout:      "time ran out",
}

var reasonWords = map[string]string{
	ReasonElimination: "every opposing player is dead",
	ReasonPoints:      "the higher score",
	ReasonForfeit:     "the opponent forfeited",
	ReasonAbandoned:   "the opponent abandoned",
}

func sq(s Square) string { return fmt.Sprintf("(%d, %d)", s.X, s.Y) }

// team names a side by its team ("home"/"away" before it has one).
func (m Match) team(s Side) string {
	t := m.Home
	if s == Away {
		t = m.Away
	}
	if t.TeamName != "" {
		return t.TeamName
	}
	return string(s)
}

func (m Match) teamOfCoach(coach string) string {
	switch coach {
	case m.Home.Coach:
		return m.team(Home)
	case m.Away.Coach:
		return m.team(Away)
	}
	return "someone"
}

// player names a player of a side ("Grok (Orcs)").
func (m Match) player(s Side, id string) string {
	t := m.Home
	if s == Away {
		t = m.Away
	}
	for _, p := range t.Players {
		if p.ID == id {
			return fmt.Sprintf("%s (%s)", p.Name, m.team(s))
		}
	}
	return fmt.Sprintf("a player of %s", m.team(s))
}
