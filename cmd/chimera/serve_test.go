package main

import (
	"bufio"
	"encoding/json"
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
