//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// watched collects a stream of the binary's output and says when it has
// grown.
type watched struct {
	mu     sync.Mutex
	text   bytes.Buffer
	closed bool
	grew   chan struct{} // a send after each read, closed at the end
}

func watch(r io.Reader) *watched {
	w := &watched{grew: make(chan struct{}, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			w.mu.Lock()
			w.text.Write(buf[:n])
			w.closed = err != nil
			w.mu.Unlock()
			if err != nil {
				close(w.grew)
				return
			}
			select {
			case w.grew <- struct{}{}:
			default:
			}
		}
	}()
	return w
}

// String returns what the stream has said so far.
func (w *watched) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.text.String()
}

// until waits until the stream matches re; false when it ended first.
func (w *watched) until(re *regexp.Regexp) bool {
	for {
		if re.MatchString(w.String()) {
			return true
		}
		if _, open := <-w.grew; !open {
			return re.MatchString(w.String())
		}
	}
}

// interruptWhen starts the binary with args in a process group of its
// own, waits until its stdout (or stderr, when onStderr) matches ready —
// it has finished something to report — and sends SIGINT to the group, as
// a terminal's Ctrl-C does (engines and table builders started by the
// command get it too). It returns the exit status and both outputs.
func interruptWhen(t *testing.T, ready string, onStderr bool, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	outPipe, err := cmd.StdoutPipe()
	require.NoError(t, err)
	errPipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	out, errOut := watch(outPipe), watch(errPipe)
	seen := out
	if onStderr {
		seen = errOut
	}
	if !seen.until(regexp.MustCompile(ready)) {
		cmd.Wait()
		t.Fatalf("the command ended before %q:\nstdout:\n%s\nstderr:\n%s", ready, out, errOut)
	}
	require.NoError(t, syscall.Kill(-cmd.Process.Pid, syscall.SIGINT))
	for _, w := range []*watched{out, errOut} {
		for range w.grew { // to the end of the stream
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), out.String(), errOut.String()
	}
	require.NoError(t, err)
	return 0, out.String(), errOut.String()
}

// pgnResults returns the Result tags of a PGN file's games.
func pgnResults(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var results []string
	for _, m := range regexp.MustCompile(`\[Result "([^"]*)"\]`).FindAllStringSubmatch(string(data), -1) {
		results = append(results, m[1])
	}
	return results
}

// number reads the whole number re's first group matches in text.
func number(t *testing.T, re, text string) int {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	require.NotNil(t, m, "%q in %q", re, text)
	n, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	return n
}

// TestInterruptedSelfplay: Ctrl-C after the first game reports the games
// finished (the same in the summary and the PGN), counts the game under
// way in neither (it used to be scored a draw while the PGN said "*"),
// says it was interrupted and exits 130 (it exited 0).
func TestInterruptedSelfplay(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "games.pgn")
	code, out, errOut := interruptWhen(t, `\] [1-9]\d*/1000 games`, true,
		"selfplay", "--variant", "chess", "--games", "1000", "--depth", "2", "--no-tablebase", "--pgn", pgn)
	require.Equal(t, exitInterrupted, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	games := number(t, `chess, (\d+) games?\n`, out)
	a, d, b := number(t, `A wins (\d+)`, out), number(t, `draws (\d+)`, out), number(t, `B wins (\d+)`, out)
	require.Equal(t, games, a+d+b)
	require.Positive(t, games)
	results := pgnResults(t, pgn)
	require.Len(t, results, games, "the PGN holds the games counted")
	require.NotContains(t, results, "*", "no game cut short is written")
	require.Regexp(t, `chimera: selfplay: interrupted: `+strconv.Itoa(games)+` games? of 1000 finished`, errOut)
}

// TestInterruptedMatch: Ctrl-C during an SPRT match (engines and all, as
// a terminal sends it) prints the standing of the games finished, writes
// those and only those to the PGN, says it was interrupted and exits 130
// (it exited 0 saying nothing).
func TestInterruptedMatch(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "match.pgn")
	code, out, errOut := interruptWhen(t, `game [1-9]\d*/20:`, true,
		"match", "--engine", "a=self", "--variant", "chess", "--games", "20", "--tc", "1+0.01", "--pgn", pgn,
		"--sprt", "elo0=0,elo1=10,alpha=0.05,beta=0.05",
		"--option", "a=TablebaseBuild=0", "--option", "chimera=TablebaseBuild=0")
	require.Equal(t, exitInterrupted, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	games := number(t, `tc 1\+0\.01, (\d+) games?\n`, out)
	require.Positive(t, games)
	require.Contains(t, out, "SPRT ")
	results := pgnResults(t, pgn)
	require.Len(t, results, games, "the PGN holds the games counted")
	require.NotContains(t, results, "*")
	require.Regexp(t, `chimera: match: interrupted: `+strconv.Itoa(games)+` games? of 20 finished`, errOut)
}

// TestInterruptedCompare: Ctrl-C reports the rows of the games finished
// (it printed "context canceled", exited 2 and dropped them all), says
// it was interrupted and exits 130.
func TestInterruptedCompare(t *testing.T) {
	code, out, errOut := interruptWhen(t, `games [1-9]\d*/`, true,
		"compare", "--material", "KQvK", "--positions", "200", "--depth", "3", "--dir", t.TempDir())
	require.Equal(t, exitInterrupted, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	require.Contains(t, out, "KQvK: search (winning side) against perfect defence")
	games := number(t, `depth 3 +(\d+) `, out)
	require.Positive(t, games)
	require.Regexp(t, `chimera: compare: interrupted: `+strconv.Itoa(games)+` of 200 games finished`, errOut)
	require.NotContains(t, errOut, "context canceled")
}

// TestInterruptedOpenings: Ctrl-C keeps the positions written, each a
// whole, judged position, says how many and exits 130 (it said "context
// canceled" and exited 2).
func TestInterruptedOpenings(t *testing.T) {
	code, out, errOut := interruptWhen(t, `\n`, false,
		"openings", "--variant", "chess", "--count", "100000", "--depth", "3")
	require.Equal(t, exitInterrupted, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, fen := range lines {
		_, err := variants.Chess().ParseFEN(fen)
		require.NoError(t, err, fen)
	}
	require.Regexp(t, `chimera: openings: interrupted: `+strconv.Itoa(len(lines))+` of 100000 positions written`, errOut)
	require.NotContains(t, errOut, "context canceled")
}
