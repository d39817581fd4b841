package hexdice

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// slowGame returns an alternating game on the test map with a 120 s turn
// timer, started at t0 (both players last seen at t0), alice first.
func slowGame(t testing.TB) (Rules, Game) {
	t.Helper()
	m := testMap(t, nil)
	r := rulesFor(m)
	g, err := r.NewGame("g1", alice, Options{Size: Small, TurnSeconds: 120}, t0)
	require.NoError(t, err)
	g, _ = act(t, r, g, bob, ActionJoin, `{}`, t0, 1)
	return r, g
}

func TestTurnTimeout(t *testing.T) {
	r, g := slowGame(t)
	g = keepAlive(g, r)
	deadline := t0.Add(2 * time.Minute)
	require.Equal(t, deadline, r.Header(g).Deadline)

	_, _, err := r.Expire(g, domain.Env{Now: deadline.Add(-time.Second), Dice: domain.Script()})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "not yet due")

	got, out := expire(t, r, g, 45*time.Second) // a late tick
	require.Equal(t, TurnEndedData{Seat: 0, Round: 1, Reason: "timeout", Held: 1}, out.Events[0].Data)
	require.Equal(t, Seat(1), got.Current)
	require.Equal(t, deadline.Add(2*time.Minute), got.TurnDeadline, "the next turn starts as of the deadline")
	require.Equal(t, deadline.Add(2*time.Minute), rulestest.All[TurnStartedData](t, out.Events, EventTurnStarted)[0].Deadline)

	over := g.clone()
	over.Phase, over.Result = PhaseOver, &Result{Winner: 0, Reason: ReasonSurrender}
	_, _, err = r.Expire(over, domain.Env{Now: deadline, Dice: domain.Script()})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	_, _, err = r.Expire(g, domain.Env{Now: deadline})
	require.Equal(t, domain.EINTERNAL, domain.ErrorCode(err), "no dice")
}

func TestHeartbeatDisconnectForfeit(t *testing.T) {
	r, g := slowGame(t)
	require.Equal(t, t0.Add(time.Minute), r.Header(g).Deadline, "the earliest deadline: a disconnection")

	g, out := act(t, r, g, bob, ActionHeartbeat, `{}`, t0.Add(50*time.Second))
	require.Empty(t, out.Events, "a heartbeat is not logged")
	require.Equal(t, t0.Add(50*time.Second), g.Players[1].LastSeen)

	g, out = expire(t, r, g, 0)
	require.Equal(t, []domain.Event{{Type: EventDisconnected, Player: "alice", Data: ConnectionData{Seat: 0, At: t0.Add(time.Minute)}}}, out.Events)
	require.True(t, g.Players[0].Disconnected())
	require.Equal(t, PhasePlaying, g.Phase)
	g, _ = act(t, r, g, bob, ActionHeartbeat, `{}`, t0.Add(100*time.Second))
	require.Equal(t, t0.Add(2*time.Minute), r.Header(g).Deadline, "alice's forfeit and the turn, at once")

	t.Run("disconnected 60 s more: forfeit, before the turn timer", func(t *testing.T) {
		got, out := expire(t, r, g, 0)
		require.Equal(t, []string{EventForfeited, domain.EventGameOver}, rulestest.Types(out.Events))
		require.Equal(t, Seat(1), got.Result.Winner)
		require.Equal(t, ReasonDisconnect, got.Result.Reason)
		require.Equal(t, t0.Add(2*time.Minute), got.Result.EndedAt)
	})
	t.Run("a heartbeat reconnects", func(t *testing.T) {
		got, out := act(t, r, g, alice, ActionHeartbeat, `{}`, t0.Add(110*time.Second))
		require.Equal(t, []domain.Event{{Type: EventReconnected, Player: "alice", Data: ConnectionData{Seat: 0, At: t0.Add(110 * time.Second)}}}, out.Events)
		require.False(t, got.Players[0].Disconnected())
		got, out = expire(t, r, got, 0)
		require.Equal(t, "timeout", out.Events[0].Data.(TurnEndedData).Reason, "only the turn timer was due")
	})
	t.Run("any action reconnects", func(t *testing.T) {
		got, out := act(t, r, g, alice, ActionEndTurn, `{}`, t0.Add(110*time.Second))
		require.Equal(t, EventReconnected, out.Events[len(out.Events)-1].Type)
		require.False(t, got.Players[0].Disconnected())
	})
	t.Run("a refused action does not", func(t *testing.T) {
		actErr(t, r, g, alice, ActionMove, `{"troop":1,"q":0,"r":0}`, domain.EINVALID)
	})
	t.Run("both forfeit at once: a draw", func(t *testing.T) {
		both := g.clone()
		both.Players[1].DisconnectedAt = both.Players[0].DisconnectedAt
		got, out := expire(t, r, both, 0)
		require.True(t, got.Result.Draw)
		require.Equal(t, ReasonDisconnect, got.Result.Reason)
		require.Len(t, rulestest.All[ConnectionData](t, out.Events, EventForfeited), 2)
	})
}

func TestHeartbeat(t *testing.T) {
	r, g := slowGame(t)
	actErr(t, r, g, carol, ActionHeartbeat, `{}`, domain.EFORBIDDEN)
	actErr(t, r, g, alice, ActionHeartbeat, `"x"`, domain.EINVALID)
	w, err := r.NewGame("g2", alice, Options{Size: Small}, t0)
	require.NoError(t, err)
	w, _ = act(t, r, w, alice, ActionHeartbeat, `{}`, t0.Add(time.Hour))
	require.Equal(t, t0.Add(30*time.Minute), r.Header(w).Deadline, "no connection deadlines before play")
}

func TestEmotes(t *testing.T) {
	r, g := slowGame(t)
	now := t0
	for i, e := range []string{"hello", "gg", "oops"} {
		var out domain.Outcome
		g, out = act(t, r, g, bob, ActionEmote, `{"emote":"`+e+`"}`, now.Add(time.Duration(i)*time.Second))
		require.Equal(t, []domain.Event{{Type: EventEmote, Player: "bob", Data: EmoteData{Seat: 1, Emote: e, Text: map[string]string{"hello": "Hello!", "gg": "GG", "oops": "Oops"}[e]}}}, out.Events)
	}
	// The fourth within 10 s is refused; at 10 s after the first it is fine.
	_, _, err := r.Apply(g, domain.Action{Type: ActionEmote, Actor: bob, Payload: []byte(`{"emote":"wow"}`)}, domain.Env{Now: t0.Add(9 * time.Second), Dice: domain.Script()})
	require.Equal(t, domain.ELIMIT, domain.ErrorCode(err))
	require.ErrorContains(t, err, "at most 3 emotes per 10 s")
	g, _ = act(t, r, g, alice, ActionEmote, `{"emote":"thanks"}`, t0.Add(9*time.Second)) // per player
	g, _ = act(t, r, g, bob, ActionEmote, `{"emote":"wow"}`, t0.Add(10*time.Second))
	g, _ = act(t, r, g, bob, ActionEmote, `{"emote":"hurry"}`, t0.Add(11*time.Second))
	require.Len(t, g.Emotes, 5, "the state keeps the last 5")
	require.Equal(t, Emote{Seat: 1, Emote: "hurry", At: t0.Add(11 * time.Second)}, g.Emotes[4])
	require.Equal(t, "gg", g.Emotes[0].Emote)
	require.Len(t, g.Players[1].EmoteTimes, 3)

	actErr(t, r, g, alice, ActionEmote, `{"emote":"you suck"}`, domain.EINVALID)
	actErr(t, r, g, carol, ActionEmote, `{"emote":"gg"}`, domain.EFORBIDDEN)
}
