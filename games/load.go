package games

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/codebowl"
	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/store"
)

// LoadActions is how many DashDice roll and bank actions the DashDice scenario
// times; the load generator sets it from its -actions flag.
var LoadActions = 400

// Pct is the p-th percentile of d.
func Pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	if i > 0 {
		i--
	}
	return s[i].Round(10 * time.Microsecond)
}

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// gameDoc reads a game document as p.Doc does, its packed state parsed
// (store.Unpacked); the size is the stored document's.
func gameDoc(ctx context.Context, p domain.Probe, id string) (map[string]any, int, error) {
	doc, size, err := p.Doc(ctx, "games/"+id)
	if err != nil || doc == nil {
		return doc, size, err
	}
	doc, err = store.Unpacked(doc)
	return doc, size, err
}

// bareRuns are bare transactions run between a scenario's timed actions
// (domain.Probe.Bare): the floor each action is set against, measured in the
// same stretch of the run, so a ratio compares like with like.
type bareRuns []time.Duration

// after runs one bare transaction (after a timed action).
func (b *bareRuns) after(ctx context.Context, p domain.Probe) error {
	d, err := p.Bare(ctx)
	if err != nil {
		return fmt.Errorf("bare transaction: %w", err)
	}
	*b = append(*b, d)
	return nil
}

// rows prints the bare transactions' row and, for each action type in order,
// its row (named type+suffix) and its p50 and p99 against the bare ones.
func (b bareRuns) rows(out io.Writer, suffix string, order []string, lat map[string][]time.Duration) {
	fmt.Fprintf(out, "%-38s %9s %9s %9s %9s %9s\n", "", "p50", "p99", "samples", "p50/bare", "p99/bare")
	fmt.Fprintf(out, "%-38s %9s %9s %9d\n", "bare 1-doc transaction, between them", Pct(b, 50), Pct(b, 99), len(b))
	for _, typ := range order {
		d := lat[typ]
		if len(d) == 0 {
			continue
		}
		fmt.Fprintf(out, "%-38s %9s %9s %9d %8.2fx %8.2fx\n", typ+suffix, Pct(d, 50), Pct(d, 99), len(d),
			ratio(Pct(d, 50), Pct(b, 50)), ratio(Pct(d, 99), Pct(b, 99)))
	}
}

func row(out io.Writer, name string, d []time.Duration) {
	fmt.Fprintf(out, "%-38s %9s %9s %9d\n", name, Pct(d, 50), Pct(d, 99), len(d))
}

// dashDiceLoad plays Classic matches (no timer) between two guests, rolling
// until the turn score reaches 20 and then banking, until LoadActions actions
// are timed: latency against the bare transaction, documents per action, the
// listener's delay and the match document's size.
func dashDiceLoad(ctx context.Context, p domain.Probe, out io.Writer) error {
	n := LoadActions
	tokens := map[string]string{}
	var ids []string
	for _, name := range []string{"Ann", "Ben"} {
		g, err := p.Guest(ctx, name)
		if err != nil {
			return err
		}
		id := g["player"].(map[string]any)["id"].(string)
		tokens[id] = g["token"].(string)
		ids = append(ids, id)
	}
	var roll, bank, afterResponse, afterRequest []time.Duration
	var bare bareRuns
	var rollR, rollW, bankR, bankW int64
	early, seq, docSize, docJSON, maxDoc := 0, 0, 0, 0, 0
	var whole wholeGames // matches played to their end
	for match := 0; len(roll)+len(bank) < n; match++ {
		since, paths0 := countFrom(p), pathsNow(p)
		gameID, err := startDashDice(ctx, p, tokens, ids, fmt.Sprint("create-", match))
		if err != nil {
			return err
		}
		matchActions := 3 // the create, the join and the start
		seen, stop := p.Watch(ctx, gameID)
		doc, _, err := gameDoc(ctx, p, gameID)
		if err != nil {
			stop()
			return err
		}
		state := doc["state"].(map[string]any)
		for state["phase"] != "gameOver" && len(roll)+len(bank) < n {
			seq++
			typ := "roll"
			if ts, _ := state["turnScore"].(int64); ts >= 20 {
				typ = "bank"
			}
			player := state["currentPlayerId"].(string)
			since := countFrom(p)
			sent := time.Now()
			res, err := p.Call(ctx, "DashDice", tokens[player], map[string]any{"gameId": gameID, "actionId": fmt.Sprint("a", seq), "type": typ})
			if err != nil {
				stop()
				return err
			}
			got := time.Now()
			c := since()
			matchActions++
			version := int64(res["version"].(float64))
			if typ == "roll" {
				roll = append(roll, got.Sub(sent))
				rollR, rollW = rollR+c.ownReads, rollW+c.ownWrites
				at := seen(version)
				afterResponse = append(afterResponse, at.Sub(got))
				afterRequest = append(afterRequest, at.Sub(sent))
				if at.Before(got) {
					early++
				}
			} else {
				bank = append(bank, got.Sub(sent))
				bankR, bankW = bankR+c.ownReads, bankW+c.ownWrites
			}
			doc, size, err := gameDoc(ctx, p, gameID)
			if err != nil {
				stop()
				return err
			}
			state = doc["state"].(map[string]any)
			maxDoc = max(maxDoc, size)
			if err := bare.after(ctx, p); err != nil {
				stop()
				return err
			}
			if docSize == 0 && len(roll) > 20 {
				docSize = size
				b, _ := json.Marshal(doc)
				docJSON = len(b)
			}
		}
		stop()
		if state["phase"] == "gameOver" {
			if err := whole.game(ctx, p, gameID, matchActions, since, paths0); err != nil {
				return err
			}
		}
	}
	bare.rows(out, " via DashDice function", []string{"roll", "bank"}, map[string][]time.Duration{"roll": roll, "bank": bank})
	fmt.Fprintf(out, "Firestore documents per action (counted from RPCs):\n")
	fmt.Fprintf(out, "  roll: %.2f reads, %.2f writes\n", float64(rollR)/float64(len(roll)), float64(rollW)/float64(len(roll)))
	if len(bank) > 0 {
		fmt.Fprintf(out, "  bank: %.2f reads, %.2f writes\n", float64(bankR)/float64(len(bank)), float64(bankW)/float64(len(bank)))
	}
	fmt.Fprintf(out, "listener (another client's snapshot of the match document):\n")
	row(out, "  roll response → listener sees it", afterResponse)
	row(out, "  roll request sent → listener", afterRequest)
	fmt.Fprintf(out, "  (%d of %d snapshots arrived before the HTTP response)\n", early, len(afterResponse))
	whole.print(out, "matches")
	fmt.Fprintf(out, "match document size: %d bytes (Firestore storage size), %d bytes as JSON; the largest seen %d bytes\n", docSize, docJSON, maxDoc)
	if err := contention(ctx, p, out, tokens, ids); err != nil {
		return err
	}
	return deadlines(ctx, p, out, tokens, ids)
}

// deadlines measures how late a passed turn deadline reaches a listener:
// applied by the stack's tick alone (every second here, every minute in
// production), and by a client that sends "advance" when the deadline it sees
// passes (docs/triggers.md).
func deadlines(ctx context.Context, p domain.Probe, out io.Writer, tokens map[string]string, ids []string) error {
	// sample is one match whose turn deadline passes: how late its listener
	// saw the turn end.
	sample := func(name string, i int, byClient bool) (time.Duration, error) {
		res, err := p.Call(ctx, "DashDice", tokens[ids[0]], map[string]any{"actionId": fmt.Sprint(name, i), "type": "create", "mode": "classic", "turnSeconds": 5})
		if err != nil {
			return 0, err
		}
		gameID := res["result"].(map[string]any)["gameId"].(string)
		if _, err := p.Call(ctx, "DashDice", tokens[ids[1]], map[string]any{"gameId": gameID, "actionId": "join", "type": "join"}); err != nil {
			return 0, err
		}
		res, err = p.Call(ctx, "DashDice", tokens[ids[1]], map[string]any{"gameId": gameID, "actionId": "call", "type": "call", "call": "odd"})
		if err != nil {
			return 0, err
		}
		version := int64(res["version"].(float64))
		doc, _, err := gameDoc(ctx, p, gameID)
		if err != nil {
			return 0, err
		}
		deadline, _ := doc["deadlineAt"].(time.Time)
		seen, stop := p.Watch(ctx, gameID)
		defer stop()
		time.Sleep(time.Until(deadline))
		if byClient {
			if _, err := p.Call(ctx, "DashDice", tokens[ids[0]], map[string]any{"gameId": gameID, "actionId": "adv", "type": "advance"}); err != nil {
				return 0, err
			}
		}
		return seen(version + 1).Sub(deadline), nil
	}
	// The samples run at once, each on its own match (their deadlines pass
	// within a second of each other, as a busy deployment's do): a turn of
	// 5 s waited for once, not three times.
	measure := func(name string, byClient bool) error {
		lags := make([]time.Duration, 3)
		errs := make([]error, 3)
		var wg sync.WaitGroup
		for i := range lags {
			wg.Add(1)
			go func() {
				defer wg.Done()
				lags[i], errs[i] = sample(name, i, byClient)
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		fmt.Fprintf(out, "  %-44s %v\n", name, lags)
		return nil
	}
	fmt.Fprintf(out, "a passed turn deadline reaches a listener after (3 samples):\n")
	if err := measure("the tick alone (every 1 s here)", false); err != nil {
		return err
	}
	return measure("a client's advance when the deadline passes", true)
}

// contention sends 50 rolls at once on one match, as the player whose turn it
// is: each is applied, refused for the moment (the turn ended: 409) or told
// to come back (503 with Retry-After) — never a 500.
func contention(ctx context.Context, p domain.Probe, out io.Writer, tokens map[string]string, ids []string) error {
	const n = 50
	gameID, err := startDashDice(ctx, p, tokens, ids, "contended")
	if err != nil {
		return err
	}
	doc, _, err := gameDoc(ctx, p, gameID)
	if err != nil {
		return err
	}
	cur := doc["state"].(map[string]any)["currentPlayerId"].(string)
	var mu sync.Mutex
	var wg sync.WaitGroup
	status := map[string]int{}
	var lat []time.Duration
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			_, err := p.Call(ctx, "DashDice", tokens[cur], map[string]any{"gameId": gameID, "actionId": fmt.Sprint("c", i), "type": "roll"})
			d := time.Since(t0)
			code := "200"
			if err != nil {
				code = strings.SplitN(err.Error(), " ", 2)[0]
			}
			mu.Lock()
			status[code]++
			lat = append(lat, d)
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Fprintf(out, "%d concurrent rolls on one match: statuses %v; p50 %s, p99 %s (retry budget 8 s)\n", n, status, Pct(lat, 50), Pct(lat, 99))
	// The same request 50 times at once (a client retrying hard): one applies,
	// every other gets its reply.
	doc, _, err = gameDoc(ctx, p, gameID)
	if err != nil {
		return err
	}
	st := doc["state"].(map[string]any)
	if st["phase"] != "gameplay" {
		return nil
	}
	cur = st["currentPlayerId"].(string)
	status, lat = map[string]int{}, nil
	replies := map[string]int{}
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			res, err := p.Call(ctx, "DashDice", tokens[cur], map[string]any{"gameId": gameID, "actionId": "same", "type": "roll"})
			d := time.Since(t0)
			code := "200"
			if err != nil {
				code = strings.SplitN(err.Error(), " ", 2)[0]
			}
			b, _ := json.Marshal(res)
			mu.Lock()
			status[code]++
			replies[string(b)]++
			lat = append(lat, d)
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Fprintf(out, "the same roll (one actionId) %d times at once: statuses %v, %d distinct replies; p50 %s, p99 %s\n", n, status, len(replies), Pct(lat, 50), Pct(lat, 99))
	return nil
}

// partyBoardLoad plays one 12-player Party Board game on pokemon-gen1 through
// the functions, answering whatever the game awaits, and counts Firestore
// reads and writes per action and the size of the game document.
func partyBoardLoad(ctx context.Context, p domain.Probe, out io.Writer) error {
	tokens := map[string]string{}
	var first string
	for i := 0; i < 12; i++ {
		g, err := p.Guest(ctx, fmt.Sprint("Trainer ", i))
		if err != nil {
			return err
		}
		id := g["player"].(map[string]any)["id"].(string)
		tokens[id] = g["token"].(string)
		if i == 0 {
			first = id
		}
	}
	since, paths0 := countFrom(p), pathsNow(p)
	res, err := p.Call(ctx, "PartyBoard", tokens[first], map[string]any{"actionId": "pb", "type": "create", "board": "pokemon-gen1"})
	if err != nil {
		return err
	}
	gameID := res["result"].(map[string]any)["gameId"].(string)
	for id, tok := range tokens {
		if id != first {
			if _, err := p.Call(ctx, "PartyBoard", tok, map[string]any{"gameId": gameID, "actionId": "j", "type": "join"}); err != nil {
				return err
			}
		}
	}
	if _, err := p.Call(ctx, "PartyBoard", tokens[first], map[string]any{"gameId": gameID, "actionId": "s", "type": "start"}); err != nil {
		return err
	}
	var actions, rolls, maxDoc int
	var reads, writes, rollReads, rollWrites float64
	for n := 0; n < 5000; n++ {
		doc, size, err := gameDoc(ctx, p, gameID)
		if err != nil {
			return err
		}
		maxDoc = max(maxDoc, size)
		st := doc["state"].(map[string]any)
		w, ok := st["await"].(map[string]any)
		if !ok {
			break // over
		}
		who := w["players"].([]any)[0].(string)
		body := map[string]any{"gameId": gameID, "actionId": fmt.Sprint("a", n), "type": w["action"]}
		pick := func(key string) any { l := w[key].([]any); return l[n%len(l)] }
		switch w["action"] {
		case "choose":
			body["choice"] = n % len(w["choices"].([]any))
		case "target":
			body["playerId"] = pick("targets")
		case "starter":
			body["starter"] = pick("starters")
		case "challenge":
			t := w["targets"].([]any)
			body["winner"], body["loser"] = t[0], t[1]
		}
		own := countFrom(p)
		if _, err := p.Call(ctx, "PartyBoard", tokens[who], body); err != nil {
			return err
		}
		c := own()
		actions++
		reads += float64(c.ownReads)
		writes += float64(c.ownWrites)
		if w["action"] == "roll" {
			rolls++
			rollReads += float64(c.ownReads)
			rollWrites += float64(c.ownWrites)
		}
	}
	fmt.Fprintf(out, "one whole 12-player game on pokemon-gen1 (%d actions):\n", actions)
	fmt.Fprintf(out, "  per action: %.2f reads, %.2f writes; per roll: %.2f reads, %.2f writes\n",
		reads/float64(actions), writes/float64(actions), rollReads/float64(rolls), rollWrites/float64(rolls))
	fmt.Fprintf(out, "  largest game document: %d bytes (Firestore storage size)\n", maxDoc)
	var whole wholeGames
	if err := whole.game(ctx, p, gameID, actions+len(tokens)+1, since, paths0); err != nil {
		return err
	}
	whole.print(out, "game")
	r0, _ := p.Counts()
	b, err := p.Call(ctx, "PartyBoard", tokens[first], map[string]any{"actionId": "gb", "type": "getBoard", "board": "pokemon-gen1"})
	if err != nil {
		return err
	}
	r1, _ := p.Counts()
	raw, _ := json.Marshal(b["result"])
	fmt.Fprintf(out, "  getBoard pokemon-gen1 (what a client draws the board from): %d bytes of JSON, %d reads\n", len(raw), r1-r0)
	return nil
}

// raceLoadTasks is a task file of single-completion tasks, so every request
// completes its tile.
func raceLoadTasks() string {
	var b strings.Builder
	for _, d := range []string{"easy", "medium", "hard"} {
		for i := 0; i < 60; i++ {
			fmt.Fprintf(&b, "%s %d,%s,1,1\n", d, i, d)
		}
	}
	return b.String()
}

// tileRaceLoad sets up a Tile Race with 10 teams through the functions, then
// measures (1) Firestore reads and writes per completion, one at a time,
// with and without the effects the trigger runs for it, and (2) completions
// per second with every team completing 5 tiles at once, in lock step.
// loadRace is a started race of n teams for the load scenarios: the master
// admin's calls, each team's session and id, and where each team stands.
type loadRace struct {
	ctx    context.Context
	p      domain.Probe
	gameID string
	master string
	tokens []string
	teams  []string // team ids
	pos    []int
}

// newLoadRace creates a race with n teams (in Discord slots 1-5 in turn),
// signs each in, runs the admin steps first (before the import), imports
// raceLoadTasks, randomises and starts.
func newLoadRace(ctx context.Context, p domain.Probe, createID string, n int, first ...map[string]any) (*loadRace, error) {
	g, err := p.Guest(ctx, "Mia")
	if err != nil {
		return nil, err
	}
	res, err := p.Call(ctx, "TileRace", g["token"].(string), map[string]any{"actionId": createID, "type": "create", "name": "Mia", "password": "master-pass"})
	if err != nil {
		return nil, err
	}
	r := &loadRace{ctx: ctx, p: p, gameID: res["gameId"].(string), master: res["result"].(map[string]any)["session"].(map[string]any)["token"].(string),
		tokens: make([]string, n), teams: make([]string, n), pos: make([]int, n)}
	for i := range n {
		if err := r.admin(fmt.Sprint("team", i), map[string]any{"type": "createTeam", "name": fmt.Sprint("Team ", i),
			"members": []string{fmt.Sprint("Cap", i)}, "slot": i%5 + 1, "password": "team-pass"}); err != nil {
			return nil, err
		}
		s, err := p.Call(ctx, "Auth", "", map[string]any{"type": "teamLogin", "gameId": r.gameID, "team": fmt.Sprint("Team ", i), "password": "team-pass"})
		if err != nil {
			return nil, err
		}
		r.tokens[i] = s["token"].(string)
		_, r.teams[i], _ = strings.Cut(s["player"].(map[string]any)["id"].(string), ":") // {gameId}:{teamId}
		r.pos[i] = 1
	}
	steps := append(first, map[string]any{"type": "importTasks", "data": raceLoadTasks()},
		map[string]any{"type": "randomiseDifficulties", "fill": true}, map[string]any{"type": "start"})
	for _, step := range steps {
		if err := r.admin(step["type"].(string), step); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// admin sends an action as the master admin.
func (r *loadRace) admin(id string, body map[string]any) error {
	body["gameId"], body["actionId"] = r.gameID, id
	_, err := r.p.Call(r.ctx, "TileRace", r.master, body)
	return err
}

// complete has team i complete its tile with one completion.
func (r *loadRace) complete(i int, id string) (map[string]any, error) {
	res, err := r.p.Call(r.ctx, "TileRace", r.tokens[i], map[string]any{"gameId": r.gameID, "actionId": id, "type": "complete",
		"tile": r.pos[i], "recorded": 0, "players": []string{fmt.Sprint("Cap", i)}, "complete": true})
	if err != nil {
		return nil, err
	}
	r.pos[i] = int(res["result"].(map[string]any)["position"].(float64))
	return res, nil
}

func tileRaceLoad(ctx context.Context, p domain.Probe, out io.Writer) error {
	// perTeam completions each in the bursts, and as many rounds in the
	// floor: with 5, a floor of 50 transactions took 0.15–0.4 s and its
	// rate varied threefold from run to run.
	const n, perTeam = 10, 10
	r, err := newLoadRace(ctx, p, "race", n)
	if err != nil {
		return err
	}
	gameID, complete := r.gameID, r.complete
	movedFrontier := func(reply map[string]any) bool {
		pos := int(reply["result"].(map[string]any)["position"].(float64))
		return pos > 1 && tilerace.RevealUpTo(pos) > tilerace.RevealUpTo(pos-1)
	}
	// (1) One at a time: each team completes one tile; wait for its effects
	// before the next.
	var sequential, frontierMoves, awardsSeq int
	var actReads, actWrites, allReads, allWrites float64
	reqPaths, effPaths := map[string]int64{}, map[string]int64{}
	for i := range n {
		since := countFrom(p)
		pa := pathsNow(p)
		res, err := complete(i, "seq")
		if err != nil {
			return err
		}
		req := since()
		pb := pathsNow(p)
		record := domain.ScopedID(gameID, teamOf(res)) + "~seq"
		if err := waitApplied(ctx, p, gameID, record); err != nil {
			return err
		}
		all := since()
		for k, v := range pathsNow(p) {
			reqPaths[k] += pb[k] - pa[k]
			effPaths[k] += v - pb[k]
		}
		sequential++
		awardsSeq += len(awardKeys(res))
		actReads += float64(req.ownReads)
		actWrites += float64(req.ownWrites)
		allReads += float64(all.ownReads)
		allWrites += float64(all.ownWrites)
		if movedFrontier(res) {
			frontierMoves++
		}
	}
	// (2) All teams at once, perTeam completions each, between two
	// measures of the concurrent floor: as many writers doing the same
	// rounds of bare 3-read, 3-write transactions on documents of their own.
	var slow, movesUnderLoad int
	var lock burstTally
	var perLock cpuSpent
	replied := map[string]time.Time{} // award key → when its completion was answered
	floor, err := floorAround(ctx, p, n, perTeam, func() {
		lockCPU := cpuSince(p)
		lock = r.burst(n, perTeam, "c", func(res map[string]any, d time.Duration) {
			if d > 500*time.Millisecond {
				slow++
			}
			if movedFrontier(res) {
				movesUnderLoad++
			}
			for _, k := range awardKeys(res) {
				replied[k] = time.Now()
			}
		})
		perLock = lockCPU(n * perTeam)
	})
	if err != nil {
		return err
	}
	board := settle(ctx, p, r.gameID, replied, awardsSeq)
	seq := float64(sequential)
	fmt.Fprintf(out, "%d teams on one game:\n", n)
	fmt.Fprintf(out, "  per completion, one at a time (%d, %d reached a tile that reveals more): the request %.2f reads, %.2f writes; with its effects %.2f reads, %.2f writes\n",
		sequential, frontierMoves, actReads/seq, actWrites/seq, allReads/seq, allWrites/seq)
	fmt.Fprintf(out, "    the request, by path:\n")
	breakdown(out, reqPaths, nil, sequential)
	fmt.Fprintf(out, "    after its reply until its effects ran (the effects, and the tick meanwhile), by path:\n")
	breakdown(out, effPaths, nil, sequential)
	fmt.Fprintf(out, "  all %d teams completing at once: %d completions in %s = %.1f completions/s, %d failed\n",
		n, lock.done, lock.elapsed.Round(time.Millisecond), lock.rate(), lock.failed)
	fmt.Fprintf(out, "  the concurrent floor (%d writers, %d rounds of 3 reads + 3 writes each on their own documents): %.1f transactions/s (%.1f before the burst, %.1f after); completions at %.0f %% of it\n",
		n, perTeam, floor.rate, floor.before, floor.after, 100*lock.rate()/floor.rate)
	row(out, "  completion latency under that load", lock.latency)
	fmt.Fprintf(out, "  processor time per completion: %s; per floor transaction: %s\n", perLock, floor.cpu)
	fmt.Fprintf(out, "  %d of them reached a tile that reveals more; %d took over 500 ms\n", movesUnderLoad, slow)
	if err := spreadBurst(ctx, p, out, n, perTeam, floor.rate); err != nil {
		return err
	}
	// An award's ledger entry is in its event record, created with the
	// team's points: readable at the reply. The leaderboard follows.
	fmt.Fprintf(out, "  the leaderboard settles, from each completion's reply (%d awards):\n", len(replied))
	row(out, "    reply → public/leaderboard counts it", board)
	return raceMix(ctx, p, out, r)
}

// burstTally is what a burst did: completions answered and failed, their
// latencies, and how long it took.
type burstTally struct {
	done, failed int
	latency      []time.Duration
	elapsed      time.Duration
}

// rate is the burst's completions per second.
func (b burstTally) rate() float64 { return float64(b.done) / b.elapsed.Seconds() }

// burst has the first n teams complete perTeam tiles each, all teams at
// once (action ids prefix0, prefix1, …), calling each (when not nil) with
// every successful reply and its latency, one call at a time.
func (r *loadRace) burst(n, perTeam int, prefix string, each func(res map[string]any, d time.Duration)) burstTally {
	var mu sync.Mutex
	var wg sync.WaitGroup
	var t burstTally
	start := time.Now()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < perTeam; k++ {
				t0 := time.Now()
				res, err := r.complete(i, fmt.Sprint(prefix, k))
				d := time.Since(t0)
				mu.Lock()
				if err != nil {
					t.failed++
				} else {
					t.done++
					t.latency = append(t.latency, d)
					if each != nil {
						each(res, d)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.elapsed = time.Since(start)
	return t
}

// spreadBurst is the burst again on races whose teams are spread over the
// board (team i moved to tile 1+4i by the admin first), as a race's teams
// soon are: only the leader's completions lift the fog, so the others
// share no document. The first is set against the floor measured for the
// lock-step burst; then spreadRounds more, each on a race of its own between
// floors of its own, since the floor's rate moves from run to run (190-575
// transactions/s were seen) and a single ratio says little.
func spreadBurst(ctx context.Context, p domain.Probe, out io.Writer, n, perTeam int, floorRate float64) error {
	r, err := spreadRace(ctx, p, "spread", n)
	if err != nil {
		return err
	}
	spent := cpuSince(p)
	t := r.burst(n, perTeam, "s", nil)
	per := spent(n * perTeam)
	fmt.Fprintf(out, "  the same burst with the teams spread over the board (only the leader lifts the fog): %d completions in %s = %.1f completions/s, %d failed; %.0f %% of the floor above\n",
		t.done, t.elapsed.Round(time.Millisecond), t.rate(), t.failed, 100*t.rate()/floorRate)
	row(out, "  completion latency, spread", t.latency)
	fmt.Fprintf(out, "  processor time per completion, spread: %s\n", per)
	fmt.Fprintf(out, "  the spread burst %d times more, each on a new race between floors of its own:\n", spreadRounds())
	var ratios, docRatios []float64
	for round := 1; round <= spreadRounds(); round++ {
		r, err := spreadRace(ctx, p, fmt.Sprint("spread", round), n)
		if err != nil {
			return err
		}
		var t burstTally
		var burstCPU cpuSpent
		floor, err := floorAround(ctx, p, n, perTeam, func() {
			spent := cpuSince(p)
			t = r.burst(n, perTeam, "s", nil)
			burstCPU = spent(n * perTeam)
		})
		if err != nil {
			return err
		}
		ratios = append(ratios, t.rate()/floor.rate)
		// The same documents written by a bare client: what Firestore alone
		// makes of a completion's documents, so the gap to the floor splits
		// into theirs and the stack's.
		reads, writes, err := completionDocs(ctx, p, r)
		if err != nil {
			return err
		}
		docSpent := cpuSince(p)
		d, err := p.DocFloor(ctx, n, perTeam, reads, writes)
		if err != nil {
			return err
		}
		docCPU := docSpent(n * perTeam)
		docRate := float64(n*perTeam) / d.Seconds()
		docRatios = append(docRatios, t.rate()/docRate)
		fmt.Fprintf(out, "    round %d: %.1f completions/s, %d failed, floor %.1f transactions/s: %.0f %%; a bare client on the completion's own documents %.1f transactions/s (%.0f %% of the floor): the completions at %.0f %% of it\n",
			round, t.rate(), t.failed, floor.rate, 100*t.rate()/floor.rate, docRate, 100*docRate/floor.rate, 100*t.rate()/docRate)
		fmt.Fprintf(out, "      processor time per completion: %s; per floor transaction: %s; per bare transaction on the completion's documents: %s\n", burstCPU, floor.cpu, docCPU)
	}
	fmt.Fprintf(out, "    median %s of the floor; of the bare client on the same documents %s\n", medianRange(ratios), medianRange(docRatios))
	return nil
}

// medianRange is "median % (least-most %)" of ratios (sorted in place).
func medianRange(ratios []float64) string {
	sort.Float64s(ratios)
	return fmt.Sprintf("%.0f %% (%.0f-%.0f %%)", 100*ratios[len(ratios)/2], 100*ratios[0], 100*ratios[len(ratios)-1])
}

// completionDocs are the documents a spread completion of race r's team 1
// (its first, action id "s0", which made its first award) read — the race, the team,
// the public board — and wrote: the team, its history entry and its event
// record (which holds its award's ledger entry), as they are now.
func completionDocs(ctx context.Context, p domain.Probe, r *loadRace) (reads, writes []map[string]any, err error) {
	g, team := "games/"+r.gameID, r.teams[1]
	record := domain.ScopedID(r.gameID, team) + "~s0"
	get := func(paths ...string) ([]map[string]any, error) {
		var out []map[string]any
		for _, path := range paths {
			d, _, err := p.Doc(ctx, path)
			if err != nil {
				return nil, err
			}
			if d == nil {
				return nil, fmt.Errorf("loadgen: %s: no such document", path)
			}
			out = append(out, d)
		}
		return out, nil
	}
	if reads, err = get(g, g+"/teams/"+team, g+"/public/board"); err != nil {
		return nil, nil, err
	}
	writes, err = get(g+"/teams/"+team, g+"/history/"+record, g+"/events/"+record)
	return reads, writes, err
}

// spreadRace is a new race of n teams, team i moved to tile 1+4i (team 0
// stays on tile 1).
func spreadRace(ctx context.Context, p domain.Probe, createID string, n int) (*loadRace, error) {
	r, err := newLoadRace(ctx, p, createID, n)
	if err != nil {
		return nil, err
	}
	for i := 1; i < n; i++ {
		if err := r.admin(fmt.Sprint("move", i), map[string]any{"type": "moveTeam", "team": r.teams[i], "to": 1 + 4*i}); err != nil {
			return nil, err
		}
		r.pos[i] = 1 + 4*i
	}
	return r, nil
}

// floorRates is the concurrent floor measured just before and just after
// some work, in transactions per second, and their mean (rate), so a moment
// of the emulator's (a collection, a compilation) weighs less; cpu is the
// processor time per floor transaction, over both.
type floorRates struct {
	before, after, rate float64
	cpu                 cpuSpent
}

// floorAround measures the floor (n writers, rounds of 3 reads and 3
// writes) before and after running work.
func floorAround(ctx context.Context, p domain.Probe, n, rounds int, work func()) (floorRates, error) {
	measure := func() (float64, cpuSpent, error) {
		spent := cpuSince(p)
		d, err := p.Floor(ctx, n, 3, 3, rounds)
		return float64(n*rounds) / d.Seconds(), spent(n * rounds), err
	}
	var f floorRates
	before, c1, err := measure()
	if err != nil {
		return f, err
	}
	work()
	after, c2, err := measure()
	if err != nil {
		return f, err
	}
	f = floorRates{before: before, after: after, rate: (before + after) / 2,
		cpu: cpuSpent{(c1.emulator + c2.emulator) / 2, (c1.stack + c2.stack) / 2}}
	return f, nil
}

// spreadRounds is how many more spread bursts spreadBurst measures: 3, or 1
// in a short run (LoadActions under 100, as the README's Measuring commands
// run in the tests).
func spreadRounds() int {
	if LoadActions < 100 {
		return 1
	}
	return 3
}

// awardKeys are the ledger keys of the points a completion's reply awards.
func awardKeys(reply map[string]any) []string {
	var keys []string
	for _, ev := range reply["events"].([]any) {
		e := ev.(map[string]any)
		if e["type"] != tilerace.EventPointsAwarded {
			continue
		}
		if d, ok := e["data"].(map[string]any); ok {
			if k, ok := d["key"].(string); ok {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// settle polls (uncounted) until the race's public leaderboard counts
// every award (awards made in the burst, and the before awards made
// earlier), and returns how long after each award's reply it saw that (15 s
// at most).
func settle(ctx context.Context, p domain.Probe, gameID string, replied map[string]time.Time, before int) (board []time.Duration) {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		now := time.Now()
		if doc, _, err := p.Doc(ctx, "games/"+gameID+"/public/leaderboard"); err == nil && doc != nil {
			if n, _ := doc["awards"].(int64); int(n) >= before+len(replied) {
				for _, at := range replied {
					board = append(board, now.Sub(at))
				}
				return board
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// raceMix measures powerup uses and undo on a running race: the documents a
// Skip 1 costs one at a time, completions and Skip 1 uses mixed with every
// team at once (a team's use sets its cooldown and its next completion
// clears it), and the documents an undo costs.
func raceMix(ctx context.Context, p domain.Probe, out io.Writer, r *loadRace) error {
	const rounds = 4
	n := len(r.tokens)
	gameID, admin, tokens, teams, pos, complete := r.gameID, r.admin, r.tokens, r.teams, r.pos, r.complete
	for i := range n {
		for k := 0; k <= rounds; k++ {
			if err := admin(fmt.Sprint("grant", i, "-", k), map[string]any{"type": "grantPowerup", "team": teams[i], "powerup": "skip1"}); err != nil {
				return err
			}
		}
	}
	use := func(i int, id string) error {
		res, err := p.Call(ctx, "TileRace", tokens[i], map[string]any{"gameId": gameID, "actionId": id, "type": "usePowerup", "powerup": "skip1"})
		if err != nil {
			return err
		}
		pos[i] = int(res["result"].(map[string]any)["position"].(float64))
		return nil
	}
	// (3) One Skip 1 at a time: its documents.
	var useReads, useWrites float64
	for i := range n {
		since := countFrom(p)
		if err := use(i, "skip-seq"); err != nil {
			return err
		}
		c := since()
		useReads += float64(c.ownReads)
		useWrites += float64(c.ownWrites)
		if _, err := complete(i, "clear-seq"); err != nil { // clears the cooldown
			return err
		}
	}
	fmt.Fprintf(out, "  per Skip 1 use, one at a time (%d): %.2f reads, %.2f writes in the request\n", n, useReads/float64(n), useWrites/float64(n))
	// (4) All teams at once, each alternating a completion and a Skip 1.
	var mu sync.Mutex
	var wg sync.WaitGroup
	var completions, uses []time.Duration
	failed := 0
	start := time.Now()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range rounds {
				t0 := time.Now()
				_, cerr := complete(i, fmt.Sprint("mix-c", k))
				dc := time.Since(t0)
				t1 := time.Now()
				uerr := use(i, fmt.Sprint("mix-u", k))
				du := time.Since(t1)
				mu.Lock()
				if cerr != nil {
					failed++
				} else {
					completions = append(completions, dc)
				}
				if uerr != nil {
					failed++
				} else {
					uses = append(uses, du)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	done := len(completions) + len(uses)
	fmt.Fprintf(out, "  all %d teams completing and using Skip 1 at once: %d actions in %s = %.1f actions/s, %d failed\n",
		n, done, elapsed.Round(time.Millisecond), float64(done)/elapsed.Seconds(), failed)
	row(out, "  completion latency in the mix", completions)
	row(out, "  Skip 1 latency in the mix", uses)
	// (5) Undo, one at a time, by the master: the newest actions of the mix.
	const undos = 5
	paths0 := pathsNow(p)
	since := countFrom(p)
	var undoLat []time.Duration
	for k := range undos {
		t0 := time.Now()
		if err := admin(fmt.Sprint("undo", k), map[string]any{"type": "undo"}); err != nil {
			return err
		}
		undoLat = append(undoLat, time.Since(t0))
	}
	ur, uw, tr, tw := since().split(undos)
	fmt.Fprintf(out, "  per undo (%d, one at a time): %.2f reads, %.2f writes in the request (the tick besides: %.2f reads, %.2f writes)\n", undos, ur, uw, tr, tw)
	breakdown(out, pathsNow(p), paths0, undos)
	row(out, "  undo latency", undoLat)
	// (6) Undo of one completion (one award), one at a time: a team
	// completes and its effects run, then the master undoes it; the undo's
	// request, then with its effects.
	var reqC, allC counted
	undoReq, undoEff := map[string]int64{}, map[string]int64{}
	for k := range undos {
		i := k % n
		doc, _, err := p.Doc(ctx, "games/"+gameID+"/teams/"+teams[i]) // the undos above moved it back
		if err != nil || doc == nil {
			return fmt.Errorf("team %s: %v", teams[i], err)
		}
		pos[i] = int(doc["position"].(int64))
		res, err := complete(i, fmt.Sprint("undo-c", k))
		if err != nil {
			return err
		}
		if err := waitApplied(ctx, p, gameID, domain.ScopedID(gameID, teamOf(res))+fmt.Sprint("~undo-c", k)); err != nil {
			return err
		}
		since := countFrom(p)
		pa := pathsNow(p)
		if err := admin(fmt.Sprint("undo-one", k), map[string]any{"type": "undo"}); err != nil {
			return err
		}
		req := since()
		pb := pathsNow(p)
		if err := waitApplied(ctx, p, gameID, domain.ScopedID(gameID, tilerace.MasterAdminID)+fmt.Sprint("~undo-one", k)); err != nil {
			return err
		}
		all := since()
		for k, v := range pathsNow(p) {
			undoReq[k] += pb[k] - pa[k]
			undoEff[k] += v - pb[k]
		}
		reqC, allC = reqC.plus(req), allC.plus(all)
	}
	ur, uw, tr, tw = reqC.split(undos)
	ar, aw, atr, atw := allC.split(undos)
	fmt.Fprintf(out, "  per undo of one completion (%d, one at a time): the request %.2f reads, %.2f writes; with its effects %.2f reads, %.2f writes; the tick besides, in the same windows: %.2f reads, %.2f writes, with the effects %.2f, %.2f\n",
		undos, ur, uw, ar, aw, tr, tw, atr, atw)
	fmt.Fprintln(out, "    the request, by path:")
	breakdown(out, undoReq, nil, undos)
	fmt.Fprintln(out, "    after its reply until its effects ran, by path:")
	breakdown(out, undoEff, nil, undos)
	return nil
}

// teamOf is the team of a Tile Race reply's events.
func teamOf(reply map[string]any) string {
	for _, ev := range reply["events"].([]any) {
		if d, ok := ev.(map[string]any)["data"].(map[string]any); ok {
			if t, ok := d["team"].(string); ok {
				return t
			}
		}
	}
	return ""
}

// waitApplied waits until the effects of an event record ran.
func waitApplied(ctx context.Context, p domain.Probe, gameID, eventID string) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		doc, _, err := p.Doc(ctx, "games/"+gameID+"/events/"+eventID)
		if err == nil && doc != nil && doc["pending"] == false {
			time.Sleep(20 * time.Millisecond) // the trigger's reply after its commit
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Errorf("event %s/%s still pending after 10 s", gameID, eventID)
}

// hexDiceLoad measures Hex & Dice through the functions: the map document
// per size; an alternating Large game between two Autoplay scripts (time
// and Firestore documents per buy, move, attack and end of turn); a
// simultaneous Large game (orders saved as a draft, the first submission,
// and the submission that resolves the round); and the game document's
// size at round 40 of a Large standoff (scripts that never attack, so the
// game reaches sudden death with its troops alive).
func hexDiceLoad(ctx context.Context, p domain.Probe, out io.Writer) error {
	h := &hexLoad{p: p, lat: map[string][]time.Duration{}, counts: map[string]counted{}}
	for _, name := range []string{"Hana", "Hugo"} {
		g, err := p.Guest(ctx, name)
		if err != nil {
			return err
		}
		pl := g["player"].(map[string]any)
		h.players = append(h.players, domain.Actor{ID: pl["id"].(string), Name: pl["name"].(string), Role: domain.RoleGuest})
		h.tokens = append(h.tokens, g["token"].(string))
	}

	fmt.Fprintf(out, "map document (games/{id}/public/map), written once at create:\n")
	for _, size := range []hexdice.Size{hexdice.Small, hexdice.Medium, hexdice.Large} {
		id, err := h.create(ctx, "map-"+string(size), hexdice.CreateRequest{Size: size, Mode: hexdice.Alternating})
		if err != nil {
			return err
		}
		doc, n, err := p.Doc(ctx, "games/"+id+"/public/map")
		if err != nil || doc == nil {
			return fmt.Errorf("map document of %s: %v", id, err)
		}
		doc, err = store.Unpacked(doc)
		if err != nil {
			return err
		}
		b, _ := json.Marshal(doc)
		_, gameSize, err := p.Doc(ctx, "games/"+id)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  %-6s %6d bytes (Firestore storage size), %6d bytes as JSON; the new game document %d bytes\n", size, n, len(b), gameSize)
	}

	// Alternating: both players scripted, until LoadActions actions are timed.
	for game := 0; h.timed() < LoadActions; game++ {
		id, err := h.create(ctx, fmt.Sprint("alt-", game), hexdice.CreateRequest{Size: hexdice.Large, TurnSeconds: 120, Mode: hexdice.Alternating})
		if err != nil {
			return err
		}
		if _, err := h.play(ctx, id, hexdice.Autoplay{}, LoadActions-h.timed(), 0); err != nil {
			return err
		}
	}
	// Simultaneous: the same scripts; drafts, first submissions, resolutions.
	for game := 0; len(h.lat["orders resolve"]) < LoadActions/10; game++ {
		id, err := h.create(ctx, fmt.Sprint("sim-", game), hexdice.CreateRequest{Size: hexdice.Large, TurnSeconds: 120, Mode: hexdice.Simultaneous})
		if err != nil {
			return err
		}
		if _, err := h.play(ctx, id, hexdice.Autoplay{}, LoadActions/2, 0); err != nil {
			return err
		}
	}
	// Whole games, create to end, untimed: Small maps in each mode, three
	// games each (a game's length, and so its per-game documents' share,
	// varies with its map by a fifth either way).
	// And two of each with fog of war: every action writes private/state
	// and views, and keeps its record in private/state's journal.
	h.quiet = true
	kindsOfGame := []struct {
		mode  hexdice.TurnMode
		fog   bool
		games int
		what  string
		whole wholeGames
	}{
		{mode: hexdice.Alternating, games: 3, what: "games, alternating, Small map"},
		{mode: hexdice.Simultaneous, games: 3, what: "games, simultaneous, Small map (each round's orders sealed in the game document)"},
		{mode: hexdice.Alternating, fog: true, games: 2, what: "games with fog of war, alternating, Small map"},
		{mode: hexdice.Simultaneous, fog: true, games: 2, what: "games with fog of war, simultaneous, Small map"},
	}
	for i := range kindsOfGame {
		c := &kindsOfGame[i]
		for n := range c.games {
			since, paths0, first := countFrom(p), pathsNow(p), h.seq
			id, err := h.create(ctx, fmt.Sprint("whole-", c.mode, "-", c.fog, "-", n), hexdice.CreateRequest{Size: hexdice.Small, TurnSeconds: 120, Mode: c.mode, Fog: c.fog})
			if err != nil {
				return err
			}
			if _, err := h.play(ctx, id, hexdice.Autoplay{}, 3000, 0); err != nil {
				return err
			}
			st, err := h.state(ctx, id) // play's last state is from before its last action
			if err != nil {
				return err
			}
			if st.g.Phase == hexdice.PhaseOver {
				if err := c.whole.game(ctx, p, id, 2+h.seq-first, since, paths0); err != nil {
					return err
				}
			}
		}
	}
	h.quiet = false
	// Round 40 of a Large standoff.
	standoff := hexdice.Autoplay{NoAttack: true, MaxTroops: 30, Units: []hexdice.UnitType{hexdice.Marine, hexdice.Sniper, hexdice.Hoverbike, hexdice.Mech}}
	id, err := h.create(ctx, "standoff", hexdice.CreateRequest{Size: hexdice.Large, TurnSeconds: 120, Mode: hexdice.Alternating, MapSeed: "m1"})
	if err != nil {
		return err
	}
	h.quiet = true
	at40, err := h.play(ctx, id, standoff, 5000, 40)
	if err != nil {
		return err
	}
	// And with fog of war: the whole state sealed in the game document.
	if id, err = h.create(ctx, "standoff-fog", hexdice.CreateRequest{Size: hexdice.Large, TurnSeconds: 120, Mode: hexdice.Alternating, MapSeed: "m1", Fog: true}); err != nil {
		return err
	}
	fog40, err := h.play(ctx, id, standoff, 5000, 40)
	if err != nil {
		return err
	}

	kinds := []string{"buy", "move", "attack", "endTurn", "orders draft", "orders submit", "orders resolve", "preview"}
	h.bare.rows(out, " via HexDice function", kinds, h.lat)
	perAction(out, kinds, h.counts, func(typ string) int { return len(h.lat[typ]) })
	for _, c := range kindsOfGame {
		c.whole.print(out, c.what)
	}
	fmt.Fprintf(out, "game document at round 40 of a Large standoff (%d troops): %d bytes (Firestore storage size), %d bytes of state as JSON\n",
		at40.troops, at40.size, at40.json)
	fmt.Fprintf(out, "the same with fog of war (%d troops): %d bytes (Firestore storage size), of which %d the whole state sealed\n",
		fog40.troops, fog40.size, fog40.sealed)
	return nil
}

// hexLoad is the Hex & Dice scenario at work: two scripted players and what
// their actions cost.
type hexLoad struct {
	p       domain.Probe
	players []domain.Actor
	tokens  []string
	seq     int
	quiet   bool // play without timing (the standoff)
	bare    bareRuns
	lat     map[string][]time.Duration
	counts  map[string]counted
}

func (h *hexLoad) timed() int {
	return len(h.lat["buy"]) + len(h.lat["move"]) + len(h.lat["attack"]) + len(h.lat["endTurn"])
}

// create makes a room hosted by the first player and has the second join it.
func (h *hexLoad) create(ctx context.Context, actionID string, req hexdice.CreateRequest) (string, error) {
	body := map[string]any{"actionId": actionID, "type": "create"}
	raw, _ := json.Marshal(req)
	_ = json.Unmarshal(raw, &body)
	res, err := h.p.Call(ctx, "HexDice", h.tokens[0], body)
	if err != nil {
		return "", err
	}
	id := res["result"].(map[string]any)["gameId"].(string)
	_, err = h.p.Call(ctx, "HexDice", h.tokens[1], map[string]any{"gameId": id, "actionId": "join", "type": "join"})
	return id, err
}

// hexState is a game's state as stored, and its sizes.
type hexState struct {
	g          hexdice.Game
	size, json int
	troops     int
	version    int64
	sealed     int // bytes of the game document's sealed whole state (fog)
}

func (h *hexLoad) state(ctx context.Context, id string) (hexState, error) {
	doc, size, err := gameDoc(ctx, h.p, id)
	if err != nil {
		return hexState{}, err
	}
	version, _ := doc["version"].(int64)
	state := doc["state"]
	// A fog game's whole state is sealed in its game document while it
	// hides (its state is the public projection), or in private/state in a
	// game from before the seal: Autoplay plays from the whole state, as a
	// load script may, opening it with the seed its room keeps.
	if m, _ := state.(map[string]any); m["fog"] == true {
		var ps map[string]any
		sealed, _ := doc["sealed"].(string)
		if sealed != "" {
			room, _, err := h.p.Doc(ctx, "rooms/"+fmt.Sprint(doc["roomCode"]))
			if err != nil {
				return hexState{}, err
			}
			seed, _ := room["seed"].(string)
			hd, err := domain.OpenHidden[json.RawMessage](domain.NewSeededSealer(seed), sealed)
			if err != nil {
				return hexState{}, err
			}
			ps = map[string]any{"version": hd.Version, "state": hd.State}
		} else if ps, _, err = h.p.Doc(ctx, "games/"+id+"/private/state"); err != nil {
			return hexState{}, err
		}
		if v, _ := ps["version"].(int64); v == version {
			state = ps["state"]
		}
	}
	raw, err := json.Marshal(state)
	if err != nil {
		return hexState{}, err
	}
	var st hexState
	if err := json.Unmarshal(raw, &st.g); err != nil {
		return hexState{}, err
	}
	st.size, st.json, st.troops = size, len(raw), len(st.g.Troops)
	sealed, _ := doc["sealed"].(string)
	st.sealed = len(sealed)
	st.version = version
	return st, nil
}

// play has both players follow script on game id for at most max actions,
// or until the game is over, or until round stop begins (0: no stop); it
// returns the last state seen.
func (h *hexLoad) play(ctx context.Context, id string, script hexdice.Autoplay, max, stop int) (hexState, error) {
	var st hexState
	for n := 0; n < max; n++ {
		var err error
		if st, err = h.state(ctx, id); err != nil {
			return st, err
		}
		if st.g.Phase == hexdice.PhaseOver || (stop > 0 && st.g.Round >= stop) {
			return st, nil
		}
		m, err := hexdice.Rules{}.MapOf(st.g)
		if err != nil {
			return st, err
		}
		acted := false
		for i, who := range h.players {
			mv, ok := script.Next(st.g, m, who)
			if !ok {
				continue
			}
			if n%25 == 0 && !h.quiet && (mv.Type == hexdice.ActionMove || mv.Type == hexdice.ActionOrders) {
				// A client previews before it moves: time that too, asked
				// at the version it shows, as the web client asks it.
				pv := map[string]any{"version": st.version}
				if troop, ok := mv.Payload["troop"]; ok {
					pv["troop"] = troop
				}
				if err := h.send(ctx, i, id, "preview", hexdice.ActionPreview, pv); err != nil {
					return st, err
				}
			}
			kind := mv.Type
			if mv.Type == hexdice.ActionOrders {
				// Save a draft first, then submit: the second submission resolves.
				draft := map[string]any{"orders": mv.Payload["orders"], "submit": false}
				if !h.quiet && n%3 == 0 {
					if err := h.send(ctx, i, id, "orders draft", hexdice.ActionOrders, draft); err != nil {
						return st, err
					}
				}
				kind = "orders submit"
				if st.g.Players[1-i].Submitted {
					kind = "orders resolve"
				}
			}
			if err := h.send(ctx, i, id, kind, mv.Type, mv.Payload); err != nil {
				return st, err
			}
			acted = true
			break
		}
		if !acted {
			return st, fmt.Errorf("hexdice game %s: nobody can act in round %d", id, st.g.Round)
		}
	}
	return st, nil
}

// send makes player i's action on game id, timing it and counting its
// documents under kind.
func (h *hexLoad) send(ctx context.Context, i int, id, kind, typ string, payload map[string]any) error {
	h.seq++
	body := map[string]any{"gameId": id, "actionId": fmt.Sprint("a", h.seq), "type": typ}
	for k, v := range payload {
		body[k] = v
	}
	since := countFrom(h.p)
	sent := time.Now()
	if _, err := h.p.Call(ctx, "HexDice", h.tokens[i], body); err != nil {
		return fmt.Errorf("%s %v: %w", typ, payload, err)
	}
	took := time.Since(sent)
	c := since()
	if !h.quiet {
		h.lat[kind] = append(h.lat[kind], took)
		tally(h.counts, kind, c)
		return h.bare.after(ctx, h.p)
	}
	return nil
}

// codeBowlLoad plays CodeBowl matches between two registered coaches by
// random legal moves (no timer) until LoadActions actions are timed:
// latency and documents per action type, and separately for actions that
// killed a player (they also write the team); the listener's delay; the
// match document's size at the end; and how many chat messages a match
// takes from one coach, as fast as it can send, before the rate limit
// answers 429.
func codeBowlLoad(ctx context.Context, p domain.Probe, out io.Writer) error {
	tokens := map[string]string{}
	teams := map[string]string{}
	var ids []string
	for i, name := range []string{"load_ann", "load_ben"} {
		c, err := coach(ctx, p, name, name)
		if err != nil {
			return err
		}
		id := c["player"].(map[string]any)["id"].(string)
		tokens[id] = c["token"].(string)
		ids = append(ids, id)
		res, err := p.Call(ctx, "CodeBowl", tokens[id], specBody(demoTeam(fmt.Sprint("Load ", i), 6, 3, 3),
			map[string]any{"type": "createTeam", "actionId": fmt.Sprint("load-team-", time.Now().UnixNano())}))
		if err != nil {
			return err
		}
		teams[id] = res["result"].(map[string]any)["id"].(string)
	}
	lat := map[string][]time.Duration{}
	counts := map[string]counted{}
	var listener []time.Duration
	var bare bareRuns
	docSize, docJSON, seq, restarts := 0, 0, 0, 0
	var legalCalls int64
	var legalCost counted // every match's legal-move queries
	// Injuries kill players for good, so over a run a team can lose its last
	// one; such a team may not enter a match ("restart the team first"):
	// its coach restarts it first, as a person would.
	restartWiped := func() error {
		for _, id := range ids {
			n, err := restartIfWiped(ctx, p, tokens[id], teams[id])
			if err != nil {
				return err
			}
			restarts += n
		}
		return nil
	}
	var whole wholeGames
	for seq < LoadActions {
		if err := restartWiped(); err != nil {
			return err
		}
		// The match's documents, create to end; its legal-move queries are
		// left out (skip): they are reads a client makes to choose, not
		// actions.
		matchSince, matchPaths, first := countFrom(p), pathsNow(p), seq
		var skip counted
		res, err := p.Call(ctx, "CodeBowl", tokens[ids[0]], map[string]any{"type": "create", "actionId": fmt.Sprint("load-create-", time.Now().UnixNano()),
			"teamId": teams[ids[0]], "turnSeconds": -1})
		if err != nil {
			return err
		}
		gameID := res["result"].(map[string]any)["gameId"].(string)
		res, err = p.Call(ctx, "CodeBowl", tokens[ids[1]], map[string]any{"gameId": gameID, "actionId": "join", "type": "join", "teamId": teams[ids[1]]})
		if err != nil {
			return err
		}
		// The version the coaches' pages show: every move is one of these
		// two, and the match has no timer.
		version := int64(res["version"].(float64))
		seen, stop := p.Watch(ctx, gameID)
		over := false
		for !over && seq < LoadActions {
			var mv map[string]any
			var who string
			for _, id := range ids {
				legal := countFrom(p)
				// Asked at the version the page shows, as the web client
				// asks it (docs/firestore.md, "Warm game documents").
				res, err := p.Call(ctx, "CodeBowl", tokens[id], map[string]any{"gameId": gameID, "actionId": "l", "type": "legal", "version": version})
				if err != nil {
					stop()
					return err
				}
				c := legal()
				skip, legalCost, legalCalls = skip.plus(c), legalCost.plus(c), legalCalls+1
				if moves, _ := res["result"].(map[string]any)["moves"].([]any); len(moves) > 0 {
					mv, who = moves[(seq*7919)%len(moves)].(map[string]any), id
				}
			}
			if mv == nil {
				break
			}
			seq++
			body := map[string]any{"gameId": gameID, "actionId": fmt.Sprint("a", seq), "type": mv["type"]}
			if pl, ok := mv["payload"].(map[string]any); ok {
				for k, v := range pl {
					body[k] = v
				}
			}
			typ := mv["type"].(string)
			since := countFrom(p)
			sent := time.Now()
			res, err := p.Call(ctx, "CodeBowl", tokens[who], body)
			if err != nil {
				stop()
				return err
			}
			got := time.Now()
			c := since()
			evs, _ := res["events"].([]any)
			for _, e := range evs {
				switch e.(map[string]any)["type"] {
				case codebowl.EventPlayerKilled:
					typ = "injury (" + typ + ")"
				case domain.EventGameOver:
					over = true
				}
			}
			lat[typ] = append(lat[typ], got.Sub(sent))
			tally(counts, typ, c)
			version = int64(res["version"].(float64))
			if at := seen(version); !at.IsZero() {
				listener = append(listener, at.Sub(got))
			}
			if err := bare.after(ctx, p); err != nil {
				stop()
				return err
			}
		}
		stop()
		// The create, the join and the moves; and when the run is out of
		// actions mid-match, the forfeit that ends it, unlocking the teams.
		actions := 2 + seq - first
		if !over {
			if _, err := p.Call(ctx, "CodeBowl", tokens[ids[0]], map[string]any{"gameId": gameID, "actionId": "end", "type": "forfeit"}); err != nil {
				return err
			}
			actions++
		}
		if err := whole.game(ctx, p, gameID, actions, func() counted { return matchSince().less(skip) }, matchPaths); err != nil {
			return err
		}
		doc, size, err := gameDoc(ctx, p, gameID)
		if err != nil {
			return err
		}
		if size > docSize {
			b, _ := json.Marshal(doc)
			docSize, docJSON = size, len(b)
		}
	}
	// Chat: one coach as fast as it can, until 429.
	if err := restartWiped(); err != nil {
		return err
	}
	res, err := p.Call(ctx, "CodeBowl", tokens[ids[0]], map[string]any{"type": "create", "actionId": fmt.Sprint("load-chat-", time.Now().UnixNano()),
		"teamId": teams[ids[0]], "turnSeconds": -1})
	if err != nil {
		return err
	}
	chatGame := res["result"].(map[string]any)["gameId"].(string)
	start, sentOK := time.Now(), 0
	var chatLat []time.Duration
	for i := 0; i < 100; i++ {
		t0 := time.Now()
		_, err := p.Call(ctx, "CodeBowl", tokens[ids[0]], map[string]any{"gameId": chatGame, "actionId": fmt.Sprint("c", i), "type": "chat", "text": "hello"})
		if err != nil {
			if !strings.Contains(err.Error(), domain.ELIMIT) {
				return err
			}
			break
		}
		chatLat = append(chatLat, time.Since(t0))
		sentOK++
	}
	elapsed := time.Since(start)
	if _, err := p.Call(ctx, "CodeBowl", tokens[ids[0]], map[string]any{"gameId": chatGame, "actionId": "f", "type": "forfeit"}); err != nil {
		return err
	}

	types := domain.SortedKeys(lat)
	bare.rows(out, " via CodeBowl", types, lat)
	row(out, "chat via CodeBowl", chatLat)
	row(out, "action → spectator's listener", listener)
	perAction(out, types, counts, func(typ string) int { return len(lat[typ]) })
	whole.print(out, "matches (their legal-move queries left out; a match the run cut short ended by a forfeit)")
	if legalCalls > 0 {
		fmt.Fprintf(out, "legal-move queries, asked at the version the coach sees (%d): %.2f reads each (its own %.2f)\n",
			legalCalls, float64(legalCost.reads)/float64(legalCalls), float64(legalCost.ownReads)/float64(legalCalls))
	}
	fmt.Fprintf(out, "match document at the end of a match: %d bytes (Firestore storage size), %d bytes as JSON\n", docSize, docJSON)
	fmt.Fprintf(out, "chat: %d messages accepted in %s from one coach before 429 (limit %d per %s)\n",
		sentOK, elapsed.Round(time.Millisecond), codebowl.ChatBurst, codebowl.ChatWindow)
	fmt.Fprintf(out, "teams restarted (every player dead): %d\n", restarts)
	return nil
}

// restartIfWiped restarts the coach's team (rookies for the dead) if none of
// its players is alive, and tells whether it did (1) or not (0).
func restartIfWiped(ctx context.Context, p domain.Probe, token, teamID string) (int, error) {
	doc, _, err := p.Doc(ctx, "cbteams/"+teamID)
	if err != nil {
		return 0, err
	}
	if doc == nil {
		return 0, fmt.Errorf("team %s: no document cbteams/%s", teamID, teamID)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return 0, err
	}
	var t codebowl.Team
	if err := json.Unmarshal(b, &t); err != nil {
		return 0, fmt.Errorf("team %s: %w", teamID, err)
	}
	if t.Alive() > 0 {
		return 0, nil
	}
	_, err = p.Call(ctx, "CodeBowl", token, map[string]any{"type": codebowl.ActionRestartTeam,
		"actionId": fmt.Sprint("load-restart-", time.Now().UnixNano()), "teamId": teamID})
	if err != nil {
		return 0, fmt.Errorf("restarting team %s: %w", teamID, err)
	}
	return 1, nil
}

// startDashDice starts a Classic match without a timer between ids[0]
// (who creates it with actionID) and ids[1] (who joins and calls), and
// returns its id.
func startDashDice(ctx context.Context, p domain.Probe, tokens map[string]string, ids []string, actionID string) (string, error) {
	res, err := p.Call(ctx, "DashDice", tokens[ids[0]], map[string]any{"actionId": actionID, "type": "create", "mode": "classic", "turnSeconds": 0})
	if err != nil {
		return "", err
	}
	gameID := res["result"].(map[string]any)["gameId"].(string)
	if _, err := p.Call(ctx, "DashDice", tokens[ids[1]], map[string]any{"gameId": gameID, "actionId": "join", "type": "join"}); err != nil {
		return "", err
	}
	if _, err := p.Call(ctx, "DashDice", tokens[ids[1]], map[string]any{"gameId": gameID, "actionId": "call", "type": "call", "call": "odd"}); err != nil {
		return "", err
	}
	return gameID, nil
}

// tickPath tells what the tick did (its deadlines and sweeps, the
// leaderboards' projection pass) from the counter's "op path" keys: the
// stack marks the tick's calls, and the counter keys them "tick op path"
// (fsemu.Tick).
func tickPath(k string) bool { return strings.HasPrefix(k, "tick ") }

// pather is a Probe that also counts documents by the shape of their path
// (the load generator's counter does): what a scenario's figures are made of.
type pather interface{ Paths() map[string]int64 }

// pathsNow is p's counts by path shape, or nil when p does not count them.
// cpuer is a Probe that reports the processor time used so far by the
// emulator and by the stack (the load generator's, on Linux).
type cpuer interface {
	CPU() (emulator, stack time.Duration)
}

// cpuSpent is processor time used between two readings, per one of n.
type cpuSpent struct{ emulator, stack time.Duration }

// cpuSince returns a function that reports, per one of n, the processor
// time used since cpuSince was called (zero when p cannot tell).
func cpuSince(p domain.Probe) func(n int) cpuSpent {
	c, ok := p.(cpuer)
	if !ok {
		return func(int) cpuSpent { return cpuSpent{} }
	}
	e0, s0 := c.CPU()
	return func(n int) cpuSpent {
		e1, s1 := c.CPU()
		return cpuSpent{(e1 - e0) / time.Duration(max(n, 1)), (s1 - s0) / time.Duration(max(n, 1))}
	}
}

func (c cpuSpent) String() string {
	return fmt.Sprintf("emulator %.1f ms, stack %.1f ms", float64(c.emulator)/1e6, float64(c.stack)/1e6)
}

func pathsNow(p domain.Probe) map[string]int64 {
	if pp, ok := p.(pather); ok {
		return pp.Paths()
	}
	return nil
}

// counted is what actions read and wrote, counted from the RPCs: all of it,
// and their own: less what the tick (tickPath) read and wrote while they
// ran.
type counted struct{ reads, writes, ownReads, ownWrites int64 }

// countFrom starts counting; the function it returns gives what was counted
// since.
func countFrom(p domain.Probe) func() counted {
	r0, w0 := p.Counts()
	paths0 := pathsNow(p)
	return func() counted {
		r1, w1 := p.Counts()
		c := counted{reads: r1 - r0, writes: w1 - w0}
		c.ownReads, c.ownWrites = c.reads, c.writes
		for k, v := range pathsNow(p) {
			if d := v - paths0[k]; d > 0 && tickPath(k) {
				if strings.HasPrefix(k, "tick write ") {
					c.ownWrites -= d
				} else {
					c.ownReads -= d
				}
			}
		}
		return c
	}
}

// tally adds c to the counts of action type typ.
func tally(counts map[string]counted, typ string, c counted) { counts[typ] = counts[typ].plus(c) }

// plus is c and d added up.
func (c counted) plus(d counted) counted {
	return counted{c.reads + d.reads, c.writes + d.writes, c.ownReads + d.ownReads, c.ownWrites + d.ownWrites}
}

// split is c per one of n: its own reads and writes, then the tick's.
func (c counted) split(n float64) (ownReads, ownWrites, tickReads, tickWrites float64) {
	return float64(c.ownReads) / n, float64(c.ownWrites) / n, float64(c.reads-c.ownReads) / n, float64(c.writes-c.ownWrites) / n
}

// less is c without d (what a window counted besides the actions it is for).
func (c counted) less(d counted) counted {
	return counted{c.reads - d.reads, c.writes - d.writes, c.ownReads - d.ownReads, c.ownWrites - d.ownWrites}
}

// wholeGames adds up what whole games cost, from the create to the end with
// the end's effects: issue 22's "amortised over a whole game (game start
// and end included)".
type wholeGames struct {
	games, actions int
	c              counted
	paths          map[string]int64 // documents read and written, by path shape
}

// game counts game gameID, which took actions actions (its create and join
// included): c is what was counted for it since before its create, which
// game takes once the last record's effects ran; paths0 the documents by
// path then (pathsNow).
func (w *wholeGames) game(ctx context.Context, p domain.Probe, gameID string, actions int, c func() counted, paths0 map[string]int64) error {
	doc, _, err := gameDoc(ctx, p, gameID)
	if err != nil {
		return err
	}
	if v, ok := doc["version"].(int64); ok && v > 0 {
		if err := waitApplied(ctx, p, gameID, fmt.Sprintf("%012d", v)); err != nil {
			return err
		}
	}
	got := c()
	if w.paths == nil {
		w.paths = map[string]int64{}
	}
	for k, v := range pathsNow(p) {
		if v > paths0[k] {
			w.paths[k] += v - paths0[k]
		}
	}
	w.games, w.actions, w.c = w.games+1, w.actions+actions, w.c.plus(got)
	return nil
}

// print prints the games' documents per action.
func (w wholeGames) print(out io.Writer, what string) {
	if w.actions == 0 {
		fmt.Fprintf(out, "whole %s: none ended in the run\n", what)
		return
	}
	n := float64(w.actions)
	fmt.Fprintf(out, "whole %s (%d, create to end with the end's effects, %d actions): %.3f reads, %.3f writes per action; its own (the tick's passes left out): %.3f reads, %.3f writes\n",
		what, w.games, w.actions, float64(w.c.reads)/n, float64(w.c.writes)/n, float64(w.c.ownReads)/n, float64(w.c.ownWrites)/n)
	games := float64(w.games)
	fmt.Fprintf(out, "  documents per game (%.1f actions), by path, with the effects of its end:\n", n/games)
	breakdown(out, w.paths, nil, w.games)
	if w.paths != nil {
		// The floor the rest of the game sets: its writes with the whole
		// history in one batch (events/* written once a game), every other
		// document as measured — the room code, the seed, each player's
		// totals (their results ride in the end's record). No change to the
		// log goes below it.
		var own int64
		for k, v := range w.paths {
			if strings.HasPrefix(k, "write ") { // the tick's are "tick write …"
				own += v
			}
		}
		batches := w.paths["write games/*/events/*"]
		fmt.Fprintf(out, "  its own writes with the history in one batch a game, the rest as above: %.3f per action (history batches now: %.1f a game)\n",
			float64(own-batches+min(batches, int64(w.games)))/n, float64(batches)/games)
	}
	_, _, tr, tw := w.c.split(games)
	fmt.Fprintf(out, "  of which the tick's passes while it ran (every 1 s here, every minute in production, for every game at once): %.2f reads, %.2f writes per game\n", tr, tw)
}

// perAction prints counts per action of each type in order (n of them).
func perAction(out io.Writer, order []string, counts map[string]counted, n func(typ string) int) {
	fmt.Fprintf(out, "Firestore documents per action (counted from RPCs; its own: the tick's passes that fell in its window left out):\n")
	for _, typ := range order {
		k := float64(n(typ))
		if k == 0 {
			continue
		}
		c := counts[typ]
		fmt.Fprintf(out, "  %-22s %.2f reads, %.2f writes; its own %.2f reads, %.2f writes\n", typ+":",
			float64(c.reads)/k, float64(c.writes)/k, float64(c.ownReads)/k, float64(c.ownWrites)/k)
	}
}

// breakdown prints what was read and written from before to now, by path
// shape, per one of n actions.
func breakdown(out io.Writer, now, before map[string]int64, n int) {
	if now == nil || n == 0 {
		return
	}
	var keys []string
	for k, v := range now {
		if v != before[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(out, "      %-60s %6.2f\n", k, float64(now[k]-before[k])/float64(n))
	}
}
