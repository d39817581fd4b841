package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain/partyboard"
)

const (
	gen1 = "../../domain/partyboard/boards/pokemon-gen1.json" // copies of shared/boards
	gen2 = "../../domain/partyboard/boards/pokemon-gen2.json"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binary != "" {
		os.RemoveAll(filepath.Dir(binary))
	}
	os.Exit(code)
}

// board runs the built command with args and returns its exit code and
// output.
func board(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "board-cli")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "board")
		out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	require.NoError(t, buildErr)
	cmd := exec.Command(binary, args...)
	var out, errOut bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

func TestCheck(t *testing.T) {
	zelda := writeFile(t, "zelda.json", `{"tiles":[`+
		`{"rule":{"type":"DisplayRule","displayText":"START"},"position":[{"x":1500,"y":28}]},`+
		`{"mandatoryType":"once","rule":{"type":"ChoiceRule","displayText":"GOHMA","choices":[{"displayText":"T2D","type":"DisplayRule"},{"displayText":"roll again","type":"TodoRule"}]},"position":[{"x":1,"y":2}]},`+
		`{"rule":{"mandatoryType":"once","type":"RollUntilRule","until":"repeat","displayText":"GANONDORF"},"position":[{"x":1,"y":2}]},`+
		`{"rule":{"type":"TodoRule","displayText":"GANON"},"position":[{"x":1,"y":2}]}],"zones":[],"items":{"_desc":"x","BOMB":{}}}`)
	broken := writeFile(t, "broken.json", `{"tiles":[{"rule":{"type":"FlyRule","displayText":"x"},"position":[{"x":0,"y":0}]},`+
		`{"rule":{"type":"DiceRollRule","displayText":"x","diceRolls":{"numRequired":1,"outcomes":[{"rule":{"type":"DisplayRule","displayText":"y"},"criteria":[9]}]}},"position":[{"x":0,"y":0}]},`+
		`{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":0,"y":0}]}]}`)
	notJSON := writeFile(t, "half.json", `{"tiles":[`)
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout []string // lines the output must hold
		stderr string
	}{
		{"gen1", []string{"check", gen1}, "", 0, []string{gen1 + ": valid board b-a735837f2df67413: 72 tiles, 3 zones, 0 warnings"}, ""},
		{"gen2 and gen1", []string{"check", gen2, gen1}, "", 0, []string{gen2 + ": valid board", gen1 + ": valid board"}, ""},
		{"a board in progress is valid with warnings", []string{"check", zelda}, "", 0, []string{
			zelda + ": warning: tiles[1].rule.choices[0]: v1 bare rule in choices wrapped as {\"rule\": …}",
			zelda + ": warning: tiles[1].rule.choices[1].rule.type: unfinished rule (TodoRule) plays as a DisplayRule of its text",
			zelda + ": warning: tiles[2].rule.mandatoryType: mandatoryType belongs on the tile, not its rule; applied to tiles[2]",
			zelda + ": warning: tiles: no tile has a GameOverRule: the first player to reach the last tile (tiles[3]) wins",
			zelda + ": valid board"}, ""},
		{"every located problem", []string{"check", broken}, "", 1, []string{
			broken + `: error: tiles[0].rule.type: unknown rule type "FlyRule"`,
			broken + ": error: tiles[1].rule.diceRolls.outcomes[0].criteria[0]: must be a whole number from 1 to 6",
			broken + ": invalid board: 2 problems, 0 warnings"}, ""},
		{"lenient", []string{"check", "-lenient", broken}, "", 1, []string{broken + `: warning: tiles[0].rule.type: unknown rule type "FlyRule" shown as a DisplayRule`,
			broken + ": invalid board: 1 problem, 1 warning"}, ""},
		{"one bad file of two", []string{"check", gen1, broken}, "", 1, []string{gen1 + ": valid board", broken + ": invalid board"}, ""},
		{"not JSON", []string{"check", notJSON}, "", 1, []string{notJSON + ": error: not valid JSON: unexpected EOF"}, ""},
		{"standard input", []string{"check", "-"}, `{"tiles":[{"rule":{"type":"GameOverRule","displayText":"w"},"position":[{"x":0,"y":0}]}]}`, 0, []string{"-: valid board"}, ""},
		{"no such file", []string{"check", "nope.json"}, "", 2, nil, "no such file"},
		{"no file", []string{"check"}, "", 2, nil, "no file given"},
		{"a bad flag", []string{"check", "-strict", gen1}, "", 2, nil, "flag provided but not defined: -strict"},
		{"no command", nil, "", 2, nil, "usage:"},
		{"an unknown command", []string{"lint", gen1}, "", 2, nil, `unknown command "lint"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := board(t, tt.stdin, tt.args...)
			require.Equal(t, tt.code, code, "stdout: %s\nstderr: %s", stdout, stderr)
			for _, line := range tt.stdout {
				require.Contains(t, stdout, line)
			}
			require.Contains(t, stderr, tt.stderr)
		})
	}
	t.Run("json", func(t *testing.T) {
		code, stdout, _ := board(t, "", "check", "-json", broken, gen1)
		require.Equal(t, 1, code)
		var got []checkResult
		require.NoError(t, json.Unmarshal([]byte(stdout), &got))
		require.Len(t, got, 2)
		require.False(t, got[0].Valid)
		require.Len(t, got[0].Problems, 2)
		require.True(t, got[1].Valid)
		require.Equal(t, 72, got[1].Tiles)
	})
}

func TestSim(t *testing.T) {
	broken := writeFile(t, "broken.json", `{"tiles":[{"rule":{"type":"FlyRule","displayText":"x"},"position":[{"x":0,"y":0}]}]}`)
	t.Run("both shared boards", func(t *testing.T) {
		for _, file := range []string{gen1, gen2} {
			code, stdout, stderr := board(t, "", "sim", file, "-games", "60", "-players", "4", "-seed", "cli")
			require.Equal(t, 0, code, stderr)
			for _, want := range []string{`60 games of 4 players, seed "cli"`, "game length in turns: median ", "stalled (not over after 20000 actions): 0",
				"wins by seat (seat 1 moves first; fair is 25.0%): 1: ", "tiles never landed on: ", "rules never run: ",
				"how often each rule runs", "tiles[0].rule", "games/s on "} {
				require.Contains(t, stdout, want)
			}
		}
	})
	t.Run("deterministic for a seed, whatever the workers", func(t *testing.T) {
		report := func(args ...string) string {
			code, stdout, stderr := board(t, "", append([]string{"sim", gen2, "-games", "40", "-seed", "same"}, args...)...)
			require.Equal(t, 0, code, stderr)
			return stdout[:strings.LastIndex(stdout, "\n40 games in")] // the timing varies
		}
		one := report("-workers", "1")
		require.Equal(t, one, report("-workers", "3"))
		require.NotEqual(t, one, report("-seed", "other"))
	})
	t.Run("json", func(t *testing.T) {
		code, stdout, _ := board(t, "", "sim", "-json", "-games", "20", "-players", "3", gen1)
		require.Equal(t, 0, code)
		var rep partyboard.SimReport
		require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
		require.Equal(t, 20, rep.Games)
		require.Len(t, rep.WinRateBySeat, 3)
		require.Zero(t, rep.Stalled)
	})
	t.Run("stalled games are counted", func(t *testing.T) {
		code, stdout, _ := board(t, "", "sim", gen1, "-games", "5", "-max-actions", "10")
		require.Equal(t, 0, code)
		require.Contains(t, stdout, "stalled (not over after 10 actions): 5")
	})
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"an invalid board", []string{"sim", broken}, 1, broken + `: error: tiles[0].rule.type: unknown rule type "FlyRule"`},
		{"too many players", []string{"sim", gen1, "-players", "13"}, 2, "-players must be from 2 to 12"},
		{"no games", []string{"sim", gen1, "-games", "0"}, 2, "must be at least 1"},
		{"two files", []string{"sim", gen1, gen2}, 2, "exactly one board file"},
		{"no file", []string{"sim"}, 2, "exactly one board file"},
		{"a missing file", []string{"sim", "nope.json"}, 2, "no such file"},
		{"a bad number", []string{"sim", gen1, "-games", "many"}, 2, `invalid value "many"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := board(t, "", tt.args...)
			require.Equal(t, tt.code, code, stderr)
			require.Contains(t, stderr, tt.stderr)
		})
	}
}
