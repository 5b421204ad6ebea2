package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// freePort returns a loopback port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// replica starts a read-only explorer on a given port and waits until it
// listens.
func replica(t *testing.T, dir string, port int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary, "serve", "--read-only", "--dir", dir, "--addr", fmt.Sprintf("127.0.0.1:%d", port),
		"--client-header", "X-Forwarded-For")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	_, err = bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	return cmd
}

// probes returns how many probes a server has answered, from its
// /metrics.
func probes(t *testing.T, port int) int {
	t.Helper()
	res, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/metrics", port))
	require.NoError(t, err)
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), `chimera_http_requests_total{route="/{variant}",status="200"} `); ok {
			n, err := strconv.Atoi(rest)
			require.NoError(t, err)
			return n
		}
	}
	return 0
}

// TestBalancer puts two read-only replicas behind HAProxy (docs/haproxy.cfg
// with the test's ports) and loads it while one replica is killed and
// restarted: no request may be lost beyond those in flight at the kill
// (HAProxy sends them again to the other replica).
func TestBalancer(t *testing.T) {
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		t.Skip("haproxy is not installed (apt-get install haproxy)")
	}
	if testing.Short() {
		t.Skip("starts HAProxy and two servers")
	}
	dir := t.TempDir()
	for _, table := range []string{"KQvK", "KRvK"} {
		code, _, errOut := runCommand("tb", "generate", table, "--dir", dir)
		require.Zero(t, code, errOut)
	}
	ports := []int{freePort(t), freePort(t), freePort(t)} // balancer, replica 1, replica 2
	cfg, err := os.ReadFile(filepath.Join("..", "..", "docs", "haproxy.cfg"))
	require.NoError(t, err)
	text := strings.NewReplacer("127.0.0.1:8080", fmt.Sprintf("127.0.0.1:%d", ports[0]),
		"127.0.0.1:8081", fmt.Sprintf("127.0.0.1:%d", ports[1]),
		"127.0.0.1:8082", fmt.Sprintf("127.0.0.1:%d", ports[2])).Replace(string(cfg))
	cfgPath := filepath.Join(t.TempDir(), "haproxy.cfg")
	require.NoError(t, os.WriteFile(cfgPath, []byte(text), 0o644))

	first := replica(t, dir, ports[1])
	replica(t, dir, ports[2])
	lb := exec.Command(haproxy, "-f", cfgPath, "-db")
	lb.Stderr = io.Discard
	require.NoError(t, lb.Start())
	t.Cleanup(func() { lb.Process.Kill(); lb.Wait() })

	base := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	client := &http.Client{Timeout: 30 * time.Second}
	ok := func(path string) bool {
		res, err := client.Get(base + path)
		if err != nil {
			return false
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}
	for !ok("/readyz") {
		time.Sleep(50 * time.Millisecond)
	}

	// The load: workers probing through the balancer until told to stop.
	const workers = 6
	var sent, failed atomic.Int64
	var failures sync.Map
	stop := make(chan struct{})
	var wg sync.WaitGroup
	fens := []string{"8/8/8/4k3/8/8/8/KQ6_w_-_-_0_1", "8/8/8/4k3/8/8/8/KR6_b_-_-_0_1", "8/8/2k5/8/8/8/8/KQ6_b_-_-_0_1"}
	for w := range workers {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				sent.Add(1)
				res, err := client.Get(base + "/standard?fen=" + fens[(w+i)%len(fens)])
				if err == nil {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				if err != nil || res.StatusCode != http.StatusOK {
					failed.Add(1)
					failures.Store(sent.Load(), fmt.Sprint(err, res))
				}
			}
		})
	}
	waitFor := func(n int64) {
		for start := sent.Load(); sent.Load() < start+n; {
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor(300)
	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	first.Wait()
	waitFor(300) // the other replica carries the load
	replica(t, dir, ports[1])
	// Both again, once HAProxy's check sees it back: the restarted
	// replica answers its share.
	for probes(t, ports[1]) < 100 {
		time.Sleep(20 * time.Millisecond)
	}
	waitFor(100)
	close(stop)
	wg.Wait()

	var lost []string
	failures.Range(func(_, v any) bool { lost = append(lost, v.(string)); return true })
	t.Logf("%d requests through the balancer, %d failed", sent.Load(), failed.Load())
	require.LessOrEqual(t, failed.Load(), int64(workers), "lost beyond the requests in flight at the kill: %v", lost)
}
