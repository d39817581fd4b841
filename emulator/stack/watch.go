package stack

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store/fsemu"
	"github.com/meeple-games/meeple/triggers"
)

// registerTriggers has the emulator deliver to the stack the document
// triggers the games of reg need (triggers.DocumentTriggersFor).
func registerTriggers(admin fsemu.Admin, reg domain.Registry) error {
	for name, pattern := range triggers.DocumentTriggersFor(reg) {
		if err := admin.RegisterTrigger(name, pattern); err != nil {
			return err
		}
	}
	return nil
}

// watchdog keeps the Firestore emulator serving. Every second it asks the
// emulator whether it answers. When it stops answering the stack says so (the
// functions answer 503 meanwhile) and, if the stack started it and its
// process is gone, starts it again on the same port. When it answers again
// the stack loads the rules and registers the triggers again, since a
// restarted emulator has lost them (and all its data, which it says too).
type watchdog struct {
	admin fsemu.Admin
	games domain.Registry
	rules string
	opts  fsemu.Options // zero when attached: the stack does not restart it
	mu    sync.Mutex
	emu   *fsemu.Emulator
}

func (w *watchdog) current() *fsemu.Emulator {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.emu
}

func (w *watchdog) run(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	down := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if w.answers(ctx) {
			if down {
				down = false
				slog.Warn("firestore emulator answers again: rules and triggers loaded again; its data is what it kept (a restarted emulator starts empty)", "host", w.admin.Host)
				w.reload()
			}
			continue
		}
		if !down {
			down = true
			slog.Error("firestore emulator does not answer: the functions answer 503 until it is back", "host", w.admin.Host)
		}
		emu := w.current()
		if emu == nil || w.opts.Port == 0 {
			continue // attached: whoever runs it restarts it
		}
		select {
		case <-emu.Done():
		default:
			continue // still running: wait for it
		}
		slog.Warn("firestore emulator exited: starting it again", "port", w.opts.Port)
		next, err := fsemu.Start(ctx, w.opts)
		if err != nil {
			slog.Error("firestore emulator did not start again", "err", err)
			continue
		}
		w.mu.Lock()
		w.emu = next
		w.mu.Unlock()
	}
}

func (w *watchdog) answers(ctx context.Context) bool {
	c, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(c, http.MethodGet, "http://"+w.admin.Host+"/", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func (w *watchdog) reload() {
	if src, err := os.ReadFile(w.rules); err == nil {
		if err := w.admin.LoadRules(string(src)); err != nil {
			slog.Error("loading the rules again", "err", err)
		}
	}
	if err := registerTriggers(w.admin, w.games); err != nil {
		slog.Error("registering the triggers again", "err", err)
	}
}
