package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// Field names of the game document (games/{id}); docs/firestore.md lists them.
const (
	fKind       = "kind"
	fStatus     = "status"
	fVersion    = "version"
	fPlayers    = "players"
	fState      = "state"
	fDeadlineAt = "deadlineAt"
	fSeedHash   = "seedHash"
	fSeed       = "seed"
	fPrivate    = "private"
	fHasRoom    = "hasRoom"
	// fSecretActs: the game's actions are their actors' secrets
	// (domain.Header.Secret), written by its create and never after, so
	// that every retry of one of its actions is fingerprinted as the
	// action was (execution.secret).
	fSecretActs = "secretActs"
	// fSealed: text only the server opens (domain.Write.Sealed: a hidden
	// game's whole state).
	fSealed = "sealed"
	// fViews: each viewer's view, sealed for that viewer alone
	// (domain.Write.Views: a hidden game's), by viewer id.
	fViews     = "views"
	fRoomCode  = "roomCode" // a public game's room code (createGame)
	docRoom    = "room"     // games/{id}/private/room: a private game's room code, for its players
	fCreatedAt = "createdAt"
	fUpdatedAt = "updatedAt"
)

// gameFields are the fields a state change rewrites on the game document.
//
// The state is stored as its JSON text, a packed field (domain.PackedField
// lists it; readers parse it back: unpacked, web/src/firebase.ts unpack).
// Firestore converts and compares every field of a document on every write
// (and the emulator, which ignores firestore.indexes.json's exemptions,
// indexes them): a game state is hundreds of fields, which made the commit
// of a one-document action cost more than a bare transaction whole
// (docs/firestore.md, "Packed fields"). No rule and no query looks into it.
func gameFields(h domain.Header, state any, version int64, now time.Time) ([]firestore.Update, error) {
	text, ok := state.(json.RawMessage)
	if !ok {
		var err error
		if text, err = json.Marshal(state); err != nil {
			return nil, err
		}
	}
	var deadline any // null keeps the game out of the tick's deadline query
	if !h.Deadline.IsZero() {
		deadline = h.Deadline
	}
	players := h.Players
	if players == nil {
		players = []string{}
	}
	packed, err := packedValue(text)
	if err != nil {
		return nil, err
	}
	fields := []firestore.Update{
		{Path: fState, Value: packed},
		{Path: domain.PackedField, Value: []string{fState}},
		{Path: fStatus, Value: string(h.Status)},
		{Path: fVersion, Value: version},
		{Path: fPlayers, Value: players},
		{Path: fDeadlineAt, Value: deadline},
		{Path: fUpdatedAt, Value: now},
	}
	// Private is set when the game is created and never lowered: a later
	// header that leaves it out cannot open a private room to anyone who
	// has its id (the join check reads it).
	if version == 0 || h.Private {
		fields = append(fields, firestore.Update{Path: fPrivate, Value: h.Private})
	}
	// A game made private after its create (no game does so today) keeps
	// the room code it had in its document: its server-only fields are
	// found by it (server.go). It has no private/room (createGame writes one
	// for a game private from its create), so from then on nobody joins it
	// by code (checkRoom): closed rather than open to whoever read the code.
	return fields, nil
}

// newGameDoc is the whole document of a game being created at version 0.
func newGameDoc(kind string, h domain.Header, state any, seedHash, roomCode string, now time.Time) (map[string]any, error) {
	fields, err := gameFields(h, state, 0, now)
	if err != nil {
		return nil, err
	}
	doc := map[string]any{fKind: kind, fSeedHash: seedHash, fCreatedAt: now}
	for _, f := range fields {
		doc[f.Path] = f.Value
	}
	doc[fHasRoom] = roomCode != ""
	if h.Secret {
		doc[fSecretActs] = true
	}
	if roomCode != "" && !h.Private {
		doc[fRoomCode] = roomCode
	}
	return doc, nil
}

// createGame writes a new game, its room (if any) and its server-only
// fields (the seed: server.go) in tx. rooms/{code}, which only the server
// reads, resolves the code and holds them; a game without a room keeps them
// in games/{id}/private/server. A private
// game's code is its key (checkRoom): it is kept out of the game document,
// which anyone may read, in games/{id}/private/room, which only the game's
// players may read. A public game, which anyone may join by its id, has its
// code in its game document, for its players to share: one document fewer
// a game (issue 22).
func createGame(tx txn, st *Store, kind, id string, h domain.Header, state any, seed, roomCode string, now time.Time, extra, private map[string]any) error {
	doc, err := newGameDoc(kind, h, state, domain.SeedHash(seed), roomCode, now)
	if err != nil {
		return err
	}
	for k, v := range extra {
		doc[k] = v
	}
	if err := tx.Create(st.gameRef(id), doc); err != nil {
		return err
	}
	if err := st.nudgeBots(tx, id, h, 0, now); err != nil {
		return err
	}
	if roomCode != "" && h.Private {
		if err := tx.Create(st.roomDocRef(id), map[string]any{"code": roomCode, fCreatedAt: now}); err != nil {
			return err
		}
	}
	priv := map[string]any{fSeed: seed, fKind: kind, fCreatedAt: now}
	for k, v := range private {
		priv[k] = v
	}
	// Created, not set: a room holding the code already fails the create,
	// which runs again with another code (roomCode).
	ref, doc := st.serverFields(id, roomCode, priv)
	return tx.Create(ref, doc)
}

// roomCodeOf reads a private game's room code in tx ("" when it has none).
func (st *Store) roomCodeOf(tx txn, gameID string) (string, error) {
	snap, err := tx.Get(st.roomDocRef(gameID))
	if notFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	code, _ := snap.Data()["code"].(string)
	return code, nil
}

// GameDoc reads the public game document (for tests and tools), its packed
// state parsed back (Unpacked).
//
// Errors: ENOTFOUND.
func (s *Store) GameDoc(ctx context.Context, id string) (map[string]any, error) {
	data, err := s.gameDoc(ctx, id)
	if err != nil {
		return nil, err
	}
	return Unpacked(data)
}

// gameDoc reads the game document's fields as stored.
func (s *Store) gameDoc(ctx context.Context, id string) (map[string]any, error) {
	snap, err := s.gameRef(id).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return nil, domain.Errorf(domain.ENOTFOUND, "no game %q", id)
	}
	if err != nil {
		return nil, err
	}
	return snap.Data(), nil
}

// GameState reads a game's public state into v.
func (s *Store) GameState(ctx context.Context, id string, v any) (version int64, err error) {
	data, err := s.gameDoc(ctx, id)
	if err != nil {
		return 0, err
	}
	version, _ = data[fVersion].(int64)
	state, err := fieldJSON(data, fState)
	if err != nil {
		return 0, err
	}
	if err := json.Unmarshal(state, v); err != nil {
		return 0, fmt.Errorf("store: decode %T: %w", v, err)
	}
	return version, nil
}

// PutGame writes a new game document with a chosen header, state and seed,
// as a create would: for tests and tools that need a game in a given state.
//
// Errors: EEXISTS (the id is taken).
func (s *Store) PutGame(ctx context.Context, kind, id string, h domain.Header, state any, seed string) error {
	err := s.inTransaction(ctx, func(ctx context.Context, tx txn) error {
		return createGame(tx, s, kind, id, h, state, seed, "", s.now(), nil, nil)
	})
	if status.Code(err) == codes.AlreadyExists {
		return domain.Errorf(domain.EEXISTS, "game %q already exists", id)
	}
	return err
}

// headOfFields is a game document's header from its stored fields, as its
// JSON decodes into domain.GameDoc (no state); nil when a field is not of
// the type a header has, so the caller decodes the JSON instead.
func headOfFields(f map[string]any) *domain.GameDoc[json.RawMessage] {
	ok := true
	h := domain.GameDoc[json.RawMessage]{
		Kind:     headField[string](f, fKind, &ok),
		Status:   domain.Status(headField[string](f, fStatus, &ok)),
		Version:  headField[int64](f, fVersion, &ok),
		Private:  headField[bool](f, fPrivate, &ok),
		SeedHash: headField[string](f, fSeedHash, &ok),
	}
	if !ok {
		return nil
	}
	return &h
}

// headField is field name of f as a T, its zero value when absent; ok is
// set false when it holds anything else.
func headField[T any](f map[string]any, name string, ok *bool) T {
	var zero T
	switch v := f[name].(type) {
	case T:
		return v
	case nil:
	default:
		*ok = false
	}
	return zero
}
