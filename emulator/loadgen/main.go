// Command loadgen measures the local stack: it starts the whole stack (as
// `go run ./emulator` does) on free ports, measures a bare single-document
// Firestore transaction (read + write) on the same emulator — the floor every
// action stands on — and then runs every registered game's load scenario
// (domain.Entry.Load), which reports its latencies as ratios to that floor,
// the documents it reads and writes per action (counted from the RPCs of the
// stack's Firestore client), listener delays and document sizes.
//
// The crowd scenario (issue 21, docs/scale.md) runs only when asked for with
// -game crowd: for each concurrency of -crowd, that many fresh guests ask
// DashDice for a quick match at the same instant and poll until paired, and
// one player of every game made forfeits at the same instant; the same is
// measured for the old design (one queue document, one leaderboard document
// rewritten by every game end), emulated in the load generator on
// loadgen-only collections of the same emulator.
//
// Requests are sent only to the stack it started on 127.0.0.1. Usage:
//
//	go run ./emulator/loadgen [-actions 400] [-game tilerace]
//	go run ./emulator/loadgen -game crowd [-crowd 20,50,100,120,200]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/api/option"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/emulator/stack"
	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/notify/discord/discordtest"
	"github.com/meeple-games/meeple/store/fsemu"
)

func main() {
	actions := flag.Int("actions", 400, "DashDice roll/bank actions to time (and as many bare transactions)")
	only := flag.String("game", "", "run only these games' scenarios (kinds, comma-separated)")
	discordLimit := flag.Int("discord", 0, "also run the Discord scenario against a fake Discord limiting each webhook to this many messages a second (0: skip)")
	discordBurst := flag.Int("discord-burst", 100, "completions in the Discord scenario's rate-limited burst")
	crowd := flag.String("crowd", DefaultCrowd, "the crowd scenario's concurrencies (with -game crowd)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run (the stack runs in this process) to this file")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	sizes, err := ParseCrowd(*crowd)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	if err := run(*actions, *only, *discordLimit, *discordBurst, sizes); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run(n int, only string, discordLimit, discordBurst int, crowd []int) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var fake *discordtest.Server
	if discordLimit > 0 {
		var err error
		if fake, err = discordtest.Start(); err != nil {
			return err
		}
		defer fake.Close()
		os.Setenv(games.DiscordBaseEnv, fake.URL) // Tile Race accepts and sends to its webhooks
	}
	cnt := &fsemu.Counter{}
	reg := games.All()
	s, done, err := startCounted(ctx, cnt, reg)
	if err != nil {
		return err
	}
	defer func() { cancel(); <-done }()

	// A separate client (not counted) for the baseline and the listener.
	fs, err := firestore.NewClient(ctx, s.Project)
	if err != nil {
		return err
	}
	defer fs.Close()

	bare, err := bareTransactions(ctx, fs, "bare", n, 0)
	if err != nil {
		return fmt.Errorf("bare transactions: %w", err)
	}
	// The same on a document the size of a DashDice match's that a client
	// listens to, as a game document is: what the document's size and its
	// listener add to the floor (a reference; ratios are to the bare one).
	stopListen := listen(ctx, fs.Collection("loadgen").Doc("sized"))
	sized, err := bareTransactions(ctx, fs, "sized", n, 6000)
	stopListen()
	if err != nil {
		return fmt.Errorf("bare transactions on a document with a listener: %w", err)
	}
	games.LoadActions = n
	p := &probe{Caller: s.Caller(), fs: fs, cnt: cnt}
	if s.Emulator != nil {
		p.emu = s.Emulator()
	}
	fmt.Printf("Meeple load generator — local stack, Firestore emulator, bare transaction p50 %s, p99 %s (%d samples, while the emulator warms up; each scenario sets its actions against bare transactions run between them)\n",
		games.Pct(bare, 50), games.Pct(bare, 99), len(bare))
	fmt.Printf("(the same on a 6 KB document with a listener: p50 %s, p99 %s)\n", games.Pct(sized, 50), games.Pct(sized, 99))
	for _, e := range reg {
		if e.Load == nil || (only != "" && !strings.Contains(","+only+",", ","+e.Kind()+",")) {
			continue
		}
		fmt.Printf("\n== %s ==\n", e.Function)
		cnt.Times()
		if err := e.Load(ctx, p, os.Stdout); err != nil {
			return fmt.Errorf("%s: %w", e.Kind(), err)
		}
		rpcTimes(os.Stdout, cnt.Times())
	}
	if fake != nil {
		fmt.Printf("\n== Discord (Tile Race announcements, fake Discord) ==\n")
		if err := games.DiscordLoad(ctx, p, fake, discordLimit, discordBurst, os.Stdout); err != nil {
			return fmt.Errorf("discord: %w", err)
		}
	}
	if strings.Contains(","+only+",", ",crowd,") {
		fmt.Printf("\n== crowd: quick match and game ends at once, new design vs old (emulated) ==\n")
		if err := crowdScenario(ctx, p, s.Project, crowd, os.Stdout); err != nil {
			return fmt.Errorf("crowd: %w", err)
		}
	}
	return nil
}

// startCounted starts the stack with its Firestore client's reads and
// writes counted by cnt, and returns it with what its Run returns once it
// ends. The emulator's port is chosen here, before the stack starts, so the
// counted connection can be made for it; another process may take it in
// between (tests start emulators in parallel): then another port.
func startCounted(ctx context.Context, cnt *fsemu.Counter, reg domain.Registry) (*stack.Stack, <-chan error, error) {
	for attempt := 1; ; attempt++ {
		port, err := fsemu.FreePort()
		if err != nil {
			return nil, nil, err
		}
		conn, err := cnt.Dial("127.0.0.1:" + strconv.Itoa(port))
		if err != nil {
			return nil, nil, err
		}
		ready := make(chan *stack.Stack, 1)
		done := make(chan error, 1)
		go func() {
			err := stack.Run(ctx, stack.Config{FirestorePort: port, NoDemo: true, Games: reg,
				ClientOptions: []option.ClientOption{option.WithGRPCConn(conn)}}, func(s *stack.Stack) { ready <- s })
			conn.Close()
			done <- err
		}()
		select {
		case s := <-ready:
			return s, done, nil
		case err := <-done:
			if errors.Is(err, stack.ErrPortBusy) && attempt < 5 {
				continue
			}
			return nil, nil, fmt.Errorf("starting the stack: %w", err)
		}
	}
}

// bareTransactions runs n bare transactions on loadgen/{name}
// (fsemu.BareTransactions), which holds pad bytes besides its counter.
func bareTransactions(ctx context.Context, fs *firestore.Client, name string, n, pad int) ([]time.Duration, error) {
	return fsemu.BareTransactions(ctx, fs, fs.Collection("loadgen").Doc(name), n, pad)
}

// rpcTimes prints how long the stack's Firestore RPCs took during a
// scenario, by method: an action's latency less these is the stack's own
// time (HTTP, decoding, the rules), and set beside the bare transaction's
// three RPCs they show what the documents an action carries cost Firestore.
func rpcTimes(out io.Writer, times map[string][]time.Duration) {
	fmt.Fprintf(out, "the stack's Firestore RPCs during the scenario (a stream to its first response):\n")
	for _, m := range domain.SortedKeys(times) {
		d := times[m]
		fmt.Fprintf(out, "  %-24s p50 %9s  p90 %9s  %6d calls\n", m, games.Pct(d, 50), games.Pct(d, 90), len(d))
	}
}

// listen follows ref with a listener until the returned function is called.
func listen(ctx context.Context, ref *firestore.DocumentRef) func() {
	ctx, stop := context.WithCancel(ctx)
	it := ref.Snapshots(ctx)
	go func() {
		for {
			if _, err := it.Next(); err != nil {
				return
			}
		}
	}()
	return func() { stop(); it.Stop() }
}

// probe is the load scenarios' domain.Probe.
type probe struct {
	domain.Caller
	fs  *firestore.Client
	cnt *fsemu.Counter
	emu *fsemu.Emulator // nil: CPU reports the emulator's as 0
}

func (p *probe) Counts() (int64, int64)  { return p.cnt.Counts() }
func (p *probe) Paths() map[string]int64 { return p.cnt.Paths() }

// Bare runs one bare transaction, as the baseline before the scenarios does.
func (p *probe) Bare(ctx context.Context) (time.Duration, error) {
	d, err := bareTransactions(ctx, p.fs, "bare", 1, 0)
	if err != nil {
		return 0, err
	}
	return d[0], nil
}

// CPU is the processor time used so far by the emulator and by this process
// (the stack and the load generator).
func (p *probe) CPU() (emulator, stack time.Duration) {
	if p.emu != nil {
		emulator = p.emu.CPU()
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		stack = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return emulator, stack
}

func (p *probe) Doc(ctx context.Context, path string) (map[string]any, int, error) {
	snap, err := p.fs.Doc(path).Get(ctx)
	if isNotFound(err) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	return snap.Data(), docSize(snap.Ref.Path, snap.Data()), nil
}

// Watch follows a game document and returns a function that waits until the
// listener has seen a version and tells when it did.
func (p *probe) Watch(ctx context.Context, gameID string) (func(version int64) time.Time, func()) {
	ctx, stop := context.WithCancel(ctx)
	seen := map[int64]time.Time{}
	updates := make(chan struct{}, 1)
	var mu = make(chan struct{}, 1)
	mu <- struct{}{}
	go func() {
		it := p.fs.Collection("games").Doc(gameID).Snapshots(ctx)
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
	}, stop
}
