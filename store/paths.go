package store

import (
	"fmt"
	"strings"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// Collections and documents, as docs/firestore.md describes them.
const (
	colGames       = "games"
	colEvents      = "events"
	colPrivate     = "private"
	colActions     = "actions"
	colPlayers     = "players"
	colRooms       = "rooms"
	colUsers       = "users"
	colUsernames   = "usernames"
	colQueues      = "queues"
	colTickets     = "tickets"
	colLeaderboard = "leaderboards"
	colConfig      = "config"
	docServer      = "server" // games/{id}/private/server: the seed and other secrets of a game without a room (server.go)
)

// gamePath is the path of game id's document.
func gamePath(id string) string { return colGames + "/" + id }

// roomDocRef is games/{id}/private/room: a private game's room code, for
// its players (createGame, roomCodeOf).
func (s *Store) roomDocRef(gameID string) *firestore.DocumentRef {
	return s.gameRef(gameID).Collection(colPrivate).Doc(docRoom)
}

func (s *Store) gameRef(id string) *firestore.DocumentRef {
	return s.FS.Collection(colGames).Doc(id)
}

// BotTurnPattern is the document every write of an active game that seats
// a bot also writes, and no other game's write does: the BotTurn trigger
// watches it, so the writes of games without a bot invoke nothing (bots.go).
const BotTurnPattern = "games/{gameId}/bots/turn"

func (s *Store) botTurnRef(gameID string) *firestore.DocumentRef {
	return s.gameRef(gameID).Collection("bots").Doc("turn")
}

func (s *Store) privateRef(gameID string) *firestore.DocumentRef {
	return s.gameRef(gameID).Collection(colPrivate).Doc(docServer)
}

// actionRef is the record of an action: keyed by who sent it and the id they
// chose, so two players who happen to pick the same action id never collide.
func (s *Store) actionRef(gameID string, a domain.Action) *firestore.DocumentRef {
	return s.actionRefByID(gameID, recordKey(a))
}

// actionRefByID is the document id of game gameID's actions collection: an
// action's record, or a batch of records moved from the journal
// (journal.go).
func (s *Store) actionRefByID(gameID, id string) *firestore.DocumentRef {
	return s.gameRef(gameID).Collection(colActions).Doc(id)
}

// gameOf is the id of the game whose subcollection holds ref
// (games/{gameId}/{collection}/{id}): false for a document of a collection
// of the same name elsewhere, which a collection-group query also finds.
func gameOf(ref *firestore.DocumentRef) (string, bool) {
	game := ref.Parent.Parent
	if game == nil || game.Parent == nil || game.Parent.ID != colGames || game.Parent.Parent != nil {
		return "", false
	}
	return game.ID, true
}

// EventID is the id of the event record of the step that made version seq:
// zero-padded so ids sort in order.
func EventID(seq int64) string { return fmt.Sprintf("%012d", seq) }

// eventRef is an event record: EventID(seq) for a step that versions the game,
// "{actorId}~{actionId}" (the action record's id) for one that does not (so
// actors acting at once share no counter).
func (s *Store) eventRef(gameID, id string) *firestore.DocumentRef {
	return s.gameRef(gameID).Collection(colEvents).Doc(id)
}

func (s *Store) roomRef(code string) *firestore.DocumentRef {
	return s.FS.Collection(colRooms).Doc(code)
}

func (s *Store) playerRef(id string) *firestore.DocumentRef {
	return s.FS.Collection(colPlayers).Doc(id)
}

// docPath is a document's path from the database's root
// ("config/dashdice/modes/classic"), as FS.Doc takes it.
func docPath(ref *firestore.DocumentRef) string {
	_, p, ok := strings.Cut(ref.Path, "/documents/")
	if !ok {
		return ref.Path
	}
	return p
}
