package triggers

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"strings"
	"time"

	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"github.com/cloudevents/sdk-go/v2/event"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// CloudEvent types Firestore (through Eventarc) delivers for document changes.
const (
	TypeWritten = "google.cloud.firestore.document.v1.written"
	TypeCreated = "google.cloud.firestore.document.v1.created"
	TypeUpdated = "google.cloud.firestore.document.v1.updated"
	TypeDeleted = "google.cloud.firestore.document.v1.deleted"
)

// DocumentEventDataSchema is the dataschema of Firestore document CloudEvents.
const DocumentEventDataSchema = "https://github.com/googleapis/google-cloudevents/blob/main/proto/google/events/cloud/firestore/v1/data.proto"

// DocumentEvent is google.events.cloud.firestore.v1.DocumentEventData: the
// document after the change (nil when deleted), before it (nil when created)
// and, for updates, the paths of the fields that changed.
type DocumentEvent struct {
	Value      *firestorepb.Document // field 1
	OldValue   *firestorepb.Document // field 2
	UpdateMask []string              // field 3: DocumentMask, its field 1 (field_paths)
}

// DocumentEventData field numbers.
const (
	fieldValue      protowire.Number = 1
	fieldOldValue   protowire.Number = 2
	fieldUpdateMask protowire.Number = 3
	fieldMaskPaths  protowire.Number = 1
)

// DecodeDocumentEvent decodes the protobuf DocumentEventData that production
// delivers as the data of a Firestore CloudEvent. Unknown fields are skipped,
// and a message field given twice is merged, as protobuf requires.
func DecodeDocumentEvent(b []byte) (DocumentEvent, error) {
	var de DocumentEvent
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return DocumentEvent{}, fmt.Errorf("triggers: DocumentEventData: %w", protowire.ParseError(n))
		}
		b = b[n:]
		switch {
		case (num == fieldValue || num == fieldOldValue || num == fieldUpdateMask) && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return DocumentEvent{}, fmt.Errorf("triggers: DocumentEventData field %d: %w", num, protowire.ParseError(n))
			}
			b = b[n:]
			var err error
			switch num {
			case fieldValue:
				de.Value, err = mergeDocument(de.Value, v)
			case fieldOldValue:
				de.OldValue, err = mergeDocument(de.OldValue, v)
			case fieldUpdateMask:
				de.UpdateMask, err = appendMaskPaths(de.UpdateMask, v)
			}
			if err != nil {
				return DocumentEvent{}, fmt.Errorf("triggers: DocumentEventData field %d: %w", num, err)
			}
		case num == fieldValue || num == fieldOldValue || num == fieldUpdateMask:
			return DocumentEvent{}, fmt.Errorf("triggers: DocumentEventData field %d has wire type %d, want bytes", num, typ)
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return DocumentEvent{}, fmt.Errorf("triggers: DocumentEventData field %d: %w", num, protowire.ParseError(n))
			}
			b = b[n:]
		}
	}
	return de, nil
}

func mergeDocument(into *firestorepb.Document, b []byte) (*firestorepb.Document, error) {
	if into == nil {
		into = &firestorepb.Document{}
	}
	if err := (proto.UnmarshalOptions{Merge: true}).Unmarshal(b, into); err != nil {
		return nil, err
	}
	return into, nil
}

func appendMaskPaths(paths []string, b []byte) ([]string, error) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		b = b[n:]
		if num == fieldMaskPaths && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return nil, protowire.ParseError(n)
			}
			paths = append(paths, string(v))
			b = b[n:]
			continue
		}
		if num == fieldMaskPaths {
			return nil, fmt.Errorf("DocumentMask field_paths has wire type %d, want bytes", typ)
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		b = b[n:]
	}
	return paths, nil
}

// EncodeDocumentEvent encodes de as protobuf DocumentEventData, the inverse of
// DecodeDocumentEvent. An empty update mask is left out, as production does
// for creates and deletes.
func EncodeDocumentEvent(de DocumentEvent) ([]byte, error) {
	var b []byte
	opts := proto.MarshalOptions{Deterministic: true}
	for _, f := range []struct {
		num protowire.Number
		doc *firestorepb.Document
	}{{fieldValue, de.Value}, {fieldOldValue, de.OldValue}} {
		if f.doc == nil {
			continue
		}
		m, err := opts.Marshal(f.doc)
		if err != nil {
			return nil, fmt.Errorf("triggers: encode DocumentEventData field %d: %w", f.num, err)
		}
		b = protowire.AppendTag(b, f.num, protowire.BytesType)
		b = protowire.AppendBytes(b, m)
	}
	if len(de.UpdateMask) > 0 {
		var mask []byte
		for _, p := range de.UpdateMask {
			mask = protowire.AppendTag(mask, fieldMaskPaths, protowire.BytesType)
			mask = protowire.AppendString(mask, p)
		}
		b = protowire.AppendTag(b, fieldUpdateMask, protowire.BytesType)
		b = protowire.AppendBytes(b, mask)
	}
	return b, nil
}

// documentEventJSON is DocumentEventData in its proto3 JSON form, which
// Eventarc can deliver instead of protobuf (datacontenttype application/json).
type documentEventJSON struct {
	Value      json.RawMessage `json:"value"`
	OldValue   json.RawMessage `json:"oldValue"`
	UpdateMask struct {
		FieldPaths []string `json:"fieldPaths"`
	} `json:"updateMask"`
}

var lenient = protojson.UnmarshalOptions{DiscardUnknown: true}

// documentFromJSON parses a Document in proto3 JSON (the Firestore REST form);
// absent or null is nil.
func documentFromJSON(raw json.RawMessage) (*firestorepb.Document, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	d := &firestorepb.Document{}
	if err := lenient.Unmarshal(raw, d); err != nil {
		return nil, err
	}
	return d, nil
}

// DocumentEventOf decodes the data of a Firestore document CloudEvent:
// protobuf (what production sends) or its JSON form.
func DocumentEventOf(e event.Event) (DocumentEvent, error) {
	ct := e.DataContentType()
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		ct = mt
	}
	switch ct {
	case "", "application/protobuf", "application/x-protobuf":
		return DecodeDocumentEvent(e.Data())
	case "application/json":
		var j documentEventJSON
		if err := json.Unmarshal(e.Data(), &j); err != nil {
			return DocumentEvent{}, fmt.Errorf("triggers: DocumentEventData JSON: %w", err)
		}
		var de DocumentEvent
		var err error
		if de.Value, err = documentFromJSON(j.Value); err != nil {
			return DocumentEvent{}, fmt.Errorf("triggers: DocumentEventData JSON value: %w", err)
		}
		if de.OldValue, err = documentFromJSON(j.OldValue); err != nil {
			return DocumentEvent{}, fmt.Errorf("triggers: DocumentEventData JSON oldValue: %w", err)
		}
		de.UpdateMask = j.UpdateMask.FieldPaths
		return de, nil
	}
	return DocumentEvent{}, fmt.Errorf("triggers: unsupported datacontenttype %q", e.DataContentType())
}

// DocumentName is a parsed Firestore resource name:
// projects/{Project}/databases/{Database}/documents/{Path}.
type DocumentName struct {
	Project, Database, Path string
}

// ParseDocumentName parses a full document resource name.
func ParseDocumentName(name string) (DocumentName, error) {
	rest, ok := strings.CutPrefix(name, "projects/")
	if !ok {
		return DocumentName{}, fmt.Errorf("triggers: document name %q: want projects/...", name)
	}
	project, rest, ok := strings.Cut(rest, "/databases/")
	if !ok || project == "" {
		return DocumentName{}, fmt.Errorf("triggers: document name %q: no database", name)
	}
	db, path, ok := strings.Cut(rest, "/documents/")
	if !ok || db == "" || path == "" {
		return DocumentName{}, fmt.Errorf("triggers: document name %q: no document path", name)
	}
	return DocumentName{Project: project, Database: db, Path: path}, nil
}

// String is the full resource name.
func (n DocumentName) String() string {
	return "projects/" + n.Project + "/databases/" + n.Database + "/documents/" + n.Path
}

// DocumentCloudEvent is what NewDocumentCloudEvent needs to build the
// CloudEvent production delivers for one document change.
type DocumentCloudEvent struct {
	ID       string    // the event id
	Type     string    // TypeWritten, TypeCreated, ...
	Time     time.Time // when the change happened
	Document DocumentName
	Location string // the "location" attribute: the database's region
	Data     DocumentEvent
}

// NewDocumentCloudEvent builds a Firestore document CloudEvent with the
// attributes Eventarc sets: source //firestore.googleapis.com/projects/{p}/
// databases/{db}, subject documents/{path}, protobuf data, and the project,
// database, namespace, document and location extensions.
func NewDocumentCloudEvent(d DocumentCloudEvent) (event.Event, error) {
	if d.ID == "" || d.Type == "" {
		return event.Event{}, errors.New("triggers: a document CloudEvent needs an id and a type")
	}
	data, err := EncodeDocumentEvent(d.Data)
	if err != nil {
		return event.Event{}, err
	}
	e := event.New(event.CloudEventsVersionV1)
	e.SetID(d.ID)
	e.SetType(d.Type)
	e.SetSource("//firestore.googleapis.com/projects/" + d.Document.Project + "/databases/" + d.Document.Database)
	e.SetSubject("documents/" + d.Document.Path)
	if !d.Time.IsZero() {
		e.SetTime(d.Time)
	}
	e.SetDataSchema(DocumentEventDataSchema)
	if err := e.SetData("application/protobuf", data); err != nil {
		return event.Event{}, err
	}
	location := d.Location
	if location == "" {
		location = "local"
	}
	for k, v := range map[string]string{
		"project": d.Document.Project, "database": d.Document.Database, "namespace": "(default)",
		"document": d.Document.Path, "location": location,
	} {
		e.SetExtension(k, v)
	}
	if err := e.Validate(); err != nil {
		return event.Event{}, fmt.Errorf("triggers: document CloudEvent: %w", err)
	}
	return e, nil
}
