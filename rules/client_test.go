package rules

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/meeple-games/meeple/store/storetest"
)

// rulesFile is the rules under test, relative to this package.
const rulesFile = "../firestore.rules"

// caller is who calls the emulator: anonymous (no token) or a Firebase user.
type caller struct {
	name   string
	uid    string         // empty: anonymous, no Authorization header
	claims map[string]any // custom claims, at the top level of the token
}

func (c caller) anonymous() bool { return c.uid == "" }

// Callers every table runs. Ids match the seeded documents.
var (
	anon   = caller{name: "anonymous"}
	alice  = caller{name: "alice", uid: "p1", claims: map[string]any{"role": "guest", "name": "Alice"}}
	bob    = caller{name: "bob", uid: "p2", claims: map[string]any{"role": "player", "name": "Bob"}}
	team   = caller{name: "team", uid: "team-g1-t1", claims: map[string]any{"role": "team", "game": "g1", "team": "t1", "name": "Red"}}
	admin  = caller{name: "admin", uid: "admin-g1-a1", claims: map[string]any{"role": "admin", "game": "g1", "name": "Ann"}}
	master = caller{name: "master", uid: "master-g1", claims: map[string]any{"role": "master", "game": "g1", "name": "Max"}}
	// A signed-in user whose claims try to pass as someone else: uid is
	// authoritative, claims that name another player grant nothing.
	spoof = caller{name: "spoof", uid: "p3", claims: map[string]any{"role": "master", "uid": "p1", "name": "p1"}}

	everyone = []caller{anon, alice, bob, team, admin, master, spoof}
	signedIn = []caller{alice, bob, team, admin, master, spoof}
)

// token is an unsigned Firebase ID token for c in project, as the emulator
// accepts: header {"alg":"none"}, an empty signature (a trailing dot).
func (c caller) token(t testing.TB, project string) string {
	t.Helper()
	now := time.Now().Unix()
	payload := map[string]any{
		"iss":       "https://securetoken.google.com/" + project,
		"aud":       project,
		"sub":       c.uid,
		"user_id":   c.uid,
		"iat":       now,
		"auth_time": now,
		"exp":       now + 3600,
		"firebase":  map[string]any{"sign_in_provider": "custom", "identities": map[string]any{}},
	}
	for k, v := range c.claims {
		if _, taken := payload[k]; !taken {
			payload[k] = v
		}
	}
	enc := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("token: %v", err)
		}
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return enc(map[string]any{"alg": "none", "typ": "JWT"}) + "." + enc(payload) + "."
}

// env is one project on the emulator with the rules under test loaded.
type env struct {
	project string
	base    string // .../v1/projects/{p}/databases/(default)/documents
}

// readRules returns the rules under test.
func readRules(t testing.TB) string {
	t.Helper()
	src, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatalf("read rules: %v", err)
	}
	return string(src)
}

// newEnv makes a fresh project and loads ../firestore.rules into it.
func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvWith(t, readRules(t))
}

// newEnvWith makes a fresh project and loads the rules source into it.
func newEnvWith(t *testing.T, source string) *env {
	t.Helper()
	project := storetest.Project(t)
	if err := storetest.Admin(project).LoadRules(source); err != nil {
		t.Fatalf("load rules: %v", err)
	}
	return &env{
		project: project,
		base:    "http://" + storetest.EmulatorHost() + "/v1/projects/" + project + "/databases/(default)/documents",
	}
}

// issue is a problem the rules compiler reports (errors and warnings).
type issue struct {
	Description    string `json:"description"`
	Severity       string `json:"severity"`
	SourcePosition struct {
		Line   int `json:"line"`
		Column int `json:"column"`
	} `json:"sourcePosition"`
}

func (i issue) String() string {
	return fmt.Sprintf("%d:%d: %s: %s", i.SourcePosition.Line, i.SourcePosition.Column, i.Severity, i.Description)
}

// compile loads source into a fresh project the way fsemu.Admin.LoadRules
// does, but keeps the compiler's answer: fsemu drops the warnings, which the
// emulator returns with a 200.
func compile(t testing.TB, source string) (status int, issues []issue) {
	t.Helper()
	body, err := json.Marshal(map[string]any{"rules": map[string]any{"files": []any{map[string]any{"content": source}}}})
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + storetest.EmulatorHost() + "/emulator/v1/projects/" + storetest.Project(t) + ":securityRules"
	req, err := http.NewRequest(http.MethodPut, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("load rules: %v", err)
	}
	defer resp.Body.Close()
	var out struct {
		Issues []issue `json:"issues"`
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("load rules: decode %q: %v", b, err)
		}
	}
	return resp.StatusCode, out.Issues
}

// reply is what the emulator answered.
type reply struct {
	status int
	body   []byte
}

// errStatus is the canonical error status of an error reply
// (e.g. "PERMISSION_DENIED"), also when it is streamed inside a runQuery array.
func (r reply) errStatus() string {
	var one struct {
		Error struct{ Status string } `json:"error"`
	}
	if json.Unmarshal(r.body, &one) == nil && one.Error.Status != "" {
		return one.Error.Status
	}
	var many []struct {
		Error struct{ Status string } `json:"error"`
	}
	if json.Unmarshal(r.body, &many) == nil {
		for _, m := range many {
			if m.Error.Status != "" {
				return m.Error.Status
			}
		}
	}
	return ""
}

// allowed says whether the emulator let the request through.
func (r reply) allowed() bool { return r.status == http.StatusOK && r.errStatus() == "" }

// denied says whether the emulator refused the request on the rules.
func (r reply) denied() bool {
	return r.status == http.StatusForbidden && r.errStatus() == "PERMISSION_DENIED"
}

func (r reply) String() string {
	b := strings.TrimSpace(string(r.body))
	if len(b) > 300 {
		b = b[:300] + "…"
	}
	return fmt.Sprintf("%d %s", r.status, b)
}

// call sends one REST request as c; rel is relative to the documents root and
// may start with ":" (":runQuery", ":commit") or "/".
func (e *env) call(t testing.TB, c caller, method, rel string, body any) reply {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		r = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, e.base+rel, r)
	if err != nil {
		t.Fatalf("request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if !c.anonymous() {
		req.Header.Set("Authorization", "Bearer "+c.token(t, e.project))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, rel, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, rel, err)
	}
	return reply{status: resp.StatusCode, body: b}
}

// get reads one document (a "get" in rules terms).
func (e *env) get(t testing.TB, c caller, path string) reply {
	t.Helper()
	return e.call(t, c, http.MethodGet, "/"+path, nil)
}

// listDocs lists a collection with the List method (a "list" in rules terms).
func (e *env) listDocs(t testing.TB, c caller, collection string) reply {
	t.Helper()
	return e.call(t, c, http.MethodGet, "/"+collection, nil)
}

// query runs a structured query over collection (a "list" in rules terms);
// with group set it is a collection-group query over every collection of that
// id under the root.
func (e *env) query(t testing.TB, c caller, collection string, group bool) reply {
	t.Helper()
	parent, id := splitCollection(collection)
	rel := ":runQuery"
	if parent != "" {
		rel = "/" + parent + ":runQuery"
	}
	from := map[string]any{"collectionId": id}
	if group {
		from["allDescendants"] = true
	}
	return e.call(t, c, http.MethodPost, rel, map[string]any{
		"structuredQuery": map[string]any{"from": []any{from}, "limit": 10},
	})
}

// queryByName runs a query over collection for the one document at path
// (a filter on __name__): still a "list" in rules terms.
func (e *env) queryByName(t testing.TB, c caller, collection, path string) reply {
	t.Helper()
	parent, id := splitCollection(collection)
	rel := ":runQuery"
	if parent != "" {
		rel = "/" + parent + ":runQuery"
	}
	return e.call(t, c, http.MethodPost, rel, map[string]any{
		"structuredQuery": map[string]any{
			"from": []any{map[string]any{"collectionId": id}},
			"where": map[string]any{"fieldFilter": map[string]any{
				"field": map[string]any{"fieldPath": "__name__"},
				"op":    "EQUAL",
				"value": map[string]any{"referenceValue": "projects/" + e.project + "/databases/(default)/documents/" + path},
			}},
		},
	})
}

// splitCollection splits "games/g1/events" into "games/g1" and "events".
func splitCollection(path string) (parent, id string) {
	i := strings.LastIndex(path, "/")
	if i < 0 {
		return "", path
	}
	return path[:i], path[i+1:]
}

// fields is a small document body in the REST encoding.
func fields() map[string]any {
	return map[string]any{"fields": map[string]any{
		"hacked": map[string]any{"booleanValue": true},
		"status": map[string]any{"stringValue": "over"},
	}}
}

// create makes a new document in collection with the Create method.
func (e *env) create(t testing.TB, c caller, collection, id string) reply {
	t.Helper()
	return e.call(t, c, http.MethodPost, "/"+collection+"?documentId="+id, fields())
}

// patch writes path with the Patch method (an update, or a create when the
// document does not exist).
func (e *env) patch(t testing.TB, c caller, path string) reply {
	t.Helper()
	return e.call(t, c, http.MethodPatch, "/"+path, fields())
}

// remove deletes path with the Delete method.
func (e *env) remove(t testing.TB, c caller, path string) reply {
	t.Helper()
	return e.call(t, c, http.MethodDelete, "/"+path, nil)
}

// commit writes path in a batch through the Commit method, as the web SDK's
// set() and batched writes do (the rules see it as a create or an update).
func (e *env) commit(t testing.TB, c caller, path string) reply {
	t.Helper()
	name := "projects/" + e.project + "/databases/(default)/documents/" + path
	w := fields()
	w["name"] = name
	return e.call(t, c, http.MethodPost, ":commit", map[string]any{
		"writes": []any{map[string]any{"update": w}},
	})
}

// contains reports whether cs holds c.
func contains(cs []caller, c caller) bool {
	for _, x := range cs {
		if x.name == c.name {
			return true
		}
	}
	return false
}
