package store

import (
	"context"
	"os"
	"sync"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// LocalProject is the project id the local stack and examples use.
const LocalProject = "meeple-local"

var (
	defaultOnce  sync.Once
	defaultStore *Store
	defaultErr   error
)

// Default returns the process-wide Store of the games of reg that deployed
// functions share, made on
// first use (not at cold start) from GOOGLE_CLOUD_PROJECT, or the detected
// project in Cloud Functions. With FIRESTORE_EMULATOR_HOST set it talks to the
// emulator, and MEEPLE_FIXED_SEEDS=1 allows chosen seeds. MEEPLE_PACK_TEXT=1
// writes packed fields as text (PackText: an upgrade's first step).
func Default(ctx context.Context, reg domain.Registry) (*Store, error) {
	defaultOnce.Do(func() {
		project := os.Getenv("GOOGLE_CLOUD_PROJECT")
		if project == "" {
			project = firestore.DetectProjectID
			if os.Getenv("FIRESTORE_EMULATOR_HOST") != "" {
				project = LocalProject
			}
		}
		c, err := firestore.NewClient(context.Background(), project)
		if err != nil {
			defaultErr = err
			return
		}
		defaultStore = New(c, reg)
		defaultStore.ProjectionSettle = DefaultProjectionSettle
		defaultStore.FixedSeeds = os.Getenv("MEEPLE_FIXED_SEEDS") == "1" && os.Getenv("FIRESTORE_EMULATOR_HOST") != ""
		PackText = os.Getenv("MEEPLE_PACK_TEXT") == "1"
	})
	return defaultStore, defaultErr
}

// SetDefault makes st the process-wide Store: the local stack and tests use it
// to hand their own Store to the registered functions.
func SetDefault(st *Store) {
	defaultOnce.Do(func() {})
	defaultStore, defaultErr = st, nil
}
