package tilerace

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/meeple-games/meeple/domain"
)

// validID: ids are chosen by the functions layer (team ids, admin ids, game
// ids); they name documents, so no '/' and no control characters.
func validID(s string) bool {
	if s == "" || len(s) > maxIDLen || s == "." || s == ".." || strings.HasPrefix(s, "__") {
		return false
	}
	for _, r := range s {
		if r == '/' || r <= ' ' || r == 0x7f {
			return false
		}
	}
	return utf8.ValidString(s)
}

// cleanName trims a name (team, player, admin) and checks it: 1 to
// MaxNameLen characters, valid UTF-8, no control characters. Inner runs of
// whitespace become one space.
func cleanName(what, s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", domain.Errorf(domain.EINVALID, "%s is not valid UTF-8", what)
	}
	s = strings.Join(strings.Fields(s), " ")
	switch {
	case s == "":
		return "", domain.Errorf(domain.EINVALID, "%s is required", what)
	case utf8.RuneCountInString(s) > MaxNameLen:
		return "", domain.Errorf(domain.EINVALID, "%s %q is longer than %d characters", what, s, MaxNameLen)
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return "", domain.Errorf(domain.EINVALID, "%s %q contains a control character", what, s)
		}
	}
	return s, nil
}

// cleanText trims free text and checks its length; newlines and tabs are
// allowed, other control characters are not.
func cleanText(what, s string, limit int) (string, error) {
	if !utf8.ValidString(s) {
		return "", domain.Errorf(domain.EINVALID, "%s is not valid UTF-8", what)
	}
	s = strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
	if n := utf8.RuneCountInString(s); n > limit {
		return "", domain.Errorf(domain.EINVALID, "%s is %d characters long, more than %d", what, n, limit)
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return "", domain.Errorf(domain.EINVALID, "%s contains a control character", what)
		}
	}
	return s, nil
}

// cleanURL checks an image URL: empty, or an absolute http(s) URL.
func cleanURL(what, s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if len(s) > MaxURLLen {
		return "", domain.Errorf(domain.EINVALID, "%s is longer than %d characters", what, MaxURLLen)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(s, " \t\n\"<>") {
		return "", domain.Errorf(domain.EINVALID, "%s must be an http(s) URL, not %q", what, s)
	}
	return s, nil
}

// Palette is the colours given to teams created without one, in order.
var Palette = []string{"#fb7185", "#38bdf8", "#34d399", "#fbbf24", "#a78bfa", "#f472b6", "#2dd4bf", "#a3e635", "#fb923c", "#818cf8"}

// cleanColor checks a colour: "#rrggbb" (lowercased).
func cleanColor(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) != 7 || s[0] != '#' || strings.Trim(s[1:], "0123456789abcdef") != "" {
		return "", domain.Errorf(domain.EINVALID, "colour must be #rrggbb, not %q", s)
	}
	return s, nil
}

// cleanTask validates a task's content; what names it in messages.
func cleanTask(what string, t Task) (Task, error) {
	var err error
	if t.Label, err = cleanText(what+" label", t.Label, MaxLabelLen); err != nil {
		return Task{}, err
	}
	if t.Label == "" {
		return Task{}, domain.Errorf(domain.EINVALID, "%s label is required", what)
	}
	if !t.Difficulty.Valid() {
		return Task{}, domain.Errorf(domain.EINVALID, "%s difficulty must be 1 (easy), 2 (medium) or 3 (hard), not %d", what, t.Difficulty)
	}
	if t.Instructions, err = cleanText(what+" instructions", t.Instructions, MaxTextLen); err != nil {
		return Task{}, err
	}
	if t.Image, err = cleanURL(what+" image", t.Image); err != nil {
		return Task{}, err
	}
	if err := checkMinMax(what, t.Min, t.Max); err != nil {
		return Task{}, err
	}
	if t.Points == 0 {
		t.Points = DefaultPoints
	}
	if t.Points < 1 || t.Points > MaxPoints {
		return Task{}, domain.Errorf(domain.EINVALID, "%s points must be between 0.01 and %s", what, FormatPoints(MaxPoints))
	}
	return t, nil
}

func checkMinMax(what string, lo, hi int) error {
	switch {
	case hi < 1 || hi > MaxCompletions:
		return domain.Errorf(domain.EINVALID, "%s max completions must be between 1 and %d, not %d", what, MaxCompletions, hi)
	case lo < 1 || lo > hi:
		return domain.Errorf(domain.EINVALID, "%s min completions must be between 1 and max (%d), not %d", what, hi, lo)
	}
	return nil
}

// cleanPlayers checks the players named in a completion or claim: each must
// be a member of the team (matched ignoring case; the team's spelling is
// kept).
func cleanPlayers(t Team, players []string) ([]string, error) {
	if len(players) > maxPlayersPerReq {
		return nil, domain.Errorf(domain.EINVALID, "at most %d completions per request", maxPlayersPerReq)
	}
	out := make([]string, 0, len(players))
	for _, p := range players {
		name, err := cleanName("player name", p)
		if err != nil {
			return nil, err
		}
		m, ok := t.member(name)
		if !ok {
			return nil, domain.Errorf(domain.EINVALID, "%q is not a member of team %s", name, t.Name)
		}
		out = append(out, m)
	}
	return out, nil
}

// checkGroup rejects a player counted twice on a group task.
func checkGroup(players []string) error {
	seen := map[string]bool{}
	for _, p := range players {
		k := strings.ToLower(p)
		if seen[k] {
			return domain.Errorf(domain.EINVALID, "this is a group task: each player counts once, and %s is listed twice", p)
		}
		seen[k] = true
	}
	return nil
}
