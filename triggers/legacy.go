package triggers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"github.com/cloudevents/sdk-go/v2/event"
	"google.golang.org/protobuf/proto"
)

// CloudEventFunc is a CloudEvent function, as functions.CloudEvent registers it.
type CloudEventFunc = func(context.Context, event.Event) error

// LegacyPathPrefix is where the Firestore emulator POSTs document triggers
// (http://HOST:PORT/functions/projects/{project}/triggers/{name}); mount a
// LegacyHandler there.
const LegacyPathPrefix = "/functions/projects/"

// maxLegacyBody caps a delivery: two documents of at most 1 MiB each, in JSON.
const maxLegacyBody = 8 << 20

// legacyEventTypes maps the emulator's (first-generation) event types to the
// CloudEvent types Eventarc delivers.
var legacyEventTypes = map[string]string{
	"providers/cloud.firestore/eventTypes/document.write":  TypeWritten,
	"providers/cloud.firestore/eventTypes/document.create": TypeCreated,
	"providers/cloud.firestore/eventTypes/document.update": TypeUpdated,
	"providers/cloud.firestore/eventTypes/document.delete": TypeDeleted,
}

// LegacyHandler receives the Firestore emulator's trigger deliveries and hands
// each to the CloudEvent function registered under the trigger's name, as the
// CloudEvent production would deliver: trigger code has one path.
//
// It answers 200 when the function returned nil, 500 when it failed, 400 for a
// body it cannot read, 404 for an unknown trigger name. The emulator does not
// retry a failed delivery; the tick sweeps what a failure left pending.
//
// With Async, a delivery that decodes is answered 202 at once and its
// function runs in the background (at most AsyncLimit at a time; a failure
// is logged). The emulator waits for each delivery's answer before it makes
// the next one, so run synchronously the effects of a burst queue behind one
// another for seconds; production's Eventarc delivers concurrently, which
// Async imitates. Nothing is lost: a 500 made the emulator retry nothing
// either, and every effect is idempotent and swept by the tick.
type LegacyHandler struct {
	Functions map[string]CloudEventFunc // by trigger name
	Location  string                    // the events' "location" attribute; "local" when empty
	Log       *slog.Logger              // nil: slog.Default()
	Async     bool
	// AsyncLimit bounds the functions running at once with Async (0: 16).
	AsyncLimit int

	once sync.Once
	sem  chan struct{}
}

// asyncTimeout bounds one background run of a function.
const asyncTimeout = time.Minute

func (h *LegacyHandler) log() *slog.Logger {
	if h.Log == nil {
		return slog.Default()
	}
	return h.Log
}

// ServeHTTP implements http.Handler.
func (h *LegacyHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	project, name, ok := legacyTarget(r.URL.Path)
	if !ok {
		http.Error(w, "want "+LegacyPathPrefix+"{project}/triggers/{name}", http.StatusNotFound)
		return
	}
	fn := h.Functions[name]
	if fn == nil {
		h.log().Warn("legacy trigger: no such function", "trigger", name, "project", project)
		http.Error(w, "no function "+name, http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxLegacyBody))
	if err != nil {
		http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	e, err := LegacyEvent(body, h.Location)
	if err != nil {
		h.log().Error("legacy trigger: bad delivery", "trigger", name, "err", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if h.Async {
		h.once.Do(func() {
			n := h.AsyncLimit
			if n <= 0 {
				n = 16
			}
			h.sem = make(chan struct{}, n)
		})
		h.sem <- struct{}{}
		go func() {
			defer func() { <-h.sem }()
			ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), asyncTimeout)
			defer cancel()
			if err := fn(ctx, e); err != nil {
				h.log().Error("legacy trigger: function failed", "trigger", name, "id", e.ID(), "subject", e.Subject(), "err", err)
			}
		}()
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if err := fn(r.Context(), e); err != nil {
		h.log().Error("legacy trigger: function failed", "trigger", name, "id", e.ID(), "subject", e.Subject(), "err", err)
		http.Error(w, "function failed", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// legacyTarget parses .../functions/projects/{project}/triggers/{name}.
func legacyTarget(path string) (project, name string, ok bool) {
	i := strings.Index(path, LegacyPathPrefix)
	if i < 0 {
		return "", "", false
	}
	parts := strings.Split(path[i+len(LegacyPathPrefix):], "/")
	if len(parts) != 3 || parts[0] == "" || parts[1] != "triggers" || parts[2] == "" {
		return "", "", false
	}
	return parts[0], parts[2], true
}

// legacyDelivery is the JSON the Firestore emulator POSTs for a trigger.
type legacyDelivery struct {
	Data struct {
		Value      json.RawMessage `json:"value"`
		OldValue   json.RawMessage `json:"oldValue"`
		UpdateMask struct {
			FieldPaths []string `json:"fieldPaths"`
		} `json:"updateMask"`
	} `json:"data"`
	Context struct {
		EventID   string          `json:"eventId"`
		Timestamp string          `json:"timestamp"`
		EventType string          `json:"eventType"`
		Resource  json.RawMessage `json:"resource"` // {"name": ..., "service": ...} or a bare name
	} `json:"context"`
}

// LegacyEvent converts one emulator trigger delivery into the CloudEvent
// production delivers for the same change. location fills the "location"
// attribute ("local" when empty).
//
// The emulator sends an empty updateMask even for updates; production lists
// the changed fields, so when both documents are present the mask is rebuilt
// from the top-level fields that differ.
func LegacyEvent(body []byte, location string) (event.Event, error) {
	var d legacyDelivery
	if err := json.Unmarshal(body, &d); err != nil {
		return event.Event{}, fmt.Errorf("triggers: legacy delivery: %w", err)
	}
	typ, ok := legacyEventTypes[d.Context.EventType]
	if !ok {
		return event.Event{}, fmt.Errorf("triggers: legacy delivery: unknown eventType %q", d.Context.EventType)
	}
	if d.Context.EventID == "" {
		return event.Event{}, errors.New("triggers: legacy delivery: no eventId")
	}
	resource, err := legacyResource(d.Context.Resource)
	if err != nil {
		return event.Event{}, err
	}
	docName, err := ParseDocumentName(resource)
	if err != nil {
		return event.Event{}, err
	}
	var de DocumentEvent
	if de.Value, err = documentFromJSON(d.Data.Value); err != nil {
		return event.Event{}, fmt.Errorf("triggers: legacy delivery value: %w", err)
	}
	if de.OldValue, err = documentFromJSON(d.Data.OldValue); err != nil {
		return event.Event{}, fmt.Errorf("triggers: legacy delivery oldValue: %w", err)
	}
	de.UpdateMask = d.Data.UpdateMask.FieldPaths
	if len(de.UpdateMask) == 0 && de.Value != nil && de.OldValue != nil {
		de.UpdateMask = changedFields(de.OldValue, de.Value)
	}
	var at time.Time
	if d.Context.Timestamp != "" {
		if at, err = time.Parse(time.RFC3339Nano, d.Context.Timestamp); err != nil {
			return event.Event{}, fmt.Errorf("triggers: legacy delivery timestamp: %w", err)
		}
	}
	return NewDocumentCloudEvent(DocumentCloudEvent{
		ID: d.Context.EventID, Type: typ, Time: at, Document: docName, Location: location, Data: de,
	})
}

func legacyResource(raw json.RawMessage) (string, error) {
	var name string
	if err := json.Unmarshal(raw, &name); err == nil && name != "" {
		return name, nil
	}
	var r struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.Name == "" {
		return "", errors.New("triggers: legacy delivery: no context.resource.name")
	}
	return r.Name, nil
}

var simpleField = regexp.MustCompile(`^[A-Za-z_][A-Za-z_0-9]*$`)

// changedFields lists the top-level fields that differ between two versions
// of a document, sorted, in field-path syntax.
func changedFields(old, cur *firestorepb.Document) []string {
	var paths []string
	seen := map[string]bool{}
	add := func(k string) {
		if seen[k] {
			return
		}
		seen[k] = true
		if !proto.Equal(old.GetFields()[k], cur.GetFields()[k]) {
			if !simpleField.MatchString(k) {
				k = "`" + strings.NewReplacer(`\`, `\\`, "`", "\\`").Replace(k) + "`"
			}
			paths = append(paths, k)
		}
	}
	for k := range old.GetFields() {
		add(k)
	}
	for k := range cur.GetFields() {
		add(k)
	}
	sort.Strings(paths)
	return paths
}
