// Package triggers holds the CloudEvent functions that react to Firestore
// document writes (GameEvent) and to the scheduler's Pub/Sub tick (Tick).
// docs/triggers.md describes what each does and why each is idempotent.
package triggers

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// Defaults of the tick's bounds.
const (
	DefaultMaxGames   = 100         // due games advanced per tick
	DefaultMaxPending = 100         // pending event records swept per tick
	DefaultPendingAge = time.Second // a record younger than this is left to its trigger
	DefaultWorkers    = 4           // games advanced (records swept) at once
	DefaultMaxOutbox  = 100         // due outbox messages attempted per tick
	DefaultMaxProject = 500         // event records the projection pass takes per tick
)

// Triggers runs the trigger functions against one Store.
type Triggers struct {
	// Store runs the registered games; the tick advances a due game of any
	// of them and skips kinds it does not know.
	Store *store.Store
	// Now is the tick's clock; nil uses Store.Now, then time.Now.
	Now func() time.Time
	// Bounds of one tick; zero uses the defaults above.
	MaxGames, MaxPending, MaxOutbox, MaxProject, Workers int
	PendingAge                                           time.Duration
	// Log receives what the functions drop or skip; nil is slog.Default().
	Log *slog.Logger
}

// New returns the Triggers of st.
func New(st *store.Store) *Triggers {
	return &Triggers{Store: st}
}

func (t *Triggers) now() time.Time {
	switch {
	case t.Now != nil:
		return t.Now()
	case t.Store != nil && t.Store.Now != nil:
		return t.Store.Now()
	}
	return time.Now()
}

func (t *Triggers) log() *slog.Logger {
	if t.Log == nil {
		return slog.Default()
	}
	return t.Log
}

func orDefault[T int | time.Duration](v, d T) T {
	if v <= 0 {
		return d
	}
	return v
}

// Retryable reports whether err may go away when the same work runs again:
// Firestore being unavailable, contended or slow, or the call running out of
// time. Errors that will recur (a malformed record, a bug) are not.
func Retryable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return true
	}
	var de *domain.Error
	if errors.As(err, &de) {
		return false
	}
	st, ok := status.FromError(err)
	if !ok {
		return false
	}
	switch st.Code() {
	case codes.Unavailable, codes.Aborted, codes.DeadlineExceeded, codes.ResourceExhausted,
		codes.Internal, codes.Unknown, codes.Canceled:
		return true
	}
	return false
}

// EventRecordPattern is the document pattern GameEvent watches.
const EventRecordPattern = "games/{gameId}/events/{eventId}"

// gameChild parses games/{gameId}/{collection}/{id}, the shape of every
// document a document trigger watches, into the game id and the document's.
func gameChild(path, collection string) (gameID, id string, ok bool) {
	parts := strings.Split(path, "/")
	if len(parts) != 4 || parts[0] != "games" || parts[1] == "" || parts[2] != collection || parts[3] == "" {
		return "", "", false
	}
	return parts[1], parts[3], true
}

// GameEvent is the function for writes to games/{gameId}/events/{eventId}. A
// record written pending (it holds a gameOver) gets its effects applied; a
// delete or a record no longer pending does nothing. The record's pending flag
// makes a repeated delivery harmless.
//
// It returns an error only when a retry can help; a malformed event is logged
// and dropped.
func (t *Triggers) GameEvent(ctx context.Context, e event.Event) error {
	de, err := DocumentEventOf(e)
	if err != nil {
		t.log().Error("GameEvent: dropping undecodable event", "id", e.ID(), "subject", e.Subject(), "err", err)
		return nil
	}
	if de.Value == nil { // deleted
		return nil
	}
	if !de.Value.GetFields()["pending"].GetBooleanValue() {
		return nil
	}
	name, err := ParseDocumentName(de.Value.GetName())
	if err != nil {
		t.log().Error("GameEvent: dropping event", "id", e.ID(), "err", err)
		return nil
	}
	gameID, seq, ok := gameChild(name.Path, "events")
	if !ok {
		t.log().Error("GameEvent: dropping event for a document that is no event record", "id", e.ID(), "document", name.Path)
		return nil
	}
	applied, err := t.Store.ApplyEffects(ctx, gameID, seq)
	switch {
	case err == nil:
		t.log().Debug("GameEvent", "id", e.ID(), "game", gameID, "seq", seq, "applied", applied)
		return nil
	case Retryable(err):
		t.log().Warn("GameEvent: will be retried", "id", e.ID(), "game", gameID, "seq", seq, "err", err)
		return err
	default:
		t.log().Error("GameEvent: effects dropped", "id", e.ID(), "game", gameID, "seq", seq, "err", err)
		return nil
	}
}

// TickReport says what one tick did.
type TickReport struct {
	Due       int // games found past their deadline
	Advanced  int // of those, games that took at least one step
	Steps     int // steps applied in all
	Skipped   int // games of a kind no registered game has
	Failed    int // games whose Advance failed
	Pending   int // event records found still pending
	Applied   int // of those, records whose effects this tick applied
	Retired   int // records found invalid and marked so (see store.ApplyEffects)
	Errors    int // records whose effects failed
	OutboxDue int // outbox messages due (a first attempt lost, or a retry)
	// Of those: delivered, to be retried again, given up (permanent
	// failure), and attempts whose outcome could not be recorded.
	Delivered, Retrying, GivenUp, OutboxErrors int
	// The projection pass: event records it took, leaderboards and game
	// projections it rebuilt, of those the ones it wrote (changed), and
	// rebuilds that failed (taken again next tick).
	Projected, Rebuilt, Changed, RebuildErrors int
	// Active games with a bot unwritten for store.BotStall, and the bot
	// moves the tick made in them (docs/bots.md).
	BotGames, BotMoves int
}

// Tick is the function for the scheduler's Pub/Sub message: it runs one tick
// as of now. The message itself carries nothing the tick needs.
func (t *Triggers) Tick(ctx context.Context, e event.Event) error {
	r, err := t.RunTick(ctx, t.now())
	t.log().Info("Tick", "id", e.ID(), "due", r.Due, "advanced", r.Advanced, "steps", r.Steps,
		"skipped", r.Skipped, "failed", r.Failed, "pending", r.Pending, "applied", r.Applied, "errors", r.Errors,
		"outboxDue", r.OutboxDue, "delivered", r.Delivered, "retrying", r.Retrying, "givenUp", r.GivenUp, "outboxErrors", r.OutboxErrors,
		"projected", r.Projected, "rebuilt", r.Rebuilt, "changed", r.Changed, "rebuildErrors", r.RebuildErrors)
	return err
}

// RunTick advances every due game (up to MaxGames) of a registered kind, then applies the effects of event records still pending after
// PendingAge (up to MaxPending), then attempts the due outbox messages.
// Alongside, the projection pass rebuilds the leaderboards and game
// projections whose effects ran since the last pass (Project), every
// ProjectEvery while the tick lasts and once more after a sweep that
// applied effects. Each game,
// record and rebuild is its own transaction: one failure is logged and
// counted and the others go on. Running it twice, or at once, applies
// nothing twice: Advance finds nothing due the second time, ApplyEffects
// finds the record no longer pending, and a rebuild writes what the
// documents say.
//
// It returns an error only when a query for work failed.
func (t *Triggers) RunTick(ctx context.Context, now time.Time) (TickReport, error) {
	// The projection passes run alongside the rest, every ProjectEvery
	// while it lasts, so a slow sweep never makes a leaderboard staler
	// than that; and once more after a sweep that applied effects, so what
	// it applied is projected in this tick.
	var pr TickReport
	var perrs []error
	applied := make(chan int, 1)
	projected := make(chan struct{})
	go func() {
		defer close(projected)
		pass := func() {
			more, err := t.Project(ctx, now)
			pr.Projected, pr.Rebuilt, pr.Changed, pr.RebuildErrors = pr.Projected+more.Projected, pr.Rebuilt+more.Rebuilt,
				pr.Changed+more.Changed, pr.RebuildErrors+more.RebuildErrors
			if err != nil {
				perrs = append(perrs, err)
			}
		}
		for {
			pass()
			select {
			case n := <-applied:
				if n > 0 {
					pass()
				}
				return
			case <-time.After(ProjectEvery):
			case <-ctx.Done():
				return
			}
		}
	}()
	r, err := t.runTick(ctx, now)
	applied <- r.Applied
	<-projected
	r.Projected, r.Rebuilt, r.Changed, r.RebuildErrors = pr.Projected, pr.Rebuilt, pr.Changed, pr.RebuildErrors
	return r, errors.Join(append(perrs, err)...)
}

// ProjectEvery is how often a tick that lasts runs the projection pass.
const ProjectEvery = 500 * time.Millisecond

func (t *Triggers) runTick(ctx context.Context, now time.Time) (TickReport, error) {
	var r TickReport
	var errs []error
	due, err := t.Store.DueGames(ctx, now, orDefault(t.MaxGames, DefaultMaxGames))
	if err != nil {
		errs = append(errs, err)
	}
	r.Due = len(due)
	var mu sync.Mutex
	t.each(len(due), func(i int) {
		g := due[i]
		if _, ok := t.Store.Games.Find(g.Kind); !ok {
			t.log().Warn("Tick: no registered game of this kind", "game", g.ID, "kind", g.Kind)
			mu.Lock()
			r.Skipped++
			mu.Unlock()
			return
		}
		n, err := store.Advance(ctx, t.Store, g.Kind, g.ID)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			t.log().Error("Tick: advance failed", "game", g.ID, "kind", g.Kind, "err", err)
			r.Failed++
			return
		}
		if n > 0 {
			r.Advanced++
			r.Steps += n
		}
	})

	pending, err := t.Store.PendingEvents(ctx, now.Add(-orDefault(t.PendingAge, DefaultPendingAge)), orDefault(t.MaxPending, DefaultMaxPending))
	if err != nil {
		errs = append(errs, err)
	}
	r.Pending = len(pending)
	t.each(len(pending), func(i int) {
		p := pending[i]
		applied, err := t.Store.ApplyEffects(ctx, p.GameID, p.EventID)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err == nil && applied:
			r.Applied++
		case err == nil:
		case domain.ErrorCode(err) == domain.EINVALID:
			t.log().Error("Tick: effects of an invalid record dropped", "game", p.GameID, "event", p.EventID, "err", err)
			r.Retired++
		default:
			t.log().Error("Tick: effects failed", "game", p.GameID, "event", p.EventID, "err", err)
			r.Errors++
		}
	})
	r.BotGames, r.BotMoves, err = t.playStalledBots(ctx, now)
	if err != nil {
		errs = append(errs, err)
	}
	out, err := t.Store.DueOutbox(ctx, now, orDefault(t.MaxOutbox, DefaultMaxOutbox))
	if err != nil {
		errs = append(errs, err)
	}
	r.OutboxDue = len(out)
	t.deliverDue(ctx, out, &r)
	return r, errors.Join(errs...)
}

// Project runs the projection pass as of now (store.BeginProjection): up
// to MaxProject event records marked due by their effects, every
// leaderboard they changed rebuilt from the players' totals and every game
// projection they made due run, Workers at a time; then their marks are
// cleared. A failed rebuild is logged and counted, and the records that
// asked for it stay due for the next pass. While a pass finds MaxProject
// records and nothing failed, another follows (up to MaxProjectRounds), so
// a backlog does not wait a tick per MaxProject records. The report has
// only the projection fields. It returns an error only when a pass could
// not start or its marks could not be cleared.
func (t *Triggers) Project(ctx context.Context, now time.Time) (TickReport, error) {
	var r TickReport
	limit := orDefault(t.MaxProject, DefaultMaxProject)
	for range MaxProjectRounds {
		n, failed, err := t.projectOnce(ctx, now, limit, &r)
		if err != nil || n < limit || failed {
			return r, err
		}
	}
	return r, nil
}

// MaxProjectRounds bounds the passes of one tick's Project.
const MaxProjectRounds = 4

// projectOnce runs one pass, adding to r; it returns the records it took
// and whether anything failed or was superseded.
func (t *Triggers) projectOnce(ctx context.Context, now time.Time, limit int, r *TickReport) (int, bool, error) {
	p, err := t.Store.BeginProjection(ctx, now, limit)
	if err != nil || p == nil {
		return 0, err != nil, err
	}
	r.Projected += p.Records()
	var mu sync.Mutex
	failedBoards, failedGames := map[store.Board]bool{}, map[string]bool{}
	superseded := false
	n := len(p.Boards)
	t.each(n+len(p.Games), func(i int) {
		var res store.Rebuilt
		var err error
		if i < n {
			res, err = p.Leaderboard(ctx, p.Boards[i])
		} else {
			res, err = p.Project(ctx, p.Games[i-n])
		}
		mu.Lock()
		defer mu.Unlock()
		switch {
		case errors.Is(err, store.ErrSuperseded):
			superseded = true
		case err != nil && domain.ErrorCode(err) == domain.EINVALID:
			// It will not build however often it runs: leave it behind.
			t.log().Error("Tick: projection dropped", "item", i, "err", err)
		case err != nil:
			if i < n {
				failedBoards[p.Boards[i]] = true
				t.log().Error("Tick: leaderboard rebuild failed", "kind", p.Boards[i].Kind, "mode", p.Boards[i].Mode, "err", err)
			} else {
				failedGames[p.Games[i-n].ID] = true
				t.log().Error("Tick: projection failed", "game", p.Games[i-n].ID, "err", err)
			}
			r.RebuildErrors++
		default:
			r.Rebuilt++
			if res.Changed {
				r.Changed++
			}
		}
	})
	if superseded {
		return p.Records(), true, nil // the newer pass does it all again
	}
	failed := len(failedBoards)+len(failedGames) > 0
	return p.Records(), failed, p.Finish(ctx, failedBoards, failedGames)
}

// each runs f(0..n-1) on up to Workers goroutines.
func (t *Triggers) each(n int, f func(i int)) {
	workers := min(orDefault(t.Workers, DefaultWorkers), n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
