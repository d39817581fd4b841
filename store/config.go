package store

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Config reads the operator's configuration document config/{kind}/{set}/{id}
// into v, reporting whether it exists. Operators write these documents (the
// console, gcloud or a script); clients can neither read nor write them.
func (s *Store) Config(ctx context.Context, kind, set, id string, v any) (bool, error) {
	snap, err := s.FS.Collection(colConfig).Doc(kind).Collection(set).Doc(id).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, fromFirestore(snap.Data(), v)
}

// SetConfig writes a configuration document (the local stack and tests use it).
func (s *Store) SetConfig(ctx context.Context, kind, set, id string, v any) error {
	m, err := toFirestore(v)
	if err != nil {
		return err
	}
	ref := s.FS.Collection(colConfig).Doc(kind).Collection(set).Doc(id)
	_, err = ref.Set(ctx, m)
	s.configs.forget(docPath(ref)) // this instance sees its own change at once
	return err
}
