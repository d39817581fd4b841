package tilerace

import (
	"encoding/json"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Effects are what a race's events do after they are recorded: a completion
// raises the fog frontier (eagerly, right after the completion commits, and
// again from its record in case that was lost), and awarded (or reversed)
// points go to the ledger and their team's points; the leaderboard is the
// tick's projection of those (LeaderboardProjection).
func Effects() []domain.Effect {
	return []domain.Effect{
		{Event: EventTileCompleted, Reads: raiseReads, Run: raiseRun, Eager: true},
		{Event: EventPointsAwarded, Reads: pointsReads, Run: pointsRun},
		{Event: EventPointsReversed, Reads: reversalReads, Run: reversalRun},
	}
}

// raiseReads: the public board, as a snapshot. Most completions find the
// frontier far enough already and stop there, holding no lock; completions
// never read the public board, so raising never makes a team wait.
func raiseReads(domain.Record) ([]domain.Read, error) {
	return []domain.Read{{DocID: domain.Doc(SlotPublicBoard, ""), Snapshot: true}}, nil
}

// raiseRun raises the frontier for the furthest tile the record's completions
// reached. Raising is monotonic, so a late, repeated or out-of-order run
// agrees with the others. The game and the private board are read as
// snapshots too: anything that changes them in a way that matters (fog mode,
// tile contents, a reset) also rewrites the public board, whose write here is
// conditional on it being unchanged since the read.
func raiseRun(d domain.Docs, r domain.Record, now time.Time) (domain.Change, error) {
	reached := 0
	for _, e := range r.Events {
		var c TileCompletedData
		if e.Type == EventTileCompleted && json.Unmarshal(e.Data, &c) == nil && c.Tile != FinalTile {
			reached = max(reached, c.Position)
		}
	}
	var pb PublicBoard
	ok, err := d.Get(domain.Doc(SlotPublicBoard, ""), &pb)
	if err != nil || !ok || reached == 0 || pb.RevealedUpTo >= RevealUpTo(reached) {
		return domain.Change{}, err // nothing to reveal (or no such race)
	}
	if !d.Has(domain.GameDocID) {
		return domain.Change{}, domain.Need(
			domain.Read{DocID: domain.GameDocID, Snapshot: true},
			domain.Read{DocID: domain.Doc(SlotBoard, ""), Snapshot: true})
	}
	doc, err := domain.ReadGame[Game](d, Kind)
	if err != nil {
		return domain.Change{}, nil
	}
	var bd BoardDoc
	if _, err := d.Get(domain.Doc(SlotBoard, ""), &bd); err != nil {
		return domain.Change{}, err
	}
	g := doc.State
	g.RevealedUpTo = pb.RevealedUpTo
	g, out, raised := RaiseFrontier(g, reached)
	if !raised {
		return domain.Change{}, nil // the race is not on
	}
	return domain.Change{
		Writes: []domain.Write{{DocID: domain.Doc(SlotPublicBoard, ""), Value: publicBoard(g, bd.Board)}},
		Steps:  []domain.Step{{Actor: domain.System, Type: "raiseFrontier", Events: SayAll(out.Events)}},
	}, nil
}

// awards decodes a record's pointsAwarded events.
//
// Errors: EINVALID (a malformed award: the record is retired).
func awards(r domain.Record) ([]AwardData, error) {
	var out []AwardData
	for _, e := range r.Events {
		if e.Type != EventPointsAwarded {
			continue
		}
		var a AwardData
		if err := json.Unmarshal(e.Data, &a); err != nil || !validKey(a.Key) || a.Player == "" || a.Points <= 0 {
			return nil, domain.Errorf(domain.EINVALID, "event record %s/%s: bad pointsAwarded %s", r.GameID, r.ID, e.Data)
		}
		out = append(out, a)
	}
	return out, nil
}

func pointsReads(r domain.Record) ([]domain.Read, error) {
	as, err := awards(r)
	if err != nil {
		return nil, err
	}
	var reads []domain.Read
	teams := map[string]bool{}
	for _, a := range as {
		reads = append(reads, domain.Locked(domain.Doc(SlotLedger, a.Key)))
		if !teams[a.Team] {
			teams[a.Team] = true
			reads = append(reads, domain.Locked(domain.Doc(SlotPoints, a.Team)))
		}
	}
	return reads, nil
}

// pointsRun writes one ledger entry per award (keyed by the award key, so an
// award is never counted twice whatever delivers it; one already there is
// skipped) and adds it to its team's points. It never touches the race's
// leaderboard, which every team's awards would otherwise write: the tick's
// projection sums the teams' points into it (LeaderboardProjection).
func pointsRun(d domain.Docs, r domain.Record, now time.Time) (domain.Change, error) {
	as, err := awards(r)
	if err != nil || len(as) == 0 {
		return domain.Change{}, err
	}
	tp := teamPoints{}
	var ch domain.Change
	for _, a := range as {
		id := domain.Doc(SlotLedger, a.Key)
		if d.Has(id) {
			continue
		}
		p, err := tp.of(d, r, a.Team)
		if err != nil {
			return domain.Change{}, err
		}
		p.Totals[a.Player] += a.Points
		p.Awards++
		ch.Writes = append(ch.Writes, domain.Write{DocID: id, Create: true, Value: LedgerEntry{
			Key: a.Key, Player: a.Player, Points: a.Points, Display: FormatPoints(a.Points), Team: a.Team, TeamName: a.TeamName,
			Event: r.ID, At: r.At, AppliedAt: now, Tile: a.Tile, PowerupTile: a.PowerupTile, By: a.By,
		}})
	}
	ch.Writes = append(ch.Writes, tp.writes()...)
	return ch, nil
}

// teamPoints are the TeamPoints documents one record's effect changes, by
// team, in the order first changed.
type teamPoints map[string]*TeamPoints

// of returns the points of team as the effect read them (or changed them
// so far).
//
// Errors: EINVALID (they do not decode: the record is retired).
func (tp teamPoints) of(d domain.Docs, r domain.Record, team string) (*TeamPoints, error) {
	if p, ok := tp[team]; ok {
		return p, nil
	}
	p := &TeamPoints{}
	if _, err := d.Get(domain.Doc(SlotPoints, team), p); err != nil {
		return nil, domain.Errorf(domain.EINVALID, "points of team %s of %s: %v", team, r.GameID, err)
	}
	if p.Totals == nil {
		p.Totals = map[string]int{}
	}
	tp[team] = p
	return p, nil
}

func (tp teamPoints) writes() []domain.Write {
	var out []domain.Write
	for _, team := range domain.SortedKeys(tp) {
		p := tp[team]
		for player, pts := range p.Totals {
			if pts == 0 {
				delete(p.Totals, player)
			}
		}
		out = append(out, domain.Write{DocID: domain.Doc(SlotPoints, team), Value: *p})
	}
	return out
}

// reversals decodes a record's pointsReversed events.
//
// Errors: EINVALID (a malformed reversal: the record is retired).
func reversals(r domain.Record) ([]PointsReversedData, error) {
	var out []PointsReversedData
	for _, e := range r.Events {
		if e.Type != EventPointsReversed {
			continue
		}
		var p PointsReversedData
		if err := json.Unmarshal(e.Data, &p); err != nil || !validKey(p.Key) || !validKey(ReversalKey(p.Key)) || p.Player == "" || p.Points <= 0 {
			return nil, domain.Errorf(domain.EINVALID, "event record %s/%s: bad pointsReversed %s", r.GameID, r.ID, e.Data)
		}
		out = append(out, p)
	}
	return out, nil
}

func reversalReads(r domain.Record) ([]domain.Read, error) {
	ps, err := reversals(r)
	if err != nil {
		return nil, err
	}
	var reads []domain.Read
	teams := map[string]bool{}
	for _, p := range ps {
		reads = append(reads, domain.Locked(domain.Doc(SlotLedger, p.Key)), domain.Locked(domain.Doc(SlotLedger, ReversalKey(p.Key))))
		if !teams[p.Team] {
			teams[p.Team] = true
			reads = append(reads, domain.Locked(domain.Doc(SlotPoints, p.Team)))
		}
	}
	return reads, nil
}

// reversalRun takes back undone awards: one compensating ledger entry per
// award (negative points, keyed ReversalKey(key): one already there is
// skipped, so a redelivered record reverses nothing twice), taken off the
// award's team's points. When the award's own effect has not run yet, the
// reversal writes the award's entry too, as that effect would have, without
// counting its points (only the entry): the award's effect then finds it and
// skips it, so the totals come out the same whichever runs first, and never
// dip below zero.
func reversalRun(d domain.Docs, r domain.Record, now time.Time) (domain.Change, error) {
	ps, err := reversals(r)
	if err != nil || len(ps) == 0 {
		return domain.Change{}, err
	}
	tp := teamPoints{}
	var ch domain.Change
	for _, p := range ps {
		rev := domain.Doc(SlotLedger, ReversalKey(p.Key))
		if d.Has(rev) {
			continue
		}
		tps, err := tp.of(d, r, p.Team)
		if err != nil {
			return domain.Change{}, err
		}
		orig := domain.Doc(SlotLedger, p.Key)
		if d.Has(orig) {
			tps.Totals[p.Player] -= p.Points
		} else {
			tps.Awards++
			ch.Writes = append(ch.Writes, domain.Write{DocID: orig, Create: true, Value: LedgerEntry{
				Key: p.Key, Player: p.Player, Points: p.Points, Display: FormatPoints(p.Points), Team: p.Team, TeamName: p.TeamName,
				Event: p.Event, At: r.At, AppliedAt: now, Tile: p.Tile, PowerupTile: p.PT,
			}})
		}
		tps.Reversed++
		ch.Writes = append(ch.Writes, domain.Write{DocID: rev, Create: true, Value: LedgerEntry{
			Key: ReversalKey(p.Key), Player: p.Player, Points: -p.Points, Display: FormatPoints(-p.Points), Team: p.Team, TeamName: p.TeamName,
			Event: r.ID, At: r.At, AppliedAt: now, Tile: p.Tile, PowerupTile: p.PT, By: p.By, Reverses: p.Key,
		}})
	}
	ch.Writes = append(ch.Writes, tp.writes()...)
	return ch, nil
}

// LeaderboardProjection builds the race's public/leaderboard from its
// teams' points, in the tick (once per projection pass, for a race whose
// points effects ran since): exact, and written by nobody else, so awards
// of many teams never queue on one document.
func LeaderboardProjection() *domain.Projection {
	return &domain.Projection{
		Events: []string{EventPointsAwarded, EventPointsReversed},
		Reads: []domain.Read{
			{DocID: domain.Doc(SlotLeaderboard, ""), Snapshot: true},
			{DocID: domain.DocID{Slot: SlotPoints}, All: true},
		},
		Run: projectLeaderboard,
	}
}

// projectLeaderboard sums every team's points: the totals by player (a
// player on several teams has one total), the awards and reversals counted,
// the top 10. It writes the leaderboard only when that changes it.
//
// Errors: EINVALID (a team's points do not decode).
func projectLeaderboard(d domain.Docs, now time.Time) (domain.Change, error) {
	lb := RaceLeaderboard{Totals: map[string]int{}}
	teams := d.Keys(SlotPoints)
	for _, team := range teams {
		var tp TeamPoints
		if _, err := d.Get(domain.Doc(SlotPoints, team), &tp); err != nil {
			return domain.Change{}, domain.Errorf(domain.EINVALID, "points of team %s: %v", team, err)
		}
		for p, pts := range tp.Totals {
			lb.Totals[p] += pts
		}
		lb.Awards += tp.Awards
		lb.Reversed += tp.Reversed
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

// validKey reports whether an award key can name a ledger document.
func validKey(k string) bool { return validID(k) }

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
	reads := func(strict any) func(req json.RawMessage) (string, []domain.Read, error) {
		return func(req json.RawMessage) (string, []domain.Read, error) {
			if err := domain.DecodePayload(req, strict); err != nil {
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
		{Type: "teamLogin", Reads: reads(&teamLogin{}), Find: func(d domain.Docs, req json.RawMessage) (domain.Actor, domain.DocID, error) {
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
		{Type: "adminLogin", Reads: reads(&adminLogin{}), Find: func(d domain.Docs, req json.RawMessage) (domain.Actor, domain.DocID, error) {
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
