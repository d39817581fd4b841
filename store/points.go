package store

import (
	"context"
	"encoding/json"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/tilerace"
)

// colLedger under a game holds Tile Race's points ledger: one entry per
// completion, keyed by the award key ({teamId}-{n}), so an award can never be
// counted twice whatever delivers it.

// RaceLeaderboard is the document games/{id}/public/leaderboard: every
// player's points (hundredths, by name; a player on several teams has one
// total) and the top 10 with two decimals, kept by the points trigger.
type RaceLeaderboard struct {
	Totals    map[string]int      `json:"totals"`
	Top       []tilerace.Standing `json:"top"`
	Awards    int                 `json:"awards"` // ledger entries counted
	UpdatedAt time.Time           `json:"updatedAt"`
}

// raiseForRecord raises the fog frontier for the furthest position the
// completions of a pending Tile Race record reached, before its effects are
// written: the store raised it right after the completion, unless that call
// was lost. It runs inside ApplyEffects' transaction function but as a
// transaction of its own (RaiseFrontier) on documents the effects do not
// touch; raising is idempotent, so a retried effects transaction may raise
// again, and a failure leaves the record pending for the retry.
func (s *Store) raiseForRecord(ctx context.Context, gameID string, data map[string]any) error {
	if kind, _ := data[fKind].(string); kind != tilerace.Kind {
		return nil
	}
	var evs []recordEvent
	if fromFirestore(data["events"], &evs) != nil {
		return nil // ApplyEffects reports the bad record
	}
	reached := 0
	for _, e := range evs {
		var d tilerace.TileCompletedData
		if e.Type == tilerace.EventTileCompleted && json.Unmarshal(e.Data, &d) == nil && d.Tile != tilerace.FinalTile {
			reached = max(reached, d.Position)
		}
	}
	if reached == 0 {
		return nil
	}
	_, err := RaiseFrontier(ctx, s, gameID, reached)
	return err
}

// writePoints writes one ledger entry per award and the game's leaderboard.
// An award whose ledger entry exists already (it cannot, unless a record was
// replayed by hand) is skipped rather than counted twice. Its reads come
// first; the caller has done no write yet.
func (s *Store) writePoints(tx *firestore.Transaction, gameID, eventID string, record map[string]any, awards []tilerace.AwardData, now time.Time) error {
	if len(awards) == 0 {
		return nil
	}
	refs := []*firestore.DocumentRef{s.publicRef(gameID, docLeaderboard)}
	for _, a := range awards {
		refs = append(refs, s.gameRef(gameID).Collection(colLedger).Doc(a.Key))
	}
	snaps, err := tx.GetAll(refs)
	if err != nil {
		return err
	}
	var lb RaceLeaderboard
	if snaps[0].Exists() {
		if err := fromFirestore(snaps[0].Data(), &lb); err != nil {
			return domain.Errorf(domain.EINVALID, "leaderboard of %s: %v", gameID, err)
		}
	}
	if lb.Totals == nil {
		lb.Totals = map[string]int{}
	}
	at, _ := record[fAt].(time.Time)
	for i, a := range awards {
		if snaps[i+1].Exists() {
			continue
		}
		lb.Totals[a.Player] += a.Points
		lb.Awards++
		entry := map[string]any{
			"key": a.Key, "player": a.Player, "points": int64(a.Points), "display": tilerace.FormatPoints(a.Points),
			"team": a.Team, "teamName": a.TeamName, "event": eventID, "at": at, "appliedAt": now,
		}
		if a.Tile > 0 {
			entry["tile"] = int64(a.Tile)
		}
		if a.PowerupTile != "" {
			entry["powerupTile"] = a.PowerupTile
		}
		if a.By != "" {
			entry["by"] = a.By
		}
		if err := tx.Create(refs[i+1], entry); err != nil {
			return err
		}
	}
	lb.Top = tilerace.Leaderboard(lb.Totals, LeaderboardTop)
	lb.UpdatedAt = now
	return tx.Set(refs[0], mustFirestore(lb))
}

// RaceLeaderboardDoc reads a Tile Race game's leaderboard (empty before any
// points).
func (s *Store) RaceLeaderboardDoc(ctx context.Context, gameID string) (RaceLeaderboard, error) {
	lb := RaceLeaderboard{Totals: map[string]int{}, Top: []tilerace.Standing{}}
	snap, err := s.publicRef(gameID, docLeaderboard).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return lb, nil
	}
	if err != nil {
		return lb, err
	}
	return lb, fromFirestore(snap.Data(), &lb)
}
