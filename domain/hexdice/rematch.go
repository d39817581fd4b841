package hexdice

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"

	"github.com/meeple-games/meeple/domain"
)

// Rematch: once a game is over, each player sends "rematch"; when both
// have, a new game starts at once with the same options (size, timer, mode,
// map seed, privacy, fog, balance), both players seated in the same seats,
// and the other player first. The two games name each other (RematchID on
// the finished one, RematchOf on the new one). It is made through
// domain.Outcome.Spawn, in the transaction of the second "rematch".

// RematchData is the data of EventRematchCreated.
type RematchData struct {
	RematchID string `json:"rematchId"`
	First     Seat   `json:"first"`
}

// RematchResult is the result of "rematch": Waiting until the other player
// asks too, then the new game's id.
type RematchResult struct {
	Waiting   bool   `json:"waiting,omitempty"`
	RematchID string `json:"rematchId,omitempty"`
}

// RematchID is the id of the rematch of game id: the same on every call, so
// a rerun transaction spawns the same game.
func RematchID(id string) string {
	sum := sha256.Sum256([]byte(id + ":rematch"))
	return hex.EncodeToString(sum[:])[:20]
}

// rematch: no payload.
//
// Errors: EFORBIDDEN (not a player), ECONFLICT (not over, cancelled, already
// asked, already made).
func (s *step) rematch(a domain.Actor, p []byte) error {
	if err := domain.DecodePayload(p, nil); err != nil {
		return err
	}
	seat, err := s.seated(a)
	if err != nil {
		return err
	}
	g := &s.g
	switch {
	case g.Phase != PhaseOver:
		return domain.Errorf(domain.ECONFLICT, "a rematch can be asked for only when the game is over")
	case len(g.Players) < 2 || (g.Result != nil && g.Result.Reason == ReasonCancelled):
		return domain.Errorf(domain.ECONFLICT, "the game was cancelled before anyone joined: there is no one to rematch")
	case g.RematchID != "":
		return domain.Errorf(domain.ECONFLICT, "the rematch %s has already been made", g.RematchID)
	}
	if len(g.RematchAsked) != 2 {
		g.RematchAsked = []bool{false, false}
	}
	if g.RematchAsked[seat] {
		return domain.Errorf(domain.ECONFLICT, "you already asked for a rematch; waiting for the other player")
	}
	g.RematchAsked = slices.Clone(g.RematchAsked)
	g.RematchAsked[seat] = true
	s.emit(seat, EventRematchAsked, SeatData{Seat: seat})
	if !g.RematchAsked[seat.Other()] {
		s.result = RematchResult{Waiting: true}
		return nil
	}
	next, err := s.nextGame()
	if err != nil {
		return err
	}
	g.RematchID = next.ID
	s.spawn = []domain.Spawn{{ID: next.ID, State: next}}
	s.emit(seat, EventRematchCreated, RematchData{RematchID: next.ID, First: next.First})
	s.result = RematchResult{RematchID: next.ID}
	return nil
}

// nextGame is the rematch of s.g, started.
func (s *step) nextGame() (Game, error) {
	g := s.g
	host, guest := g.Players[0], g.Players[1]
	cfg := g.Config
	next, err := newGame(RematchID(g.ID), domain.Actor{ID: host.ID, Name: host.Name}, Options{Size: g.Size, TurnSeconds: g.TurnSeconds,
		Mode: g.Mode, MapSeed: g.MapSeed, Config: &cfg, Private: g.Private, Fog: g.Fog}, s.now, staticMap{s.m})
	if err != nil {
		return Game{}, err
	}
	next.RematchOf = g.ID
	next.Players = append(next.Players, Player{ID: guest.ID, Name: guest.Name, Coins: cfg.Economy.StartCoins})
	if next.Fog {
		next.Memory = append(next.Memory, newMemory(next))
	}
	for i := range next.Players {
		next.Players[i].LastSeen = s.now
	}
	ns := newStep(next, s.m, s.now, s.dice)
	ns.begin(GameStartedData{Mode: next.Mode, First: g.First.Other()})
	ns.remember()
	return ns.g, nil
}

// staticMap is a MapSource that has one map: the finished game's.
type staticMap struct{ m *Map }

func (sm staticMap) Map(size Size, seed, hash string, cfg Config) (*Map, error) { return sm.m, nil }
