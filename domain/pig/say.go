package pig

import (
	"fmt"

	"github.com/meeple-games/meeple/domain"
)

// Say implements domain.Sayer: each Pig event in words, with the players'
// names as of g (the state right after the event's step).
func (Rules) Say(g Game, e domain.Event) string {
	who := g.nameOf(e.Player)
	switch e.Type {
	case EventJoined:
		return fmt.Sprintf("%s joined: the game starts", who)
	case EventTimeout:
		return fmt.Sprintf("%s ran out of time", who)
	}
	switch d := e.Data.(type) {
	case RolledData:
		if d.Roll == 1 {
			return fmt.Sprintf("%s rolled 1: turn total lost", who)
		}
		return fmt.Sprintf("%s rolled %d (turn total %d)", who, d.Roll, d.TurnTotal)
	case HeldData:
		return fmt.Sprintf("%s held %d (score %d)", who, d.Banked, d.Score)
	case domain.GameOver:
		names := make([]string, len(d.Winners))
		for i, id := range d.Winners {
			names[i] = g.nameOf(id)
		}
		return fmt.Sprintf("%s wins: reached %d", domain.JoinNames(names), g.Target)
	}
	return ""
}

// nameOf is a player's display name (the id when unknown).
func (g Game) nameOf(id string) string {
	for i, p := range g.Players {
		if p == id && i < len(g.Names) {
			return g.Names[i]
		}
	}
	return id
}
