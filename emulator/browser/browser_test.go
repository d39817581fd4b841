// Package browser runs the web client's browser tests (web/tests/browser.mjs)
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

// TestWebClientInChromium plays a DashDice match between two browser contexts
// by clicking, watches it from a third, checks the verify-the-dice panel
// passes on the finished match and fails on a tampered one, and takes the
// rematch. A missing browser or Node.js fails the test: it is never skipped.
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
	case <-time.After(90 * time.Second):
		t.Fatal("stack did not start within 90s")
	}

	run, stop := context.WithTimeout(ctx, 4*time.Minute)
	defer stop()
	cmd := exec.CommandContext(run, "node", filepath.Join("tests", "browser.mjs"))
	cmd.Dir = web
	cmd.Env = append(os.Environ(), "MEEPLE_URL="+s.WebURL, "CHROMIUM="+chromium)
	out, err := cmd.CombinedOutput()
	t.Logf("web/tests/browser.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("the browser tests failed (%v); screenshots in web/test-results/", err)
	}
	if !regexp.MustCompile(`(?m)^BROWSER-METRICS \{.*"latencyMs"`).Match(out) {
		t.Fatal("the browser tests printed no latency figures: did the match run?")
	}
}
