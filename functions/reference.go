package functions

import (
	"fmt"

	"strings"

	"github.com/meeple-games/meeple/domain"
)

// errorDocs says when each error code happens, in the order the reference
// lists them; statusOf gives the HTTP status.
var errorDocs = []struct{ code, when string }{
	{domain.EINVALID, "the request is malformed or illegal: the message names the field (an unknown field too)"},
	{domain.EUNAUTHORIZED, "no session, an expired or revoked one, or a wrong password"},
	{domain.EFORBIDDEN, "the caller may not do this (another game's or role's token, not a player of this game)"},
	{domain.ENOTFOUND, "no such game, room, team or board; or the game is of another kind"},
	{domain.ECONFLICT, "a legal request at the wrong moment: not your turn, over, stale `version`, full"},
	{domain.EEXISTS, "the actionId was used for a different request; a name is taken"},
	{domain.ELIMIT, "rate limited (sign-in throttle, chat, emotes): wait and retry"},
	{domain.ETOOLARGE, "the body is over the function's cap"},
	{domain.EUNAVAILABLE, "contention or an outage that did not clear in time: send the same request (same actionId) again after `Retry-After`"},
	{domain.EINTERNAL, "a bug: the reply carries a requestId that names it in the log"},
}

// Reference is docs/reference.md: every action of every game of reg, with
// the fields the code decodes, who may call it, and the error codes; written
// by `go run ./cmd/apidoc` and held equal to the file by a test.
func Reference(reg domain.Registry) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# API reference (generated)\n\n")
	p("Generated from the code by `go run ./cmd/apidoc > docs/reference.md`; a test fails when\n")
	p("this file and the code disagree. docs/api.md explains the calls; each game's page explains\n")
	p("its rules and replies.\n\n")
	p("Every action is `POST /{Function}` with `Authorization: Bearer <token>` and a JSON body:\n")
	p("the envelope (`%s`) and the action's fields below. A field that is not listed is refused\n", strings.Join(domain.Envelope, "`, `"))
	p("with `invalid_argument` naming it. Fields are optional unless the game's page says otherwise.\n\n")
	p("Each field says what it holds, and a value that does not fit is refused with `invalid_argument`\n")
	p("naming the field before any game code runs (`domain/fields.go`); a refusal echoes at most 64\n")
	p("characters of what was sent. An empty string or `null` counts as not sent. The envelope's\n")
	p("`gameId` and `actionId` are ids and `version` an integer from 0.\n\n")
	p("| kind | holds |\n|---|---|\n")
	p("| id | 1 to %d characters (`id ≤ n`: n), printable, no `/`, double quotes, angle brackets, backslashes or backticks, not `.` or `..`, not `__x__` |\n", domain.MaxIDLen)
	p("| one of … | exactly one of the values listed |\n")
	p("| integer a to b, coordinate | a whole number in the range; a coordinate is from −%d to %d |\n", domain.MaxCoord, domain.MaxCoord)
	p("| https URL ≤ n | an absolute https URL (http(s): http too) of at most n bytes, with a host, no user info, no spaces, quotes, angle brackets, backslashes or control characters |\n")
	p("| text ≤ n | one line of at most n characters: no control characters, no bidirectional-override characters |\n")
	p("| long text ≤ n | at most n characters; newlines and tabs, no other control characters, no bidirectional-override characters |\n")
	p("| array ≤ n of … | at most n items, each of the kind named |\n")
	p("| object ≤ n: key → value | at most n entries |\n")
	p("| JSON object | a JSON object the action parses itself (a board file), nested at most %d deep |\n\n", domain.MaxDepth)
	p("## Errors\n\nEvery error reply is `{\"error\": {\"code\", \"message\", \"details\"?, \"requestId\"?}}`; any action may return:\n\n")
	p("| code | HTTP | when |\n|---|---|---|\n")
	for _, e := range errorDocs {
		p("| `%s` | %d | %s |\n", e.code, statusOf[e.code], e.when)
	}
	p("\n## Every game\n\n| action | fields | who | what |\n|---|---|---|---|\n")
	p("| `legal` | — | anyone who may read the game | the moves the caller may make now: `{\"moves\": [{type, …fields}]}` |\n")
	p("| `advance` | — | anyone signed in | apply a deadline that has passed (the tick does it too) |\n")
	p("| `replay` | — | anyone signed in | a finished game played again from its seed: `{\"frames\": [{version, steps, state, docs}], \"verified\"}` (docs/api.md) |\n")
	for _, e := range reg {
		docer, ok := e.Game.(domain.ActionDocer)
		if !ok {
			continue
		}
		p("\n## %s: `POST /%s`\n\n| action | fields | who | what |\n|---|---|---|---|\n", e.Kind(), e.Function)
		for _, d := range docer.ActionDocs() {
			p("| `%s` | %s | %s | %s |\n", d.Type, fieldList(d.Fields()), d.Who, d.Summary)
		}
	}
	return b.String()
}

func fieldList(fs []domain.Field) string {
	if len(fs) == 0 {
		return "—"
	}
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = fmt.Sprintf("`%s` %s", f.Name, f.Type)
	}
	return strings.Join(out, "<br>")
}
