package tilerace

import (
	"fmt"
	"strings"
	"sync"

	"github.com/meeple-games/meeple/domain"
)

// Difficulty layout rules (ruling 17).
const (
	MaxRun   = 3  // at most 3 consecutive tiles of one difficulty
	MinHard  = 17 // at least 17 hard tiles, tiles 5 and 56 included
	MaxGap   = 7  // at most 7 tiles between two hard tiles
	earlyEnd = NumTiles * 30 / 100
	// lateStart is the first tile of the last 30 %: tiles 1..16 use the early
	// weights, 41..56 the late ones, 17..40 a linear blend.
	lateStart = NumTiles - earlyEnd + 1
)

// TileWeights are the gradient's weights at tile n (1..56): Early for the
// first 30 % of tiles (1–16), Late for the last 30 % (41–56) and, in
// between, the linear blend early·(25−k) + late·k with k = n − 16 (the
// weights are relative, so the common factor 25 does not matter). Integer
// arithmetic keeps every platform's draw identical.
func TileWeights(gr Gradient, n int) Weights {
	switch {
	case n <= earlyEnd:
		return gr.Early
	case n >= lateStart:
		return gr.Late
	}
	k, den := n-earlyEnd, lateStart-earlyEnd
	mix := func(a, b int) int { return a*(den-k) + b*k }
	return Weights{mix(gr.Early.Easy, gr.Late.Easy), mix(gr.Early.Medium, gr.Late.Medium), mix(gr.Early.Hard, gr.Late.Hard)}
}

// fixedHard reports whether tile n must be hard.
func fixedHard(n int) bool { return n == FixedHardTile || n == FinalTile }

// CheckDifficulties reports the first rule a difficulty layout (ds[i] is
// tile i+1) breaks: 56 tiles, tiles 5 and 56 hard, at most MaxRun in a row,
// at least MinHard hard tiles, at most MaxGap tiles between hard tiles.
func CheckDifficulties(ds []Difficulty) error {
	if len(ds) != NumTiles {
		return fmt.Errorf("%d difficulties for %d tiles", len(ds), NumTiles)
	}
	hard, run, gap := 0, 0, 0
	for i, d := range ds {
		n := i + 1
		if !d.Valid() {
			return fmt.Errorf("tile %d: difficulty %d", n, d)
		}
		if fixedHard(n) && d != Hard {
			return fmt.Errorf("tile %d must be hard", n)
		}
		if i > 0 && ds[i-1] == d {
			run++
		} else {
			run = 1
		}
		if run > MaxRun {
			return fmt.Errorf("tiles %d–%d: %d %s tiles in a row", n-run+1, n, run, d)
		}
		if d == Hard {
			hard++
			gap = 0
		} else if gap++; gap > MaxGap {
			return fmt.Errorf("tile %d: %d tiles since the last hard tile", n, gap)
		}
	}
	if hard < MinHard {
		return fmt.Errorf("%d hard tiles, fewer than %d", hard, MinHard)
	}
	return nil
}

// The layout sampler walks the tiles in order and, at each tile, draws a
// difficulty among those that still allow a complete valid layout, with the
// gradient's weights. Whether a choice still allows one is answered exactly
// by a table computed once: for every tile n and every state after tile n−1
// (the last difficulty, how many in a row, how many tiles since the last
// hard one), the set of (hard, easy) counts some valid assignment of tiles
// n..56 reaches, as a bitset of easy counts per hard count. With the pool
// capacities that makes the sampler never dead-end: it fails only when no
// valid layout fits the pools at all, and says so before drawing anything.

// state packs (last difficulty 0..3, run 0..3, gap 0..7).
type state uint8

func mkState(last Difficulty, run, gap int) state { return state(int(last)<<5 | run<<3 | gap) }

func (s state) unpack() (Difficulty, int, int) { return Difficulty(s >> 5), int(s>>3) & 3, int(s) & 7 }

const numStates = 128

// step places d on tile n after state s.
func step(n int, s state, d Difficulty) (state, bool) {
	last, run, gap := s.unpack()
	if fixedHard(n) && d != Hard {
		return 0, false
	}
	if d == last && run >= MaxRun {
		return 0, false
	}
	ng := 0
	if d != Hard {
		if ng = gap + 1; ng > MaxGap {
			return 0, false
		}
	}
	nr := 1
	if d == last {
		nr = run + 1
	}
	return mkState(d, nr, ng), true
}

var (
	reachOnce sync.Once
	// reach[(n*numStates+s)*(NumTiles+1)+h] holds bit e when tiles n..56,
	// after state s, can be assigned validly with h hard and e easy tiles.
	reach []uint64
)

func reachAt(n int, s state, h int) uint64 {
	return reach[(n*numStates+int(s))*(NumTiles+1)+h]
}

func buildReach() {
	reach = make([]uint64, (NumTiles+2)*numStates*(NumTiles+1))
	idx := func(n int, s state, h int) int { return (n*numStates+int(s))*(NumTiles+1) + h }
	for s := 0; s < numStates; s++ {
		reach[idx(NumTiles+1, state(s), 0)] = 1 // nothing left: 0 hard, 0 easy
	}
	for n := NumTiles; n >= 1; n-- {
		left := NumTiles - n // tiles after n
		for s := 0; s < numStates; s++ {
			for _, d := range Difficulties {
				ns, ok := step(n, state(s), d)
				if !ok {
					continue
				}
				for h := 0; h <= left; h++ {
					v := reach[idx(n+1, ns, h)]
					if v == 0 {
						continue
					}
					switch d {
					case Hard:
						reach[idx(n, state(s), h+1)] |= v
					case Easy:
						reach[idx(n, state(s), h)] |= v << 1
					default:
						reach[idx(n, state(s), h)] |= v
					}
				}
			}
		}
	}
}

// feasible reports whether tiles next..56, after state s, with counts so far
// (indexed by difficulty), can be assigned within caps and with at least
// MinHard hard tiles in all.
func feasible(next int, s state, counts, caps [4]int) bool {
	left := NumTiles - next + 1
	loH, hiH := max(0, MinHard-counts[Hard]), min(left, caps[Hard]-counts[Hard])
	for h := loH; h <= hiH; h++ {
		v := reachAt(next, s, h)
		if v == 0 {
			continue
		}
		lo := max(0, left-h-(caps[Medium]-counts[Medium]))
		hi := min(caps[Easy]-counts[Easy], left-h)
		if lo > hi {
			continue
		}
		mask := (uint64(1)<<(hi+1) - 1) &^ (uint64(1)<<lo - 1)
		if v&mask != 0 {
			return true
		}
	}
	return false
}

// RandomDifficulties draws a difficulty layout for the 56 tiles: the
// gradient's weights, at most MaxRun in a row, at least MinHard hard tiles
// (tiles 5 and 56 always hard), at most MaxGap tiles between hard tiles, and
// at most caps[d] tiles of difficulty d (indexed by Difficulty; a negative
// cap means none). It rolls one die per tile that has more than one legal
// difficulty: Roll(sum of their weights), or Roll(number of them) when all
// their weights are 0. The same dice give the same layout.
//
// Errors: EINVALID (bad weights); ECONFLICT when no valid layout fits caps.
func RandomDifficulties(gr Gradient, caps [4]int, dice domain.Dice) ([]Difficulty, error) {
	if err := CheckGradient(gr); err != nil {
		return nil, err
	}
	reachOnce.Do(buildReach)
	var counts [4]int
	s := mkState(0, 0, 0)
	if !feasible(1, s, counts, caps) {
		return nil, layoutError(caps)
	}
	out := make([]Difficulty, 0, NumTiles)
	for n := 1; n <= NumTiles; n++ {
		w := TileWeights(gr, n)
		var cands [3]Difficulty
		var states [3]state
		var weights [3]int
		k, total := 0, 0
		for _, d := range Difficulties {
			ns, ok := step(n, s, d)
			if !ok {
				continue
			}
			counts[d]++
			if feasible(n+1, ns, counts, caps) {
				cands[k], states[k], weights[k] = d, ns, w.of(d)
				total += weights[k]
				k++
			}
			counts[d]--
		}
		pick := 0
		switch {
		case k == 0: // cannot happen: the state before was feasible
			return nil, domain.Errorf(domain.ECONFLICT, "the difficulty randomiser found no choice for tile %d", n)
		case k == 1:
		case total == 0:
			pick = dice.Roll(k) - 1
		default:
			r := dice.Roll(total)
			for pick = 0; r > weights[pick]; pick++ {
				r -= weights[pick]
			}
		}
		d := cands[pick]
		counts[d]++
		s = states[pick]
		out = append(out, d)
	}
	return out, nil
}

// RandomiseFailure is the Details of the ECONFLICT a randomiser returns when
// the pools cannot satisfy the constraints; on it the functions layer turns
// the fog off for all with AutoDisableFog (ruling 17).
type RandomiseFailure struct {
	Randomise string         `json:"randomise"` // "difficulties" or "tiles"
	Usable    map[string]int `json:"usable"`    // tasks per pool that can be placed (reserve kept)
	Needed    map[string]int `json:"needed,omitempty"`
}

// IsRandomiseFailure reports whether err is a randomiser's refusal for want
// of pool tasks or of any valid layout.
func IsRandomiseFailure(err error) bool {
	_, ok := domain.ErrorDetails(err).(RandomiseFailure)
	return ok
}

func usableMap(caps [4]int) map[string]int {
	m := map[string]int{}
	for _, d := range Difficulties {
		m[d.String()] = max(0, caps[d])
	}
	return m
}

func layoutError(caps [4]int) error {
	var why string
	switch {
	case caps[Hard] < MinHard:
		why = fmt.Sprintf("the hard pool can fill %d tiles (after the reserve), but at least %d hard tiles are needed", max(0, caps[Hard]), MinHard)
	case max(0, caps[Easy])+max(0, caps[Medium])+max(0, caps[Hard]) < NumTiles:
		why = fmt.Sprintf("the pools can fill %d tiles (easy %d, medium %d, hard %d after the reserve), but the board has %d",
			max(0, caps[Easy])+max(0, caps[Medium])+max(0, caps[Hard]), max(0, caps[Easy]), max(0, caps[Medium]), max(0, caps[Hard]), NumTiles)
	default:
		why = fmt.Sprintf("no layout with at most %d tiles of a difficulty in a row, at least %d hard tiles and at most %d tiles between hard tiles fits the pools (easy %d, medium %d, hard %d after the reserve)",
			MaxRun, MinHard, MaxGap, max(0, caps[Easy]), max(0, caps[Medium]), max(0, caps[Hard]))
	}
	e := domain.Errorf(domain.ECONFLICT, "cannot randomise the difficulties: %s; import more tasks or lower the reserve", why)
	e.Details = RandomiseFailure{Randomise: "difficulties", Usable: usableMap(caps)}
	return e
}

// RandomiseRequest is the payload of "randomiseDifficulties".
type RandomiseRequest struct {
	// Gradient, when given, replaces the game's gradient setting first.
	Gradient *Gradient `json:"gradient,omitempty"`
	// Fill also fills the tiles from the pools (Randomise Tiles) in the same
	// step.
	Fill bool `json:"fill,omitempty"`
}

// setupOnly rejects the randomisers once the race has started: they would
// change tiles teams stand on and have recorded progress for.
func setupOnly(g Game, what string) error {
	if g.Status != StatusSetup {
		return domain.Errorf(domain.ECONFLICT, "%s only before the race starts (reset the game first)", what)
	}
	return nil
}

// releaseAll marks every pool task unused: the board is about to be
// refilled, so nothing stays placed.
func releaseAll(p *Pools) {
	for _, d := range Difficulties {
		pool := p.Pool(d)
		for i := range *pool {
			(*pool)[i].Used = false
		}
	}
}

// RandomiseDifficulties gives every tile a new difficulty with
// RandomDifficulties, capped by what the pools can fill (each pool's size
// minus the reserve). The tiles' tasks are cleared and go back to their pools
// (rewards stay); with Fill the tiles are then filled as RandomiseTiles does.
// Only in setup.
//
// Reads the game, the board and the pools; writes the board and the pools,
// the game when the request sets the gradient, and the public projection of
// the tiles players can see.
//
// Errors: EFORBIDDEN; EINVALID (bad gradient); ECONFLICT (race started; the
// pools cannot satisfy the rules: Details is a RandomiseFailure).
func RandomiseDifficulties(c Ctx, g Game, b Board, p Pools, req RandomiseRequest, dice domain.Dice) (Game, Board, Pools, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionRandomiseDifficulties, ""); err != nil {
		return g, b, p, o, err
	}
	if err := setupOnly(g, "difficulties can be randomised"); err != nil {
		return g, b, p, o, err
	}
	if err := checkBoard(b); err != nil {
		return g, b, p, o, err
	}
	ng := g.clone()
	if req.Gradient != nil {
		if err := CheckGradient(*req.Gradient); err != nil {
			return g, b, p, o, err
		}
		ng.Settings.Gradient = *req.Gradient
		o.write(DocGame)
	}
	np := p.clone()
	releaseAll(&np)
	var caps [4]int
	for _, d := range Difficulties {
		caps[d] = len(*np.Pool(d)) - ng.Settings.Reserve
	}
	ds, err := RandomDifficulties(ng.Settings.Gradient, caps, dice)
	if err != nil {
		return g, b, p, Outcome{}, err
	}
	nb := b.clone()
	for i, d := range ds {
		t := emptyTile(i+1, d)
		t.Reward = nb.Tiles[i].Reward
		nb.Tiles[i] = t
	}
	what := "difficulties"
	if req.Fill {
		if err := fillTiles(&nb, &np, ng.Settings.Reserve, dice); err != nil {
			return g, b, p, Outcome{}, err
		}
		what = "board"
	}
	o.write(DocBoard, DocPools)
	o.publish(visibleToPlayers(ng, span(1, NumTiles))...)
	o.emit(EventBoardChanged, "", BoardChangedData{What: what, By: c.by(ng)})
	o.Result = RandomiseResult{Counts: countDifficulties(nb)}
	return ng, nb, np, o, nil
}

func countDifficulties(b Board) map[string]int {
	m := map[string]int{}
	for _, t := range b.Tiles {
		m[t.Difficulty.String()]++
	}
	return m
}

// RandomiseTiles fills every tile with a task drawn from the pool of the
// tile's difficulty, leaving at least the reserve unused in each pool. The
// tasks the board held go back to their pools first; the placed ones are
// marked used. Tiles are filled in order 1..56, each with Roll(number of
// unused tasks in its pool) over the pool's order. Only in setup.
//
// Reads the game, the board and the pools; writes the board, the pools and
// the public projection of the tiles players can see.
//
// Errors: EFORBIDDEN; ECONFLICT (race started; a pool is too small: Details
// is a RandomiseFailure).
func RandomiseTiles(c Ctx, g Game, b Board, p Pools, dice domain.Dice) (Board, Pools, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionRandomiseTiles, ""); err != nil {
		return b, p, o, err
	}
	if err := setupOnly(g, "tiles can be randomised"); err != nil {
		return b, p, o, err
	}
	if err := checkBoard(b); err != nil {
		return b, p, o, err
	}
	nb, np := b.clone(), p.clone()
	releaseAll(&np)
	if err := fillTiles(&nb, &np, g.Settings.Reserve, dice); err != nil {
		return b, p, o, err
	}
	o.write(DocBoard, DocPools)
	o.publish(visibleToPlayers(g, span(1, NumTiles))...)
	o.emit(EventBoardChanged, "", BoardChangedData{What: "tiles", By: c.by(g)})
	o.Result = RandomiseResult{Counts: countDifficulties(nb)}
	return nb, np, o, nil
}

// fillTiles fills every tile of b from the unused tasks of p.
func fillTiles(b *Board, p *Pools, reserve int, dice domain.Dice) error {
	var need, have [4]int
	for _, t := range b.Tiles {
		if !t.Difficulty.Valid() {
			return domain.Errorf(domain.ECONFLICT, "tile %d has no difficulty", t.N)
		}
		need[t.Difficulty]++
	}
	var short []string
	var caps [4]int
	for _, d := range Difficulties {
		have[d] = p.Unused(d)
		caps[d] = have[d] - reserve
		if need[d] > 0 && need[d] > caps[d] {
			short = append(short, fmt.Sprintf("%d %s tiles need %d %s tasks plus %d in reserve, and the pool has %d", need[d], d, need[d], d, reserve, have[d]))
		}
	}
	if len(short) > 0 {
		e := domain.Errorf(domain.ECONFLICT, "cannot fill the tiles: %s; import more tasks or lower the reserve", strings.Join(short, "; "))
		e.Details = RandomiseFailure{Randomise: "tiles", Usable: usableMap(caps),
			Needed: map[string]int{"easy": need[Easy], "medium": need[Medium], "hard": need[Hard]}}
		return e
	}
	var unused [4][]int // indexes of unused tasks per pool, in pool order
	for _, d := range Difficulties {
		for i, t := range *p.Pool(d) {
			if !t.Used {
				unused[d] = append(unused[d], i)
			}
		}
	}
	for i := range b.Tiles {
		t := &b.Tiles[i]
		d := t.Difficulty
		k := dice.Roll(len(unused[d])) - 1
		pi := unused[d][k]
		unused[d] = append(unused[d][:k:k], unused[d][k+1:]...)
		pool := p.Pool(d)
		(*pool)[pi].Used = true
		task := (*pool)[pi].Task
		task.Difficulty = d
		reward := t.Reward
		*t = Tile{N: t.N, Layout: TileLayout(t.N), Task: task, TaskID: (*pool)[pi].ID, Reward: reward}
	}
	return nil
}
