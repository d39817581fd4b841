package stack

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// WebSources are the files of web/ a build depends on (besides web/src).
var WebSources = []string{"index.html", "package.json", "package-lock.json", "vite.config.ts", "tsconfig.json", "src"}

// BuildWeb makes sure web/dist is the build of web/'s sources: `npm ci` when
// node_modules is missing or older than package-lock.json, `npm run build`
// when dist is missing or older than any source. When both are current it
// runs nothing, so later starts stay fast. Output goes to log.
func BuildWeb(dir string, log io.Writer) error {
	if _, err := exec.LookPath("npm"); err != nil {
		return fmt.Errorf("building the web client needs Node.js and npm (apt-get install nodejs npm): %w", err)
	}
	lock, err := newest(dir, "package-lock.json")
	if err != nil {
		return err
	}
	installed, _ := newest(dir, filepath.Join("node_modules", ".package-lock.json"))
	if installed.Before(lock) {
		if err := npm(dir, log, "ci", "--no-audit", "--no-fund"); err != nil {
			return err
		}
	}
	src, err := newest(dir, WebSources...)
	if err != nil {
		return err
	}
	built, _ := newest(dir, filepath.Join("dist", "index.html"))
	if built.Before(src) {
		return npm(dir, log, "run", "build")
	}
	return nil
}

func npm(dir string, log io.Writer, args ...string) error {
	fmt.Fprintf(log, "web: npm %s (in %s)\n", strings.Join(args, " "), dir)
	cmd := exec.Command("npm", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, log, log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm %s in %s: %w", strings.Join(args, " "), dir, err)
	}
	return nil
}

// newest is the latest modification time of the named files and of every
// file under the named directories; a missing name is an error.
func newest(dir string, names ...string) (time.Time, error) {
	var t time.Time
	for _, n := range names {
		err := filepath.WalkDir(filepath.Join(dir, n), func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if info, err := d.Info(); err == nil && info.ModTime().After(t) {
				t = info.ModTime()
			}
			return nil
		})
		if err != nil {
			return time.Time{}, err
		}
	}
	return t, nil
}

// webHandler serves the built client from dist, and /config.json: where the
// client finds the Firestore emulator and the project. It reports false for
// paths that are not files of the build.
func webHandler(dist, project, firestoreHost string) func(w http.ResponseWriter, r *http.Request) bool {
	files := http.FileServer(http.Dir(dist))
	cfg, _ := json.Marshal(map[string]string{"projectId": project, "firestoreEmulator": firestoreHost})
	return func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return false
		}
		if r.URL.Path == "/config.json" {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-store")
			w.Write(cfg)
			return true
		}
		name := filepath.Join(dist, filepath.FromSlash(filepath.Clean("/"+r.URL.Path)))
		if info, err := os.Stat(name); err != nil || (info.IsDir() && r.URL.Path != "/") {
			return false
		}
		if strings.HasPrefix(r.URL.Path, "/assets/") {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable") // names carry a content hash
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		files.ServeHTTP(w, r)
		return true
	}
}
