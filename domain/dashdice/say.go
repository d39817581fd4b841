package dashdice

import (
	"cmp"
	"fmt"

	"github.com/meeple-games/meeple/domain"
)

// Say implements domain.Sayer: each DashDice event in words, with the
// players' names as of m (the state right after the event's step).
func (Rules) Say(m Match, e domain.Event) string {
	who := m.nameOf(e.Player)
	switch d := e.Data.(type) {
	case JoinedData:
		return fmt.Sprintf("%s joined", cmp.Or(d.Name, who))
	case CalledData:
		first := m.nameOfSeat(d.FirstTurn)
		if d.Call == "" {
			return fmt.Sprintf("%s did not call in time: %s starts", who, first)
		}
		verdict := "wrong"
		if d.Correct {
			verdict = "right"
		}
		return fmt.Sprintf("%s called %s, the die shows %d (%s): %s starts", who, d.Call, d.Die, verdict, first)
	case TurnStartedData:
		return fmt.Sprintf("turn %d: %s's turn", d.Turn, m.nameOfSeat(d.Seat))
	case RolledData:
		return sayRoll(who, d)
	case BankedData:
		s := fmt.Sprintf("%s banked %d (score %d)", who, d.Amount, d.Score)
		if d.Taken > 0 {
			s = fmt.Sprintf("%s banked %d, taking %d from the opponent (score %d)", who, d.Amount, d.Taken, d.Score)
		}
		switch d.Cause {
		case EndSingleOne:
			s += " on a single 1"
		case EndTimeout:
			s += " as the timer ran out"
		}
		return s
	case BustData:
		return fmt.Sprintf("%s went bust: banking %d would go below 0 (score stays %d)", who, d.Amount, d.Score)
	case TurnEndedData:
		return fmt.Sprintf("%s's turn ended (%s)", m.nameOfSeat(d.Seat), endWords[d.Reason])
	case TimedOutData:
		if d.Phase == PhaseTurnDecider {
			return fmt.Sprintf("%s ran out of time to call", who)
		}
		return fmt.Sprintf("%s ran out of time (%d in a row)", who, d.Timeouts)
	case ForfeitedData:
		if d.Reason == ReasonAbandoned {
			return fmt.Sprintf("%s abandoned the match (too many timeouts)", who)
		}
		return fmt.Sprintf("%s forfeited", who)
	case CancelledData:
		if d.Reason == "hostLeft" {
			return "the match was cancelled: the host left"
		}
		return "the match was cancelled: nobody joined in time"
	case RematchRequestedData:
		return fmt.Sprintf("%s asks for a rematch", who)
	case RematchCreatedData:
		return "the rematch is ready"
	case domain.GameOver:
		if d.Draw {
			return "the match is a draw"
		}
		names := make([]string, len(d.Winners))
		for i, id := range d.Winners {
			names[i] = m.nameOf(id)
		}
		return fmt.Sprintf("%s wins: %s", domain.JoinNames(names), reasonWords[d.Reason])
	}
	return ""
}

func sayRoll(who string, d RolledData) string {
	s := fmt.Sprintf("%s rolled %d and %d", who, d.Dice[0], d.Dice[1])
	switch {
	case d.ScoreReset:
		return s + ": double six, banked score back to 0"
	case d.Class == ClassSnakeEyes && d.TurnScore == 0:
		return s + ": snake eyes, turn score lost"
	case d.Class == ClassSingleOne:
		return s + ": a single 1 ends the turn"
	}
	s += fmt.Sprintf(": +%d (turn score %d", d.Points, d.TurnScore)
	if d.Multiplier > 1 {
		s += fmt.Sprintf(", ×%d", d.Multiplier)
	}
	s += ")"
	if d.OpponentPoints > 0 {
		s += fmt.Sprintf(", opponent +%d", d.OpponentPoints)
	}
	return s
}

var endWords = map[string]string{
	EndBank:      "banked",
	EndBust:      "bust",
	EndSingleOne: "a single 1",
	EndDoubleSix: "double six",
	EndTimeout:   "time ran out",
}

var reasonWords = map[string]string{
	ReasonTarget:    "reached the target",
	ReasonScore:     "the higher score",
	ReasonForfeit:   "the opponent forfeited",
	ReasonAbandoned: "the opponent abandoned",
}

// nameOf is a player's display name ("someone" for an id not seated).
func (m Match) nameOf(id string) string {
	if id == m.Host.ID {
		return m.Host.Name
	}
	if m.Opponent != nil && id == m.Opponent.ID {
		return m.Opponent.Name
	}
	return "someone"
}

func (m Match) nameOfSeat(s Seat) string {
	if s == SeatOpponent && m.Opponent != nil {
		return m.Opponent.Name
	}
	if s == SeatHost {
		return m.Host.Name
	}
	return "someone"
}
