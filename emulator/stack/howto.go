package stack

import (
	"fmt"
	"io"
	"strings"

	"github.com/meeple-games/meeple/functions"
)

// PrintHowTo tells a person at the terminal how to play the demos.
func (s *Stack) PrintHowTo(w io.Writer) {
	fmt.Fprintf(w, "\nMeeple local stack is up.\n")
	if s.WebURL != "" {
		fmt.Fprintf(w, "\n  Play in the browser: %s\n\n", s.WebURL)
	}
	fmt.Fprintf(w, "  functions:  %s  (POST /%s; GET /api lists them)\n", s.FunctionsURL, strings.Join(functions.Names(s.games), ", /"))
	fmt.Fprintf(w, "  firestore:  %s  (project %s, rules from firestore.rules)\n", s.FirestoreHost, s.Project)
	fmt.Fprintf(w, "  triggers:   delivered by the Firestore emulator; tick every second\n")
	if s.secretNote != "" {
		fmt.Fprintf(w, "  note:       %s\n", s.secretNote)
	}
	for _, kind := range s.demoOrder {
		d := s.Demos[kind]
		fmt.Fprintf(w, "\n%s: %s\n", d.Title, strings.Join(d.Lines, "\n"))
	}
	fmt.Fprintf(w, "\nPress Ctrl-C to stop.\n")
}
