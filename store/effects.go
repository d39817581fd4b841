package store

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
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

// LedgerID is the id of the ledger entry a player gets for the i-th gameOver
// event of the event record eventID of a game: "{gameId}-{seq}" for a record
// EventID(seq) (without the padding), "{gameId}-{eventID}" otherwise, with
// "-{i}" added for i > 0 (a step never ends a game twice, so in practice i is 0).
func LedgerID(gameID, eventID string, i int) string {
	id := gameID + "-" + eventID
	if seq, err := strconv.ParseInt(eventID, 10, 64); err == nil && EventID(seq) == eventID {
		id = gameID + "-" + strconv.FormatInt(seq, 10)
	}
	if i > 0 {
		id += "-" + strconv.Itoa(i)
	}
	return id
}

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

// award is one ledger entry to write.
type award struct {
	player, kind, mode, result, reason, ledgerID string
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
	n := 0
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
			fx.awards = append(fx.awards, award{player: p, kind: kind, mode: mode, result: r, reason: over.Reason, ledgerID: LedgerID(gameID, seq, n)})
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
		n++
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
// creates it (the action's own, exactly once as the action is), and the
// leaderboards they change, when nothing else is to run on the record: the
// game keeps stats, one of its events ends the game, the game registered no
// handler for any of them, and its awards need no read. ok is false
// otherwise, and also for a record the effects would refuse (EINVALID): it
// is then written pending, and ApplyEffects runs its effects after the
// commit, or retires it. A game's end then costs no second write of its
// record, no trigger's read of it, and its players' totals are exact when
// its last action replies (issue 22).
func (s *Store) statsInCommit(tx txn, e domain.Entry, gameID, id string, record map[string]any, events []domain.Event, now time.Time) (write func() error, boards []Board, ok bool) {
	if !e.Stats || !overIn(events) || s.Games.handled(e, events) {
		return nil, nil, false
	}
	fx, err := s.collectEffects(func() ([]string, error) { return nil, errNeedsPlayers }, gameID, id, record)
	if err != nil {
		return nil, nil, false
	}
	write, boards, err = s.statsWrites(tx, gameID, id, record, fx, now)
	return write, boards, err == nil
}

// statsWrites returns what writes the ledger entries and the players'
// totals of an event record's results, to call once every read of the
// transaction is done, and the leaderboards the record changes. It reads
// nothing: the totals (and their rankKey) are kept with increments, so the
// transaction locks no player's document before its commit, and a player
// in several games ending at once never makes one wait on another. It
// writes no leaderboard: those are rebuilt by the tick from the players'
// totals (leaderboards.go), so game ends of many players never queue on
// one document.
func (s *Store) statsWrites(tx txn, gameID, seq string, record map[string]any, fx *effects, now time.Time) (func() error, []Board, error) {
	if len(fx.awards) == 0 {
		return func() error { return nil }, nil, nil
	}
	boards := make([]Board, 0, len(fx.boards))
	for _, b := range fx.boards {
		boards = append(boards, Board{Kind: b.kind, Mode: b.mode})
	}
	return func() error {
		at, _ := record[fAt].(time.Time)
		if at.IsZero() {
			at = now
		}
		for _, a := range fx.awards {
			ref := s.playerRef(a.player).Collection(colLedger).Doc(a.ledgerID)
			// Create, not Set: the record's pending flag already makes this run
			// once, and an existing entry would mean something else awarded it.
			if err := tx.Create(ref, map[string]any{
				"result": a.result, "kind": a.kind, "mode": a.mode, "gameId": gameID, "event": seq,
				"reason": a.reason, "at": at, "appliedAt": now,
			}); err != nil {
				return err
			}
		}
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
	}, boards, nil
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
