package rules

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/meeple-games/meeple/store/storetest"
)

// queryNewest runs the event log query clients use: the newest n documents
// of collection by "at".
func (e *env) queryNewest(t testing.TB, c caller, collection string, n int) reply {
	t.Helper()
	parent, id := splitCollection(collection)
	return e.call(t, c, http.MethodPost, "/"+parent+":runQuery", map[string]any{
		"structuredQuery": map[string]any{
			"from":    []any{map[string]any{"collectionId": id}},
			"orderBy": []any{map[string]any{"field": map[string]any{"fieldPath": "at"}, "direction": "DESCENDING"}},
			"limit":   n,
		},
	})
}

// Tile Race undo history is server-only for every caller, the race's own
// teams and admins included, by get, list and query; the event log's last
// 50 entries are one query any signed-in caller may run.
func TestTileRaceHistoryAndLog(t *testing.T) {
	e := newEnv(t)
	fs := storetest.ClientFor(t, e.project)
	ctx := context.Background()
	paths := []string{
		"games/g1/history/g1:t1~a1",
		"games/g1/historyParts/g1:t1~a1~0",
		"games/g1/events/g1:t1~a1",
		"games/g1/events/g1:a1~a2",
	}
	for i, p := range paths {
		if _, err := fs.Doc(p).Set(ctx, map[string]any{"seeded": true, "at": time.Unix(int64(1000+i), 0)}); err != nil {
			t.Fatalf("seed %s: %v", p, err)
		}
	}
	for _, c := range everyone {
		for _, p := range paths[:2] {
			wantAccess(t, "get "+p, c, false, e.get(t, c, p))
		}
		for _, coll := range []string{"games/g1/history", "games/g1/historyParts"} {
			wantAccess(t, "list "+coll, c, false, e.listDocs(t, c, coll))
			wantAccess(t, "query "+coll, c, false, e.query(t, c, coll, false))
			wantAccess(t, "newest "+coll, c, false, e.queryNewest(t, c, coll, 10))
		}
		for _, coll := range []string{"history", "historyParts"} {
			wantAccess(t, "group query "+coll, c, false, e.query(t, c, coll, true))
		}
		wantAccess(t, "the last 50 events", c, contains(signedIn, c), e.queryNewest(t, c, "games/g1/events", 50))
	}
}
