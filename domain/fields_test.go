package domain

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

type fPlayer struct {
	Name  string `json:"name" field:"text,max=10"`
	Image string `json:"image" field:"url"`
	ST    int    `json:"st" field:"int,min=1,max=6"`
	Dead  bool   `json:"dead"`
}

type fHex struct {
	Q int `json:"q" field:"coord"`
	R int `json:"r" field:"coord"`
}

type fRequest struct {
	Team    string            `json:"team" field:"id"`
	Size    string            `json:"size" field:"enum=small|medium|large"`
	Call    string            `json:"call" field:"enum=odd|even,fold"`
	Timer   *int              `json:"timer" field:"enum=60|90|120"`
	Notes   string            `json:"notes" field:"longtext,max=20"`
	Home    string            `json:"home" field:"url,http"`
	Members []string          `json:"members" field:"list,max=3" elem:"text,max=5"`
	Players []fPlayer         `json:"players" field:"list,max=2"`
	Hooks   map[string]string `json:"hooks" field:"map,max=2" key:"enum=1|2|3" elem:"url"`
	File    json.RawMessage   `json:"file" field:"json,orid"`
	At      *fHex             `json:"at"`
	fHex
	Submit bool `json:"submit"`
}

func TestFieldKindsRefuseWhatTheyDeclare(t *testing.T) {
	long := strings.Repeat("x", 5000)
	deep := strings.Repeat("[", 40) + strings.Repeat("]", 40)
	tests := []struct {
		name, payload string
		want          string // "" accepted; else the message's start
	}{
		{"all good", `{"team":"t-1","size":"small","call":" ODD ","timer":90,"notes":"a\nb\tc","home":"http://x.example/a.png",
			"members":["ann","bo"],"players":[{"name":"A/B <3","image":"https://i.example/p.png","st":3,"dead":true}],
			"hooks":{"1":"https://h.example/1"},"file":{"tiles":[]},"at":{"q":-5,"r":7},"q":1,"r":-1000,"submit":true}`, ""},
		{"empty strings are not given", `{"team":"","size":"","home":"","file":""}`, ""},
		{"null is not given", `{"team":null,"players":null,"at":null,"timer":null}`, ""},
		{"a file as an id", `{"file":"b-123"}`, ""},

		{"id too long", `{"team":"` + long + `"}`, "team must be at most 128 characters"},
		{"id with a slash", `{"team":"a/b"}`, "team may not contain '/'"},
		{"id ..", `{"team":".."}`, `team may not be ".."`},
		{"id __x__", `{"team":"__x__"}`, "team may not start and end"},
		{"id with a control character", `{"team":"a\u0000b"}`, "team may hold printable characters only"},
		{"id with a bidi override", `{"team":"a\u202eb"}`, "team may hold printable characters only"},
		{"id with quotes", `{"team":"a\"b"}`, "team may not contain double quotes, angle brackets"},
		{"id with angle brackets", `{"team":"<b>"}`, "team may not contain double quotes, angle brackets"},
		{"id with a backtick", "{\"team\":\"a`b\"}", "team may not contain double quotes"},
		{"an id may hold a space and an apostrophe", `{"team":"bad-another team's tile"}`, ""},
		{"enum", `{"size":"huge"}`, `size must be one of small, medium, large, not "huge"`},
		{"enum echo is cut", `{"size":"` + long + `"}`, `size must be one of small, medium, large, not "xxxx`},
		{"enum of numbers", `{"timer":0}`, "timer must be one of 60, 90, 120, not 0"},
		{"folded enum", `{"call":"seven"}`, "call must be one of odd, even"},
		{"text too long", `{"members":["abcdef"]}`, "members[0] must be at most 5 characters, not 6"},
		{"text with a newline", `{"players":[{"name":"a\nb"}]}`, "players[0].name may not contain control characters (U+000A)"},
		{"text with bidi", `{"players":[{"name":"a\u2066b"}]}`, "players[0].name may not contain bidirectional formatting characters"},
		{"long text with a bell", `{"notes":"a\u0007"}`, "notes may not contain control characters"},
		{"long text too long", `{"notes":"` + long + `"}`, "notes must be at most 20 characters, not 5000"},
		{"int below", `{"players":[{},{"st":0}]}`, "players[1].st must be from 1 to 6, not 0"},
		{"int above", `{"players":[{"st":99999999999}]}`, "players[0].st must be from 1 to 6, not 99999999999"},
		{"coord", `{"at":{"q":1001}}`, "at.q must be from -1000 to 1000, not 1001"},
		{"embedded coord", `{"r":-1001}`, "r must be from -1000 to 1000"},
		{"list too long", `{"members":["a","b","c","d"]}`, "members may hold at most 3 items, not 4"},
		{"list of objects too long", `{"players":[{},{},{}]}`, "players may hold at most 2 items"},
		{"url http", `{"players":[{"image":"http://x.example/a"}]}`, "players[0].image must be an https URL"},
		{"url quote", `{"players":[{"image":"https://x.example/a\"onerror=\"alert(1)"}]}`, "players[0].image must be an https URL without spaces, quotes"},
		{"url angle", `{"home":"https://x.example/<script>"}`, "home must be an http(s) URL without"},
		{"url javascript", `{"home":"javascript:alert(1)"}`, "home must be an http(s) URL"},
		{"url no host", `{"home":"https:///a"}`, "home must be an http(s) URL with a host"},
		{"url user", `{"home":"https://u:p@x.example/"}`, "home must not carry a user name"},
		{"url too long", `{"home":"https://x.example/` + long + `"}`, "home must be an http(s) URL of at most 512 bytes"},
		{"map key", `{"hooks":{"9":"https://h.example/"}}`, `hooks key must be one of 1, 2, 3, not "9"`},
		{"map value", `{"hooks":{"2":"ftp://h.example/"}}`, "hooks.2 must be an https URL"},
		{"map too big", `{"hooks":{"1":"","2":"","3":""}}`, "hooks may hold at most 2 entries"},
		{"json deep", `{"file":{"a":` + deep + `}}`, "file is nested 41 deep, more than 32"},
		{"json not an object", `{"file":[1]}`, "file must be an id or a JSON object"},
		{"json id", `{"file":"a/b"}`, "file may not contain '/'"},
		{"wrong type", `{"team":5}`, `field "team" must be a string`},
		{"wrong nested type", `{"at":{"q":"1"}}`, `field "at.q" must be a whole number`},
		{"fraction", `{"timer":1.5}`, `field "timer" must be a whole number`},
		{"1e400", `{"timer":1e400}`, `field "timer" must be a whole number`},
		{"nesting into a string", `{"team":` + deep + `}`, `field "team" must be a string`},
		{"unknown field echo is cut", `{"` + long + `":1}`, `unknown field "xxxx`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var req fRequest
			err := DecodePayload(json.RawMessage(tt.payload), &req)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted, want %q", tt.want)
			}
			if ErrorCode(err) != EINVALID {
				t.Fatalf("code %s: %v", ErrorCode(err), err)
			}
			msg := ErrorMessage(err)
			if !strings.HasPrefix(msg, tt.want) {
				t.Fatalf("message %q, want it to start %q", msg, tt.want)
			}
			if n := utf8.RuneCountInString(msg); n > 200 {
				t.Fatalf("message of %d characters: %q", n, msg)
			}
		})
	}
}

func TestCheckPayloadDecodesIntoItsOwnValue(t *testing.T) {
	if err := CheckPayload(json.RawMessage(`{"size":"small"}`), fRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := CheckPayload(json.RawMessage(`{"size":"tiny"}`), &fRequest{}); ErrorCode(err) != EINVALID {
		t.Fatalf("got %v", err)
	}
	if err := CheckPayload(json.RawMessage(`{"gameId":"g","actionId":"a","type":"roll"}`), nil); err != nil {
		t.Fatal(err)
	}
	if err := CheckPayload(json.RawMessage(`{"x":1}`), nil); ErrorCode(err) != EINVALID {
		t.Fatalf("got %v", err)
	}
}

func TestCheckFieldsLeavesOtherFieldsAlone(t *testing.T) {
	if err := CheckFields(json.RawMessage(`{"gameId":"g1","actionId":"a1","type":"roll","mode":"x/y"}`), PlatformRequest{}); err != nil {
		t.Fatal(err)
	}
	for body, want := range map[string]string{
		`{"gameId":"a/b"}`: "gameId may not contain '/'",
		`{"actionId":"` + strings.Repeat("a", 129) + `"}`: "actionId must be at most 128 characters",
		`{"version":-1}`:      "version must be from 0 to",
		`{"seed":"a\u202eb"}`: "seed may not contain bidirectional formatting characters",
		`{"password":"` + strings.Repeat("p", 73) + `"}`: "password must be at most 72 characters",
		`{"password":1e400}`:                             "password must be a string",
		`{"version":"1"}`:                                "version must be a whole number",
		`{"roomCode":"AB\u0000CD"}`:                      "roomCode may not contain control characters",
	} {
		err := CheckFields(json.RawMessage(body), PlatformRequest{})
		if err == nil || !strings.HasPrefix(ErrorMessage(err), want) {
			t.Errorf("%s: got %v, want %q", body, err, want)
		}
	}
}

func TestCheckTags(t *testing.T) {
	if errs := CheckTags(fRequest{}); len(errs) != 0 {
		t.Fatalf("a well-tagged request: %v", errs)
	}
	type inner struct {
		N int `json:"n"`
	}
	type bad struct {
		A string            `json:"a"`
		B int               `json:"b" field:"text,max=3"`
		C []string          `json:"c" field:"list,max=2"`
		D string            `json:"d" field:"int"`
		E string            `json:"e" field:"bogus"`
		F []inner           `json:"f" field:"list,max=2"`
		G map[string]string `json:"g"`
		H bool              `json:"h"`
	}
	var got []string
	for _, e := range CheckTags(bad{}) {
		got = append(got, e.Error())
	}
	want := []string{"a (string) declares no kind", "b: b: a text tag on a int", "c: c: a list of string needs an \"elem\" tag",
		"d: field tag \"int\": int needs min and max", "e: field tag \"bogus\": unknown kind", "f.n (int) declares no kind", "g (map[string]string) declares no kind"}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("got %q, want %q…", got[i], want[i])
		}
	}
	// A misfit tag refuses at run time rather than passing unchecked.
	var v bad
	if err := DecodePayload(json.RawMessage(`{"b":1}`), &v); ErrorCode(err) != EINTERNAL {
		t.Fatalf("got %v", err)
	}
}

func TestFieldsOfShowsKinds(t *testing.T) {
	got := map[string]string{}
	for _, f := range FieldsOf(fRequest{}) {
		got[f.Name] = f.Type
	}
	for name, want := range map[string]string{
		"team": "id", "size": "one of small, medium, large", "timer": "one of 60, 90, 120", "notes": "long text ≤ 20",
		"home": "http(s) URL ≤ 512", "members": "array ≤ 3 of text ≤ 5", "players": "array ≤ 2 of object",
		"hooks": "object ≤ 2: one of 1, 2, 3 → https URL ≤ 512", "file": "id or JSON object", "at": "object",
		"q": "coordinate", "submit": "boolean",
	} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
	var paths []string
	for _, d := range DescribeFields(fRequest{}) {
		paths = append(paths, d.Path)
	}
	want := "at at.q at.r call file home hooks members notes players players[].dead players[].image players[].name players[].st q r size submit team timer"
	if strings.Join(paths, " ") != want {
		t.Errorf("paths %q", strings.Join(paths, " "))
	}
}

func TestQuoteCutsEchoes(t *testing.T) {
	q := Quote(strings.Repeat("é", 100))
	if n := utf8.RuneCountInString(q); n != 64+3 {
		t.Fatalf("%d characters: %s", n, q)
	}
}

// TestSpecsBuiltOnceConcurrently: requests decoding a payload type for the
// first time at once (the stack's first sign-ins) never read a spec another
// is still building (run with -race).
func TestSpecsBuiltOnceConcurrently(t *testing.T) {
	type inner struct {
		Name string `json:"name" field:"text,max=20"`
	}
	type fresh struct {
		ID    string  `json:"id" field:"id"`
		Items []inner `json:"items" field:"list,max=3"`
		Next  *fresh  `json:"next,omitempty"`
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var v fresh
			errs <- DecodePayload([]byte(`{"id":"a","items":[{"name":"x"}],"next":{"id":"b"}}`), &v)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("got %v, want nil", err)
		}
	}
}
