package fsemu

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// Dial connects to the emulator at host as its owner (past the security
// rules, as a client the environment points at the emulator does), for a
// Firestore client's option.WithGRPCConn.
func Dial(host string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	return grpc.NewClient(host, append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(ownerCreds{})}, opts...)...)
}

// Dial connects to the emulator at host as Dial does, every read and write
// through the connection counted by c.
func (c *Counter) Dial(host string) (*grpc.ClientConn, error) {
	return Dial(host, grpc.WithChainUnaryInterceptor(c.unary), grpc.WithChainStreamInterceptor(c.stream))
}

// ownerCreds is what a Firestore client sends the emulator: admin access.
type ownerCreds struct{}

func (ownerCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer owner"}, nil
}
func (ownerCreds) RequireTransportSecurity() bool { return false }

// tickKey marks a context as the scheduled work's (Tick).
type tickKey struct{}

// Tick marks ctx as the scheduled work's: the tick's deadlines and sweeps and
// the projection pass, which run for every game at once. A Counter counts
// their reads and writes like any other, and keys them in Paths with "tick "
// before the op, so a measure of some actions can leave out what the tick
// did in the same window by what it did, not by guessing from the paths.
func Tick(ctx context.Context) context.Context { return context.WithValue(ctx, tickKey{}, true) }

// isTick tells a call made for the tick (Tick).
func isTick(ctx context.Context) bool { t, _ := ctx.Value(tickKey{}).(bool); return t }

// opOf is op as Paths keys it for a call made with ctx.
func opOf(ctx context.Context, op string) string { return tickOp(isTick(ctx), op) }

// tickOp is op as Paths keys it for a call that is the tick's or not.
func tickOp(tick bool, op string) string {
	if tick {
		return "tick " + op
	}
	return op
}

// Counter counts the documents a Firestore client reads and writes,
// from the RPCs themselves, so the figures are measured and not assumed: a
// document read by a get or a batched get (found or not), a document a query
// returns (Firestore bills each as a read), a query that returned none (billed
// one read all the same: "query (empty)"), a write of a commit; queries
// counts the queries.
type Counter struct {
	Reads, Writes, Queries atomic.Int64
	// Commits refused: a precondition failed or the document existed
	// (Refused), or Firestore aborted the transaction (Aborted).
	Refused, Aborted atomic.Int64

	mu    sync.Mutex
	paths map[string]int64 // "read games/*/teams/*" → documents, for Paths
	times map[string][]time.Duration
}

// took notes how long an RPC of method took: a unary call to its reply, a
// stream (a batched get, a query) to its first response.
func (c *Counter) took(method string, d time.Duration) {
	method = method[strings.LastIndex(method, "/")+1:]
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.times == nil {
		c.times = map[string][]time.Duration{}
	}
	c.times[method] = append(c.times[method], d)
}

// Times returns how long each RPC took since the last call, by method
// (Commit, BatchGetDocuments, …), and starts over: what separates an
// action's latency from the stack's own work.
func (c *Counter) Times() map[string][]time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.times
	c.times = nil
	return out
}

// note counts one document op ("read" or "write", "tick read" for the
// tick's) on a path, by its shape: document ids become *, fixed names
// (public/board, private/state) stay.
func (c *Counter) note(op, name string, n int64) {
	_, path, ok := strings.Cut(name, "/documents/")
	if !ok {
		path = name
	}
	parts := strings.Split(path, "/")
	for i := 1; i < len(parts); i += 2 {
		if !fixedName(parts[i]) {
			parts[i] = "*"
		}
	}
	c.mu.Lock()
	if c.paths == nil {
		c.paths = map[string]int64{}
	}
	c.paths[op+" "+strings.Join(parts, "/")] += n
	c.mu.Unlock()
}

// fixedName tells a document name the code fixes (board, leaderboard,
// projectionPass: letters, a lower-case first) from a generated id (hex,
// digits, dashes, tildes; a room code's capitals).
func fixedName(s string) bool {
	if s == "" || len(s) > 16 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if r < 'a' || r > 'z' {
			if r < 'A' || r > 'Z' {
				return false
			}
		}
	}
	return true
}

// Paths is how many documents of each shape were read and written so far.
func (c *Counter) Paths() map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int64, len(c.paths))
	for k, v := range c.paths {
		out[k] = v
	}
	return out
}

// noteWrites counts the documents a commit or a batch writes.
func (c *Counter) noteWrites(ctx context.Context, ws []*firestorepb.Write) {
	c.Writes.Add(int64(len(ws)))
	write := opOf(ctx, "write")
	for _, w := range ws {
		switch op := w.Operation.(type) {
		case *firestorepb.Write_Update:
			c.note(write, op.Update.GetName(), 1)
		case *firestorepb.Write_Delete:
			c.note(write, op.Delete, 1)
		default:
			c.note(write, "(transform)", 1)
		}
	}
}

func (c *Counter) unary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	switch r := req.(type) {
	case *firestorepb.CommitRequest:
		c.noteWrites(ctx, r.Writes)
	case *firestorepb.BatchWriteRequest: // a BulkWriter's
		c.noteWrites(ctx, r.Writes)
	case *firestorepb.GetDocumentRequest:
		c.Reads.Add(1)
		c.note(opOf(ctx, "read"), r.Name, 1)
	}
	start := time.Now()
	err := invoker(ctx, method, req, reply, cc, opts...)
	c.took(method, time.Since(start))
	if _, ok := req.(*firestorepb.CommitRequest); ok && err != nil {
		switch status.Code(err) {
		case codes.FailedPrecondition, codes.AlreadyExists:
			c.Refused.Add(1)
		case codes.Aborted:
			c.Aborted.Add(1)
		}
	}
	return err
}

func (c *Counter) stream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	s, err := streamer(ctx, desc, cc, method, opts...)
	if err != nil {
		return nil, err
	}
	return &countingStream{ClientStream: s, c: c, method: method, start: time.Now(), tick: isTick(ctx)}, nil
}

type countingStream struct {
	grpc.ClientStream
	c *Counter
	// A query's stream: whether it is one, and how many documents it
	// returned (none: Firestore bills it one read all the same).
	query bool
	docs  int64
	// The stream's method and start, for its time to the first response.
	method string
	start  time.Time
	timed  bool
	tick   bool // the tick's (Tick)
}

// op is op as Paths keys it for this stream.
func (s *countingStream) op(op string) string { return tickOp(s.tick, op) }

func (s *countingStream) SendMsg(m any) error {
	switch r := m.(type) {
	case *firestorepb.BatchGetDocumentsRequest:
		s.c.Reads.Add(int64(len(r.Documents)))
		for _, d := range r.Documents {
			s.c.note(s.op("read"), d, 1)
		}
	case *firestorepb.RunQueryRequest:
		s.c.Queries.Add(1)
		s.query = true
	}
	return s.ClientStream.SendMsg(m)
}

// RecvMsg counts each document a query returns as a read.
func (s *countingStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if !s.timed {
		s.timed = true
		s.c.took(s.method, time.Since(s.start))
	}
	if r, ok := m.(*firestorepb.RunQueryResponse); ok && err == nil && r.GetDocument() != nil {
		s.c.Reads.Add(1)
		s.docs++
		s.c.note(s.op("query"), r.GetDocument().GetName(), 1)
	}
	if errors.Is(err, io.EOF) && s.query && s.docs == 0 {
		s.query = false // counted once
		s.c.Reads.Add(1)
		s.c.note(s.op("query"), "(empty)", 1)
	}
	// A count is billed a read per 1,000 records counted, at least one.
	if r, ok := m.(*firestorepb.RunAggregationQueryResponse); ok && err == nil && r.GetResult() != nil {
		var n int64
		for _, v := range r.GetResult().GetAggregateFields() {
			n = max(n, v.GetIntegerValue())
		}
		s.c.Reads.Add(max(1, (n+999)/1000))
		s.c.note(s.op("count"), "(aggregation)", max(1, (n+999)/1000))
	}
	return err
}

// Counts is how many documents were read and written so far.
func (c *Counter) Counts() (reads, writes int64) { return c.Reads.Load(), c.Writes.Load() }
