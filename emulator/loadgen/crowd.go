package main

// The crowd scenario (issue 21): many players asking for a quick match at the
// same instant, and as many game ends at once, measured for the ticket design
// in store/queue.go (through the stack's DashDice function) and for the old
// one-queue-document design, emulated here in the load generator only (its
// code is gone from store/) on loadgen-only collections of the same emulator.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/fsemu"
)

// DefaultCrowd is the -crowd flag's default: the concurrencies measured.
const DefaultCrowd = "20,50,100,120,200"

// Crowd parameters (the client behaviour and the old store's budget).
const (
	crowdPoll       = 250 * time.Millisecond // a waiting client polls this often
	crowdGiveUp     = 20 * time.Second       // and gives up this long after the barrier
	crowdLeavers    = 0.05                   // share of callers who leave right after a "waiting"
	crowdSettle     = 60 * time.Second       // bound on waiting for stats and boards
	oldRetryBudget  = 8 * time.Second        // the old store's contention retry budget
	oldRequestLimit = 20 * time.Second       // the functions' request timeout
	oldQueueStale   = 60 * time.Second       // store.QueueStale
)

// crowdModes are the DashDice modes: round i uses crowdModes[i%5], so rounds
// do not share a queue (the odd one out also leaves at the end of a round).
var crowdModes = []string{"classic", "quickfire", "zero-hour", "last-line", "true-grit"}

// Loadgen-only collections of the old design's emulation.
const (
	oldQueues  = "loadgen-oldqueues"  // {kind}-{mode}, with tickets/{playerId}
	oldGames   = "loadgen-oldgames"   // {id}, with events/{seq}
	oldPlayers = "loadgen-oldplayers" // {id}, with ledger/{id}
	oldBoards  = "loadgen-oldboards"  // dashdice-{mode}
)

// ParseCrowd reads the -crowd flag.
func ParseCrowd(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 2 {
			return nil, fmt.Errorf("-crowd: %q is not a concurrency of at least 2", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, errors.New("-crowd: no concurrency")
	}
	return out, nil
}

type crowdPlayer struct {
	id, name, token string
}

// qmRound is what one quick-match round measured.
type qmRound struct {
	n, leaversAsked    int
	first              []time.Duration // first-call latencies
	firstOver1s        int
	firstBad           int // first calls not answered 200
	calls, non200, svc int // every quickMatch call (polls included); non-200s; of them 503s
	statuses           map[int]int
	leaves, left       int // leaveQueue sent by the 5 %; answered "left"
	pairs              [][2]int
	allPaired          time.Duration // 0: not reached
	target             int           // players to pair (everyone but the odd one out)
	matched            int           // players who learned they were matched within the bound
	lastMatch          time.Duration
	lost, doubled      int
	self, cancelled    int
	gaveUp             int
	reads, writes      int64
	refused, aborted   int64  // commits refused (a lost claim) / aborted, during the round
	load               string // the machine's 1-minute load average as the round started
	pairReads          int64  // until the last pair was made
	pairWrites         int64
	queries            int64
	lateMatched        int             // matched only when the odd one out left at the end
	matchedAt          []time.Duration // when each matched player learned it, sorted
	floor              []time.Duration // n bare transactions at once on n documents
	notes              []string
}

// timeline is how many players knew they were matched at 1 s, 2 s, … after
// the barrier (the seconds where it changed), until all of them did.
func (r *qmRound) timeline() string {
	var parts []string
	prev := 0
	for s := 1; s <= int(crowdGiveUp/time.Second); s++ {
		k := sort.Search(len(r.matchedAt), func(i int) bool { return r.matchedAt[i] > time.Duration(s)*time.Second })
		if k != prev || s == 1 {
			parts = append(parts, fmt.Sprintf("%d s: %d", s, k))
		}
		prev = k
		if k == len(r.matchedAt) {
			break
		}
	}
	return strings.Join(parts, ", ")
}

// pairsPerSec is the pairs the players learned of within the bound (each
// pair is two matched players), per second until the last of them did.
func (r *qmRound) pairsPerSec() float64 {
	if r.matched == 0 || r.lastMatch <= 0 {
		return 0
	}
	return float64(r.matched) / 2 / r.lastMatch.Seconds()
}

// endsRound is what one round of simultaneous game ends measured.
type endsRound struct {
	games          int
	answered       int           // forfeits answered 200 (new) / effects committed (old)
	non200         int           // forfeits not answered 200
	last           time.Duration // last forfeit answered / last effect committed
	settle         []time.Duration
	settledAll     time.Duration // every player's stats right, from the barrier
	unsettled      int
	boardRight     time.Duration // 0: never within the bound
	boardAfterLast time.Duration
	reads, writes  int64
	overBudget     int // old: effects that exhausted the 8 s budget at least once
	aborts         int64
	notes          []string
}

type crowdRun struct {
	p       *probe
	hc      *http.Client
	oldFS   *firestore.Client
	oldCnt  *fsemu.Counter
	out     io.Writer
	project string
}

// crowdScenario runs the crowd scenario for each concurrency and prints the
// tables (markdown) and the targets.
func crowdScenario(ctx context.Context, p *probe, project string, sizes []int, out io.Writer) error {
	c := &crowdRun{p: p, out: out, project: project,
		hc: &http.Client{Timeout: 40 * time.Second, Transport: &http.Transport{MaxIdleConns: 2000, MaxIdleConnsPerHost: 2000, IdleConnTimeout: time.Minute}}}
	c.oldCnt = &fsemu.Counter{}
	fs, closeFS, err := countedClient(ctx, p.FirestoreHost(), project, c.oldCnt)
	if err != nil {
		return err
	}
	defer closeFS()
	c.oldFS = fs

	// Every new round first, then every old one: the old design's
	// contention leaves the emulator busy for a while, which must not be
	// measured as the new design's.
	n := len(sizes)
	newQM, oldQM := make([]*qmRound, n), make([]*qmRound, n)
	newEnds, oldEnds := make([]*endsRound, n), make([]*endsRound, n)
	rounds := make([][]crowdPlayer, n)
	leavers := make([]map[int]bool, n)
	for i, k := range sizes {
		mode := crowdModes[i%len(crowdModes)]
		players, err := c.signIn(ctx, k, i)
		if err != nil {
			return err
		}
		rounds[i], leavers[i] = players, pickLeavers(k)
		floor, err := c.floor(ctx, k)
		if err != nil {
			return err
		}
		c.logf("crowd %d (mode %s): new quick match", k, mode)
		nq, err := c.quickMatchRound(ctx, players, leavers[i], mode, false)
		if err != nil {
			return fmt.Errorf("crowd %d new: %w", k, err)
		}
		nq.floor = floor
		newQM[i] = nq
		c.logf("  %d pairs, all but the odd one paired at %s; new game ends", len(nq.pairs), nq.allPaired)
		ne, err := c.newEnds(ctx, players, nq.pairs, mode)
		if err != nil {
			return fmt.Errorf("crowd %d new ends: %w", k, err)
		}
		newEnds[i] = ne
		time.Sleep(time.Second)
	}
	for i, k := range sizes {
		mode := crowdModes[i%len(crowdModes)]
		c.logf("crowd %d (mode %s): old quick match (emulated)", k, mode)
		oq, err := c.quickMatchRound(ctx, rounds[i], leavers[i], mode, true)
		if err != nil {
			return fmt.Errorf("crowd %d old: %w", k, err)
		}
		oldQM[i] = oq
		c.logf("  %d pairs; old game ends (emulated), %d at once", len(oq.pairs), len(newQM[i].pairs))
		oe, err := c.oldEndsRound(ctx, rounds[i], newQM[i].pairs, mode)
		if err != nil {
			return fmt.Errorf("crowd %d old ends: %w", k, err)
		}
		oldEnds[i] = oe
		time.Sleep(time.Second)
	}
	c.report(sizes, newQM, oldQM, newEnds, oldEnds)
	return nil
}

// floor runs n bare read-then-write transactions on n different documents
// at the same instant (uncounted client): what the emulator and this
// machine do with n concurrent transactions that share nothing.
func (c *crowdRun) floor(ctx context.Context, n int) ([]time.Duration, error) {
	out := make([]time.Duration, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ref := c.p.fs.Collection("loadgen").Doc(fmt.Sprintf("floor-%d", i))
			<-start
			t := time.Now()
			errs[i] = c.p.fs.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
				if _, err := tx.Get(ref); err != nil && !isNotFound(err) {
					return err
				}
				return tx.Set(ref, map[string]any{"n": i})
			})
			out[i] = time.Since(t)
		}()
	}
	close(start)
	wg.Wait()
	return out, errors.Join(errs...)
}

func (c *crowdRun) logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "loadgen: "+format+"\n", args...)
}

// signIn signs in n fresh guests, 8 at a time.
func (c *crowdRun) signIn(ctx context.Context, n, round int) ([]crowdPlayer, error) {
	out := make([]crowdPlayer, n)
	errs := make(chan error, n)
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			name := fmt.Sprintf("Crowd %d-%d", round, i)
			g, err := c.p.Guest(ctx, name)
			if err != nil {
				errs <- err
				return
			}
			out[i] = crowdPlayer{id: g["player"].(map[string]any)["id"].(string), name: name, token: g["token"].(string)}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, fmt.Errorf("guest sign-in: %w", err)
	}
	return out, nil
}

// pickLeavers chooses about 5 % of n callers (at least one) who leave right
// after a first call that said waiting.
func pickLeavers(n int) map[int]bool {
	k := max(1, int(math.Round(float64(n)*crowdLeavers)))
	out := map[int]bool{}
	for _, i := range mrand.Perm(n)[:k] {
		out[i] = true
	}
	return out
}

// post calls a function of the stack and returns the HTTP status and reply.
func (c *crowdRun) post(ctx context.Context, function, token string, body any) (int, map[string]any, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.p.URL(function), strings.NewReader(string(b)))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return resp.StatusCode, nil, fmt.Errorf("%s: undecodable reply: %w", resp.Status, err)
	}
	return resp.StatusCode, out, nil
}

// ticketReply is what a quick-match call (or a leave) answered.
type ticketReply struct {
	code   int
	status string // waiting, matched, left
	gameID string
}

func replyTicket(code int, out map[string]any) ticketReply {
	t := ticketReply{code: code}
	if res, ok := out["result"].(map[string]any); ok {
		t.status, _ = res["status"].(string)
		t.gameID, _ = res["gameId"].(string)
	}
	return t
}

// quickMatch is one quick-match call of either design.
func (c *crowdRun) quickMatch(ctx context.Context, old bool, pl crowdPlayer, mode, actionID string) ticketReply {
	if old {
		return c.oldQuickMatch(ctx, pl, mode, actionID)
	}
	code, out, err := c.post(ctx, "DashDice", pl.token, map[string]any{"actionId": actionID, "type": "quickMatch", "mode": mode})
	if err != nil && code == 0 {
		return ticketReply{code: -1}
	}
	return replyTicket(code, out)
}

func (c *crowdRun) leaveQueue(ctx context.Context, old bool, pl crowdPlayer, mode string) ticketReply {
	if old {
		return c.oldLeaveQueue(ctx, pl, mode)
	}
	code, out, err := c.post(ctx, "DashDice", pl.token, map[string]any{"actionId": "crowd-leave", "type": "leaveQueue", "mode": mode})
	if err != nil && code == 0 {
		return ticketReply{code: -1}
	}
	return replyTicket(code, out)
}

// quickMatchRound: every player calls quickMatch at the same instant; a
// waiting one polls every 250 ms with the same action id until matched or
// 20 s have passed; about 5 % leave right after a first "waiting". Then the
// odd one out leaves, and the pairing is checked against the documents.
func (c *crowdRun) quickMatchRound(ctx context.Context, players []crowdPlayer, leavers map[int]bool, mode string, old bool) (*qmRound, error) {
	n := len(players)
	r := &qmRound{n: n, statuses: map[int]int{}, leaversAsked: len(leavers)}
	type result struct {
		first     time.Duration
		firstCode int
		matched   time.Duration // since the barrier; 0: not matched
		gameID    string
		leftOK    bool // leaveQueue answered "left"
		left      bool // sent leaveQueue
		calls     []int
		rw        [2]int64 // the counter when they learned they were matched
	}
	res := make([]result, n)
	actionID := fmt.Sprintf("crowd-%d", time.Now().UnixNano())
	cnt := c.p.cnt
	if old {
		cnt = c.oldCnt
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, pl := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			t0 := time.Now()
			deadline := t0.Add(crowdGiveUp)
			for first := true; ; first = false {
				sent := time.Now()
				t := c.quickMatch(ctx, old, pl, mode, actionID)
				res[i].calls = append(res[i].calls, t.code)
				if first {
					res[i].first, res[i].firstCode = time.Since(sent), t.code
				}
				if t.code == 200 && t.status == "matched" {
					res[i].matched, res[i].gameID = time.Since(t0), t.gameID
					res[i].rw[0], res[i].rw[1] = cnt.Counts()
					return
				}
				if first && leavers[i] && t.code == 200 && t.status == "waiting" {
					res[i].left = true
					l := c.leaveQueue(ctx, old, pl, mode)
					res[i].calls = append(res[i].calls, l.code)
					switch {
					case l.code == 200 && l.status == "left":
						res[i].leftOK = true
					case l.code == 200 && l.status == "matched":
						res[i].matched, res[i].gameID = time.Since(t0), l.gameID
						res[i].rw[0], res[i].rw[1] = cnt.Counts()
					}
					return
				}
				if time.Now().Add(crowdPoll).After(deadline) {
					return
				}
				time.Sleep(crowdPoll)
			}
		}()
	}
	r0, w0 := cnt.Counts()
	q0, f0, a0 := cnt.Queries.Load(), cnt.Refused.Load(), cnt.Aborted.Load()
	r.load = loadAvg()
	roundStart := time.Now()
	close(start)
	wg.Wait()
	r1, w1 := cnt.Counts()
	r.reads, r.writes, r.queries = r1-r0, w1-w0, cnt.Queries.Load()-q0
	r.refused, r.aborted = cnt.Refused.Load()-f0, cnt.Aborted.Load()-a0

	type match struct {
		at time.Duration
		rw [2]int64
	}
	var matchedAt []match
	for i := range res {
		x := &res[i]
		r.first = append(r.first, x.first)
		if x.first > time.Second {
			r.firstOver1s++
		}
		if x.firstCode != 200 {
			r.firstBad++
		}
		for j, code := range x.calls {
			if x.left && j == len(x.calls)-1 {
				r.leaves++
			} else {
				r.calls++
			}
			r.statuses[code]++
			if code != 200 {
				r.non200++
			}
			if code == 503 {
				r.svc++
			}
		}
		if x.leftOK {
			r.left++
		}
		if x.gameID != "" {
			matchedAt = append(matchedAt, match{x.matched, x.rw})
		}
	}
	// Everyone who did not leave is to be paired, but for an odd one out.
	r.target = n - r.left
	r.target -= r.target % 2
	sort.Slice(matchedAt, func(i, j int) bool { return matchedAt[i].at < matchedAt[j].at })
	r.matched = len(matchedAt)
	for _, m := range matchedAt {
		r.matchedAt = append(r.matchedAt, m.at)
	}
	if len(matchedAt) > 0 {
		last := matchedAt[len(matchedAt)-1]
		r.lastMatch = last.at
		// Documents per pair: everything read and written (polls, leaves
		// and the tick included) until the last pair was made.
		r.pairReads, r.pairWrites = last.rw[0]-r0, last.rw[1]-w0
	}
	if r.target == 0 {
		r.allPaired = time.Nanosecond
	} else if len(matchedAt) >= r.target {
		r.allPaired = matchedAt[r.target-1].at
	}
	// The ones still waiting (the odd one out, or everyone the design
	// failed) leave, so the next round starts with an empty queue.
	for i, pl := range players {
		if res[i].gameID != "" || res[i].left {
			continue
		}
		r.gaveUp++
		l := c.leaveQueue(ctx, old, pl, mode)
		if l.code == 200 && l.status == "matched" {
			r.lateMatched++
		}
	}
	leftOK := map[string]bool{}
	for i, pl := range players {
		if res[i].leftOK {
			leftOK[pl.id] = true
		}
	}
	if err := c.verify(ctx, r, players, leftOK, mode, roundStart, old); err != nil {
		return nil, err
	}
	return r, nil
}

// verify checks the pairing against the documents (uncounted client): every
// ticket's game seats them and one other ticket names it; nobody is in two
// games or plays themselves; nobody whose leave said "left" is seated.
func (c *crowdRun) verify(ctx context.Context, r *qmRound, players []crowdPlayer, leftOK map[string]bool, mode string, since time.Time, old bool) error {
	fs := c.p.fs
	tickets := fs.Collection("queues").Doc("dashdice-" + mode).Collection("tickets")
	gamesCol := fs.Collection("games")
	if old {
		tickets = fs.Collection(oldQueues).Doc("dashdice-" + mode).Collection("tickets")
		gamesCol = fs.Collection(oldGames)
	}
	index := map[string]int{}
	refs := make([]*firestore.DocumentRef, len(players))
	for i, pl := range players {
		index[pl.id] = i
		refs[i] = tickets.Doc(pl.id)
	}
	snaps, err := fs.GetAll(ctx, refs)
	if err != nil {
		return err
	}
	named := map[string][]string{} // game → players whose ticket names it
	for i, s := range snaps {
		if !s.Exists() {
			continue
		}
		st, _ := s.Data()["status"].(string)
		g, _ := s.Data()["gameId"].(string)
		if st == "matched" && g != "" {
			named[g] = append(named[g], players[i].id)
		}
	}
	// Every game made since the round started that seats one of them.
	gs, err := gamesCol.Where("createdAt", ">=", since.Add(-time.Second)).Documents(ctx).GetAll()
	if err != nil {
		return err
	}
	seats := map[string][2]string{}
	inGames := map[string][]string{}
	for _, g := range gs {
		data, err := store.Unpacked(g.Data())
		if err != nil {
			return err
		}
		st, _ := data["state"].(map[string]any)
		host := idOf(st["host"])
		opp := idOf(st["opponent"])
		_, a := index[host]
		_, b := index[opp]
		if !a && !b {
			continue
		}
		seats[g.Ref.ID] = [2]string{host, opp}
		if a {
			inGames[host] = append(inGames[host], g.Ref.ID)
		}
		if b && opp != host {
			inGames[opp] = append(inGames[opp], g.Ref.ID)
		}
		if host == opp {
			r.self++
		}
	}
	for id, ps := range named {
		s, ok := seats[id]
		switch {
		case !ok:
			r.lost += len(ps) // tickets claiming a game that does not exist
			r.notes = append(r.notes, fmt.Sprintf("ticket(s) %v name game %s, which does not exist", ps, id))
		case len(ps) != 2:
			r.lost++
			r.notes = append(r.notes, fmt.Sprintf("game %s named by %d ticket(s)", id, len(ps)))
		default:
			if !((s[0] == ps[0] && s[1] == ps[1]) || (s[0] == ps[1] && s[1] == ps[0])) {
				r.lost++
				r.notes = append(r.notes, fmt.Sprintf("game %s seats %v, its tickets are %v", id, s, ps))
				continue
			}
			r.pairs = append(r.pairs, [2]int{index[s[0]], index[s[1]]})
		}
	}
	for id := range seats {
		if _, ok := named[id]; !ok {
			r.lost++
			r.notes = append(r.notes, fmt.Sprintf("game %s seats %v and no ticket names it", id, seats[id]))
		}
	}
	for p, gs := range inGames {
		if len(gs) > 1 {
			r.doubled++
			r.notes = append(r.notes, fmt.Sprintf("%s is in %d games", p, len(gs)))
		}
		if leftOK[p] {
			r.cancelled++
			r.notes = append(r.notes, fmt.Sprintf("%s left the queue but is seated in %v", p, gs))
		}
	}
	sort.Slice(r.pairs, func(i, j int) bool { return r.pairs[i][0] < r.pairs[j][0] })
	return nil
}

// loadAvg is the machine's 1-minute load average ("?" where unknown).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

func idOf(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["id"].(string)
	return s
}

// newEnds: one player of every game made in the round forfeits at the same
// instant; then the time until each player's stats show the result and until
// the mode's leaderboard holds the right top entries.
func (c *crowdRun) newEnds(ctx context.Context, players []crowdPlayer, pairs [][2]int, mode string) (*endsRound, error) {
	r := &endsRound{games: len(pairs)}
	if len(pairs) == 0 {
		return r, nil
	}
	gameOf := map[string]string{}
	fs := c.p.fs
	tickets := fs.Collection("queues").Doc("dashdice-" + mode).Collection("tickets")
	for _, pr := range pairs {
		s, err := tickets.Doc(players[pr[0]].id).Get(ctx)
		if err != nil {
			return nil, err
		}
		gameOf[players[pr[0]].id], _ = s.Data()["gameId"].(string)
	}
	// Expected: the forfeiter (the pair's first) loses, the other wins.
	want := map[string][2]int64{} // id → wins, losses
	for _, pr := range pairs {
		want[players[pr[0]].id] = [2]int64{0, 1}
		want[players[pr[1]].id] = [2]int64{1, 0}
	}
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	var mu sync.Mutex
	seenAt := map[string]time.Time{}
	type boardSnap struct {
		at      time.Time
		entries []entry
	}
	var boards []boardSnap
	statsReady, boardReady := make(chan struct{}), make(chan struct{})
	go func() {
		it := fs.Collection("players").WherePath(firestore.FieldPath{"stats", "dashdice", mode, "played"}, ">", 0).Snapshots(lctx)
		defer it.Stop()
		close(statsReady)
		for {
			qs, err := it.Next()
			if err != nil {
				return
			}
			now := time.Now()
			mu.Lock()
			for _, ch := range qs.Changes {
				w, ok := want[ch.Doc.Ref.ID]
				if !ok || !seenAt[ch.Doc.Ref.ID].IsZero() {
					continue
				}
				t := totalsOf(ch.Doc.Data(), mode)
				if t[0] >= w[0] && t[1] >= w[1] {
					seenAt[ch.Doc.Ref.ID] = now
				}
			}
			mu.Unlock()
		}
	}()
	go func() {
		it := fs.Collection("leaderboards").Doc("dashdice-" + mode).Snapshots(lctx)
		defer it.Stop()
		close(boardReady)
		for {
			s, err := it.Next()
			if err != nil {
				return
			}
			now := time.Now()
			var es []entry
			if s.Exists() {
				es = entriesOf(s.Data()["entries"])
			}
			mu.Lock()
			boards = append(boards, boardSnap{now, es})
			mu.Unlock()
		}
	}()
	<-statsReady
	<-boardReady
	time.Sleep(300 * time.Millisecond) // the listeners' first snapshots

	replied := make([]time.Time, len(pairs))
	codes := make([]int, len(pairs))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for k, pr := range pairs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			pl := players[pr[0]]
			code, _, _ := c.post(ctx, "DashDice", pl.token, map[string]any{"gameId": gameOf[pl.id], "actionId": "crowd-forfeit", "type": "forfeit"})
			replied[k], codes[k] = time.Now(), code
		}()
	}
	r0, w0 := c.p.cnt.Counts()
	t0 := time.Now()
	close(start)
	wg.Wait()
	for k := range pairs {
		if codes[k] == 200 {
			r.answered++
		} else {
			r.non200++
		}
		r.last = max(r.last, replied[k].Sub(t0))
	}
	// Wait for every player's stats, then for the board.
	deadline := time.Now().Add(crowdSettle)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := len(seenAt)
		mu.Unlock()
		if n == len(want) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	var lastSeen time.Time
	for k, pr := range pairs {
		a, b := seenAt[players[pr[0]].id], seenAt[players[pr[1]].id]
		if a.IsZero() || b.IsZero() {
			r.unsettled++
			continue
		}
		at := a
		if b.After(a) {
			at = b
		}
		if at.After(lastSeen) {
			lastSeen = at
		}
		r.settle = append(r.settle, at.Sub(replied[k]))
	}
	mu.Unlock()
	if r.unsettled == 0 {
		r.settledAll = lastSeen.Sub(t0)
	}
	// The right top: every player of the mode ranked from their totals.
	expected, err := c.topOf(ctx, mode)
	if err != nil {
		return nil, err
	}
	for time.Now().Before(deadline) {
		mu.Lock()
		for _, b := range boards {
			if b.at.After(t0) && sameTop(b.entries, expected) {
				r.boardRight = b.at.Sub(t0)
				r.boardAfterLast = b.at.Sub(t0.Add(r.last))
				break
			}
		}
		mu.Unlock()
		if r.boardRight > 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if r.boardRight == 0 {
		mu.Lock()
		got := []entry{}
		if len(boards) > 0 {
			got = boards[len(boards)-1].entries
		}
		mu.Unlock()
		r.notes = append(r.notes, fmt.Sprintf("leaderboards/dashdice-%s never held the right top within %s: want %v, last %v", mode, crowdSettle, expected, got))
	}
	r1, w1 := c.p.cnt.Counts()
	r.reads, r.writes = r1-r0, w1-w0
	return r, nil
}

// entry is a leaderboard line as compared: player, wins, losses.
type entry struct {
	id     string
	wins   int64
	losses int64
}

func entriesOf(v any) []entry {
	var out []entry
	xs, _ := v.([]any)
	for _, x := range xs {
		m, _ := x.(map[string]any)
		id, _ := m["playerId"].(string)
		w, _ := m["wins"].(int64)
		l, _ := m["losses"].(int64)
		out = append(out, entry{id, w, l})
	}
	return out
}

func totalsOf(player map[string]any, mode string) [2]int64 {
	st, _ := player["stats"].(map[string]any)
	k, _ := st["dashdice"].(map[string]any)
	m, _ := k[mode].(map[string]any)
	w, _ := m["wins"].(int64)
	l, _ := m["losses"].(int64)
	return [2]int64{w, l}
}

func ranksBefore(a, b entry) bool {
	if a.wins != b.wins {
		return a.wins > b.wins
	}
	if a.losses != b.losses {
		return a.losses < b.losses
	}
	return a.id < b.id
}

// topOf ranks every player with a result in a DashDice mode (the
// leaderboard's order) and returns the top 10.
func (c *crowdRun) topOf(ctx context.Context, mode string) ([]entry, error) {
	snaps, err := c.p.fs.Collection("players").WherePath(firestore.FieldPath{"stats", "dashdice", mode, "played"}, ">", 0).Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	var all []entry
	for _, s := range snaps {
		t := totalsOf(s.Data(), mode)
		all = append(all, entry{s.Ref.ID, t[0], t[1]})
	}
	sort.Slice(all, func(i, j int) bool { return ranksBefore(all[i], all[j]) })
	return all[:min(10, len(all))], nil
}

func sameTop(got, want []entry) bool {
	if len(got) < len(want) {
		return false
	}
	for i := range want {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// ---- The old design, emulated on loadgen-only collections ----

// oldTicket is the old store's ticket document (store.Ticket as setTicket
// wrote it).
type oldTicket struct {
	Status   string    `firestore:"status"`
	GameID   string    `firestore:"gameId,omitempty"`
	ActionID string    `firestore:"actionId"`
	Since    time.Time `firestore:"since"`
}

// oldRetrying is store.transact as it was: the transaction (the client's
// own attempts included), run again with jittered backoff doubling from
// 5 ms to 400 ms while it loses to contention, within the 8 s budget.
// It reports the transactions aborted along the way.
func oldRetrying(ctx context.Context, fs *firestore.Client, aborts *atomic.Int64, f func(context.Context, *firestore.Transaction) error) error {
	until := time.Now().Add(oldRetryBudget)
	next := 5 * time.Millisecond
	for {
		err := fs.RunTransaction(ctx, f)
		switch status.Code(err) {
		case codes.FailedPrecondition, codes.AlreadyExists, codes.Aborted:
			if aborts != nil {
				aborts.Add(1)
			}
			d := next/2 + time.Duration(mrand.Int64N(int64(next)))
			if time.Now().Add(d).After(until) || ctx.Err() != nil {
				return err
			}
			next = min(2*next, 400*time.Millisecond)
			select {
			case <-time.After(d):
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return err
	}
}

// httpCode is the status the old function answered for a store error.
func httpCode(err error) int {
	switch {
	case err == nil:
		return 200
	case errors.Is(err, context.DeadlineExceeded):
		return 503
	}
	switch status.Code(err) {
	case codes.Aborted, codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted, codes.FailedPrecondition, codes.AlreadyExists:
		return 503
	}
	return 500
}

func newID() string {
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// oldQuickMatch is the old store's QuickMatch on the loadgen collections: one
// transaction reads the queue document, my ticket and the mode's config
// document (the host's create read it), and either pairs me with the one
// waiting (a new game, the waiting slot cleared, both tickets matched) or
// puts me in the slot (my ticket waiting). A poll by the one waiting
// rewrites the slot and their ticket, as the old code did.
func (c *crowdRun) oldQuickMatch(ctx context.Context, pl crowdPlayer, mode, actionID string) ticketReply {
	ctx, cancel := context.WithTimeout(ctx, oldRequestLimit)
	defer cancel()
	fs := c.oldFS
	qref := fs.Collection(oldQueues).Doc("dashdice-" + mode)
	tickets := qref.Collection("tickets")
	modeRef := fs.Doc("config/dashdice/modes/" + mode)
	var out oldTicket
	err := oldRetrying(ctx, fs, nil, func(ctx context.Context, tx *firestore.Transaction) error {
		now := time.Now()
		docs, err := tx.GetAll([]*firestore.DocumentRef{qref, tickets.Doc(pl.id), modeRef})
		if err != nil {
			return err
		}
		var mine oldTicket
		if docs[1].Exists() {
			if err := docs[1].DataTo(&mine); err != nil {
				return err
			}
		}
		if mine.ActionID == actionID && mine.Status == "matched" {
			out = mine
			return nil
		}
		var w struct {
			ID       string    `firestore:"id"`
			Name     string    `firestore:"name"`
			ActionID string    `firestore:"actionId"`
			Since    time.Time `firestore:"since"`
		}
		found := false
		if docs[0].Exists() {
			if m, ok := docs[0].Data()["waiting"].(map[string]any); ok {
				w.ID, _ = m["id"].(string)
				w.Name, _ = m["name"].(string)
				w.ActionID, _ = m["actionId"].(string)
				w.Since, _ = m["since"].(time.Time)
				found = w.ID != ""
			}
		}
		if found && w.ID != pl.id && now.Sub(w.Since) < oldQueueStale {
			id := newID()
			if err := tx.Create(fs.Collection(oldGames).Doc(id), oldGameDoc(id, mode, w.ID, w.Name, pl, now)); err != nil {
				return err
			}
			if err := tx.Set(qref, map[string]any{"waiting": nil, "updatedAt": now}); err != nil {
				return err
			}
			out = oldTicket{Status: "matched", GameID: id, ActionID: actionID, Since: now}
			if err := tx.Set(tickets.Doc(w.ID), oldTicket{Status: "matched", GameID: id, ActionID: w.ActionID, Since: now}); err != nil {
				return err
			}
			return tx.Set(tickets.Doc(pl.id), out)
		}
		create, _ := json.Marshal(map[string]string{"mode": mode})
		out = oldTicket{Status: "waiting", ActionID: actionID, Since: now}
		if err := tx.Set(qref, map[string]any{"waiting": map[string]any{
			"id": pl.id, "name": pl.name, "actionId": actionID, "since": now, "create": string(create)}, "updatedAt": now}); err != nil {
			return err
		}
		return tx.Set(tickets.Doc(pl.id), out)
	})
	if err != nil {
		return ticketReply{code: httpCode(err)}
	}
	return ticketReply{code: 200, status: out.Status, gameID: out.GameID}
}

// oldGameDoc is a DashDice game as a quick match created it: the header
// fields and the match, the host (the one waiting) and the opponent (me)
// seated, waiting for the opponent's call.
func oldGameDoc(id, mode, hostID, hostName string, me crowdPlayer, now time.Time) map[string]any {
	seat := func(id, name string) map[string]any {
		return map[string]any{"id": id, "name": name, "score": 0, "timeouts": 0}
	}
	return map[string]any{
		"kind": "dashdice", "version": 0, "status": "active", "players": []string{hostID, me.id},
		"deadlineAt": now.Add(30 * time.Second), "createdAt": now, "updatedAt": now, "private": false, "hasRoom": false,
		"seedHash": newID() + newID(),
		"state": map[string]any{
			"id": id, "mode": map[string]any{"id": mode, "ruleSet": mode, "targetScore": 100}, "phase": "calling", "private": false,
			"createdAt": now, "host": seat(hostID, hostName), "opponent": seat(me.id, me.name),
			"turn": 0, "turnScore": 0, "turnRolls": 0, "multiplier": 1, "dice": []int{0, 0}, "turnSeconds": 30,
			"turnDeadline": now.Add(30 * time.Second),
		},
	}
}

// oldLeaveQueue is the old store's LeaveQueue on the loadgen collections.
func (c *crowdRun) oldLeaveQueue(ctx context.Context, pl crowdPlayer, mode string) ticketReply {
	ctx, cancel := context.WithTimeout(ctx, oldRequestLimit)
	defer cancel()
	fs := c.oldFS
	qref := fs.Collection(oldQueues).Doc("dashdice-" + mode)
	tref := qref.Collection("tickets").Doc(pl.id)
	var out oldTicket
	err := oldRetrying(ctx, fs, nil, func(ctx context.Context, tx *firestore.Transaction) error {
		docs, err := tx.GetAll([]*firestore.DocumentRef{qref, tref})
		if err != nil {
			return err
		}
		out = oldTicket{Status: "left", Since: time.Now()}
		if docs[1].Exists() {
			var t oldTicket
			if err := docs[1].DataTo(&t); err != nil {
				return err
			}
			if t.Status == "matched" {
				out = t
				return nil
			}
		}
		if docs[0].Exists() {
			if w, ok := docs[0].Data()["waiting"].(map[string]any); ok && w["id"] == pl.id {
				if err := tx.Set(qref, map[string]any{"waiting": nil, "updatedAt": out.Since}); err != nil {
					return err
				}
			}
		}
		return tx.Set(tref, out)
	})
	if err != nil {
		return ticketReply{code: httpCode(err)}
	}
	return ticketReply{code: 200, status: out.Status, gameID: out.GameID}
}

// oldEndsRound: the old effect of a game end, once per game of the new
// round's pairs, all at the same instant: one transaction reads the game's
// event record, both players' documents and the mode's one leaderboard
// document, and writes both ledger entries, both players' totals, the board
// reranked and the record's pending flag. Retried like the old store (8 s
// budget); one that runs out is retried again (the trigger's redelivery and
// the tick's sweep did) until it commits or crowdSettle passes.
func (c *crowdRun) oldEndsRound(ctx context.Context, players []crowdPlayer, pairs [][2]int, mode string) (*endsRound, error) {
	r := &endsRound{games: len(pairs)}
	if len(pairs) == 0 {
		return r, nil
	}
	fs := c.oldFS
	board := fs.Collection(oldBoards).Doc("dashdice-" + mode)
	ctx, cancel := context.WithTimeout(ctx, crowdSettle)
	defer cancel()
	committed := make([]time.Duration, len(pairs))
	var aborts atomic.Int64
	var over atomic.Int64
	start := make(chan struct{})
	var wg sync.WaitGroup
	var t0 time.Time
	for k, pr := range pairs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			loser, winner := players[pr[0]], players[pr[1]]
			gameID := fmt.Sprintf("ends-%s-%s", mode, loser.id)
			record := fs.Collection(oldGames).Doc(gameID).Collection("events").Doc("1")
			wref, lref := fs.Collection(oldPlayers).Doc(winner.id), fs.Collection(oldPlayers).Doc(loser.id)
			stop := time.Now().Add(crowdSettle)
			exhausted := false
			for time.Now().Before(stop) {
				err := oldRetrying(ctx, fs, &aborts, func(ctx context.Context, tx *firestore.Transaction) error {
					now := time.Now()
					docs, err := tx.GetAll([]*firestore.DocumentRef{record, wref, lref, board})
					if err != nil {
						return err
					}
					if docs[0].Exists() {
						if p, _ := docs[0].Data()["pending"].(bool); !p {
							return nil // applied
						}
					}
					var lb struct {
						Entries []map[string]any `firestore:"entries"`
						Reserve []map[string]any `firestore:"reserve"`
					}
					if docs[3].Exists() {
						if err := docs[3].DataTo(&lb); err != nil {
							return err
						}
					}
					wt, lt := totalsOf(docs[1].Data(), mode), totalsOf(docs[2].Data(), mode)
					for _, x := range []struct {
						pl     crowdPlayer
						ref    *firestore.DocumentRef
						result string
						inc    [2]int64
					}{{winner, wref, "win", [2]int64{1, 0}}, {loser, lref, "loss", [2]int64{0, 1}}} {
						if err := tx.Create(x.ref.Collection("ledger").Doc(gameID), map[string]any{
							"result": x.result, "kind": "dashdice", "mode": mode, "gameId": gameID, "event": "1", "reason": "forfeit", "at": now, "appliedAt": now,
						}); err != nil {
							return err
						}
						if err := tx.Set(x.ref, map[string]any{"name": x.pl.name, "stats": map[string]any{"dashdice": map[string]any{mode: map[string]any{
							"wins": firestore.Increment(x.inc[0]), "losses": firestore.Increment(x.inc[1]), "draws": firestore.Increment(0), "played": firestore.Increment(1),
						}}}}, firestore.MergeAll); err != nil {
							return err
						}
					}
					pool := append(lb.Entries, lb.Reserve...)
					pool = rerankOld(pool, []map[string]any{
						{"playerId": winner.id, "name": winner.name, "wins": wt[0] + 1, "losses": wt[1], "draws": int64(0)},
						{"playerId": loser.id, "name": loser.name, "wins": lt[0], "losses": lt[1] + 1, "draws": int64(0)},
					})
					top := min(10, len(pool))
					if err := tx.Set(board, map[string]any{"kind": "dashdice", "mode": mode, "entries": pool[:top], "reserve": pool[top:],
						"complete": true, "updatedAt": now}); err != nil {
						return err
					}
					return tx.Set(record, map[string]any{"pending": false, "effectsAt": now})
				})
				if err == nil {
					committed[k] = time.Since(t0)
					break
				}
				if !exhausted {
					exhausted = true
					over.Add(1)
				}
			}
		}()
	}
	r0, w0 := c.oldCnt.Counts()
	t0 = time.Now()
	close(start)
	wg.Wait()
	r1, w1 := c.oldCnt.Counts()
	r.reads, r.writes = r1-r0, w1-w0
	for _, d := range committed {
		if d == 0 {
			r.unsettled++
			continue
		}
		r.answered++
		r.settle = append(r.settle, d)
		r.last = max(r.last, d)
	}
	if r.unsettled == 0 {
		r.settledAll = r.last
	}
	r.overBudget, r.aborts = int(over.Load()), aborts.Load()
	// The board is written by every effect: right once the last commits.
	snap, err := c.p.fs.Collection(oldBoards).Doc("dashdice-" + mode).Get(context.WithoutCancel(ctx))
	if err != nil {
		return nil, err
	}
	want := map[string][2]int64{}
	for _, pr := range pairs {
		want[players[pr[0]].id] = [2]int64{0, 1}
		want[players[pr[1]].id] = [2]int64{1, 0}
	}
	var all []entry
	for id, w := range want {
		all = append(all, entry{id, w[0], w[1]})
	}
	sort.Slice(all, func(i, j int) bool { return ranksBefore(all[i], all[j]) })
	if r.unsettled == 0 && sameTop(entriesOf(snap.Data()["entries"]), all[:min(10, len(all))]) {
		r.boardRight = r.last
	} else {
		r.notes = append(r.notes, "the emulated old board does not hold the right top")
	}
	return r, nil
}

// rerankOld puts changed entries into a board's pool: best first, at most 50.
func rerankOld(pool, changed []map[string]any) []map[string]any {
	ids := map[string]bool{}
	for _, c := range changed {
		ids[c["playerId"].(string)] = true
	}
	var next []map[string]any
	for _, e := range pool {
		if id, _ := e["playerId"].(string); !ids[id] {
			next = append(next, e)
		}
	}
	next = append(next, changed...)
	key := func(e map[string]any) entry {
		id, _ := e["playerId"].(string)
		w, _ := e["wins"].(int64)
		l, _ := e["losses"].(int64)
		return entry{id, w, l}
	}
	sort.SliceStable(next, func(i, j int) bool { return ranksBefore(key(next[i]), key(next[j])) })
	if len(next) > 50 {
		next = next[:50]
	}
	return next
}

// ---- Report ----

func ms(d time.Duration) string {
	if d <= 0 {
		return "–"
	}
	if d < 10*time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

func per(a int64, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", float64(a)/float64(b))
}

func (c *crowdRun) report(sizes []int, newQM, oldQM []*qmRound, newEnds, oldEnds []*endsRound) {
	out := c.out
	qmTable := func(title string, rs []*qmRound) {
		fmt.Fprintf(out, "\n%s\n\n", title)
		fmt.Fprintf(out, "| callers | first call p50 / p99 / max | first > 1 s | first not 200 | calls (polls incl.) | non-200 (503) | left / leavers | pairs | all but odd one paired | pairings/s | unpaired at 20 s (odd one incl.) | lost | doubled | self | left but paired | reads / writes per call | reads / writes per pair (until the last) | queries per call | n bare transactions at once p50 / max |\n")
		fmt.Fprintf(out, "|---:|---|---:|---:|---:|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|---|---:|---|\n")
		for i, n := range sizes {
			r := rs[i]
			paired := ms(r.allPaired)
			if r.allPaired == 0 {
				paired = fmt.Sprintf("not within 20 s (%d of %d)", r.matched, r.target)
			}
			floor := "(as above)"
			if r.floor != nil {
				floor = ms(games.Pct(r.floor, 50)) + " / " + ms(games.Pct(r.floor, 100))
			}
			fmt.Fprintf(out, "| %d | %s / %s / %s | %d | %d | %d | %d (%d) | %d / %d | %d | %s | %.1f | %d | %d | %d | %d | %d | %s / %s | %s / %s | %s | %s |\n",
				n, ms(games.Pct(r.first, 50)), ms(games.Pct(r.first, 99)), ms(games.Pct(r.first, 100)), r.firstOver1s, r.firstBad,
				r.calls, r.non200, r.svc, r.left, r.leaversAsked, len(r.pairs), paired, r.pairsPerSec(), r.gaveUp,
				r.lost, r.doubled, r.self, r.cancelled,
				per(r.reads, r.calls+r.leaves), per(r.writes, r.calls+r.leaves), per(r.pairReads, len(r.pairs)), per(r.pairWrites, len(r.pairs)), per(r.queries, r.calls+r.leaves), floor)
		}
		fmt.Fprintln(out)
		for i, n := range sizes {
			r := rs[i]
			var st []string
			for code, k := range r.statuses {
				st = append(st, fmt.Sprintf("%s×%d", codeName(code), k))
			}
			sort.Strings(st)
			fmt.Fprintf(out, "- %d callers (load average %s): statuses %s; commits refused %d, aborted %d; players matched by %s",
				n, r.load, strings.Join(st, ", "), r.refused, r.aborted, r.timeline())
			if r.lateMatched > 0 {
				fmt.Fprintf(out, "; %d matched only when the unpaired left at the end", r.lateMatched)
			}
			for k, note := range r.notes {
				if k == 5 {
					fmt.Fprintf(out, "; … %d more", len(r.notes)-5)
					break
				}
				fmt.Fprintf(out, "; %s", note)
			}
			fmt.Fprintln(out)
		}
	}
	endsTable := func(title string, rs []*endsRound, old bool) {
		fmt.Fprintf(out, "\n%s\n\n", title)
		if old {
			fmt.Fprintf(out, "| callers | games ended at once | effects committed | game ends/s (committed) | settle after start p50 / p99 / max | every player settled | ran out of the 8 s budget | aborted attempts | board right | reads / writes per game end |\n")
			fmt.Fprintf(out, "|---:|---:|---:|---:|---|---|---:|---:|---|---|\n")
		} else {
			fmt.Fprintf(out, "| callers | games ended at once | forfeits answered 200 | not 200 | game ends/s (answered) | stats settle after reply p50 / p99 / max | every player settled | game ends/s (settled) | board right (after the last reply) | reads / writes per game end |\n")
			fmt.Fprintf(out, "|---:|---:|---:|---:|---:|---|---|---:|---|---|\n")
		}
		for i, n := range sizes {
			r := rs[i]
			rate := 0.0
			if r.last > 0 {
				rate = float64(r.answered) / r.last.Seconds()
			}
			board := fmt.Sprintf("never (%s)", crowdSettle)
			if r.boardRight > 0 {
				board = ms(r.boardRight)
				if !old {
					board += " (" + ms(r.boardAfterLast) + ")"
				}
			}
			if r.games == 0 {
				board = "–"
			}
			settled := ms(r.settledAll)
			if r.settledAll == 0 {
				settled = fmt.Sprintf("not within %s (%d unsettled)", crowdSettle, r.unsettled)
			}
			if old {
				fmt.Fprintf(out, "| %d | %d | %d | %.1f | %s / %s / %s | %s | %d | %d | %s | %s / %s |\n", n, r.games, r.answered, rate,
					ms(games.Pct(r.settle, 50)), ms(games.Pct(r.settle, 99)), ms(games.Pct(r.settle, 100)), settled,
					r.overBudget, r.aborts, board, per(r.reads, r.games), per(r.writes, r.games))
			} else {
				settledRate := "–"
				if r.settledAll > 0 {
					settledRate = fmt.Sprintf("%.1f", float64(r.games)/r.settledAll.Seconds())
				}
				fmt.Fprintf(out, "| %d | %d | %d | %d | %.1f | %s / %s / %s | %s | %s | %s | %s / %s |\n", n, r.games, r.answered, r.non200, rate,
					ms(games.Pct(r.settle, 50)), ms(games.Pct(r.settle, 99)), ms(games.Pct(r.settle, 100)), settled, settledRate,
					board, per(r.reads, r.games), per(r.writes, r.games))
			}
		}
		fmt.Fprintln(out)
		for i, n := range sizes {
			for _, note := range rs[i].notes {
				fmt.Fprintf(out, "- %d callers: %s\n", n, note)
			}
		}
	}
	qmTable("NEW quick match (tickets, store/queue.go, through the DashDice function)", newQM)
	qmTable("OLD quick match (one queue document, emulated in the load generator: one transaction per call, no HTTP)", oldQM)

	fmt.Fprintf(out, "\npairings/s, new / old:")
	for i, n := range sizes {
		o := oldQM[i].pairsPerSec()
		if o == 0 {
			fmt.Fprintf(out, " %d: %.1f / 0 (old made no pair);", n, newQM[i].pairsPerSec())
			continue
		}
		fmt.Fprintf(out, " %d: %.1fx;", n, newQM[i].pairsPerSec()/o)
	}
	fmt.Fprintln(out)
	at := func(n int) int {
		for i, k := range sizes {
			if k == n {
				return i
			}
		}
		return -1
	}
	i20, i120 := at(20), at(120)
	scale := func(rs []*qmRound) string {
		a, b := rs[i20].pairsPerSec(), rs[i120].pairsPerSec()
		if a == 0 {
			return fmt.Sprintf("%.1f at 120, 0 at 20", b)
		}
		return fmt.Sprintf("%.2fx (%.1f / %.1f)", b/a, b, a)
	}
	if i20 >= 0 && i120 >= 0 {
		fmt.Fprintf(out, "pairings/s at 120 vs 20: new %s; old %s\n", scale(newQM), scale(oldQM))
	}

	endsTable("NEW game ends (forfeit through the DashDice function; effects, stats and leaderboard by the stack)", newEnds, false)
	endsTable("OLD game ends (emulated: one transaction per game end rewriting the one leaderboard document and both players)", oldEnds, true)

	fmt.Fprintf(out, "\nTargets (issue 21), new design:\n")
	hold := func(ok bool) string {
		if ok {
			return "holds"
		}
		return "MISSED"
	}
	firstOK, clean := true, true
	var firstWhy, cleanWhy []string
	for i, n := range sizes {
		r := newQM[i]
		if r.firstOver1s > 0 || r.firstBad > 0 {
			firstOK = false
			firstWhy = append(firstWhy, fmt.Sprintf("%d callers: %d over 1 s (max %s), %d not 200", n, r.firstOver1s, ms(games.Pct(r.first, 100)), r.firstBad))
		}
		if r.lost+r.doubled+r.self+r.cancelled > 0 {
			clean = false
			cleanWhy = append(cleanWhy, fmt.Sprintf("%d callers: lost %d, doubled %d, self %d, left but paired %d", n, r.lost, r.doubled, r.self, r.cancelled))
		}
	}
	fmt.Fprintf(out, "- every first call answered within 1 s, never 503: %s %s\n", hold(firstOK), strings.Join(firstWhy, "; "))
	if i120 >= 0 {
		r := newQM[i120]
		got := fmt.Sprintf("%d of %d paired at 20 s", r.matched, r.target)
		if r.allPaired > 0 {
			got = ms(r.allPaired)
		}
		fmt.Fprintf(out, "- everyone but an odd one out paired within 5 s at 120 callers: %s (%s)\n", hold(r.allPaired > 0 && r.allPaired <= 5*time.Second), got)
	}
	if i20 >= 0 && i120 >= 0 {
		a, b := newQM[i20].pairsPerSec(), newQM[i120].pairsPerSec()
		fmt.Fprintf(out, "- pairings/s at 120 callers ≥ 3× that at 20: %s (%s)\n", hold(a > 0 && b >= 3*a), scale(newQM))
	}
	fmt.Fprintf(out, "- 0 lost, doubled, self-paired, left-but-paired: %s %s\n", hold(clean), strings.Join(cleanWhy, "; "))
}

func codeName(code int) string {
	if code == -1 {
		return "no reply"
	}
	return strconv.Itoa(code)
}
