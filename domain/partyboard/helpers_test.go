package partyboard

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

var t0 = time.Date(2026, 5, 1, 20, 0, 0, 0, time.UTC)

func actor(i int) domain.Actor {
	return domain.Actor{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("Player %d", i), Role: domain.RoleGuest}
}

// body is a request body as the pipeline passes it: the whole JSON object,
// envelope fields included.
func body(typ, fields string) json.RawMessage {
	b := `{"gameId":"g1","actionId":"a1","type":"` + typ + `"`
	if fields != "" {
		b += "," + fields
	}
	return json.RawMessage(b + "}")
}

func action(i int, typ, fields string) domain.Action {
	return domain.Action{ID: "a1", Type: typ, Actor: actor(i), Payload: body(typ, fields)}
}

// lobby seats n players on board and starts the game.
func lobby(t testing.TB, r Rules, b *Board, n int, dice domain.Dice) Game {
	t.Helper()
	g, err := NewGame("g1", actor(0), b, t0)
	require.NoError(t, err)
	for i := 1; i < n; i++ {
		g, _, err = r.Apply(g, action(i, ActionJoin, ""), domain.Env{Now: t0, Dice: dice})
		require.NoError(t, err)
	}
	g, _, err = r.Apply(g, action(0, ActionStart, ""), domain.Env{Now: t0, Dice: dice})
	require.NoError(t, err)
	return g
}

// plain is a tile rule that only shows text (and waits for a confirm).
const plain = `{"type":"DisplayRule","displayText":"."}`

// testBoard builds a board: tile 0 is the start, then the given tile rules,
// plain tiles up to tile 20, and a GameOverRule on the last tile (21). A rule
// prefixed "!" is a mandatory tile; "Zone@" puts it in that zone.
func testBoard(t testing.TB, zones string, rules ...string) *Board {
	t.Helper()
	return loadTestBoard(t, testBoardFile(zones, rules...))
}

// testBoardFile is the file testBoard loads.
func testBoardFile(zones string, rules ...string) []byte {
	tiles := []string{`{"rule":{"type":"DisplayRule","displayText":"start"},"position":[{"x":0,"y":0}]}`}
	for len(rules) < 20 {
		rules = append(rules, plain)
	}
	for _, r := range rules {
		extra := ""
		if strings.HasPrefix(r, "!") {
			r, extra = r[1:], `,"mandatory":true`
		}
		if zone, rest, ok := strings.Cut(r, "@"); ok && !strings.HasPrefix(r, "{") {
			r, extra = rest, extra+`,"zone":"`+zone+`"`
		}
		tiles = append(tiles, `{"rule":`+r+`,"position":[{"x":0,"y":0},{"x":1,"y":1}]`+extra+`}`)
	}
	tiles = append(tiles, `{"rule":{"type":"GameOverRule","displayText":"win"},"position":[{"x":0,"y":0}],"mandatory":true}`)
	if zones == "" {
		zones = "[]"
	}
	return []byte(`{"tiles":[` + strings.Join(tiles, ",") + `],"zones":` + zones + `}`)
}

func loadTestBoard(t testing.TB, file []byte) *Board {
	t.Helper()
	b, problems, _, err := LoadBoard(file, LoadOptions{})
	require.NoError(t, err, "%v", problems)
	return b
}

// play is a game on a board driven with scripted dice.
type play struct {
	t      *testing.T
	r      Rules
	b      *Board
	g      Game
	events []domain.Event
	now    time.Time // the clock of the actions sent
}

func newPlay(t *testing.T, b *Board, players int) *play {
	t.Helper()
	r := Rules{Boards: MapSource{b.ID: b}}
	return &play{t: t, r: r, b: b, g: lobby(t, r, b, players, domain.Script()), now: t0}
}

// newTimedPlay is newPlay with a turn timer of secs, made by Create.
func newTimedPlay(t *testing.T, b *Board, players, secs int) *play {
	t.Helper()
	r := Rules{Boards: MapSource{b.ID: b}}
	g, _, err := Create(MapSource{b.ID: b}, domain.Action{GameID: "g1", Actor: actor(0),
		Payload: json.RawMessage(fmt.Sprintf(`{"board":%q,"turnSeconds":%d}`, b.ID, secs))}, domain.Env{Now: t0})
	require.NoError(t, err)
	require.Equal(t, secs, g.TurnSeconds)
	p := &play{t: t, r: r, b: b, g: g, now: t0}
	for i := 1; i < players; i++ {
		p.do(i, ActionJoin, "")
	}
	require.True(t, p.g.Deadline.IsZero(), "no deadline in the lobby")
	p.do(0, ActionStart, "")
	return p
}

// expire applies the passed deadline as of its time with exactly the dice
// it must roll, and checks the invariants.
func (p *play) expire(dice ...int) {
	p.t.Helper()
	require.False(p.t, p.g.Deadline.IsZero(), "no deadline to expire")
	p.now = p.g.Deadline
	d := domain.Script(dice...)
	g, out, err := rulestest.PureRules[Game](p.t, p.r).Expire(p.g, domain.Env{Now: p.now, Dice: d})
	require.NoError(p.t, err, "expire")
	require.Zero(p.t, d.Remaining(), "the expiry rolled fewer dice than scripted")
	checkStep(p.t, p.b, p.g, g, out)
	p.g, p.events = g, out.Events
}

// do sends player i's action with the given payload fields and exactly the
// dice it must roll, and checks the invariants.
func (p *play) do(i int, typ, fields string, dice ...int) {
	p.t.Helper()
	d := domain.Script(dice...)
	g, out, err := rulestest.PureRules[Game](p.t, p.r).Apply(p.g, action(i, typ, fields), domain.Env{Now: p.now, Dice: d})
	require.NoError(p.t, err, "%s by p%d", typ, i)
	require.Zero(p.t, d.Remaining(), "%s by p%d rolled fewer dice than scripted", typ, i)
	checkStep(p.t, p.b, p.g, g, out)
	p.g, p.events = g, out.Events
}

// refused sends an action that must fail with code and change nothing.
func (p *play) refused(i int, typ, fields, code string) {
	p.t.Helper()
	before, _ := json.Marshal(p.g)
	g, out, err := p.r.Apply(p.g, action(i, typ, fields), domain.Env{Now: p.now, Dice: domain.Script()})
	require.Error(p.t, err)
	require.Equal(p.t, code, domain.ErrorCode(err), "%v", err)
	require.Empty(p.t, out.Events)
	after, _ := json.Marshal(g)
	require.JSONEq(p.t, string(before), string(after), "a refused action changed the game")
}

func (p *play) roll(i int, dice ...int) { p.t.Helper(); p.do(i, ActionRoll, "", dice...) }
func (p *play) confirm(i int)           { p.t.Helper(); p.do(i, ActionConfirm, "") }
func (p *play) choose(i, n int)         { p.t.Helper(); p.do(i, ActionChoose, fmt.Sprintf(`"choice":%d`, n)) }
func (p *play) target(i, j int) {
	p.t.Helper()
	p.do(i, ActionTarget, fmt.Sprintf(`"playerId":"p%d"`, j))
}

// awaits checks the awaited action and players ("p0,p1").
func (p *play) awaits(action string, players ...int) {
	p.t.Helper()
	require.NotNil(p.t, p.g.Await, "the game awaits nothing (phase %s)", p.g.Phase)
	var want []string
	for _, i := range players {
		want = append(want, fmt.Sprintf("p%d", i))
	}
	got := p.g.Await.Action + " " + strings.Join(p.g.Await.Players, ",")
	require.Equal(p.t, action+" "+strings.Join(want, ","), got, "await %+v", *p.g.Await)
}

func (p *play) player(i int) *Player { return &p.g.Players[i] }
func (p *play) at(i int) int         { return p.g.Players[i].Tile }

// place puts player i on a tile (test setup).
func (p *play) place(i, tile int) { p.g.Players[i].Tile = tile }

// happened reports whether the last action emitted an event of type typ.
func (p *play) happened(typ string) bool {
	return slices.ContainsFunc(p.events, func(e domain.Event) bool { return e.Type == typ })
}

// effect returns the last effect of kind the last action emitted.
func (p *play) effect(kind string) EffectData {
	p.t.Helper()
	for i := len(p.events) - 1; i >= 0; i-- {
		if d, ok := p.events[i].Data.(EffectData); ok && d.Effect == kind {
			return d
		}
	}
	p.t.Fatalf("no %s effect in %v", kind, p.events)
	return EffectData{}
}

// event returns the last event of type typ the last action emitted.
func (p *play) event(typ string) domain.Event {
	p.t.Helper()
	for i := len(p.events) - 1; i >= 0; i-- {
		if e := p.events[i]; e.Type == typ {
			return e
		}
	}
	p.t.Fatalf("no %s event in %v", typ, p.events)
	return domain.Event{}
}

// checkStep checks what one successful Apply did: the invariants of the new
// state (the rules run as rulestest.PureRules, which checks the input is
// unchanged). Plain checks, not testify: it runs after every step of
// thousands of games.
func checkStep(t testing.TB, b *Board, before Game, g Game, out domain.Outcome) {
	checkInvariants(t, b, g)
	overs := 0
	for _, e := range out.Events {
		if e.Type != domain.EventGameOver {
			continue
		}
		overs++
		d := e.Data.(domain.GameOver)
		if d.Kind != Kind || d.Mode != g.BoardID || !slices.Equal(d.Winners, []string{g.Winner}) ||
			!slices.Equal(d.Players, g.PlayerIDs()) || len(d.Losers) != len(g.Players)-1 || slices.Contains(d.Losers, g.Winner) {
			t.Fatalf("gameOver %+v for winner %s of %v", d, g.Winner, g.PlayerIDs())
		}
		w := g.Players[g.Seat(g.Winner)]
		switch d.Reason {
		case ReasonLastPlayer:
			if len(g.Active()) != 1 || w.Removed {
				t.Fatalf("gameOver %+v with %d players in", d, len(g.Active()))
			}
		case ReasonFinish:
			// A GameOverRule tile, the last tile of a board without one,
			// or a GameOverRule among a tile's outcomes or choices.
			if w.Removed {
				t.Fatalf("a removed player won: %+v", d)
			}
		default:
			t.Fatalf("gameOver reason %q", d.Reason)
		}
	}
	if ended := before.Phase != PhaseOver && g.Phase == PhaseOver; (ended && overs != 1) || (!ended && overs != 0) {
		t.Fatalf("%d gameOver events in a step from %s to %s", overs, before.Phase, g.Phase)
	}
}

// checkInvariants checks a game state on its own.
func checkInvariants(t testing.TB, b *Board, g Game) {
	fail := func(format string, args ...any) {
		t.Helper()
		raw, _ := json.Marshal(g)
		t.Fatalf("%s\nstate: %s", fmt.Sprintf(format, args...), raw)
	}
	if len(g.Players) < 1 || len(g.Players) > MaxPlayers || g.Current < 0 || g.Current >= len(g.Players) {
		fail("%d players, current %d", len(g.Players), g.Current)
	}
	if len(g.Log) > LogSize {
		fail("log of %d", len(g.Log))
	}
	seen := make(map[string]bool, len(g.Players))
	for _, p := range g.Players {
		if seen[p.ID] {
			fail("player %s seated twice", p.ID)
		}
		seen[p.ID] = true
		if p.Tile < 0 || p.Tile >= len(b.Tiles) {
			fail("%s is off the board at %d", p.ID, p.Tile)
		}
		for _, n := range []int{p.LostTurns, p.LostTurnDrinks, p.ExtraTurns, p.MandatorySkips, p.Anchors, p.GroupRoll} {
			if n < 0 {
				fail("a counter of %s went negative", p.ID)
			}
		}
		for _, m := range append(slices.Clone(p.SpeedMods), p.RollMods...) {
			if m.Turns < 1 {
				fail("a spent modifier is left on %s", p.ID)
			}
		}
		for _, tile := range p.Mandatory {
			if tile < 0 || tile >= len(b.Tiles) {
				fail("mandatory tile %d of %s", tile, p.ID)
			}
		}
		for _, tile := range p.Cleared {
			if tile < 0 || tile >= len(b.Tiles) || b.Tiles[tile].MandatoryType != MandatoryOnce {
				fail("%s cleared tile %d, which is no \"once\" tile", p.ID, tile)
			}
		}
		if len(slices.Compact(slices.Sorted(slices.Values(p.Items)))) != len(p.Items) || (p.Items != nil && len(p.Items) == 0) {
			fail("%s holds items %v", p.ID, p.Items)
		}
		if p.Strikes < 0 || (p.Strikes >= MaxStrikes && !p.Removed && g.Phase == PhasePlaying) {
			fail("%s has %d strikes and is still in", p.ID, p.Strikes)
		}
		if p.Condition != nil {
			if r, ok := b.RuleAt(p.Condition.Rule); !ok || r.Condition == nil {
				fail("condition %q on %s", p.Condition.Rule, p.ID)
			}
		}
	}
	h := Rules{}.Header(g)
	timed := g.TurnSeconds > 0 && g.Phase == PhasePlaying
	if !slices.Equal(h.Players, g.PlayerIDs()) || h.Deadline.IsZero() == timed || !h.Deadline.Equal(g.Deadline) && timed {
		fail("header %+v", h)
	}
	if !timed && !g.Deadline.IsZero() {
		fail("a deadline without a timer in play: %s", g.Deadline)
	}
	for _, n := range g.Next {
		if !slices.Contains([]string{StepBegin, StepZone, StepLead, StepLost, StepCond, StepRoll, StepEnd}, n) {
			if path, ok := strings.CutPrefix(n, StepRun); ok {
				if _, ok := b.RuleAt(path); !ok {
					fail("next step %q", n)
				}
			} else if tile, ok := strings.CutPrefix(n, StepBack); !ok || tile == "" {
				fail("next step %q", n)
			}
		}
	}
	switch g.Phase {
	case PhaseLobby:
		if g.Await != nil || h.Status != domain.StatusWaiting {
			fail("lobby awaits %+v, status %s", g.Await, h.Status)
		}
	case PhaseOver:
		if g.Await != nil || len(g.Next) > 0 || !seen[g.Winner] || h.Status != domain.StatusOver {
			fail("a finished game awaits nothing and names its winner")
		}
	case PhasePlaying:
		w := g.Await
		if h.Status != domain.StatusActive || g.Winner != "" {
			fail("status %s, winner %q while playing", h.Status, g.Winner)
		}
		if len(g.Active()) < 2 || g.Players[g.Current].Removed || g.Players[g.Seat(g.Host)].Removed {
			fail("%d players in, current %d removed %v, host %s", len(g.Active()), g.Current, g.Players[g.Current].Removed, g.Host)
		}
		if w == nil || len(w.Players) == 0 {
			fail("a game in play always awaits exactly one input")
		}
		for _, id := range append(slices.Clone(w.Players), w.Targets...) {
			if !seen[id] || g.Players[g.Seat(id)].Removed {
				fail("awaits or targets %q, who is not in the game", id)
			}
		}
		if (len(w.Rolls) > 0 && w.RuleType != RollUntilRule) || (len(w.Tiles) > 0 && (w.RuleType != RefightRule || len(w.Tiles) != len(w.Choices))) {
			fail("awaits %+v", *w)
		}
		cur := g.Players[g.Current].ID
		if group := w.Action == ActionStarter || w.Action == ActionGroupRoll; !group && !slices.Equal(w.Players, []string{cur}) {
			fail("only the current player answers %s", w.Action)
		}
		if w.Purpose != PurposeTurnRoll {
			if r, ok := b.RuleAt(w.Rule); !ok || r.Type != w.RuleType {
				fail("await names rule %q (%s)", w.Rule, w.RuleType)
			}
		}
		ok := true
		switch w.Action {
		case ActionRoll:
			ok = w.Dice >= 1 && w.Dice <= MaxDice
		case ActionChoose:
			ok = len(w.Choices) > 0
		case ActionTarget:
			ok = len(w.Targets) > 0 && !slices.Contains(w.Targets, cur)
		case ActionStarter:
			ok = len(w.Starters) > 0
		case ActionChallenge:
			ok = len(w.Targets) >= 2 && w.Targets[0] == cur
		case ActionGroupRoll, ActionConfirm:
		default:
			ok = false
		}
		if !ok {
			fail("awaits %+v", *w)
		}
	default:
		fail("unknown phase %q", g.Phase)
	}
	rulestest.RoundTrip(t, g)
}
