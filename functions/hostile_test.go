package functions_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"
	"google.golang.org/api/iterator"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/domain/partyboard"
	"github.com/meeple-games/meeple/games"
)

// The hostile table (issue 23): for every field of every action of every
// registered game — each field its ActionDocs payload declares, nested
// objects', list items' and map entries' included, the platform fields it
// lists, and the envelope's — a table of values an attacker tries, each sent
// over HTTP to the game's function against a real game. Every one must be
// refused with a 4xx whose message names the field, in a reply of at most
// 1 KB, never a 5xx, and no document may change. A value the field's
// declared kind accepts (a "/" in a team name) is not sent to it: the kinds
// themselves are held by domain/fields_test.go. A new action or field is
// covered without anyone writing a test for it.

// hostileField is one field the table is sent to.
type hostileField struct {
	// path is where the value goes, as DescribeFields writes it ("[]": a
	// list's item, "players[].image"), a map's entry by a key it takes
	// ("slots.1"); key: the value is a key of the map at path.
	path     string
	key      bool
	kind     *domain.FieldKind // nil: a boolean or an object
	object   bool
	platform bool // read by the platform (envelope, seed, roomCode, password)
	// holder is the list or map holding the value (a decoder's type error
	// names it rather than the item).
	holder string
}

// hostileValue is one value of the table, as JSON.
type hostileValue struct{ name, json string }

func jstr(s string) string { b, _ := json.Marshal(s); return string(b) }

// stringKind reports a kind whose values are JSON strings.
func stringKind(k *domain.FieldKind) bool {
	if k == nil {
		return false
	}
	switch k.Kind {
	case "id", "url", "text", "longtext":
		return true
	case "enum":
		for _, e := range k.Enum {
			if _, err := strconv.Atoi(e); err != nil {
				return true
			}
		}
	}
	return false
}

func intKind(k *domain.FieldKind) bool {
	return k != nil && (k.Kind == "int" || k.Kind == "coord" || (k.Kind == "enum" && !stringKind(k)))
}

// deep is JSON nested n deep.
func deepArray(n int) string  { return strings.Repeat("[", n) + strings.Repeat("]", n) }
func deepObject(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }

// hostileValues are the values sent to f: the whole table, less what its
// kind accepts.
func hostileValues(f hostileField) []hostileValue {
	k := f.kind
	var out []hostileValue
	add := func(name, j string) { out = append(out, hostileValue{name, j}) }
	// Strings: refused by every kind but text (which takes "/", "..",
	// "__x__", quotes and spaces), long text (newlines too) and ids (spaces:
	// clients make action ids from what they do).
	textOK := map[string]bool{}
	if k != nil && (k.Kind == "id" || (k.Kind == "json" && k.OrID)) {
		textOK["space"] = true
	}
	if k != nil && (k.Kind == "text" || k.Kind == "longtext") {
		for _, n := range []string{"slash", "dot-dot", "reserved", "quotes and angle brackets", "space"} {
			textOK[n] = true
		}
		if k.Kind == "longtext" {
			textOK["newline"] = true
		}
	}
	limit := 5000
	if k != nil && (k.Kind == "id" || k.Kind == "url" || k.Kind == "text" || k.Kind == "longtext") {
		limit = int(k.Max) + 1
	}
	for _, v := range []hostileValue{
		{"too long", jstr(strings.Repeat("x", limit))},
		{"slash", jstr("a/b")},
		{"dot-dot", jstr("..")},
		{"reserved", jstr("__x__")},
		{"control characters", jstr("a\x00b\x07c")},
		{"bidi override", jstr("a\u202eb")},
		{"quotes and angle brackets", jstr(`a"'<>b`)},
		{"newline", jstr("a\nb")},
		{"space", jstr("a b")},
	} {
		if !textOK[v.name] {
			add(v.name, v.json)
		}
	}
	// Numbers: the wrong type for all but integers, out of range for those.
	if intKind(k) {
		lo, hi := k.Min-1, k.Max+1
		if k.Kind == "enum" {
			lo, hi = -1, 1<<20
			for _, e := range k.Enum {
				n, _ := strconv.ParseInt(e, 10, 64)
				hi = max(hi, n+1)
			}
			add("zero", "0")
		}
		add("below the range", strconv.FormatInt(lo, 10))
		add("above the range", strconv.FormatInt(hi, 10))
	} else {
		add("negative", "-1")
		add("a number", "7")
	}
	add("huge", "1e300")
	add("huge negative", "-1e300")
	add("1e400", "1e400")
	add("past int64", "9223372036854775808")
	add("fraction", "1.5")
	add("a number as a string", jstr("1"))
	add("true", "true")
	add("an object", "{}")
	add("an array", "[]")
	add("deep arrays", deepArray(200))
	add("deep objects", deepObject(200))

	// Drop what the field's kind takes; a map's key is a string.
	keep := out[:0]
	for _, v := range out {
		if accepts(f, v) || (f.key && !strings.HasPrefix(v.json, `"`)) {
			continue
		}
		if f.key && k.Kind == "enum" && slices.Contains(k.Enum, strings.Trim(v.json, `"`)) {
			continue
		}
		keep = append(keep, v)
	}
	out = keep
	// A list: one item more than its maximum.
	if k != nil && k.Kind == "list" {
		item := "{}"
		if k.Elem != nil {
			item = validOf(*k.Elem)
		}
		items := make([]string, k.Max+1)
		for i := range items {
			items[i] = item
		}
		out = append(out, hostileValue{"too many items", "[" + strings.Join(items, ",") + "]"})
	}
	return out
}

// accepts reports whether the kind of f takes v (it is then not sent).
func accepts(f hostileField, v hostileValue) bool {
	k := f.kind
	str := strings.HasPrefix(v.json, `"`)
	switch {
	case k == nil && !f.object: // a boolean
		return v.json == "true"
	case k == nil: // an object: {} is one, and a nested unknown key is named by itself
		return v.json == "{}" || v.name == "deep objects"
	case k.Kind == "list":
		return v.json == "[]"
	case k.Kind == "map":
		return v.json == "{}"
	case k.Kind == "json":
		return v.json == "{}" || (k.OrID && v.name == "a number as a string")
	case stringKind(k) || f.key:
		return str && v.name == "a number as a string" && k.Kind != "enum" && k.Kind != "url"
	}
	return false
}

// validOf is a JSON value kind k accepts.
func validOf(k domain.FieldKind) string {
	switch k.Kind {
	case "enum":
		if stringKind(&k) {
			return jstr(k.Enum[0])
		}
		return k.Enum[0]
	case "int", "coord":
		return strconv.FormatInt(k.Min, 10)
	case "url":
		return jstr("https://x.example/a.png")
	}
	return jstr("a")
}

// bodyAt sets the field at path (as DescribeFields writes it, "[]" for a
// list's items, ".*" for a map's values) to v in body.
func bodyAt(body map[string]any, path string, v json.RawMessage) {
	segs := strings.Split(path, ".")
	var cur any = body
	set := func(container any, key string, val any) any {
		m := container.(map[string]any)
		if existing, ok := m[key]; ok && val == nil {
			return existing
		}
		m[key] = val
		return val
	}
	for i, seg := range segs {
		last := i == len(segs)-1
		name, list := strings.CutSuffix(seg, "[]")
		var leaf any = v
		if !last {
			leaf = map[string]any{}
		}
		if list {
			item := leaf
			set(cur, name, []any{item})
			cur = item
			continue
		}
		set(cur, name, leaf)
		cur = leaf
	}
}

// fieldsOf lists what the table is sent to for one action: its payload's
// fields (nested ones, list items and map entries included) and its
// platform fields.
func fieldsOf(d domain.ActionDoc) []hostileField {
	var out []hostileField
	for _, f := range d.Platform {
		k := platformKind(f.Name)
		out = append(out, hostileField{path: f.Name, kind: k, platform: true})
	}
	for _, f := range domain.DescribeFields(d.Payload) {
		holder, _, _ := strings.Cut(f.Path, "[]")
		if holder == f.Path {
			holder = ""
		}
		out = append(out, hostileField{path: f.Path, kind: f.Kind, object: f.Object, holder: holder})
		if f.Kind == nil {
			continue
		}
		switch {
		case f.Kind.Kind == "list" && f.Kind.Elem != nil:
			out = append(out, hostileField{path: f.Path + "[]", kind: f.Kind.Elem, holder: f.Path})
		case f.Kind.Kind == "map":
			key := "k1"
			if f.Kind.Key.Kind == "enum" {
				key = f.Kind.Key.Enum[0]
			}
			out = append(out, hostileField{path: f.Path, key: true, kind: f.Kind.Key, holder: f.Path})
			if f.Kind.Elem != nil {
				out = append(out, hostileField{path: f.Path + "." + key, kind: f.Kind.Elem, holder: f.Path})
			}
		}
	}
	return out
}

// label names a field in the test's output.
func (f hostileField) label() string {
	if f.key {
		return f.path + " key"
	}
	return f.path
}

func platformKind(name string) *domain.FieldKind {
	for _, f := range domain.DescribeFields(domain.PlatformRequest{}) {
		if f.Path == name {
			return f.Kind
		}
	}
	return nil
}

// names are the ways a message may name field f: as the checker writes it
// ("players[0].image", "slots key"), as the JSON decoder does
// ("players.image"), or, for a list's item or a map's entry whose type is
// wrong, the list or map holding it (the decoder names only that).
func (f hostileField) names() []string {
	out := []string{strings.ReplaceAll(f.path, "[]", "[0]"), strings.ReplaceAll(f.path, "[]", "")}
	if f.key {
		out = []string{f.path + " key"}
	}
	if f.holder != "" && !f.key {
		out = append(out, strings.ReplaceAll(f.holder, "[]", ""))
	}
	return out
}

func namesField(msg string, f hostileField) bool {
	for _, n := range f.names() {
		if regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(n) + `($|[^A-Za-z0-9_])`).MatchString(msg) {
			return true
		}
	}
	return false
}

// hostileCase is one request of the table.
type hostileCase struct {
	action, value string
	field         hostileField
	body          []byte
}

type hostileResult struct {
	hostileCase
	status  int
	reply   []byte
	elapsed time.Duration
}

// fingerprint is every document of the project with its update time.
func fingerprint(t *testing.T, fs *firestore.Client) map[string]time.Time {
	t.Helper()
	ctx := context.Background()
	out := map[string]time.Time{}
	var walk func(cols *firestore.CollectionIterator)
	walk = func(cols *firestore.CollectionIterator) {
		for {
			col, err := cols.Next()
			if err == iterator.Done {
				return
			}
			require.NoError(t, err)
			refs := col.DocumentRefs(ctx)
			for {
				ref, err := refs.Next()
				if err == iterator.Done {
					break
				}
				require.NoError(t, err)
				snap, err := ref.Get(ctx)
				if err == nil {
					out[ref.Path] = snap.UpdateTime
				}
				walk(ref.Collections(ctx))
			}
		}
	}
	walk(fs.Collections(ctx))
	return out
}

// hostileTarget is a real game of a kind, and a session that plays it.
type hostileTarget struct {
	gameID, token string
}

func TestHostileFields(t *testing.T) {
	s := newStack(t)
	s.srv.SessionCache = time.Minute // the table measures the decoder, not session reads

	// A real game of every kind, and a session of a player of it.
	alice, bob := s.guest("Alice"), s.guest("Bob")
	targets := map[string]hostileTarget{}
	targets["dashdice"] = hostileTarget{newMatch(s, "classic", 0, alice, bob).id, alice.Token}
	pb := newPBGame(s, "hostile", nil, "Pia", "Pat")
	targets["partyboard"] = hostileTarget{pb.id, pb.players[0].Token}
	race := newRace(t, s, 1, true)
	targets["tilerace"] = hostileTarget{race.id, race.master}
	hex := newHexGame(s, alice, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating}, "hostile-hex")
	hex.join(bob)
	targets["hexdice"] = hostileTarget{hex.id, alice.Token}
	ann, ben := s.cbCoach("hostile_ann"), s.cbCoach("hostile_ben")
	reds, blues := s.cbTeam(ann, "t1", cbSpec("Reds", 4, 4, 4)), s.cbTeam(ben, "t2", cbSpec("Blues", 4, 4, 4))
	targets["codebowl"] = hostileTarget{s.cbMatchOf(ann, ben, reds, blues, nil), ann.Token}

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	send := func(fn, token string, c hostileCase) hostileResult {
		req, err := http.NewRequest(http.MethodPost, s.url+"/"+fn, bytes.NewReader(c.body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+token)
		start := time.Now()
		resp, err := client.Do(req)
		require.NoError(t, err)
		reply, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		return hostileResult{hostileCase: c, status: resp.StatusCode, reply: reply, elapsed: time.Since(start)}
	}

	var (
		totalFields, totalValues int
		statuses                 = map[int]int{}
		perField                 = map[int]int{} // values per field → fields
		slowest                  []hostileResult
	)
	for _, e := range games.All() {
		target, ok := targets[e.Kind()]
		require.True(t, ok, "a target game of kind %s: add one", e.Kind())
		var cases []hostileCase
		n := 0
		build := func(action, typ string, f hostileField, v hostileValue) {
			n++
			body := map[string]any{"gameId": target.gameID, "actionId": fmt.Sprint("hostile-", n), "type": typ}
			switch {
			case f.platform:
				body[f.path] = json.RawMessage(v.json)
			case f.key:
				var key string
				require.NoError(t, json.Unmarshal([]byte(v.json), &key))
				bodyAt(body, f.path, json.RawMessage(`{`+jstr(key)+`:""}`))
			default:
				bodyAt(body, f.path, json.RawMessage(v.json))
			}
			raw, err := json.Marshal(body)
			require.NoError(t, err)
			cases = append(cases, hostileCase{action: action, field: f, value: v.name, body: raw})
		}
		docs := e.Game.(domain.ActionDocer).ActionDocs()
		// The envelope, once per game (with its first action).
		for _, f := range []string{"gameId", "actionId", "version", "type"} {
			hf := hostileField{path: f, kind: platformKind(f), platform: true}
			if f == "type" {
				hf.kind = &domain.FieldKind{Kind: "id", Max: 64}
			}
			values := hostileValues(hf)
			perField[len(values)]++
			totalFields++
			for _, v := range values {
				build("envelope", docs[0].Type, hf, v)
			}
		}
		for _, d := range docs {
			for _, f := range fieldsOf(d) {
				values := hostileValues(f)
				perField[len(values)]++
				totalFields++
				for _, v := range values {
					build(d.Type, d.Type, f, v)
				}
			}
		}
		totalValues += len(cases)

		before := fingerprint(t, s.store.FS)
		results := make([]hostileResult, len(cases))
		var wg sync.WaitGroup
		next := make(chan int)
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					results[i] = send(e.Function, target.token, cases[i])
				}
			}()
		}
		for i := range cases {
			next <- i
		}
		close(next)
		wg.Wait()
		after := fingerprint(t, s.store.FS)

		t.Run(e.Kind(), func(t *testing.T) {
			require.Equal(t, before, after, "no document changed")
			byAction := map[string]map[string][]hostileResult{}
			var order []string
			for _, r := range results {
				statuses[r.status]++
				if byAction[r.action] == nil {
					byAction[r.action] = map[string][]hostileResult{}
					order = append(order, r.action)
				}
				byAction[r.action][r.field.label()] = append(byAction[r.action][r.field.label()], r)
			}
			for _, action := range order {
				t.Run(action, func(t *testing.T) {
					fields := byAction[action]
					keys := make([]string, 0, len(fields))
					for k := range fields {
						keys = append(keys, k)
					}
					sort.Strings(keys)
					for _, field := range keys {
						t.Run(field, func(t *testing.T) {
							for _, r := range fields[field] {
								var out functionsError
								require.NoError(t, json.Unmarshal(r.reply, &out), "%s: %s", r.value, r.reply)
								require.True(t, r.status >= 400 && r.status < 500, "%s = %s: status %d, %s", field, r.value, r.status, r.reply)
								require.LessOrEqual(t, len(r.reply), 1024, "%s = %s: a reply of %d bytes", field, r.value, len(r.reply))
								require.True(t, namesField(out.Error.Message, r.field), "%s = %s: %q does not name the field", field, r.value, out.Error.Message)
							}
						})
					}
				})
			}
		})
		// The slowest request of each action.
		worst := map[string]hostileResult{}
		for _, r := range results {
			if w, ok := worst[r.action]; !ok || r.elapsed > w.elapsed {
				worst[r.action] = r
			}
		}
		for _, r := range worst {
			r.action = e.Kind() + " " + r.action
			slowest = append(slowest, r)
		}
	}
	sort.Slice(slowest, func(i, j int) bool { return slowest[i].elapsed > slowest[j].elapsed })
	counts := make([]string, 0, len(perField))
	for n, f := range perField {
		counts = append(counts, fmt.Sprintf("%d fields × %d values", f, n))
	}
	slices.Sort(counts)
	t.Logf("%d fields, %d hostile requests (%s); statuses %v", totalFields, totalValues, strings.Join(counts, ", "), statuses)
	for _, r := range slowest[:min(8, len(slowest))] {
		t.Logf("slowest: %-28s %6.1f ms (%s = %s)", r.action, float64(r.elapsed.Microseconds())/1000, r.field.label(), r.value)
	}
}

type functionsError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// TestHostileTableCoversEveryKind: the table sends something to every kind
// a field may declare, and its bodies put the value where the path says.
func TestHostileTableCoversEveryKind(t *testing.T) {
	t.Parallel()
	body := map[string]any{}
	bodyAt(body, "orders.troops[].move.q", json.RawMessage("5"))
	raw, _ := json.Marshal(body)
	require.JSONEq(t, `{"orders":{"troops":[{"move":{"q":5}}]}}`, string(raw))
	body = map[string]any{}
	bodyAt(body, "slots.1", json.RawMessage(`"x"`))
	raw, _ = json.Marshal(body)
	require.JSONEq(t, `{"slots":{"1":"x"}}`, string(raw))
	require.True(t, namesField(`field "orders.troops.move.q" must be a whole number`, hostileField{path: "orders.troops[].move.q", holder: "orders.troops"}))
	require.True(t, namesField(`players[0].image must be an https URL`, hostileField{path: "players[].image", holder: "players"}))
	require.True(t, namesField(`field "members" must be a string`, hostileField{path: "members[]", holder: "members"}))
	require.False(t, namesField(`unknown field "a"`, hostileField{path: "q"}))
	require.False(t, namesField(`quality must be …`, hostileField{path: "q"}))
	for _, tag := range []string{"id", "enum=a|b", "int,min=0,max=9", "coord", "url", "text,max=5", "longtext,max=5", "json", "json,orid"} {
		k, err := domain.ParseFieldKind(tag)
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(hostileValues(hostileField{path: "f", kind: &k})), 10, tag)
	}
}

// TestHeartbeatFloodBumpsOnce: 20 heartbeats of one player at once are all
// accepted, and together bump the game's version at most once (a heartbeat
// within hexdice.HeartbeatQuiet of the player's last one writes nothing), so
// they cannot make the opponent's version-guarded actions stale.
func TestHeartbeatFloodBumpsOnce(t *testing.T) {
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	g := newHexGame(s, alice, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating}, "flood")
	g.join(bob)
	for _, wait := range []time.Duration{0, hexdice.HeartbeatQuiet + time.Second} {
		s.advance(wait)
		_, v0 := g.state()
		var wg sync.WaitGroup
		codes := make([]int, 20)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i], _ = s.post(alice.Token, "HexDice", map[string]any{"gameId": g.id, "actionId": fmt.Sprint("beat-", wait, "-", i), "type": "heartbeat"})
			}()
		}
		wg.Wait()
		_, v1 := g.state()
		for _, c := range codes {
			require.Equal(t, http.StatusOK, c)
		}
		bumps := int64(0)
		if wait > 0 {
			bumps = 1 // the first past the quiet time is a step; the rest are quiet
		}
		require.Equal(t, v0+bumps, v1, "20 heartbeats %s after the last: %d version(s)", wait, v1-v0)
	}
}

// neverEnds is a valid Party Board file whose games never end: every tile
// between the start and the goal sends the player back to the start.
func neverEnds(tiles int) string {
	var out []string
	out = append(out, `{"rule":{"type":"DisplayRule","displayText":"start"},"position":[{"x":1,"y":2}]}`)
	for i := 1; i < tiles-1; i++ {
		out = append(out, `{"rule":{"type":"MoveRule","displayText":"back","playerTarget":"self","tileIndex":0},"position":[{"x":1,"y":2}]}`)
	}
	out = append(out, `{"rule":{"type":"GameOverRule","displayText":"win"},"position":[{"x":0,"y":0}]}`)
	return `{"tiles":[` + strings.Join(out, ",") + `],"zones":[{"name":"Z","type":"active","rule":{"type":"DisplayRule","displayText":"z"}}]}`
}

// TestSimulateBoardIsBounded: the heaviest simulateBoard a guest may send —
// the most games of 12 players the budget allows, on a board whose games
// never end — answers 200 with every game it played reported stalled, in
// about the time of the heaviest real simulation; three at once all answer
// 200 (never 503: a simulation is no contention, and on a machine too busy
// to finish them within the request's compute time they stop early and say
// so: cut); one game more is 400 naming games and players. Times are logged
// (the machine is shared; the bound asserted is loose).
func TestSimulateBoardIsBounded(t *testing.T) {
	s := newStack(t)
	guest := s.guest("Gus")
	most := partyboard.SimBudget / partyboard.SimStepCap(partyboard.MaxPlayers)
	sim := func(id, board string, games int) (int, map[string]any, time.Duration) {
		start := time.Now()
		code, out := s.post(guest.Token, "PartyBoard", `{"actionId":"`+id+`","type":"simulateBoard","games":`+strconv.Itoa(games)+`,"players":12,"board":`+board+`}`)
		return code, out, time.Since(start)
	}
	code, out, took := sim("never", neverEnds(8), most)
	require.Equal(t, http.StatusOK, code, "%v", out)
	res := out["result"].(map[string]any)
	require.Equal(t, res["games"], res["stalled"], "every game played stalls")
	require.EqualValues(t, partyboard.SimStepCap(12), res["maxSteps"])
	t.Logf("%d games × 12 players on a board that never ends: %v played (cut: %v), %s", most, res["games"], res["cut"], took)
	// A hang guard only: the work is bounded by steps (stalled, maxSteps
	// above), and a loaded machine takes longer; the time is logged.
	require.Less(t, took, time.Minute)

	code, out, took = sim("gen1", `"pokemon-gen1"`, most)
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.EqualValues(t, 0, out["result"].(map[string]any)["stalled"])
	t.Logf("%d games × 12 players on pokemon-gen1: %v played, %s", most, out["result"].(map[string]any)["games"], took)

	var wg sync.WaitGroup
	took3 := make([]time.Duration, 3)
	codes := make([]int, 3)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _, took3[i] = sim(fmt.Sprint("three-", i), neverEnds(8), most)
		}()
	}
	wg.Wait()
	require.Equal(t, []int{200, 200, 200}, codes)
	t.Logf("three at once: %v", took3)

	// Out of compute time at once: the first game is played, and the
	// report says it was cut short.
	s.store.ComputeBudget = time.Nanosecond
	code, out, _ = sim("cut", `"pokemon-gen1"`, most)
	require.Equal(t, http.StatusOK, code, "%v", out)
	res = out["result"].(map[string]any)
	require.Equal(t, true, res["cut"], "%v", res)
	require.EqualValues(t, 1, res["games"])
	s.store.ComputeBudget = 0

	code, out, _ = sim("over", `"pokemon-gen1"`, most+1)
	require.Equal(t, http.StatusBadRequest, code, "%v", out)
	require.Contains(t, out["error"].(map[string]any)["message"], "games × players")
}
