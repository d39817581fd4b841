package partyboard

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

func TestCreateTurnSeconds(t *testing.T) {
	b := testBoard(t, "")
	tests := []struct {
		payload string
		want    int
		code    string
	}{
		{`{"board":"%s"}`, 0, ""},
		{`{"board":"%s","turnSeconds":0}`, 0, ""},
		{`{"board":"%s","turnSeconds":5}`, 5, ""},
		{`{"board":"%s","turnSeconds":86400}`, 86400, ""},
		{`{"board":"%s","turnSeconds":4}`, 0, domain.EINVALID},
		{`{"board":"%s","turnSeconds":-30}`, 0, domain.EINVALID},
		{`{"board":"%s","turnSeconds":86401}`, 0, domain.EINVALID},
		{`{"board":"%s","turnSeconds":"30"}`, 0, domain.EINVALID},
		{`{"board":"%s","turnSecs":30}`, 0, domain.EINVALID},
		{`{"board":"nope%s"}`, 0, domain.ENOTFOUND},
	}
	for _, tt := range tests {
		payload := fmt.Sprintf(tt.payload, b.ID)
		t.Run(payload, func(t *testing.T) {
			g, room, err := Create(MapSource{b.ID: b}, domain.Action{GameID: "g", Actor: actor(0), Payload: json.RawMessage(payload)}, domain.Env{Now: t0})
			if tt.code != "" {
				require.Equal(t, tt.code, domain.ErrorCode(err), "%v", err)
				return
			}
			require.NoError(t, err)
			require.True(t, room)
			require.Equal(t, tt.want, g.TurnSeconds)
		})
	}
}

// TestTurnTimer: each awaited input has turnSeconds; the deadline moves on
// with every input, and Expire answers with the default as of it.
func TestTurnTimer(t *testing.T) {
	p := newTimedPlay(t, testBoard(t, ""), 2, 30)
	require.Equal(t, t0.Add(30*time.Second), p.g.Deadline)
	require.Equal(t, p.g.Deadline, Rules{}.Header(p.g).Deadline)

	p.now = t0.Add(10 * time.Second)
	_, _, err := p.r.Expire(p.g, domain.Env{Now: p.now, Dice: domain.Script(1)})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "not due yet")
	p.roll(0, 1)
	require.Equal(t, t0.Add(40*time.Second), p.g.Deadline, "the confirm has its own 30 s")

	p.expire() // p0 does not confirm
	require.Equal(t, TimedOutData{Action: ActionConfirm, Purpose: PurposeRule, Rule: "tiles[1].rule", Strikes: 1}, p.event(EventTimedOut).Data)
	require.Equal(t, "p0", p.event(EventTimedOut).Player)
	p.awaits(ActionRoll, 1)
	require.Equal(t, t0.Add(70*time.Second), p.g.Deadline, "as of the deadline: the next input's timer starts then")
	require.Equal(t, 1, p.player(0).Strikes)

	p.now = t0.Add(80 * time.Second)
	p.do(1, ActionRemovePlayer, `"playerId":"p1"`) // p1 leaves: p0 wins
	require.Equal(t, PhaseOver, p.g.Phase)
	require.True(t, p.g.Deadline.IsZero())
	require.True(t, Rules{}.Header(p.g).Deadline.IsZero(), "an over game has no deadline")
}

// TestTimerDefaults: what the timer answers for each kind of input.
func TestTimerDefaults(t *testing.T) {
	tests := []struct {
		name  string
		rule  string
		setup func(p *play) // bring the game to the input
		dice  []int         // what the expiry rolls
		check func(t *testing.T, p *play)
	}{
		{"a turn roll is rolled", plain, func(p *play) {}, []int{1}, func(t *testing.T, p *play) {
			require.Equal(t, 1, p.at(0))
			p.awaits(ActionConfirm, 0)
		}},
		{"a rule's roll is rolled", rule(DiceRollRule, `"diceRolls":{"numRequired":2}`), func(p *play) { p.roll(0, 1) }, []int{3, 4}, func(t *testing.T, p *play) {
			require.Equal(t, []int{3, 4}, p.g.LastRolls)
		}},
		{"a choice is the first option", rule(ChoiceRule, `"choices":[{"rule":`+rule(ExtraTurnRule, "")+`},{"rule":`+rule(SkipTurnRule, `"numTurns":1`)+`}]`),
			func(p *play) { p.roll(0, 1) }, nil, func(t *testing.T, p *play) {
				require.Equal(t, ChoseData{Rule: "tiles[1].rule", Choice: 0, Text: "ExtraTurnRule text"}, p.event(EventChose).Data)
				p.awaits(ActionRoll, 0)
			}},
		{"a target is the first player listed", rule(MoveRule, `"playerTarget":"custom","direction":"forward","numSpaces":2`),
			func(p *play) { p.roll(0, 1) }, nil, func(t *testing.T, p *play) {
				require.Equal(t, 2, p.at(1))
			}},
		{"a challenge is lost by the absent challenger", rule(ChallengeRule, ""), func(p *play) { p.roll(0, 1) }, nil, func(t *testing.T, p *play) {
			require.Equal(t, ChallengedData{Rule: "tiles[1].rule", Winner: "p1", Loser: "p0"}, p.event(EventChallenged).Data)
		}},
		{"every player still to roll a group roll rolls", rule(GroupRollRule, ""), func(p *play) {
			p.roll(0, 1)
			p.do(2, ActionGroupRoll, "", 5)
		}, []int{2, 3}, func(t *testing.T, p *play) {
			require.Equal(t, []int{2, 3, 5}, []int{p.player(0).GroupRoll, p.player(1).GroupRoll, p.player(2).GroupRoll})
			require.Equal(t, []int{1, 1, 0}, []int{p.player(0).Strikes, p.player(1).Strikes, p.player(2).Strikes})
		}},
		{"a RollUntil attempt is rolled", rule(RollUntilRule, `"criteria":[6]`), func(p *play) { p.roll(0, 1) }, []int{2}, func(t *testing.T, p *play) {
			p.awaits(ActionRoll, 0)
			require.Equal(t, []int{2}, p.g.Await.Rolls)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newTimedPlay(t, testBoard(t, "", tt.rule), 3, 60)
			tt.setup(p)
			p.expire(tt.dice...)
			require.Equal(t, 1, p.player(0).Strikes)
			tt.check(t, p)
		})
	}
	t.Run("every player still to pick a starter gets the first", func(t *testing.T) {
		b := testBoardStart(t, `{"type":"StarterSelectionRule","displayText":"pick","starters":["Bulbasaur","Charmander"]}`, "")
		p := newTimedPlay(t, b, 3, 60)
		p.do(1, ActionStarter, `"starter":"Charmander"`)
		p.expire()
		require.Equal(t, []string{"Bulbasaur", "Charmander", "Bulbasaur"}, []string{p.player(0).Starter, p.player(1).Starter, p.player(2).Starter})
		p.awaits(ActionRoll, 0)
	})
}

// TestStrikes: three timed-out inputs in a row take a player out of the
// turn order; the game goes on; one player left wins.
func TestStrikes(t *testing.T) {
	p := newTimedPlay(t, testBoard(t, ""), 3, 30)
	p.expire(2) // p0's roll
	p.expire()  // p0's confirm
	p.awaits(ActionRoll, 1)
	require.Equal(t, 2, p.player(0).Strikes)
	p.roll(1, 1)
	p.confirm(1)
	p.roll(2, 1)
	p.confirm(2)
	p.awaits(ActionRoll, 0)
	p.roll(0, 1) // p0 is back: strikes reset
	require.Zero(t, p.player(0).Strikes)
	p.confirm(0)
	p.expire(1) // p1 is gone
	p.expire()
	p.roll(2, 1)
	p.confirm(2)
	p.roll(0, 1)
	p.confirm(0)
	p.expire(1) // the third in a row
	require.True(t, p.player(1).Removed)
	require.Equal(t, RemovedData{By: ByTimeout, Remaining: 2}, p.event(EventRemoved).Data)
	p.awaits(ActionRoll, 2)
	require.Equal(t, PhasePlaying, p.g.Phase, "the game goes on")
	p.roll(2, 1)
	p.confirm(2)
	p.roll(0, 1)
	p.confirm(0)
	p.awaits(ActionRoll, 2) // p1 is skipped
	p.refused(1, ActionRoll, "", domain.ECONFLICT)
	require.Empty(t, Rules{}.Legal(p.g, actor(1)), "a removed player has nothing to do")

	for p.g.Phase == PhasePlaying { // p2 goes first, so reaches three strikes first
		if p.g.Await.Action == ActionRoll {
			p.expire(1)
		} else {
			p.expire()
		}
	}
	over := p.event(domain.EventGameOver).Data.(domain.GameOver)
	require.Equal(t, domain.GameOver{Kind: Kind, Mode: p.b.ID, Winners: []string{"p0"}, Losers: []string{"p1", "p2"},
		Players: []string{"p0", "p1", "p2"}, Reason: ReasonLastPlayer}, over)
}

// TestRemovePlayer: the host removes anyone, a player removes themselves;
// the game goes on without them.
func TestRemovePlayer(t *testing.T) {
	remove := func(i, j int) string { return fmt.Sprintf(`"playerId":"p%d"`, j) }
	tests := []struct {
		name    string
		rule    string
		players int
		run     func(t *testing.T, p *play)
	}{
		{"the host removes the player whose turn it is: the next one's begins", plain, 3, func(t *testing.T, p *play) {
			p.roll(0, 1)
			p.confirm(0)
			p.roll(1, 1)
			p.awaits(ActionConfirm, 1)
			p.do(0, ActionRemovePlayer, remove(0, 1))
			require.Equal(t, RemovedData{By: ByHost, Remaining: 2}, p.event(EventRemoved).Data)
			p.awaits(ActionRoll, 2)
			require.Equal(t, 1, p.at(1), "a removed player keeps their tile")
		}},
		{"a player leaves; the host passes on", plain, 3, func(t *testing.T, p *play) {
			p.do(0, ActionRemovePlayer, remove(0, 0))
			require.Equal(t, RemovedData{By: BySelf, Host: "p1", Remaining: 2}, p.event(EventRemoved).Data)
			require.Equal(t, "p1", p.g.Host)
			p.awaits(ActionRoll, 1)
		}},
		{"a bystander removed: the input goes on", plain, 3, func(t *testing.T, p *play) {
			p.roll(0, 1)
			p.do(2, ActionRemovePlayer, remove(2, 2))
			p.awaits(ActionConfirm, 0)
			p.confirm(0)
			p.awaits(ActionRoll, 1)
			p.roll(1, 1)
			p.confirm(1)
			p.awaits(ActionRoll, 0)
		}},
		{"a group input waits for the others only", rule(GroupRollRule, ""), 3, func(t *testing.T, p *play) {
			p.roll(0, 1)
			p.awaits(ActionGroupRoll, 0, 1, 2)
			p.do(0, ActionRemovePlayer, remove(0, 2))
			p.awaits(ActionGroupRoll, 0, 1)
			p.do(1, ActionGroupRoll, "", 3)
			p.do(0, ActionGroupRoll, "", 4)
			p.awaits(ActionRoll, 1)
		}},
		{"a group input of the removed player's turn is finished by the others", rule(GroupRollRule, ""), 3, func(t *testing.T, p *play) {
			p.roll(0, 1)
			p.do(0, ActionRemovePlayer, remove(0, 0))
			p.awaits(ActionGroupRoll, 1, 2)
			p.do(1, ActionGroupRoll, "", 3)
			p.do(2, ActionGroupRoll, "", 4)
			p.awaits(ActionRoll, 1)
		}},
		{"a removed player is no longer a target; the only one: the rule does nothing", rule(SwapPlacesRule, ""), 3, func(t *testing.T, p *play) {
			p.roll(0, 1)
			p.awaits(ActionTarget, 0)
			p.do(0, ActionRemovePlayer, remove(0, 1))
			require.Equal(t, []string{"p2"}, p.g.Await.Targets)
			p.do(0, ActionRemovePlayer, remove(0, 2))
			require.Equal(t, PhaseOver, p.g.Phase, "one player left wins")
			require.Equal(t, "p0", p.g.Winner)
		}},
		{"refusals", plain, 3, func(t *testing.T, p *play) {
			p.refused(1, ActionRemovePlayer, remove(1, 2), domain.ECONFLICT)
			p.refused(1, ActionRemovePlayer, `"playerId":"zed"`, domain.EINVALID)
			p.refused(1, ActionRemovePlayer, "", domain.EINVALID)
			p.refused(1, ActionRemovePlayer, `"playerId":"p1","why":"bored"`, domain.EINVALID)
			p.refused(7, ActionRemovePlayer, remove(7, 1), domain.EFORBIDDEN)
			p.do(0, ActionRemovePlayer, remove(0, 2))
			p.refused(0, ActionRemovePlayer, remove(0, 2), domain.ECONFLICT)
			p.refused(2, ActionRemovePlayer, remove(2, 2), domain.ECONFLICT)
			p.refused(2, ActionRoll, "", domain.ECONFLICT)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.run(t, newPlay(t, testBoard(t, "", tt.rule), tt.players))
		})
	}
	t.Run("legal moves", func(t *testing.T) {
		p := newPlay(t, testBoard(t, ""), 3)
		moves := func(i int) []string {
			var out []string
			for _, m := range (Rules{}).Legal(p.g, actor(i)) {
				out = append(out, fmt.Sprint(m.Type, m.Payload["playerId"]))
			}
			return out
		}
		require.Equal(t, []string{"roll<nil>", "removePlayerp0", "removePlayerp1", "removePlayerp2"}, moves(0))
		require.Equal(t, []string{"removePlayerp1"}, moves(1))
		p.do(1, ActionRemovePlayer, remove(1, 1))
		require.Empty(t, moves(1))
		require.Equal(t, []string{"roll<nil>", "removePlayerp0", "removePlayerp2"}, moves(0))
	})
	t.Run("a timed game: removing a bystander leaves the deadline alone", func(t *testing.T) {
		p := newTimedPlay(t, testBoard(t, ""), 3, 30)
		deadline := p.g.Deadline
		p.now = t0.Add(20 * time.Second)
		p.do(0, ActionRemovePlayer, remove(0, 2))
		require.Equal(t, deadline, p.g.Deadline)
		p.do(0, ActionRemovePlayer, remove(0, 0))
		require.Equal(t, PhaseOver, p.g.Phase)
	})
}

func TestRemoveInLobby(t *testing.T) {
	b := testBoard(t, "")
	r := Rules{Boards: MapSource{b.ID: b}}
	g, err := NewGame("g1", actor(0), b, t0)
	require.NoError(t, err)
	apply := func(i int, typ, fields string) (Game, error) {
		next, _, err := rulestest.PureRules[Game](t, r).Apply(g, action(i, typ, fields), domain.Env{Now: t0})
		return next, err
	}
	_, err = apply(0, ActionRemovePlayer, `"playerId":"p0"`)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "a lone host cannot leave")
	for i := 1; i <= 3; i++ {
		g, err = apply(i, ActionJoin, "")
		require.NoError(t, err)
	}
	g, err = apply(0, ActionRemovePlayer, `"playerId":"p2"`)
	require.NoError(t, err, "the host kicks p2")
	g, err = apply(3, ActionRemovePlayer, `"playerId":"p3"`)
	require.NoError(t, err, "p3 leaves")
	_, err = apply(1, ActionRemovePlayer, `"playerId":"p0"`)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	require.Equal(t, []string{"p0", "p1"}, g.PlayerIDs())
	g, err = apply(0, ActionRemovePlayer, `"playerId":"p0"`)
	require.NoError(t, err)
	require.Equal(t, "p1", g.Host, "the host left: the next player hosts")
	g, err = apply(2, ActionJoin, "")
	require.NoError(t, err, "a kicked player may come back")
	g, err = apply(1, ActionStart, "")
	require.NoError(t, err)
	require.Equal(t, []string{"p1", "p2"}, g.PlayerIDs())
}

// TestExpiryAsOfDeadline: through the platform's Single, an action long
// after several deadlines applies each one as of its time (one step each),
// exactly as Expire applied on time does.
func TestExpiryAsOfDeadline(t *testing.T) {
	b := testBoard(t, "")
	boards := MapSource{b.ID: b}
	game := domain.Single(domain.SingleGame[Game]{Rules: rulestest.PureRules[Game](t, Rules{Boards: boards}),
		Create: func(d domain.Docs, a domain.Action, env domain.Env) (Game, bool, error) {
			return Create(boards, a, env)
		}})
	setup := func() *rulestest.World {
		w := rulestest.NewWorld(game, "timer", t0)
		payload, _ := json.Marshal(map[string]any{"board": b.ID, "turnSeconds": 30})
		_, err := w.Do(domain.Action{ID: "c", Type: domain.ActionCreate, Actor: actor(0), Payload: payload})
		require.NoError(t, err)
		for _, a := range []domain.Action{{ID: "j", Type: ActionJoin, Actor: actor(1)}, {ID: "s", Type: ActionStart, Actor: actor(0)}} {
			_, err = w.Do(a)
			require.NoError(t, err)
		}
		return w
	}
	state := func(w *rulestest.World) Game {
		var doc struct{ State Game }
		require.NoError(t, json.Unmarshal(w.Docs[domain.GameDocID], &doc))
		return doc.State
	}

	late := setup()
	late.Now = t0.Add(100 * time.Second) // deadlines at 30, 60, 90 s have passed
	ch, err := late.Do(domain.Action{ID: "adv", Type: domain.ActionAdvance, Actor: domain.System})
	require.NoError(t, err)
	require.Len(t, ch.Steps, 3, "one step per passed deadline")
	for i, s := range ch.Steps {
		require.Equal(t, domain.ActionExpire, s.Type)
		require.Equal(t, EventTimedOut, s.Events[0].Type, "step %d", i)
	}

	onTime := setup()
	for _, at := range []int{30, 60, 90} {
		onTime.Now = t0.Add(time.Duration(at) * time.Second)
		_, err := onTime.Do(domain.Action{ID: fmt.Sprint("adv", at), Type: domain.ActionAdvance, Actor: domain.System})
		require.NoError(t, err)
	}
	require.Equal(t, state(onTime), state(late))
	g := state(late)
	require.Equal(t, t0.Add(120*time.Second), g.Deadline, "the next deadline counts from the last one, not from the clock")
	require.Equal(t, []int{2, 1}, []int{g.Players[0].Strikes, g.Players[1].Strikes}, "p0's roll and confirm, p1's roll")
}
