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

// gamePageScripts are the browser tests of the game pages beyond DashDice,
// run one after the other against one stack; each prints a BROWSER-METRICS
// line holding the figure named here.
var gamePageScripts = []struct{ script, figure string }{
	{"partyboard.mjs", "clickToOthersMs"},
	{"tilerace.mjs", "clickToSpectatorMoveMs"},
}

// TestGamePagesInChromium runs web/tests/partyboard.mjs (three players play a
// Party Board game to the end by clicking) and web/tests/tilerace.mjs (a team
// completes a Tile Race tile by clicking while a spectator's page shows it;
// the admin view) in Debian's Chromium against the whole local stack. A
// missing browser or Node.js fails the test: it is never skipped.
func TestGamePagesInChromium(t *testing.T) {
	browserPath := "/usr/bin/chromium"
	if _, err := os.Stat(browserPath); err != nil {
		t.Fatalf("the browser tests need Debian's Chromium at %s: run ./scripts/web-setup.sh (%v)", browserPath, err)
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
	case <-time.After(90 * time.Second):
		t.Fatal("stack did not start within 90s")
	}

	for _, tc := range gamePageScripts {
		t.Run(tc.script, func(t *testing.T) {
			run, stop := context.WithTimeout(ctx, 3*time.Minute)
			defer stop()
			cmd := exec.CommandContext(run, "node", filepath.Join("tests", tc.script))
			cmd.Dir = web
			cmd.Env = append(os.Environ(), "MEEPLE_URL="+s.WebURL, "CHROMIUM="+browserPath)
			out, err := cmd.CombinedOutput()
			t.Logf("web/tests/%s:\n%s", tc.script, out)
			if err != nil {
				t.Fatalf("web/tests/%s failed (%v); screenshots in web/test-results/", tc.script, err)
			}
			if !regexp.MustCompile(`(?m)^BROWSER-METRICS \{.*"` + tc.figure + `"`).Match(out) {
				t.Fatalf("web/tests/%s printed no %s: did the game run?", tc.script, tc.figure)
			}
		})
	}
}
