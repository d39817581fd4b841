package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"cloud.google.com/go/firestore"
)

// together runs each(w) for w in 0..writers-1 on goroutines released at the
// same moment, and returns how long they all took and their errors.
func together(writers int, each func(w int) error) (time.Duration, error) {
	errs := make([]error, writers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[w] = each(w)
		}()
	}
	t := time.Now()
	close(start)
	wg.Wait()
	return time.Since(t), errors.Join(errs...)
}

// Floor implements domain.Probe: writers goroutines, released together, each
// running rounds transactions that read reads documents and write writes
// documents of its own (loadgen/floor-{writer}-{i}).
func (p *probe) Floor(ctx context.Context, writers, reads, writes, rounds int) (time.Duration, error) {
	refs := make([][]*firestore.DocumentRef, writers)
	for w := range writers {
		refs[w] = make([]*firestore.DocumentRef, max(reads, writes))
		for i := range refs[w] {
			refs[w][i] = p.fs.Collection("loadgen").Doc(fmt.Sprintf("floor-%d-%d", w, i))
		}
	}
	return together(writers, func(w int) error {
		for r := range rounds {
			err := p.fs.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
				if _, err := tx.GetAll(refs[w][:reads]); err != nil {
					return err
				}
				for _, ref := range refs[w][:writes] {
					if err := tx.Set(ref, map[string]any{"round": r}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// DocFloor implements domain.Probe: writers goroutines, released together,
// each running rounds of what a one-team action costs Firestore with no
// stack in front: one batched read of its own copies of reads, then one
// commit that writes writes[0] over its copy of reads[min(1, …)] on the
// condition that it is unchanged (as a snapshot write is) and creates the
// rest as new documents (loadgen/docfloor-…).
func (p *probe) DocFloor(ctx context.Context, writers, rounds int, reads, writes []map[string]any) (time.Duration, error) {
	if len(reads) == 0 || len(writes) == 0 {
		return 0, errors.New("loadgen: DocFloor needs documents to read and write")
	}
	run := fmt.Sprint(time.Now().UnixNano())
	refs := make([][]*firestore.DocumentRef, writers)
	for w := range writers {
		for i, d := range reads {
			ref := p.fs.Collection("loadgen").Doc(fmt.Sprintf("docfloor-%s-%d-%d", run, w, i))
			if _, err := ref.Set(ctx, d); err != nil {
				return 0, err
			}
			refs[w] = append(refs[w], ref)
		}
	}
	over := min(1, len(reads)-1) // the document written back: a team's
	return together(writers, func(w int) error {
		for r := range rounds {
			snaps, err := p.fs.GetAll(ctx, refs[w])
			if err != nil {
				return err
			}
			// Update, the only write that takes a precondition, every field
			// named (as the store writes a snapshot back).
			var ups []firestore.Update
			for k, v := range writes[0] {
				ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{k}, Value: v})
			}
			b := p.fs.Batch() //nolint:staticcheck // the atomic commit without a transaction the store makes (store/txn.go)
			b.Update(refs[w][over], ups, firestore.LastUpdateTime(snaps[over].UpdateTime))
			for i, d := range writes[1:] {
				b.Create(p.fs.Collection("loadgen").Doc(fmt.Sprintf("docfloor-%s-%d-%d-w%d", run, w, r, i)), d)
			}
			if _, err := b.Commit(ctx); err != nil {
				return err
			}
		}
		return nil
	})
}
