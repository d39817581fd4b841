package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"cloud.google.com/go/firestore"
)

// Floor implements domain.Probe: writers goroutines, released together, each
// running rounds transactions that read reads documents and write writes
// documents of its own (loadgen/floor-{writer}-{i}).
func (p *probe) Floor(ctx context.Context, writers, reads, writes, rounds int) (time.Duration, error) {
	errs := make([]error, writers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			refs := make([]*firestore.DocumentRef, max(reads, writes))
			for i := range refs {
				refs[i] = p.fs.Collection("loadgen").Doc(fmt.Sprintf("floor-%d-%d", w, i))
			}
			<-start
			for r := 0; r < rounds && errs[w] == nil; r++ {
				errs[w] = p.fs.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
					if _, err := tx.GetAll(refs[:reads]); err != nil {
						return err
					}
					for _, ref := range refs[:writes] {
						if err := tx.Set(ref, map[string]any{"round": r}); err != nil {
							return err
						}
					}
					return nil
				})
			}
		}()
	}
	t := time.Now()
	close(start)
	wg.Wait()
	return time.Since(t), errors.Join(errs...)
}
