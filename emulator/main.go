// Command emulator runs the whole Meeple stack locally: the Firestore emulator
// loaded with firestore.rules, every HTTP and trigger function in one process,
// document triggers delivered by the emulator itself, a tick every second, and
// demo games to play. Ctrl-C stops everything it started.
//
//	go run ./emulator [-port 8090] [-firestore-port 8080]
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/functions"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/fsemu"
	"github.com/meeple-games/meeple/triggers"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "emulator:", err)
		os.Exit(1)
	}
}

type config struct {
	port, firestorePort int
	project             string
	rules               string
	noDemo              bool
	quiet               bool
}

func run() error {
	var c config
	flag.IntVar(&c.port, "port", 8090, "port of the HTTP and trigger functions")
	flag.IntVar(&c.firestorePort, "firestore-port", 8080, "port of the Firestore emulator (0: any free port)")
	flag.StringVar(&c.project, "project", store.LocalProject, "project id")
	flag.StringVar(&c.rules, "rules", "firestore.rules", "security rules file")
	flag.BoolVar(&c.noDemo, "no-demo", false, "do not seed demo games")
	flag.BoolVar(&c.quiet, "quiet", false, "log warnings and errors only")
	flag.Parse()
	if c.quiet {
		slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, c, func(s *Stack) { s.PrintHowTo(os.Stdout) })
}

// Stack is the running local stack.
type Stack struct {
	FunctionsURL  string // base URL of the HTTP functions
	FirestoreHost string // host:port of the Firestore emulator
	Project       string
	Store         *store.Store
	Server        *functions.Server
	Triggers      *triggers.Triggers
	Demo          *Demo
	secretNote    string
}

// Run starts the stack, calls ready, and serves until ctx ends.
func Run(ctx context.Context, c config, ready func(*Stack)) error {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port)))
	if err != nil {
		return fmt.Errorf("functions port: %w", err)
	}
	functionsHost := ln.Addr().String()

	rules, err := filepath.Abs(c.rules)
	if err != nil {
		return err
	}
	if _, err := os.Stat(rules); err != nil {
		return fmt.Errorf("rules file: %w (run from the repository root)", err)
	}
	if c.firestorePort != 0 {
		if l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(c.firestorePort))); err != nil {
			return fmt.Errorf("firestore port %d is busy (another emulator running?): %w", c.firestorePort, err)
		} else {
			l.Close()
		}
	}
	emu, err := fsemu.Start(ctx, fsemu.Options{Port: c.firestorePort, RulesFile: rules, FunctionsHost: functionsHost})
	if err != nil {
		return err
	}
	defer emu.Stop()
	os.Setenv("FIRESTORE_EMULATOR_HOST", emu.Host)
	os.Setenv("GOOGLE_CLOUD_PROJECT", c.project)

	fs, err := firestore.NewClient(ctx, c.project)
	if err != nil {
		return err
	}
	defer fs.Close()
	st := store.New(fs)
	st.FixedSeeds = true // local only: a create may choose its seed, so games replay
	store.SetDefault(st)

	s := &Stack{FunctionsURL: "http://" + functionsHost, FirestoreHost: emu.Host, Project: c.project, Store: st}
	secret := os.Getenv("MEEPLE_JWT_SECRET")
	if secret == "" {
		b := make([]byte, 32)
		rand.Read(b)
		secret = hex.EncodeToString(b)
		s.secretNote = "generated a random MEEPLE_JWT_SECRET for this run (tokens die with it)"
	}
	s.Server = &functions.Server{
		Store:    st,
		Sessions: &functions.Sessions{Secret: []byte(secret)},
		FirebaseToken: func(_ context.Context, a domain.Actor) (string, error) {
			return functions.UnsignedFirebaseToken(c.project, a, time.Now()), nil
		},
	}
	functions.SetDefault(s.Server)
	s.Triggers = triggers.New(st)

	mux := http.NewServeMux()
	for name, h := range s.Server.Routes() {
		mux.Handle("/"+name, h)
	}
	mux.Handle("/functions/projects/", s.Triggers.LegacyHandler())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "Meeple local stack. Functions: POST /Auth, POST /DashDice. See README.md.")
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	defer srv.Shutdown(context.Background())

	admin := fsemu.Admin{Host: emu.Host, Project: c.project}
	for name, pattern := range triggers.DocumentTriggers {
		if err := admin.RegisterTrigger(name, pattern); err != nil {
			return err
		}
	}

	go s.tick(ctx)

	if !c.noDemo {
		if s.Demo, err = SeedDemo(ctx, s.FunctionsURL); err != nil {
			return fmt.Errorf("seeding demo: %w", err)
		}
	}
	ready(s)

	select {
	case <-ctx.Done():
		return nil
	case err := <-serveErr:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// tick runs the scheduled work every second, as Cloud Scheduler does every
// minute in production.
func (s *Stack) tick(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if _, err := s.Triggers.RunTick(ctx, now); err != nil && ctx.Err() == nil {
				slog.Warn("tick", "err", err)
			}
		}
	}
}
