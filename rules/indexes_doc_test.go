package rules

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestIndexesDocumented: every composite index firestore.indexes.json
// declares is in docs/firestore.md's Indexes table, its fields written as
// "`field` ASC, `field` DESC, `field` CONTAINS", and the doc does not call a
// declared index undeclared (it once said the match-history index was "not
// declared yet" after it had been).
func TestIndexesDocumented(t *testing.T) {
	var cfg struct {
		Indexes []struct {
			CollectionGroup string       `json:"collectionGroup"`
			Fields          []indexField `json:"fields"`
		} `json:"indexes"`
	}
	readJSON(t, "firestore.indexes.json", &cfg)
	b, err := os.ReadFile("../docs/firestore.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, ix := range cfg.Indexes {
		var parts []string
		for _, f := range ix.Fields {
			mode := map[string]string{"ASCENDING": "ASC", "DESCENDING": "DESC"}[f.Order]
			if f.ArrayConfig == "CONTAINS" {
				mode = "CONTAINS"
			}
			parts = append(parts, "`"+f.FieldPath+"` "+mode)
		}
		if want := strings.Join(parts, ", "); !strings.Contains(doc, want) {
			t.Errorf("docs/firestore.md does not document the %s index %q", ix.CollectionGroup, want)
		}
	}
	if m := regexp.MustCompile(`(?i)not declared? yet|does not declare|not (yet )?declared`).FindString(doc); m != "" {
		t.Errorf("docs/firestore.md says an index is %q; list what firestore.indexes.json declares", m)
	}
}
