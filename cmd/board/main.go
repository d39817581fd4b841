// Command board is a tool for Party Board authors: it checks board files
// and simulates games on them with the engine, offline.
//
//	go run ./cmd/board check FILE...                 validate: every located problem and warning
//	go run ./cmd/board sim FILE [-games 1000] [-players 4] [-seed S] [-workers N]
//
// check exits 0 when every file is a valid board, 1 when one is not, 2 on a
// usage or I/O error. sim exits 0 when it ran (even if games stalled), 1
// when the board is invalid, 2 on a usage or I/O error. Both take -lenient
// (unknown rule types play as DisplayRules) and -json (the result as JSON).
// FILE "-" reads the standard input. docs/partyboard.md shows the output.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/meeple-games/meeple/domain/partyboard"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// Exit codes.
const (
	exitOK      = 0
	exitInvalid = 1
	exitUsage   = 2
)

const usage = `usage:
  board check [-lenient] [-json] FILE...
  board sim FILE [-games 1000] [-players 4] [-seed S] [-workers N] [-lenient] [-json]
FILE "-" is the standard input.`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "check":
		return check(args[1:], stdin, stdout, stderr)
	case "sim":
		return sim(args[1:], stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprintln(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "board: unknown command %q\n%s\n", args[0], usage)
	return exitUsage
}

// parse parses flags that may come before, between or after the file names.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return files, nil
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, usage) }
	return fs
}

func readFile(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(io.LimitReader(stdin, partyboard.MaxFileSize+1))
	}
	return os.ReadFile(name)
}

// checkResult is one file's check, as -json prints it.
type checkResult struct {
	File     string               `json:"file"`
	Valid    bool                 `json:"valid"`
	ID       string               `json:"id"`
	Tiles    int                  `json:"tiles"`
	Zones    int                  `json:"zones"`
	Problems []partyboard.Problem `json:"problems"`
	Warnings []partyboard.Problem `json:"warnings"`
}

func check(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("check", stderr)
	lenient := fs.Bool("lenient", false, "play unknown rule types as DisplayRules (a warning each)")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	files, err := parse(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "board check: no file given\n"+usage)
		return exitUsage
	}
	code := exitOK
	var results []checkResult
	for _, name := range files {
		file, err := readFile(name, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "board check: %v\n", err)
			return exitUsage
		}
		b, problems, warnings, err := partyboard.LoadBoard(file, partyboard.LoadOptions{Lenient: *lenient})
		r := checkResult{File: name, Valid: err == nil, ID: partyboard.BoardID(file), Problems: problems, Warnings: warnings}
		if r.Problems == nil {
			r.Problems = []partyboard.Problem{}
		}
		if r.Warnings == nil {
			r.Warnings = []partyboard.Problem{}
		}
		if b != nil {
			r.Tiles, r.Zones = len(b.Tiles), len(b.Zones)
		}
		if !r.Valid {
			code = exitInvalid
		}
		results = append(results, r)
		if *asJSON {
			continue
		}
		for _, p := range problems {
			fmt.Fprintf(stdout, "%s: error: %s\n", name, p)
		}
		for _, p := range warnings {
			fmt.Fprintf(stdout, "%s: warning: %s\n", name, p)
		}
		if r.Valid {
			fmt.Fprintf(stdout, "%s: valid board %s: %d tiles, %d zones, %s\n", name, r.ID, r.Tiles, r.Zones, count(len(warnings), "warning"))
		} else {
			fmt.Fprintf(stdout, "%s: invalid board: %s, %s\n", name, count(len(problems), "problem"), count(len(warnings), "warning"))
		}
	}
	if *asJSON {
		writeJSON(stdout, results)
	}
	return code
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func sim(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("sim", stderr)
	games := fs.Int("games", 1000, "games to play")
	players := fs.Int("players", 4, "players in each game (2 to 12)")
	seed := fs.String("seed", "sim", "seed of the games' dice and choices: the same seed, the same report")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "games played side by side")
	maxSteps := fs.Int("max-actions", partyboard.SimMaxSteps, "actions after which a game counts as stalled")
	lenient := fs.Bool("lenient", false, "play unknown rule types as DisplayRules")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	files, err := parse(fs, args)
	if err != nil {
		return exitUsage
	}
	switch {
	case len(files) != 1:
		fmt.Fprintln(stderr, "board sim: give exactly one board file\n"+usage)
		return exitUsage
	case *games < 1 || *workers < 1 || *maxSteps < 1:
		fmt.Fprintln(stderr, "board sim: -games, -workers and -max-actions must be at least 1")
		return exitUsage
	case *players < partyboard.MinPlayers || *players > partyboard.MaxPlayers:
		fmt.Fprintf(stderr, "board sim: -players must be from %d to %d\n", partyboard.MinPlayers, partyboard.MaxPlayers)
		return exitUsage
	}
	file, err := readFile(files[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "board sim: %v\n", err)
		return exitUsage
	}
	b, problems, _, err := partyboard.LoadBoard(file, partyboard.LoadOptions{Lenient: *lenient})
	if err != nil {
		for _, p := range problems {
			fmt.Fprintf(stderr, "%s: error: %s\n", files[0], p)
		}
		fmt.Fprintf(stderr, "%s: invalid board: %s (board check lists the warnings too)\n", files[0], count(len(problems), "problem"))
		return exitInvalid
	}
	start := time.Now()
	rep, err := partyboard.Simulate(b, partyboard.SimOptions{Games: *games, Players: *players, Seed: *seed, Workers: *workers, MaxSteps: *maxSteps})
	elapsed := time.Since(start)
	if err != nil {
		fmt.Fprintf(stderr, "board sim: %v\n", err)
		return exitUsage
	}
	rate := float64(*games) / elapsed.Seconds()
	if *asJSON {
		writeJSON(stdout, struct {
			partyboard.SimReport
			Seconds        float64 `json:"seconds"`
			GamesPerSecond float64 `json:"gamesPerSecond"`
			Workers        int     `json:"workers"`
		}{rep, elapsed.Seconds(), rate, *workers})
		return exitOK
	}
	printReport(stdout, files[0], rep, *maxSteps)
	fmt.Fprintf(stdout, "\n%d games in %.2f s: %.0f games/s on %d workers (%.0f per worker)\n",
		*games, elapsed.Seconds(), rate, *workers, rate/float64(*workers))
	return exitOK
}

func printReport(w io.Writer, name string, r partyboard.SimReport, maxSteps int) {
	ended := r.Games - r.Stalled
	fmt.Fprintf(w, "%s (%s): %d games of %d players, seed %q\n", name, r.Board, r.Games, r.Players, r.Seed)
	fmt.Fprintf(w, "game length in turns: median %d, p90 %d, max %d (min %d, mean %.1f) over %d games that ended\n",
		r.Turns.Median, r.Turns.P90, r.Turns.Max, r.Turns.Min, r.Turns.Mean, ended)
	fmt.Fprintf(w, "actions per game:     median %d, p90 %d, max %d\n", r.Actions.Median, r.Actions.P90, r.Actions.Max)
	fmt.Fprintf(w, "stalled (not over after %d actions): %d\n", maxSteps, r.Stalled)
	for _, e := range r.Errors {
		fmt.Fprintf(w, "  engine error: %s\n", e)
	}
	var seats []string
	for i, rate := range r.WinRateBySeat {
		seats = append(seats, fmt.Sprintf("%d: %.1f%%", i+1, 100*rate))
	}
	fmt.Fprintf(w, "wins by seat (seat 1 moves first; fair is %.1f%%): %s\n", 100/float64(r.Players), strings.Join(seats, ", "))
	fmt.Fprintf(w, "tiles never landed on: %d\n", len(r.NeverLanded))
	for _, t := range r.NeverLanded {
		fmt.Fprintf(w, "  tiles[%d]  %s\n", t.Tile, short(t.Text))
	}
	fmt.Fprintf(w, "rules never run: %d\n", len(r.NeverRun))
	for _, x := range r.NeverRun {
		fmt.Fprintf(w, "  %-44s %-24s %s\n", x.Rule, x.Type, short(x.Text))
	}
	fmt.Fprintf(w, "how often each rule runs (per game, share of games):\n")
	for _, x := range r.Rules {
		fmt.Fprintf(w, "  %6.2f %4.0f%%  %-44s %-24s %s\n", x.PerGame, 100*float64(x.Games)/float64(r.Games), x.Rule, x.Type, short(x.Text))
	}
}

// short is a rule's text on one line, cut to 40 characters.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:39]) + "…"
}
