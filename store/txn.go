package store

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"cloud.google.com/go/firestore"
)

// txn is where an action reads and writes: a Firestore transaction, or, for
// an action that reads nothing but snapshots, a batch of writes committed
// once with preconditions (batchTx). Both give the same guarantee to such an
// action: every document it read as a snapshot and writes back is written
// only if it has not changed since the read, and all its writes commit
// together or none does.
type txn interface {
	Get(*firestore.DocumentRef) (*firestore.DocumentSnapshot, error)
	// GetAll reads documents held by the transaction (locked reads).
	GetAll([]*firestore.DocumentRef) ([]*firestore.DocumentSnapshot, error)
	// query runs a query inside the transaction.
	query(firestore.Query) ([]*firestore.DocumentSnapshot, error)
	Create(*firestore.DocumentRef, any) error
	Set(*firestore.DocumentRef, any, ...firestore.SetOption) error
	Update(*firestore.DocumentRef, []firestore.Update, ...firestore.Precondition) error
	Delete(*firestore.DocumentRef, ...firestore.Precondition) error
}

// inTx is a Firestore transaction as a txn. locked, when set, notes that
// the action made a read a batch could not have (GetAll, a query).
type inTx struct {
	*firestore.Transaction
	locked *atomic.Bool
}

func (t inTx) GetAll(refs []*firestore.DocumentRef) ([]*firestore.DocumentSnapshot, error) {
	t.note()
	return t.Transaction.GetAll(refs)
}

func (t inTx) query(q firestore.Query) ([]*firestore.DocumentSnapshot, error) {
	t.note()
	return t.Documents(q).GetAll()
}

func (t inTx) note() {
	if t.locked != nil {
		t.locked.Store(true)
	}
}

// errNeedTx: the action asked for a read only a transaction can make (a
// locked document, a whole slot); it runs again in one.
var errNeedTx = errors.New("store: this action needs a transaction")

// batchTx runs an action without a transaction: its snapshot reads are plain
// reads, its writes one atomic commit whose preconditions (the update times
// the snapshot reads saw, or that a document does not exist yet) make a
// concurrent change fail it, exactly as the same writes fail a transaction's
// commit; the action then runs again on fresh documents. It saves the
// transaction's begin (and its rollback on a refusal): a one-document action
// costs one read and one commit, two round trips instead of three.
type batchTx struct {
	ctx context.Context
	// The Go client marks WriteBatch deprecated in favour of transactions
	// and BulkWriter, but neither commits several writes atomically without
	// a transaction's begin; the Commit RPC it makes is the one that does.
	wb     *firestore.WriteBatch
	writes int
	// hooks run after a successful commit, each with the update time of
	// the write it was registered after (onCommit).
	hooks []commitHook
}

type commitHook struct {
	write int
	f     func(updated time.Time)
}

// onCommit runs f, once the batch commits, with the update time of the
// write made last before the call.
func (b *batchTx) onCommit(f func(updated time.Time)) {
	if b.writes > 0 {
		b.hooks = append(b.hooks, commitHook{write: b.writes - 1, f: f})
	}
}

func newBatchTx(ctx context.Context, fs *firestore.Client) *batchTx {
	return &batchTx{ctx: ctx, wb: fs.Batch()} //nolint:staticcheck // see batchTx.wb
}

func (b *batchTx) Get(ref *firestore.DocumentRef) (*firestore.DocumentSnapshot, error) {
	return ref.Get(b.ctx)
}

func (b *batchTx) GetAll([]*firestore.DocumentRef) ([]*firestore.DocumentSnapshot, error) {
	return nil, errNeedTx
}

func (b *batchTx) query(firestore.Query) ([]*firestore.DocumentSnapshot, error) {
	return nil, errNeedTx
}

func (b *batchTx) Create(ref *firestore.DocumentRef, v any) error {
	b.wb.Create(ref, v)
	b.writes++
	return nil
}

func (b *batchTx) Set(ref *firestore.DocumentRef, v any, opts ...firestore.SetOption) error {
	b.wb.Set(ref, v, opts...)
	b.writes++
	return nil
}

func (b *batchTx) Update(ref *firestore.DocumentRef, ups []firestore.Update, pre ...firestore.Precondition) error {
	b.wb.Update(ref, ups, pre...)
	b.writes++
	return nil
}

func (b *batchTx) Delete(ref *firestore.DocumentRef, pre ...firestore.Precondition) error {
	b.wb.Delete(ref, pre...)
	b.writes++
	return nil
}

// commit commits the batch's writes, if it has any.
func (b *batchTx) commit() error {
	if b.writes == 0 {
		return nil
	}
	results, err := b.wb.Commit(b.ctx)
	if err != nil {
		return err
	}
	for _, h := range b.hooks {
		if h.write < len(results) {
			h.f(results[h.write].UpdateTime)
		}
	}
	return nil
}

// inTransaction runs f in a transaction.
func (st *Store) inTransaction(ctx context.Context, f func(context.Context, txn) error, opts ...firestore.TransactionOption) error {
	return st.noting(ctx, nil, f, opts...)
}

// noting runs f in a transaction and, when locked is not nil, sets it if f
// made a read a batch could not have made.
func (st *Store) noting(ctx context.Context, locked *atomic.Bool, f func(context.Context, txn) error, opts ...firestore.TransactionOption) error {
	return st.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		return f(ctx, inTx{Transaction: tx, locked: locked})
	}, opts...)
}

// share counts an action type's runs (in this process) and how many of
// them had some property: for txNeeds, that the run made a read only a
// transaction makes; for warmOdds (warm.go), that its warm copy was stale,
// or that it did not write the game document.
type share struct{ runs, yes atomic.Int64 }

// mostly reports whether most of the runs had it. For txNeeds: a run
// started as a batch that needs a transaction pays its reads twice (the
// batch's, then the transaction's); a run started in a transaction that did
// not need one pays the transaction's begin: about one round trip either
// way, so the action starts where most of its runs end. (It was a switch: a
// CodeBowl move that killed a player, a few in a hundred, made every move of
// the process pay the begin.)
func (n *share) mostly() bool { return 2*n.yes.Load() > n.runs.Load() }

// note counts one run; the counts are halved now and then, so an action
// whose runs change follows them.
func (n *share) note(yes bool) {
	if n.runs.Add(1) > 1000 {
		n.runs.Store(n.runs.Load() / 2)
		n.yes.Store(n.yes.Load() / 2)
	}
	if yes {
		n.yes.Add(1)
	}
}

// txNeedsOf is how many runs of action key needed a transaction.
func (st *Store) txNeedsOf(key string) *share { return countsOf[share](&st.needTx, key) }

// countsOf is key's counts in m, made on first use.
func countsOf[T any](m *sync.Map, key string) *T {
	if n, ok := m.Load(key); ok {
		return n.(*T)
	}
	n, _ := m.LoadOrStore(key, new(T))
	return n.(*T)
}

// batched runs f as a batch when *fast, and in a transaction otherwise or
// when f finds it needs one (then *fast becomes false for the runs after).
// Either way it counts whether the run needed the transaction, which
// decides where the action's next runs start (txNeedsOf).
func (st *Store) batched(ctx context.Context, fast *bool, key string, f func(context.Context, txn) error) error {
	counts := st.txNeedsOf(key)
	if *fast {
		b := newBatchTx(ctx, st.FS)
		err := f(ctx, b)
		if !errors.Is(err, errNeedTx) {
			counts.note(false)
			if err != nil {
				return err
			}
			return b.commit()
		}
		*fast = false
		counts.note(true)
		return st.inTransaction(ctx, f)
	}
	var locked atomic.Bool
	err := st.noting(ctx, &locked, f)
	counts.note(locked.Load())
	return err
}
