package main

import (
	"context"
	"sync/atomic"

	"cloud.google.com/go/firestore"
	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// counter counts the documents the stack's Firestore client reads and writes,
// from the RPCs themselves, so the figures are measured and not assumed: a
// document read by a get or a batched get (found or not), a document a query
// returns (Firestore bills each as a read; queries counts the queries, as an
// empty one is billed one read too), a write of a commit.
type counter struct {
	reads, writes, queries atomic.Int64
	// Commits refused: a precondition failed or the document existed
	// (refused), or Firestore aborted the transaction (aborted).
	refused, aborted atomic.Int64
}

func (c *counter) unary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	switch r := req.(type) {
	case *firestorepb.CommitRequest:
		c.writes.Add(int64(len(r.Writes)))
	case *firestorepb.GetDocumentRequest:
		c.reads.Add(1)
	}
	err := invoker(ctx, method, req, reply, cc, opts...)
	if _, ok := req.(*firestorepb.CommitRequest); ok && err != nil {
		switch status.Code(err) {
		case codes.FailedPrecondition, codes.AlreadyExists:
			c.refused.Add(1)
		case codes.Aborted:
			c.aborted.Add(1)
		}
	}
	return err
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

// RecvMsg counts each document a query returns as a read.
func (s *countingStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if r, ok := m.(*firestorepb.RunQueryResponse); ok && err == nil && r.GetDocument() != nil {
		s.c.reads.Add(1)
	}
	return err
}

func (c *counter) snapshot() (reads, writes int64) { return c.reads.Load(), c.writes.Load() }

// countingConn is a connection to the emulator at host whose reads and
// writes c counts.
func countingConn(host string, c *counter) (*grpc.ClientConn, error) {
	return grpc.NewClient(host, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(ownerCreds{}),
		grpc.WithChainUnaryInterceptor(c.unary), grpc.WithChainStreamInterceptor(c.stream))
}

// countedClient is a Firestore client of project on the emulator at host
// whose reads and writes c counts (the crowd scenario's emulation of the old
// quick match and leaderboard), and what closes it.
func countedClient(ctx context.Context, host, project string, c *counter) (*firestore.Client, func(), error) {
	conn, err := countingConn(host, c)
	if err != nil {
		return nil, nil, err
	}
	fs, err := firestore.NewClient(ctx, project, option.WithGRPCConn(conn))
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	return fs, func() { fs.Close(); conn.Close() }, nil
}

// ownerCreds is what the Firestore client sends the emulator: admin access.
type ownerCreds struct{}

func (ownerCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer owner"}, nil
}
func (ownerCreds) RequireTransportSecurity() bool { return false }
