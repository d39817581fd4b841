package store

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

const colBoards = "boards"

// SaveBoard stores an uploaded board file under its content id. Boards never
// change once stored (the id is a hash of the file), so saving the same board
// twice is harmless.
func (s *Store) SaveBoard(ctx context.Context, id, name string, file []byte) error {
	_, err := s.FS.Collection(colBoards).Doc(id).Set(ctx, map[string]any{
		"name": name, "file": string(file), fCreatedAt: s.now()})
	return err
}

// BoardFile reads an uploaded board file.
//
// Errors: ENOTFOUND.
func (s *Store) BoardFile(ctx context.Context, id string) ([]byte, error) {
	snap, err := s.FS.Collection(colBoards).Doc(id).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return nil, domain.Errorf(domain.ENOTFOUND, "no board %q", id)
	}
	if err != nil {
		return nil, err
	}
	f, _ := snap.Data()["file"].(string)
	return []byte(f), nil
}
