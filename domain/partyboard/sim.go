package partyboard

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/meeple-games/meeple/domain"
)

// SimOptions say what Simulate plays.
type SimOptions struct {
	Games   int    // games to play (default 100)
	Players int    // players in each (default 4; 2 to MaxPlayers)
	Seed    string // the games' seed (default "sim"): the same seed, the same report
	// MaxSteps caps the actions of one game (default SimMaxSteps); a game
	// that reaches it stalled.
	MaxSteps int
	// Workers play games side by side (default 1). The report does not
	// depend on it.
	Workers int
	// Stop, checked before each game is started (nil: never), ends the
	// simulation early: the report covers the games played and says Cut.
	Stop func() bool
}

// SimMaxSteps is the default cap on the actions of a simulated game: real
// boards end in a few hundred.
const SimMaxSteps = 20000

// SimReport is what Simulate found: how long games last, which tiles and
// rules never come up, how often each rule runs, and who wins by seat.
type SimReport struct {
	Board string `json:"board"`
	// Games is how many games were played: those asked for, or fewer when
	// the request's compute time ran out first (Cut).
	Games   int    `json:"games"`
	Cut     bool   `json:"cut,omitempty"`
	Players int    `json:"players"`
	Seed    string `json:"seed"`
	// Turns is the length of the games that ended, in turns (lost and
	// extra turns count); Actions the inputs they took.
	Turns   Spread `json:"turns"`
	Actions Spread `json:"actions"`
	// Stalled are games that had not ended after MaxSteps actions (or whose
	// rules looped without input: Errors says why): they are reported, not
	// run out.
	Stalled  int      `json:"stalled"`
	MaxSteps int      `json:"maxSteps"` // the cap on one game's actions
	Errors   []string `json:"errors,omitempty"`
	// WinsBySeat counts the games each seat (0 moves first) won;
	// WinRateBySeat is that share of the games that ended (fair: 1/players).
	WinsBySeat    []int     `json:"winsBySeat"`
	WinRateBySeat []float64 `json:"winRateBySeat"`
	// NeverLanded are tiles no turn roll ended on (tile 0, the start, is
	// left out); NeverRun rules that never ran (passive zones' rules, which
	// are only shown, and the start tile's are left out).
	NeverLanded []TileRef `json:"neverLanded"`
	NeverRun    []RuleRef `json:"neverRun"`
	// Rules lists every rule of the board with how often it ran.
	Rules []RuleStat `json:"rules"`
}

// Spread summarises a distribution of whole numbers.
type Spread struct {
	Min    int     `json:"min"`
	Median int     `json:"median"`
	P90    int     `json:"p90"`
	Max    int     `json:"max"`
	Mean   float64 `json:"mean"`
}

// TileRef names a tile.
type TileRef struct {
	Tile int    `json:"tile"`
	Text string `json:"text"`
}

// RuleRef names a rule by its location.
type RuleRef struct {
	Rule string `json:"rule"`
	Type string `json:"type"`
	Text string `json:"text"`
}

// RuleStat is how often a rule ran: Fires times in all, in Games of the
// games, PerGame on average.
type RuleStat struct {
	RuleRef
	Fires   int     `json:"fires"`
	Games   int     `json:"games"`
	PerGame float64 `json:"perGame"`
}

// simGame is what one simulated game did.
type simGame struct {
	over    bool
	turns   int
	actions int
	winner  int
	err     string
	landed  map[int]bool
	fired   map[string]int
}

// Simulate plays o.Games games of o.Players on b with the engine, no store:
// every input is a random legal answer and every die comes from
// domain.NewSeededDice, both derived from o.Seed and the game's number, so
// the same options give the same report.
//
// Errors: EINVALID (options out of range).
func Simulate(b *Board, o SimOptions) (SimReport, error) {
	if o.Games == 0 {
		o.Games = 100
	}
	if o.Players == 0 {
		o.Players = 4
	}
	if o.Seed == "" {
		o.Seed = "sim"
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = SimMaxSteps
	}
	switch {
	case o.Games < 1:
		return SimReport{}, domain.Errorf(domain.EINVALID, "games must be at least 1")
	case o.Players < MinPlayers || o.Players > MaxPlayers:
		return SimReport{}, domain.Errorf(domain.EINVALID, "players must be from %d to %d", MinPlayers, MaxPlayers)
	case b == nil || len(b.Tiles) == 0:
		return SimReport{}, domain.Errorf(domain.EINVALID, "no board to simulate")
	}
	games := make([]simGame, o.Games)
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, o.Workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				games[i] = simulateOne(b, o, i)
			}
		}()
	}
	played := 0
	for i := range games {
		if i > 0 && o.Stop != nil && o.Stop() {
			break
		}
		next <- i
		played++
	}
	close(next)
	wg.Wait()
	cut := played < o.Games
	o.Games = played
	rep := report(b, o, games[:played])
	rep.Cut = cut
	return rep, nil
}

// simulateOne plays game i of a simulation.
func simulateOne(b *Board, o SimOptions, i int) simGame {
	seed := fmt.Sprintf("%s-%d", o.Seed, i)
	h := fnv.New64a()
	h.Write([]byte(seed))
	rng := rand.New(rand.NewPCG(h.Sum64(), uint64(i)))
	r := Rules{Boards: MapSource{b.ID: b}}
	out := simGame{winner: -1, landed: map[int]bool{}, fired: map[string]int{}}
	count := func(events []domain.Event) {
		for _, e := range events {
			switch d := e.Data.(type) {
			case RuleData:
				out.fired[d.Rule]++
			case MovedData:
				if d.Cause == CauseRoll {
					out.landed[d.To] = true
				}
			}
		}
	}
	actor := func(i int) domain.Actor {
		id := fmt.Sprint("p", i+1)
		return domain.Actor{ID: id, Name: id, Role: domain.RoleGuest}
	}
	g, err := NewGame("sim", actor(0), b, simEpoch)
	env := domain.Env{Now: simEpoch}
	for p := 1; p < o.Players && err == nil; p++ {
		g, _, err = r.Apply(g, domain.Action{Type: ActionJoin, Actor: actor(p)}, env)
	}
	if err == nil {
		var res domain.Outcome
		env.Dice = domain.NewSeededDice(seed, 0)
		g, res, err = r.Apply(g, domain.Action{Type: ActionStart, Actor: actor(0)}, env)
		count(res.Events)
	}
	for step := 1; err == nil && g.Phase == PhasePlaying; step++ {
		if step > o.MaxSteps {
			return out
		}
		typ, who, payload := RandomAnswer(rng, g)
		var res domain.Outcome
		env.Dice = domain.NewSeededDice(seed, int64(step))
		g, res, err = r.Apply(g, domain.Action{Type: typ, Actor: domain.Actor{ID: who, Name: who}, Payload: payload}, env)
		count(res.Events)
		out.actions = step
	}
	if err != nil {
		out.err = err.Error()
		return out
	}
	out.over, out.turns, out.winner = true, g.Turn, g.Seat(g.Winner)
	return out
}

var simEpoch = domain.Env{}.Now

// RandomAnswer picks a random legal answer to what g awaits: the action
// type, who sends it and its payload.
func RandomAnswer(rng *rand.Rand, g Game) (typ, who string, payload json.RawMessage) {
	w := g.Await
	who = w.Players[rng.IntN(len(w.Players))]
	var fields map[string]any
	switch w.Action {
	case ActionChoose:
		fields = map[string]any{"choice": rng.IntN(len(w.Choices))}
	case ActionTarget:
		fields = map[string]any{"playerId": w.Targets[rng.IntN(len(w.Targets))]}
	case ActionStarter:
		fields = map[string]any{"starter": w.Starters[rng.IntN(len(w.Starters))]}
	case ActionChallenge:
		me, other := w.Targets[0], w.Targets[1+rng.IntN(len(w.Targets)-1)]
		if rng.IntN(2) == 0 {
			me, other = other, me
		}
		fields = map[string]any{"winner": me, "loser": other}
	}
	if fields != nil {
		payload, _ = json.Marshal(fields)
	}
	return w.Action, who, payload
}

// report sums up the games.
func report(b *Board, o SimOptions, games []simGame) SimReport {
	rep := SimReport{Board: b.ID, Games: o.Games, Players: o.Players, Seed: o.Seed, MaxSteps: o.MaxSteps,
		WinsBySeat: make([]int, o.Players), WinRateBySeat: make([]float64, o.Players),
		NeverLanded: []TileRef{}, NeverRun: []RuleRef{}, Rules: []RuleStat{}}
	var turns, actions []int
	landed := map[int]bool{}
	fires, inGames := map[string]int{}, map[string]int{}
	errs := map[string]bool{}
	for _, g := range games {
		for t := range g.landed {
			landed[t] = true
		}
		for r, n := range g.fired {
			fires[r] += n
			inGames[r]++
		}
		if !g.over {
			rep.Stalled++
			if g.err != "" && !errs[g.err] && len(errs) < 5 {
				errs[g.err] = true
				rep.Errors = append(rep.Errors, g.err)
			}
			continue
		}
		turns = append(turns, g.turns)
		actions = append(actions, g.actions)
		if g.winner >= 0 && g.winner < o.Players {
			rep.WinsBySeat[g.winner]++
		}
	}
	rep.Turns, rep.Actions = spread(turns), spread(actions)
	if ended := len(turns); ended > 0 {
		for i, w := range rep.WinsBySeat {
			rep.WinRateBySeat[i] = float64(w) / float64(ended)
		}
	}
	for i := 1; i < len(b.Tiles); i++ {
		if !landed[i] {
			rep.NeverLanded = append(rep.NeverLanded, TileRef{Tile: i, Text: b.Tiles[i].Rule.DisplayText})
		}
	}
	passive := map[string]bool{}
	for i, z := range b.Zones {
		if z.Type == ZonePassive {
			passive[fmt.Sprintf("zones[%d].rule", i)] = true
		}
	}
	b.Walk(func(path string, r *Rule) {
		ref := RuleRef{Rule: path, Type: r.Type, Text: r.DisplayText}
		root, _, _ := strings.Cut(path, ".rule")
		// A passive zone's rule is only shown; the start's, unless it is a
		// StarterSelectionRule, only when someone is moved there.
		if fires[path] == 0 && !passive[root+".rule"] && root != "tiles[0]" {
			rep.NeverRun = append(rep.NeverRun, ref)
		}
		rep.Rules = append(rep.Rules, RuleStat{RuleRef: ref, Fires: fires[path], Games: inGames[path],
			PerGame: float64(fires[path]) / float64(len(games))})
	})
	return rep
}

func spread(v []int) Spread {
	if len(v) == 0 {
		return Spread{}
	}
	s := slices.Clone(v)
	sort.Ints(s)
	total := 0
	for _, x := range s {
		total += x
	}
	at := func(q float64) int { // nearest rank
		return s[max(0, int(math.Ceil(q*float64(len(s))))-1)]
	}
	return Spread{Min: s[0], Median: at(0.5), P90: at(0.9), Max: s[len(s)-1], Mean: float64(total) / float64(len(s))}
}
