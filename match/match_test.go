package match_test

import (
	"bytes"
	"context"
	"flag"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/internal/uci"
	"github.com/chimera-chess/chimera/match"
	"github.com/chimera-chess/chimera/variants"
)

var (
	chimera string // the built engine
	tmp     string
)

// asEngine, set in a process's environment, makes this test binary the
// UCI engine (see TestMain).
const asEngine = "CHIMERA_MATCH_TEST_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(asEngine) == "1" {
		// The engine chimera's uci command serves, on its own session:
		// what the matches under -short play against.
		if err := uci.NewServer(os.Stdout, uci.Config{Name: "Chimera"}).Run(os.Stdin); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	flag.Parse() // for testing.Short
	var err error
	tmp, err = os.MkdirTemp("", "chimera-match")
	if err != nil {
		panic(err)
	}
	if testing.Short() {
		// The same engine code without a build of cmd/chimera (a link
		// of a second and a half each run, uncached): this binary, as
		// its children see asEngine set. The full run plays the binary
		// itself, CECP included.
		chimera = os.Args[0]
		os.Setenv(asEngine, "1")
	} else {
		chimera = filepath.Join(tmp, "chimera")
		if out, err := exec.Command("go", "build", "-o", chimera, "../cmd/chimera").CombinedOutput(); err != nil {
			panic("building chimera: " + err.Error() + "\n" + string(out))
		}
	}
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// fakeEngine writes a shell script that speaks just enough UCI and then
// misbehaves as told when asked to move.
func fakeEngine(t *testing.T, name, onGo string) match.EngineSpec {
	t.Helper()
	script := `#!/bin/sh
while read line; do
  case "$line" in
    uci) echo "id name ` + name + `"; echo "uciok";;
    isready) echo "readyok";;
    go*) ` + onGo + `;;
    quit) exit 0;;
  esac
done
`
	path := filepath.Join(t.TempDir(), name+".sh")
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return match.EngineSpec{Name: name, Command: []string{"/bin/sh", path}}
}

func self(name string) match.EngineSpec {
	spec := match.EngineSpec{Name: name, Command: []string{chimera},
		Options: map[string]string{"Hash": "8", "TablebaseDir": filepath.Join(tmp, "tablebases"),
			"Move Overhead": "150"}} // keep back time for a loaded machine
	if testing.Short() {
		// No tables built in its idle time: an engine whose opponent
		// hung spent the seconds of the wait building them, work no
		// short test looks at.
		spec.Options["TablebaseBuild"] = "0"
	}
	return spec
}

func tc(t *testing.T, s string) game.TimeControl {
	c, err := game.ParseTimeControl(s)
	require.NoError(t, err)
	return c
}

func TestSelfMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("clock games take half a minute; run without -short")
	}
	var pgn bytes.Buffer
	games := 0
	st, err := match.Run(context.Background(), match.Config{
		Variant: variants.Chess(), Engines: [2]match.EngineSpec{self("a"), self("b")},
		Games: 4, TC: tc(t, "1.5+0.1"), Concurrency: 2, PGN: &pgn, // a generous increment: CI loads both cores
		Openings: []string{variants.ChessFEN, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
		OnGame:   func(*game.Record, match.Standing) { games++ },
	})
	require.NoError(t, err)
	require.Equal(t, 4, st.Games)
	require.Equal(t, 4, games)
	// Time forfeits are left to the soak (README): on a loaded machine a
	// clock game may lose one, and no test may depend on timing.
	require.Zero(t, st.IllegalMoves+st.Crashes, "%+v", st)
	require.Equal(t, 4, strings.Count(pgn.String(), `[Variant "chess"]`))
	require.Equal(t, 2, strings.Count(pgn.String(), `[FEN "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]`))
}

func TestMisbehavingEngines(t *testing.T) {
	for _, tc2 := range []struct {
		name, onGo string
		check      func(match.Standing) int
	}{
		{"illegal", `echo "bestmove e2e5"`, func(s match.Standing) int { return s.IllegalMoves }},
		{"garbage", `echo "bestmove"`, func(s match.Standing) int { return s.IllegalMoves + s.Crashes + s.TimeForfeits }},
		{"crash", `exit 1`, func(s match.Standing) int { return s.Crashes }},
		{"hang", `sleep 30`, func(s match.Standing) int { return s.TimeForfeits }},
	} {
		t.Run(tc2.name, func(t *testing.T) {
			st, err := match.Run(context.Background(), match.Config{
				Variant: variants.Chess(), Engines: [2]match.EngineSpec{fakeEngine(t, tc2.name, tc2.onGo), self("chimera")},
				Games: 2, TC: tc(t, "0.5+0"), Margin: 200 * 1e6,
			})
			require.NoError(t, err)
			require.Equal(t, 2, st.Games)
			require.Equal(t, 2, st.Losses, "the misbehaving engine loses every game")
			require.Equal(t, 2, tc2.check(st))
		})
	}
}

func TestUnstartableEngine(t *testing.T) {
	_, err := match.Run(context.Background(), match.Config{
		Variant: variants.Chess(), Games: 1, TC: tc(t, "1"),
		Engines: [2]match.EngineSpec{{Name: "nothing", Command: []string{filepath.Join(tmp, "no-such-engine")}}, self("c")},
	})
	require.ErrorContains(t, err, "nothing")
}

func TestVariantNeedsUCIVariant(t *testing.T) {
	v, err := variants.Lookup("capablanca")
	require.NoError(t, err)
	st, err := match.Run(context.Background(), match.Config{
		Variant: v, Games: 2, TC: tc(t, "1+0.01"),
		Engines: [2]match.EngineSpec{fakeEngine(t, "plain", `echo "bestmove e2e4"`), self("c")},
	})
	require.ErrorContains(t, err, "engine plain does not play variants")
	require.Zero(t, st.Games, "refused before any game, not lost")
}

func TestElo(t *testing.T) {
	st := match.Standing{Games: 100, Wins: 50, Draws: 20, Losses: 30}
	elo, margin := st.Elo()
	require.InDelta(t, 70, elo, 1) // 60% → +70
	require.Greater(t, margin, 40.0)
	require.Less(t, margin, 90.0)
	// Games all alike say little about the spread: not ±0.
	even := match.Standing{Games: 3, Draws: 3}
	elo, margin = even.Elo()
	require.Zero(t, elo)
	require.Greater(t, margin, 100.0)
	_, many := match.Standing{Games: 1000, Draws: 1000}.Elo()
	require.Less(t, many, margin)
	_, margin = match.Standing{Games: 2, Wins: 2}.Elo()
	require.True(t, math.IsInf(margin, 1))
}

// TestAgainstDebianEngines plays short matches against stockfish and
// fairy-stockfish when they are installed (apt-get install stockfish
// fairy-stockfish); otherwise it is skipped.
func TestAgainstDebianEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("matches against other engines; run without -short")
	}
	for _, tc2 := range []struct{ engine, variant string }{
		{"stockfish", "chess"}, {"fairy-stockfish", "chess"}, {"fairy-stockfish", "capablanca"},
	} {
		path := findEngine(tc2.engine)
		if path == "" {
			t.Logf("%s not installed: skipped", tc2.engine)
			continue
		}
		v, err := variants.Lookup(tc2.variant)
		require.NoError(t, err)
		st, err := match.Run(context.Background(), match.Config{
			Variant: v, Games: 2, TC: tc(t, "1+0.02"),
			Engines: [2]match.EngineSpec{self("chimera"), {Name: tc2.engine, Command: []string{path}}},
		})
		require.NoError(t, err, tc2.engine)
		require.Equal(t, 2, st.Games)
		require.Zero(t, st.IllegalMoves+st.Crashes, "%s %s: %+v", tc2.engine, tc2.variant, st)
	}
}

func findEngine(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if p := "/usr/games/" + name; fileExists(p) {
		return p
	}
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestCECPEngines: the referee drives XBoard engines through the same
// loop: Chimera's own CECP mode against its UCI mode, in chess and in a
// variant XBoard does not know; an engine without the variant is refused.
func TestCECPEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("clock games; run without -short")
	}
	xb := self("xboard")
	xb.Protocol = "xboard"
	for _, name := range []string{"chess", "grasshopper"} {
		v, err := variants.Lookup(name)
		require.NoError(t, err)
		var pgn bytes.Buffer
		st, err := match.Run(context.Background(), match.Config{
			Variant: v, Engines: [2]match.EngineSpec{xb, self("uci")}, Games: 2, TC: tc(t, "2+0.1"), PGN: &pgn,
		})
		require.NoError(t, err, name)
		require.Equal(t, 2, st.Games)
		require.Zero(t, st.IllegalMoves+st.Crashes, "%s: %+v\n%s", name, st, pgn.String())
	}
	_, err := match.Run(context.Background(), match.Config{Variant: variants.Chess(), Games: 1, TC: tc(t, "1"),
		Engines: [2]match.EngineSpec{{Name: "bad", Command: []string{chimera}, Protocol: "telepathy"}, self("c")}})
	require.ErrorContains(t, err, `unknown protocol "telepathy"`)
}

// TestInterruptedMatch: a match whose ctx ends returns the standing of
// the games finished and ctx's error (it returned no error, as for a
// match played out), and the game cut short is not counted.
func TestInterruptedMatch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var pgn bytes.Buffer
	games := 0
	st, err := match.Run(ctx, match.Config{
		Variant: variants.Chess(), Engines: [2]match.EngineSpec{self("a"), self("b")},
		Games: 6, TC: tc(t, "10+0.1"), PGN: &pgn,
		// Mate in one: White's engine mates at once, whichever it is.
		Openings: []string{"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"},
		OnGame: func(*game.Record, match.Standing) {
			games++
			cancel() // Ctrl-C once the first game is over
		},
	})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 1, st.Games)
	require.Equal(t, 1, games)
	require.Equal(t, 1, strings.Count(pgn.String(), "[Result "))
	require.NotContains(t, pgn.String(), `[Result "*"]`)
}

// TestFinishedOpeningRefused: an opening whose game is already over
// (checkmate, stalemate) is refused before any engine starts: its games
// would have no move, scored as if played.
func TestFinishedOpeningRefused(t *testing.T) {
	for fen, reason := range map[string]string{
		"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3": "checkmate",
		"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1":                                "stalemate",
	} {
		st, err := match.Run(context.Background(), match.Config{
			Variant: variants.Chess(), Games: 2, TC: tc(t, "1"),
			Engines:  [2]match.EngineSpec{{Name: "a", Command: []string{filepath.Join(tmp, "no-such-engine")}}, self("b")},
			Openings: []string{variants.ChessFEN, fen},
		})
		require.ErrorContains(t, err, "opening 2 ("+fen+"): the game is already over ("+reason+")")
		require.Zero(t, st.Games)
	}
}
