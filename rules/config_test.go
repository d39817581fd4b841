package rules

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
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

type indexField struct {
	FieldPath   string `json:"fieldPath"`
	Order       string `json:"order,omitempty"`
	ArrayConfig string `json:"arrayConfig,omitempty"`
	QueryScope  string `json:"queryScope,omitempty"`
}

// TestIndexesJSON: the composite index the tick's sweep of pending events needs
// is declared, and the file has the shape the Firebase CLI deploys.
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
	for _, o := range cfg.FieldOverrides {
		if o.CollectionGroup == "" || o.FieldPath == "" || o.Indexes == nil {
			t.Errorf("field override %+v: want collectionGroup, fieldPath and indexes (empty to exempt)", o)
		}
	}
}
