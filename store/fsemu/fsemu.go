// Package fsemu starts and drives the gcloud Firestore emulator: for the local
// stack and for tests, which never use a mock of Firestore.
package fsemu

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Options configure Start.
type Options struct {
	Host          string    // address to bind; default 127.0.0.1
	Port          int       // 0 picks a free port
	RulesFile     string    // firestore.rules to load at start; empty for none
	FunctionsHost string    // host:port the emulator delivers document triggers to
	Log           io.Writer // the emulator's output; nil discards it
}

// Emulator is a running Firestore emulator.
type Emulator struct {
	Host string // host:port, the value for FIRESTORE_EMULATOR_HOST
	cmd  *exec.Cmd
	done chan struct{}
}

// Jar finds the emulator jar: $FIRESTORE_EMULATOR_JAR, else the gcloud SDK's
// platform/cloud-firestore-emulator directory (found through gcloud on PATH).
func Jar() (string, error) {
	if p := os.Getenv("FIRESTORE_EMULATOR_JAR"); p != "" {
		return p, nil
	}
	var roots []string
	if g, err := exec.LookPath("gcloud"); err == nil {
		if real, err := filepath.EvalSymlinks(g); err == nil {
			roots = append(roots, filepath.Dir(filepath.Dir(real)))
		}
	}
	roots = append(roots, "/usr/lib/google-cloud-sdk", "/usr/share/google-cloud-sdk", "/opt/google-cloud-sdk")
	for _, r := range roots {
		p := filepath.Join(r, "platform", "cloud-firestore-emulator", "cloud-firestore-emulator.jar")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("fsemu: Firestore emulator jar not found; install the gcloud SDK's cloud-firestore-emulator component or set FIRESTORE_EMULATOR_JAR")
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago, for
// a server about to listen on it (an emulator, a functions host).
//
// It is taken at random below the kernel's ephemeral range (Linux's default
// starts at 32768): a port from that range, which is what asking for port 0
// gives, is also what the kernel hands the next outgoing connection as its
// local port, and with the tests' many emulators and clients one did take
// such a port between this call and the emulator's bind (CI, "port is
// busy"). Below it, only another server choosing the same port at random
// can take it.
func FreePort() (int, error) {
	const lo, hi = 20000, 32000
	for range 50 {
		port := lo + rand.IntN(hi-lo)
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue
		}
		l.Close()
		return port, nil
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Start launches the emulator and waits until it answers. The process runs in
// its own process group so Stop ends the JVM and anything it started.
func Start(ctx context.Context, o Options) (*Emulator, error) {
	jar, err := Jar()
	if err != nil {
		return nil, err
	}
	if o.Host == "" {
		o.Host = "127.0.0.1"
	}
	if o.Port == 0 {
		if o.Port, err = FreePort(); err != nil {
			return nil, err
		}
	}
	// The JVM's first tier of compilation only (C1): its optimising compiler
	// (C2) spent about half of the emulator's processor time in the tests,
	// and kept almost a core busy for seconds after a burst of load (the
	// load generator measured 0.9 core while idle), on a machine of 2 cores
	// that the stack, the tests and the emulator share. With C1 alone the
	// store package's tests took 24.7 s instead of 30.2 (12.5 s of processor
	// time instead of 27.7) and the idle emulator 0.05 core.
	args := []string{"-Duser.language=en", "-XX:TieredStopAtLevel=1", "-cp", jar,
		"com.google.cloud.datastore.emulator.firestore.CloudFirestore", "start",
		"--host=" + o.Host, "--port=" + strconv.Itoa(o.Port)}
	if o.RulesFile != "" {
		args = append(args, "--rules="+o.RulesFile)
	}
	if o.FunctionsHost != "" {
		args = append(args, "--functions_emulator="+o.FunctionsHost)
	}
	java := os.Getenv("JAVA")
	if java == "" {
		java = "java"
	}
	cmd := exec.Command(java, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if o.Log != nil {
		cmd.Stdout, cmd.Stderr = o.Log, o.Log
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("fsemu: start %s: %w", java, err)
	}
	e := &Emulator{Host: net.JoinHostPort(o.Host, strconv.Itoa(o.Port)), cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(e.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-e.done:
			return nil, fmt.Errorf("fsemu: emulator exited during start: %v", cmd.ProcessState)
		case <-ctx.Done():
			e.Stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if resp, err := http.Get("http://" + e.Host + "/"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return e, nil
			}
		}
		if time.Now().After(deadline) {
			e.Stop()
			return nil, errors.New("fsemu: emulator did not answer within 60s")
		}
	}
}

// CPU is the processor time the emulator's process has used so far, from
// /proc (Linux; 0 elsewhere or once it has exited): the load generator sets
// it against the stack's own.
func (e *Emulator) CPU() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", e.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// Fields after the command name (which may hold spaces, in parentheses):
	// utime and stime are the 14th and 15th fields, in clock ticks (100 a second).
	_, rest, ok := strings.Cut(string(b), ") ")
	if !ok {
		return 0
	}
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// Done is closed when the emulator process has exited.
func (e *Emulator) Done() <-chan struct{} { return e.done }

// Kill ends the emulator at once, as a crash would (SIGKILL to its group).
func (e *Emulator) Kill() {
	if e == nil || e.cmd.Process == nil {
		return
	}
	syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
	<-e.done
}

// Stop ends the emulator's process group and waits for it to exit.
func (e *Emulator) Stop() {
	if e == nil || e.cmd.Process == nil {
		return
	}
	pgid := -e.cmd.Process.Pid
	syscall.Kill(pgid, syscall.SIGTERM)
	select {
	case <-e.done:
	case <-time.After(5 * time.Second):
		syscall.Kill(pgid, syscall.SIGKILL)
		<-e.done
	}
}

// Admin calls the emulator's own REST endpoints for one project.
type Admin struct {
	Host    string // host:port of the emulator
	Project string
}

func (a Admin) do(method, path string, body any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, "http://"+a.Host+path, r)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("fsemu: %s %s: %s: %s", method, path, resp.Status, strings.TrimSpace(string(msg)))
	}
	return nil
}

// LoadRules replaces the project's security rules.
func (a Admin) LoadRules(source string) error {
	return a.do(http.MethodPut, "/emulator/v1/projects/"+a.Project+":securityRules",
		map[string]any{"rules": map[string]any{"files": []any{map[string]any{"content": source}}}})
}

// Clear deletes every document of the project.
func (a Admin) Clear() error {
	return a.do(http.MethodDelete, "/emulator/v1/projects/"+a.Project+"/databases/(default)/documents", nil)
}

// RegisterTrigger asks the emulator to POST every write under documentPattern
// (e.g. "games/{gameId}/events/{eventId}") to the functions emulator as trigger name.
func (a Admin) RegisterTrigger(name, documentPattern string) error {
	return a.do(http.MethodPut, "/emulator/v1/projects/"+a.Project+"/triggers/"+name, map[string]any{
		"eventTrigger": map[string]any{
			"resource":  "projects/" + a.Project + "/databases/(default)/documents/" + documentPattern,
			"eventType": "providers/cloud.firestore/eventTypes/document.write",
			"service":   "firestore.googleapis.com",
		},
	})
}
