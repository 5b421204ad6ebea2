package uci_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	enginesession "github.com/chimera-chess/chimera/internal/session"
	"github.com/chimera-chess/chimera/internal/testkit/pipetest"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/internal/uci"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// session drives a server through pipes, as a GUI would.
type session struct {
	*pipetest.Conn
	t *testing.T
}

func start(t *testing.T, cfg uci.Config) *session {
	t.Helper()
	if cfg.TablebaseDir == "" {
		cfg.TablebaseDir = t.TempDir()
	}
	serve := func(in io.Reader, out io.Writer) error { return uci.NewServer(out, cfg).Run(in) }
	// The builder's reports come whenever a build starts or ends, writes or removes files.
	skip := func(l string) bool {
		for _, report := range []string{"buil", "wrote ", "removed "} {
			if strings.HasPrefix(l, "info string tablebase: "+report) {
				return true
			}
		}
		return false
	}
	return &session{Conn: pipetest.Start(t, serve, skip), t: t}
}

// quiet asserts that nothing is printed for a short while.
func (s *session) quiet() {
	s.t.Helper()
	s.Send("isready")
	_, before := s.Expect("readyok")
	require.Empty(s.t, before)
}

func TestHandshake(t *testing.T) {
	s := start(t, uci.Config{Name: "Chimera test"})
	s.Send("uci")
	_, lines := s.Expect("uciok")
	text := strings.Join(lines, "\n")
	require.Equal(t, "id name Chimera test", lines[0])
	require.Contains(t, lines[1], "id author")
	for _, want := range []string{
		"option name Hash type spin default 16 min 1 max",
		"option name Threads type spin",
		"option name MultiPV type spin default 1",
		"option name Clear Hash type button",
		"option name Ponder type check default false",
		"option name Move Overhead type spin",
		"option name UCI_Variant type combo default chess var chess",
		" var capablanca", " var reallybig", " var grand",
		"option name VariantPath type string",
		"option name UseTablebase type check default true",
		"option name TablebaseDir type string default ",
		"option name TablebaseBuild type spin default 4 min 0 max 5",
		"option name TablebaseCache type spin default 64 min 1 max 65536",
	} {
		require.Contains(t, text, want)
	}
	s.quiet()
}

func TestSearchAndBestMove(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("ucinewgame", "position startpos moves e2e4 e7e5", "go depth 5")
	best, infos := s.Expect("bestmove ")
	require.Len(t, infos, 5)
	for _, info := range infos {
		for _, field := range []string{"info depth", " seldepth ", " multipv 1 ", " score cp ", " nodes ", " nps ", " hashfull ", " tbhits ", " time ", " pv "} {
			require.Contains(t, info, field)
		}
	}
	v := variants.Chess()
	p := v.StartPosition()
	for _, m := range []string{"e2e4", "e7e5"} {
		mv, _ := p.ParseUCI(m)
		p.Make(mv)
	}
	fields := strings.Fields(best)
	_, err := p.ParseUCI(fields[1])
	require.NoError(t, err, best)
	require.Equal(t, "ponder", fields[2])
	s.quiet() // exactly one bestmove, nothing after it
}

func TestIsReadyWhileSearchingAndStop(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "go infinite")
	s.Send("isready")
	_, before := s.Expect("readyok")
	for _, l := range before {
		require.True(t, strings.HasPrefix(l, "info"), l)
	}
	time.Sleep(50 * time.Millisecond)
	s.Send("stop")
	s.Expect("bestmove ")
	s.quiet()
	s.Send("stop") // a stray stop is harmless
	s.quiet()
}

// TestThreads: with helper threads the engine still answers isready at
// once mid-search, stops on stop, and plays the mate it finds.
func TestThreads(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("setoption name Threads value 2", "isready")
	_, lines := s.Expect("readyok")
	for _, l := range lines {
		require.NotContains(t, l, "error", "Threads 2 is accepted")
	}
	s.Send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "go infinite", "isready")
	s.Expect("readyok")
	s.Send("stop")
	s.Expect("bestmove ")
	s.Send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go depth 5")
	best, _ := s.Expect("bestmove ")
	require.Equal(t, "a1a8", strings.Fields(best)[1])
	s.quiet()
}

func TestInfiniteWaitsForStop(t *testing.T) {
	// With one legal move the search ends at once; the bestmove must still
	// wait for stop.
	s := start(t, uci.Config{})
	s.Send("position fen 7k/8/8/8/8/8/6r1/7K w - - 0 1", "go infinite")
	time.Sleep(100 * time.Millisecond)
	s.Send("isready")
	_, before := s.Expect("readyok")
	for _, l := range before {
		require.False(t, strings.HasPrefix(l, "bestmove"), "bestmove before stop")
	}
	s.Send("stop")
	best, _ := s.Expect("bestmove")
	require.Equal(t, "bestmove h1g2", strings.Fields(best)[0]+" "+strings.Fields(best)[1])
}

func TestPonder(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("setoption name Ponder value true", "position startpos moves e2e4", "go ponder wtime 1000 btime 1000")
	time.Sleep(50 * time.Millisecond)
	s.quietExceptInfo()
	s.Send("ponderhit")
	s.Expect("bestmove ")
	s.quiet()

	s.Send("position startpos moves e2e4", "go ponder wtime 1000 btime 1000")
	time.Sleep(20 * time.Millisecond)
	s.Send("stop")
	s.Expect("bestmove ")
	s.quiet()
}

// TestPonderWithLimits: a depth-, node- or mate-limited ponder search
// answers at ponderhit (it held its result, or finishes by its limit: the
// clock never started), and a stop after it has nothing left to answer.
func TestPonderWithLimits(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("setoption name Ponder value true")
	for _, limit := range []string{"depth 1", "nodes 1000", "mate 1"} {
		s.Send("position startpos moves e2e4", "go ponder "+limit, "ponderhit")
		s.Expect("bestmove ")
		s.Send("stop")
		s.quiet()
	}
}

// quietExceptInfo asserts that only info lines were printed so far.
func (s *session) quietExceptInfo() {
	s.t.Helper()
	s.Send("isready")
	_, before := s.Expect("readyok")
	for _, l := range before {
		require.True(s.t, strings.HasPrefix(l, "info"), l)
	}
}

func TestGoLimits(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("position startpos", "go nodes 3000")
	s.Expect("bestmove ")
	s.Send("go movetime 100")
	s.Expect("bestmove ")
	s.Send("go wtime 500 btime 500 winc 10 binc 10 movestogo 20")
	s.Expect("bestmove ")
	s.Send("go depth 3 searchmoves a2a3 h2h3")
	best, _ := s.Expect("bestmove ")
	require.Contains(t, []string{"a2a3", "h2h3"}, strings.Fields(best)[1])
	s.Send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go mate 1")
	best, infos := s.Expect("bestmove ")
	require.Equal(t, "a1a8", strings.Fields(best)[1])
	require.Contains(t, infos[len(infos)-1], "score mate 1")
	s.Send("setoption name MultiPV value 3", "position startpos", "go depth 3")
	_, infos = s.Expect("bestmove ")
	require.Contains(t, strings.Join(infos, "\n"), " multipv 3 ")
	s.Send("setoption name MultiPV value 1")
	s.Send("position startpos", "go perft 3")
	nodes, lines := s.Expect("Nodes searched: ")
	require.Equal(t, "Nodes searched: 8902", nodes)
	require.Contains(t, lines, "e2e4: 600")
	// A game already over: a null bestmove after the reason.
	s.Send("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "go depth 3")
	best, infos = s.Expect("bestmove ")
	require.Equal(t, "bestmove 0000", best)
	require.Equal(t, "info depth 0 score mate 0", infos[len(infos)-1])
	s.quiet()
}

func TestBadInput(t *testing.T) {
	s := start(t, uci.Config{})
	// go before any position searches the start position.
	s.Send("go depth 1")
	best, before := s.Expect("bestmove")
	require.Regexp(t, `^bestmove [a-h][1-8][a-h][1-8]`, best)
	for _, l := range before {
		require.NotContains(t, l, "error", l)
	}
	s.Send("position startpos moves e2e4")
	for cmd, want := range map[string]string{
		"xyzzy":                        `unknown command "xyzzy"`,
		"position":                     "position needs startpos or fen",
		"position fen":                 "position fen needs a FEN",
		"position somewhere":           `want startpos, fen or sfen, got "somewhere"`,
		"position startpos moves e2e5": `move 1 (e2e5)`,
		"position startpos e2e4":       `unexpected "e2e4"`,
		"position fen 8/8/8/8/8/8/8/8/8/8 w - - 0 1":     "board has 10 ranks, variant chess has 8",
		"position fen rnbqkbnr/pppppppp w":               "board has 2 ranks",
		"setoption":                                      "want setoption name NAME",
		"setoption name Hash value 0":                    "option Hash: \"0\" is not a number from 1 to",
		"setoption name Hash value lots":                 "option Hash",
		"setoption name Bogus value 1":                   `unknown option "Bogus"`,
		"setoption name UCI_Variant value nosuchvariant": `unknown variant "nosuchvariant"`,
		"setoption name Ponder value maybe":              "option Ponder",
		"setoption name VariantPath value /nonexistent":  "option VariantPath",
	} {
		s.Send(cmd)
		line, before := s.Expect("info string error: ")
		require.Empty(t, before, cmd)
		require.Contains(t, line, want, cmd)
	}
	// None of that changed the position: e2e4 was played.
	s.Send("d")
	fen, _ := s.Expect("Fen: ")
	require.Equal(t, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", fen)
	for cmd, want := range map[string]string{
		"go depth":         "go depth needs a value",
		"go depth x":       `go depth: "x" is not a number`,
		"go depth 0":       "must be at least 1",
		"go depth -5":      "must be at least 1",
		"go movetime -100": "must be at least 1",
		"go sideways":      `unknown parameter "sideways"`,
		"go searchmoves":   "no legal move given",
		"go wtime":         "go wtime needs a value",
		"go movestogo -x1": "not a number",
	} {
		s.Send(cmd)
		line, _ := s.Expect("info string error: ")
		require.Contains(t, line, want, cmd)
		best, _ := s.Expect("bestmove")
		require.Equal(t, "bestmove 0000", best, cmd)
	}
	s.quiet()
}

// TestDisplay: d writes the Fen and Checkers lines scripts parse, as
// Stockfish and Fairy-Stockfish do.
func TestDisplay(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("position fen 4k3/8/8/1B6/8/8/4R3/4K3 b - - 0 1", "d")
	fen, _ := s.Expect("Fen: ")
	require.Equal(t, "Fen: 4k3/8/8/1B6/8/8/4R3/4K3 b - - 0 1", fen)
	checkers, _ := s.Expect("Checkers:")
	require.Equal(t, "Checkers: e2 b5", checkers)
	s.Send("position startpos", "d")
	checkers, _ = s.Expect("Checkers:")
	require.Equal(t, "Checkers: ", checkers)
}

// TestOverlongLine: a line of any length is survived with one short
// error (not echoing it), and the commands after it are read.
func TestOverlongLine(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send(strings.Repeat("position startpos moves ", 100000)) // 2.4 MB
	line, _ := s.Expect("info string error: ")
	require.Equal(t, "info string error: line longer than 1 MiB ignored", line)
	s.quiet()
}

// TestPipedGoes: gos piped without waiting are answered once each, in
// order; a second go during an infinite search stops it and runs.
func TestPipedGoes(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("position startpos", "go depth 3", "go depth 2", "position startpos moves e2e4", "go depth 1 searchmoves e7e5")
	s.Expect("bestmove ")
	s.Expect("bestmove ")
	best, _ := s.Expect("bestmove ")
	require.Equal(t, "bestmove e7e5", strings.Fields(best)[0]+" "+strings.Fields(best)[1])
	s.quietExceptInfo()
	s.Send("go infinite", "go depth 1")
	s.Expect("bestmove ")
	s.Expect("bestmove ")
	s.quietExceptInfo()
}

func TestVariants(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("setoption name UCI_Variant value grand", "position startpos moves a3a5 a8a6", "d")
	fen, _ := s.Expect("Fen: ")
	require.Equal(t, "Fen: r8r/1nbqkcabn1/1ppppppppp/10/p9/P9/10/1PPPPPPPPP/1NBQKCABN1/R8R w - - 0 2", fen)
	s.Send("position fen 4k5/10/10/10/10/10/10/10/10/R3K5 w - - 0 1 moves a1a10", "d")
	fen, _ = s.Expect("Fen: ")
	require.Contains(t, fen, "R3k5/")
	s.Send("position startpos", "go depth 2")
	best, _ := s.Expect("bestmove ")
	require.Regexp(t, `^bestmove [a-j]\d+[a-j]\d+`, best)

	// The wrong board size for the variant.
	s.Send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	line, _ := s.Expect("info string error: ")
	require.Contains(t, line, "board has 8 ranks, variant grand has 10")

	// Capablanca: castling as e1g1-style king moves, promotion letters.
	s.Send("setoption name UCI_Variant value capablanca",
		"position fen 4k5/P9/10/10/10/10/10/R4K3R w K - 0 1 moves a7a8c e8d7 f1i1", "d")
	fen, _ = s.Expect("Fen: ")
	require.Equal(t, "Fen: C9/3k6/10/10/10/10/10/R6RK1 b - - 2 2", fen)

	// A user variant file joins the variant list.
	path := filepath.Join(t.TempDir(), "mine.ini")
	require.NoError(t, os.WriteFile(path, []byte("[mycap:capablanca]\n"), 0o644))
	s.Send("setoption name VariantPath value " + path)
	s.Expect("info string loaded 1 new variant(s)")
	s.Send("uci")
	combo, _ := s.Expect("option name UCI_Variant")
	require.Contains(t, combo, " var mycap")
	s.Expect("uciok")
	s.Send("setoption name UCI_Variant value mycap", "position startpos", "go perft 2")
	n, _ := s.Expect("Nodes searched: ")
	require.Equal(t, "Nodes searched: 784", n)

	// The user edits the file and loads it again: the new definition
	// replaces the old, also for the variant being played.
	require.NoError(t, os.WriteFile(path, []byte("[mycap:capablanca]\nstartFen = 4k5/10/10/10/10/10/10/4K5 w - - 0 1\n"), 0o644))
	s.Send("setoption name VariantPath value " + path)
	s.Expect("info string loaded 0 new variant(s)")
	s.Send("position startpos", "go perft 1")
	n, _ = s.Expect("Nodes searched: ")
	require.Equal(t, "Nodes searched: 5", n)
}

// TestQuitAndEOF: quit ends Run; so does the end of input.
func TestQuitAndEOF(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("position startpos", "go infinite", "quit")
	s.Expect("bestmove ")
	require.NoError(t, s.Wait(), "quit ends the session")
}

// TestEndOfInputFinishesTheSearch: a script that pipes a go with a
// limit and closes its input gets the search it asked for (the end of
// input used to stop it at once: depth 5 of 12), then the engine quits;
// a go infinite is stopped.
func TestEndOfInputFinishesTheSearch(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("position startpos", "go depth 7")
	s.CloseInput()
	_, infos := s.Expect("bestmove ")
	require.Contains(t, lastSearchReport(infos), "info depth 7 ")
	require.NoError(t, s.Wait(), "then it quits")

	// A bare go has no limit either: it is stopped, not waited for.
	s = start(t, uci.Config{})
	s.Send("position startpos", "go")
	s.CloseInput()
	s.Expect("bestmove ")
	require.NoError(t, s.Wait())

	s = start(t, uci.Config{})
	s.Send("position startpos", "go infinite")
	s.CloseInput()
	s.Expect("bestmove ")
	require.NoError(t, s.Wait())
}

// TestLastWordBeforeBestmove: a search ended by a node limit or a stop
// reports once more, with the nodes it spent in all, before bestmove (the
// last line used to be the last completed iteration's, 9,077 nodes of a
// 20,000-node search).
func TestLastWordBeforeBestmove(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("position startpos", "go nodes 20000")
	_, infos := s.Expect("bestmove ")
	require.GreaterOrEqual(t, reportedNodes(t, lastSearchReport(infos)), 20000)
	s.Send("go infinite")
	s.Expect("info depth 4 ")
	s.Send("stop")
	_, infos = s.Expect("bestmove ")
	last := lastSearchReport(infos)
	require.NotEmpty(t, last)
	require.Equal(t, infos[len(infos)-1], last, "the report comes last")
	s.quiet()
}

// reportedNodes reads an info line's node count.
func reportedNodes(t *testing.T, info string) int {
	t.Helper()
	m := regexp.MustCompile(` nodes (\d+) `).FindStringSubmatch(info)
	require.NotNil(t, m, info)
	n, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	return n
}

// TestCurrMove: once a search has run three seconds, the root move being
// searched is reported (currmove, currmovenumber), as GUIs show it.
func TestCurrMove(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("position startpos", "go infinite")
	line, _ := s.Expect("info depth")
	for !strings.Contains(line, " currmove ") {
		line, _ = s.Expect("info depth")
	}
	require.Regexp(t, `^info depth \d+ currmove [a-h][1-8][a-h][1-8] currmovenumber \d+$`, line)
	s.Send("stop")
	s.Expect("bestmove ")
}

// TestNodesTime: with nodestime the clock counts nodes, so a search on a
// clock is the same however busy the machine: the same nodes and move
// twice over, within the soft budget's nodes.
func TestNodesTime(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("setoption name nodestime value 50", "setoption name Move Overhead value 0")
	var first string
	for range 2 {
		s.Send("ucinewgame", "position startpos moves e2e4", "go wtime 20000 btime 20000")
		best, infos := s.Expect("bestmove ")
		last := lastSearchReport(infos)
		nodes := reportedNodes(t, last)
		// 20 s less 5%, over 50 moves: 380 ms, 19,000 nodes.
		require.InDelta(t, 19000, nodes, 2000, last)
		if first == "" {
			first = best + " " + strconv.Itoa(nodes)
		} else {
			require.Equal(t, first, best+" "+strconv.Itoa(nodes), "the same search twice")
		}
	}
}

// TestNodesTimeAfterPonderhit: with nodestime a ponder search, once its
// move is played, spends the move's budget in nodes, not in wall time:
// with 1 node a millisecond and 100 minutes on the clock, about 114,000
// nodes where a timer would search for 114 seconds.
func TestNodesTimeAfterPonderhit(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("setoption name nodestime value 1", "setoption name Move Overhead value 0", "setoption name Ponder value true")
	s.Send("position startpos moves e2e4", "go ponder wtime 6000000 btime 6000000")
	s.Expect("info depth 1 ")
	s.Send("ponderhit")
	_, infos := s.Expect("bestmove ")
	last := lastSearchReport(infos)
	nodes := reportedNodes(t, last)
	require.Less(t, nodes, 1000000, "the budget was spent in wall time: %s", last)
	require.GreaterOrEqual(t, nodes, 100000, "less than the move's budget: %s", last)
}

// TestDebugLogFile: the Debug Log File option appends the conversation to
// a file, what was read and what was written; a file that cannot be
// opened is an error and the engine carries on.
func TestDebugLogFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "debug.log")
	s := start(t, uci.Config{})
	s.Send("setoption name Debug Log File value "+path, "isready")
	s.Expect("readyok")
	s.Send("setoption name Debug Log File value <empty>", "isready")
	s.Expect("readyok")
	s.Send("isready")
	s.Expect("readyok")
	log, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, ">> isready\n<< readyok\n>> setoption name Debug Log File value <empty>\n", string(log),
		"from the option on to the option off")

	s.Send("setoption name Debug Log File value " + filepath.Join(path, "no", "such", "dir"))
	line, _ := s.Expect("info string error")
	require.Contains(t, line, "Debug Log File")
	s.Send("isready")
	s.Expect("readyok")
}

// instantEngine answers at once with the first legal move: for fuzzing the
// protocol without searching.
type instantEngine struct{ mu sync.Mutex }

func (e *instantEngine) Search(_ context.Context, pos *engine.Position, l search.Limits, _ func(search.Info)) search.Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	moves := pos.LegalMoves(nil)
	if len(moves) == 0 {
		return search.Result{}
	}
	return search.Result{Best: moves[0]}
}
func (*instantEngine) Clear()                                             {}
func (*instantEngine) SetHash(int)                                        {}
func (*instantEngine) SetMoveOverhead(time.Duration)                      {}
func (*instantEngine) SetProber(search.Prober)                            {}
func (*instantEngine) SetResultProber(search.ResultProber)                {}
func (*instantEngine) SetEvaluation(func(*engine.Variant) eval.Evaluator) {}
func (*instantEngine) SetThreads(int)                                     {}

// FuzzCommands: no input line crashes the server or stops it answering.
func FuzzCommands(f *testing.F) {
	for _, seed := range []string{"position startpos moves e2e4", "go depth 3", "setoption name Hash value 32",
		"position fen 8/8/8/8/8/8/8/K6k w - - 0 1", "go wtime 100 btime 100 searchmoves e2e4", "go perft 2",
		"setoption name UCI_Variant value capablanca", "position startpos moves a2a4 j7j5", "stop", "ponderhit",
		"go ponder", "d", "ucinewgame", "position fen"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") || strings.HasPrefix(strings.TrimSpace(line), "quit") {
			return
		}
		if strings.Contains(line, "perft") || strings.Contains(line, "VariantPath") {
			return // slow or touches files: covered by the other tests
		}
		var out syncBuffer
		server := uci.NewServer(&out, uci.Config{Config: enginesession.Config{Searcher: &instantEngine{}, TablebaseDir: os.TempDir()}})
		in := strings.NewReader("position startpos\n" + line + "\nstop\nisready\n")
		require.NoError(t, server.Run(in))
		require.Contains(t, out.String(), "readyok")
	})
}

// syncBuffer is a goroutine-safe output buffer.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// builtTables returns a directory holding chess's tables of the
// materials, built first: the search never waits for a generation.
func builtTables(t *testing.T, materials ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range materials {
		m, err := tablebase.ParseMaterial(variants.Chess(), name)
		require.NoError(t, err)
		_, err = gen.NewStore(dir).Build(variants.Chess(), m, tablebase.Hooks{})
		require.NoError(t, err)
	}
	return dir
}

func TestTablebaseOverUCI(t *testing.T) {
	dir := builtTables(t, "KRvK")
	s := start(t, uci.Config{Config: enginesession.Config{TablebaseDir: dir}})
	// KRvK is quick to build even under the race detector; KBNvK is
	// tested in the tablebase package.
	s.Send("position fen 7k/8/8/8/8/8/8/R5K1 w - - 0 1", "go depth 10")
	_, infos := s.Expect("bestmove ")
	last := infos[len(infos)-1]
	require.Contains(t, last, "score mate 10")
	require.NotContains(t, last, "tbhits 0")

	s.Send("setoption name UseTablebase value false", "position fen 7k/8/8/8/8/8/8/R5K1 w - - 0 1", "go depth 3")
	_, infos = s.Expect("bestmove ")
	require.Contains(t, infos[len(infos)-1], "tbhits 0")
	s.Send("setoption name UseTablebase value perhaps")
	line, _ := s.Expect("info string error:")
	require.Contains(t, line, "UseTablebase")
	s.Send("setoption name TablebaseDir value "+t.TempDir(), "setoption name UseTablebase value true")
	s.quiet()
}

// TestChess960 plays Chess960 as GUIs drive it: UCI_Chess960, a start
// array in Shredder-FEN, castling sent and answered as the king taking
// its own rook.
func TestChess960(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("uci")
	_, lines := s.Expect("uciok")
	require.Contains(t, strings.Join(lines, "\n"), "option name UCI_Chess960 type check default false")
	s.Send("setoption name UCI_Chess960 value true", "isready")
	s.Expect("readyok")
	// The king on e1 castles queenside with its b1 rook: king to c1,
	// rook to d1, written e1b1 both ways.
	s.Send("position fen 3k4/R7/8/8/8/8/8/1R2K3 w B - 0 1", "go depth 3 searchmoves e1b1")
	best, _ := s.Expect("bestmove ")
	require.Equal(t, "e1b1", strings.Fields(best)[1])
	s.Send("position fen 3k4/R7/8/8/8/8/8/1R2K3 w B - 0 1 moves e1b1", "d")
	fen, _ := s.Expect("Fen: ")
	require.Equal(t, "Fen: 3k4/R7/8/8/8/8/8/2KR4 b - - 1 1", fen)
	s.Expect("Checkers:")
	// Standard castling in the start array reads in both forms.
	for _, castle := range []string{"e1h1", "e1g1"} {
		s.Send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 "+castle, "d")
		fen, _ := s.Expect("Fen: ")
		require.Equal(t, "Fen: r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4", fen)
		s.Expect("Checkers:")
	}
	s.quiet()
}

// TestInterruptedIterationInfo: when a node limit stops an iteration
// after it found a better move (or stops the first iteration), the last
// info line names that move's line, marked lowerbound, and the bestmove
// is its first move. Somewhere in the range the mating sacrifice of this
// mate in 2 is found in the middle of an iteration.
func TestInterruptedIterationInfo(t *testing.T) {
	s := start(t, uci.Config{})
	// No tables: each ucinewgame would have the idle builder start on
	// KBNvK again, a third of this test's work and none of its subject.
	s.Send("setoption name TablebaseBuild value 0")
	// Under -short every twentieth node limit, not every tenth: the
	// mate is found mid-iteration over some sixty nodes (1070 to 1130
	// now), so several limits still fall there.
	step := 10
	if testing.Short() {
		step = 20
	}
	bounded, mates := 0, 0
	for nodes := 100; nodes <= 1500; nodes += step {
		s.Send("ucinewgame", "position fen r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
			"go nodes "+strconv.Itoa(nodes))
		best, infos := s.Expect("bestmove ")
		for i, info := range infos {
			if !strings.Contains(info, " lowerbound ") {
				continue
			}
			bounded++
			require.Equal(t, len(infos)-1, i, "the bound comes last: %q", infos)
			pv := strings.Fields(info[strings.Index(info, " pv ")+4:])
			require.Equal(t, strings.Fields(best)[1], pv[0], info)
			if strings.Contains(info, " score mate 2 lowerbound ") && i > 0 && !strings.Contains(infos[i-1], " mate ") {
				mates++
			}
		}
	}
	require.Positive(t, bounded, "no node limit stopped an iteration after a better move")
	require.Positive(t, mates, "the mate was never played from an unfinished iteration")
	s.quiet()
}

// lastSearchReport returns the last "info depth" line of infos.
func lastSearchReport(infos []string) string {
	var last string
	for _, l := range infos {
		if strings.HasPrefix(l, "info depth") {
			last = l
		}
	}
	return last
}

// TestTablesOnDiskWithoutBuilding: with TablebaseBuild 0 the engine
// builds nothing but still reads the table files there are for its
// search's tree: from KRvKN, whose own table is missing, the captures of
// the knight are valued by KRvK's file (tbhits), as with building on.
func TestTablesOnDiskWithoutBuilding(t *testing.T) {
	dir := t.TempDir()
	tbtest.BuildIn(t, dir, variants.Chess(), "KRvK")
	s := start(t, uci.Config{Config: enginesession.Config{TablebaseDir: dir}})
	s.Send("setoption name TablebaseBuild value 0", "position fen 8/8/8/3n4/4k3/8/8/R3K3 w - - 0 1", "go depth 6")
	s.Expect("bestmove ")
	// The file is opened in the idle time after a search, and inside the
	// tree a block is only used once decoded in the background: the
	// searches after see the tables, however busy the machine is.
	tbhits := regexp.MustCompile(`tbhits [1-9]`)
	hits := false
	for try := 0; try < 500 && !hits; try++ {
		s.Send("go depth 6")
		_, infos := s.Expect("bestmove ")
		hits = tbhits.MatchString(lastSearchReport(infos))
	}
	require.True(t, hits, "no search used KRvK's file")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "nothing built")
	s.quiet()
}

// TestReadingFirstSaysReading: a search that waits for its position's
// table says it is reading the file, not building the table ("building
// chess KBNvK first (about 0.1 s)" with the file there). The table may
// be read in the background before the search asks: fresh engines are
// tried until one waits.
func TestReadingFirstSaysReading(t *testing.T) {
	dir := t.TempDir()
	tbtest.BuildIn(t, dir, variants.Chess(), "KRvK")
	waited := false
	for try := 0; try < 50 && !waited; try++ {
		s := start(t, uci.Config{Config: enginesession.Config{TablebaseDir: dir}})
		s.Send("position fen 8/8/8/3k4/8/8/8/R3K3 w - - 0 1", "go depth 1")
		_, lines := s.Expect("bestmove ")
		for _, l := range lines {
			if strings.Contains(l, " first (about") {
				require.Contains(t, l, "info string tablebase: reading chess KRvK first", "the file is read")
				waited = true
			}
		}
		s.quiet()
	}
	require.True(t, waited, "no search waited for the table")
}

// TestRedefinedVariantTablesOverUCI: a table made for a user's variant
// is not used once the variant is redefined: neither by an engine started
// after the file was edited nor after VariantPath loads it again. The
// engine used to read the stale KAvK table (A a rook then, a knight now)
// and announce "score mate 14" with "tbhits 1".
func TestRedefinedVariantTablesOverUCI(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(t.TempDir(), "custom.ini")
	write := func(betza string) {
		require.NoError(t, os.WriteFile(file, []byte("[custom:chess]\ncustomPiece1 = a:"+betza+"\n"), 0o644))
	}
	write("R")
	cat := variants.Builtin()
	require.NoError(t, cat.LoadFile(file))
	v, err := cat.Lookup("custom")
	require.NoError(t, err)
	m, err := tablebase.ParseMaterial(v, "KAvK")
	require.NoError(t, err)
	_, err = gen.NewStore(dir).Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)

	const position = "position fen 8/8/8/8/4k3/8/8/A3K3 w - - 0 1"
	setup := []string{"setoption name TablebaseBuild value 0", "setoption name VariantPath value " + file,
		"setoption name UCI_Variant value custom", position, "go depth 4"}
	s := start(t, uci.Config{Config: enginesession.Config{TablebaseDir: dir}})
	s.Send(setup...)
	_, infos := s.Expect("bestmove ")
	require.Contains(t, infos[len(infos)-1], "score mate", "the rook's table, for the rook")
	require.NotContains(t, infos[len(infos)-1], "tbhits 0")

	write("N")
	requireNoTable := func(infos []string) {
		t.Helper()
		// The search's last report (the builder may have said why it
		// did not read the table, in an info string, after it).
		last := lastSearchReport(infos)
		require.NotContains(t, last, "score mate", "a knight cannot mate")
		require.Contains(t, last, "tbhits 0", "the stale table is not used")
	}
	s.Send("setoption name VariantPath value "+file, position, "go depth 4")
	_, infos = s.Expect("bestmove ")
	requireNoTable(infos)
	s.quiet()

	fresh := start(t, uci.Config{Config: enginesession.Config{TablebaseDir: dir}})
	fresh.Send(setup...)
	_, infos = fresh.Expect("bestmove ")
	requireNoTable(infos)
	fresh.quiet()
}

// TestShowWDL: with UCI_ShowWDL every line with a score gives wdl W D L
// after it, summing to 1000 and leaning the score's way; a mate is
// certain, and a table's draw is a certain draw whatever the score.
func TestShowWDL(t *testing.T) {
	dir := builtTables(t, "KNvK")
	s := start(t, uci.Config{Config: enginesession.Config{TablebaseDir: dir}})
	s.Send("position startpos", "go depth 3")
	_, infos := s.Expect("bestmove ")
	require.NotContains(t, strings.Join(infos, "\n"), " wdl ", "off by default")

	wdlOf := regexp.MustCompile(`score (cp|mate) (-?\d+) wdl (\d+) (\d+) (\d+) `)
	check := func(fen, want string) {
		t.Helper()
		s.Send("position fen "+fen, "go depth 4")
		_, infos := s.Expect("bestmove ")
		scored := 0
		for _, l := range infos {
			if !strings.Contains(l, " score ") {
				continue
			}
			f := wdlOf.FindStringSubmatch(l)
			require.NotNil(t, f, l)
			w, _ := strconv.Atoi(f[3])
			d, _ := strconv.Atoi(f[4])
			loss, _ := strconv.Atoi(f[5])
			require.Equal(t, 1000, w+d+loss, l)
			switch want {
			case "win":
				require.Greater(t, w, loss, l)
			case "mate":
				require.Equal(t, "mate", f[1], l)
				require.Equal(t, 1000, w, l)
			case "draw":
				require.Equal(t, 1000, d, l)
			}
			scored++
		}
		require.Positive(t, scored)
	}
	s.Send("setoption name UCI_ShowWDL value true")
	check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 b Qkq - 0 1", "") // a rook down, Black to move
	check("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "win")
	check("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1", "mate")
	check("8/8/8/4k3/8/8/3NK3/8 w - - 0 1", "draw")
}

// TestAnalyseMode: with UCI_AnalyseMode a table at the root does not cut
// the search to one line, one legal move on a clock is still searched,
// and MultiPV's lines are all there at the end of go infinite.
func TestAnalyseMode(t *testing.T) {
	dir := builtTables(t, "KRvK")
	s := start(t, uci.Config{Config: enginesession.Config{TablebaseDir: dir}})
	krk := "position fen 7k/8/8/8/8/8/8/R5K1 w - - 0 1"
	s.Send(krk, "setoption name MultiPV value 3", "go depth 5")
	_, infos := s.Expect("bestmove ")
	require.Contains(t, infos[len(infos)-1], "info depth 1 ", "in a game the table answers at once: %q", infos)

	// UCCI's probe: what a table knows, without a search.
	s.Send("probe fen 7k/8/8/8/8/8/8/R5K1 w - - 0 1")
	line, _ := s.Expect("pophash")
	require.Equal(t, "pophash bestmove a1f1 lowerbound 31981 depth 255 upperbound 31981 depth 255", line)
	s.Send("probe startpos")
	line, _ = s.Expect("pophash")
	require.Equal(t, "pophash", line)

	s.Send("setoption name UCI_AnalyseMode value true", krk, "go depth 5")
	_, infos = s.Expect("bestmove ")
	last := infos[len(infos)-3:]
	for i, l := range last {
		require.Contains(t, l, "info depth 5 ", l)
		require.Contains(t, l, fmt.Sprintf(" multipv %d ", i+1), l)
	}

	// One legal move (Ka2): played at once in a game, searched in an
	// analysis.
	one := "position fen 1r6/8/8/8/8/7p/2k4P/K7 w - - 0 1"
	s.Send("setoption name MultiPV value 1", "setoption name UCI_AnalyseMode value false", one, "go wtime 10000 btime 10000")
	_, infos = s.Expect("bestmove ")
	require.Contains(t, infos[len(infos)-1], "info depth 1 ", "one legal move on a clock: played at once: %q", infos)
	s.Send("setoption name UCI_AnalyseMode value true", one, "go wtime 10000 btime 10000 depth 4")
	_, infos = s.Expect("bestmove ")
	require.Contains(t, infos[len(infos)-1], "info depth 4 ")

	// go infinite with three lines: the last word before bestmove is
	// three lines, numbered.
	s.Send("setoption name MultiPV value 3", "position startpos", "go infinite")
	s.Expect("info depth 3 ")
	s.Send("stop")
	_, infos = s.Expect("bestmove ")
	last = infos[len(infos)-3:]
	for i, l := range last {
		require.Contains(t, l, fmt.Sprintf(" multipv %d ", i+1), l)
	}
}
