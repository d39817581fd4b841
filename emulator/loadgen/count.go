package main

import (
	"context"
	"sync/atomic"

	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"google.golang.org/grpc"
)

// counter counts the documents the stack's Firestore client reads and writes,
// from the RPCs themselves, so the figures are measured and not assumed.
type counter struct {
	reads, writes, queries atomic.Int64
}

func (c *counter) unary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	switch r := req.(type) {
	case *firestorepb.CommitRequest:
		c.writes.Add(int64(len(r.Writes)))
	case *firestorepb.GetDocumentRequest:
		c.reads.Add(1)
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

func (c *counter) stream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	s, err := streamer(ctx, desc, cc, method, opts...)
	if err != nil {
		return nil, err
	}
	return &countingStream{ClientStream: s, c: c}, nil
}

type countingStream struct {
	grpc.ClientStream
	c *counter
}

func (s *countingStream) SendMsg(m any) error {
	switch r := m.(type) {
	case *firestorepb.BatchGetDocumentsRequest:
		s.c.reads.Add(int64(len(r.Documents)))
	case *firestorepb.RunQueryRequest:
		s.c.queries.Add(1)
	}
	return s.ClientStream.SendMsg(m)
}

func (c *counter) snapshot() (reads, writes int64) { return c.reads.Load(), c.writes.Load() }

// ownerCreds is what the Firestore client sends the emulator: admin access.
type ownerCreds struct{}

func (ownerCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer owner"}, nil
}
func (ownerCreds) RequireTransportSecurity() bool { return false }
