package codebowl

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

func pureGame(t testing.TB) PlatformGame {
	return PlatformGame{Wrap: func(r domain.Rules[Match]) domain.Rules[Match] { return rulestest.PureRules[Match](t, r) }}
}

// strongSpec is a team of hitters (ST 6), so random matches kill players.
func strongSpec(name string) TeamSpec {
	ts := TeamSpec{Name: name}
	for i := 0; i < TeamSize; i++ {
		ts.Players = append(ts.Players, PlayerSpec{Name: fmt.Sprintf("%s %d", name, i+1), ST: 6, AG: 3, MV: 3})
	}
	return ts
}

func payload(t testing.TB, v any) json.RawMessage {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// worldMatch makes two teams in w and a match between them: ann hosts, ben
// joins. It returns the two team ids.
func worldMatch(t testing.TB, w *rulestest.World, opts CreateRequest) (string, string) {
	ch, err := w.Do(domain.Action{ID: "t1", Type: ActionCreateTeam, Actor: ann, Payload: payload(t, strongSpec("Reds"))})
	require.NoError(t, err)
	reds := ch.Result.(Team).ID
	ch, err = w.Do(domain.Action{ID: "t1", Type: ActionCreateTeam, Actor: ben, Payload: payload(t, strongSpec("Blues"))})
	require.NoError(t, err)
	blues := ch.Result.(Team).ID
	opts.TeamID = reds
	_, err = w.Do(domain.Action{ID: "new", Type: domain.ActionCreate, Actor: ann, Payload: payload(t, opts)})
	require.NoError(t, err)
	_, err = w.Do(domain.Action{ID: "j", Type: domain.ActionJoin, Actor: ben, Payload: payload(t, JoinRequest{TeamID: blues})})
	require.NoError(t, err)
	return reds, blues
}

func worldTeam(t testing.TB, w *rulestest.World, id string) Team {
	var tm Team
	raw, ok := w.Docs[teamDoc(id)]
	require.True(t, ok, "team %s", id)
	require.NoError(t, json.Unmarshal(raw, &tm))
	return tm
}

func worldMatchState(t testing.TB, w *rulestest.World) Match {
	var g domain.GameDoc[Match]
	require.NoError(t, json.Unmarshal(w.Docs[domain.GameDocID], &g))
	return g.State
}

var badActions = []domain.Action{
	{Type: "nope"},
	{Type: ActionMove, Payload: json.RawMessage(`{"player":"x","path":[{"x":1,"y":1}],"speed":9}`)},
	{Type: ActionPlace, Payload: json.RawMessage(`{"positions":"everywhere"}`)},
	{Type: domain.ActionJoin, Payload: json.RawMessage(`{}`)},
	{Type: ActionChat, Payload: json.RawMessage(`{"text":""}`)},
	{Type: ActionEditTeam, Payload: json.RawMessage(`{"teamId":"nope","name":"X"}`)},
}

// TestConformance runs the platform game through the conformance kit:
// random legal matches (placements, moves, attacks, forfeits, the timers)
// through an in-memory World that keeps the team documents as the platform
// does.
func TestConformance(t *testing.T) {
	games := 4
	if testing.Short() {
		games = 1
	}
	for _, tick := range []time.Duration{2 * time.Second, 200 * time.Second} {
		t.Run(fmt.Sprint("tick-", tick), func(t *testing.T) {
			setup := func(t testing.TB, w *rulestest.World) []domain.Actor {
				worldMatch(t, w, CreateRequest{TurnSeconds: 60, TurnsPerHalf: 4})
				return []domain.Actor{ann, ben}
			}
			rulestest.Run(t, rulestest.Kit{Game: pureGame(t), State: Match{}, Setup: setup, Bad: badActions,
				Probe: []domain.Action{{Type: ActionForfeit, Actor: ben}}, Games: games, Steps: 400, Tick: tick, Rare: []string{ActionForfeit}})
		})
	}
}

// TestTeamsFollowTheMatch: the teams are locked while the match plays and
// untouched until it ends; then they lose exactly the players the match
// killed and are unlocked.
func TestTeamsFollowTheMatch(t *testing.T) {
	killed := 0
	for i := 0; i < 6; i++ {
		w := rulestest.NewWorld(NewPlatformGame(), fmt.Sprint("teams-", i), t0)
		reds, blues := worldMatch(t, w, CreateRequest{TurnSeconds: -1, TurnsPerHalf: 4})
		require.Equal(t, "game", worldTeam(t, w, reds).Match)
		require.Equal(t, "game", worldTeam(t, w, blues).Match)
		// A locked team cannot be edited, nor play another match.
		_, err := w.Do(domain.Action{ID: "e", Type: ActionEditTeam, Actor: ann, Payload: payload(t, EditTeamRequest{TeamID: reds, TeamSpec: strongSpec("Reds")})})
		require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
		rng := rand.New(rand.NewPCG(uint64(i), 1))
		atStart := []Team{worldTeam(t, w, reds), worldTeam(t, w, blues)}
		for n := 0; n < 2000; n++ {
			m := worldMatchState(t, w)
			if m.Phase == PhaseOver {
				break
			}
			var moves []domain.Move
			var who domain.Actor
			for _, c := range []domain.Actor{ann, ben} {
				if l := w.Legal(c); len(l) > 0 {
					moves, who = l, c
				}
			}
			require.NotEmpty(t, moves, "someone can act")
			mv := moves[rng.IntN(len(moves))]
			_, err := w.Do(domain.Action{ID: fmt.Sprint("a", n), Type: mv.Type, Actor: who, Payload: rulestest.Body(mv, "game", "x")})
			require.NoError(t, err)
			if worldMatchState(t, w).Phase != PhaseOver {
				require.Equal(t, atStart, []Team{worldTeam(t, w, reds), worldTeam(t, w, blues)}, "the teams while the match plays (action %d)", n)
			}
		}
		m := worldMatchState(t, w)
		require.Equal(t, PhaseOver, m.Phase)
		for _, side := range []struct {
			id   string
			dead []string
		}{{reds, m.Summary.Home.Dead}, {blues, m.Summary.Away.Dead}} {
			tm := worldTeam(t, w, side.id)
			require.Empty(t, tm.Match, "unlocked at the end")
			var dead []string
			for _, p := range tm.Players {
				if p.Dead {
					dead = append(dead, p.ID)
				}
			}
			require.ElementsMatch(t, side.dead, dead, "the team lost exactly the players the match killed")
			killed += len(dead)
		}
	}
	require.Positive(t, killed, "some random match killed someone")
}

func TestTeamActions(t *testing.T) {
	w := rulestest.NewWorld(NewPlatformGame(), "teams", t0)
	ch, err := w.Do(domain.Action{ID: "t1", Type: ActionCreateTeam, Actor: ann, Payload: payload(t, spec("Reds"))})
	require.NoError(t, err)
	reds := ch.Result.(Team)
	require.Equal(t, TeamKey(ann.ID, "t1"), reds.ID)
	// A retry returns the same team and writes nothing.
	ch, err = w.Do(domain.Action{ID: "t1", Type: ActionCreateTeam, Actor: ann, Payload: payload(t, spec("Reds"))})
	require.NoError(t, err)
	require.Equal(t, reds, ch.Result)
	require.Empty(t, ch.Writes)
	_, err = w.Do(domain.Action{ID: "t1", Type: ActionCreateTeam, Actor: ann, Payload: payload(t, spec("Other"))})
	require.Equal(t, domain.EEXISTS, domain.ErrorCode(err), "the same actionId for another team")

	bad := spec("Reds")
	bad.Players[2].ST = 9
	_, err = w.Do(domain.Action{ID: "t2", Type: ActionCreateTeam, Actor: ann, Payload: payload(t, bad)})
	require.ErrorContains(t, err, "players[2]")
	_, err = w.Do(domain.Action{ID: "e", Type: ActionEditTeam, Actor: ben, Payload: payload(t, EditTeamRequest{TeamID: reds.ID, TeamSpec: spec("Mine")})})
	require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err))
	ch, err = w.Do(domain.Action{ID: "e", Type: ActionEditTeam, Actor: ann, Payload: payload(t, EditTeamRequest{TeamID: reds.ID, TeamSpec: spec("Rubies")})})
	require.NoError(t, err)
	require.Equal(t, "Rubies", worldTeam(t, w, reds.ID).Name)
	_, err = w.Do(domain.Action{ID: "r", Type: ActionRestartTeam, Actor: ann, Payload: payload(t, RestartTeamRequest{TeamID: reds.ID})})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "nobody is dead")
	_, err = w.Do(domain.Action{ID: "r", Type: ActionRestartTeam, Actor: ann, Payload: payload(t, RestartTeamRequest{TeamID: "nope"})})
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err))
}

func TestAdmit(t *testing.T) {
	g := NewPlatformGame()
	require.NoError(t, g.Admit(ann, "", ActionCreateTeam))
	require.NoError(t, g.Admit(eve, "g", domain.ActionLegal))
	for _, a := range g.ActionTypes() {
		require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(g.Admit(eve, "g", a)), a)
	}
	require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(g.Admit(eve, "g", domain.ActionAdvance)))
}

func TestChat(t *testing.T) {
	w := rulestest.NewWorld(NewPlatformGame(), "chat", t0)
	worldMatch(t, w, CreateRequest{})
	say := func(who domain.Actor, id, text string) error {
		_, err := w.Do(domain.Action{ID: id, Type: ActionChat, Actor: who, Payload: payload(t, ChatRequest{Text: text})})
		return err
	}
	for i := 0; i < ChatBurst; i++ {
		require.NoError(t, say(ann, fmt.Sprint("c", i), "hi"))
		w.Now = w.Now.Add(time.Second)
	}
	require.Equal(t, domain.ELIMIT, domain.ErrorCode(say(ann, "c9", "one more")))
	require.NoError(t, say(ben, "b1", "  gl hf  "), "the limit is per coach")
	w.Now = w.Now.Add(ChatWindow - ChatBurst*time.Second + time.Second)
	require.NoError(t, say(ann, "c10", "again"), "the oldest left the window")
	require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(say(eve, "e1", "let me talk")))
	require.ErrorContains(t, say(ann, "c11", string(make([]rune, ChatMaxRunes+1))), "text")
	long := ""
	for i := 0; i <= ChatMaxRunes; i++ {
		long += "a"
	}
	require.ErrorContains(t, say(ann, "c12", long), "at most 280")
	require.ErrorContains(t, say(ann, "c13", "two\nlines"), "text may not contain control characters")
	var msgs []ChatMessage
	var keys []string
	for id, raw := range w.Docs {
		if id.Slot == SlotChat {
			var m ChatMessage
			require.NoError(t, json.Unmarshal(raw, &m))
			msgs = append(msgs, m)
			keys = append(keys, id.Key)
		}
	}
	require.Len(t, msgs, ChatBurst+2)
	for _, m := range msgs {
		if m.From == ben.ID {
			require.Equal(t, "gl hf", m.Text)
			require.Equal(t, Away, m.Side)
		}
	}
	require.Less(t, ChatKey(t0, "a", "1"), ChatKey(t0.Add(time.Nanosecond), "a", "0"), "keys sort by time")
}

// BenchmarkPlatformAction: one match action through the platform game as the
// store runs it (the documents decoded from JSON, domain.Single, the team
// writes, the writes marshalled) on the in-memory World: a random default
// match's actions replayed, per action.
func BenchmarkPlatformAction(b *testing.B) {
	type sent struct {
		a   domain.Action
		now time.Time
	}
	w := rulestest.NewWorld(NewPlatformGame(), "bench", t0)
	worldMatch(b, w, CreateRequest{TurnSeconds: -1})
	start := w.Clone()
	rng := rand.New(rand.NewPCG(1, 2))
	var script []sent
	for n := 0; n < 2000; n++ {
		if worldMatchState(b, w).Phase == PhaseOver {
			break
		}
		var moves []domain.Move
		var who domain.Actor
		for _, c := range []domain.Actor{ann, ben} {
			if l := w.Legal(c); len(l) > 0 {
				moves, who = l, c
			}
		}
		mv := moves[rng.IntN(len(moves))]
		a := domain.Action{ID: fmt.Sprint("a", n), Type: mv.Type, Actor: who, Payload: rulestest.Body(mv, "game", "x")}
		if _, err := w.Do(a); err != nil {
			b.Fatal(err)
		}
		script = append(script, sent{a, w.Now})
	}
	b.ReportAllocs()
	b.ResetTimer()
	actions := 0
	for i := 0; i < b.N; i++ {
		r := start.Clone()
		for _, s := range script {
			if _, err := r.Do(s.a); err != nil {
				b.Fatal(err)
			}
			actions++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(actions), "ns/action")
}
