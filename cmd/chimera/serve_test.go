package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestServeCommand starts chimera serve as a user does, asks its API for a
// position whose table it must first build, and stops it with SIGTERM.
func TestServeCommand(t *testing.T) {
	cmd := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--dir", t.TempDir())
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	m := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)/ `).FindStringSubmatch(line)
	require.NotNil(t, m, line)
	url := m[1] + "/standard?fen=8/8/8/4k3/8/8/8/KR6_w_-_-_0_1"
	var answer struct {
		Category string `json:"category"`
		DTM      *int   `json:"dtm"`
		Building *struct {
			Table string `json:"table"`
		} `json:"building"`
	}
	for {
		res, err := http.Get(url)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.NoError(t, json.NewDecoder(res.Body).Decode(&answer))
		res.Body.Close()
		if answer.Category != "unknown" {
			break
		}
		require.NotNil(t, answer.Building, "an unknown position says what is being built")
		require.Equal(t, "KRvK", answer.Building.Table)
		time.Sleep(20 * time.Millisecond)
	}
	require.Equal(t, "win", answer.Category)
	require.NotNil(t, answer.DTM)

	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	require.NoError(t, cmd.Wait(), "a clean shutdown")
}

func TestServeCommandErrors(t *testing.T) {
	code, _, errOut := runCommand("serve", "--addr", "nonsense")
	require.NotZero(t, code)
	require.Contains(t, errOut, "serve: listen tcp: address nonsense")
	code, _, errOut = runCommand("serve", "--build-pieces", "9")
	require.NotZero(t, code)
	require.Contains(t, errOut, "build-pieces")
}

// startServe starts chimera serve with the arguments and returns its
// address (http://host:port) once it listens.
func startServe(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	m := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)/ `).FindStringSubmatch(line)
	require.NotNil(t, m, line)
	return cmd, m[1]
}

// status GETs a URL and returns its status code.
func status(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	res.Body.Close()
	return res.StatusCode
}

// TestServeReadOnlyReplica serves a directory of tables read-only, as a
// replica behind a balancer does: ready once loaded, answers from the
// tables, builds nothing, writes nothing.
func TestServeReadOnlyReplica(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := runCommand("tb", "generate", "KQvK", "--dir", dir)
	require.Zero(t, code, errOut)
	before, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o555)) // as a shared read-only mount
	t.Cleanup(func() { os.Chmod(dir, 0o755) })

	cmd, addr := startServe(t, "--dir", dir, "--read-only")
	for status(t, addr+"/readyz") != http.StatusOK {
		time.Sleep(20 * time.Millisecond)
	}
	require.Equal(t, http.StatusOK, status(t, addr+"/healthz"))
	res, err := http.Get(addr + "/standard?fen=8/8/8/4k3/8/8/8/KQ6_w_-_-_0_1")
	require.NoError(t, err)
	var answer struct{ Category string }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&answer))
	res.Body.Close()
	require.Equal(t, "win", answer.Category)
	require.Equal(t, http.StatusNotFound, status(t, addr+"/api/stats/chess/KRvK"), "no building on a replica")
	after, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Equal(t, len(before), len(after))

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait())
}

// TestServeStopsDuringABuild: SIGTERM while a long generation runs and
// clients keep asking stops the server cleanly (the build is abandoned,
// not waited for).
func TestServeStopsDuringABuild(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the built binary's speed (a five-piece generation under way)")
	}
	cmd, addr := startServe(t, "--dir", t.TempDir())
	// grand's KRvKR (10×10, with its smaller tables): seconds of work.
	// The probe itself says how its build stands (a snapshot taken under
	// the builds' lock), so the wait needs no second view of the queue.
	url := addr + "/grand?fen=r9/10/10/10/4k5/10/10/10/10/KR8_w_-_-_0_1"
	for {
		res, err := http.Get(url)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode)
		var answer struct {
			Category string
			Building *struct{ Table, State string }
		}
		require.NoError(t, json.NewDecoder(res.Body).Decode(&answer))
		res.Body.Close()
		require.Equal(t, "unknown", answer.Category, "KRvKR takes seconds: it is not built yet")
		require.NotNil(t, answer.Building, "an unknown position says what is being built")
		require.Equal(t, "KRvKR", answer.Building.Table)
		require.Contains(t, []string{"queued", "running"}, answer.Building.State)
		if answer.Building.State == "running" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Clients keep asking while the server stops.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if res, err := http.Get(addr + "/standard?fen=8/8/8/4k3/8/8/8/KQ6_w_-_-_0_1"); err == nil {
					res.Body.Close()
				}
			}
		})
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err := cmd.Wait()
	close(stop)
	wg.Wait()
	require.NoError(t, err, "a clean exit under load, the build abandoned")
}

// TestServeUntilClosesUnusedConnections: a stopping server closes at once
// the connections a browser keeps open with no request under way (one
// kept alive after its answer, a spare one opened before it is needed),
// lets the answer under way finish, and returns. net/http's Shutdown
// alone counts a connection that has sent nothing as busy until it is
// five seconds old, and would hold the stop until then (or until serve's
// grace ran out, cutting the answers under way). That the spare one is
// closed by the sweep, not by that rule, TestConnStatesCloseUnused shows
// without a clock.
func TestServeUntilClosesUnusedConnections(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	entered, release := make(chan struct{}), make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/quick", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "quick") })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		io.WriteString(w, "slow")
	})
	var (
		mu       sync.Mutex
		accepted int
	)
	allAccepted := make(chan struct{})
	hs := &http.Server{Handler: mux, ConnState: func(_ net.Conn, s http.ConnState) {
		// serveUntil keeps the server's own hook.
		if s != http.StateNew {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if accepted++; accepted == 3 {
			close(allAccepted)
		}
	}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	// An hour's grace: nothing here is cut by the clock, so any wait for
	// an unused connection would show.
	go func() { done <- serveUntil(ctx, hs, ln, time.Hour) }()

	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		// Only against a hang: every read below is answered at once.
		c.SetDeadline(time.Now().Add(time.Minute))
		return c
	}
	get := func(c net.Conn, path string) {
		_, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: chimera\r\n\r\n")
		require.NoError(t, err)
	}
	idle := dial()
	get(idle, "/quick")
	idleIn := bufio.NewReader(idle)
	res, err := http.ReadResponse(idleIn, nil)
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, "quick", string(body))
	require.False(t, res.Close, "the connection is kept alive")
	spare := dial()
	slow := dial()
	get(slow, "/slow")
	<-entered
	<-allAccepted // the server has seen the spare connection too

	cancel()
	// Closed by the server while the answer is still under way: neither
	// is waited for.
	for name, in := range map[string]io.Reader{"kept alive": idleIn, "spare": spare} {
		n, err := in.Read(make([]byte, 1))
		require.Zero(t, n, name)
		require.ErrorIs(t, err, io.EOF, "the %s connection is closed by the server", name)
	}

	close(release)
	res, err = http.ReadResponse(bufio.NewReader(slow), nil)
	require.NoError(t, err, "the answer under way is finished")
	body, err = io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, "slow", string(body))
	require.True(t, res.Close, "its connection ends with it (Connection: close)")
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(time.Minute):
		t.Fatal("serveUntil did not return once no request was under way")
	}
}

// TestConnStatesCloseUnused: the sweep of a stopping server closes the
// connections that are new (nothing read yet) or idle between requests,
// and leaves those with a request under way, and forgets closed ones.
func TestConnStatesCloseUnused(t *testing.T) {
	var seen []http.ConnState
	conns := &connStates{next: func(_ net.Conn, s http.ConnState) { seen = append(seen, s) }, state: map[net.Conn]http.ConnState{}}
	ends := map[http.ConnState]net.Conn{}
	for _, s := range []http.ConnState{http.StateNew, http.StateIdle, http.StateActive} {
		server, client := net.Pipe()
		t.Cleanup(func() { server.Close(); client.Close() })
		conns.set(server, s)
		ends[s] = client
	}
	gone, _ := net.Pipe()
	conns.set(gone, http.StateNew)
	conns.set(gone, http.StateClosed)
	require.Len(t, conns.state, 3, "a closed connection is forgotten")
	require.Equal(t, []http.ConnState{http.StateNew, http.StateIdle, http.StateActive, http.StateNew, http.StateClosed}, seen,
		"the server's own hook hears every change")

	conns.closeUnused()
	for s, client := range ends {
		client.SetReadDeadline(time.Now().Add(time.Minute)) // against a hang only
		if s == http.StateActive {
			// Still open: a write from the server's end would arrive.
			continue
		}
		_, err := client.Read(make([]byte, 1))
		require.ErrorIs(t, err, io.EOF, "the %v connection is closed", s)
	}
	active := ends[http.StateActive]
	go func() {
		conns.mu.Lock()
		defer conns.mu.Unlock()
		for c, s := range conns.state {
			if s == http.StateActive {
				c.Write([]byte("x"))
			}
		}
	}()
	n, err := active.Read(make([]byte, 1))
	require.NoError(t, err, "the connection with a request under way is left open")
	require.Equal(t, 1, n)
}
