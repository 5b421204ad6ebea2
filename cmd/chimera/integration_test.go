package main

import (
	"bufio"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"
	chessuci "github.com/notnil/chess/uci"
	"github.com/stretchr/testify/require"
)

// binary is the chimera executable built once for the integration tests.
var binary string

// asMain, set in a test binary's environment, makes it run as chimera
// itself: the quick (-short) tests start it instead of building chimera.
const asMain = "CHIMERA_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	flag.Parse() // for testing.Short
	dir, err := os.MkdirTemp("", "chimera-test")
	if err != nil {
		panic(err)
	}
	// The engines these tests start keep their tables in a directory of
	// the test's own (tablebase.DefaultDir is under the cache directory).
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	readyTables.dir = filepath.Join(dir, "ready-tables")
	if testing.Short() {
		// The same code, without a second build: this binary runs as
		// chimera when started with asMain set (children inherit it).
		binary = os.Args[0]
		os.Setenv(asMain, "1")
	} else {
		binary = filepath.Join(dir, "chimera")
		if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
			panic("building chimera: " + err.Error() + "\n" + string(out))
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// within runs f with a deadline: notnil's client has none of its own.
func within(t *testing.T, d time.Duration, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(d):
		t.Fatal("the engine did not answer in time")
	}
}

// TestUCIThroughNotnilClient drives the real binary with notnil/chess's UCI
// client and plays a short game with it, checking every move. Under
// -short the game is 10 plies, not 20: five searches of each kind, fixed
// depth and move time, whose 30 ms each were most of the test's time.
func TestUCIThroughNotnilClient(t *testing.T) {
	plies := 20
	if testing.Short() {
		plies = 10
	}
	eng, err := chessuci.New(binary)
	require.NoError(t, err)
	defer eng.Close()
	within(t, 10*time.Second, func() error { return eng.Run(chessuci.CmdUCI, chessuci.CmdIsReady, chessuci.CmdUCINewGame) })
	require.Contains(t, eng.ID()["name"], "Chimera")
	opts := eng.Options()
	require.Contains(t, opts, "Hash")
	require.Contains(t, opts, "UCI_Variant")
	within(t, 10*time.Second, func() error {
		return eng.Run(chessuci.CmdSetOption{Name: "Hash", Value: "8"}, chessuci.CmdIsReady)
	})

	game := chess.NewGame()
	for ply := 0; ply < plies && game.Outcome() == chess.NoOutcome; ply++ {
		cmds := []chessuci.Cmd{chessuci.CmdPosition{Position: game.Position()}, chessuci.CmdGo{Depth: 3}}
		if ply%2 == 1 {
			cmds[1] = chessuci.CmdGo{MoveTime: 30 * time.Millisecond}
		}
		within(t, 20*time.Second, func() error { return eng.Run(cmds...) })
		move := eng.SearchResults().BestMove
		require.NotNil(t, move)
		require.NoError(t, game.Move(move), "chimera's move %v in %s", move, game.Position())
	}
	require.Greater(t, eng.SearchResults().Info.Depth, 0)
}

// script is a raw UCI conversation with the binary.
type script struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startScript(t *testing.T, args ...string) *script {
	t.Helper()
	cmd := exec.Command(binary, args...)
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	s := &script{t: t, cmd: cmd, in: in, lines: make(chan string, 10000)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if l := sc.Text(); strings.HasPrefix(l, "info string tablebase: buil") || strings.HasPrefix(l, "info string tablebase: wrote ") ||
				strings.HasPrefix(l, "info string tablebase: removed ") {
				continue // the builder's reports come whenever a build starts or ends
			}
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			require.NoError(t, err, "chimera exits cleanly at end of input")
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("chimera did not exit at end of input")
		}
	})
	return s
}

func (s *script) send(lines ...string) {
	for _, l := range lines {
		_, err := io.WriteString(s.in, l+"\n")
		require.NoError(s.t, err)
	}
}

func (s *script) expect(prefix string) (string, []string) {
	s.t.Helper()
	var before []string
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-s.lines:
			require.True(s.t, ok, "output ended waiting for %q", prefix)
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-timeout:
			s.t.Fatalf("no %q in time; got %q", prefix, before)
		}
	}
}

// TestUCIVariantsScripted plays variant moves through the real binary.
func TestUCIVariantsScripted(t *testing.T) {
	s := startScript(t) // no arguments: UCI
	s.send("uci")
	s.expect("uciok")
	for _, tc := range []struct{ variant, moves string }{
		{"capablanca", "position startpos moves e2e4 e7e5 c1d3"},
		{"reallybig", "position startpos moves a2a8 p15p10"},
		{"grand", "position startpos moves a3a5"},
		{"atomic", "position startpos moves e2e4 d7d5 e4d5"},
		{"3check", "position fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 3+3 0 2 moves f1c4"},
	} {
		s.send("setoption name UCI_Variant value "+tc.variant, "ucinewgame", tc.moves, "isready")
		_, before := s.expect("readyok")
		require.Empty(t, before, tc.variant)
		s.send("go depth 3")
		best, _ := s.expect("bestmove ")
		require.NotEqual(t, "bestmove 0000", best, tc.variant)
	}
	s.send("position startpos moves a2a9")
	l, _ := s.expect("info string error:")
	require.Contains(t, l, "a2a9")
	s.send("quit")
}

// TestUCIStartposAndStop covers what notnil's client cannot: startpos and
// stopping an infinite search.
func TestUCIStartposAndStop(t *testing.T) {
	s := startScript(t, "uci")
	s.send("position startpos moves e2e4 c7c5", "go infinite")
	time.Sleep(100 * time.Millisecond)
	s.send("isready")
	s.expect("readyok")
	s.send("stop")
	best, _ := s.expect("bestmove ")
	require.Regexp(t, `^bestmove [a-h][1-8][a-h][1-8]`, best)
}

// TestStopAndQuitActAtOnce: commands written all at once, as a careless
// GUI or a script would, with a search that would run for hours and
// commands queued behind it that wait for it: stop and quit still act at
// once (the input stays open, so only quit can end the process).
func TestStopAndQuitActAtOnce(t *testing.T) {
	for _, c := range []struct {
		name, input string
		bestmoves   int
	}{
		{"setoption queued", "position startpos\ngo movetime 3600000\nsetoption name Hash value 32\nstop\nquit\n", 1},
		{"go queued", "position startpos\ngo depth 60\ngo depth 1\nstop\nquit\n", 2},
		{"ucinewgame queued", "position startpos\ngo depth 60\nucinewgame\nquit\n", 1},
		{"quit alone", "position startpos\ngo depth 60\nsetoption name Hash value 32\nquit\n", 1},
		{"cecp", "xboard\nprotover 2\nnew\nsd 60\ngo\nnew\nquit\n", 0},
		// Pondering on: the move the quit forces out must not start a
		// ponder search that nothing stops.
		{"cecp pondering", "xboard\nprotover 2\nnew\nhard\nsd 60\ngo\nquit\n", 0},
		// The stop read behind setoption ends the infinite search before
		// setoption is handled, so setoption is not refused as busy.
		{"infinite then setoption", "position startpos\ngo infinite\nsetoption name Hash value 32\nstop\nquit\n", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(binary)
			in, err := cmd.StdinPipe()
			require.NoError(t, err)
			defer in.Close()
			var out strings.Builder
			cmd.Stdout = &out
			require.NoError(t, cmd.Start())
			_, err = io.WriteString(in, c.input)
			require.NoError(t, err)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				require.NoError(t, err)
			case <-time.After(2 * time.Minute): // a hang guard: the searches queued would take hours
				cmd.Process.Kill()
				t.Fatalf("still running; output so far:\n%s", out.String())
			}
			require.Equal(t, c.bestmoves, strings.Count(out.String(), "bestmove "), out.String())
			require.NotContains(t, out.String(), "error", out.String())
		})
	}
}

// TestAddressSpaceLimit: under an address-space limit (ulimit -v), a
// table that would not fit is refused with a message, by the UCI option
// and by every command's --hash, instead of killing the process.
func TestAddressSpaceLimit(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to set ulimit -v")
	}
	limited := func(args string, stdin string) (string, int) {
		cmd := exec.Command(sh, "-c", "ulimit -v 3000000 && exec \"$0\" "+args, binary)
		cmd.Stdin = strings.NewReader(stdin)
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	out, code := limited("", "setoption name Hash value 8000\nisready\nquit\n")
	require.Zero(t, code, out)
	require.Contains(t, out, "info string error: option Hash: 8000 MB is more than the")
	require.Contains(t, out, "keeping 16 MB")
	require.Contains(t, out, "readyok")
	for _, args := range []string{"bench --hash 8000 --depth 1", "selfplay --hash 4000 --games 1 --depth 1 --no-tablebase"} {
		out, code = limited(args, "")
		require.Equal(t, 2, code, out)
		require.Contains(t, out, "MB of memory available", args)
		require.NotContains(t, out, "fatal error", args)
	}
}

// TestPonderhitWithLimits: through the binary, a depth-, node- or
// mate-limited ponder search answers at ponderhit, the commands piped
// without waiting.
func TestPonderhitWithLimits(t *testing.T) {
	s := startScript(t, "uci")
	s.send("setoption name Ponder value true")
	for _, limit := range []string{"depth 1", "nodes 1000", "mate 1"} {
		s.send("position startpos moves e2e4", "go ponder "+limit, "ponderhit")
		best, _ := s.expect("bestmove ")
		require.Regexp(t, `^bestmove [a-h][1-8][a-h][1-8]`, best, limit)
	}
	s.send("quit")
}
