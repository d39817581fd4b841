package rules

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/meeple-games/meeple/emulator/stack"
)

// readJSON decodes a file of the module root into v.
func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile("../" + name)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
}

// TestFirebaseJSON: firebase.json points the Firebase CLI at the rules and
// indexes files and describes the local emulators.
func TestFirebaseJSON(t *testing.T) {
	var cfg struct {
		Firestore struct{ Rules, Indexes string }
		Emulators struct {
			Firestore struct{ Port int }
			Pubsub    struct{ Port int }
			UI        struct{ Enabled *bool }
		}
	}
	readJSON(t, "firebase.json", &cfg)
	if cfg.Firestore.Rules != "firestore.rules" || cfg.Firestore.Indexes != "firestore.indexes.json" {
		t.Errorf("firebase.json firestore: got rules %q, indexes %q; want firestore.rules, firestore.indexes.json",
			cfg.Firestore.Rules, cfg.Firestore.Indexes)
	}
	for _, f := range []string{cfg.Firestore.Rules, cfg.Firestore.Indexes} {
		if _, err := os.Stat("../" + f); err != nil {
			t.Errorf("firebase.json names %s: %v", f, err)
		}
	}
	if got := [2]int{cfg.Emulators.Firestore.Port, cfg.Emulators.Pubsub.Port}; got != [2]int{8080, 8085} {
		t.Errorf("emulator ports (firestore, pubsub): got %v, want [8080 8085]", got)
	}
	if cfg.Emulators.UI.Enabled == nil || *cfg.Emulators.UI.Enabled {
		t.Errorf("emulators.ui.enabled: want false")
	}
}

// TestFirebaseHostingConfig: firebase.json's hosting serves the built web client
// (web/dist) with the headers the local stack sends (stack.WebHeaders, with
// the production origins in connect-src) and the same cache policy: every
// path revalidated, /assets/** (content-hashed names) kept for a year. The
// /assets/** rule comes last: where rules overlap, Hosting applies the
// last one's header.
func TestFirebaseHostingConfig(t *testing.T) {
	var cfg struct {
		Hosting struct {
			Public   string
			Rewrites []json.RawMessage
			Headers  []struct {
				Source  string
				Headers []stack.Header
			}
		}
	}
	readJSON(t, "firebase.json", &cfg)
	h := cfg.Hosting
	if h.Public != "web/dist" {
		t.Errorf("hosting.public %q, want web/dist (the client's build)", h.Public)
	}
	if len(h.Rewrites) != 0 {
		t.Errorf("hosting.rewrites: want none (the client routes by #hash; a catch-all would answer a missing asset with index.html)")
	}
	want := []struct {
		source  string
		headers []stack.Header
	}{
		{"**", append(stack.WebHeaders(stack.ProductionConnect...), stack.Header{Key: "Cache-Control", Value: stack.PageCacheControl})},
		{"/assets/**", []stack.Header{{Key: "Cache-Control", Value: stack.AssetsCacheControl}}},
	}
	if len(h.Headers) != len(want) {
		t.Fatalf("hosting.headers: %d rules, want %d (** then /assets/**)", len(h.Headers), len(want))
	}
	for i, w := range want {
		got := h.Headers[i]
		if got.Source != w.source {
			t.Errorf("hosting.headers[%d].source %q, want %q", i, got.Source, w.source)
			continue
		}
		if !reflect.DeepEqual(got.Headers, w.headers) {
			b, _ := json.MarshalIndent(w.headers, "        ", "  ")
			t.Errorf("hosting.headers %q:\n got  %+v\n want (stack.WebHeaders and the cache policy):\n        %s", w.source, got.Headers, b)
		}
	}
}

type indexField struct {
	FieldPath   string `json:"fieldPath"`
	Order       string `json:"order,omitempty"`
	ArrayConfig string `json:"arrayConfig,omitempty"`
	QueryScope  string `json:"queryScope,omitempty"`
}

// TestIndexesJSON: the composite index the tick's sweep of pending events needs
// and the collection-group index the projection pass's cursor needs are
// declared, and the file has the shape the Firebase CLI deploys.
func TestIndexesJSON(t *testing.T) {
	var cfg struct {
		Indexes []struct {
			CollectionGroup string       `json:"collectionGroup"`
			QueryScope      string       `json:"queryScope"`
			Fields          []indexField `json:"fields"`
		} `json:"indexes"`
		FieldOverrides []struct {
			CollectionGroup string       `json:"collectionGroup"`
			FieldPath       string       `json:"fieldPath"`
			Indexes         []indexField `json:"indexes"`
		} `json:"fieldOverrides"`
	}
	readJSON(t, "firestore.indexes.json", &cfg)
	want := []indexField{{FieldPath: "pending", Order: "ASCENDING"}, {FieldPath: "at", Order: "ASCENDING"}}
	found := false
	for _, ix := range cfg.Indexes {
		if len(ix.Fields) < 2 {
			t.Errorf("composite index on %s has %d fields; Firestore refuses single-field composites", ix.CollectionGroup, len(ix.Fields))
		}
		switch ix.QueryScope {
		case "COLLECTION", "COLLECTION_GROUP":
		default:
			t.Errorf("index on %s: queryScope %q, want COLLECTION or COLLECTION_GROUP", ix.CollectionGroup, ix.QueryScope)
		}
		if ix.CollectionGroup == "events" && ix.QueryScope == "COLLECTION_GROUP" && reflect.DeepEqual(ix.Fields, want) {
			found = true
		}
	}
	if !found {
		t.Errorf("firestore.indexes.json: no COLLECTION_GROUP index on events (pending ASC, at ASC)")
	}
	cursor := false
	// The game document's fields rewritten whole on every action, large
	// text nobody queries: exempt from indexing.
	exempt := map[string]bool{"state": false, "log": false, "acts": false, "oldActs": false, "sealed": false, "views": false}
	for _, o := range cfg.FieldOverrides {
		if _, ok := exempt[o.FieldPath]; ok && o.CollectionGroup == "games" && len(o.Indexes) == 0 {
			exempt[o.FieldPath] = true
		}
	}
	for f, ok := range exempt {
		if !ok {
			t.Errorf("firestore.indexes.json: games.%s is not exempt from indexing", f)
		}
	}
	for _, o := range cfg.FieldOverrides {
		if o.CollectionGroup == "" || o.FieldPath == "" || o.Indexes == nil {
			t.Errorf("field override %+v: want collectionGroup, fieldPath and indexes (empty to exempt)", o)
		}
		if o.CollectionGroup == "events" && o.FieldPath == "projectAt" {
			cursor = reflect.DeepEqual(o.Indexes, []indexField{{Order: "ASCENDING", QueryScope: "COLLECTION_GROUP"}})
		}
	}
	if !cursor {
		t.Errorf("firestore.indexes.json: no COLLECTION_GROUP index on events' projectAt (the projection pass's cursor)")
	}
}
