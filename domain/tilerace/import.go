package tilerace

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/meeple-games/meeple/domain"
)

// Import limits.
const (
	MaxImportBytes = 512 << 10 // the file
	MaxImportRows  = 1000      // data rows in one file
	maxProblems    = 200       // problems reported (the count says how many more)
)

// Column lists, as error messages name them (ruling 18). The task file's
// eighth column, group, is an extension (optional; yes/no).
var (
	TaskColumns        = []string{"label", "difficulty", "max", "min", "instructions", "image URL", "start proof", "group"}
	PowerupTileColumns = []string{"reward powerup", "label", "points", "max", "min", "claim type", "instructions", "image URL"}
)

// LineProblem is one thing wrong with one line of an imported file.
type LineProblem struct {
	Line    int    `json:"line"` // 1-based line of the file where the record starts
	Column  string `json:"column,omitempty"`
	Message string `json:"message"`
}

func (p LineProblem) String() string {
	if p.Column != "" {
		return fmt.Sprintf("line %d, %s: %s", p.Line, p.Column, p.Message)
	}
	return fmt.Sprintf("line %d: %s", p.Line, p.Message)
}

// ImportRequest is the payload of "importTasks" and "importPowerupTiles":
// the file's text, CSV or TSV.
type ImportRequest struct {
	Data string `json:"data" field:"longtext,max=524288"` // at most MaxImportBytes
}

type record struct {
	line   int
	fields []string
}

// readTable splits a CSV or TSV file into records. The delimiter is a tab
// when the first non-blank line holds one, a comma otherwise. Fields may be
// quoted ("a, b", "say ""hi"""), and a quoted field may span lines. Blank
// lines and rows of empty fields are skipped. Fields are trimmed.
func readTable(file []byte) ([]record, []LineProblem, error) {
	if len(file) > MaxImportBytes {
		return nil, nil, domain.Errorf(domain.ELIMIT, "the file is %d bytes, more than %d", len(file), MaxImportBytes)
	}
	file = bytes.TrimPrefix(file, []byte("\xef\xbb\xbf"))
	var problems []LineProblem
	if !utf8.Valid(file) {
		line := 1
		for i := 0; i < len(file); {
			r, size := utf8.DecodeRune(file[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			if r == '\n' {
				line++
			}
			i += size
		}
		problems = append(problems, LineProblem{Line: line, Message: "not valid UTF-8 text (save the file as UTF-8)"})
		return nil, problems, nil
	}
	comma := ','
	for rest := file; len(rest) > 0; {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		if len(bytes.TrimSpace(l)) > 0 {
			if bytes.IndexByte(l, '\t') >= 0 {
				comma = '\t'
			}
			break
		}
	}
	r := csv.NewReader(bytes.NewReader(file))
	r.Comma = comma
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = comma == ','
	r.ReuseRecord = false
	var recs []record
	// The guard stops a reader that makes no progress; the row and problem
	// limits stop a huge file early (table refuses more than MaxImportRows).
	for guard, lines := 0, bytes.Count(file, []byte("\n"))+2; guard <= lines && len(recs) <= MaxImportRows+1 && len(problems) <= MaxImportRows; guard++ {
		fields, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				problems = append(problems, LineProblem{Line: pe.StartLine, Message: quoteMessage(pe)})
				if errors.Is(pe.Err, csv.ErrQuote) && pe.Line > pe.StartLine {
					// an unclosed quote swallowed the rest of the file
					break
				}
				continue
			}
			problems = append(problems, LineProblem{Line: 0, Message: err.Error()})
			break
		}
		line, _ := r.FieldPos(0)
		blank := true
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
			if fields[i] != "" {
				blank = false
			}
		}
		if blank {
			continue
		}
		recs = append(recs, record{line: line, fields: fields})
	}
	return recs, problems, nil
}

func quoteMessage(pe *csv.ParseError) string {
	switch {
	case errors.Is(pe.Err, csv.ErrBareQuote):
		return `a " inside a field that is not quoted: quote the whole field and double the inner quote ("5"" sword")`
	case errors.Is(pe.Err, csv.ErrQuote):
		if pe.Line > pe.StartLine {
			return fmt.Sprintf(`a quoted field opened here is never closed (read up to line %d)`, pe.Line)
		}
		return `a quoted field must be followed by the delimiter or the end of the line`
	}
	return pe.Err.Error()
}

// table checks shared rules of both formats and calls row for each data row.
func table(file []byte, what string, columns []string, minCols int, header func([]string) bool, row func(line int, f []string, bad func(col int, format string, args ...any))) (int, error) {
	recs, problems, err := readTable(file)
	if err != nil {
		return 0, err
	}
	if len(recs) > 0 && header(recs[0].fields) {
		recs = recs[1:]
	}
	if len(recs) == 0 && len(problems) == 0 {
		return 0, domain.Errorf(domain.EINVALID, "the file has no %s", what)
	}
	if len(recs) > MaxImportRows {
		return 0, domain.Errorf(domain.ELIMIT, "the file has %d rows, more than %d", len(recs), MaxImportRows)
	}
	for _, rec := range recs {
		f := rec.fields
		bad := func(col int, format string, args ...any) {
			p := LineProblem{Line: rec.line, Message: fmt.Sprintf(format, args...)}
			if col >= 0 && col < len(columns) {
				p.Column = columns[col]
			}
			problems = append(problems, p)
		}
		last := len(f)
		for last > 0 && f[last-1] == "" {
			last--
		}
		if last > len(columns) {
			bad(-1, "%d columns, expected at most %d (%s)", last, len(columns), strings.Join(columns, ", "))
			continue
		}
		if last < minCols {
			bad(-1, "%d columns, expected at least %d (%s)", last, minCols, strings.Join(columns[:minCols], ", "))
			continue
		}
		padded := make([]string, len(columns))
		copy(padded, f)
		row(rec.line, padded, bad)
	}
	if len(problems) > 0 {
		return 0, importError(what, problems)
	}
	return len(recs), nil
}

func importError(what string, problems []LineProblem) error {
	all := problems
	if len(problems) > maxProblems {
		problems = problems[:maxProblems]
	}
	var first []string
	for i, p := range problems {
		if i == 5 {
			first = append(first, fmt.Sprintf("and %d more", len(all)-5))
			break
		}
		first = append(first, p.String())
	}
	noun := "problem"
	if len(all) != 1 {
		noun = "problems"
	}
	e := domain.Errorf(domain.EINVALID, "nothing was imported: the %s file has %d %s: %s", what, len(all), noun, strings.Join(first, "; "))
	e.Details = map[string]any{"problems": problems, "total": len(all)}
	return e
}

func parseDifficulty(s string) (Difficulty, bool) {
	switch strings.ToLower(s) {
	case "1", "e", "easy":
		return Easy, true
	case "2", "m", "medium", "med":
		return Medium, true
	case "3", "h", "hard":
		return Hard, true
	}
	return 0, false
}

func parseBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "", "no", "n", "false", "0", "-":
		return false, true
	case "yes", "y", "true", "1", "x":
		return true, true
	}
	return false, false
}

// parseCount reads max or min: empty is 1.
func parseCount(s string) (int, bool) {
	if s == "" {
		return 1, true
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxCompletions {
		return 0, false
	}
	return n, true
}

// textField checks a free-text field and reports its problem.
func textField(s string, limit int, col int, bad func(int, string, ...any)) string {
	s = unsafeCell(s)
	if n := utf8.RuneCountInString(s); n > limit {
		bad(col, "%d characters, more than %d", n, limit)
		return ""
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			bad(col, "contains a control character")
			return ""
		}
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

func urlField(s string, col int, bad func(int, string, ...any)) string {
	s = unsafeCell(s)
	u, err := cleanURL("image URL", s)
	if err != nil {
		bad(col, "%s", domain.ErrorMessage(err))
	}
	return u
}

func minMax(f []string, maxCol, minCol int, bad func(int, string, ...any)) (int, int) {
	hi, ok := parseCount(f[maxCol])
	if !ok {
		bad(maxCol, "must be a whole number from 1 to %d, not %q", MaxCompletions, f[maxCol])
	}
	lo, ok2 := parseCount(f[minCol])
	if !ok2 {
		bad(minCol, "must be a whole number from 1 to %d, not %q", MaxCompletions, f[minCol])
	}
	if ok && ok2 && lo > hi {
		bad(minCol, "min completions (%d) is more than max completions (%d)", lo, hi)
	}
	return lo, hi
}

// ParseTasks parses a task file (ruling 18): CSV or TSV, an optional header
// (recognised by its difficulty column reading "difficulty"), columns label,
// difficulty (1/2/3 or easy/medium/hard), max and min completions (empty:
// 1), instructions, image URL (empty, or http(s)), start proof (yes/no,
// empty: no) and, optionally, group (yes/no). Every bad line is reported;
// the tasks are returned only when the whole file is valid.
//
// Errors: EINVALID (Details {"problems": []LineProblem, "total": n});
// ELIMIT (file too large).
func ParseTasks(file []byte) ([]Task, error) {
	var tasks []Task
	header := func(f []string) bool {
		if len(f) < 2 {
			return false
		}
		_, isDiff := parseDifficulty(f[1])
		return !isDiff && strings.Contains(strings.ToLower(f[1]), "diff")
	}
	_, err := table(file, "task", TaskColumns, 2, header, func(line int, f []string, bad func(int, string, ...any)) {
		var t Task
		n := 0 // problems before this row are not ours
		count := func(col int, format string, args ...any) { n++; bad(col, format, args...) }
		if f[0] == "" {
			count(0, "a label is required")
		}
		t.Label = textField(f[0], MaxLabelLen, 0, count)
		d, ok := parseDifficulty(f[1])
		if !ok {
			count(1, "must be 1 (easy), 2 (medium) or 3 (hard), not %q", f[1])
		}
		t.Difficulty = d
		t.Min, t.Max = minMax(f, 2, 3, count)
		t.Instructions = textField(f[4], MaxTextLen, 4, count)
		t.Image = urlField(f[5], 5, count)
		if t.StartProof, ok = parseBool(f[6]); !ok {
			count(6, "must be yes or no, not %q", f[6])
		}
		if t.Group, ok = parseBool(f[7]); !ok {
			count(7, "must be yes or no, not %q", f[7])
		}
		t.Points = DefaultPoints
		if n == 0 {
			tasks = append(tasks, t)
		}
	})
	if err != nil {
		return nil, err
	}
	return tasks, nil
}

// ParsePowerupTiles parses a powerup tile file (ruling 18): CSV or TSV, an
// optional header (recognised by its points column reading "points"),
// columns reward powerup (id or name), label, points per completion (up to
// two decimals), max and min completions (empty: 1), claim type (eachTeam,
// firstTeam, unlimited; the seed's names work too), instructions, image URL.
// The returned tiles have no ids yet.
//
// Errors: as ParseTasks.
func ParsePowerupTiles(file []byte) ([]PowerupTile, error) {
	var tiles []PowerupTile
	header := func(f []string) bool {
		if len(f) < 3 {
			return false
		}
		_, err := ParsePoints(f[2])
		return err != nil && strings.Contains(strings.ToLower(f[2]), "point")
	}
	_, err := table(file, "powerup tile", PowerupTileColumns, 3, header, func(line int, f []string, bad func(int, string, ...any)) {
		var pt PowerupTile
		n := 0
		count := func(col int, format string, args ...any) { n++; bad(col, format, args...) }
		var ok bool
		if pt.Reward, ok = PowerupByID(f[0]); !ok {
			if f[0] == "" {
				count(0, "a reward powerup is required")
			} else {
				count(0, "unknown powerup %q", f[0])
			}
		}
		if f[1] == "" {
			count(1, "a label is required")
		}
		pt.Label = textField(f[1], MaxLabelLen, 1, count)
		pts, err := ParsePoints(f[2])
		if err != nil {
			count(2, "%s", domain.ErrorMessage(err))
		}
		pt.Points = pts
		pt.Min, pt.Max = minMax(f, 3, 4, count)
		if f[5] == "" {
			count(5, "a claim type is required (eachTeam, firstTeam or unlimited)")
		} else if pt.Claim, ok = parseClaim(f[5]); !ok {
			count(5, "must be eachTeam, firstTeam or unlimited, not %q", f[5])
		}
		pt.Instructions = textField(f[6], MaxTextLen, 6, count)
		pt.Image = urlField(f[7], 7, count)
		if n == 0 {
			tiles = append(tiles, pt)
		}
	})
	if err != nil {
		return nil, err
	}
	return tiles, nil
}

// ImportTasks adds the tasks of a file to the pools of their difficulties,
// all or nothing.
//
// Reads the game and the pools; writes the pools.
//
// Errors: EFORBIDDEN; EINVALID (bad lines, see ParseTasks); ELIMIT; ECONFLICT
// (a pool would exceed MaxPoolTasks).
func ImportTasks(c Ctx, g Game, p Pools, req ImportRequest) (Pools, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionImportTasks, ""); err != nil {
		return p, o, err
	}
	tasks, err := ParseTasks([]byte(req.Data))
	if err != nil {
		return p, o, err
	}
	np := p.clone()
	counts := map[string]int{}
	for _, t := range tasks {
		pool := np.Pool(t.Difficulty)
		*pool = append(*pool, PoolTask{ID: nextTaskID(&np), Task: t})
		counts[t.Difficulty.String()]++
	}
	for _, d := range Difficulties {
		if n := len(*np.Pool(d)); n > MaxPoolTasks {
			return p, o, domain.Errorf(domain.ECONFLICT, "nothing was imported: the %s pool would hold %d tasks, more than %d", d, n, MaxPoolTasks)
		}
	}
	o.write(DocPools)
	o.emit(EventPoolsChanged, "", PoolsChangedData{What: "imported", Count: len(tasks), By: c.by(g)})
	o.Result = ImportResult{Imported: len(tasks), Counts: counts}
	return np, o, nil
}

// ImportPowerupTiles creates the powerup tiles of a file, all or nothing,
// with the next ids.
//
// Reads the game; writes the game (the id counter) and the new powerup
// tiles.
//
// Errors: EFORBIDDEN; EINVALID (bad lines, see ParsePowerupTiles); ELIMIT.
func ImportPowerupTiles(c Ctx, g Game, req ImportRequest) (Game, []PowerupTile, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionImportPowerupTiles, ""); err != nil {
		return g, nil, o, err
	}
	tiles, err := ParsePowerupTiles([]byte(req.Data))
	if err != nil {
		return g, nil, o, err
	}
	if len(tiles) > MaxPowerupTiles {
		return g, nil, o, domain.Errorf(domain.ELIMIT, "nothing was imported: %d powerup tiles, more than %d", len(tiles), MaxPowerupTiles)
	}
	g = g.clone()
	ids := make([]string, len(tiles))
	for i := range tiles {
		tiles[i].ID = nextPowerupTileID(&g)
		ids[i] = tiles[i].ID
	}
	o.write(DocGame, DocPowerupTiles)
	o.emit(EventPowerupTiles, "", PowerupTilesData{What: "imported", IDs: ids, Count: len(tiles), By: c.by(g)})
	o.Result = ImportResult{Imported: len(tiles), IDs: ids}
	return g, tiles, o, nil
}
