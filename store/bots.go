package store

import (
	"context"
	"encoding/json"
	"errors"
	"hash/fnv"
	"strconv"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// BotStall is how long a game with a bot may go unwritten before the tick
// looks whether a bot should move in it: the document trigger moves bots at
// once, so the tick only catches a lost or failed delivery.
const BotStall = 5 * time.Second

// BotGame is an active game with a bot seated.
type BotGame struct {
	ID   string
	Kind string
}

// BotGames returns up to limit active games with a bot seated that were
// last written at or before olderThan, the stalest first: what the tick
// hands to PlayBots. One query (players array-contains-any the bot ids,
// status ==, updatedAt <=): the composite index in firestore.indexes.json.
func (s *Store) BotGames(ctx context.Context, olderThan time.Time, limit int) ([]BotGame, error) {
	ids := make([]any, 0, len(domain.BotIDs()))
	for _, id := range domain.BotIDs() {
		ids = append(ids, id)
	}
	snaps, err := s.FS.Collection(colGames).
		Where(fPlayers, "array-contains-any", ids).
		Where(fStatus, "==", string(domain.StatusActive)).
		Where(fUpdatedAt, "<=", olderThan).
		OrderBy(fUpdatedAt, firestore.Asc).
		Limit(limit).
		Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	out := make([]BotGame, 0, len(snaps))
	for _, snap := range snaps {
		kind, _ := snap.Data()[fKind].(string)
		out = append(out, BotGame{ID: snap.Ref.ID, Kind: kind})
	}
	return out, nil
}

// HasBot reports whether a game document's players (as Firestore holds
// them) include a bot: the document trigger's test, which reads nothing.
func HasBot(players []string) bool {
	for _, p := range players {
		if domain.IsBot(p) {
			return true
		}
	}
	return false
}

// nudgeBots writes the bot-turn document of game id (BotTurnPattern) in the
// commit that writes the game document with header h at version, when the
// game is active and seats a bot: its write is what brings the bots to move
// (triggers.BotTurn). A game without a bot writes nothing more.
func (st *Store) nudgeBots(tx txn, id string, h domain.Header, version int64, now time.Time) error {
	if h.Status != domain.StatusActive || !HasBot(h.Players) {
		return nil
	}
	return tx.Set(st.botTurnRef(id), map[string]any{fVersion: version, fUpdatedAt: now})
}

// BotActionID is the action id of a bot's move on a game at version: a
// redelivered trigger, or the tick after it, sends the same request under
// the same id, which the pipeline answers with its first reply and never
// applies twice.
func BotActionID(version int64) string { return "bot-v" + strconv.FormatInt(version, 10) }

// botSeed makes a bot's choice on a game at a version repeatable.
func botSeed(gameID, bot string, version int64) uint64 {
	h := fnv.New64a()
	h.Write([]byte(gameID + "\x00" + bot + "\x00" + strconv.FormatInt(version, 10)))
	return h.Sum64()
}

// PlayBots reads game gameID and makes one move for every bot seated in it
// that has one (the game's Bots decide, from what the bot's seat may read:
// the game document's state, and in a game that hides state from its seats
// the bot's own view document — botMove),
// each through Run as the bot: the game's admission, its rules and the
// action-id idempotency a person's move goes through, applied only to the
// version the bot looked at (ExpectVersion). The move's write fires the
// document trigger again, so a bot with several moves in a turn plays them
// one write at a time. It returns how many moves were applied.
//
// A stale version (someone moved first) or a refused move is not an error:
// the write that made it stale brings the bot back.
func PlayBots(ctx context.Context, st *Store, gameID string) (int, error) {
	data, err := st.gameDoc(ctx, gameID)
	if domain.ErrorCode(err) == domain.ENOTFOUND {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	kind, _ := data[fKind].(string)
	e, ok := st.Games.Find(kind)
	if !ok || e.Bots == nil {
		return 0, nil
	}
	if status, _ := data[fStatus].(string); status != string(domain.StatusActive) {
		return 0, nil
	}
	var players []string
	if err := fromFirestore(data[fPlayers], &players); err != nil {
		return 0, err
	}
	version, _ := data[fVersion].(int64)
	state, err := fieldJSON(data, fState)
	if err != nil {
		return 0, err
	}
	played := 0
	var errs []error
	for _, id := range players {
		bot, level, ok := domain.BotOf(id)
		if !ok {
			continue
		}
		mv, ok, err := st.botMove(ctx, e, gameID, data, state, version, bot, level, botSeed(gameID, id, version))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !ok {
			continue
		}
		applied, err := playBot(ctx, st, kind, gameID, bot, mv, version)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if applied {
			played++
			break // the others look again at the version it made
		}
	}
	return played, errors.Join(errs...)
}

// botMove asks the game's Bots for bot's move on the game document's state
// at version (the document's fields: data). A game that declares view
// documents (domain.SlotView: the hidden-information contract,
// domain.Hidden) may hide part of its state from the seats: when it keeps a
// view for the bot — sealed for it in the game document (fViews), or in a
// game from before the views were sealed its view document — the bot
// decides from that view and the game document, what a person in its seat
// reads, through domain.ViewBots. The whole state (sealed, or
// private/state) is never opened here. A view document written after the
// game document was read (a newer version) gives no move: the write that
// made it brings the bot back.
func (st *Store) botMove(ctx context.Context, e domain.Entry, gameID string, data map[string]any, state json.RawMessage, version int64, bot domain.Actor, level string, seed uint64) (domain.Move, bool, error) {
	sl := st.slotsOf(e.Game)
	if _, hidden := sl.byName[domain.SlotView]; !hidden {
		return e.Bots.Move(state, bot, level, seed, st.now())
	}
	if views, ok := data[fViews].(map[string]any); ok {
		text, ok := views[bot.ID].(string)
		if !ok {
			return e.Bots.Move(state, bot, level, seed, st.now()) // nothing hidden from it
		}
		// Opened with the bot's own key, as its client would.
		s, err := st.sealerOf(plainGet(ctx), gameID, roomOfFields(data))
		if err != nil {
			return domain.Move{}, false, err
		}
		view, err := s.Open(domain.ViewLabel(bot.ID), text)
		if err != nil {
			return domain.Move{}, false, err
		}
		return viewMove(e, state, view, bot, level, seed, st.now())
	}
	path, err := sl.path(gameID, domain.Doc(domain.SlotView, bot.ID))
	if err != nil {
		return domain.Move{}, false, err
	}
	snap, err := st.FS.Doc(path).Get(ctx)
	if notFound(err) {
		return e.Bots.Move(state, bot, level, seed, st.now()) // nothing hidden from it
	}
	if err != nil {
		return domain.Move{}, false, err
	}
	vd := snap.Data()
	if v, _ := vd[fVersion].(int64); v > version {
		return domain.Move{}, false, nil
	}
	view, err := docJSON(vd)
	if err != nil {
		return domain.Move{}, false, err
	}
	return viewMove(e, state, view, bot, level, seed, st.now())
}

// viewMove is the bot's move from its view (the view document's JSON).
func viewMove(e domain.Entry, state, view json.RawMessage, bot domain.Actor, level string, seed uint64, now time.Time) (domain.Move, bool, error) {
	vb, ok := e.Bots.(domain.ViewBots)
	if !ok {
		return domain.Move{}, false, domain.Errorf(domain.EINTERNAL, "%s keeps a view for %s, and its bots cannot play from one (domain.ViewBots)", e.Kind(), bot.ID)
	}
	return vb.MoveView(state, view, bot, level, seed, now)
}

// playBot sends one bot move; applied false when the version moved on or
// the rules refused it.
func playBot(ctx context.Context, st *Store, kind, gameID string, bot domain.Actor, mv domain.Move, version int64) (bool, error) {
	body := map[string]any{"gameId": gameID, "actionId": BotActionID(version), "type": mv.Type}
	for k, v := range mv.Payload {
		body[k] = v
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return false, err
	}
	a := domain.Action{ID: BotActionID(version), Type: mv.Type, Actor: bot, Payload: payload}
	_, _, err = Run(ctx, st, Request{Kind: kind, GameID: gameID, Action: a, ExpectVersion: &version})
	switch domain.ErrorCode(err) {
	case "":
		return err == nil, err
	case domain.ECONFLICT, domain.EINVALID, domain.EFORBIDDEN, domain.EEXISTS:
		// Stale, or refused: nothing to do until the next write.
		return false, nil
	}
	return false, err
}

// QuickMatchOrBot is QuickMatch for a caller who will play a bot rather than
// wait longer than botAfter (0: wait for a person only): a poll of the same
// search (same action id) that finds nobody after botAfter makes the
// caller's game with a strong bot as the opponent, seated through the
// game's join exactly as a paired person is (pairGame), and marks the
// caller's ticket matched — in one transaction conditional on the ticket,
// so a person who claims the caller first wins and no game is made twice.
//
// Errors: as QuickMatch; EINVALID when botAfter is set for a game without
// bots.
func QuickMatchOrBot(ctx context.Context, st *Store, kind string, me domain.Actor, actionID string, payload json.RawMessage, botAfter time.Duration) (Ticket, error) {
	e, ok := st.Games.Find(kind)
	if ok && botAfter > 0 && e.Bots == nil {
		return Ticket{}, domain.Errorf(domain.EINVALID, "botAfter: %s games take no bots", kind)
	}
	t, err := QuickMatch(ctx, st, kind, me, actionID, payload)
	if err != nil || botAfter <= 0 || t.Status != ticketWaiting || st.now().Sub(t.Since) < botAfter {
		return t, err
	}
	m, _ := e.Game.(domain.Matcher) // QuickMatch checked it
	name, _, err := m.Queue(payload)
	if err != nil {
		return Ticket{}, err
	}
	mine := st.FS.Collection(colQueues).Doc(kind + "-" + name).Collection(colTickets).Doc(me.ID)
	bot := domain.BotActor(domain.BotStrong, 1)
	id := NewID()
	var out Ticket
	err = st.inTransaction(ctx, func(ctx context.Context, tx txn) error {
		now := st.now()
		cur, snap, err := ticketOf(tx.Get(mine))
		if err != nil {
			return err
		}
		if cur.ActionID != actionID || cur.Status != ticketWaiting {
			out = cur.ticket() // matched meanwhile, or left
			return nil
		}
		join := bot
		if err := st.pairGame(ctx, tx, e, id, me, actionID, json.RawMessage(cur.Create), join, "quickMatchBot~"+actionID, payload, now); err != nil {
			return err
		}
		t := cur
		t.Status, t.GameID, t.Since, t.Seen, t.Create = ticketMatched, id, now, now, ""
		out = t.ticket()
		return tx.Update(mine, []firestore.Update{
			{Path: "status", Value: ticketMatched}, {Path: "gameId", Value: id}, {Path: "since", Value: now},
			{Path: "seen", Value: now}, {Path: "create", Value: firestore.Delete},
		}, firestore.LastUpdateTime(snap.UpdateTime))
	}, firestore.MaxAttempts(1))
	if lostRace(err) {
		return QuickMatch(ctx, st, kind, me, actionID, payload) // someone claimed me: the match
	}
	return out, err
}
