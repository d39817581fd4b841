package stack

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docBlocks are the shell blocks of a Markdown file a user runs against the
// local stack: every ```sh block, except those that start the stack or run
// the tests themselves.
func docBlocks(t *testing.T, file string) []string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(src), -1) {
		b := m[1]
		if strings.Contains(b, "go run ./emulator\n") || strings.Contains(b, "go run ./emulator ") || strings.Contains(b, "./scripts/test.sh") || strings.Contains(b, "go test") {
			continue
		}
		out = append(out, b)
	}
	return out
}

// docScript makes one bash script of a file's blocks, in order: the
// addresses point at this stack; every API reply that is an error fails it;
// a "# → X" line checks that the last reply holds X ("…" matches anything).
func docScript(blocks []string, functions, firestore string) string {
	var b strings.Builder
	b.WriteString(`set -euo pipefail
__last=$(mktemp)
curl() {
  command curl "$@" > "$__last.raw"
  cat "$__last.raw" > "$__last"; cat "$__last.raw"
  if grep -q '"error":{"code":"' "$__last.raw"; then echo; echo "DOCTEST: an API call failed: curl $*" >&2; exit 1; fi
}
__expect() {
  local got; got=$(cat "$__last")
  local rest="$got"
  local IFS=$'\x1f'
  for piece in $(printf '%s' "$1" | sed 's/…/\x1f/g'); do
    [ -z "$piece" ] && continue
    case "$rest" in
      *"$piece"*) rest="${rest#*"$piece"}" ;;
      *) echo; echo "DOCTEST: expected the reply to hold: $piece" >&2; echo "DOCTEST: it was: $got" >&2; exit 1 ;;
    esac
  done
}
`)
	for _, block := range blocks {
		for _, line := range strings.Split(block, "\n") {
			if want, ok := strings.CutPrefix(strings.TrimSpace(line), "# → "); ok {
				b.WriteString("__expect '" + strings.ReplaceAll(want, "'", `'\''`) + "'\n")
				continue
			}
			line = strings.ReplaceAll(line, "127.0.0.1:8090", functions)
			line = strings.ReplaceAll(line, "127.0.0.1:8080", firestore)
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// TestCommandsRunAsPrinted runs, on one local stack, the commands each demo
// prints and then the command blocks of the README and docs/: one stack
// for both (starting one and seeding its demos is most of the time), the
// demos first, on their untouched games; the docs' commands make games of
// their own.
func TestCommandsRunAsPrinted(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Fatal("the README's commands need jq (apt-get install jq)")
	}
	s := startStack(t)
	t.Run("demos", func(t *testing.T) { demoCommandsRunAsPrinted(t, s) })
	t.Run("docs", func(t *testing.T) { docCommandsRunAsPrinted(t, s) })
}

// docCommandsRunAsPrinted runs the command blocks of the README and then
// of docs/ (but deploy.md, whose commands need Google Cloud) in order against
// a local stack from the repository's root, as a person pasting them would,
// and checks the replies they say. A doc change that breaks a command fails
// here.
func docCommandsRunAsPrinted(t *testing.T, s *Stack) {
	root := filepath.Join("..", "..")
	blocks := docBlocks(t, filepath.Join(root, "README.md"))
	if len(blocks) < 4 {
		t.Fatalf("found %d command blocks in the README", len(blocks))
	}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if filepath.Base(d) != "deploy.md" {
			blocks = append(blocks, docBlocks(t, d)...)
		}
	}
	script := docScript(blocks, strings.TrimPrefix(s.FunctionsURL, "http://"), s.FirestoreHost)
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's commands failed: %v\n%s", err, out)
	}
}

// demoCommandsRunAsPrinted runs the commands each demo prints (those a
// person can paste as they are: no <placeholder>) in order, as the banner
// shows them, checking no reply is an error.
func demoCommandsRunAsPrinted(t *testing.T, s *Stack) {
	for _, kind := range s.demoOrder {
		d := s.Demos[kind]
		t.Run(kind, func(t *testing.T) {
			var lines []string
			for _, l := range d.Lines {
				l = strings.TrimSpace(l)
				runnable := strings.HasPrefix(l, "export ") || strings.HasPrefix(l, "curl ") || strings.HasPrefix(l, "FIRST=") ||
					strings.HasPrefix(l, "T=$(") || strings.HasPrefix(l, "if [")
				if runnable && !strings.Contains(l, "<") {
					lines = append(lines, l)
				}
			}
			if len(lines) == 0 {
				t.Skip("this demo prints no command to paste")
			}
			script := docScript([]string{strings.Join(lines, "\n")}, strings.TrimPrefix(s.FunctionsURL, "http://"), s.FirestoreHost)
			out, err := exec.Command("bash", "-c", script).CombinedOutput()
			if err != nil {
				t.Fatalf("the %s demo's commands failed: %v\n%s\n%s", kind, err, strings.Join(lines, "\n"), out)
			}
		})
	}
}
