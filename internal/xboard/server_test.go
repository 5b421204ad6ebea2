package xboard_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	enginesession "github.com/chimera-chess/chimera/internal/session"
	"github.com/chimera-chess/chimera/internal/testkit/pipetest"
	"github.com/chimera-chess/chimera/internal/xboard"
	"github.com/chimera-chess/chimera/variants"
)

// session drives a server through pipes, as XBoard would.
type session struct {
	*pipetest.Conn
	t *testing.T
}

// start runs a server and reads its features.
func start(t *testing.T) *session {
	t.Helper()
	s := connect(t)
	s.Send("xboard", "protover 2")
	s.Expect("feature done=1")
	return s
}

// connect runs a server, before any command.
func connect(t *testing.T) *session {
	t.Helper()
	dir := t.TempDir()
	serve := func(in io.Reader, out io.Writer) error {
		return xboard.NewServer(out, xboard.Config{Name: "Chimera test", Config: enginesession.Config{TablebaseDir: dir}}).Run(in)
	}
	// Notes for people (a table being built) come at any time.
	skip := func(l string) bool { return strings.HasPrefix(l, "# ") }
	return &session{Conn: pipetest.Start(t, serve, skip), t: t}
}

// quiet asserts that nothing but thinking output was printed since the
// last expectation (ping goes through the same command loop).
func (s *session) quiet(n string) {
	s.t.Helper()
	s.Send("ping " + n)
	_, before := s.Expect("pong " + n)
	for _, l := range before {
		require.Regexp(s.t, `^\d+ -?\d+ \d+ \d+`, l, "only thinking output")
	}
}

func TestFeatures(t *testing.T) {
	s := connect(t)
	s.Send("xboard", "protover 2")
	features, before := s.Expect("feature ")
	require.Empty(t, before)
	for _, want := range []string{"feature ", "ping=1", "setboard=1", "usermove=1", "playother=1", "san=0", "analyze=1",
		"colors=0", "sigint=0", "sigterm=0", "reuse=1", "memory=1", "smp=1", `myname="Chimera test"`,
		`option="Hash -spin 16 1 `, `option="Ponder -check 0"`, `option="Clear Hash -button"`,
		`option="UCI_Variant -combo *chess /// `, `option="VariantPath -string "`, `option="TablebaseBuild -spin 4 0 5"`} {
		require.Contains(t, features, want)
	}
	variantsList := features[strings.Index(features, `variants="`)+10:]
	variantsList = variantsList[:strings.Index(variantsList, `"`)]
	names := strings.Split(variantsList, ",")
	require.Len(t, names, len(variants.Names())-1, "chess and normal are one entry")
	for _, want := range []string{"normal", "capablanca", "gothic", "janus", "knightmate", "berolina", "atomic",
		"losers", "suicide", "giveaway", "3check", "twokings", "kingofthehill", "shatranj", "grand"} {
		require.Contains(t, names, want)
	}
	done, _ := s.Expect("feature ")
	require.Equal(t, "feature done=1", done)
}

func TestPlayAGame(t *testing.T) {
	s := start(t)
	s.Send("new", "level 40 0:05 0", "post", "usermove e2e4") // 5 s for 40 moves: quick moves
	move, thinking := s.Expect("move ")
	require.NotEmpty(t, thinking, "post prints thinking output")
	require.Regexp(t, `^\d+ -?\d+ \d+ \d+ [a-h][1-8]`, thinking[0])
	require.Regexp(t, `^move [a-h][1-8][a-h][1-8]$`, move)
	s.quiet("1")

	// Force mode: moves are taken, not answered; go plays the side to move.
	s.Send("force", "usermove g1f3") // legal whatever Black replied
	s.quiet("2")
	s.Send("go")
	move, _ = s.Expect("move ")
	require.Regexp(t, `^move [a-h][1-8][a-h][1-8]$`, move)

	// Illegal and unknown input leaves the game as it was.
	s.Send("usermove e2e5", "xyzzy")
	line, _ := s.Expect("Illegal move")
	require.Equal(t, "Illegal move: e2e5", line)
	line, _ = s.Expect("Error")
	require.Equal(t, "Error (unknown command): xyzzy", line)
	s.quiet("3")
}

// TestPingWaitsForTheMove: a ping sent while the engine thinks on its
// move is answered after the move, one sent when it does not at once. The
// search is four plies deep (sd 4), not a second long (st 1): the ping
// comes in the same write as the move, microseconds after the search
// starts (a ping answered at once still fails the test every time), and
// the second of thinking was the test's whole time.
func TestPingWaitsForTheMove(t *testing.T) {
	s := start(t)
	s.Send("new", "sd 4", "usermove e2e4", "ping 7")
	_, before := s.Expect("pong 7")
	require.True(t, strings.HasPrefix(before[len(before)-1], "move "), "pong after the move: %q", before)
	s.Send("force", "?", "ping 8") // nothing to stop: pong at once
	s.Expect("pong 8")
}

// TestUserMoveWhileThinking: a move sent while the engine thinks on its
// own move, as a script that does not wait sends it, takes the turn: the
// search is abandoned, its move never played over the user's (which
// once crashed the engine). The replies to e2e4 are searched one ply
// deep (sd 1): they are not what is tested, and took a second each; the
// search abandoned has its second (st 1, sd 100).
func TestUserMoveWhileThinking(t *testing.T) {
	s := start(t)
	s.Send("new", "variant capablanca", "st 1", "sd 1", "usermove e2e4", "sd 100", "go", "usermove d2d4", "force", "ping 3")
	_, before := s.Expect("pong 3")
	moves := 0
	for _, l := range before {
		require.False(t, strings.HasPrefix(l, "Illegal"), "%q", before)
		if strings.HasPrefix(l, "move ") {
			moves++
		}
	}
	require.Equal(t, 1, moves, "Black's reply to e2e4 only, not the abandoned search's: %q", before)
	s.Send("new", "sd 1", "usermove e2e4", "ping 4")
	_, before = s.Expect("pong 4")
	require.True(t, strings.HasPrefix(before[len(before)-1], "move "), "still playing: %q", before)
}

func TestMoveNowAndUndo(t *testing.T) {
	s := start(t)
	s.Send("new", "force", "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"level 0 60 0", "time 600000", "otim 600000", "go")
	s.Send("?")
	s.Expect("move ")
	// One ply played; undo takes it back, and the engine plays again.
	s.Send("force", "undo", "go")
	s.Send("?")
	move, _ := s.Expect("move ")
	s.Send("force", "usermove a7a6", "remove") // two plies back: the start again
	s.quiet("1")
	s.Send("undo") // more than the game has: an error, nothing lost
	s.Expect("Error (command not legal now): undo")
	s.Send("go", "?")
	again, _ := s.Expect("move ")
	require.Regexp(t, `^move [a-h][1-8][a-h][1-8]$`, again)
	_ = move
}

func TestSetboardErrors(t *testing.T) {
	s := start(t)
	s.Send("new", "force", "setboard 8/8/8/8/8/8/8/4K3 w - - 0 1")
	line, _ := s.Expect("tellusererror")
	require.Contains(t, line, "Illegal position")
	require.Contains(t, line, "black has no king")
	s.Send("sd 0")
	s.Expect("Error (want a depth of at least 1): sd 0")
	s.Send("level 40 x 0")
	s.Expect("Error (base time")
	s.quiet("1")
}

// TestMateAndResult: the engine mates, its thinking scores the mate as
// XBoard reads it (100000 + moves), and it claims the result.
func TestMateAndResult(t *testing.T) {
	s := start(t)
	s.Send("new", "force", "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "post", "sd 3", "go")
	move, thinking := s.Expect("move ")
	require.Equal(t, "move a1a8", move)
	last := strings.Fields(thinking[len(thinking)-1])
	require.Equal(t, "100001", last[1], "mate in 1 is 100000 + 1")
	result, _ := s.Expect("1-0")
	require.Contains(t, result, "{")
	s.Send("result 1-0 {White mates}")
	s.quiet("1")
}

// TestEndOfInputFinishesTheSearch: a script that pipes "sd 7" and "go"
// and closes its input gets the depth-7 move (the end of input used to
// stop the search at once), then the engine quits.
func TestEndOfInputFinishesTheSearch(t *testing.T) {
	s := start(t)
	s.Send("new", "post", "sd 7", "go")
	s.CloseInput()
	_, thinking := s.Expect("move ")
	require.NotEmpty(t, thinking)
	require.Regexp(t, `^7 `, thinking[len(thinking)-1], "the last thought is seven plies deep")
	require.NoError(t, s.Wait())
}

func TestAnalyze(t *testing.T) {
	s := start(t)
	s.Send("new", "force", "post", "analyze")
	line, _ := s.Expect("1 ")
	require.Regexp(t, `^1 -?\d+ \d+ \d+ `, line)
	s.Send("usermove e2e4")
	s.Send("exit")
	s.quiet("1")
	// Analysis never makes a move.
	s.Send("ping 2")
	_, before := s.Expect("pong 2")
	for _, l := range before {
		require.False(t, strings.HasPrefix(l, "move "), l)
	}
}

func TestVariantSetup(t *testing.T) {
	s := start(t)
	// XBoard knows capablanca: no setup.
	s.Send("new", "variant capablanca")
	s.quiet("1")
	// It does not know reallybig: board, pieces and start position, then
	// the moves of every piece it has no standard one for.
	s.Send("new", "variant reallybig", "ping 2")
	setup, _ := s.Expect("setup ")
	require.Regexp(t, `^setup \(P[A-Z.]{20}K[a-z.]{22}\) 16x16\+0_fairy rnwcbdhqkefbcwnr/`, setup)
	_, pieces := s.Expect("pong 2")
	require.Contains(t, pieces, "piece W& FD")
	require.Contains(t, pieces, "piece P& fmWfceFifmW6")
	require.NotContains(t, pieces, "piece N& N", "standard pieces need no description")
	s.Send("sd 3", "usermove h2h4") // a shallow search: the move is what is tested
	s.Expect("move ")
	s.Send("variant nosuch")
	s.Expect("Error (unknown variant): nosuch")
}

func TestOptionsOverCECP(t *testing.T) {
	s := start(t)
	s.Send("memory 32", "cores 1", "option MultiPV=2", "option Clear Hash", "option Hash=0")
	line, _ := s.Expect("Error")
	require.Contains(t, line, `option Hash: "0" is not a number`)
	path := filepath.Join(t.TempDir(), "mine.ini")
	require.NoError(t, os.WriteFile(path, []byte("[mycap:capablanca]\n"), 0o644))
	s.Send("option VariantPath=" + path)
	line, _ = s.Expect("feature variants=")
	require.Contains(t, line, ",mycap")
	s.Send("new", "variant mycap")
	setup, _ := s.Expect("setup ")
	require.Contains(t, setup, "10x8+0_fairy")
}

// FuzzCommands: no line, however malformed, crashes the server or stops
// it answering.
func FuzzCommands(f *testing.F) {
	for _, seed := range []string{"usermove e2e4", "setboard x", "level 1 2", "time -5", "option =", "variant",
		"undo", "st -1", "sd 99999999999", "usermove e7e8q", "ping", "analyze", "playother", "?"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if f := strings.Fields(line); strings.ContainsAny(line, "\n\r") || (len(f) > 0 && f[0] == "quit") {
			return // one line only; quit ends the session by design
		}
		s := connect(t)
		s.Send("new", "force", line, "force", "ping 99")
		s.Expect("pong 99") // the server answers after the line
	})
}

// TestTenRankCoordinates: on boards of exactly ten ranks XBoard counts
// ranks from 0, in moves both ways and in thinking output.
func TestTenRankCoordinates(t *testing.T) {
	s := start(t)
	s.Send("new", "variant grand", "post", "force", "usermove b2b4", "ping 1") // grand: pawns on rank 3 (our b3)
	_, before := s.Expect("pong 1")
	require.Empty(t, before, "b2b4 is our b3b5, legal")
	s.Send("sd 2", "go")
	move, thinking := s.Expect("move ")
	require.Regexp(t, `^move [a-j][0-9][a-j][0-9][a-z]?$`, move)
	for _, l := range thinking {
		for _, m := range strings.Fields(l)[4:] {
			require.Regexp(t, `^[a-j][0-9][a-j][0-9][a-z]?$`, m, "XBoard's coordinates in %q", l)
		}
	}
}

// TestPonderAndDraw: with hard the engine thinks on the opponent's time
// (a ping is still answered at once) and answers the next move once; a
// draw offer is accepted when the engine stands badly, declined otherwise.
func TestPonderAndDraw(t *testing.T) {
	s := start(t)
	s.Send("new", "hard", "sd 3", "usermove e2e4")
	s.Expect("move ")
	s.quiet("1") // pondering now: pong at once
	s.Send("usermove g1f3")
	s.Expect("move ")
	s.Send("easy")
	s.quiet("2")
	s.Send("draw")
	s.quiet("3") // level at move 2: declined by silence

	// A queen down, Black to move and thinking it is lost: accepted.
	s.Send("new", "force", "setboard 4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1", "sd 3", "go")
	s.Expect("move ")
	s.Send("draw")
	s.Expect("offer draw")
}

// TestFischerRandom: XBoard's fischerandom is Chess960; castling comes and
// goes as O-O / O-O-O.
func TestFischerRandom(t *testing.T) {
	s := start(t)
	s.Send("new", "variant fischerandom", "force",
		"setboard 3k4/R7/8/8/8/8/8/1R2K3 w B - 0 1", "usermove O-O-O", "ping 1")
	s.quiet("1")
	// Black to move; the engine answers, then gets a castling position.
	s.Send("setboard 4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", "sd 2", "go")
	move, _ := s.Expect("move ")
	require.NotEmpty(t, move)
	s.Send("force", "setboard 4k3/pppppppp/8/8/8/8/8/5KR1 w G - 0 1", "sd 3", "go")
	move, _ = s.Expect("move ")
	require.Regexp(t, `^move (O-O|[a-h][1-8][a-h][1-8])$`, move)
}

// TestCrazyhouse: XBoard's crazyhouse keeps the hands itself; drops come
// and go as P@e4.
func TestCrazyhouse(t *testing.T) {
	s := start(t)
	s.Send("new", "variant crazyhouse", "force", "usermove e2e4", "usermove d7d5", "usermove e4d5",
		"usermove d8d5", "usermove P@e4", "ping 1")
	s.quiet("1")
	// A queen in hand mates on the back rank: a drop is the move.
	s.Send("force", "setboard 6k1/5ppp/8/8/8/8/8/K7[Q] w - - 0 1", "sd 2", "go")
	move, _ := s.Expect("move ")
	require.Regexp(t, `^move Q@[a-e]8$`, move)
}

// TestJanggiPass: over CECP a pass reads as pass or @@@@ and is written
// pass (as Fairy-Stockfish writes it); xiangqi's ten ranks are 0 to 9.
func TestJanggiPass(t *testing.T) {
	s := start(t)
	s.Send("new", "variant xiangqi", "force", "usermove h2e2", "usermove h7e7", "ping 1")
	_, before := s.Expect("pong 1")
	for _, l := range before {
		require.NotContains(t, l, "Illegal", "the cannons' moves h3e3 h8e8 in UCI's ranks")
	}
	s.Send("new", "variant janggi", "force", "usermove @@@@", "go")
	move, _ := s.Expect("move ")
	require.Equal(t, "move pass", move, "after White's pass, Black's pass wins on points")
}

// TestBadBytesEchoed: a command with control bytes or invalid UTF-8 is
// echoed escaped in its error line, and a long one is cut.
func TestBadBytesEchoed(t *testing.T) {
	s := start(t)
	s.Send("foo\x00bar\x01\xff")
	line, _ := s.Expect("Error (unknown command)")
	require.Equal(t, `Error (unknown command): foo\x00bar\x01\xff`, line)
	s.Send("usermove e2e9\x00")
	line, _ = s.Expect("Illegal move")
	require.Equal(t, `Illegal move: e2e9\x00`, line)
	s.Send("zz" + strings.Repeat("x", 5000))
	line, _ = s.Expect("Error (unknown command)")
	require.Less(t, len(line), 300)
	require.True(t, strings.HasSuffix(line, "…"))
	s.quiet("1")
}
