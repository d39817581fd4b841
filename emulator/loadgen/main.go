// Command loadgen measures the local stack: it starts the whole stack (as
// `go run ./emulator` does) on free ports, then in one run measures
//
//   - a bare single-document Firestore transaction (read + write) on the same
//     emulator, the floor every action stands on;
//   - DashDice roll and bank actions through the HTTP functions: p50 and p99,
//     and as a ratio to the bare transaction;
//   - documents read and written per roll and per bank, counted from the RPCs;
//   - how long after a roll's response a Firestore listener sees the change;
//   - the size of a match document.
//
// Requests are sent only to the stack it started on 127.0.0.1, sequentially,
// and the run is bounded by -actions. Usage: go run ./emulator/loadgen [-actions 400]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/meeple-games/meeple/emulator/stack"
	"github.com/meeple-games/meeple/store/fsemu"
)

func main() {
	actions := flag.Int("actions", 400, "roll/bank actions to time (and as many bare transactions)")
	flag.Parse()
	if err := run(*actions); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run(n int) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	port, err := fsemu.FreePort()
	if err != nil {
		return err
	}
	host := "127.0.0.1:" + strconv.Itoa(port)
	cnt := &counter{}
	// The stack's Firestore client talks through this connection, so every
	// read and write it makes is counted.
	conn, err := grpc.NewClient(host, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(ownerCreds{}),
		grpc.WithChainUnaryInterceptor(cnt.unary), grpc.WithChainStreamInterceptor(cnt.stream))
	if err != nil {
		return err
	}
	defer conn.Close()

	ready := make(chan *stack.Stack, 1)
	done := make(chan error, 1)
	go func() {
		done <- stack.Run(ctx, stack.Config{FirestorePort: port, NoDemo: true,
			ClientOptions: []option.ClientOption{option.WithGRPCConn(conn)}}, func(s *stack.Stack) { ready <- s })
	}()
	var s *stack.Stack
	select {
	case s = <-ready:
	case err := <-done:
		return err
	}
	defer func() { cancel(); <-done }()

	// A separate client (not counted) for the baseline and the listener.
	fs, err := firestore.NewClient(ctx, s.Project)
	if err != nil {
		return err
	}
	defer fs.Close()

	bare, err := bareTransactions(ctx, fs, n)
	if err != nil {
		return err
	}
	m, err := playMatches(ctx, s, fs, cnt, n)
	if err != nil {
		return err
	}
	pb, err := playBoard(ctx, s, fs, cnt)
	if err != nil {
		return err
	}
	tr, err := playRace(ctx, s, fs, cnt, 10, 5)
	if err != nil {
		return err
	}

	fmt.Printf("Meeple load generator — local stack, Firestore emulator, %d actions, sequential\n\n", n)
	fmt.Printf("%-34s %9s %9s %9s\n", "", "p50", "p99", "samples")
	row := func(name string, d []time.Duration) {
		fmt.Printf("%-34s %9s %9s %9d\n", name, pct(d, 50), pct(d, 99), len(d))
	}
	row("bare 1-doc transaction", bare)
	row("roll via DashDice function", m.roll)
	row("bank via DashDice function", m.bank)
	fmt.Printf("\nroll / bare transaction: p50 %.2fx, p99 %.2fx\n",
		ratio(pct(m.roll, 50), pct(bare, 50)), ratio(pct(m.roll, 99), pct(bare, 99)))
	fmt.Printf("bank / bare transaction: p50 %.2fx, p99 %.2fx\n",
		ratio(pct(m.bank, 50), pct(bare, 50)), ratio(pct(m.bank, 99), pct(bare, 99)))
	fmt.Printf("\nFirestore documents per action (counted from RPCs):\n")
	fmt.Printf("  roll: %.2f reads, %.2f writes\n", m.rollReads, m.rollWrites)
	fmt.Printf("  bank: %.2f reads, %.2f writes\n", m.bankReads, m.bankWrites)
	fmt.Printf("\nlistener (another client's snapshot of the match document):\n")
	row("  roll response → listener sees it", m.afterResponse)
	row("  roll request sent → listener", m.afterRequest)
	fmt.Printf("  (%d of %d snapshots arrived before the HTTP response)\n", m.early, len(m.afterResponse))
	fmt.Printf("\nmatch document size: %d bytes (Firestore storage size), %d bytes as JSON\n", m.docSize, m.docJSON)
	fmt.Printf("\nParty Board, one whole 12-player game on pokemon-gen1 (%d actions):\n", pb.actions)
	fmt.Printf("  per action: %.2f reads, %.2f writes; per roll: %.2f reads, %.2f writes\n",
		pb.reads/float64(pb.actions), pb.writes/float64(pb.actions), pb.rollReads/float64(pb.rolls), pb.rollWrites/float64(pb.rolls))
	fmt.Printf("  largest game document: %d bytes (Firestore storage size)\n", pb.maxDoc)
	seq := float64(tr.sequential)
	fmt.Printf("\nTile Race, %d teams on one game:\n", tr.teams)
	fmt.Printf("  per completion, one at a time (%d, %d reached a tile that reveals more): the request %.2f reads, %.2f writes; with its effects %.2f reads, %.2f writes\n",
		tr.sequential, tr.frontierMoves, tr.actReads/seq, tr.actWrites/seq, tr.allReads/seq, tr.allWrites/seq)
	fmt.Printf("  all %d teams completing at once: %d completions in %s = %.1f completions/s, %d failed\n",
		tr.teams, tr.concurrent, tr.elapsed.Round(time.Millisecond), float64(tr.concurrent)/tr.elapsed.Seconds(), tr.failed)
	row("  completion latency under that load", tr.latency)
	fmt.Printf("  %d of them reached a tile that reveals more; %d took over 500 ms\n", tr.movesUnderLoad, tr.slow)
	return nil
}

// bareTransactions runs n read-then-write transactions on one document.
func bareTransactions(ctx context.Context, fs *firestore.Client, n int) ([]time.Duration, error) {
	ref := fs.Collection("loadgen").Doc("bare")
	var out []time.Duration
	for i := 0; i < n; i++ {
		start := time.Now()
		err := fs.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
			if _, err := tx.Get(ref); err != nil && !isNotFound(err) {
				return err
			}
			return tx.Set(ref, map[string]any{"n": i})
		})
		if err != nil {
			return nil, err
		}
		out = append(out, time.Since(start))
	}
	return out, nil
}

type measured struct {
	roll, bank                  []time.Duration
	afterResponse, afterRequest []time.Duration
	early                       int
	rollReads, rollWrites       float64
	bankReads, bankWrites       float64
	docSize, docJSON            int
}

type client struct {
	base string
}

func (c client) post(ctx context.Context, fn, token string, body any) (map[string]any, error) {
	return stack.Post(ctx, c.base+"/"+fn, token, body)
}

// playMatches plays Classic matches (no timer) between two guests, rolling
// until the turn score reaches 20 and then banking, until n actions are timed.
func playMatches(ctx context.Context, s *stack.Stack, fs *firestore.Client, cnt *counter, n int) (*measured, error) {
	c := client{base: s.FunctionsURL}
	tokens := map[string]string{}
	var ids []string
	for _, name := range []string{"Ann", "Ben"} {
		out, err := c.post(ctx, "Auth", "", map[string]any{"type": "guest", "nickname": name})
		if err != nil {
			return nil, err
		}
		id := out["player"].(map[string]any)["id"].(string)
		tokens[id] = out["token"].(string)
		ids = append(ids, id)
	}
	m := &measured{}
	var rollR, rollW, bankR, bankW int64
	seq := 0
	for match := 0; len(m.roll)+len(m.bank) < n; match++ {
		out, err := c.post(ctx, "DashDice", tokens[ids[0]], map[string]any{
			"actionId": fmt.Sprint("create-", match), "type": "create", "mode": "classic", "turnSeconds": 0})
		if err != nil {
			return nil, err
		}
		gameID := out["result"].(map[string]any)["gameId"].(string)
		if _, err := c.post(ctx, "DashDice", tokens[ids[1]], map[string]any{"gameId": gameID, "actionId": "join", "type": "join"}); err != nil {
			return nil, err
		}
		if _, err := c.post(ctx, "DashDice", tokens[ids[1]], map[string]any{"gameId": gameID, "actionId": "call", "type": "call", "call": "odd"}); err != nil {
			return nil, err
		}
		lctx, stop := context.WithCancel(ctx)
		seen := listen(lctx, fs, gameID)
		var state map[string]any
		snap, err := fs.Collection("games").Doc(gameID).Get(ctx)
		if err != nil {
			stop()
			return nil, err
		}
		state = snap.Data()["state"].(map[string]any)
		for state["phase"] != "gameOver" && len(m.roll)+len(m.bank) < n {
			seq++
			typ := "roll"
			if ts, _ := state["turnScore"].(int64); ts >= 20 {
				typ = "bank"
			}
			player := state["currentPlayerId"].(string)
			r0, w0 := cnt.snapshot()
			sent := time.Now()
			out, err := c.post(ctx, "DashDice", tokens[player], map[string]any{"gameId": gameID, "actionId": fmt.Sprint("a", seq), "type": typ})
			if err != nil {
				stop()
				return nil, err
			}
			got := time.Now()
			r1, w1 := cnt.snapshot()
			version := int64(out["version"].(float64))
			if typ == "roll" {
				m.roll = append(m.roll, got.Sub(sent))
				rollR, rollW = rollR+r1-r0, rollW+w1-w0
				at := seen(version)
				m.afterResponse = append(m.afterResponse, at.Sub(got))
				m.afterRequest = append(m.afterRequest, at.Sub(sent))
				if at.Before(got) {
					m.early++
				}
			} else {
				m.bank = append(m.bank, got.Sub(sent))
				bankR, bankW = bankR+r1-r0, bankW+w1-w0
			}
			snap, err := fs.Collection("games").Doc(gameID).Get(ctx)
			if err != nil {
				stop()
				return nil, err
			}
			state = snap.Data()["state"].(map[string]any)
			if m.docSize == 0 && len(m.roll) > 20 {
				m.docSize = docSize(snap.Ref.Path, snap.Data())
				b, _ := json.Marshal(snap.Data())
				m.docJSON = len(b)
			}
		}
		stop()
	}
	m.rollReads, m.rollWrites = float64(rollR)/float64(len(m.roll)), float64(rollW)/float64(len(m.roll))
	if len(m.bank) > 0 {
		m.bankReads, m.bankWrites = float64(bankR)/float64(len(m.bank)), float64(bankW)/float64(len(m.bank))
	}
	return m, nil
}

// listen follows a game document and returns a function that waits until the
// listener has seen a version and tells when it did.
func listen(ctx context.Context, fs *firestore.Client, gameID string) func(version int64) time.Time {
	seen := map[int64]time.Time{}
	updates := make(chan struct{}, 1)
	var mu = make(chan struct{}, 1)
	mu <- struct{}{}
	go func() {
		it := fs.Collection("games").Doc(gameID).Snapshots(ctx)
		defer it.Stop()
		for {
			snap, err := it.Next()
			if err != nil {
				return
			}
			now := time.Now()
			v, _ := snap.Data()["version"].(int64)
			<-mu
			seen[v] = now
			mu <- struct{}{}
			select {
			case updates <- struct{}{}:
			default:
			}
		}
	}()
	return func(version int64) time.Time {
		deadline := time.After(10 * time.Second)
		for {
			<-mu
			at, ok := seen[version]
			mu <- struct{}{}
			if ok {
				return at
			}
			select {
			case <-updates:
			case <-deadline:
				return time.Now().Add(time.Hour) // never seen: shows up as an outlier
			}
		}
	}
}

func pct(d []time.Duration, p int) time.Duration {
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
