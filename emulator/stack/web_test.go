package stack

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
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

// webDist writes a small build: index.html, a script and a stylesheet large
// enough for gzip to pay, and an image.
func webDist(t *testing.T) (dist string, files map[string][]byte) {
	t.Helper()
	dist = t.TempDir()
	if err := os.MkdirAll(filepath.Join(dist, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	files = map[string][]byte{
		"index.html":           []byte(`<!doctype html><script type="module" src="./assets/index-abc.js"></script>` + strings.Repeat("<p>app</p>", 50)),
		"assets/index-abc.js":  []byte(strings.Repeat(`export function f(x){return x+"meeple"}`+"\n", 200)),
		"assets/index-abc.css": []byte(strings.Repeat("body{margin:0}\n", 100)),
		"assets/team-abc.png":  append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 2000)...),
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dist, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dist, files
}

func get(web func(http.ResponseWriter, *http.Request) bool, path, acceptEncoding string) *http.Response {
	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "http://x"+path, nil)
	if acceptEncoding != "" {
		r.Header.Set("Accept-Encoding", acceptEncoding)
	}
	if !web(w, r) {
		return nil
	}
	return w.Result()
}

// TestWebHeaders: the page, an asset and the config all carry the security
// headers; assets are cached for good, the page and the config revalidated.
func TestWebHeaders(t *testing.T) {
	dist, _ := webDist(t)
	web := webHandler(dist, "meeple-local", "127.0.0.1:8080")
	for _, tt := range []struct{ path, cache, ctype string }{
		{"/", PageCacheControl, "text/html"},
		{"/index.html", PageCacheControl, "text/html"},
		{"/config.json", PageCacheControl, "application/json"},
		{"/assets/index-abc.js", AssetsCacheControl, "javascript"},
		{"/assets/index-abc.css", AssetsCacheControl, "text/css"},
		{"/assets/team-abc.png", AssetsCacheControl, "image/png"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			res := get(web, tt.path, "gzip")
			if res == nil || res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: not served (%v)", tt.path, res)
			}
			want := map[string]string{
				"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; " +
					"connect-src 'self' http://127.0.0.1:8080; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
				"X-Content-Type-Options": "nosniff",
				"X-Frame-Options":        "DENY",
				"Referrer-Policy":        "strict-origin-when-cross-origin",
				"Cache-Control":          tt.cache,
			}
			for k, v := range want {
				if got := res.Header.Values(k); len(got) != 1 || got[0] != v {
					t.Errorf("%s: %q, want %q", k, got, v)
				}
			}
			if got := res.Header.Get("Content-Type"); !strings.Contains(got, tt.ctype) {
				t.Errorf("Content-Type %q, want %s", got, tt.ctype)
			}
		})
	}
	// The header values are WebHeaders' (which firebase.json is checked against).
	res := get(web, "/", "")
	for _, h := range WebHeaders(EmulatorConnect("127.0.0.1:8080")...) {
		if got := res.Header.Get(h.Key); got != h.Value {
			t.Errorf("%s: %q, want WebHeaders' %q", h.Key, got, h.Value)
		}
	}
}

// TestWebCSPNamesTheEmulator: connect-src lets the page reach the Firestore
// emulator the stack runs, wherever it is.
func TestWebCSPNamesTheEmulator(t *testing.T) {
	dist, _ := webDist(t)
	res := get(webHandler(dist, "p", "127.0.0.1:43117"), "/", "")
	var connect []string
	for _, d := range strings.Split(res.Header.Get("Content-Security-Policy"), ";") {
		if f := strings.Fields(d); len(f) > 0 && f[0] == "connect-src" {
			connect = f[1:]
		}
	}
	if strings.Join(connect, " ") != "'self' http://127.0.0.1:43117" {
		t.Fatalf("connect-src %q, want 'self' and the emulator http://127.0.0.1:43117", connect)
	}
}

// TestWebGzip: text files go gzip-compressed when asked, decoding to the
// file's bytes, and as they are when not; images never.
func TestWebGzip(t *testing.T) {
	dist, files := webDist(t)
	web := webHandler(dist, "p", "127.0.0.1:8080")
	for _, tt := range []struct {
		path, file, accept string
		gzipped, vary      bool
	}{
		{"/", "index.html", "gzip, deflate, br", true, true},
		{"/assets/index-abc.js", "assets/index-abc.js", "gzip", true, true},
		{"/assets/index-abc.js", "assets/index-abc.js", "br;q=1.0, gzip;q=0.8, *;q=0.1", true, true},
		{"/assets/index-abc.css", "assets/index-abc.css", "*", true, true},
		{"/assets/index-abc.js", "assets/index-abc.js", "", false, true},
		{"/assets/index-abc.js", "assets/index-abc.js", "identity", false, true},
		{"/assets/index-abc.js", "assets/index-abc.js", "gzip;q=0", false, true},
		{"/assets/index-abc.js", "assets/index-abc.js", "br, *;q=0", false, true},
		{"/assets/team-abc.png", "assets/team-abc.png", "gzip", false, false},
	} {
		t.Run(tt.path+" "+tt.accept, func(t *testing.T) {
			for range 2 { // the second from the cache
				res := get(web, tt.path, tt.accept)
				body, _ := io.ReadAll(res.Body)
				if cl := res.Header.Get("Content-Length"); cl != strconv.Itoa(len(body)) {
					t.Errorf("Content-Length %s, want the %d bytes sent", cl, len(body))
				}
				if enc := res.Header.Get("Content-Encoding"); (enc == "gzip") != tt.gzipped || (enc != "" && enc != "gzip") {
					t.Fatalf("Content-Encoding %q, want gzip %v", enc, tt.gzipped)
				}
				if vary := res.Header.Get("Vary"); (vary == "Accept-Encoding") != tt.vary {
					t.Errorf("Vary %q, want Accept-Encoding %v", vary, tt.vary)
				}
				if tt.gzipped {
					if len(body) >= len(files[tt.file]) {
						t.Errorf("gzip body %d bytes, not smaller than the file's %d", len(body), len(files[tt.file]))
					}
					zr, err := gzip.NewReader(bytes.NewReader(body))
					if err != nil {
						t.Fatal(err)
					}
					if body, err = io.ReadAll(zr); err != nil {
						t.Fatal(err)
					}
				}
				if !bytes.Equal(body, files[tt.file]) {
					t.Fatalf("body (decoded) %d bytes differs from %s (%d bytes)", len(body), tt.file, len(files[tt.file]))
				}
			}
		})
	}
}

// TestWebGzipIgnoresRange: a byte range of the gzip stream would be useless
// to a client; a Range request for a compressed file gets all of it.
func TestWebGzipIgnoresRange(t *testing.T) {
	dist, files := webDist(t)
	web := webHandler(dist, "p", "127.0.0.1:8080")
	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "http://x/assets/index-abc.js", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	r.Header.Set("Range", "bytes=0-9")
	web(w, r)
	if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("status %d, Content-Encoding %q; want 200 gzip", w.Code, w.Header().Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(zr); !bytes.Equal(b, files["assets/index-abc.js"]) {
		t.Fatalf("decoded %d bytes, want the whole file (%d)", len(b), len(files["assets/index-abc.js"]))
	}
}

// TestWebGzipFollowsARebuild: a file changed while the stack runs is served
// (and compressed) anew, not from the cache.
func TestWebGzipFollowsARebuild(t *testing.T) {
	dist, _ := webDist(t)
	web := webHandler(dist, "p", "127.0.0.1:8080")
	read := func() string {
		res := get(web, "/", "gzip")
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(zr)
		return string(b)
	}
	read()
	next := strings.Repeat("<p>rebuilt</p>", 40)
	if err := os.WriteFile(filepath.Join(dist, "index.html"), []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(dist, "index.html"), later, later)
	if got := read(); got != next {
		t.Fatalf("after a rebuild: %q, want the new file", got)
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
