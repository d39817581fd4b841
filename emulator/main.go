// Command emulator runs the whole Meeple stack locally: the Firestore emulator
// loaded with firestore.rules, every HTTP and trigger function in one process,
// document triggers delivered by the emulator itself, a tick every second, and
// demo games to play. Ctrl-C stops everything it started.
//
//	go run ./emulator [-port 8090] [-firestore-port 8080]
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/meeple-games/meeple/emulator/stack"
	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/store"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "emulator:", err)
		os.Exit(1)
	}
}

func run() error {
	c := stack.Config{Games: games.All()}
	var quiet, noWeb bool
	var web string
	flag.IntVar(&c.Port, "port", 8090, "port of the HTTP and trigger functions (0: any free port)")
	flag.IntVar(&c.FirestorePort, "firestore-port", 8080, "port of the Firestore emulator (0: any free port)")
	flag.StringVar(&c.Project, "project", store.LocalProject, "project id")
	flag.StringVar(&c.Rules, "rules", "firestore.rules", "security rules file")
	flag.BoolVar(&c.NoDemo, "no-demo", false, "do not seed demo games")
	flag.StringVar(&c.Attach, "attach", "", "use the Firestore emulator already running at HOST:PORT (started with --functions_emulator=127.0.0.1:<-port>) instead of starting one")
	flag.BoolVar(&quiet, "quiet", false, "log warnings and errors only")
	flag.StringVar(&web, "web", "web", "the web client's directory: built (npm ci, npm run build) when web/dist is missing or older than its sources, and served at /")
	flag.BoolVar(&noWeb, "no-web", false, "do not build or serve the web client")
	flag.Parse()
	if !noWeb {
		if err := stack.BuildWeb(web, os.Stderr); err != nil {
			// The API works without the client: say why there is no page.
			fmt.Fprintf(os.Stderr, "emulator: no web client: %v\n", err)
		} else {
			c.Web = filepath.Join(web, "dist")
		}
	}
	if quiet {
		slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return stack.Run(ctx, c, func(s *stack.Stack) { s.PrintHowTo(os.Stdout) })
}
