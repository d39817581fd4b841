package triggers_test

import (
	"testing"
	"time"

	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/meeple-games/meeple/triggers"
)

const recordName = "projects/p/databases/(default)/documents/games/g1/events/000000000001"

func recordDoc(pending bool) *firestorepb.Document {
	at := timestamppb.New(time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC))
	return &firestorepb.Document{
		Name: recordName,
		Fields: map[string]*firestorepb.Value{
			"pending": {ValueType: &firestorepb.Value_BooleanValue{BooleanValue: pending}},
			"seq":     {ValueType: &firestorepb.Value_IntegerValue{IntegerValue: 1}},
			"at":      {ValueType: &firestorepb.Value_TimestampValue{TimestampValue: at}},
			"none":    {ValueType: &firestorepb.Value_NullValue{NullValue: structpb.NullValue_NULL_VALUE}},
			"events": {ValueType: &firestorepb.Value_ArrayValue{ArrayValue: &firestorepb.ArrayValue{Values: []*firestorepb.Value{
				{ValueType: &firestorepb.Value_MapValue{MapValue: &firestorepb.MapValue{Fields: map[string]*firestorepb.Value{
					"type": {ValueType: &firestorepb.Value_StringValue{StringValue: "gameOver"}},
					"n":    {ValueType: &firestorepb.Value_DoubleValue{DoubleValue: 1.5}},
					"b":    {ValueType: &firestorepb.Value_BytesValue{BytesValue: []byte{0, 1, 2}}},
				}}}},
			}}}},
		},
		CreateTime: at,
		UpdateTime: timestamppb.New(time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC)),
	}
}

func requireSameEvent(t *testing.T, want, got triggers.DocumentEvent) {
	t.Helper()
	require.True(t, proto.Equal(want.Value, got.Value), "value: got %v, want %v", got.Value, want.Value)
	require.True(t, proto.Equal(want.OldValue, got.OldValue), "oldValue: got %v, want %v", got.OldValue, want.OldValue)
	require.Equal(t, want.Value == nil, got.Value == nil, "value nil")
	require.Equal(t, want.OldValue == nil, got.OldValue == nil, "oldValue nil")
	require.Equal(t, want.UpdateMask, got.UpdateMask, "update mask")
}

func TestDocumentEventRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		de   triggers.DocumentEvent
	}{
		{"create", triggers.DocumentEvent{Value: recordDoc(true)}},
		{"update", triggers.DocumentEvent{Value: recordDoc(false), OldValue: recordDoc(true), UpdateMask: []string{"pending", "`odd field`", "a.b"}}},
		{"delete", triggers.DocumentEvent{OldValue: recordDoc(false)}},
		{"empty document", triggers.DocumentEvent{Value: &firestorepb.Document{}}},
		{"nothing", triggers.DocumentEvent{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := triggers.EncodeDocumentEvent(tc.de)
			require.NoError(t, err)
			got, err := triggers.DecodeDocumentEvent(b)
			require.NoError(t, err)
			requireSameEvent(t, tc.de, got)
			again, err := triggers.EncodeDocumentEvent(got)
			require.NoError(t, err)
			require.Equal(t, b, again, "encoding is deterministic")
		})
	}
}

// wire builds DocumentEventData by hand, independently of EncodeDocumentEvent.
func wire(t *testing.T, parts ...func([]byte) []byte) []byte {
	t.Helper()
	var b []byte
	for _, p := range parts {
		b = p(b)
	}
	return b
}

func msg(t *testing.T, num protowire.Number, m proto.Message) func([]byte) []byte {
	t.Helper()
	enc, err := proto.Marshal(m)
	require.NoError(t, err)
	return raw(num, enc)
}

func raw(num protowire.Number, v []byte) func([]byte) []byte {
	return func(b []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
	}
}

func varint(num protowire.Number, v uint64) func([]byte) []byte {
	return func(b []byte) []byte {
		return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
	}
}

func TestDecodeDocumentEvent(t *testing.T) {
	mask := wire(t, raw(1, []byte("pending")), varint(9, 1), raw(1, []byte("seq")))
	half1 := &firestorepb.Document{Name: recordName}
	half2 := &firestorepb.Document{Fields: recordDoc(true).Fields}
	for _, tc := range []struct {
		name    string
		in      []byte
		want    triggers.DocumentEvent
		wantErr string
	}{
		{
			name: "fields in any order, unknown fields skipped",
			in:   wire(t, raw(3, mask), varint(15, 7), msg(t, 2, recordDoc(true)), raw(99, []byte("x")), msg(t, 1, recordDoc(false))),
			want: triggers.DocumentEvent{Value: recordDoc(false), OldValue: recordDoc(true), UpdateMask: []string{"pending", "seq"}},
		},
		{
			name: "a message given twice is merged",
			in:   wire(t, msg(t, 1, half1), msg(t, 1, half2)),
			want: triggers.DocumentEvent{Value: &firestorepb.Document{Name: recordName, Fields: recordDoc(true).Fields}},
		},
		{name: "empty", in: nil, want: triggers.DocumentEvent{}},
		{name: "truncated", in: wire(t, msg(t, 1, recordDoc(true)))[:20], wantErr: "field 1"},
		{name: "value with the wrong wire type", in: wire(t, varint(1, 3)), wantErr: "wire type"},
		{name: "mask path with the wrong wire type", in: wire(t, raw(3, wire(t, varint(1, 3)))), wantErr: "field 3"},
		{name: "value that is no document", in: wire(t, raw(1, []byte{0xff, 0xff})), wantErr: "field 1"},
		{name: "bad tag", in: []byte{0x80}, wantErr: "DocumentEventData"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := triggers.DecodeDocumentEvent(tc.in)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			requireSameEvent(t, tc.want, got)
		})
	}
}

func TestParseDocumentName(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want triggers.DocumentName
		ok   bool
	}{
		{recordName, triggers.DocumentName{Project: "p", Database: "(default)", Path: "games/g1/events/000000000001"}, true},
		{"projects/p/databases/db2/documents/a/b", triggers.DocumentName{Project: "p", Database: "db2", Path: "a/b"}, true},
		{"games/g1", triggers.DocumentName{}, false},
		{"projects/p/databases/(default)/documents/", triggers.DocumentName{}, false},
		{"projects//databases/(default)/documents/a/b", triggers.DocumentName{}, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := triggers.ParseDocumentName(tc.in)
			if !tc.ok {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.in, got.String())
		})
	}
}
