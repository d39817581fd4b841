package fsemu

import (
	"context"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// BareTransactions runs n read-then-write transactions on ref, which holds
// pad bytes besides its counter, and returns how long each took: the floor
// the load generator and the store's benchmarks set an action against.
func BareTransactions(ctx context.Context, fs *firestore.Client, ref *firestore.DocumentRef, n, pad int) ([]time.Duration, error) {
	filler := strings.Repeat("x", pad)
	var out []time.Duration
	spurious := 0
	for i := 0; i < n; i++ {
		start := time.Now()
		err := fs.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
			if _, err := tx.Get(ref); err != nil && status.Code(err) != codes.NotFound {
				return err
			}
			if pad > 0 {
				return tx.Set(ref, map[string]any{"n": i, "pad": filler})
			}
			return tx.Set(ref, map[string]any{"n": i})
		})
		// Now and then, while a listener follows the document, the emulator
		// answers a transaction's RPC with "call already cancelled", or its
		// commit with "Transaction is invalid or closed" (seen once in 1,000
		// with a listener), though nothing cancelled or closed it: that
		// sample is taken again, a few times.
		if spuriousEnd(err) && ctx.Err() == nil && spurious < 5 {
			spurious++
			i--
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, time.Since(start))
	}
	return out, nil
}

// spuriousEnd tells the emulator's unprompted ends of a transaction that
// BareTransactions takes again.
func spuriousEnd(err error) bool {
	switch status.Code(err) {
	case codes.Canceled:
		return true
	case codes.InvalidArgument:
		return strings.Contains(status.Convert(err).Message(), "Transaction is invalid or closed")
	}
	return false
}
