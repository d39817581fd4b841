package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
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

// Leaderboard sizes: Top entries are shown; up to LeaderboardPool are kept so a
// shown player who slips down is replaced by the right one (docs/triggers.md).
const (
	LeaderboardTop  = 10
	LeaderboardPool = 50
)

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

// LeaderboardID is the id of the leaderboard of one kind and mode.
func LeaderboardID(kind, mode string) string { return kind + "-" + mode }

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

// LeaderEntry is one line of a leaderboard.
type LeaderEntry struct {
	PlayerID string `json:"playerId" firestore:"playerId"`
	Name     string `json:"name" firestore:"name"`
	Wins     int64  `json:"wins" firestore:"wins"`
	Losses   int64  `json:"losses" firestore:"losses"`
	Draws    int64  `json:"draws" firestore:"draws"`
}

// ranksBefore orders a leaderboard: more wins first, then fewer losses, then
// player id. It is a strict total order.
func (e LeaderEntry) ranksBefore(o LeaderEntry) bool {
	if e.Wins != o.Wins {
		return e.Wins > o.Wins
	}
	if e.Losses != o.Losses {
		return e.Losses < o.Losses
	}
	return e.PlayerID < o.PlayerID
}

// Leaderboard is the document leaderboards/{kind}-{mode}.
type Leaderboard struct {
	Kind    string        `json:"kind" firestore:"kind"`
	Mode    string        `json:"mode" firestore:"mode"`
	Entries []LeaderEntry `json:"entries" firestore:"entries"` // the top LeaderboardTop, in order
	Reserve []LeaderEntry `json:"reserve" firestore:"reserve"` // the next ones, in order, up to LeaderboardPool in all
	// Complete is true while Entries and Reserve hold every player who has a
	// result in this kind and mode.
	Complete  bool      `json:"complete" firestore:"complete"`
	UpdatedAt time.Time `json:"updatedAt" firestore:"updatedAt"`
}

// LeaderboardDoc reads leaderboards/{kind}-{mode}; a board nobody has played
// yet is empty and complete.
func (s *Store) LeaderboardDoc(ctx context.Context, kind, mode string) (Leaderboard, error) {
	snap, err := s.FS.Collection(colLeaderboard).Doc(LeaderboardID(kind, mode)).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return Leaderboard{Kind: kind, Mode: mode, Complete: true}, nil
	}
	if err != nil {
		return Leaderboard{}, err
	}
	return decodeLeaderboard(snap, kind, mode)
}

func decodeLeaderboard(snap *firestore.DocumentSnapshot, kind, mode string) (Leaderboard, error) {
	b := Leaderboard{Kind: kind, Mode: mode, Complete: true}
	if !snap.Exists() {
		return b, nil
	}
	if err := snap.DataTo(&b); err != nil {
		return Leaderboard{}, fmt.Errorf("store: leaderboard %s: %w", snap.Ref.ID, err)
	}
	return b, nil
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

// collectEffects decodes the gameOver events of a record into awards; it reads
// the game document only when a draw names no players.
func (s *Store) collectEffects(tx *firestore.Transaction, gameID, seq string, record map[string]any) (*effects, error) {
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
					if gamePlayers, err = playersOf(tx, s, gameID); err != nil {
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
func playersOf(tx *firestore.Transaction, s *Store, gameID string) ([]string, error) {
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

// statsWrites reads the players and leaderboards an event record touches (one
// batched read) and returns what writes the ledger entries, totals and
// leaderboards, to call once every read of the transaction is done.
func (s *Store) statsWrites(tx *firestore.Transaction, gameID, seq string, record map[string]any, fx *effects, now time.Time) (func() error, error) {
	if len(fx.awards) == 0 {
		return func() error { return nil }, nil
	}
	refs := make([]*firestore.DocumentRef, 0, len(fx.players)+len(fx.boards))
	for _, p := range fx.players {
		refs = append(refs, s.playerRef(p))
	}
	for _, b := range fx.boards {
		refs = append(refs, s.FS.Collection(colLeaderboard).Doc(LeaderboardID(b.kind, b.mode)))
	}
	snaps, err := tx.GetAll(refs)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	totals := map[string]map[board]Totals{} // after this record
	for i, p := range fx.players {
		data := map[string]any{}
		if snaps[i].Exists() {
			data = snaps[i].Data()
		}
		names[p], _ = data["name"].(string)
		totals[p] = map[board]Totals{}
		for b, d := range fx.delta[p] {
			totals[p][b] = totalsIn(data, b.kind, b.mode).add(d)
		}
	}
	boards := make([]Leaderboard, len(fx.boards))
	for i, b := range fx.boards {
		lb, err := decodeLeaderboard(snaps[len(fx.players)+i], b.kind, b.mode)
		if err != nil {
			return nil, domain.Errorf(domain.EINVALID, "%v", err)
		}
		boards[i] = lb
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
				}
			}
			if err := tx.Set(s.playerRef(p), map[string]any{"stats": stats}, firestore.MergeAll); err != nil {
				return err
			}
		}
		for i, b := range fx.boards {
			var changed []LeaderEntry
			for _, p := range fx.players {
				if t, ok := totals[p][b]; ok {
					changed = append(changed, LeaderEntry{PlayerID: p, Name: names[p], Wins: t.Wins, Losses: t.Losses, Draws: t.Draws})
				}
			}
			lb := rerank(boards[i], changed)
			lb.UpdatedAt = now
			if err := tx.Set(s.FS.Collection(colLeaderboard).Doc(LeaderboardID(b.kind, b.mode)), lb); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// rerank puts the new totals of the changed players into a leaderboard.
//
// The board keeps a pool (Entries then Reserve) that is exactly the best
// len(pool) players, or every player while Complete. Players outside the pool
// rank below its last entry as it was, so after the update every pool entry
// that still ranks at or above that old last entry is certain; a changed
// player below it (one who lost, or a newcomer) may have an unseen player
// above them and is left out until they play again.
func rerank(lb Leaderboard, changed []LeaderEntry) Leaderboard {
	pool := append(append([]LeaderEntry(nil), lb.Entries...), lb.Reserve...)
	sortEntries(pool) // tolerate a hand-edited board
	var last *LeaderEntry
	if len(pool) > 0 {
		l := pool[len(pool)-1]
		last = &l
	}
	isChanged := map[string]bool{}
	for _, c := range changed {
		isChanged[c.PlayerID] = true
	}
	next := make([]LeaderEntry, 0, len(pool)+len(changed))
	for _, e := range pool {
		if !isChanged[e.PlayerID] {
			next = append(next, e)
		}
	}
	for _, c := range changed {
		if lb.Complete || (last != nil && !last.ranksBefore(c)) {
			next = append(next, c)
		}
	}
	sortEntries(next)
	complete := lb.Complete
	if len(next) > LeaderboardPool {
		next, complete = next[:LeaderboardPool], false
	}
	top := min(len(next), LeaderboardTop)
	out := Leaderboard{Kind: lb.Kind, Mode: lb.Mode, Complete: complete,
		Entries: append([]LeaderEntry{}, next[:top]...), Reserve: append([]LeaderEntry{}, next[top:]...)}
	return out
}

func sortEntries(es []LeaderEntry) {
	sort.SliceStable(es, func(i, j int) bool { return es[i].ranksBefore(es[j]) })
}

// validID reports whether s can be a document id (and a path segment).
func validID(s string) bool {
	return s != "" && len(s) <= 500 && s != "." && s != ".." && !strings.Contains(s, "/") &&
		!(strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__"))
}
