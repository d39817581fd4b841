package stack

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWebHandlerServesTheBuildAndItsConfig(t *testing.T) {
	dist := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dist, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"index.html": "<!doctype html>app", "assets/index-abc.js": "js"} {
		if err := os.WriteFile(filepath.Join(dist, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	web := webHandler(dist, "meeple-local", "127.0.0.1:8080")
	tests := []struct {
		method, path string
		served       bool
		body         string
	}{
		{"GET", "/", true, "app"},
		{"GET", "/assets/index-abc.js", true, "js"},
		{"GET", "/config.json", true, `{"firestoreEmulator":"127.0.0.1:8080","projectId":"meeple-local"}`},
		{"GET", "/assets/", false, ""},
		{"GET", "/nothing.js", false, ""},
		{"GET", "/../stack.go", false, ""},
		{"POST", "/", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			w := httptest.NewRecorder()
			r := httptest.NewRequest(tt.method, "http://x"+tt.path, nil)
			if got := web(w, r); got != tt.served {
				t.Fatalf("served = %v, want %v", got, tt.served)
			}
			if !tt.served {
				return
			}
			if w.Code != http.StatusOK {
				t.Fatalf("status %d, want 200", w.Code)
			}
			if got, _ := io.ReadAll(w.Body); !strings.Contains(string(got), tt.body) {
				t.Fatalf("body %q, want it to hold %q", got, tt.body)
			}
		})
	}
}

func TestBuildWebRunsNothingWhenTheBuildIsCurrent(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for _, name := range []string{"index.html", "package.json", "package-lock.json", "vite.config.ts", "tsconfig.json", "src/main.ts", "node_modules/.package-lock.json", "dist/index.html"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		when := old
		if strings.HasPrefix(name, "dist/") || strings.HasPrefix(name, "node_modules/") {
			when = time.Now() // built after every source
		}
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
	// Directories count by their own times too: age them with the sources.
	for _, d := range []string{"src"} {
		if err := os.Chtimes(filepath.Join(dir, d), old, old); err != nil {
			t.Fatal(err)
		}
	}
	var log strings.Builder
	if err := BuildWeb(dir, &log); err != nil {
		t.Fatalf("BuildWeb: %v\n%s", err, log.String())
	}
	if log.Len() != 0 {
		t.Fatalf("BuildWeb ran something on a current build:\n%s", log.String())
	}
}
