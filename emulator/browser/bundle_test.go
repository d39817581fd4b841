package browser

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/meeple-games/meeple/emulator/stack"
)

// The web client's bundle budget (docs/web.md, "Figures"), in bytes. Each
// page is its own chunk, loaded on first use (src/main.ts), so what a
// visitor downloads is one page's chunks, not every page's:
//
//   - per page: the entry chunk plus the page's chunk and every chunk it
//     imports (the Firebase SDK for the pages that read Firestore), gzip
//     (compress/gzip, default level), from Vite's manifest;
//   - the sign-in page, the first a newcomer sees, loads no Firebase SDK;
//   - over every file of web/dist/assets: the JavaScript raw and gzip, and
//     the CSS raw.
//
// Each is about 10 % over the build measured when it was set. A change that
// grows the bundle past one fails TestBundleSize; raise the budget only on
// purpose, in the same change as docs/web.md's figure.
const (
	budgetJS       = 700_000 // measured 612,000 in 17 chunks (460 KB Firebase, 70 KB Auth chunk, pages 3–20 KB each)
	budgetJSGzip   = 220_000 // measured 193,000; 213,300 before the log's inflater (fflate's inflate, 2.1 KB gzip: docs/web.md), 215,500 with it
	budgetCSS      = 11_500  // measured 10,392 (index 3.9 KB, boards 6.5 KB: the fog and the game pages)
	budgetPageGzip = 165_000 // measured ≤ 150,000 (the largest page, with the Firebase chunk)
	budgetSignin   = 12_000  // measured 5,000 gzip: entry + sign-in chunk
)

// TestBundleSize holds the built web client under the budget above. It uses
// the build TestWebClientInChromium uses (stack.BuildWeb rebuilds only when
// web/ changed), so it costs no build of its own. Like that test it needs
// Node.js and is never skipped.
func TestBundleSize(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatalf("building the web client needs Node.js and npm: %v", err)
	}
	web := filepath.Join("..", "..", "web")
	var build bytes.Buffer
	if err := stack.BuildWeb(web, &build); err != nil {
		t.Fatalf("building the web client: %v\n%s", err, build.String())
	}
	dist := filepath.Join(web, "dist")
	sizes := map[string][2]int{} // asset path (assets/x.js) → raw, gzip
	measure := func(rel string) [2]int {
		if s, ok := sizes[rel]; ok {
			return s
		}
		b, err := os.ReadFile(filepath.Join(dist, rel))
		if err != nil {
			t.Fatal(err)
		}
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		sizes[rel] = [2]int{len(b), z.Len()}
		return sizes[rel]
	}
	total := func(pattern string) (raw, gz int) {
		files, err := filepath.Glob(filepath.Join(dist, "assets", pattern))
		if err != nil || len(files) == 0 {
			t.Fatalf("no %s in web/dist/assets (%v)", pattern, err)
		}
		for _, f := range files {
			s := measure(filepath.Join("assets", filepath.Base(f)))
			raw, gz = raw+s[0], gz+s[1]
			t.Logf("%s: %d bytes, %d gzip", filepath.Base(f), s[0], s[1])
		}
		return raw, gz
	}
	js, jsGzip := total("*.js")
	css, _ := total("*.css")
	t.Logf("JS %d bytes (budget %d), %d gzip (budget %d); CSS %d bytes (budget %d)", js, budgetJS, jsGzip, budgetJSGzip, css, budgetCSS)

	pages := pageSizes(t, dist, measure)
	names := make([]string, 0, len(pages))
	for p := range pages {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		t.Logf("page %s: %d bytes of JavaScript, %d gzip (with the entry and every chunk it imports)", p, pages[p][0], pages[p][1])
	}
	checks := []struct {
		what      string
		got, want int
	}{{"JS", js, budgetJS}, {"JS gzip", jsGzip, budgetJSGzip}, {"CSS", css, budgetCSS}, {"sign-in page gzip", pages["signin"][1], budgetSignin}}
	for _, p := range names {
		checks = append(checks, struct {
			what      string
			got, want int
		}{"page " + p + " gzip", pages[p][1], budgetPageGzip})
	}
	for _, c := range checks {
		if c.got > c.want {
			t.Errorf("web bundle %s is %d bytes, over its budget of %d (emulator/browser/bundle_test.go): shrink it, or raise the budget on purpose with docs/web.md's figure", c.what, c.got, c.want)
		}
	}
	for _, want := range []string{"signin", "lobby", "dashdice", "partyboard", "hexdice", "codebowl", "tilerace/page", "spectate"} {
		if _, ok := pages[want]; !ok {
			t.Errorf("no chunk of its own for the page src/pages/%s.ts: main.ts must import() each page", want)
		}
	}
}

// pageSizes reads Vite's manifest and returns, for each page (a dynamic
// entry under src/pages/, named by its path there without .ts), the raw
// and gzip bytes of the JavaScript a visitor of that page loads: the entry
// chunk, the page's chunk and every chunk they import, each once.
func pageSizes(t *testing.T, dist string, measure func(string) [2]int) map[string][2]int {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dist, ".vite", "manifest.json"))
	if err != nil {
		t.Fatalf("no Vite manifest (vite.config.ts sets build.manifest): %v", err)
	}
	var manifest map[string]struct {
		File           string   `json:"file"`
		IsEntry        bool     `json:"isEntry"`
		IsDynamicEntry bool     `json:"isDynamicEntry"`
		Imports        []string `json:"imports"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatal(err)
	}
	var entry string
	for k, c := range manifest {
		if c.IsEntry {
			entry = k
		}
	}
	out := map[string][2]int{}
	for k, c := range manifest {
		if !c.IsDynamicEntry || !strings.HasPrefix(k, "src/pages/") {
			continue
		}
		seen := map[string]bool{}
		var sum [2]int
		var walk func(key string)
		walk = func(key string) {
			if seen[key] {
				return
			}
			seen[key] = true
			ch, ok := manifest[key]
			if !ok {
				t.Fatalf("manifest: %s imports %s, not in the manifest", k, key)
			}
			s := measure(ch.File)
			sum[0], sum[1] = sum[0]+s[0], sum[1]+s[1]
			for _, i := range ch.Imports {
				walk(i)
			}
		}
		walk(entry)
		walk(k)
		out[strings.TrimSuffix(strings.TrimPrefix(k, "src/pages/"), ".ts")] = sum
	}
	return out
}
