// Command botmatch plays bots against bots through the pure rules (no
// Firestore, no HTTP) and prints, per game, how often each level won and
// what a strong move cost in CPU (docs/bots.md, "Measured").
//
//	go run ./cmd/botmatch                 # 200 games of each game, strong vs random
//	go run ./cmd/botmatch -games 20 -game dashdice
//
// Each game swaps who sits first every other match, so neither level keeps
// the first seat. The dice and every bot's choices come from -seed: a run
// repeats exactly (the CPU times aside).
package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/bot"
	"github.com/meeple-games/meeple/domain/codebowl"
	"github.com/meeple-games/meeple/domain/dashdice"
	"github.com/meeple-games/meeple/domain/hexdice"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// config is one run's flags.
type config struct {
	games    int
	seed     uint64
	playouts int
	a, b     string // the levels matched
	mode     string // DashDice's mode
}

// tally is one game's figures.
type tally struct {
	name                   string
	games, winsA, winsB    int
	draws, unfinished      int
	moves                  int
	cpu                    []time.Duration // per move of level a (the strong one by default)
	wall                   time.Duration
	playsA, playsB, stepsN int
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "botmatch:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("botmatch", flag.ContinueOnError)
	var cfg config
	fs.IntVar(&cfg.games, "games", 200, "matches per game")
	fs.Uint64Var(&cfg.seed, "seed", 1, "seed of the dice and of the bots' choices")
	fs.IntVar(&cfg.playouts, "playouts", 0, "strong level's playouts per move (0: each game's default)")
	fs.StringVar(&cfg.a, "a", domain.BotStrong, "level of the first bot")
	fs.StringVar(&cfg.b, "b", domain.BotRandom, "level of the second bot")
	fs.StringVar(&cfg.mode, "mode", "classic", "DashDice's mode (classic, quickfire, zero-hour, last-line, true-grit)")
	only := fs.String("game", "all", "dashdice, hexdice, codebowl or all")
	profile := fs.String("cpuprofile", "", "write a CPU profile to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	for _, l := range []string{cfg.a, cfg.b} {
		if !slices.Contains(domain.BotLevels, l) {
			return fmt.Errorf("no bot level %q (one of %s)", l, strings.Join(domain.BotLevels, ", "))
		}
	}
	if cfg.games < 1 {
		return fmt.Errorf("-games must be at least 1")
	}
	runtime.LockOSThread() // so the thread's CPU clock is the bot's
	var tallies []tally
	for _, g := range games {
		if *only != "all" && *only != g.name {
			continue
		}
		tallies = append(tallies, g.run(cfg))
	}
	if len(tallies) == 0 {
		return fmt.Errorf("no game %q", *only)
	}
	fmt.Fprintf(out, "%s vs %s, %d matches per game, seed %d\n\n", cfg.a, cfg.b, cfg.games, cfg.seed)
	fmt.Fprintf(out, "| game | matches | %s wins | %s wins | draws | unfinished | %s win rate | %s moves | CPU/move p50 | p99 | max | wall |\n", cfg.a, cfg.b, cfg.a, cfg.a)
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, t := range tallies {
		p50, p99, mx := percentiles(t.cpu)
		fmt.Fprintf(out, "| %s | %d | %d | %d | %d | %d | %.1f %% | %d | %s | %s | %s | %s |\n", t.name, t.games, t.winsA, t.winsB,
			t.draws, t.unfinished, 100*float64(t.winsA)/float64(t.games), len(t.cpu), ms(p50), ms(p99), ms(mx), t.wall.Round(time.Second))
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

func percentiles(ds []time.Duration) (p50, p99, max time.Duration) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return at(0.50), at(0.99), s[len(s)-1]
}

// threadCPU is the CPU time of the calling OS thread (user + system).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// game is one game botmatch plays.
type game struct {
	name string
	run  func(cfg config) tally
}

var games = []game{
	{"dashdice", func(cfg config) tally {
		sp := dashdice.BotSpec()
		return play(cfg, "dashdice ("+cfg.mode+")", sp, func(i int, host, guest domain.Actor, d domain.Dice) (dashdice.Match, error) {
			m, err := dashdice.NewMatch(fmt.Sprintf("m%d", i), host, builtinMode(cfg.mode), dashdice.Options{}, t0)
			if err != nil {
				return m, err
			}
			m, _, err = sp.Apply(m, guest, domain.Move{Type: dashdice.ActionJoin}, d, t0)
			return m, err
		})
	}},
	{"hexdice", func(cfg config) tally {
		sp := hexdice.BotSpec()
		return play(cfg, "hexdice (small)", sp, func(i int, host, guest domain.Actor, d domain.Dice) (hexdice.Game, error) {
			g, err := hexdice.NewGame(fmt.Sprintf("h%d", i), host, hexdice.Options{Size: hexdice.Small}, t0)
			if err != nil {
				return g, err
			}
			g, _, err = sp.Apply(g, guest, domain.Move{Type: hexdice.ActionJoin}, d, t0)
			return g, err
		})
	}},
	{"codebowl", func(cfg config) tally {
		sp := codebowl.BotSpec()
		return play(cfg, "codebowl", sp, func(i int, host, guest domain.Actor, d domain.Dice) (codebowl.Match, error) {
			home, err := codebowl.NewTeam(fmt.Sprintf("home%d", i), host.ID, teamSpec("Home"))
			if err != nil {
				return codebowl.Match{}, err
			}
			away, err := codebowl.NewTeam(fmt.Sprintf("away%d", i), guest.ID, teamSpec("Away"))
			if err != nil {
				return codebowl.Match{}, err
			}
			m, err := codebowl.NewMatch(fmt.Sprintf("c%d", i), host, home, codebowl.Options{}, t0)
			if err != nil {
				return m, err
			}
			m, _, err = codebowl.Join(m, guest, away, domain.Env{Now: t0, Dice: d})
			return m, err
		})
	}},
}

func builtinMode(id string) dashdice.Mode {
	for _, m := range dashdice.BuiltinModes() {
		if m.ID == id {
			return m
		}
	}
	panic("no mode " + id)
}

// teamSpec is a plain team: seven 4/4/4 players.
func teamSpec(name string) codebowl.TeamSpec {
	ts := codebowl.TeamSpec{Name: name}
	for i := 0; i < codebowl.TeamSize; i++ {
		ts.Players = append(ts.Players, codebowl.PlayerSpec{Name: fmt.Sprintf("%s %d", name, i+1), ST: 4, AG: 4, MV: 4})
	}
	return ts
}

// maxSteps ends a match that would not end (counted unfinished).
const maxSteps = 20000

// play runs cfg.games matches of one game: bot A (level cfg.a) against bot
// B (cfg.b), A hosting the even matches and B the odd ones.
func play[S any](cfg config, name string, sp bot.Spec[S], start func(i int, host, guest domain.Actor, d domain.Dice) (S, error)) tally {
	if cfg.playouts > 0 {
		sp.Playouts = cfg.playouts
	}
	t := tally{name: name}
	began := time.Now()
	// Two bots of one level need distinct seats.
	a := domain.BotActor(cfg.a, 1)
	b := domain.BotActor(cfg.b, 2)
	level := map[string]string{a.ID: cfg.a, b.ID: cfg.b}
	for i := 0; i < cfg.games; i++ {
		rng := rand.New(rand.NewPCG(cfg.seed, uint64(i)))
		dice := &bot.Dice{R: rand.New(rand.NewPCG(cfg.seed^0xd1ce, uint64(i)))}
		host, guest := a, b
		if i%2 == 1 {
			host, guest = b, a
		}
		s, err := start(i, host, guest, dice)
		if err != nil {
			panic(fmt.Sprintf("%s: match %d: %v", name, i, err))
		}
		t.games++
		winner := ""
		over := false
		for step := 0; step < maxSteps && !over; step++ {
			who, moves := sp.Mover(s, rng)
			var out domain.Outcome
			if len(moves) == 0 {
				h := sp.Rules.Header(s)
				if h.Status == domain.StatusOver || h.Deadline.IsZero() {
					break
				}
				s, out, err = sp.Rules.Expire(s, domain.Env{Now: h.Deadline, Dice: dice})
				if err != nil {
					panic(fmt.Sprintf("%s: match %d: expire: %v", name, i, err))
				}
			} else {
				c0 := threadCPU()
				mv, ok := sp.Choose(s, who, level[who.ID], rng, t0)
				if who.ID == a.ID {
					t.cpu = append(t.cpu, threadCPU()-c0)
				}
				if !ok {
					panic(fmt.Sprintf("%s: match %d: %s listed moves but chose none", name, i, who.ID))
				}
				s, out, err = sp.Apply(s, who, mv, dice, t0)
				if err != nil {
					panic(fmt.Sprintf("%s: match %d: %s played %s %v: %v", name, i, who.ID, mv.Type, mv.Payload, err))
				}
				t.moves++
			}
			for _, p := range []string{a.ID, b.ID} {
				if v, done := bot.Result(out, p); done {
					over = true
					switch {
					case v == 1:
						winner = p
					case v == 0.5:
						winner = "draw"
					}
				}
			}
		}
		switch {
		case !over:
			t.unfinished++
		case winner == a.ID:
			t.winsA++
		case winner == b.ID:
			t.winsB++
		default:
			t.draws++
		}
	}
	t.wall = time.Since(began)
	return t
}
