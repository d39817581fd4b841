package tilerace

import (
	"encoding/json"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// A race registers no effects (issue 22): a completion raises the fog
// frontier in its own commit (raiseAfter); the action that awards points
// (or the undo that takes them back) writes its team's points in its own
// commit, and its event record, created in that commit, holds the ledger's
// entries (checkAwards, LedgerOf); the
// leaderboard is the tick's projection of the teams' points
// (LeaderboardProjection), for which the actions mark the race themselves.

// LeaderboardProjection builds the race's public/leaderboard from its
// teams' points, in the tick (once per projection pass, for a race one of
// whose records awarded or took back points since): exact, and written by
// nobody else, so awards of many teams never queue on one document.
func LeaderboardProjection() *domain.Projection {
	return &domain.Projection{
		Events: []string{EventPointsAwarded, EventPointsReversed},
		Reads: []domain.Read{
			{DocID: domain.Doc(SlotLeaderboard, ""), Snapshot: true},
			{DocID: domain.DocID{Slot: SlotTeam}, All: true},
		},
		Run: projectLeaderboard,
	}
}

// projectLeaderboard sums every team's points: the totals by player (a
// player on several teams has one total), the awards and reversals counted,
// the top 10. It writes the leaderboard only when that changes it.
//
// Errors: EINVALID (a team does not decode).
func projectLeaderboard(d domain.Docs, now time.Time) (domain.Change, error) {
	lb := RaceLeaderboard{Totals: map[string]int{}}
	teams := d.Keys(SlotTeam)
	for _, id := range teams {
		var t Team
		if _, err := d.Get(domain.Doc(SlotTeam, id), &t); err != nil {
			return domain.Change{}, domain.Errorf(domain.EINVALID, "team %s: %v", id, err)
		}
		for p, pts := range t.Points {
			lb.Totals[p] += pts
		}
		lb.Awards += t.Awards
		lb.Reversed += t.Reversed
	}
	for p, pts := range lb.Totals {
		if pts == 0 {
			delete(lb.Totals, p)
		}
	}
	lb.Top = Leaderboard(lb.Totals, LeaderboardSize)
	var cur RaceLeaderboard
	exists, err := d.Get(domain.Doc(SlotLeaderboard, ""), &cur)
	if err != nil {
		exists = true // rewrite a board that does not decode
		cur = RaceLeaderboard{}
	}
	if (!exists && len(teams) == 0) || (exists && err == nil && sameLeaderboard(cur, lb)) {
		return domain.Change{}, nil
	}
	return domain.Change{Writes: []domain.Write{{DocID: domain.Doc(SlotLeaderboard, ""), Value: lb}}}, nil
}

func sameLeaderboard(a, b RaceLeaderboard) bool {
	if a.Awards != b.Awards || a.Reversed != b.Reversed || len(a.Totals) != len(b.Totals) || len(a.Top) != len(b.Top) {
		return false
	}
	for p, pts := range a.Totals {
		if q, ok := b.Totals[p]; !ok || q != pts {
			return false
		}
	}
	for i := range a.Top {
		if a.Top[i] != b.Top[i] {
			return false
		}
	}
	return true
}

// signInRequest is the body of a teamLogin or adminLogin (decoded loosely to
// find the principal; Reads has checked it strictly).
type signInRequest struct {
	GameID string `json:"gameId"`
	Team   string `json:"team"`
	Admin  string `json:"admin"`
}

// teamLogin and adminLogin are what each sign-in takes.
type teamLogin struct {
	GameID   string `json:"gameId"`
	Team     string `json:"team"`
	Password string `json:"password"`
}

type adminLogin struct {
	GameID   string `json:"gameId"`
	Admin    string `json:"admin"`
	Password string `json:"password"`
}

// SignIns are the race's sign-ins: a team with its password, an admin with
// theirs. The roster in the game document decides who exists, so a removed
// team or admin cannot sign in even before its credential is gone.
func SignIns() []domain.SignIn {
	// strict makes a new value for each request: sign-ins run at once, and
	// one value shared by all of them was a data race.
	reads := func(strict func() any) func(req json.RawMessage) (string, []domain.Read, error) {
		return func(req json.RawMessage) (string, []domain.Read, error) {
			if err := domain.DecodePayload(req, strict()); err != nil {
				return "", nil, err
			}
			var r signInRequest
			_ = json.Unmarshal(req, &r)
			if r.GameID == "" {
				return "", nil, domain.Errorf(domain.EINVALID, "gameId is required")
			}
			return r.GameID, []domain.Read{domain.Locked(domain.GameDocID)}, nil
		}
	}
	wrong := domain.Errorf(domain.EUNAUTHORIZED, "wrong game, name or password")
	game := func(d domain.Docs) (Game, error) {
		doc, err := domain.ReadGame[Game](d, Kind)
		if err != nil || doc.Kind != Kind {
			return Game{}, wrong
		}
		return doc.State, nil
	}
	return []domain.SignIn{
		{Type: "teamLogin", Reads: reads(func() any { return &teamLogin{} }), Find: func(d domain.Docs, req json.RawMessage) (domain.Actor, domain.DocID, error) {
			var r signInRequest
			_ = json.Unmarshal(req, &r)
			g, err := game(d)
			if err != nil {
				return domain.Actor{}, domain.DocID{}, err
			}
			for _, t := range g.Teams {
				if t.ID == r.Team || sameName(t.Name, r.Team) {
					if !d.Asked(domain.Doc(SlotTeam, t.ID)) {
						return domain.Actor{}, domain.DocID{}, domain.Need(domain.Locked(domain.Doc(SlotTeam, t.ID)))
					}
					var team Team
					if ok, err := d.Get(domain.Doc(SlotTeam, t.ID), &team); err != nil || !ok {
						return domain.Actor{}, domain.DocID{}, wrong
					}
					return domain.Actor{ID: domain.ScopedID(g.ID, t.ID), Name: t.Name, Role: RoleTeam, Game: g.ID, Gen: team.Gen}, CredDoc(CredTeam, t.ID), nil
				}
			}
			return domain.Actor{}, domain.DocID{}, wrong
		}},
		{Type: "adminLogin", Reads: reads(func() any { return &adminLogin{} }), Find: func(d domain.Docs, req json.RawMessage) (domain.Actor, domain.DocID, error) {
			var r signInRequest
			_ = json.Unmarshal(req, &r)
			g, err := game(d)
			if err != nil {
				return domain.Actor{}, domain.DocID{}, err
			}
			for _, a := range g.Admins {
				if a.ID == r.Admin || sameName(a.Name, r.Admin) {
					role := RoleAdmin
					if a.Master {
						role = RoleMaster
					}
					return domain.Actor{ID: domain.ScopedID(g.ID, a.ID), Name: a.Name, Role: role, Game: g.ID, Gen: a.Gen}, CredDoc(CredAdmin, a.ID), nil
				}
			}
			return domain.Actor{}, domain.DocID{}, wrong
		}},
	}
}
