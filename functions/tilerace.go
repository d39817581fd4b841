package functions

import (
	"context"
	"net/http"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/store"
)

// MaxTileRaceBody caps a Tile Race request: imports carry a CSV/TSV file of
// up to tilerace's 512 KiB limit, JSON-escaped.
const MaxTileRaceBody = 1 << 20

// MasterAdminID is the admin id of the admin who creates a Tile Race.
const MasterAdminID = "master"

// Password lengths. Accounts and Tile Race admins (who guard a whole event)
// need 8 bytes; team passwords are shared by a team's members and typed on
// phones, so they may be short.
const (
	minPassword     = 8
	minTeamPassword = 4
	maxPassword     = 72 // bcrypt's limit
)

// raceCreate is the payload of a Tile Race "create".
type raceCreate struct {
	Name     string `json:"name"`     // the master admin's name
	Password string `json:"password"` // the master admin's password
	Seed     string `json:"seed"`     // local stack only: a reproducible randomiser
}

// racePassword is the password field some admin actions carry besides their
// domain payload: createTeam, updateTeam (optional) and addAdmin.
type racePassword struct {
	Password *string `json:"password"`
}

// tileRace serves POST /TileRace: "create" by any signed-in caller (who
// becomes the master admin and gets an admin session), "viewBoard" (the
// admin view of every tile, read outside a transaction), and every other
// action of tilerace.Specs through store.TileRaceAct. Teams and admins sign
// in with the Auth function ("teamLogin", "adminLogin").
func (s *Server) tileRace() http.HandlerFunc {
	return s.serve(endpoint{maxBody: MaxTileRaceBody, specials: map[string]special{
		"create":                 s.raceCreate,
		tilerace.ActionViewBoard: s.raceViewBoard,
	}}, s.raceAct)
}

func (s *Server) raceCreate(ctx context.Context, c Call) (any, error) {
	if c.Envelope.ActionID == "" {
		return nil, domain.Errorf(domain.EINVALID, "actionId is required")
	}
	if c.Actor.Role != domain.RoleGuest && c.Actor.Role != domain.RolePlayer {
		return nil, domain.Errorf(domain.EFORBIDDEN, "sign in as a player or guest to create a game")
	}
	var req raceCreate
	if err := decodeObject(c.Body, &req); err != nil {
		return nil, err
	}
	if err := checkPassword("password", req.Password, minPassword); err != nil {
		return nil, err
	}
	id := store.CreateID(c.Actor.ID, c.Envelope.ActionID)
	master := tilerace.Admin{ID: MasterAdminID, Name: req.Name}
	if _, _, _, err := tilerace.NewGame(id, master, s.now()); err != nil {
		return nil, err // a bad name, before paying for a hash
	}
	hash, err := s.hashPassword(req.Password)
	if err != nil {
		return nil, err
	}
	created, err := store.CreateTileRace(ctx, s.Store, id, master, hash, req.Seed)
	if err != nil {
		return nil, err
	}
	session, err := s.sessionFor(ctx, domain.Actor{ID: MasterAdminID, Name: strings.TrimSpace(req.Name), Role: domain.RoleMaster, Game: id})
	if err != nil {
		return nil, err
	}
	return store.Reply{GameID: id, Events: []domain.Event{}, Result: map[string]any{"game": created, "session": session}}, nil
}

func (s *Server) raceViewBoard(ctx context.Context, c Call) (any, error) {
	g, b, err := s.Store.RaceBoard(ctx, c.Envelope.GameID)
	if err != nil {
		return nil, err
	}
	tiles, err := tilerace.AdminBoard(tilerace.Ctx{Actor: c.Actor, Now: s.now()}, g, b)
	if err != nil {
		return nil, err
	}
	return store.Reply{GameID: g.ID, Events: []domain.Event{}, Result: map[string]any{"tiles": tiles}}, nil
}

// raceAct runs any other Tile Race action. Passwords are hashed here (the
// domain never sees them) and stored by the same transaction; a randomiser
// refused because the pools cannot meet the constraints turns the fog off
// for everyone afterwards, as a separate system step (ruling 17).
func (s *Server) raceAct(ctx context.Context, c Call) (any, error) {
	req, err := tilerace.DecodeRequest(c.Envelope.Type, c.Body)
	if err != nil {
		return nil, err
	}
	r := store.TileRaceRequest{GameID: c.Envelope.GameID, Action: c.Action(), Req: req}
	switch c.Envelope.Type {
	case tilerace.ActionCreateTeam, tilerace.ActionUpdateTeam, tilerace.ActionAddAdmin:
		var pw racePassword
		if err := decodeObject(c.Body, &pw); err != nil {
			return nil, err
		}
		sec := &store.Secret{Kind: store.CredTeam}
		min := minTeamPassword
		switch c.Envelope.Type {
		case tilerace.ActionCreateTeam:
			if pw.Password == nil {
				return nil, domain.Errorf(domain.EINVALID, "password is required: the team signs in with it")
			}
			r.NewID = "t-" + store.CreateID(c.Actor.ID, c.Envelope.ActionID)[:10]
		case tilerace.ActionUpdateTeam:
			sec.ID = req.(*tilerace.UpdateTeamRequest).Team
		case tilerace.ActionAddAdmin:
			if pw.Password == nil {
				return nil, domain.Errorf(domain.EINVALID, "password is required: the admin signs in with it")
			}
			sec.Kind, sec.ID, min = store.CredAdmin, req.(*tilerace.AdminRequest).ID, minPassword
		}
		if pw.Password != nil {
			if err := checkPassword("password", *pw.Password, min); err != nil {
				return nil, err
			}
			hash, err := s.hashPassword(*pw.Password)
			if err != nil {
				return nil, err
			}
			sec.Hash = hash
			r.Secret = sec
			if u, ok := req.(*tilerace.UpdateTeamRequest); ok {
				u.PasswordChanged = true
			}
		}
	}
	reply, err := store.TileRaceAct(ctx, s.Store, r)
	if err != nil && tilerace.IsRandomiseFailure(err) {
		name := c.Actor.Name
		if _, ferr := store.AutoDisableFog(ctx, s.Store, r.GameID, name); ferr != nil {
			return nil, ferr
		}
	}
	return reply, err
}

// checkPassword checks a new password's length.
//
// Errors: EINVALID.
func checkPassword(field, pw string, min int) error {
	if n := len(pw); n < min || n > maxPassword {
		return domain.Errorf(domain.EINVALID, "%s must be %d to %d bytes", field, min, maxPassword)
	}
	return nil
}

// raceSignIn signs a team or an admin in to one Tile Race game.
//
// Errors: EINVALID (missing fields), EUNAUTHORIZED, ELIMIT.
func (s *Server) raceSignIn(ctx context.Context, req AuthRequest) (domain.Actor, error) {
	kind, who := store.CredTeam, req.Team
	if req.Type == "adminLogin" {
		kind, who = store.CredAdmin, req.Admin
	}
	if req.GameID == "" || who == "" || req.Password == "" {
		return domain.Actor{}, domain.Errorf(domain.EINVALID, "gameId, %s and password are required", kind)
	}
	g, id, err := s.Store.RaceLogin(ctx, req.GameID, kind, who, func(hash string) bool {
		return bcrypt.CompareHashAndPassword([]byte(hash), []byte(req.Password)) == nil
	})
	if err != nil {
		return domain.Actor{}, err
	}
	if kind == store.CredTeam {
		ref, ok := g.TeamRef(id)
		if !ok {
			return domain.Actor{}, domain.Errorf(domain.EUNAUTHORIZED, "wrong game, name or password")
		}
		return domain.Actor{ID: id, Name: ref.Name, Role: domain.RoleTeam, Game: g.ID, Team: id}, nil
	}
	a, ok := g.Admin(id)
	if !ok {
		return domain.Actor{}, domain.Errorf(domain.EUNAUTHORIZED, "wrong game, name or password")
	}
	role := domain.RoleAdmin
	if a.Master {
		role = domain.RoleMaster
	}
	return domain.Actor{ID: a.ID, Name: a.Name, Role: role, Game: g.ID}, nil
}
