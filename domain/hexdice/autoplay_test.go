package hexdice

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// worldGame reads the game state of w.
func worldGame(t testing.TB, w *rulestest.World) Game {
	t.Helper()
	doc := domain.NewDocs()
	doc.Put(domain.GameDocID, w.Docs[domain.GameDocID])
	g, err := domain.ReadGame[Game](doc, Kind)
	require.NoError(t, err)
	return g.State
}

// autoplayWorld plays a game through the platform game in a World, a second
// apart per action, with a and b as the two players' scripts, until it ends
// or max actions; it returns the world and how many actions were sent.
func autoplayWorld(t testing.TB, create map[string]any, a, b Autoplay, max int, each func(g Game, raw []byte)) (*rulestest.World, int) {
	t.Helper()
	w := rulestest.NewWorld(pureGame(t), "autoplay", t0)
	payload, _ := json.Marshal(create)
	_, err := w.Do(domain.Action{ID: "new", Type: domain.ActionCreate, Actor: alice, Payload: payload})
	require.NoError(t, err)
	_, err = w.Do(domain.Action{ID: "join", Type: ActionJoin, Actor: bob, Payload: json.RawMessage(`{}`)})
	require.NoError(t, err)
	scripts := map[string]Autoplay{alice.ID: a, bob.ID: b}
	n := 0
	for ; n < max; n++ {
		g := worldGame(t, w)
		if each != nil {
			each(g, w.Docs[domain.GameDocID])
		}
		if g.Phase == PhaseOver {
			break
		}
		m, err := Rules{}.MapOf(g)
		require.NoError(t, err)
		w.Now = w.Now.Add(time.Second)
		acted := false
		for _, who := range []domain.Actor{alice, bob} {
			mv, ok := scripts[who.ID].Next(g, m, who)
			if !ok {
				continue
			}
			_, err := w.Do(domain.Action{ID: fmt.Sprint("a", n), Type: mv.Type, Actor: who, Payload: rulestest.Body(mv, w.Games, "x")})
			require.NoError(t, err, "%s %v by %s", mv.Type, mv.Payload, who.ID)
			acted = true
			break
		}
		require.True(t, acted, "somebody can act while playing")
	}
	return w, n
}

// TestAutoplayWins: the scripted player beats a passive one, in both modes,
// and every action it picks is accepted.
func TestAutoplayWins(t *testing.T) {
	for _, mode := range []TurnMode{Alternating, Simultaneous} {
		t.Run(string(mode), func(t *testing.T) {
			w, n := autoplayWorld(t, map[string]any{"size": "small", "mode": mode, "mapSeed": "m1"}, Autoplay{}, Autoplay{Passive: true}, 3000, nil)
			g := worldGame(t, w)
			require.Equal(t, PhaseOver, g.Phase, "over after %d actions", n)
			require.Equal(t, Seat(0), g.Result.Winner, "%+v", g.Result)
			t.Logf("%s: won by %s in round %d after %d actions", mode, g.Result.Reason, g.Round, n)
		})
	}
}

// TestAutoplayStandoffReachesSuddenDeath: two scripts that never attack play
// a Large game to round 40, the state size the docs quote.
func TestAutoplayStandoffReachesSuddenDeath(t *testing.T) {
	for _, mode := range []TurnMode{Alternating, Simultaneous} {
		t.Run(string(mode), func(t *testing.T) {
			standoff := Autoplay{NoAttack: true, MaxTroops: 30, Units: []UnitType{Marine, Sniper, Hoverbike, Mech}}
			size, troops := 0, 0
			w, n := autoplayWorld(t, map[string]any{"size": "large", "mode": mode, "mapSeed": "m1"}, standoff, standoff, 20000,
				func(g Game, raw []byte) {
					if g.Round == 40 && size == 0 {
						b, _ := json.Marshal(g)
						size, troops = len(b), len(g.Troops)
					}
				})
			g := worldGame(t, w)
			require.Equal(t, PhaseOver, g.Phase, "over after %d actions", n)
			require.Equal(t, ReasonSuddenDeath, g.Result.Reason)
			require.Positive(t, size)
			t.Logf("%s: %d actions; at round 40 the state is %d bytes of JSON with %d troops", mode, n, size, troops)
		})
	}
}
