package codebowl

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/meeple-games/meeple/domain"
)

// Limits on what coaches type.
const (
	MaxTeamName   = 40  // runes
	MaxPlayerName = 30  // runes
	MaxImageURL   = 500 // bytes
	MaxID         = 128 // bytes, team and player ids
)

// ValidateTeam reports whether t is a well-formed team:
//
//   - id and coach: 1…128 printable ASCII characters, no '/' (they name
//     documents);
//   - name: 1…40 printable characters, no leading or trailing space;
//   - image: empty, or an https URL (see CheckImageURL);
//   - exactly 7 players with distinct ids, each: a name of 1…30 printable
//     characters, an optional https image, ST + AG + MV = 12 with each ≥ 1,
//     AR 1…6; and the seven AR sum to 21. Dead players are checked too: they
//     keep the stats they died with.
//
// Errors: EINVALID naming the field at fault.
func ValidateTeam(t Team) error {
	if err := checkID("id", t.ID); err != nil {
		return err
	}
	if err := checkID("coach", t.Coach); err != nil {
		return err
	}
	if err := checkName("name", t.Name, MaxTeamName); err != nil {
		return err
	}
	if err := CheckImageURL("image", t.Image); err != nil {
		return err
	}
	seen := map[string]bool{}
	armor := 0
	for i, p := range t.Players {
		f := fmt.Sprintf("players[%d]", i)
		if err := checkID(f+".id", p.ID); err != nil {
			return err
		}
		if seen[p.ID] {
			return domain.Errorf(domain.EINVALID, "%s.id: %q is used twice", f, p.ID)
		}
		seen[p.ID] = true
		if err := checkName(f+".name", p.Name, MaxPlayerName); err != nil {
			return err
		}
		if err := CheckImageURL(f+".image", p.Image); err != nil {
			return err
		}
		if err := CheckStats(f, p.ST, p.AG, p.MV); err != nil {
			return err
		}
		if p.AR < MinArmor || p.AR > MaxArmor {
			return domain.Errorf(domain.EINVALID, "%s.ar must be between %d and %d, not %d", f, MinArmor, MaxArmor, p.AR)
		}
		armor += p.AR
	}
	if armor != ArmorBudget {
		return domain.Errorf(domain.EINVALID, "players: the armor (ar) of the %d players must sum to %d, not %d", TeamSize, ArmorBudget, armor)
	}
	return nil
}

// CheckStats checks one player's ST, AG and MV: each at least 1, summing to
// 12. field prefixes the message, e.g. "players[2]".
//
// Errors: EINVALID.
func CheckStats(field string, st, ag, mv int) error {
	for _, s := range []struct {
		name string
		v    int
	}{{"st", st}, {"ag", ag}, {"mv", mv}} {
		if s.v < MinStat {
			return domain.Errorf(domain.EINVALID, "%s.%s must be at least %d, not %d", field, s.name, MinStat, s.v)
		}
	}
	if sum := st + ag + mv; sum != StatBudget {
		return domain.Errorf(domain.EINVALID, "%s: st + ag + mv must be exactly %d, not %d", field, StatBudget, sum)
	}
	return nil
}

// CheckImageURL accepts an empty string (no image) or an absolute https URL of
// at most 500 bytes with a host, no user info and no spaces, quotes, angle
// brackets, backslashes or control characters — the url field kind's rules
// (domain.CheckURL), which the request's tag already enforced. Anything else
// — http, javascript:, data:, relative URLs, a quote that would end an
// attribute — is refused, so a client can put it in an <img src> as it is.
//
// Errors: EINVALID naming field.
func CheckImageURL(field, s string) error {
	if s == "" {
		return nil
	}
	return domain.CheckURL(field, s, MaxImageURL, false)
}

// checkName accepts 1…max printable characters without surrounding space.
func checkName(field, s string, max int) error {
	switch {
	case strings.TrimSpace(s) == "":
		return domain.Errorf(domain.EINVALID, "%s is required", field)
	case !utf8.ValidString(s):
		return domain.Errorf(domain.EINVALID, "%s is not valid UTF-8", field)
	case utf8.RuneCountInString(s) > max:
		return domain.Errorf(domain.EINVALID, "%s is longer than %d characters", field, max)
	case strings.TrimSpace(s) != s:
		return domain.Errorf(domain.EINVALID, "%s has leading or trailing space", field)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return domain.Errorf(domain.EINVALID, "%s has a character that cannot be shown (%U)", field, r)
		}
	}
	return nil
}

// checkID accepts 1…128 printable ASCII characters other than '/'.
func checkID(field, s string) error {
	if s == "" {
		return domain.Errorf(domain.EINVALID, "%s is required", field)
	}
	if len(s) > MaxID {
		return domain.Errorf(domain.EINVALID, "%s is longer than %d bytes", field, MaxID)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '/' {
			return domain.Errorf(domain.EINVALID, "%s must be printable ASCII without spaces or '/'", field)
		}
	}
	return nil
}
