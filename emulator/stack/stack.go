// Package stack runs the whole Meeple stack in one process: the Firestore
// emulator loaded with firestore.rules, every HTTP and trigger function,
// document triggers delivered by the emulator itself, a tick every second, and
// demo games. The emulator command and the load generator both use it.
package stack

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/api/option"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/functions"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/fsemu"
	"github.com/meeple-games/meeple/triggers"
)

// Config says how to run the stack.
type Config struct {
	Port          int    // HTTP functions; 0 picks a free port
	FirestorePort int    // Firestore emulator; 0 picks a free port
	Project       string // project id; default store.LocalProject
	Rules         string // security rules file; default firestore.rules
	NoDemo        bool   // skip seeding demo games
	// Attach is the host:port of a Firestore emulator that is already
	// running (started with --functions_emulator at this stack's Port): the
	// stack uses it instead of starting one, loads the rules into it, and
	// leaves it running when it stops. Restarting the functions against the
	// same data (after a crash) is this.
	Attach string
	// Games is the registry to run (games.All() for the real stack).
	Games domain.Registry
	// Web is the directory of the built web client (web/dist) to serve at
	// /, with /config.json telling it where Firestore is; empty: none, and
	// / lists the functions as /api does.
	Web string
	// ClientOptions are added to the stack's Firestore client (the load
	// generator counts RPCs with them).
	ClientOptions []option.ClientOption
}

// Stack is the running local stack.
type Stack struct {
	FunctionsURL  string // base URL of the HTTP functions
	FirestoreHost string // host:port of the Firestore emulator
	// WebURL is the web client's address ("" when the stack serves none).
	WebURL   string
	Project  string
	Store    *store.Store
	Server   *functions.Server
	Triggers *triggers.Triggers
	// Demos are the demo games seeded, by game kind, in registry order.
	Demos map[string]domain.DemoGame
	// Emulator is the emulator the stack started (nil when attached).
	Emulator   func() *fsemu.Emulator
	demoOrder  []string
	secretNote string
	games      domain.Registry
}

// Run starts the stack, calls ready, and serves until ctx ends.
func Run(ctx context.Context, c Config, ready func(*Stack)) error {
	if c.Project == "" {
		c.Project = store.LocalProject
	}
	if c.Rules == "" {
		c.Rules = "firestore.rules"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(c.Port)))
	if err != nil {
		return fmt.Errorf("functions port: %w", err)
	}
	functionsHost := ln.Addr().String()

	rules, err := filepath.Abs(c.Rules)
	if err != nil {
		return err
	}
	if _, err := os.Stat(rules); err != nil {
		return fmt.Errorf("rules file: %w (run from the repository root)", err)
	}
	emuHost := c.Attach
	var emuOpts fsemu.Options
	var emu *fsemu.Emulator
	if emuHost == "" {
		if c.FirestorePort != 0 {
			if l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(c.FirestorePort))); err != nil {
				return fmt.Errorf("firestore port %d is busy (another emulator running? attach to it with -attach): %w: %w", c.FirestorePort, ErrPortBusy, err)
			} else {
				l.Close()
			}
		}
		emuOpts = fsemu.Options{Port: c.FirestorePort, RulesFile: rules, FunctionsHost: functionsHost}
		emu, err = fsemu.Start(ctx, emuOpts)
		if err != nil {
			return err
		}
		defer func() { s := emu; s.Stop() }()
		emuHost = emu.Host
		_, p, _ := net.SplitHostPort(emuHost)
		emuOpts.Port, _ = strconv.Atoi(p)
	} else {
		src, err := os.ReadFile(rules)
		if err != nil {
			return err
		}
		if err := (fsemu.Admin{Host: emuHost, Project: c.Project}).LoadRules(string(src)); err != nil {
			return fmt.Errorf("attaching to the emulator at %s: %w", emuHost, err)
		}
	}
	os.Setenv("FIRESTORE_EMULATOR_HOST", emuHost)
	os.Setenv("GOOGLE_CLOUD_PROJECT", c.Project)

	fs, err := firestore.NewClient(ctx, c.Project, c.ClientOptions...)
	if err != nil {
		return err
	}
	defer fs.Close()
	st := store.New(fs, c.Games)
	st.ProjectionSettle = store.DefaultProjectionSettle // as deployed
	st.FixedSeeds = true                                // local only: a create may choose its seed, so games replay
	store.SetDefault(st)

	s := &Stack{FunctionsURL: "http://" + functionsHost, FirestoreHost: emuHost, Project: c.Project, Store: st,
		games: c.Games, Demos: map[string]domain.DemoGame{}}
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
			return functions.UnsignedFirebaseToken(c.Project, a, time.Now()), nil
		},
	}
	functions.SetDefault(s.Server)
	s.Triggers = triggers.New(st)

	mux := http.NewServeMux()
	for name, h := range s.Server.Routes() {
		mux.Handle("/"+name, h)
	}
	legacy := s.Triggers.LegacyHandler()
	legacy.Async = true // deliveries in parallel, as Eventarc makes them (triggers/legacy.go)
	mux.Handle("/functions/projects/", legacy)
	names := functions.Names(c.Games)
	listing := func(w http.ResponseWriter) {
		fmt.Fprintf(w, "Meeple local stack. Functions: POST /%s. See README.md.\n", strings.Join(names, ", POST /"))
	}
	var web func(http.ResponseWriter, *http.Request) bool
	if c.Web != "" {
		web = webHandler(c.Web, c.Project, emuHost)
		s.WebURL = s.FunctionsURL + "/"
	}
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) { listing(w) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		// A JSON client asking for / gets the listing, as before the web client.
		wantsPage := web != nil && !strings.Contains(r.Header.Get("Accept"), "application/json")
		if wantsPage && web(w, r) {
			return
		}
		if r.URL.Path != "/" {
			// The same error shape as every function's, naming them all (paths
			// are case-sensitive: /dashdice is not /DashDice).
			msg := fmt.Sprintf("no function %s; the functions are /%s", r.URL.Path, strings.Join(names, ", /"))
			for _, n := range names {
				if strings.EqualFold("/"+n, r.URL.Path) {
					msg = fmt.Sprintf("no function %s: did you mean /%s? (paths are case-sensitive)", r.URL.Path, n)
				}
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": domain.ENOTFOUND, "message": msg}})
			return
		}
		listing(w)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	defer srv.Shutdown(context.Background())

	admin := fsemu.Admin{Host: emuHost, Project: c.Project}
	if err := registerTriggers(admin, c.Games); err != nil {
		return err
	}

	go s.tick(ctx)
	w := &watchdog{admin: admin, games: c.Games, rules: rules, opts: emuOpts, emu: emu}
	s.Emulator = w.current // here, not in w.run: a caller reads it as soon as ready is called
	go w.run(ctx)
	defer func() { emu = w.current() }()

	if !c.NoDemo {
		for _, e := range c.Games {
			if e.Demo == nil {
				continue
			}
			d, err := e.Demo(ctx, s.Caller())
			if err != nil {
				return fmt.Errorf("seeding the %s demo: %w", e.Kind(), err)
			}
			s.Demos[e.Kind()] = d
			s.demoOrder = append(s.demoOrder, e.Kind())
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

// ErrPortBusy is what Run's error wraps when Config.FirestorePort is taken:
// a caller that chose the port itself (the load generator) may choose
// another.
var ErrPortBusy = errors.New("port in use")

// tick runs the scheduled work every second, as Cloud Scheduler does every
// minute in production, and between ticks the leaderboards' projection pass
// (triggers.ProjectEvery), so a board follows its effects within about half
// a second locally. Overlapping passes are safe: the older one writes
// nothing (store.BeginProjection).
//
// Its Firestore calls are marked as the tick's (fsemu.Tick), so the load
// generator's counter tells them from the actions' it measures.
func (s *Stack) tick(ctx context.Context) {
	ctx = fsemu.Tick(ctx)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	go func() {
		p := time.NewTicker(triggers.ProjectEvery)
		defer p.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-p.C:
				if _, err := s.Triggers.Project(ctx, now); err != nil && ctx.Err() == nil {
					slog.Warn("projection pass", "err", err)
				}
			}
		}
	}()
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
