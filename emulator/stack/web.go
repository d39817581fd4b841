package stack

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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

// Header is one response header of the web client; the JSON names are those
// of a header in firebase.json's hosting.headers, so the production config
// decodes into it.
type Header struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// The web client's cache policies: files under /assets/ carry a content hash
// in their names, so a browser keeps them for a year without asking again;
// everything else (index.html, config.json) is revalidated on every load.
const (
	AssetsCacheControl = "public, max-age=31536000, immutable"
	PageCacheControl   = "no-cache"
)

// ProductionConnect are the origins the client talks to in production,
// besides its own: the HTTP functions (config.json's functionsURL,
// https://<region>-<project>.cloudfunctions.net), Firestore, and the Firebase
// Auth endpoints of signInWithCustomToken (identitytoolkit) and of the ID
// token's refresh (securetoken). firebase.json's hosting headers use them.
var ProductionConnect = []string{
	"https://*.cloudfunctions.net",
	"https://firestore.googleapis.com",
	"https://identitytoolkit.googleapis.com",
	"https://securetoken.googleapis.com",
}

// EmulatorConnect is what the local client talks to besides its own origin:
// the Firestore emulator at host (host:port), over HTTP (the Firestore SDK's
// WebChannel is HTTP long polling; the bundle opens no WebSocket).
func EmulatorConnect(host string) []string { return []string{"http://" + host} }

// WebCSP is the client's Content-Security-Policy: scripts, styles and
// everything else only from its own origin (no inline script or <style>, no
// eval), images also from data: and any https URL (user-supplied pictures),
// fetches to its own origin and to connect, no plugins, and no page may frame
// it.
func WebCSP(connect ...string) string {
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'",
		"style-src 'self'",
		"img-src 'self' data: https:",
		"connect-src " + strings.Join(append([]string{"'self'"}, connect...), " "),
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// WebHeaders are the security headers of every response of the web client
// (the local stack's and, with ProductionConnect, firebase.json's), connect
// being the origins it may fetch from besides its own. Cache-Control is set
// per path apart (AssetsCacheControl, PageCacheControl).
func WebHeaders(connect ...string) []Header {
	return []Header{
		{"Content-Security-Policy", WebCSP(connect...)},
		{"X-Content-Type-Options", "nosniff"},
		{"X-Frame-Options", "DENY"},
		{"Referrer-Policy", "strict-origin-when-cross-origin"},
	}
}

// webHandler serves the built client from dist, and /config.json: where the
// client finds the Firestore emulator and the project. Every response carries
// WebHeaders with the emulator in connect-src and a Cache-Control; text
// files go gzip-compressed to a client that accepts it (compressed once per
// file version, then from memory). It reports false for paths that are not
// files of the build.
func webHandler(dist, project, firestoreHost string) func(w http.ResponseWriter, r *http.Request) bool {
	cfg, _ := json.Marshal(map[string]string{"projectId": project, "firestoreEmulator": firestoreHost})
	headers := WebHeaders(EmulatorConnect(firestoreHost)...)
	gz := &gzipCache{files: map[string]gzipped{}}
	return func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return false
		}
		if r.URL.Path == "/config.json" {
			setHeaders(w, headers, PageCacheControl)
			w.Header().Set("Content-Type", "application/json")
			w.Write(cfg)
			return true
		}
		rel := filepath.Clean("/" + r.URL.Path)
		if r.URL.Path == "/" {
			rel = "/index.html"
		}
		name := filepath.Join(dist, filepath.FromSlash(rel))
		f, err := os.Open(name)
		if err != nil {
			return false
		}
		defer f.Close()
		info, err := f.Stat()
		if err != nil || info.IsDir() {
			return false
		}
		cache := PageCacheControl
		if strings.HasPrefix(r.URL.Path, "/assets/") {
			cache = AssetsCacheControl // names carry a content hash
		}
		setHeaders(w, headers, cache)
		ctype := mime.TypeByExtension(filepath.Ext(name))
		if ctype == "" {
			ctype = "application/octet-stream" // nosniff: never let the browser guess
		}
		w.Header().Set("Content-Type", ctype)
		if compressible(ctype) {
			w.Header().Add("Vary", "Accept-Encoding")
			if acceptsGzip(r.Header.Get("Accept-Encoding")) {
				if b, ok := gz.get(name, f, info); ok {
					// ServeContent sends no Content-Length for an encoded body, and
					// a byte range of it would be one of the gzip stream: serve it
					// whole, with its length.
					whole := r.Clone(r.Context())
					whole.Header.Del("Range")
					w.Header().Set("Content-Encoding", "gzip")
					w.Header().Set("Content-Length", strconv.Itoa(len(b)))
					http.ServeContent(w, whole, name, info.ModTime(), bytes.NewReader(b))
					return true
				}
			}
		}
		http.ServeContent(w, r, name, info.ModTime(), f)
		return true
	}
}

func setHeaders(w http.ResponseWriter, headers []Header, cache string) {
	for _, h := range headers {
		w.Header().Set(h.Key, h.Value)
	}
	w.Header().Set("Cache-Control", cache)
}

// compressible: text formats gain from gzip; images, fonts and archives are
// compressed already.
func compressible(ctype string) bool {
	t, _, _ := strings.Cut(ctype, ";")
	switch t = strings.TrimSpace(t); {
	case strings.HasPrefix(t, "text/"):
		return true
	case t == "application/javascript", t == "application/json", t == "application/manifest+json",
		t == "application/xml", t == "image/svg+xml", t == "application/wasm":
		return true
	}
	return false
}

// acceptsGzip reports whether an Accept-Encoding header admits gzip (by name
// or through *) with a quality above zero.
func acceptsGzip(header string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		ok := true
		for _, p := range strings.Split(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(k, "q") {
				if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q <= 0 {
					ok = false
				}
			}
		}
		if coding == "*" {
			star = ok
			continue
		}
		return ok
	}
	return star
}

// gzipCache holds each served file's gzip encoding, made on its first request
// and made again only when the file changes (a rebuild while the stack runs).
type gzipCache struct {
	mu    sync.Mutex
	files map[string]gzipped
}

type gzipped struct {
	mod  time.Time
	size int64
	gz   []byte // nil: gzip does not make it smaller
}

func (c *gzipCache) get(name string, f io.Reader, info fs.FileInfo) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.files[name]; ok && e.mod.Equal(info.ModTime()) && e.size == info.Size() {
		return e.gz, e.gz != nil
	}
	raw, err := io.ReadAll(f)
	if err != nil || int64(len(raw)) != info.Size() {
		return nil, false
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	e := gzipped{mod: info.ModTime(), size: info.Size()}
	if buf.Len() < len(raw) {
		e.gz = buf.Bytes()
	}
	c.files[name] = e
	return e.gz, e.gz != nil
}
