package functions_test

import (
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBadInputTable: every row of docs/security.md's bad-input table gets the
// status and code it says, sent as written, and the game it names is
// unchanged.
func TestBadInputTable(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/security.md")
	require.NoError(t, err)
	table := regexp.MustCompile(`(?s)<!-- bad-input-table -->(.*)<!-- /bad-input-table -->`).FindSubmatch(doc)
	require.NotNil(t, table, "docs/security.md has the bad-input table")
	row := regexp.MustCompile("(?m)^\\| ([^|]+) \\| ([A-Za-z]+) \\| `([^`]*)` \\| (\\d{3}) \\| ([a-z_]+) \\|$")
	rows := row.FindAllStringSubmatch(string(table[1]), -1)
	require.GreaterOrEqual(t, len(rows), 25, "the table's rows")

	s := newStack(t)
	alice, bob, eve := s.guest("Alice"), s.guest("Bob"), s.guest("Eve")
	m := newMatch(s, "classic", 0, alice, bob)
	_, v0 := m.state()
	counts := map[int]int{}
	for _, r := range rows {
		name, fn, body := strings.TrimSpace(r[1]), r[2], r[3]
		status, _ := strconv.Atoi(r[4])
		body = strings.ReplaceAll(body, "$GAME", m.id)
		body = strings.ReplaceAll(body, "$BIG", strings.Repeat("x", 70<<10))
		body = strings.ReplaceAll(body, "$LONG", strings.Repeat("x", 5000))
		t.Run(name, func(t *testing.T) {
			token := eve.Token
			if fn == "Auth" {
				token = ""
			}
			code, out := s.post(token, fn, body)
			require.Equal(t, status, code, "%s: %v", body, out)
			require.Equal(t, r[5], errCode(out), "%v", out)
			require.NotEmpty(t, out["error"].(map[string]any)["message"])
			counts[code]++
		})
	}
	_, v1 := m.state()
	require.Equal(t, v0, v1, "the match is unchanged")
	t.Logf("%d bad-input classes: %v", len(rows), counts)
	_ = http.StatusOK
}
