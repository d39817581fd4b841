package store

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// Results a ledger entry records for one player of a finished game.
const (
	ResultWin  = "win"
	ResultLoss = "loss"
	ResultDraw = "draw"
)

// DefaultMode is the mode results are kept under when a game has no modes.
const DefaultMode = "default"

// Fields of an event record (games/{id}/events/{seq}) the effects use.
const (
	fPending      = "pending"
	fAt           = "at"
	fEffectsAt    = "effectsAt"
	fEffectsError = "effectsError"
)

// Fields of a game end's event record that keep its results (resultFields):
// the players it gave a result, for a player's history (a query of the
// events collection group where players array-contains the player), and the
// results themselves.
const (
	fResultPlayers = "players"
	fResults       = "results"
)

// Totals are one player's results in one kind and mode.
type Totals struct {
	Wins   int64 `json:"wins"`
	Losses int64 `json:"losses"`
	Draws  int64 `json:"draws"`
	Played int64 `json:"played"`
}

func (t Totals) add(u Totals) Totals {
	return Totals{Wins: t.Wins + u.Wins, Losses: t.Losses + u.Losses, Draws: t.Draws + u.Draws, Played: t.Played + u.Played}
}

// PlayerTotals reads a player's totals in one kind and mode (zero when none).
func (s *Store) PlayerTotals(ctx context.Context, playerID, kind, mode string) (Totals, error) {
	snap, err := s.playerRef(playerID).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return Totals{}, nil
	}
	if err != nil {
		return Totals{}, err
	}
	return totalsIn(snap.Data(), kind, mode), nil
}

func totalsIn(player map[string]any, kind, mode string) Totals {
	stats, _ := player["stats"].(map[string]any)
	k, _ := stats[kind].(map[string]any)
	m, _ := k[mode].(map[string]any)
	n := func(f string) int64 { v, _ := m[f].(int64); return v }
	return Totals{Wins: n("wins"), Losses: n("losses"), Draws: n("draws"), Played: n("played")}
}

// award is one player's result in a finished game, as the game end's
// record keeps it (fResults) and PlayerResults reads it back.
type award struct {
	Player string `firestore:"player"`
	Result string `firestore:"result"`
	Kind   string `firestore:"kind"`
	Mode   string `firestore:"mode"`
	Reason string `firestore:"reason"`
}

// board is a leaderboard touched by one event record.
type board struct{ kind, mode string }

// effects is what one event record asks for.
type effects struct {
	awards  []award
	players []string // distinct, in first-seen order
	boards  []board  // distinct, in first-seen order
	delta   map[string]map[board]Totals
}

// recordEvent is the part of an event record's events the effects read.
type recordEvent struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// collectEffects decodes the gameOver events of a record into awards; it
// calls players (the players seated in the game) only when a draw names no
// players, as events from before GameOver named them did.
func (s *Store) collectEffects(players func() ([]string, error), gameID, seq string, record map[string]any) (*effects, error) {
	var evs []recordEvent
	if err := fromFirestore(record["events"], &evs); err != nil {
		return nil, domain.Errorf(domain.EINVALID, "event record %s/%s: %v", gameID, seq, err)
	}
	recordKind, _ := record[fKind].(string)
	fx := &effects{delta: map[string]map[board]Totals{}}
	var gamePlayers []string
	for _, ev := range evs {
		if ev.Type != domain.EventGameOver {
			continue
		}
		var over domain.GameOver
		if err := json.Unmarshal(ev.Data, &over); err != nil {
			return nil, domain.Errorf(domain.EINVALID, "event record %s/%s: gameOver: %v", gameID, seq, err)
		}
		kind, mode := over.Kind, over.Mode
		if kind == "" {
			kind = recordKind
		}
		if mode == "" {
			mode = DefaultMode
		}
		if !validID(kind) || !validID(mode) {
			return nil, domain.Errorf(domain.EINVALID, "event record %s/%s: bad kind %q or mode %q", gameID, seq, kind, mode)
		}
		if withBot(over) {
			// A game with a bot changes nobody's stats or leaderboards
			// (docs/bots.md): a win against a random mover is no win.
			continue
		}
		b := board{kind, mode}
		results := map[string]string{}
		var order []string
		put := func(ids []string, result string) {
			for _, p := range ids {
				if _, dup := results[p]; !dup {
					results[p] = result
					order = append(order, p)
				}
			}
		}
		if over.Draw {
			ids := over.Players
			if len(ids) == 0 {
				ids = append(append([]string(nil), over.Winners...), over.Losers...)
			}
			if len(ids) == 0 { // an event from before GameOver named its players
				if gamePlayers == nil {
					var err error
					if gamePlayers, err = players(); err != nil {
						return nil, err
					}
				}
				ids = gamePlayers
			}
			put(ids, ResultDraw)
		} else {
			put(over.Winners, ResultWin)
			put(over.Losers, ResultLoss)
		}
		for _, p := range order {
			if !validID(p) {
				return nil, domain.Errorf(domain.EINVALID, "event record %s/%s: bad player id %q", gameID, seq, p)
			}
		}
		if len(order) == 0 {
			continue
		}
		for _, p := range order {
			r := results[p]
			fx.awards = append(fx.awards, award{Player: p, Kind: kind, Mode: mode, Result: r, Reason: over.Reason})
			if fx.delta[p] == nil {
				fx.delta[p] = map[board]Totals{}
				fx.players = append(fx.players, p)
			}
			d := Totals{Played: 1}
			switch r {
			case ResultWin:
				d.Wins = 1
			case ResultLoss:
				d.Losses = 1
			case ResultDraw:
				d.Draws = 1
			}
			fx.delta[p][b] = fx.delta[p][b].add(d)
		}
		if !containsBoard(fx.boards, b) {
			fx.boards = append(fx.boards, b)
		}
	}
	return fx, nil
}

func containsBoard(bs []board, b board) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

// playersOf reads the players seated in a game.
func playersOf(tx txn, s *Store, gameID string) ([]string, error) {
	snap, err := tx.Get(s.gameRef(gameID))
	if status.Code(err) == codes.NotFound {
		return []string{}, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	if err := fromFirestore(snap.Data()[fPlayers], &ids); err != nil {
		return nil, domain.Errorf(domain.EINVALID, "game %s: players: %v", gameID, err)
	}
	if ids == nil {
		ids = []string{}
	}
	return ids, nil
}

// errNeedsPlayers: a record's awards need the game's players, which the
// commit that creates the record cannot read (its reads are done).
var errNeedsPlayers = errors.New("store: a draw that names no players needs the game's")

// statsInCommit returns what writes a new record's stats in the commit that
// creates it (the action's own, exactly once as the action is), the fields
// the record gets for its results (resultFields) and the leaderboards they
// change, when nothing else is to run on the record: the game keeps stats,
// one of its events ends the game, the game registered no handler for any of
// them, and its awards need no read. ok is false otherwise, and also for a
// record the effects would refuse (EINVALID): it is then written pending,
// and ApplyEffects runs its effects after the commit, or retires it. A
// game's end then costs no second write of its record, no trigger's read of
// it, and its players' totals are exact when its last action replies (issue
// 22).
func (s *Store) statsInCommit(tx txn, e domain.Entry, gameID, id string, record map[string]any, events []domain.Event) (write func() error, fields map[string]any, boards []Board, ok bool) {
	if !e.Stats || !overIn(events) || s.Games.handled(e, events) {
		return nil, nil, nil, false
	}
	fx, err := s.collectEffects(func() ([]string, error) { return nil, errNeedsPlayers }, gameID, id, record)
	if err != nil {
		return nil, nil, nil, false
	}
	write, boards = s.statsWrites(tx, fx)
	return write, resultFields(fx), boards, true
}

// resultFields are what a game end's record keeps of its results: the
// players it gave one (fResultPlayers) and each result (fResults), nil when
// it gave none. They are the players' ledger: one entry per result, in the
// document that made it, written in the commit that counts it in the
// player's totals (the action's, or the effects' that clear the record's
// pending flag), so an entry is there exactly when its result is counted,
// and never twice. Before issue 22's last change each result was also a
// document of its own, players/{id}/ledger/{gameId}-{seq}: a write per
// player per game that repeated the record.
func resultFields(fx *effects) map[string]any {
	if len(fx.awards) == 0 {
		return nil
	}
	return map[string]any{fResultPlayers: fx.players, fResults: fx.awards}
}

// statsWrites returns what writes the players' totals of an event record's
// results, to call once every read of the transaction is done, and the
// leaderboards the record changes. It reads nothing: the totals (and their
// rankKey) are kept with increments, so the transaction locks no player's
// document before its commit, and a player in several games ending at once
// never makes one wait on another. It writes no leaderboard: those are
// rebuilt by the tick from the players' totals (leaderboards.go), so game
// ends of many players never queue on one document.
func (s *Store) statsWrites(tx txn, fx *effects) (func() error, []Board) {
	if len(fx.awards) == 0 {
		return func() error { return nil }, nil
	}
	boards := make([]Board, 0, len(fx.boards))
	for _, b := range fx.boards {
		boards = append(boards, Board{Kind: b.kind, Mode: b.mode})
	}
	return func() error {
		for _, p := range fx.players {
			stats := map[string]any{}
			for b, d := range fx.delta[p] {
				k, _ := stats[b.kind].(map[string]any)
				if k == nil {
					k = map[string]any{}
					stats[b.kind] = k
				}
				k[b.mode] = map[string]any{
					"wins": firestore.Increment(d.Wins), "losses": firestore.Increment(d.Losses),
					"draws": firestore.Increment(d.Draws), "played": firestore.Increment(d.Played),
					fRankKey: firestore.Increment(rankKey(d)), // rankKey is linear in wins and losses
				}
			}
			if err := tx.Set(s.playerRef(p), map[string]any{"stats": stats}, firestore.MergeAll); err != nil {
				return err
			}
		}
		return nil
	}, boards
}

// validID reports whether s can be a document id (and a path segment).
func validID(s string) bool {
	return s != "" && len(s) <= 500 && s != "." && s != ".." && !strings.Contains(s, "/") &&
		!(strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__"))
}

// withBot reports whether a bot played in a finished game.
func withBot(over domain.GameOver) bool {
	for _, ids := range [][]string{over.Players, over.Winners, over.Losers} {
		for _, p := range ids {
			if domain.IsBot(p) {
				return true
			}
		}
	}
	return false
}

// Result is one entry of a player's ledger: their result in a finished game.
type Result struct {
	GameID string    `json:"gameId"`
	Event  string    `json:"event"` // the id of the game end's event record
	Kind   string    `json:"kind"`
	Mode   string    `json:"mode"`
	Result string    `json:"result"` // ResultWin, ResultLoss or ResultDraw
	Reason string    `json:"reason,omitempty"`
	At     time.Time `json:"at"`
}

// PlayerResults lists a player's results, newest first, at most limit
// (1 to 500): the event records of the game ends that counted one in the
// player's totals (resultFields), found with the query a client makes too
// (docs/firestore.md, "A player's results"): the events collection group
// where players array-contains the player, ordered by at descending.
//
// Errors: EINVALID for an id that cannot name a player or a bad limit.
func (s *Store) PlayerResults(ctx context.Context, playerID string, limit int) ([]Result, error) {
	if !validID(playerID) {
		return nil, domain.Errorf(domain.EINVALID, "bad player id %q", playerID)
	}
	if limit < 1 || limit > 500 {
		return nil, domain.Errorf(domain.EINVALID, "limit %d: want 1 to 500", limit)
	}
	snaps, err := s.FS.CollectionGroup(colEvents).Where(fResultPlayers, "array-contains", playerID).
		OrderBy(fAt, firestore.Desc).Limit(limit).Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	var out []Result
	for _, snap := range snaps {
		game, ok := gameOf(snap.Ref)
		if !ok {
			continue // an events collection elsewhere: no game's
		}
		var rec struct {
			At      time.Time `firestore:"at"`
			Results []award   `firestore:"results"`
		}
		if err := snap.DataTo(&rec); err != nil {
			return nil, err
		}
		for _, r := range rec.Results {
			if r.Player == playerID {
				out = append(out, Result{GameID: game, Event: snap.Ref.ID,
					Kind: r.Kind, Mode: r.Mode, Result: r.Result, Reason: r.Reason, At: rec.At})
			}
		}
	}
	return out, nil
}
