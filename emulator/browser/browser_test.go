// Package browser runs the web client's browser tests (web/tests/*.mjs)
// against the whole local stack: Debian's Chromium driven by playwright-core.
// scripts/web-setup.sh installs Chromium when it is missing; the test builds
// web/ itself (npm ci, npm run build) as `go run ./emulator` does.
package browser

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/emulator/stack"
	"github.com/meeple-games/meeple/games"
)

const chromium = "/usr/bin/chromium"

// scripts are the browser tests, run one after the other against one stack;
// each prints a BROWSER-METRICS line holding the figure named here (so a
// script that ran nothing fails).
var scripts = []struct {
	script, figure string
	// timeout: 4 minutes when zero.
	timeout time.Duration
}{
	// Two contexts play a seeded DashDice match by clicking while a third
	// watches; verify-the-dice passes, and fails on a tampered match; the
	// rematch.
	{"browser.mjs", "latencyMs", 0},
	// Three players play a Party Board game to the end by clicking.
	{"partyboard.mjs", "clickToOthersMs", 0},
	// A team completes a Tile Race tile by clicking while a spectator's page
	// shows it; the admin view.
	{"tilerace.mjs", "clickToSpectatorMoveMs", 0},
	// Two accounts make CodeBowl teams in the lobby, quick-match, place, move
	// and end turns by clicking; then a Hex & Dice room is created, joined by
	// its code and played a few turns by clicking.
	{"games2.mjs", "clickToOtherMs", 0},
	// Hex & Dice fog of war: a fog room created in the lobby and joined by
	// code; each page draws the fog of its own view and no enemy troop out
	// of its vision, in both turn modes; a spectator sees no troops.
	{"hexfog.mjs", "clickToOtherMs", 0},
	// A finished game of every kind replayed on the replay page, each frame
	// drawn by the game's own page: verified, step, play to the last frame,
	// the slider; a Hex & Dice fog game's replay shows a player no enemy
	// troop out of its vision, a spectator none. About 1.5 minutes on an
	// idle machine, near 4 on one loaded by other work (five games played
	// through the functions first): it gets 6.
	{"replay.mjs", "replayMs", 6 * time.Minute},
	// The host of a waiting CodeBowl match and of a Party Board lobby adds
	// a bot from the page; the bot is seated and plays by itself.
	{"bots.mjs", "botSeatedMs", 0},
	// The lobby, the sign-in page and every game's page, as a player and
	// as a spectator: axe finds no serious or critical violation,
	// Lighthouse (desktop) scores ≥ 90 for performance and accessibility
	// on the lobby and each game's page; screenshots at desktop and phone
	// width in web/test-results/screenshots/.
	// About 2 minutes on an idle machine, 7 on one loaded by other work
	// (Lighthouse loads each page with tracing): it gets 10.
	{"checks.mjs", "lighthouse", 10 * time.Minute},
}

// TestWebClientInChromium runs every browser test. A missing browser or
// Node.js fails it: it is never skipped.
func TestWebClientInChromium(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		t.Fatalf("the browser tests need Debian's Chromium at %s: run ./scripts/web-setup.sh (%v)", chromium, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("the browser tests need Node.js: %v", err)
	}
	root := filepath.Join("..", "..")
	web := filepath.Join(root, "web")
	var build bytes.Buffer
	if err := stack.BuildWeb(web, &build); err != nil {
		t.Fatalf("building the web client: %v\n%s", err, build.String())
	}

	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *stack.Stack, 1)
	done := make(chan error, 1)
	go func() {
		done <- stack.Run(ctx, stack.Config{Rules: filepath.Join(root, "firestore.rules"), Games: games.All(), NoDemo: true,
			Web: filepath.Join(web, "dist")}, func(s *stack.Stack) { ready <- s })
	}()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	var s *stack.Stack
	select {
	case s = <-ready:
	case err := <-done:
		t.Fatalf("stack did not start: %v", err)
	case <-time.After(180 * time.Second):
		t.Fatal("stack did not start within 180s")
	}

	for _, tc := range scripts {
		t.Run(tc.script, func(t *testing.T) {
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 4 * time.Minute
			}
			run, stop := context.WithTimeout(ctx, timeout)
			defer stop()
			cmd := exec.CommandContext(run, "node", filepath.Join("tests", tc.script))
			cmd.Dir = web
			cmd.Env = append(os.Environ(), "MEEPLE_URL="+s.WebURL, "CHROMIUM="+chromium)
			out, err := cmd.CombinedOutput()
			t.Logf("web/tests/%s:\n%s", tc.script, out)
			if err != nil {
				t.Fatalf("web/tests/%s failed (%v); screenshots in web/test-results/", tc.script, err)
			}
			// The scripts print every console error; Chromium reports each
			// thing the Content-Security-Policy blocked as one, naming it.
			if bytes.Contains(out, []byte("Content Security Policy")) {
				t.Fatalf("web/tests/%s: the page broke its Content-Security-Policy (stack.WebCSP; see the log above)", tc.script)
			}
			if !regexp.MustCompile(`(?m)^BROWSER-METRICS \{.*"` + tc.figure + `"`).Match(out) {
				t.Fatalf("web/tests/%s printed no %s: did it run?", tc.script, tc.figure)
			}
		})
	}
}
