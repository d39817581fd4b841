package triggers_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/storetest"
	"github.com/meeple-games/meeple/triggers"
)

// The testdata/legacy_*.json files are deliveries the Firestore emulator made
// for a create, an update (pending true -> false) and a delete of
// games/g1/events/000000000001 in project probe-p, captured as they arrived.
func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	return b
}

func TestLegacyEvent(t *testing.T) {
	const doc = "games/g1/events/000000000001"
	for _, tc := range []struct {
		file        string
		value, old  bool // which documents the event carries
		pending     bool // of the value
		mask        []string
		wantTimeUTC string
	}{
		{file: "legacy_create.json", value: true, pending: true},
		{file: "legacy_update.json", value: true, old: true, pending: false, mask: []string{"pending"}},
		{file: "legacy_delete.json", old: true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			ev, err := triggers.LegacyEvent(fixture(t, tc.file), "")
			require.NoError(t, err)
			require.NoError(t, ev.Validate())
			require.Equal(t, "1.0", ev.SpecVersion())
			require.Equal(t, triggers.TypeWritten, ev.Type())
			require.Equal(t, "//firestore.googleapis.com/projects/probe-p/databases/(default)", ev.Source())
			require.Equal(t, "documents/"+doc, ev.Subject())
			require.Equal(t, "application/protobuf", ev.DataContentType())
			require.Equal(t, triggers.DocumentEventDataSchema, ev.DataSchema())
			require.NotEmpty(t, ev.ID())
			require.False(t, ev.Time().IsZero(), "time")
			for k, want := range map[string]string{"project": "probe-p", "database": "(default)", "namespace": "(default)", "document": doc, "location": "local"} {
				require.Equal(t, want, ev.Extensions()[k], "extension %s", k)
			}
			de, err := triggers.DecodeDocumentEvent(ev.Data())
			require.NoError(t, err)
			require.Equal(t, tc.value, de.Value != nil, "has value")
			require.Equal(t, tc.old, de.OldValue != nil, "has old value")
			require.Equal(t, tc.mask, de.UpdateMask, "update mask")
			if de.Value != nil {
				require.Equal(t, "projects/probe-p/databases/(default)/documents/"+doc, de.Value.GetName())
				require.Equal(t, tc.pending, de.Value.GetFields()["pending"].GetBooleanValue(), "pending")
				require.Equal(t, int64(1), de.Value.GetFields()["seq"].GetIntegerValue(), "seq")
				evs := de.Value.GetFields()["events"].GetArrayValue().GetValues()
				require.Len(t, evs, 1)
				data := evs[0].GetMapValue().GetFields()["data"].GetMapValue().GetFields()
				require.Equal(t, []byte("hi"), data["b"].GetBytesValue(), "bytes value")
				require.Equal(t, 1.5, data["n"].GetDoubleValue(), "double value")
				require.NotNil(t, data["nil"].GetValueType(), "null value")
				require.NotNil(t, de.Value.GetUpdateTime(), "update time")
			}
		})
	}
}

func TestLegacyEventRejects(t *testing.T) {
	good := string(fixture(t, "legacy_create.json"))
	for _, tc := range []struct {
		name, body, wantErr string
	}{
		{"not JSON", "{", "legacy delivery"},
		{"unknown event type", strings.Replace(good, "document.write", "document.explode", 1), "eventType"},
		{"no event id", strings.Replace(good, `"eventId"`, `"x"`, 1), "eventId"},
		{"no resource", strings.Replace(good, `"resource"`, `"x"`, 1), "resource"},
		{"bad resource name", replaceLast(good, `"name": "projects/probe-p/databases/(default)/documents/games`, `"name": "games`), "document name"},
		{"bad value", strings.Replace(good, `"booleanValue": true`, `"booleanValue": "yes"`, 1), "value"},
		{"bad timestamp", strings.Replace(good, `"timestamp": "`, `"timestamp": "x`, 1), "timestamp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := triggers.LegacyEvent([]byte(tc.body), "")
			require.ErrorContains(t, err, tc.wantErr)
		})
	}
	t.Run("resource as a bare name", func(t *testing.T) {
		body := strings.Replace(good, `"resource": {`, `"resource": "projects/probe-p/databases/(default)/documents/games/g1/events/000000000001", "r": {`, 1)
		ev, err := triggers.LegacyEvent([]byte(body), "nam5")
		require.NoError(t, err)
		require.Equal(t, "documents/games/g1/events/000000000001", ev.Subject())
		require.Equal(t, "nam5", ev.Extensions()["location"])
	})
}

func replaceLast(s, old, new string) string {
	i := strings.LastIndex(s, old)
	return s[:i] + new + s[i+len(old):]
}

func TestLegacyHandlerStatus(t *testing.T) {
	good := fixture(t, "legacy_create.json")
	var got []event.Event
	h := &triggers.LegacyHandler{Functions: map[string]triggers.CloudEventFunc{
		"Ok":   func(_ context.Context, e event.Event) error { got = append(got, e); return nil },
		"Fail": func(context.Context, event.Event) error { return errors.New("boom") },
	}}
	for _, tc := range []struct {
		name, method, path string
		body               []byte
		want               int
	}{
		{"handled", http.MethodPost, "/functions/projects/probe-p/triggers/Ok", good, http.StatusOK},
		{"function failed", http.MethodPost, "/functions/projects/probe-p/triggers/Fail", good, http.StatusInternalServerError},
		{"unknown function", http.MethodPost, "/functions/projects/probe-p/triggers/Nope", good, http.StatusNotFound},
		{"bad path", http.MethodPost, "/functions/projects/probe-p/Ok", good, http.StatusNotFound},
		{"bad body", http.MethodPost, "/functions/projects/probe-p/triggers/Ok", []byte("{}"), http.StatusBadRequest},
		{"not a POST", http.MethodGet, "/functions/projects/probe-p/triggers/Ok", nil, http.StatusMethodNotAllowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(tc.method, tc.path, strings.NewReader(string(tc.body))))
			require.Equal(t, tc.want, w.Code, "status; body %q", w.Body.String())
		})
	}
	require.Len(t, got, 1, "calls of the function")
	require.Equal(t, "documents/games/g1/events/000000000001", got[0].Subject())
}

// TestLegacyHandlerAsync: with Async a delivery is answered 202 at once and
// its function runs in the background, several at a time; a failure is only
// logged (the tick sweeps what it left pending).
func TestLegacyHandlerAsync(t *testing.T) {
	good := fixture(t, "legacy_create.json")
	release := make(chan struct{})
	var running, done sync.WaitGroup
	h := &triggers.LegacyHandler{Async: true, AsyncLimit: 4, Functions: map[string]triggers.CloudEventFunc{
		"Slow": func(ctx context.Context, e event.Event) error {
			running.Done()
			defer done.Done()
			<-release
			return ctx.Err()
		},
		"Fail": func(context.Context, event.Event) error { done.Done(); return errors.New("boom") },
	}}
	running.Add(3)
	done.Add(4)
	for range 3 {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/functions/projects/p/triggers/Slow", strings.NewReader(string(good))))
		require.Equal(t, http.StatusAccepted, w.Code, "answered before the function ends")
	}
	running.Wait() // three at once: none waited for another
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/functions/projects/p/triggers/Fail", strings.NewReader(string(good))))
	require.Equal(t, http.StatusAccepted, w.Code, "a failure is the tick's to sweep")
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/functions/projects/p/triggers/Slow", strings.NewReader("{}")))
	require.Equal(t, http.StatusBadRequest, w.Code, "a body that does not decode is still refused")
	close(release)
	done.Wait()
}

// serveFunctions serves h where the test binary's emulator delivers triggers,
// until the test ends.
func serveFunctions(t *testing.T, h http.Handler) {
	t.Helper()
	var l net.Listener
	var err error
	for i := 0; i < 50; i++ { // the previous test's server may still be letting go
		if l, err = net.Listen("tcp", storetest.FunctionsHost()); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, err)
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
}

// TestLegacyHandlerEndToEnd has the emulator deliver a real event record write
// to the LegacyHandler, which runs GameEvent on the CloudEvent production
// would send; the effects appear without anyone calling ApplyEffects.
func TestLegacyHandlerEndToEnd(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	var mu sync.Mutex
	var delivered []event.Event
	gameEvent := func(ctx context.Context, ev event.Event) error {
		mu.Lock()
		delivered = append(delivered, ev)
		mu.Unlock()
		return e.tr.GameEvent(ctx, ev)
	}
	h := e.tr.LegacyHandler()
	h.Functions[triggers.GameEventFunction] = gameEvent
	serveFunctions(t, h)
	for name, pattern := range triggers.DocumentTriggers {
		require.NoError(t, storetest.Admin(e.project).RegisterTrigger(name, pattern))
	}

	e.create(t, "g1", tickerState{})
	e.win(t, "g1")

	eventually(t, "the effects", func() bool {
		return e.totals(t, "ann") == annWon && e.totals(t, "bob") == bobLost
	})
	require.False(t, e.record(t, "g1", 1).Pending, "record pending")
	ledger, err := e.st.PlayerResults(ctx, "ann", 10)
	require.NoError(t, err)
	require.Len(t, ledger, 1, "ann's ledger")
	require.Equal(t, store.ResultWin, ledger[0].Result)

	// The effects' own write (pending -> false) comes back as a second
	// delivery, which does nothing.
	eventually(t, "the delivery of the effects' write", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(delivered) >= 2
	})
	mu.Lock()
	defer mu.Unlock()
	first, second := delivered[0], delivered[1]
	require.Equal(t, triggers.TypeWritten, first.Type())
	require.Equal(t, "//firestore.googleapis.com/projects/"+e.project+"/databases/(default)", first.Source())
	require.Equal(t, "documents/games/g1/events/000000000001", first.Subject())
	require.Equal(t, "application/protobuf", first.DataContentType())
	require.NotEqual(t, first.ID(), second.ID(), "event ids")
	de, err := triggers.DecodeDocumentEvent(first.Data())
	require.NoError(t, err)
	require.Nil(t, de.OldValue, "a create has no old value")
	require.True(t, de.Value.GetFields()["pending"].GetBooleanValue(), "created pending")
	de, err = triggers.DecodeDocumentEvent(second.Data())
	require.NoError(t, err)
	require.True(t, de.OldValue.GetFields()["pending"].GetBooleanValue(), "old pending")
	require.False(t, de.Value.GetFields()["pending"].GetBooleanValue(), "new pending")
	require.Equal(t, []string{"boards", "effectsAt", "pending", "players", "project", "projectAt", "results"}, de.UpdateMask, "pending cleared, the results and the projection's mark set")
	require.Equal(t, annWon, e.totals(t, "ann"), "after every delivery")

	// The leaderboard is the tick's.
	mu.Unlock()
	_, err = e.tr.RunTick(ctx, e.clock())
	mu.Lock()
	require.NoError(t, err)
	require.Equal(t, []store.LeaderEntry{{PlayerID: "ann", Wins: 1}, {PlayerID: "bob", Losses: 1}}, e.leaderboard(t).Entries)
	require.Equal(t, annWon, e.totals(t, "ann"))
}
