package store

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLogUpdateBudget: the log keeps what is not in the history and the
// action's own steps, and of the latest LogKeep only what fits in DocBudget,
// newest first, counting each step's JSON (large steps, as a 12-player Party
// Board's, once took the game document to 16.6 KB).
func TestLogUpdateBudget(t *testing.T) {
	step := func(seq int64, bytes int) logStep {
		ev, _ := json.Marshal([]map[string]string{{"type": "x", "data": strings.Repeat("a", bytes)}})
		return logStep{Seq: seq, Type: "roll", Actor: map[string]any{"id": "p"}, Events: ev}
	}
	size := func(log []logStep) int {
		n := 0
		for _, s := range log {
			n += stepSize(s)
		}
		return n
	}
	const rest = 6000
	tests := []struct {
		name      string
		flushed   []logStep // in the log, already in the history
		next      logStep   // the action's step
		wantBatch bool
	}{
		{"small steps: the last LogKeep stay", []logStep{step(1, 100), step(2, 100), step(3, 100), step(4, 100), step(5, 100), step(6, 100)}, step(7, 100), false},
		{"large flushed steps: only those that fit", []logStep{step(1, 1800), step(2, 1800), step(3, 1800), step(4, 1800), step(5, 1800)}, step(6, 1800), true},
		{"an action's own step larger than the room stays", []logStep{step(1, 1800)}, step(2, 9000), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl := platformLog{Log: tc.flushed, Flushed: tc.flushed[len(tc.flushed)-1].Seq}
			log, _, batch := logUpdate(pl, []logStep{tc.next}, false, rest)
			require.Equal(t, tc.wantBatch, batch != nil, "batch")
			require.Equal(t, tc.next.Seq, log[len(log)-1].Seq, "the action's own step is kept")
			require.LessOrEqual(t, len(log), LogKeep)
			if stepSize(tc.next) <= DocBudget-rest {
				require.LessOrEqual(t, rest+size(log), DocBudget, "within the budget")
			}
			for i := 1; i < len(log); i++ {
				require.Less(t, log[i-1].Seq, log[i].Seq, "in order")
			}
			if tc.name == "small steps: the last LogKeep stay" {
				require.Len(t, log, LogKeep, "the last 6 steps, the new one among them")
			}
			if tc.name == "large flushed steps: only those that fit" {
				require.Less(t, len(log), LogKeep, "some of the last 6 dropped")
				require.Greater(t, len(log), 1, "the newest flushed ones kept")
			}
		})
	}
}
