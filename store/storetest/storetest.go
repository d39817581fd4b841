// Package storetest runs tests against a real Firestore emulator that the test
// binary starts itself. Each test gets its own project id, so tests never see
// each other's data and need no clean-up.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/store/fsemu"
)

var (
	emulatorHost  string
	functionsHost string
)

// Main starts a Firestore emulator for the test binary, runs the tests and
// stops it. The emulator delivers document triggers to FunctionsHost(), where a
// test may listen. Call it from TestMain: os.Exit(storetest.Main(m)).
func Main(m *testing.M) int {
	port, err := fsemu.FreePort()
	if err != nil {
		fmt.Fprintln(os.Stderr, "storetest:", err)
		return 1
	}
	functionsHost = fmt.Sprintf("127.0.0.1:%d", port)
	var log *os.File
	if os.Getenv("MEEPLE_EMULATOR_LOG") != "" {
		log = os.Stderr
	}
	opts := fsemu.Options{FunctionsHost: functionsHost}
	if log != nil {
		opts.Log = log
	}
	emu, err := fsemu.Start(context.Background(), opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "storetest:", err)
		return 1
	}
	defer emu.Stop()
	emulatorHost = emu.Host
	os.Setenv("FIRESTORE_EMULATOR_HOST", emu.Host)
	return m.Run()
}

// EmulatorHost is the running emulator's host:port.
func EmulatorHost() string { return emulatorHost }

// FunctionsHost is where the emulator POSTs registered document triggers.
func FunctionsHost() string { return functionsHost }

var unsafe = regexp.MustCompile(`[^a-z0-9-]+`)

// Project returns a fresh project id for t: its data is its own.
func Project(t testing.TB) string {
	t.Helper()
	if emulatorHost == "" {
		t.Fatal("storetest: no emulator; call storetest.Main from TestMain")
	}
	b := make([]byte, 4)
	rand.Read(b)
	name := unsafe.ReplaceAllString(strings.ToLower(t.Name()), "-")
	if len(name) > 16 {
		name = name[:16]
	}
	return strings.Trim("t-"+name, "-") + "-" + hex.EncodeToString(b)
}

// Client returns a Firestore client on a fresh project, closed when t ends.
func Client(t testing.TB) *firestore.Client {
	t.Helper()
	return ClientFor(t, Project(t))
}

// ClientFor returns a Firestore client for project, closed when t ends.
func ClientFor(t testing.TB, project string) *firestore.Client {
	t.Helper()
	c, err := firestore.NewClient(context.Background(), project)
	if err != nil {
		t.Fatalf("storetest: firestore client: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Admin returns the emulator's admin endpoints for project.
func Admin(project string) fsemu.Admin {
	return fsemu.Admin{Host: emulatorHost, Project: project}
}
