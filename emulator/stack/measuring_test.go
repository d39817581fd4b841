package stack

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// measuringCommands are the command lines of the ```sh block under the
// README's "## Measuring" heading, comments cut, continuation lines joined.
func measuringCommands(t *testing.T, file string) []string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\n## Measuring\n.*?```sh\n(.*?)```").FindSubmatch(src)
	if m == nil {
		t.Fatalf("%s has no ```sh block under \"## Measuring\"", file)
	}
	var out []string
	block := strings.ReplaceAll(string(m[1]), "\\\n", " ")
	for _, line := range strings.Split(block, "\n") {
		if line = strings.TrimSpace(cutComment(line)); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// cutComment drops a shell comment: a # at the start of a word, outside
// quotes.
func cutComment(line string) string {
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i]
		}
	}
	return line
}

// Bounds the test gives the Measuring commands, instead of the printed ones.
const (
	measureBenchtime = "1x" // each benchmark runs once: it compiles and passes
	// measureFuzztime is a count of inputs, not a duration: with a duration
	// Go's fuzz coordinator may report the deadline itself as a failure
	// ("context deadline exceeded", go.dev/issue/75804, fixed in Go 1.27),
	// which it did twice under CI's load.
	measureFuzztime = "10000x" // fuzzing starts, runs the seeds and 10,000 inputs, finds nothing
	measureActions  = "20"     // loadgen still runs every game's scenario
	measureTimeout  = 6 * time.Minute
)

// boundCommand rewrites only a Measuring command's bounding flag: a
// benchmark's -benchtime, a fuzz run's -fuzztime, the load generator's
// -actions (setting the value it has, or adding the flag). Everything else
// runs as printed.
func boundCommand(cmd string) string {
	set := func(cmd, flag, value string) string {
		re := regexp.MustCompile(`(^|\s)--?` + flag + `(=|\s+)\S+`)
		if re.MatchString(cmd) {
			return re.ReplaceAllString(cmd, "${1}-"+flag+" "+value)
		}
		return cmd + " -" + flag + " " + value
	}
	has := func(flag string) bool { return regexp.MustCompile(`(^|\s)--?` + flag + `(=|\s|$)`).MatchString(cmd) }
	switch {
	case strings.Contains(cmd, "emulator/loadgen"):
		return set(cmd, "actions", measureActions)
	case has("fuzz"):
		return set(cmd, "fuzztime", measureFuzztime)
	case has("bench"):
		return set(cmd, "benchtime", measureBenchtime)
	}
	return cmd
}

func TestBoundCommand(t *testing.T) {
	for in, want := range map[string]string{
		"go test -bench . -run '^$' ./domain/...":                                  "go test -bench . -run '^$' ./domain/... -benchtime 1x",
		"go test -bench=Roll -benchtime=10s ./domain/dashdice/":                    "go test -bench=Roll -benchtime 1x ./domain/dashdice/",
		"go run ./emulator/loadgen -actions 400":                                   "go run ./emulator/loadgen -actions 20",
		"go run ./emulator/loadgen -game codebowl":                                 "go run ./emulator/loadgen -game codebowl -actions 20",
		"go test -fuzz FuzzDecodeEnvelope ./functions":                             "go test -fuzz FuzzDecodeEnvelope ./functions -fuzztime 10000x",
		"go test -fuzz FuzzDecodeEnvelope -fuzztime 200000x -run '^$' ./functions": "go test -fuzz FuzzDecodeEnvelope -fuzztime 10000x -run '^$' ./functions",
		"go test -run TestX ./store/":                                              "go test -run TestX ./store/",
	} {
		if got := boundCommand(in); got != want {
			t.Errorf("boundCommand(%q) = %q, want %q", in, got, want)
		}
	}
	if got := cutComment(`go test -run '^#$' ./x   # why`); got != `go test -run '^#$' ./x   ` {
		t.Errorf("cutComment: %q", got)
	}
}

// TestMeasuringCommandsRunAsPrinted runs each command of the README's
// "## Measuring" block from the repository's root, as printed but for the
// flag that bounds it (boundCommand: one iteration per benchmark, a few
// seconds of fuzzing, a few load actions), and requires each to finish and
// exit 0. A README edit that breaks one, or a scenario that fails at random,
// fails here. It runs in parallel with the other tests that start processes
// of their own: every command is a process of its own.
func TestMeasuringCommandsRunAsPrinted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the benchmarks, the load generator and the fuzzer (about 2 minutes)")
	}
	t.Parallel()
	root := filepath.Join("..", "..")
	cmds := measuringCommands(t, filepath.Join(root, "README.md"))
	for _, printed := range cmds {
		t.Run(printed, func(t *testing.T) {
			line := boundCommand(printed)
			ctx, cancel := context.WithTimeout(context.Background(), measureTimeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", "-c", line)
			cmd.Dir = root
			// Its own process group, so a timeout also ends what it started
			// (go run's program, the emulator).
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
			cmd.WaitDelay = 10 * time.Second
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start).Round(time.Second)
			if ctx.Err() != nil {
				t.Fatalf("%s did not finish within %s\n%s", line, measureTimeout, out.Bytes())
			}
			if err != nil {
				t.Fatalf("%s failed after %s: %v\n%s", line, took, err, out.Bytes())
			}
			t.Logf("%s: exit 0 in %s", line, took)
		})
	}
}
