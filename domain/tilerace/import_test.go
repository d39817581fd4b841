package tilerace

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

func problemsOf(t *testing.T, err error) []LineProblem {
	t.Helper()
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err), "%v", err)
	d, ok := domain.ErrorDetails(err).(map[string]any)
	require.True(t, ok, "details: %#v", domain.ErrorDetails(err))
	ps, ok := d["problems"].([]LineProblem)
	require.True(t, ok)
	require.Equal(t, len(ps), d["total"])
	return ps
}

// Ruling 18: task files.
func TestParseTasks(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		want  []Task
		lines []int // lines with problems
	}{
		{"csv with header", "label,difficulty,max,min,instructions,image,start proof\nFish,1,3,2,Catch a fish,https://x/f.png,yes\n",
			[]Task{{Label: "Fish", Difficulty: Easy, Max: 3, Min: 2, Instructions: "Catch a fish", Image: "https://x/f.png", StartProof: true, Points: 100}}, nil},
		{"csv without header, defaults", "Fish,easy\nBoss,HARD,,,,\n",
			[]Task{{Label: "Fish", Difficulty: Easy, Max: 1, Min: 1, Points: 100}, {Label: "Boss", Difficulty: Hard, Max: 1, Min: 1, Points: 100}}, nil},
		{"tsv", "Task\tDifficulty\tMax\nA, with comma\t2\t2\n",
			[]Task{{Label: "A, with comma", Difficulty: Medium, Max: 2, Min: 1, Points: 100}}, nil},
		{"tsv keeps empty columns", "A\t3\t\t\t\thttps://i/x.png\tyes\n",
			[]Task{{Label: "A", Difficulty: Hard, Max: 1, Min: 1, Image: "https://i/x.png", StartProof: true, Points: 100}}, nil},
		{"quoted fields", "\"Get 5\"\" sword, fast\",1,1,1,\"line one\nline two\"\nNext,2\n",
			[]Task{{Label: "Get 5\" sword, fast", Difficulty: Easy, Max: 1, Min: 1, Instructions: "line one\nline two", Points: 100}, {Label: "Next", Difficulty: Medium, Max: 1, Min: 1, Points: 100}}, nil},
		{"group column", "Raid,3,5,3,,,no,yes\n", []Task{{Label: "Raid", Difficulty: Hard, Max: 5, Min: 3, Group: true, Points: 100}}, nil},
		{"bom, crlf, blank lines", "\ufeffA,1\r\n\r\n,,,\r\nB,2\r\n", []Task{{Label: "A", Difficulty: Easy, Max: 1, Min: 1, Points: 100}, {Label: "B", Difficulty: Medium, Max: 1, Min: 1, Points: 100}}, nil},
		{"every bad line reported", "ok,1\nbad,4\n,2\nx,1,0\ny,1,2,3\nz,1,,,,ftp://a\nw,1,,,,,maybe\n", nil, []int{2, 3, 4, 5, 6, 7}},
		{"too many columns", "a,1,1,1,i,,no,no,extra\n", nil, []int{1}},
		{"one column", "just a label\n", nil, []int{1}},
		{"bad quote", "a \"quoted\" word,1\nok,1\n", nil, []int{1}},
		{"unclosed quote", "ok,1\n\"never closed,1\nmore,2\n", nil, []int{2}},
		{"invalid utf-8", "ok,1\nb\xffad,1\n", nil, []int{2}},
		{"long label", strings.Repeat("x", MaxLabelLen+1) + ",1\n", nil, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTasks([]byte(tt.file))
			if tt.lines == nil {
				require.NoError(t, err)
				require.Equal(t, tt.want, got)
				return
			}
			require.Nil(t, got, "nothing when anything is wrong")
			var lines []int
			for _, p := range problemsOf(t, err) {
				lines = append(lines, p.Line)
				require.NotEmpty(t, p.Message)
			}
			require.Equal(t, tt.lines, lines)
			require.Contains(t, domain.ErrorMessage(err), "nothing was imported")
		})
	}
	_, err := ParseTasks([]byte("label,difficulty\n\n"))
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	require.Contains(t, domain.ErrorMessage(err), "no task")
	_, err = ParseTasks([]byte(strings.Repeat("x", MaxImportBytes+1)))
	require.Equal(t, domain.ELIMIT, domain.ErrorCode(err))
	_, err = ParseTasks([]byte(strings.Repeat("x,1\n", MaxImportRows+1)))
	require.Equal(t, domain.ELIMIT, domain.ErrorCode(err))
}

func TestParseTasksNamesColumns(t *testing.T) {
	_, err := ParseTasks([]byte("a,1,x\n"))
	ps := problemsOf(t, err)
	require.Equal(t, []LineProblem{{Line: 1, Column: "max", Message: `must be a whole number from 1 to 100, not "x"`}}, ps)
	require.Contains(t, domain.ErrorMessage(err), `line 1, max: must be a whole number`)
}

// Ruling 18: powerup tile files.
func TestParsePowerupTiles(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		want  []PowerupTile
		lines []int
	}{
		{"csv with header", "reward powerup,label,points,max,min,claim type,instructions,image\nskip1,Kill a boss,1.5,3,1,eachTeam,Any boss,https://x/b.png\n",
			[]PowerupTile{{Reward: PowerupSkip1, Label: "Kill a boss", Points: 150, Max: 3, Min: 1, Claim: ClaimEachTeam, Instructions: "Any boss", Image: "https://x/b.png"}}, nil},
		{"names and seed spellings", "Skip 2 Tiles,A,2,,,First Team Only\nchange_tile,B,0.25,2,2,UNLIMITED\n",
			[]PowerupTile{{Reward: PowerupSkip2, Label: "A", Points: 200, Max: 1, Min: 1, Claim: ClaimFirstTeam},
				{Reward: PowerupChangeTile, Label: "B", Points: 25, Max: 2, Min: 2, Claim: ClaimUnlimited}}, nil},
		{"tsv", "back3\tC\t3\t1\t1\teach team once\n", []PowerupTile{{Reward: PowerupBack3, Label: "C", Points: 300, Max: 1, Min: 1, Claim: ClaimEachTeam}}, nil},
		{"every bad line", "nuke,A,1,1,1,eachTeam\nskip1,,1,1,1,eachTeam\nskip1,B,0,1,1,eachTeam\nskip1,C,1,1,2,eachTeam\nskip1,D,1,1,1,sometimes\nskip1,E,1,1,1\nskip1,F,1,1,1,unlimited,,notaurl\n",
			nil, []int{1, 2, 3, 4, 5, 6, 7}},
		{"two columns", "skip1,A\n", nil, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePowerupTiles([]byte(tt.file))
			if tt.lines == nil {
				require.NoError(t, err)
				require.Equal(t, tt.want, got)
				return
			}
			require.Nil(t, got)
			var lines []int
			for _, p := range problemsOf(t, err) {
				lines = append(lines, p.Line)
			}
			require.Equal(t, tt.lines, lines)
		})
	}
}

func TestImportIsAllOrNothing(t *testing.T) {
	w := newWorld(t)
	p, o, err := ImportTasks(ctx(adminAct), w.g, w.pools, ImportRequest{Data: taskFile(2, 1, 1)})
	require.NoError(t, err)
	require.Equal(t, ImportResult{Imported: 4, Counts: map[string]int{"easy": 2, "medium": 1, "hard": 1}}, o.Result)
	rulestest.Pure(t, p, func(p Pools) {
		_, _, err = ImportTasks(ctx(adminAct), w.g, p, ImportRequest{Data: "good,1\nbad,9\n"})
	})
	require.Error(t, err)
	big := taskFile(MaxPoolTasks, 0, 0)
	_, _, err = ImportTasks(ctx(adminAct), w.g, p, ImportRequest{Data: big})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "the easy pool would overflow")
}

// FuzzImport: no input panics; a refusal always says why, with located
// problems when it is about the file's lines; an accepted file yields valid
// tasks and tiles.
func FuzzImport(f *testing.F) {
	for _, s := range []string{
		taskFile(3, 2, 2),
		"label,difficulty\nA,1\n",
		"A\t3\t\t\t\thttps://i/x.png\tyes\n",
		"\"a\"\"b\",2,3,1,\"x\ny\"\n",
		"\"open,1\n",
		"reward,label,points,max,min,claim\nskip1,Kill,1.5,3,1,eachTeam\n",
		"skip1\tA\t0.25\t\t\tunlimited\t\thttps://x/y\n",
		"a,1,\"\n", ",,,\n\n", "a\x7fb,1\n", "skip1,a\u0085,1,1,1,each\n", "\xff\xfe", "\"\"\"", "a\tb,c\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		check := func(err error) {
			if err == nil {
				return
			}
			code := domain.ErrorCode(err)
			if code != domain.EINVALID && code != domain.ELIMIT {
				t.Fatalf("code %q: %v", code, err)
			}
			if domain.ErrorMessage(err) == "" {
				t.Fatal("no message")
			}
			if d, ok := domain.ErrorDetails(err).(map[string]any); ok {
				ps := d["problems"].([]LineProblem)
				if len(ps) == 0 {
					t.Fatal("refused without a problem")
				}
				for _, p := range ps {
					if p.Message == "" || p.Line < 1 {
						t.Fatalf("problem without a line or message: %+v", p)
					}
				}
			}
		}
		tasks, err := ParseTasks(file)
		check(err)
		for _, task := range tasks {
			if _, err := cleanTask("task", task); err != nil {
				t.Fatalf("accepted an invalid task %+v: %v", task, err)
			}
		}
		tiles, err := ParsePowerupTiles(file)
		check(err)
		for _, pt := range tiles {
			req := PowerupTileRequest{Label: pt.Label, Instructions: pt.Instructions, Image: pt.Image, Points: pt.Points, Min: pt.Min, Max: pt.Max, Claim: pt.Claim, Reward: pt.Reward}
			if _, err := cleanPowerupTile(req); err != nil {
				t.Fatalf("accepted an invalid powerup tile %+v: %v", pt, err)
			}
		}
	})
}

func BenchmarkParseTasks(b *testing.B) {
	file := []byte(taskFile(100, 100, 100))
	b.ReportAllocs()
	b.SetBytes(int64(len(file)))
	for b.Loop() {
		if _, err := ParseTasks(file); err != nil {
			b.Fatal(err)
		}
	}
}
