package tilerace

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

func TestSafeCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Kill a boss", "Kill a boss"},
		{"=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"},
		{"+1 kill", "'+1 kill"},
		{"-5 points", "'-5 points"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tcmd", "'\tcmd"},
		{"a=b", "a=b"},
		{"", ""},
	} {
		if got := SafeCell(tc.in); got != tc.want {
			t.Errorf("SafeCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := unsafeCell(SafeCell(tc.in)); got != tc.in {
			t.Errorf("unsafeCell(SafeCell(%q)) = %q, want it back", tc.in, got)
		}
	}
}

// TestExportTasksRoundTrip: an export imports back to the same tasks, and no
// cell of it starts like a formula, whatever the admins typed.
func TestExportTasksRoundTrip(t *testing.T) {
	file := "label,difficulty,max,min,instructions,image,start proof,group\n" +
		"\"=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",easy,1,1,\"@SUM(1,2)\",,no,no\n" +
		"-5 kills,medium,3,2,+plus,,yes,yes\n" +
		"Plain task,hard,1,1,Just do it,https://example.com/a.png,no,no\n"
	tasks, err := ParseTasks([]byte(file))
	require.NoError(t, err)
	require.Equal(t, "=HYPERLINK(\"http://evil\",\"x\")", tasks[0].Label, "stored as given")
	p := Pools{}
	for i, task := range tasks {
		pool := p.Pool(task.Difficulty)
		*pool = append(*pool, PoolTask{ID: "t-" + string(rune('1'+i)), Task: task})
	}
	w := newWorld(t)
	out, err := ExportTasks(ctx(masterAct), w.g, p, w.board, ExportRequest{What: "pools"})
	require.NoError(t, err)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	for _, row := range rows[1:] {
		for _, cell := range row {
			if cell != "" {
				require.NotContains(t, formulaStarts, string(cell[0]), "cell %q starts like a formula", cell)
			}
		}
	}
	back, err := ParseTasks([]byte(out))
	require.NoError(t, err)
	require.ElementsMatch(t, tasks, back, "the export imports back to the same tasks")

	_, err = ExportTasks(ctx(teamAct("t1")), w.g, p, w.board, ExportRequest{})
	require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err))
	_, err = ExportTasks(ctx(masterAct), w.g, p, w.board, ExportRequest{What: "teams"})
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
}
