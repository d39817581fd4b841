package store

import (
	"context"
	"maps"

	"cloud.google.com/go/firestore"
)

// A game's server-only fields — its seed, its create's reply, how it began
// (for a replay) — live in the one server-only document its create writes
// anyway: rooms/{code} for a game with a room code (the document that
// resolves the code, which no rule lets a client read), else
// games/{id}/private/server. One document fewer per game with a room
// (issue 22): a CodeBowl match, a Hex & Dice or Party Board game, a private
// DashDice match.
//
// Readers find it from the game document (gameRoom): a public game names
// its code there; a private game's code is in games/{id}/private/room,
// read once more (the seed is then cached, Store.seeds). A game created
// before this (its room holds no seed) keeps private/server, which
// serverDoc falls back to.

// gameRoom is what a game document says of its room.
type gameRoom struct {
	Has     bool   // hasRoom
	Code    string // roomCode: a public game's code
	Private bool   // private: its code is in private/room
}

// roomOfFields is the room a game document's fields (as stored) describe.
func roomOfFields(f map[string]any) gameRoom {
	var r gameRoom
	r.Has, _ = f[fHasRoom].(bool)
	r.Code, _ = f[fRoomCode].(string)
	r.Private, _ = f[fPrivate].(bool)
	return r
}

// getter reads one document (a transaction's Get, or a plain one); a
// missing document is an error of code NotFound, as both give it.
type getter func(*firestore.DocumentRef) (*firestore.DocumentSnapshot, error)

// plainGet reads outside any transaction.
func plainGet(ctx context.Context) getter {
	return func(ref *firestore.DocumentRef) (*firestore.DocumentSnapshot, error) { return ref.Get(ctx) }
}

// serverDoc reads game gameID's server-only document: its room's, when the
// game has a room code and the room holds its fields, else private/server.
// The snapshot may not exist (recordedReply and the seed's reader tell).
func (st *Store) serverDoc(get getter, gameID string, r gameRoom) (*firestore.DocumentSnapshot, error) {
	code := r.Code
	if code == "" && r.Has && r.Private {
		snap, err := get(st.roomDocRef(gameID))
		switch {
		case err == nil:
			code, _ = snap.Data()["code"].(string)
		case !notFound(err):
			return nil, err
		}
	}
	if code != "" {
		snap, err := get(st.roomRef(code))
		if err != nil && !notFound(err) {
			return nil, err
		}
		if err == nil {
			if data := snap.Data(); data["gameId"] == gameID && data[fSeed] != nil {
				return snap, nil
			}
		}
	}
	return get(st.privateRef(gameID))
}

// serverFields is the server-only document of a game being created, with
// its fields (private, which names the kind): its room's, which also
// resolves code to the game, or with no code private/server's.
func (st *Store) serverFields(gameID, code string, private map[string]any) (*firestore.DocumentRef, map[string]any) {
	if code == "" {
		return st.privateRef(gameID), private
	}
	doc := maps.Clone(private)
	doc["gameId"] = gameID
	return st.roomRef(code), doc
}

// room is the room of the game document rs read (none when it read none).
func (rs *readSet) room() gameRoom {
	if rs == nil {
		return gameRoom{}
	}
	return rs.gameRoom
}
