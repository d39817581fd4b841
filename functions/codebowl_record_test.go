package functions_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain/codebowl"
)

// TestCodeBowlJoinAndEndKeepNoRecord: a CodeBowl join (which locks the
// joiner's team) and the step that ends a match (which gives both teams
// back) write only public documents besides the match, so they keep no
// server-only action record (issue 22): a retry of either gets its first
// reply from the match document and changes nothing, the join's log step
// holds the team as the join read it, and the match replays from what the
// readable documents and private/server hold, the team changed since.
func TestCodeBowlJoinAndEndKeepNoRecord(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ann, ben := s.cbCoach("cb_rec_ann"), s.cbCoach("cb_rec_ben")
	reds := s.cbTeam(ann, "t1", cbSpec("Reds", 4, 4, 4))
	blues := s.cbTeam(ben, "t1", cbSpec("Blues", 4, 4, 4))
	asRead := s.cbTeamDoc(blues)
	code, out := s.post(ann.Token, "CodeBowl", map[string]any{"type": "create", "actionId": "c1", "teamId": reds})
	require.Equal(t, http.StatusOK, code, "%v", out)
	id := out["result"].(map[string]any)["gameId"].(string)
	records := func() int { n, moved := s.actionRecords(id); return n + moved }

	join := map[string]any{"type": "join", "actionId": "j1", "gameId": id, "teamId": blues}
	code, first := s.post(ben.Token, "CodeBowl", join)
	require.Equal(t, http.StatusOK, code, "%v", first)
	require.Equal(t, id, s.cbTeamDoc(blues).Match, "the join locked the team")
	require.Zero(t, records(), "action records after the join")
	_, version := s.cbMatch(id)
	code, again := s.post(ben.Token, "CodeBowl", join)
	require.Equal(t, http.StatusOK, code, "%v", again)
	require.Equal(t, first, again, "a retried join gets its first reply")
	_, v := s.cbMatch(id)
	require.Equal(t, version, v, "a retried join changes nothing")

	// The join's step keeps the team as the join read it, for a replay.
	var roots string
	for _, st := range loggedSteps(t, s, id) {
		if st["type"] == "join" {
			roots, _ = st["roots"].(string)
		}
	}
	require.NotEmpty(t, roots, "the join's log step names the documents it read")
	var got []struct {
		Slot string          `json:"slot"`
		Key  string          `json:"key"`
		Doc  json.RawMessage `json:"doc"`
	}
	require.NoError(t, json.Unmarshal([]byte(roots), &got))
	require.Len(t, got, 1)
	require.Equal(t, codebowl.SlotTeam, got[0].Slot)
	require.Equal(t, blues, got[0].Key)
	var team codebowl.Team
	require.NoError(t, json.Unmarshal(got[0].Doc, &team))
	require.Equal(t, asRead.Players, team.Players)
	require.Empty(t, team.Match, "as read: not yet locked")

	forfeit := map[string]any{"type": "forfeit", "actionId": "f1", "gameId": id}
	code, first = s.post(ben.Token, "CodeBowl", forfeit)
	require.Equal(t, http.StatusOK, code, "%v", first)
	require.Empty(t, s.cbTeamDoc(reds).Match, "the end gave the teams back")
	require.Empty(t, s.cbTeamDoc(blues).Match)
	require.Zero(t, records(), "action records after the match's end")
	_, version = s.cbMatch(id)
	code, again = s.post(ben.Token, "CodeBowl", forfeit)
	require.Equal(t, http.StatusOK, code, "%v", again)
	require.Equal(t, first, again, "a retried forfeit gets its first reply")
	_, v = s.cbMatch(id)
	require.Equal(t, version, v)

	// The team changes after the match: the replay's join must take it as
	// the join read it (from the step), not as it is now.
	code, out = s.post(ben.Token, "CodeBowl", with(cbSpec("Greens", 5, 3, 4), map[string]any{"type": "editTeam", "actionId": "e1", "teamId": blues}))
	require.Equal(t, http.StatusOK, code, "%v", out)
	replayed(t, s, "CodeBowl", id, ann) // the final state and version as stored
}
