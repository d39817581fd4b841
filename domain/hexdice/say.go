package hexdice

import (
	"cmp"
	"fmt"

	"github.com/meeple-games/meeple/domain"
)

// Say implements domain.Sayer: each Hex & Dice event in words, with the
// players' names as of g (the state right after the event's step). The
// words name no hex: where a troop went is the map's to show (and hidden
// from the other player under fog), never the log's.
func (Rules) Say(g Game, e domain.Event) string {
	who := g.nameOf(e.Player)
	switch d := e.Data.(type) {
	case JoinedData:
		return fmt.Sprintf("%s joined", cmp.Or(d.Name, who))
	case GameStartedData:
		s := fmt.Sprintf("the game starts (%s turns): %s plays first", d.Mode, g.seatName(d.First))
		if d.Die > 0 {
			s += fmt.Sprintf(" (die: %d)", d.Die)
		}
		return s
	case RoundStartedData:
		return fmt.Sprintf("round %d begins", d.Round)
	case ZoneShrunkData:
		return fmt.Sprintf("sudden death: the safe zone shrinks to radius %d (%d damage outside)", d.SafeRadius, d.Damage)
	case HQRelocatedData:
		return "an HQ moved inside the safe zone"
	case StormData:
		return fmt.Sprintf("the storm hit %s for %d (HP %d)", g.troopName(d.Troop, ""), d.Damage, max(d.HP, 0))
	case TurnStartedData:
		return fmt.Sprintf("round %d: %s's turn (+%d coins, %d in all)", d.Round, g.seatName(d.Seat), d.Income, d.Coins)
	case RepairedData:
		return fmt.Sprintf("%s repaired %d (HP %d)", structureName(g, d.Structure), d.Amount, d.HP)
	case HealedData:
		return fmt.Sprintf("%s healed %d (HP %d)", g.troopName(d.Troop, ""), d.Amount, d.HP)
	case BoughtData:
		return fmt.Sprintf("%s bought a %s for %d coins (%d left)", who, d.Type, d.Cost, d.Coins)
	case MovedData:
		return fmt.Sprintf("%s moved %s (%d movement)", who, g.troopName(d.Troop, ""), d.Cost)
	case AttackData:
		return sayAttack(g, d)
	case AttackVoidData:
		return fmt.Sprintf("%s's attack missed its mark: the target left", g.troopName(d.Troop, ""))
	case TroopKilledData:
		return fmt.Sprintf("%s's %s was destroyed (%s)", g.seatName(d.Owner), d.Type, causeWords[d.Cause])
	case CapturedData:
		return fmt.Sprintf("%s captured %s", g.seatName(d.To), kindWords(d.Kind))
	case TurnEndedData:
		if d.Reason == "timeout" {
			return fmt.Sprintf("%s's time ran out", g.seatName(d.Seat))
		}
		if d.Reason == "resolved" {
			return fmt.Sprintf("round %d resolved for %s", d.Round, g.seatName(d.Seat))
		}
		return fmt.Sprintf("%s ended the turn", g.seatName(d.Seat))
	case OrdersSubmittedData:
		if d.Auto {
			return fmt.Sprintf("%s's orders were sent as the time ran out", g.seatName(d.Seat))
		}
		return fmt.Sprintf("%s locked in orders", g.seatName(d.Seat))
	case OrdersRevealedData:
		return fmt.Sprintf("%s's orders are revealed", g.seatName(d.Seat))
	case MoveCancelledData:
		return fmt.Sprintf("%s's move was cancelled (%s)", g.troopName(d.Troop, ""), cancelWords[d.Reason])
	case BuyCancelledData:
		return fmt.Sprintf("%s's purchase of a %s was cancelled (%s)", who, d.Type, cancelWords[d.Reason])
	case SeatData:
		return fmt.Sprintf("%s surrendered", g.seatName(d.Seat))
	case ConnectionData:
		switch e.Type {
		case EventDisconnected:
			return fmt.Sprintf("%s disconnected", g.seatName(d.Seat))
		case EventReconnected:
			return fmt.Sprintf("%s is back", g.seatName(d.Seat))
		}
		return fmt.Sprintf("%s forfeited (disconnected too long)", g.seatName(d.Seat))
	case EmoteData:
		return fmt.Sprintf("%s: %s", g.seatName(d.Seat), cmp.Or(d.Text, d.Emote))
	case CancelledData:
		if d.Reason == "hostLeft" {
			return "the room was cancelled: the host left"
		}
		return "the room was cancelled: nobody joined in time"
	case domain.GameOver:
		if d.Draw {
			return fmt.Sprintf("a draw (%s)", reasonWords[d.Reason])
		}
		names := make([]string, len(d.Winners))
		for i, id := range d.Winners {
			names[i] = g.nameOf(id)
		}
		return fmt.Sprintf("%s wins: %s", domain.JoinNames(names), reasonWords[d.Reason])
	}
	return ""
}

func sayAttack(g Game, d AttackData) string {
	by := g.unitName(d.Attacker)
	at := g.unitName(d.Target)
	verb := "attacked"
	switch d.Kind {
	case AttackCounter:
		verb = "struck back at"
	case AttackStructure:
		verb = "fired at"
	}
	s := fmt.Sprintf("%s %s %s: rolled %d%+d = %d against %d", by, verb, at, d.Natural, d.Modifier, d.Total, d.Defense)
	switch {
	case !d.Hit && d.Fumble:
		return s + ", a fumble: miss"
	case !d.Hit:
		return s + ": miss"
	case d.Critical:
		s += ", critical hit"
	default:
		s += ", hit"
	}
	s += fmt.Sprintf(" for %d (HP %d)", d.Damage, max(d.HP, 0))
	if d.Captured {
		s += ": captured"
	}
	return s
}

var causeWords = map[string]string{
	CauseAttack:    "attack",
	CauseCounter:   "counterattack",
	CauseStructure: "structure fire",
	CauseStorm:     "the storm",
}

var cancelWords = map[string]string{
	CancelSlower:  "a faster troop got there first",
	CancelTie:     "a tie for the same hex",
	CancelBlocked: "the hex is held",
}

var reasonWords = map[string]string{
	ReasonHQ:          "the enemy HQ fell",
	ReasonDominance:   "held most structures long enough",
	ReasonSuddenDeath: "sudden death",
	ReasonSurrender:   "the opponent surrendered",
	ReasonDisconnect:  "the opponent disconnected",
	ReasonCancelled:   "cancelled",
}

func kindWords(k StructureKind) string {
	if k == CommandCenter {
		return "a command center"
	}
	return "an " + kindNoun(k) // an outpost, an HQ
}

func kindNoun(k StructureKind) string {
	switch k {
	case CommandCenter:
		return "command center"
	case HQ:
		return "HQ"
	}
	return "outpost"
}

func structureName(g Game, id string) string {
	for _, s := range g.Structures {
		if s.ID == id {
			if s.Owner == Neutral {
				return "a neutral " + kindNoun(s.Kind)
			}
			return g.seatName(s.Owner) + "'s " + kindNoun(s.Kind)
		}
	}
	return "a structure"
}

// unitName names a troop or a structure of an attack.
func (g Game) unitName(u Unit) string {
	if u.Structure != "" {
		return structureName(g, u.Structure)
	}
	owner := ""
	if u.Owner != Neutral {
		owner = g.seatName(u.Owner)
	}
	return g.troopName(u.Troop, owner)
}

// troopName is "Ann's marine" (a troop no longer on the map: "Ann's troop").
func (g Game) troopName(id int, owner string) string {
	for _, t := range g.Troops {
		if t.ID == id {
			return g.seatName(t.Owner) + "'s " + string(t.Type)
		}
	}
	if owner != "" {
		return owner + "'s troop"
	}
	return "a troop"
}

// seatName is the display name of the player in a seat ("neutral" for none).
func (g Game) seatName(s Seat) string {
	if s >= 0 && int(s) < len(g.Players) {
		return g.Players[s].Name
	}
	return "neutral"
}

func (g Game) nameOf(id string) string {
	for _, p := range g.Players {
		if p.ID == id {
			return p.Name
		}
	}
	return "someone"
}
