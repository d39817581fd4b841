package tilerace

import (
	"sort"
	"strconv"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// PointsPerCompletion is what one completion of tile earns, in hundredths
// (ruling 6): the difficulty value (1, 2 or 3 points) on a tile with max 1 and
// on a doubled tile that was single-completion; otherwise the tile's points
// (1 point when unset).
func PointsPerCompletion(tile Tile) int {
	if tile.Max <= 1 || tile.Mods.DifficultyPoints {
		d := tile.Difficulty
		if !d.Valid() {
			d = Easy
		}
		return int(d) * 100
	}
	if tile.Points <= 0 {
		return DefaultPoints
	}
	return tile.Points
}

// FormatPoints shows hundredths with two decimals: 250 → "2.50".
func FormatPoints(h int) string {
	sign := ""
	u := int64(h)
	if u < 0 {
		sign, u = "-", -u
	}
	frac := strconv.FormatInt(u%100, 10)
	if len(frac) == 1 {
		frac = "0" + frac
	}
	return sign + strconv.FormatInt(u/100, 10) + "." + frac
}

// ParsePoints reads a positive number of points with at most two decimals
// ("2", "1.5", "0,25") as hundredths.
func ParsePoints(s string) (int, error) {
	s = strings.TrimSpace(s)
	bad := func() (int, error) {
		return 0, domain.Errorf(domain.EINVALID, "points must be a number above 0 with at most two decimals, up to %s, not %q", FormatPoints(MaxPoints), s)
	}
	if s == "" || len(s) > 12 {
		return bad()
	}
	whole, frac, dot := strings.Cut(strings.Replace(s, ",", ".", 1), ".")
	if whole == "" {
		whole = "0"
	}
	if dot && (frac == "" || len(frac) > 2) {
		return bad()
	}
	for _, part := range []string{whole, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return bad()
			}
		}
	}
	w, err := strconv.Atoi(whole)
	if err != nil {
		return bad()
	}
	f := 0
	if frac != "" {
		f, _ = strconv.Atoi(frac)
		if len(frac) == 1 {
			f *= 10
		}
	}
	if w > MaxPoints/100 {
		return bad()
	}
	h := w*100 + f
	if h <= 0 || h > MaxPoints {
		return bad()
	}
	return h, nil
}

// LeaderboardSize is how many players the leaderboard shows (ruling 3).
const LeaderboardSize = 10

// Standing is one row of the leaderboard.
type Standing struct {
	Rank    int    `json:"rank"` // 1-based; tied players share a rank (1, 1, 3)
	Player  string `json:"player"`
	Points  int    `json:"points"`  // hundredths
	Display string `json:"display"` // two decimals
}

// Leaderboard ranks players by total points (hundredths, keyed by player
// name) and returns the top n (LeaderboardSize when n ≤ 0). Ties are ordered
// by name and share a rank; players with no points are left out.
func Leaderboard(totals map[string]int, n int) []Standing {
	if n <= 0 {
		n = LeaderboardSize
	}
	rows := make([]Standing, 0, len(totals))
	for p, pts := range totals {
		if pts > 0 {
			rows = append(rows, Standing{Player: p, Points: pts, Display: FormatPoints(pts)})
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Points != rows[j].Points {
			return rows[i].Points > rows[j].Points
		}
		return rows[i].Player < rows[j].Player
	})
	for i := range rows {
		if i > 0 && rows[i].Points == rows[i-1].Points {
			rows[i].Rank = rows[i-1].Rank
		} else {
			rows[i].Rank = i + 1
		}
	}
	if len(rows) > n {
		rows = rows[:n]
	}
	return rows
}

// AwardKey is the stable key of a team's award number seq
// ("{teamId}-{seq}"): unique in its race, never reused.
func AwardKey(team string, seq int) string {
	return team + "-" + strconv.Itoa(seq)
}

// actionRecord is the id of the event record of action a (its only step is
// keyed by the action: a race's steps leave the game's version alone).
func actionRecord(a domain.Action) string { return a.Actor.ID + "~" + a.ID }

// checkAwards checks every pointsAwarded event of ch: it decodes, its key
// can be a key, and ch writes its team (whose document carries the points,
// Team.award). The award's ledger entry is the event itself, in the
// action's event record, created in the same commit (LedgerOf). A key comes
// from the team's awards counter, read and raised in this same
// transaction, so it is never used twice: a retried transaction runs again
// from fresh reads, and a redelivered request replays its stored reply.
//
// Errors: EINTERNAL (an award that does not decode, or whose team document
// the change does not write).
func checkAwards(ch domain.Change) error {
	for _, e := range ch.Events() {
		if e.Type != EventPointsAwarded {
			continue
		}
		var a AwardData
		if dataOf(e, &a) != nil || !validID(a.Key) {
			return domain.Errorf(domain.EINTERNAL, "a pointsAwarded event does not decode: %v", e.Data)
		}
		if !wrote(ch.Writes, domain.Doc(SlotTeam, a.Team)) {
			return domain.Errorf(domain.EINTERNAL, "award %s: team %s is not written with it", a.Key, a.Team)
		}
	}
	return nil
}

// LedgerOf returns the points ledger's entries in event record record
// (its id) with events: one per pointsAwarded event, and one with negative
// points per pointsReversed event (an undo taking an award back). A race's
// ledger is every such entry of its event records (games/{id}/events):
// the records are created in the commits that change the teams' points,
// so at any reply the entries sum, per player, to the teams' points.
//
// Errors: EINVALID (an event whose data does not decode).
func LedgerOf(record string, events []domain.Event) ([]LedgerEntry, error) {
	var out []LedgerEntry
	bad := func(e domain.Event, err error) error {
		return domain.Errorf(domain.EINVALID, "record %s: a %s event does not decode: %v", record, e.Type, err)
	}
	for _, e := range events {
		switch e.Type {
		case EventPointsAwarded:
			var a AwardData
			if err := dataOf(e, &a); err != nil {
				return nil, bad(e, err)
			}
			out = append(out, LedgerEntry{Key: a.Key, Player: a.Player, Points: a.Points, Display: FormatPoints(a.Points),
				Team: a.Team, TeamName: a.TeamName, Event: record, Tile: a.Tile, PowerupTile: a.PowerupTile, By: a.By})
		case EventPointsReversed:
			var p PointsReversedData
			if err := dataOf(e, &p); err != nil {
				return nil, bad(e, err)
			}
			out = append(out, LedgerEntry{Key: ReversalKey(p.Key), Player: p.Player, Points: -p.Points, Display: FormatPoints(-p.Points),
				Team: p.Team, TeamName: p.TeamName, Event: record, Tile: p.Tile, PowerupTile: p.PT, By: p.By, Reverses: p.Key})
		}
	}
	return out, nil
}
