package codebowl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestActionDocs: the summaries docs/reference.md prints claim nothing the
// rules lack. restartTeam replaces the dead (ruling 7: they stay dead; new
// players with new ids, TestRestartTeam), and there is no hand-off or pass
// in CodeBowl: a move picks up, attacks and scores.
func TestActionDocs(t *testing.T) {
	docs := map[string]string{}
	for _, d := range (PlatformGame{}).ActionDocs() {
		docs[d.Type] = d.Summary
		lower := strings.ToLower(d.Summary)
		for _, w := range []string{"hand off", "hand-off", "handoff", "pass"} {
			require.NotContains(t, lower, w, "%s: CodeBowl has no hand-off or pass", d.Type)
		}
	}
	require.Contains(t, docs[ActionRestartTeam], "replace")
	require.NotContains(t, docs[ActionRestartTeam], " back", "dead players do not come back (ruling 7)")
}
