package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// A request field declares what it holds in a `field` struct tag, and
// DecodePayload checks every field a payload sends against it before any
// game code sees the request: the field, not the action, is the unit of
// validation. The kinds:
//
//	field:"id"                 an id (CheckKey): 1 to MaxIDLen printable characters, no '/', double
//	                           quotes, angle brackets, backslashes or backticks, not "." or "..", not __x__
//	field:"enum=a|b|c"         one of the values; on an integer field the values are integers
//	                           (enum=60|90|120). ",fold": any case, surrounding space ignored
//	field:"int,min=0,max=600"  a whole number from min to max (both required)
//	field:"coord"              a coordinate on a board: a whole number from -MaxCoord to MaxCoord
//	field:"url"                an https URL (",http": http too) of at most MaxURLLen bytes, with a
//	                           host, no user info, no spaces, quotes, angle brackets, backslashes or
//	                           control characters: safe in an <img src> as it is
//	field:"text,max=80"        one line of at most max characters: no control characters (newlines
//	                           included) and no bidirectional-override characters
//	field:"longtext,max=2000"  text of at most max characters over lines: newlines and tabs, no other
//	                           control characters, no bidirectional-override characters
//	field:"list,max=12"        an array of at most max items; the `elem` tag gives the items' kind
//	                           (`elem:"text,max=40"`); arrays of objects or booleans need none
//	field:"map,max=5"          an object of at most max entries: the keys' kind in `key` (default
//	                           id), the values' in `elem`
//	field:"json"               a JSON object the game parses itself (an uploaded file), nested at
//	                           most MaxDepth deep; ",orid": or an id (a string)
//
// A boolean, or an object (a struct, checked field by field), needs no tag;
// every other field of an action's documented payload must have one
// (CheckTags, held by a test for every game). An empty string and null are
// "not given": whether a field is required is the action's business.
//
// A refusal is EINVALID naming the field by its path ("players[2].image")
// and echoing at most 64 characters of what was sent (Quote).

// Limits of the field kinds.
const (
	MaxCoord  = 1000 // coord: -MaxCoord to MaxCoord
	MaxURLLen = 512  // url, in bytes
	MaxDepth  = 32   // json: arrays and objects nested at most this deep
)

// FieldKind is a parsed `field` tag.
type FieldKind struct {
	Kind     string   // id, enum, int, coord, url, text, longtext, list, map, json
	Min, Max int64    // int, coord: the range; url, text, longtext: characters; list, map: items
	Enum     []string // enum: the values
	Fold     bool     // enum: any case, surrounding space ignored
	HTTP     bool     // url: http as well as https
	OrID     bool     // json: a string is an id
	// Elem is the kind of a list's items or a map's values (nil: objects,
	// checked field by field, or booleans); Key a map's keys'.
	Elem, Key *FieldKind
	num       bool // an enum on an integer field
}

// ParseFieldKind parses a `field` tag (elem and key: the `elem` and `key`
// tags of a list or map, "" when absent).
//
// Errors: a tag that does not parse, or lacks a bound its kind needs.
func ParseFieldKind(tag string) (FieldKind, error) {
	var k FieldKind
	parts := strings.Split(tag, ",")
	k.Kind = parts[0]
	if v, ok := strings.CutPrefix(k.Kind, "enum="); ok {
		k.Kind, k.Enum = "enum", strings.Split(v, "|")
	}
	hasMin, hasMax := false, false
	for _, p := range parts[1:] {
		name, val, hasVal := strings.Cut(p, "=")
		switch {
		case name == "min" && hasVal, name == "max" && hasVal:
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				return k, fmt.Errorf("field tag %q: %s=%q is not a whole number", tag, name, val)
			}
			if name == "min" {
				k.Min, hasMin = n, true
			} else {
				k.Max, hasMax = n, true
			}
		case p == "fold" && k.Kind == "enum":
			k.Fold = true
		case p == "http" && k.Kind == "url":
			k.HTTP = true
		case p == "orid" && k.Kind == "json":
			k.OrID = true
		default:
			return k, fmt.Errorf("field tag %q: unknown option %q", tag, p)
		}
	}
	switch k.Kind {
	case "id":
		if !hasMax {
			k.Max = MaxIDLen
		}
	case "enum":
		if len(k.Enum) == 0 || slicesContains(k.Enum, "") {
			return k, fmt.Errorf("field tag %q: an enum needs its values", tag)
		}
	case "int":
		if !hasMin || !hasMax || k.Min > k.Max {
			return k, fmt.Errorf("field tag %q: int needs min and max", tag)
		}
	case "coord":
		k.Min, k.Max = -MaxCoord, MaxCoord
	case "url":
		if !hasMax {
			k.Max = MaxURLLen
		}
	case "text", "longtext", "list", "map":
		if !hasMax || k.Max < 1 {
			return k, fmt.Errorf("field tag %q: %s needs max", tag, k.Kind)
		}
	case "json":
	default:
		return k, fmt.Errorf("field tag %q: unknown kind %q", tag, k.Kind)
	}
	return k, nil
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// String describes the kind as the API reference shows it.
func (k FieldKind) String() string {
	switch k.Kind {
	case "id":
		if k.Max != MaxIDLen {
			return fmt.Sprintf("id ≤ %d", k.Max)
		}
		return "id"
	case "enum":
		return "one of " + strings.Join(k.Enum, ", ")
	case "int":
		return fmt.Sprintf("integer %d to %d", k.Min, k.Max)
	case "coord":
		return "coordinate"
	case "url":
		if k.HTTP {
			return fmt.Sprintf("http(s) URL ≤ %d", k.Max)
		}
		return fmt.Sprintf("https URL ≤ %d", k.Max)
	case "text":
		return fmt.Sprintf("text ≤ %d", k.Max)
	case "longtext":
		return fmt.Sprintf("long text ≤ %d", k.Max)
	case "list":
		return fmt.Sprintf("array ≤ %d of %s", k.Max, k.elemString())
	case "map":
		key := "id"
		if k.Key != nil {
			key = k.Key.String()
		}
		return fmt.Sprintf("object ≤ %d: %s → %s", k.Max, key, k.elemString())
	case "json":
		if k.OrID {
			return "id or JSON object"
		}
		return "JSON object"
	}
	return k.Kind
}

func (k FieldKind) elemString() string {
	if k.Elem == nil {
		return "object"
	}
	return k.Elem.String()
}

// CheckKey checks an id a request names with the id kind's rules: CheckID's
// (printable, no '/', not "." or "..", not __x__), and no double quotes,
// angle brackets, backslashes or backticks, the characters that end or
// escape markup and strings (an id is shown and linked by clients). Spaces
// and apostrophes are allowed: clients make action ids from what they do.
//
// Errors: EINVALID, naming the field.
func CheckKey(field, s string) error {
	if err := CheckID(field, s); err != nil {
		return err
	}
	if strings.ContainsAny(s, "\"<>\\`") {
		return Errorf(EINVALID, "%s may not contain double quotes, angle brackets, backslashes or backticks", field)
	}
	return nil
}

// CheckURL checks a URL with the url kind's rules: https (http too when
// http), a host, no user info, at most max bytes, no spaces, quotes, angle
// brackets, backslashes or control characters.
//
// Errors: EINVALID, naming the field.
func CheckURL(field, s string, max int, http bool) error {
	scheme := "an https URL"
	if http {
		scheme = "an http(s) URL"
	}
	if len(s) > max {
		return Errorf(EINVALID, "%s must be %s of at most %d bytes", field, scheme, max)
	}
	for _, r := range s {
		if r <= ' ' || r == 0x7f || !unicode.IsPrint(r) || strings.ContainsRune("\"'<>\\`", r) {
			return Errorf(EINVALID, "%s must be %s without spaces, quotes, angle brackets, backslashes or control characters", field, scheme)
		}
	}
	u, err := url.Parse(s)
	switch {
	case err != nil, u.Scheme != "https" && !(http && u.Scheme == "http"):
		return Errorf(EINVALID, "%s must be %s", field, scheme)
	case u.Opaque != "" || u.Hostname() == "":
		return Errorf(EINVALID, "%s must be %s with a host", field, scheme)
	case u.User != nil:
		return Errorf(EINVALID, "%s must not carry a user name or password", field)
	}
	return nil
}

// bidi reports a bidirectional formatting character (an override can make
// text read differently from what it holds).
func bidi(r rune) bool {
	switch {
	case r == 0x061C, r == 0x200E, r == 0x200F,
		r >= 0x202A && r <= 0x202E,
		r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// CheckText checks text with the text kind's rules (lines: the longtext
// kind's): at most max characters, no control characters but, with lines,
// newlines, carriage returns and tabs, no bidirectional formatting
// characters.
//
// Errors: EINVALID, naming the field.
func CheckText(field, s string, max int, lines bool) error {
	if n := utf8.RuneCountInString(s); n > max {
		return Errorf(EINVALID, "%s must be at most %d characters, not %d", field, max, n)
	}
	for _, r := range s {
		if lines && (r == '\n' || r == '\r' || r == '\t') {
			continue
		}
		if unicode.IsControl(r) || bidi(r) || r == utf8.RuneError {
			what := "control"
			if bidi(r) {
				what = "bidirectional formatting"
			}
			return Errorf(EINVALID, "%s may not contain %s characters (%U)", field, what, r)
		}
	}
	return nil
}

// CheckString checks a string value against the kind (id, enum, url, text,
// longtext, or json with orid); "" is "not given" and passes.
//
// Errors: EINVALID, naming the field.
func (k FieldKind) CheckString(field, s string) error {
	if s == "" {
		return nil
	}
	switch k.Kind {
	case "id":
		if len(s) > int(k.Max) {
			return Errorf(EINVALID, "%s must be at most %d characters", field, k.Max)
		}
		return CheckKey(field, s)
	case "json":
		if !k.OrID {
			return Errorf(EINVALID, "%s must be a JSON object", field)
		}
		return CheckKey(field, s)
	case "enum":
		v := s
		if k.Fold {
			v = strings.TrimSpace(s)
		}
		for _, e := range k.Enum {
			if v == e || (k.Fold && strings.EqualFold(v, e)) {
				return nil
			}
		}
		return Errorf(EINVALID, "%s must be one of %s, not %s", field, strings.Join(k.Enum, ", "), Quote(s))
	case "url":
		return CheckURL(field, s, int(k.Max), k.HTTP)
	case "text", "longtext":
		return CheckText(field, s, int(k.Max), k.Kind == "longtext")
	}
	return Errorf(EINVALID, "%s must not be a string", field)
}

// CheckInt checks a whole number against the kind (int, coord, enum).
//
// Errors: EINVALID, naming the field.
func (k FieldKind) CheckInt(field string, n int64) error {
	switch k.Kind {
	case "enum":
		s := strconv.FormatInt(n, 10)
		if slicesContains(k.Enum, s) {
			return nil
		}
		return Errorf(EINVALID, "%s must be one of %s, not %s", field, strings.Join(k.Enum, ", "), s)
	case "int", "coord":
		if n < k.Min || n > k.Max {
			return Errorf(EINVALID, "%s must be from %d to %d, not %d", field, k.Min, k.Max, n)
		}
		return nil
	}
	return Errorf(EINVALID, "%s must not be a number", field)
}

// fieldSpec is one field of a request struct as the checker sees it.
type fieldSpec struct {
	name   string
	kind   *FieldKind  // nil: a boolean or an object
	object *structSpec // an object, or a list's or map's object items
	typ    reflect.Type
	err    error // the tag does not fit the field
}

// structSpec is a request struct's fields, by JSON name and sorted.
type structSpec struct {
	fields []*fieldSpec
	byName map[string]*fieldSpec
	done   atomic.Bool // built: only then may a request read it without specMu
}

var (
	specs sync.Map // reflect.Type → *structSpec
	// specMu serialises building specs; building lists the specs the build
	// under way made (a type that holds itself finds its own spec, still
	// being built), marked done together when it ends.
	specMu   sync.Mutex
	building []*structSpec
)

// specOf returns the spec of struct type t (pointers followed); nil for a
// type that is not a struct.
func specOf(t reflect.Type) *structSpec {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	if s, ok := specs.Load(t); ok && s.(*structSpec).done.Load() {
		return s.(*structSpec)
	}
	specMu.Lock()
	defer specMu.Unlock()
	building = nil
	s := specOfLocked(t)
	for _, b := range building {
		b.done.Store(true)
	}
	building = nil
	return s
}

// specOfLocked is specOf while specMu is held: a spec found is returned as
// it is (it may be one the build under way is filling in).
func specOfLocked(t reflect.Type) *structSpec {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	if s, ok := specs.Load(t); ok {
		return s.(*structSpec)
	}
	s := &structSpec{byName: map[string]*fieldSpec{}}
	specs.Store(t, s)
	building = append(building, s)
	buildSpec(s, t)
	return s
}

func buildSpec(s *structSpec, t reflect.Type) {
	var embedded []reflect.Type
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" {
			embedded = append(embedded, f.Type)
			continue
		}
		if name == "" {
			name = f.Name
		}
		fs := newFieldSpec(name, f.Type, f.Tag)
		s.byName[name] = fs
		s.fields = append(s.fields, fs)
	}
	// An embedded struct's fields, unless the outer struct has one of the
	// name (as encoding/json decides).
	for _, et := range embedded {
		if sub := specOfLocked(et); sub != nil {
			for _, sf := range sub.fields {
				if _, dup := s.byName[sf.name]; !dup {
					s.byName[sf.name] = sf
					s.fields = append(s.fields, sf)
				}
			}
		}
	}
	sort.Slice(s.fields, func(i, j int) bool { return s.fields[i].name < s.fields[j].name })
}

var rawMessage = reflect.TypeOf(json.RawMessage(nil))

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func isInt(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// newFieldSpec reads one field's tags; a tag that does not fit the field's
// type is kept as err (CheckTags reports it; the checker refuses with
// EINTERNAL).
func newFieldSpec(name string, t reflect.Type, tag reflect.StructTag) *fieldSpec {
	fs := &fieldSpec{name: name, typ: deref(t)}
	ft := fs.typ
	spec, tagged := tag.Lookup("field")
	if !tagged {
		if ft.Kind() == reflect.Struct && ft != reflect.TypeOf(struct{}{}) {
			fs.object = specOfLocked(ft)
		}
		return fs
	}
	k, err := ParseFieldKind(spec)
	if err != nil {
		fs.err = err
		return fs
	}
	item := func(t reflect.Type, tagName string) (*FieldKind, *structSpec, error) {
		t = deref(t)
		et, ok := tag.Lookup(tagName)
		if !ok {
			switch t.Kind() {
			case reflect.Struct:
				return nil, specOfLocked(t), nil
			case reflect.Bool:
				return nil, nil, nil
			}
			return nil, nil, fmt.Errorf("%s: a %s of %s needs an %q tag", name, k.Kind, t, tagName)
		}
		ek, err := ParseFieldKind(et)
		if err != nil {
			return nil, nil, err
		}
		ek.num = isInt(t)
		return &ek, nil, fits(name, ek, t)
	}
	switch k.Kind {
	case "list":
		if ft.Kind() != reflect.Slice && ft.Kind() != reflect.Array {
			fs.err = fmt.Errorf("%s: a list tag on a %s", name, ft)
			break
		}
		k.Elem, fs.object, fs.err = item(ft.Elem(), "elem")
	case "map":
		if ft.Kind() != reflect.Map || ft.Key().Kind() != reflect.String {
			fs.err = fmt.Errorf("%s: a map tag on a %s", name, ft)
			break
		}
		k.Elem, fs.object, fs.err = item(ft.Elem(), "elem")
		if fs.err == nil {
			key := FieldKind{Kind: "id", Max: MaxIDLen}
			if kt, ok := tag.Lookup("key"); ok {
				if key, fs.err = ParseFieldKind(kt); fs.err == nil {
					fs.err = fits(name+" keys", key, ft.Key())
				}
			}
			k.Key = &key
		}
	default:
		fs.err = fits(name, k, ft)
		k.num = isInt(ft)
	}
	fs.kind = &k
	return fs
}

// fits reports whether kind k can describe a value of Go type t.
func fits(name string, k FieldKind, t reflect.Type) error {
	t = deref(t)
	ok := false
	switch k.Kind {
	case "id", "url", "text", "longtext":
		ok = t.Kind() == reflect.String
	case "enum":
		ok = t.Kind() == reflect.String
		if isInt(t) {
			ok = true
			for _, e := range k.Enum {
				if _, err := strconv.ParseInt(e, 10, 64); err != nil {
					ok = false
				}
			}
		}
	case "int", "coord":
		ok = isInt(t)
	case "json":
		ok = t == rawMessage || t.Kind() == reflect.Interface
	}
	if !ok {
		return fmt.Errorf("%s: a %s tag on a %s", name, k.Kind, t)
	}
	return nil
}

// Kind describes a field for the API reference: its kind, or its JSON type
// when it has no tag.
func (fs *fieldSpec) describe() string {
	if fs.kind != nil && fs.err == nil {
		return fs.kind.String()
	}
	return jsonType(fs.typ)
}

// CheckTags reports the fields of request struct v (nested objects and
// list items included, by path) that declare no kind although they need
// one, or whose tag does not parse or fit: every string, number, array,
// map or JSON field of an action's payload must say what it holds.
func CheckTags(v any) []error {
	var out []error
	seen := map[*structSpec]bool{}
	var walk func(prefix string, s *structSpec)
	walk = func(prefix string, s *structSpec) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		for _, f := range s.fields {
			path := prefix + f.name
			switch {
			case f.err != nil:
				out = append(out, fmt.Errorf("%s: %v", path, f.err))
			case f.kind == nil && f.object == nil && f.typ.Kind() != reflect.Bool && f.typ != reflect.TypeOf(struct{}{}):
				out = append(out, fmt.Errorf("%s (%s) declares no kind: add a `field` tag", path, f.typ))
			}
			if f.object != nil {
				walk(path+".", f.object)
			}
		}
	}
	walk("", specOf(reflect.TypeOf(v)))
	return out
}

// CheckFields checks the fields of JSON object p that request struct v
// (or a pointer to one) declares, against their kinds; fields v does not
// name are left alone (DecodePayload refuses them). The platform checks its
// envelope with it.
//
// Errors: EINVALID naming the field; EINTERNAL for a tag that does not fit.
func CheckFields(p json.RawMessage, v any) error {
	s := specOf(reflect.TypeOf(v))
	if s == nil || len(s.fields) == 0 {
		return nil
	}
	m, err := object("request body", p)
	if err != nil {
		return err
	}
	return s.check("", m)
}

// object decodes a JSON object into its fields.
func object(path string, raw json.RawMessage) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return nil, Errorf(EINVALID, "%s must be an object", path)
	}
	return m, nil
}

func (s *structSpec) check(prefix string, m map[string]json.RawMessage) error {
	if len(m) == 0 {
		return nil
	}
	for _, f := range s.fields {
		raw, ok := m[f.name]
		if !ok {
			continue
		}
		if err := f.check(prefix+f.name, raw); err != nil {
			return err
		}
	}
	return nil
}

func isNull(raw json.RawMessage) bool { return string(raw) == "null" }

// check checks one value sent for the field.
func (fs *fieldSpec) check(path string, raw json.RawMessage) error {
	if fs.err != nil {
		return Errorf(EINTERNAL, "the request type's field %s: %v", path, fs.err)
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || isNull(raw) {
		return nil
	}
	if fs.kind == nil {
		if fs.object == nil {
			return nil // a boolean: the decoder checked its type
		}
		m, err := object(path, raw)
		if err != nil {
			return err
		}
		return fs.object.check(path+".", m)
	}
	return checkValue(path, *fs.kind, fs.object, raw)
}

// checkValue checks raw (not null) against kind k; obj is the object spec
// of a list's or map's items.
func checkValue(path string, k FieldKind, obj *structSpec, raw json.RawMessage) error {
	switch k.Kind {
	case "list":
		if raw[0] != '[' {
			return Errorf(EINVALID, "%s must be an array", path)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return Errorf(EINVALID, "%s must be an array", path)
		}
		if len(items) > int(k.Max) {
			return Errorf(EINVALID, "%s may hold at most %d items, not %d", path, k.Max, len(items))
		}
		for i, it := range items {
			if err := checkItem(path+"["+strconv.Itoa(i)+"]", k.Elem, obj, it); err != nil {
				return err
			}
		}
		return nil
	case "map":
		m, err := object(path, raw)
		if err != nil {
			return err
		}
		if len(m) > int(k.Max) {
			return Errorf(EINVALID, "%s may hold at most %d entries, not %d", path, k.Max, len(m))
		}
		keys := make([]string, 0, len(m))
		for key := range m {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			if err := k.Key.CheckString(path+" key", key); err != nil {
				return err
			}
			if key == "" {
				return Errorf(EINVALID, "%s may not have an empty key", path)
			}
			if err := checkItem(path+"."+key, k.Elem, obj, m[key]); err != nil {
				return err
			}
		}
		return nil
	case "json":
		if raw[0] == '"' {
			s, err := str(path, raw)
			if err != nil {
				return err
			}
			if s == "" {
				return nil
			}
			return k.CheckString(path, s)
		}
		if raw[0] != '{' {
			if k.OrID {
				return Errorf(EINVALID, "%s must be an id or a JSON object", path)
			}
			return Errorf(EINVALID, "%s must be a JSON object", path)
		}
		if d := depth(raw); d > MaxDepth {
			return Errorf(EINVALID, "%s is nested %d deep, more than %d", path, d, MaxDepth)
		}
		return nil
	}
	if k.numeric() {
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return Errorf(EINVALID, "%s must be a whole number", path)
		}
		return k.CheckInt(path, n)
	}
	if raw[0] != '"' {
		return Errorf(EINVALID, "%s must be a string", path)
	}
	s, err := str(path, raw)
	if err != nil {
		return err
	}
	return k.CheckString(path, s)
}

// numeric reports a kind whose values are whole numbers: int, coord, an
// enum on an integer field.
func (k FieldKind) numeric() bool { return k.Kind == "int" || k.Kind == "coord" || k.num }

// checkItem checks a list's item or a map's value.
func checkItem(path string, k *FieldKind, obj *structSpec, raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || isNull(raw) {
		return nil
	}
	switch {
	case k != nil:
		return checkValue(path, *k, nil, raw)
	case obj != nil:
		m, err := object(path, raw)
		if err != nil {
			return err
		}
		return obj.check(path+".", m)
	}
	return nil
}

func str(path string, raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", Errorf(EINVALID, "%s must be a string", path)
	}
	return s, nil
}

// depth is how deep arrays and objects nest in raw (valid JSON).
func depth(raw []byte) int {
	d, most, in, esc := 0, 0, false, false
	for _, c := range raw {
		switch {
		case esc:
			esc = false
		case in:
			switch c {
			case '\\':
				esc = true
			case '"':
				in = false
			}
		case c == '"':
			in = true
		case c == '[' || c == '{':
			d++
			most = max(most, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return most
}

// Described is a field of a request struct with what it holds, for the
// reference and for tests that walk every field.
type Described struct {
	Path string     // "players[].image": a list's items are "[]", a map's values ".*"
	Kind *FieldKind // nil: a boolean or an object
	Type string     // what the reference shows
	// Object: the field holds an object (or a list or map of them), whose
	// fields follow it.
	Object bool
}

// DescribeFields lists every field of request struct v, nested objects'
// fields after their object's, by path.
func DescribeFields(v any) []Described {
	var out []Described
	seen := map[*structSpec]int{}
	var walk func(prefix string, s *structSpec)
	walk = func(prefix string, s *structSpec) {
		if s == nil || seen[s] > 0 {
			return
		}
		seen[s]++
		defer func() { seen[s]-- }()
		for _, f := range s.fields {
			path := prefix + f.name
			out = append(out, Described{Path: path, Kind: f.kind, Type: f.describe(), Object: f.object != nil})
			if f.object == nil {
				continue
			}
			switch {
			case f.kind != nil && f.kind.Kind == "list":
				walk(path+"[].", f.object)
			case f.kind != nil && f.kind.Kind == "map":
				walk(path+".*.", f.object)
			default:
				walk(path+".", f.object)
			}
		}
	}
	walk("", specOf(reflect.TypeOf(v)))
	return out
}
