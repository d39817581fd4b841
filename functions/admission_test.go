package functions_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/games"
)

// TestAdmission: a token scoped to one race (its master, an admin, a team)
// is refused by every other game (a fog game's viewKey included) and by
// every other race; the masters of two
// races are two actors.
func TestAdmission(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	a, b := newRace(t, s, 1, true), newRace(t, s, 1, true)
	fog := newHexGame(s, s.guest("Host"), hexdice.CreateRequest{Size: hexdice.Small, Fog: true}, "admission-fog")
	scoped := map[string]string{"master": a.master, "admin": a.admin, "team": a.teams[0].token}
	for who, tok := range scoped {
		t.Run(who+" of race A", func(t *testing.T) {
			for _, tc := range []struct {
				fn   string
				body map[string]any
			}{
				{"DashDice", map[string]any{"actionId": "x-" + who, "type": "create", "mode": "classic"}},
				{"DashDice", map[string]any{"actionId": "q-" + who, "type": "quickMatch", "mode": "classic"}},
				{"PartyBoard", map[string]any{"actionId": "x-" + who, "type": "create", "board": "pokemon-gen1"}},
				{"TileRace", map[string]any{"actionId": "x-" + who, "type": "create", "name": "Eve", "password": "password1"}},
				{"TileRace", map[string]any{"gameId": b.id, "actionId": "x-" + who, "type": "viewBoard"}},
				{"HexDice", map[string]any{"gameId": fog.id, "actionId": "k-" + who, "type": domain.ActionViewKey}},
				{"TileRace", map[string]any{"gameId": b.id, "actionId": "y-" + who, "type": "complete", "team": b.teams[0].id, "tile": 1, "recorded": 0, "players": []string{"Cap1"}}},
			} {
				code, out := s.post(tok, tc.fn, tc.body)
				require.Equal(t, http.StatusForbidden, code, "%s %v: %v", tc.fn, tc.body["type"], out)
				require.Equal(t, domain.EFORBIDDEN, errCode(out))
			}
		})
	}
	// The two masters are two actors: their sessions name different ids.
	ma := s.session(a.master)
	mb := s.session(b.master)
	require.NotEqual(t, ma.ID, mb.ID)
	require.Equal(t, a.id+":master", ma.ID)
}

// TestPrivateRooms: a private room's code is not in its game document (only
// its players may read games/{id}/private/room), and it can be joined only
// with the code, through each game's own join; a public one by its id too,
// and by its code, which its game document holds.
// The rule is the platform's: every registered game whose create takes
// "private" and which has a join is in the table, or the test fails.
func TestPrivateRooms(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ctx := context.Background()
	host, eve, bob := s.guest("Host"), s.guest("Eve"), s.guest("Bob")
	// Per game: the host's create and a joiner's join payload (without the
	// game id or room code), for callers who may play it.
	type room struct {
		create func(host player) map[string]any
		join   func(joiner player) map[string]any
		// players: who hosts, who sneaks in by id, who joins with the code.
		players func() (player, player, player)
		// fresh is a new caller who may play it (a public game's host and
		// joiner: the others' CodeBowl teams are busy in the private one).
		fresh func(name string) player
	}
	guests := func() (player, player, player) { return host, eve, bob }
	coaches := map[string]player{}
	coach := func(name string) player {
		if c, ok := coaches[name]; ok {
			return c
		}
		coaches[name] = s.cbCoach(name)
		return coaches[name]
	}
	cbTeams := map[string]string{}
	cbTeam := func(p player) string {
		if id, ok := cbTeams[p.ID]; ok {
			return id
		}
		cbTeams[p.ID] = s.cbTeam(p, "team-"+p.ID, cbSpec("Side"+p.Name, 3, 3, 6))
		return cbTeams[p.ID]
	}
	rooms := map[string]room{
		"DashDice": {
			create:  func(player) map[string]any { return map[string]any{"mode": "classic"} },
			join:    func(player) map[string]any { return map[string]any{} },
			players: guests,
			fresh:   s.guest,
		},
		"PartyBoard": {
			create:  func(player) map[string]any { return map[string]any{"board": "pokemon-gen1"} },
			join:    func(player) map[string]any { return map[string]any{} },
			players: guests,
			fresh:   s.guest,
		},
		"HexDice": {
			create:  func(player) map[string]any { return map[string]any{} },
			join:    func(player) map[string]any { return map[string]any{} },
			players: guests,
			fresh:   s.guest,
		},
		"CodeBowl": {
			create:  func(p player) map[string]any { return map[string]any{"teamId": cbTeam(p)} },
			join:    func(p player) map[string]any { return map[string]any{"teamId": cbTeam(p)} },
			players: func() (player, player, player) { return coach("cbhost"), coach("cbeve"), coach("cbbob") },
			fresh:   coach,
		},
	}
	for _, e := range games.All() {
		docs, ok := e.Game.(domain.ActionDocer)
		if !ok {
			continue
		}
		joins, private := false, false
		for _, d := range docs.ActionDocs() {
			if d.Type == domain.ActionJoin {
				joins = true
			}
			if d.Type == domain.ActionCreate {
				for _, f := range d.Fields() {
					private = private || f.Name == "private"
				}
			}
		}
		if !joins || !private {
			continue
		}
		fn := e.Function
		r, ok := rooms[fn]
		if !ok {
			t.Errorf("%s has private rooms and a join but no case here: add one", fn)
			continue
		}
		t.Run(fn, func(t *testing.T) {
			h, sneak, guest := r.players()
			create := with(r.create(h), map[string]any{"actionId": "priv-" + fn, "type": "create", "private": true})
			code, out := s.post(h.Token, fn, create)
			require.Equal(t, http.StatusOK, code, "%v", out)
			res := out["result"].(map[string]any)
			id, room := res["gameId"].(string), res["roomCode"].(string)
			require.NotEmpty(t, room, "the creator gets the code")
			doc, err := s.store.GameDoc(ctx, id)
			require.NoError(t, err)
			require.NotContains(t, doc, "roomCode", "the code is not in the public document")
			require.Equal(t, true, doc["private"])
			snap, err := s.store.FS.Doc("games/" + id + "/private/room").Get(ctx)
			require.NoError(t, err)
			require.Equal(t, room, snap.Data()["code"])
			serverInRoom(t, s, id, room)
			before, err := s.store.GameDoc(ctx, id)
			require.NoError(t, err)

			for _, body := range []map[string]any{
				{"gameId": id},                       // by its id
				{"gameId": id, "roomCode": "ZZZZZZ"}, // with a wrong code
			} {
				code, out = s.post(sneak.Token, fn, with(r.join(sneak), with(body, map[string]any{"actionId": "sneak-" + fn, "type": "join"})))
				require.Equal(t, http.StatusForbidden, code, "joining a private game without its code: %v", out)
				require.Contains(t, out["error"].(map[string]any)["message"], "room code")
			}
			after, err := s.store.GameDoc(ctx, id)
			require.NoError(t, err)
			require.Equal(t, before["version"], after["version"], "a refused join changes nothing")
			code, out = s.post(guest.Token, fn, with(r.join(guest), map[string]any{"actionId": "j-" + fn, "type": "join", "roomCode": room}))
			require.Equal(t, http.StatusOK, code, "joining with the code: %v", out)
			doc, err = s.store.GameDoc(ctx, id)
			require.NoError(t, err)
			require.Equal(t, true, doc["private"], "a private game stays private once joined")

			// A public game of the kind: its code, if it has one, is in
			// its game document for its players to share (no
			// private/room), and joins it too.
			h, guest = r.fresh("pubhost"+fn), r.fresh("pubjoin"+fn)
			code, out = s.post(h.Token, fn, with(r.create(h), map[string]any{"actionId": "pub-" + fn, "type": "create"}))
			require.Equal(t, http.StatusOK, code, "%v", out)
			res = out["result"].(map[string]any)
			id = res["gameId"].(string)
			room, _ = res["roomCode"].(string)
			doc, err = s.store.GameDoc(ctx, id)
			require.NoError(t, err)
			_, err = s.store.FS.Doc("games/" + id + "/private/room").Get(ctx)
			require.Equal(t, codes.NotFound, status.Code(err), "no private/room for a public game: %v", err)
			if room == "" {
				require.NotContains(t, doc, "roomCode")
				require.Equal(t, false, doc["hasRoom"])
				return
			}
			require.Equal(t, room, doc["roomCode"], "a public game's code is in its document")
			require.Equal(t, true, doc["hasRoom"])
			serverInRoom(t, s, id, room)
			code, out = s.post(guest.Token, fn, with(r.join(guest), map[string]any{"actionId": "pj-" + fn, "type": "join", "roomCode": room}))
			require.Equal(t, http.StatusOK, code, "joining a public game with its code: %v", out)
		})
	}
	code, out := s.post(host.Token, "DashDice", map[string]any{"actionId": "pub", "type": "create", "mode": "classic"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	id := out["result"].(map[string]any)["gameId"].(string)
	code, out = s.post(eve.Token, "DashDice", map[string]any{"gameId": id, "actionId": "j", "type": "join"})
	require.Equal(t, http.StatusOK, code, "a public game is joined by its id: %v", out)
}

// serverInRoom checks that game id's server-only fields (its seed) are in
// its room, rooms/{code}, and that it has no private/server (store/server.go).
func serverInRoom(t *testing.T, s *stack, id, code string) {
	t.Helper()
	ctx := context.Background()
	snap, err := s.store.FS.Doc("rooms/" + code).Get(ctx)
	require.NoError(t, err)
	require.Equal(t, id, snap.Data()["gameId"])
	require.NotEmpty(t, snap.Data()["seed"], "the room holds the game's seed")
	_, err = s.store.FS.Doc("games/" + id + "/private/server").Get(ctx)
	require.Equal(t, codes.NotFound, status.Code(err), "a game with a room has no private/server: %v", err)
}
