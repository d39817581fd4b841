package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/tilerace"
)

// Tile Race keeps one game in several documents (docs/firestore.md), so teams
// acting at once never contend on one document:
//
//	games/{id}                      the Game (public; "state"), written by admin
//	                                actions and by a team action only when the
//	                                fog frontier moves or the race is won
//	games/{id}/teams/{teamId}       one Team each (public)
//	games/{id}/powerupTiles/{ptId}  one PowerupTile each (public)
//	games/{id}/public/board         the 56 tiles as players may see them
//	games/{id}/public/leaderboard   points per player and the top 10 (trigger)
//	games/{id}/ledger/{awardKey}    one entry per completion's points (trigger)
//	games/{id}/private/board        every tile's content (never readable)
//	games/{id}/private/pools        the task pools (never readable)
//	games/{id}/private/cred-team-{teamId}, cred-admin-{adminId}
//	                                password hashes (never readable)
//	games/{id}/private/server       the seed of the randomisers
const (
	colTeams        = "teams"
	colPowerupTiles = "powerupTiles"
	colPublic       = "public"
	docBoard        = "board"
	docPools        = "pools"
	docLeaderboard  = "leaderboard"
	fBoard          = "board"
	fPools          = "pools"
)

// Principal kinds of Tile Race credentials.
const (
	CredTeam  = "team"
	CredAdmin = "admin"
)

func (s *Store) credRef(gameID, kind, id string) *firestore.DocumentRef {
	return s.gameRef(gameID).Collection(colPrivate).Doc("cred-" + kind + "-" + id)
}
func (s *Store) teamRef(gameID, id string) *firestore.DocumentRef {
	return s.gameRef(gameID).Collection(colTeams).Doc(id)
}
func (s *Store) powerupTileRef(gameID, id string) *firestore.DocumentRef {
	return s.gameRef(gameID).Collection(colPowerupTiles).Doc(id)
}
func (s *Store) publicRef(gameID, doc string) *firestore.DocumentRef {
	return s.gameRef(gameID).Collection(colPublic).Doc(doc)
}
func (s *Store) boardRef(gameID string) *firestore.DocumentRef {
	return s.gameRef(gameID).Collection(colPrivate).Doc(docBoard)
}
func (s *Store) poolsRef(gameID string) *firestore.DocumentRef {
	return s.gameRef(gameID).Collection(colPrivate).Doc(docPools)
}

// Secret is a password hash to store with an action: the team a createTeam
// makes or an updateTeam changes, the admin an addAdmin adds.
type Secret struct {
	Kind string // CredTeam or CredAdmin
	ID   string // "" for the team a createTeam makes
	Hash string
}

// TileRaceRequest is one Tile Race action.
type TileRaceRequest struct {
	GameID string
	Action domain.Action
	// Req is the decoded payload (tilerace.DecodeRequest).
	Req any
	// NewID is the id of the team a createTeam makes.
	NewID string
	// Secret, when set, is stored if the action succeeds.
	Secret *Secret
}

// raceGame is a Tile Race game document as read in a transaction.
type raceGame struct {
	game    tilerace.Game
	version int64
}

func loadRace(tx *firestore.Transaction, st *Store, id string) (*raceGame, error) {
	g, err := loadGame[tilerace.Game](tx, st, tilerace.Kind, id)
	if err != nil {
		return nil, err
	}
	return &raceGame{game: g.State, version: g.Version}, nil
}

// frontierOf reads the fog frontier kept with the public board.
func frontierOf(snap *firestore.DocumentSnapshot) (int, error) {
	if !snap.Exists() {
		return 0, domain.Errorf(domain.EINTERNAL, "the game has no public board")
	}
	n, _ := snap.Data()["revealedUpTo"].(int64)
	return int(n), nil
}

// loadRaceWithFrontier reads the game and its fog frontier in tx: what
// every action but the teams' own needs.
func loadRaceWithFrontier(tx *firestore.Transaction, st *Store, id string) (*raceGame, error) {
	rg, err := loadRace(tx, st, id)
	if err != nil {
		return nil, err
	}
	snap, err := tx.Get(st.publicRef(id, docBoard))
	if err != nil {
		return nil, err
	}
	rg.game.RevealedUpTo, err = frontierOf(snap)
	return rg, err
}

// raceValues reads what an action's Spec says it reads, with one batched
// read for the single documents and one query per collection.
type raceValues struct {
	tilerace.Values
	boardLoaded  bool
	boardVersion int64
	frontier     int // admin actions only
}

func (s *Store) readRace(ctx context.Context, tx *firestore.Transaction, gameID string, spec tilerace.Spec, keys tilerace.Keys) (*raceValues, error) {
	v := &raceValues{}
	var refs []*firestore.DocumentRef
	var fill []func(*firestore.DocumentSnapshot) error
	add := func(ref *firestore.DocumentRef, f func(*firestore.DocumentSnapshot) error) {
		refs = append(refs, ref)
		fill = append(fill, f)
	}
	reads := func(d tilerace.Doc) bool { return slices.Contains(spec.Reads, d) }
	if reads(tilerace.DocTeam) {
		if keys.Team == "" || !validID(keys.Team) {
			return nil, domain.Errorf(domain.EINVALID, "team is required")
		}
		add(s.teamRef(gameID, keys.Team), func(snap *firestore.DocumentSnapshot) error {
			if !snap.Exists() {
				return domain.Errorf(domain.ENOTFOUND, "no team %q in this game", keys.Team)
			}
			return fromFirestore(snap.Data(), &v.Team)
		})
	}
	if reads(tilerace.DocPowerupTile) {
		if keys.PowerupTile == "" || !validID(keys.PowerupTile) {
			return nil, domain.Errorf(domain.EINVALID, "powerupTile is required")
		}
		add(s.powerupTileRef(gameID, keys.PowerupTile), func(snap *firestore.DocumentSnapshot) error {
			if !snap.Exists() {
				return domain.Errorf(domain.ENOTFOUND, "no powerup tile %q in this game", keys.PowerupTile)
			}
			return fromFirestore(snap.Data(), &v.PowerupTile)
		})
	}
	if reads(tilerace.DocTile) || reads(tilerace.DocBoard) {
		add(s.boardRef(gameID), v.fillBoard)
	}
	if reads(tilerace.DocPools) {
		add(s.poolsRef(gameID), func(snap *firestore.DocumentSnapshot) error {
			return fromFirestore(snap.Data()[fPools], &v.Pools)
		})
	}
	// Admin actions see the fog frontier; team actions never read it, so a
	// completion reads nothing another team's completion writes.
	if spec.Who != tilerace.WhoTeam {
		add(s.publicRef(gameID, docBoard), func(snap *firestore.DocumentSnapshot) (err error) {
			v.frontier, err = frontierOf(snap)
			return err
		})
	}
	if len(refs) > 0 {
		snaps, err := tx.GetAll(refs)
		if err != nil {
			return nil, err
		}
		for i, snap := range snaps {
			if err := fill[i](snap); err != nil {
				return nil, err
			}
		}
	}
	if reads(tilerace.DocTeams) {
		snaps, err := tx.Documents(s.gameRef(gameID).Collection(colTeams)).GetAll()
		if err != nil {
			return nil, err
		}
		for _, snap := range snaps {
			var t tilerace.Team
			if err := fromFirestore(snap.Data(), &t); err != nil {
				return nil, err
			}
			v.Teams = append(v.Teams, t)
		}
	}
	if reads(tilerace.DocPowerupTiles) {
		snaps, err := tx.Documents(s.gameRef(gameID).Collection(colPowerupTiles)).GetAll()
		if err != nil {
			return nil, err
		}
		for _, snap := range snaps {
			var pt tilerace.PowerupTile
			if err := fromFirestore(snap.Data(), &pt); err != nil {
				return nil, err
			}
			v.PowerupTiles = append(v.PowerupTiles, pt)
		}
	}
	return v, nil
}

func (v *raceValues) fillBoard(snap *firestore.DocumentSnapshot) error {
	if !snap.Exists() {
		return domain.Errorf(domain.EINTERNAL, "the game has no board")
	}
	v.boardLoaded = true
	v.boardVersion, _ = snap.Data()[fVersion].(int64)
	return fromFirestore(snap.Data()[fBoard], &v.Board)
}

// TileRaceAct runs one Tile Race action in one transaction through the shared
// action pipeline (runAction): it checks the caller may act at all, reads the
// documents the action's Spec lists, runs tilerace.Run and writes exactly the
// documents the Outcome lists, the public board when tiles were revealed,
// hidden or changed in view, the event record (pending when it awards points)
// and the action record. A team completing a tile writes its own team
// document only, unless the fog frontier moves or the race is won.
//
// Errors: as runAction, ENOTFOUND (no such game, team or powerup tile) and
// whatever the action returns.
func TileRaceAct(ctx context.Context, st *Store, r TileRaceRequest) (json.RawMessage, error) {
	a := r.Action
	raise := 0 // the position a completion reached: raise the fog frontier for it after
	reply, err := runAction(ctx, st, r.GameID, a, func(ctx context.Context, tx *firestore.Transaction, now time.Time) (*actionDone, error) {
		spec, ok := tilerace.Specs[a.Type]
		if !ok {
			return nil, domain.Errorf(domain.EINVALID, "unknown action type %q", a.Type)
		}
		rg, err := loadRace(tx, st, r.GameID)
		if err != nil {
			return nil, err
		}
		keys := tilerace.KeysOf(a.Actor, r.Req)
		// Refuse callers who may not act before reading anything more.
		if err := tilerace.Authorize(rg.game, a.Actor, a.Type, keys.Team); err != nil {
			return nil, err
		}
		v, err := st.readRace(ctx, tx, r.GameID, spec, keys)
		if err != nil {
			return nil, err
		}
		v.Game = rg.game
		v.Game.RevealedUpTo = v.frontier
		seed := seedLoader(tx, st, r.GameID)
		dice := &lazyDice{load: seed, seq: v.boardVersion + 1}
		var out tilerace.Outcome
		var nv tilerace.Values
		func() {
			defer seedFailure(&err)
			nv, out, err = tilerace.Run(tilerace.Ctx{Actor: a.Actor, Now: now}, v.Values, tilerace.Input{Type: a.Type, Req: r.Req, NewID: r.NewID, Dice: dice})
		}()
		if err != nil {
			return nil, err
		}
		if out.Wrote(tilerace.DocPublicBoard) && !v.boardLoaded {
			snap, err := tx.Get(st.boardRef(r.GameID))
			if err != nil {
				return nil, err
			}
			if err := v.fillBoard(snap); err != nil {
				return nil, err
			}
			nv.Board = v.Board
		}
		version := rg.version
		if out.Wrote(tilerace.DocGame) {
			version++
		}
		events := out.Events
		raise = completedAt(events)
		return &actionDone{
			reply:   Reply{GameID: r.GameID, Version: version, Events: events, Result: out.Result},
			version: version,
			write: func() error {
				if err := st.writeRace(tx, r, v, nv, out, version, now); err != nil {
					return err
				}
				return st.writeRaceEvents(tx, r.GameID, a, events, now)
			},
		}, nil
	})
	if err == nil && raise > 0 {
		// A transaction of its own, so completions never read the frontier.
		// Should it fail, the record's effects raise it again (the record
		// of a completion is pending), and raising is idempotent.
		_, _ = RaiseFrontier(ctx, st, r.GameID, raise)
	}
	return reply, err
}

// completedAt is the position a team reached by completing a tile (0 when
// events complete nothing or win the race).
func completedAt(events []domain.Event) int {
	for _, e := range events {
		if d, ok := e.Data.(tilerace.TileCompletedData); ok && e.Type == tilerace.EventTileCompleted && d.Tile != tilerace.FinalTile {
			return d.Position
		}
	}
	return 0
}

// RaiseFrontier raises a Tile Race's fog frontier for a team that reached
// tile pos: completions call it after they commit, and the effects of their
// event record call it again in case that call was lost, so the frontier
// stays off the path of completions (they never read it). Raising is
// monotonic, so late, repeated or out-of-order calls agree. It reports
// whether this call moved the frontier.
//
// Concurrency, optimistically: a plain read of the public board (no lock)
// says whether anything is to do (most completions stop here); if so, a
// transaction reads the game and the private board — documents only admin
// actions write — and rewrites the public board on the condition that it
// has not changed since that read. Raisers thus never hold a lock on the
// public board while waiting to write it (two such transactions would wait
// on each other); one that loses the race reads again and usually finds
// nothing left to do.
func RaiseFrontier(ctx context.Context, st *Store, gameID string, pos int) (bool, error) {
	const attempts = 20
	for i := 0; i < attempts; i++ {
		snap, err := st.publicRef(gameID, docBoard).Get(ctx)
		if status.Code(err) == codes.NotFound {
			return false, nil // no such game: nothing to reveal
		}
		if err != nil {
			return false, err
		}
		frontier, err := frontierOf(snap)
		if err != nil || frontier >= tilerace.RevealUpTo(pos) {
			return false, err
		}
		moved := false
		err = st.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
			moved = false
			rg, err := loadRace(tx, st, gameID)
			if err != nil {
				return err
			}
			rg.game.RevealedUpTo = frontier
			g, out, ok := tilerace.RaiseFrontier(rg.game, pos)
			if !ok {
				return nil // the race is not on
			}
			bsnap, err := tx.Get(st.boardRef(gameID))
			if err != nil {
				return err
			}
			var v raceValues
			if err := v.fillBoard(bsnap); err != nil {
				return err
			}
			now := st.now()
			fields, err := publicBoardFields(g, v.Board, now)
			if err != nil {
				return err
			}
			if err := tx.Update(st.publicRef(gameID, docBoard), fields, firestore.LastUpdateTime(snap.UpdateTime)); err != nil {
				return err
			}
			moved = true
			sys := domain.Action{ID: "reveal-" + NewID(), Type: "raiseFrontier", Actor: domain.System}
			return st.writeRaceEvents(tx, gameID, sys, out.Events, now)
		})
		if status.Code(err) == codes.FailedPrecondition {
			continue // the board changed since the read: look again
		}
		return moved, err
	}
	return false, fmt.Errorf("store: fog frontier of %s not raised after %d attempts", gameID, attempts)
}

// writeRace writes what an Outcome lists. All reads are done.
func (s *Store) writeRace(tx *firestore.Transaction, r TileRaceRequest, old *raceValues, v tilerace.Values, out tilerace.Outcome, version int64, now time.Time) error {
	id := r.GameID
	set := func(ref *firestore.DocumentRef, value any, extra map[string]any) error {
		m, err := toFirestore(value)
		if err != nil {
			return err
		}
		doc, _ := m.(map[string]any)
		for k, x := range extra {
			doc[k] = x
		}
		return tx.Set(ref, doc)
	}
	for _, d := range out.Writes {
		var err error
		switch d {
		case tilerace.DocGame:
			err = s.writeRaceGame(tx, id, v.Game, version, now)
		case tilerace.DocTeam:
			err = set(s.teamRef(id, v.Team.ID), v.Team, map[string]any{fUpdatedAt: now})
		case tilerace.DocTeams:
			for _, t := range v.Teams {
				if err = set(s.teamRef(id, t.ID), t, map[string]any{fUpdatedAt: now}); err != nil {
					break
				}
			}
		case tilerace.DocTile, tilerace.DocBoard:
			err = tx.Set(s.boardRef(id), map[string]any{fBoard: mustFirestore(v.Board), fVersion: old.boardVersion + 1, fUpdatedAt: now})
		case tilerace.DocPools:
			err = tx.Set(s.poolsRef(id), map[string]any{fPools: mustFirestore(v.Pools), fUpdatedAt: now})
		case tilerace.DocPowerupTile:
			err = set(s.powerupTileRef(id, v.PowerupTile.ID), v.PowerupTile, nil)
		case tilerace.DocPowerupTiles:
			for _, pt := range v.PowerupTiles {
				if err = set(s.powerupTileRef(id, pt.ID), pt, nil); err != nil {
					break
				}
			}
		case tilerace.DocPublicBoard:
			err = s.writePublicBoard(tx, v.Game, v.Board, now)
		}
		if err != nil {
			return err
		}
	}
	for _, d := range out.Deletes {
		switch d {
		case tilerace.DocTeam:
			if err := tx.Delete(s.teamRef(id, old.Team.ID)); err != nil {
				return err
			}
			if err := tx.Delete(s.credRef(id, CredTeam, old.Team.ID)); err != nil {
				return err
			}
		case tilerace.DocPowerupTile:
			if err := tx.Delete(s.powerupTileRef(id, old.PowerupTile.ID)); err != nil {
				return err
			}
		case tilerace.DocPowerupTiles:
			for _, pt := range old.PowerupTiles {
				if err := tx.Delete(s.powerupTileRef(id, pt.ID)); err != nil {
					return err
				}
			}
		}
	}
	if r.Action.Type == tilerace.ActionRemoveAdmin {
		if req, ok := r.Req.(*tilerace.AdminRequest); ok && validID(req.ID) {
			if err := tx.Delete(s.credRef(id, CredAdmin, req.ID)); err != nil {
				return err
			}
		}
	}
	if sec := r.Secret; sec != nil {
		who := sec.ID
		if who == "" {
			who = v.Team.ID
		}
		if err := tx.Set(s.credRef(id, sec.Kind, who), map[string]any{"hash": sec.Hash, "failures": 0, fUpdatedAt: now}); err != nil {
			return err
		}
	}
	return nil
}

func mustFirestore(v any) any {
	m, err := toFirestore(v)
	if err != nil {
		panic(err) // the domain's values always marshal
	}
	return m
}

// raceHeader is the platform header of a race: its status (players are
// teams, kept in their own documents; a race has no deadline).
func raceHeader(g tilerace.Game) domain.Header {
	status := domain.StatusActive
	switch g.Status {
	case tilerace.StatusSetup:
		status = domain.StatusWaiting
	case tilerace.StatusFinished:
		status = domain.StatusOver
	}
	return domain.Header{Status: status, Players: []string{}}
}

func (s *Store) writeRaceGame(tx *firestore.Transaction, id string, g tilerace.Game, version int64, now time.Time) error {
	fields, err := gameFields(raceHeader(g), g, version, now)
	if err != nil {
		return err
	}
	return tx.Update(s.gameRef(id), fields)
}

// PublicBoard is the document games/{id}/public/board: every tile as players
// may see it (a hidden tile carries its place and nothing else).
type PublicBoard struct {
	Tiles        []tilerace.PublicTile `json:"tiles"`
	Fog          tilerace.FogMode      `json:"fog"`
	RevealedUpTo int                   `json:"revealedUpTo"`
	UpdatedAt    time.Time             `json:"updatedAt"`
}

// writePublicBoard rewrites the whole public board from the private one.
// Rewriting all 56 tiles (a few kilobytes) keeps it exact whatever changed;
// the Outcome's Publish list says that something did.
func (s *Store) writePublicBoard(tx *firestore.Transaction, g tilerace.Game, b tilerace.Board, now time.Time) error {
	doc, err := publicBoardDoc(g, b, now)
	if err != nil {
		return err
	}
	return tx.Set(s.publicRef(g.ID, docBoard), doc)
}

func publicBoardDoc(g tilerace.Game, b tilerace.Board, now time.Time) (map[string]any, error) {
	pb := PublicBoard{Tiles: tilerace.ViewBoard(g, b, false), Fog: g.Fog, RevealedUpTo: g.RevealedUpTo, UpdatedAt: now}
	m, err := toFirestore(pb)
	if err != nil {
		return nil, err
	}
	doc := m.(map[string]any)
	doc[fUpdatedAt] = now
	return doc, nil
}

// publicBoardFields is the whole public board as the fields of an Update.
func publicBoardFields(g tilerace.Game, b tilerace.Board, now time.Time) ([]firestore.Update, error) {
	doc, err := publicBoardDoc(g, b, now)
	if err != nil {
		return nil, err
	}
	var fields []firestore.Update
	for k, v := range doc {
		fields = append(fields, firestore.Update{Path: k, Value: v})
	}
	return fields, nil
}

// writeRaceEvents writes the event record of a Tile Race action:
// games/{id}/events/{actorId}~{actionId} (the action record's id: unique, and
// no counter shared by teams), ordered by "at". It is pending when the
// triggers have points to award.
func (s *Store) writeRaceEvents(tx *firestore.Transaction, gameID string, a domain.Action, events []domain.Event, now time.Time) error {
	evs, err := toFirestore(events)
	if err != nil {
		return err
	}
	if evs == nil {
		evs = []any{}
	}
	return tx.Create(s.eventRef(gameID, a.Actor.ID+"~"+a.ID), map[string]any{
		"seq": 0, fAt: now, fKind: tilerace.Kind, "type": a.Type, "actionId": a.ID,
		"actor":  map[string]any{"id": a.Actor.ID, "name": a.Actor.Name, "role": string(a.Actor.Role), "team": a.Actor.Team},
		"events": evs,
		fPending: tilerace.HasEffects(events),
	})
}

// RaceCreated is what creating a Tile Race returns.
type RaceCreated struct {
	GameID   string `json:"gameId"`
	MasterID string `json:"masterId"`
	SeedHash string `json:"seedHash"`
}

// CreateTileRace creates a Tile Race game in setup with its master admin
// (whose password hash is stored), an empty board and empty pools. A retry
// with the same id by the same creator returns the game made the first time.
//
// Errors: EINVALID (bad id or name), EEXISTS (the id is taken by another
// game).
func CreateTileRace(ctx context.Context, st *Store, id string, master tilerace.Admin, hash, seed string) (RaceCreated, error) {
	now := st.now()
	g, b, p, err := tilerace.NewGame(id, master, now)
	if err != nil {
		return RaceCreated{}, err
	}
	if seed == "" || !st.FixedSeeds {
		seed = NewSeed()
	}
	created := RaceCreated{GameID: id, MasterID: master.ID, SeedHash: domain.SeedHash(seed)}
	err = st.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		snap, err := tx.Get(st.gameRef(id))
		if err == nil {
			var prev tilerace.Game
			if k, _ := snap.Data()[fKind].(string); k == tilerace.Kind && fromFirestore(snap.Data()[fState], &prev) == nil &&
				len(prev.Admins) > 0 && prev.Admins[0].ID == master.ID && strings.EqualFold(prev.Admins[0].Name, g.Admins[0].Name) {
				created.SeedHash, _ = snap.Data()[fSeedHash].(string)
				return nil
			}
			return domain.Errorf(domain.EEXISTS, "game %q already exists", id)
		}
		if status.Code(err) != codes.NotFound {
			return err
		}
		if err := createGame(tx, st, tilerace.Kind, id, raceHeader(g), g, seed, "", now); err != nil {
			return err
		}
		if err := tx.Create(st.boardRef(id), map[string]any{fBoard: mustFirestore(b), fVersion: int64(0), fUpdatedAt: now}); err != nil {
			return err
		}
		if err := tx.Create(st.poolsRef(id), map[string]any{fPools: mustFirestore(p), fUpdatedAt: now}); err != nil {
			return err
		}
		if err := tx.Create(st.credRef(id, CredAdmin, master.ID), map[string]any{"hash": hash, "failures": 0, fUpdatedAt: now}); err != nil {
			return err
		}
		return st.writePublicBoard(tx, g, b, now)
	})
	return created, err
}

// RaceLogin checks a team's or an admin's password and returns the game as it
// is now. who is a team or admin id, or its name (ignoring case).
//
// Errors: EUNAUTHORIZED (unknown game, team or admin, or a wrong password,
// not told apart), ELIMIT (too many failures).
func (s *Store) RaceLogin(ctx context.Context, gameID, kind, who string, verify func(hash string) bool) (tilerace.Game, string, error) {
	wrong := domain.Errorf(domain.EUNAUTHORIZED, "wrong game, name or password")
	if !validID(gameID) || who == "" {
		return tilerace.Game{}, "", wrong
	}
	var g tilerace.Game
	if _, err := s.GameState(ctx, gameID, &g); err != nil || g.ID == "" {
		return tilerace.Game{}, "", wrong
	}
	id := ""
	if kind == CredTeam {
		for _, t := range g.Teams {
			if t.ID == who || strings.EqualFold(t.Name, who) {
				id = t.ID
			}
		}
	} else {
		for _, a := range g.Admins {
			if a.ID == who || strings.EqualFold(a.Name, who) {
				id = a.ID
			}
		}
	}
	if id == "" {
		// Team and admin names are public (the roster), so answering an
		// unknown name faster than a wrong password reveals nothing.
		return tilerace.Game{}, "", wrong
	}
	var now tilerace.Game
	err := s.checkPassword(ctx, s.credRef(gameID, kind, id), []*firestore.DocumentRef{s.gameRef(gameID)}, verify, wrong,
		func(docs []*firestore.DocumentSnapshot) { _ = fromFirestore(docs[0].Data()[fState], &now) })
	return now, id, err
}

// RaceBoard reads a game and its private board, for the admin view.
func (s *Store) RaceBoard(ctx context.Context, gameID string) (tilerace.Game, tilerace.Board, error) {
	var g tilerace.Game
	if _, err := s.GameState(ctx, gameID, &g); err != nil {
		return g, tilerace.Board{}, err
	}
	if g.ID == "" {
		return g, tilerace.Board{}, domain.Errorf(domain.ENOTFOUND, "no tilerace game %q", gameID)
	}
	snaps, err := s.FS.GetAll(ctx, []*firestore.DocumentRef{s.boardRef(gameID), s.publicRef(gameID, docBoard)})
	if err != nil {
		return g, tilerace.Board{}, err
	}
	var v raceValues
	if g.RevealedUpTo, err = frontierOf(snaps[1]); err != nil {
		return g, tilerace.Board{}, err
	}
	if err := v.fillBoard(snaps[0]); err != nil {
		return g, tilerace.Board{}, err
	}
	return g, v.Board, nil
}

// AutoDisableFog turns the fog off for everyone after a randomiser could not
// meet its constraints (ruling 17): a system step of its own, so the refused
// action itself still wrote nothing. It reports whether the fog changed.
func AutoDisableFog(ctx context.Context, st *Store, gameID, admin string) (bool, error) {
	changed := false
	err := st.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		changed = false
		rg, err := loadRaceWithFrontier(tx, st, gameID)
		if err != nil {
			return err
		}
		g, out, ok := tilerace.AutoDisableFog(rg.game, admin)
		if !ok {
			return nil
		}
		snap, err := tx.Get(st.boardRef(gameID))
		if err != nil {
			return err
		}
		var v raceValues
		if err := v.fillBoard(snap); err != nil {
			return err
		}
		now := st.now()
		changed = true
		if err := st.writeRaceGame(tx, gameID, g, rg.version+1, now); err != nil {
			return err
		}
		if err := st.writePublicBoard(tx, g, v.Board, now); err != nil {
			return err
		}
		sys := domain.Action{ID: "autofog-" + NewID(), Type: "autoDisableFog", Actor: domain.System}
		return st.writeRaceEvents(tx, gameID, sys, out.Events, now)
	})
	return changed, err
}
