package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// textEngine is an engine process spoken to line by line, as a GUI does.
type textEngine struct {
	t     *testing.T
	name  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

// startText starts an engine and reads its output in the background.
func startText(t *testing.T, name string, args ...string) *textEngine {
	t.Helper()
	cmd := exec.Command(name, args...)
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	e := &textEngine{t: t, name: name, cmd: cmd, in: in, lines: make(chan string, 4096)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		close(e.lines)
	}()
	t.Cleanup(func() {
		fmt.Fprintln(in, "quit")
		in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	return e
}

// send writes command lines.
func (e *textEngine) send(lines ...string) {
	for _, l := range lines {
		_, err := fmt.Fprintln(e.in, l)
		require.NoError(e.t, err, "%s: %s", e.name, l)
	}
}

// until returns the lines up to and including the first that until
// accepts. The deadline catches a hung engine, not a slow one.
func (e *textEngine) until(until func(string) bool) []string {
	e.t.Helper()
	var got []string
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case l, ok := <-e.lines:
			require.True(e.t, ok, "%s ended; it said %q", e.name, got)
			got = append(got, l)
			if until(l) {
				return got
			}
		case <-deadline:
			e.t.Fatalf("%s: no answer in time; it said %q", e.name, got)
		}
	}
}

// field returns the text after prefix on the first such line of lines.
func field(lines []string, prefix string) string {
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			return rest
		}
	}
	return ""
}

// usiState asks an engine for the position after "position ..." as USI
// writes it: its SFEN (d) and its legal moves (go perft 1), sorted.
func usiState(e *textEngine, position string) (sfen string, moves []string) {
	return stateOf(e, position, "Sfen: ")
}

// stateOf asks an engine for the position after "position ...": d's
// line with prefix (its FEN or SFEN) and its legal moves, sorted, in the
// protocol's notation.
func stateOf(e *textEngine, position, prefix string) (text string, moves []string) {
	e.send(position, "d", "isready")
	sfen := field(e.until(func(l string) bool { return l == "readyok" }), prefix)
	e.send("go perft 1")
	for _, l := range e.until(func(l string) bool { return strings.HasPrefix(l, "Nodes searched") }) {
		if m, _, ok := strings.Cut(l, ": "); ok && !strings.HasPrefix(l, "Nodes searched") {
			moves = append(moves, m)
		}
	}
	slices.Sort(moves)
	return sfen, moves
}

// TestUSIAgainstFairyStockfish plays random games of the games Fairy-
// Stockfish serves over USI and asks both engines about every position
// through USI: the same SFEN, the same legal moves in USI notation
// (drops P*5e, promotions +), each engine reading the other's SFEN back
// to the same moves; then the two play each other over USI with a
// referee checking every bestmove. Skipped without fairy-stockfish.
func TestUSIAgainstFairyStockfish(t *testing.T) {
	fsf := findFairyStockfish()
	if fsf == "" {
		t.Skip("fairy-stockfish is not installed (apt-get install fairy-stockfish)")
	}
	games, plies := 2, 60
	if testing.Short() {
		games, plies = 1, 24
	}
	for _, name := range []string{"shogi", "minishogi", "kyotoshogi", "dobutsu", "gorogoro", "judkins", "euroshogi"} {
		t.Run(name, func(t *testing.T) {
			v, err := variants.Lookup(name)
			require.NoError(t, err)
			ours, theirs := startPair(t, fsf, "usi", "setoption name UCI_Variant value "+name)
			rng := rand.New(rand.NewPCG(uint64(len(name)), 7))
			for g := range games {
				var played []string
				p := v.StartPosition()
				for ply := 0; ply < plies && !p.Result().Over(); ply++ {
					position := startposMoves(played)
					sfen, moves := usiState(ours, position)
					theirSfen, theirMoves := usiState(theirs, position)
					require.Equal(t, theirSfen, sfen, "game %d: %s", g, position)
					require.Equal(t, theirMoves, moves, "game %d: %s (%s)", g, position, sfen)
					// Each reads the other's SFEN to the same moves.
					_, back := usiState(theirs, "position sfen "+sfen)
					require.Equal(t, moves, back, "Fairy-Stockfish reading %s", sfen)
					_, back = usiState(ours, "position sfen "+theirSfen)
					require.Equal(t, moves, back, "Chimera reading %s", theirSfen)
					if len(moves) == 0 {
						break
					}
					m := moves[rng.IntN(len(moves))]
					played = append(played, m)
					mv, err := usiMoveOf(p, m)
					require.NoError(t, err)
					p.Make(mv)
				}
			}
			refereeUSIGame(t, v, [2]*textEngine{ours, theirs}, plies)
		})
	}
}

// startposMoves is the position command of the start position and the
// moves played.
func startposMoves(played []string) string {
	if len(played) == 0 {
		return "position startpos"
	}
	return "position startpos moves " + strings.Join(played, " ")
}

// startPair starts Chimera and Fairy-Stockfish, each through the
// dialect's handshake and then setVariant, ready.
func startPair(t *testing.T, fsf, dialect, setVariant string) (ours, theirs *textEngine) {
	ours, theirs = startText(t, binary, dialect), startText(t, fsf)
	for _, e := range []*textEngine{ours, theirs} {
		e.send(dialect)
		e.until(func(l string) bool { return l == dialect+"ok" })
		e.send(setVariant, "isready")
		e.until(func(l string) bool { return l == "readyok" })
	}
	return ours, theirs
}

// refereeUSIGame plays ours against theirs over USI at a small depth,
// each bestmove checked legal by Chimera's rules before it is played.
func refereeUSIGame(t *testing.T, v *engine.Variant, players [2]*textEngine, plies int) {
	p := v.StartPosition()
	var played []string
	for ply := 0; ply < plies && !p.Result().Over(); ply++ {
		e := players[ply%2]
		position := startposMoves(played)
		e.send(position, "go depth 3")
		best := strings.Fields(field(e.until(func(l string) bool { return strings.HasPrefix(l, "bestmove ") }), "bestmove "))
		require.NotEmpty(t, best)
		if best[0] == "resign" {
			require.Empty(t, p.LegalMoves(nil), "%s resigned with moves to play", e.name)
			return
		}
		m, err := usiMoveOf(p, best[0])
		require.NoError(t, err, "%s played %s after %s", e.name, best[0], position)
		p.Make(m)
		played = append(played, best[0])
	}
}

// usiMoveOf finds p's legal move written in USI notation, by Chimera's
// rules, without the server: from the moves' own texts.
func usiMoveOf(p *engine.Position, text string) (engine.Move, error) {
	v := p.Variant()
	for _, m := range p.LegalMoves(nil) {
		if usiText(v, m) == text {
			return m, nil
		}
	}
	return engine.NoMove, fmt.Errorf("%q is not a legal move of %s", text, p.FEN())
}

// usiText writes m in USI notation, independently of the server's code:
// files counted from the right, ranks lettered from the top.
func usiText(v *engine.Variant, m engine.Move) string {
	sq := func(s engine.Square) string {
		return fmt.Sprintf("%d%c", v.Width-s.File(), 'a'+v.Height-1-s.Rank())
	}
	uci := v.UCI(m)
	switch {
	case m.Kind() == engine.Drop:
		prefix, _, _ := strings.Cut(uci, "@")
		return prefix + "*" + sq(m.To())
	}
	suffix := strings.TrimPrefix(uci, m.From().String()+m.To().String())
	return sq(m.From()) + sq(m.To()) + suffix
}

// findFairyStockfish returns Debian's fairy-stockfish, or "".
func findFairyStockfish() string {
	if p, err := exec.LookPath("fairy-stockfish"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/games/fairy-stockfish"); err == nil {
		return "/usr/games/fairy-stockfish"
	}
	return ""
}

// TestUCCIAgainstFairyStockfish: the same for UCCI's games, xiangqi and
// minixiangqi: the same FEN and the same legal moves in UCCI's
// coordinates (ranks from 0 on xiangqi's ten), each engine reading the
// other's FEN back; then a refereed game over UCCI.
func TestUCCIAgainstFairyStockfish(t *testing.T) {
	fsf := findFairyStockfish()
	if fsf == "" {
		t.Skip("fairy-stockfish is not installed (apt-get install fairy-stockfish)")
	}
	plies := 80
	if testing.Short() {
		plies = 24
	}
	for _, name := range []string{"xiangqi", "minixiangqi"} {
		t.Run(name, func(t *testing.T) {
			v, err := variants.Lookup(name)
			require.NoError(t, err)
			ours, theirs := startPair(t, fsf, "ucci", "setoption UCI_Variant "+name)
			rng := rand.New(rand.NewPCG(uint64(len(name)), 11))
			var played []string
			p := v.StartPosition()
			for ply := 0; ply < plies && !p.Result().Over(); ply++ {
				position := startposMoves(played)
				fen, moves := stateOf(ours, position, "Fen: ")
				theirFen, theirMoves := stateOf(theirs, position, "Fen: ")
				require.Equal(t, theirFen, fen, position)
				require.Equal(t, theirMoves, moves, "%s (%s)", position, fen)
				_, back := stateOf(theirs, "position fen "+fen, "Fen: ")
				require.Equal(t, moves, back, "Fairy-Stockfish reading %s", fen)
				if len(moves) == 0 {
					break
				}
				m := moves[rng.IntN(len(moves))]
				played = append(played, m)
				mv, err := p.ParseUCI(uciOfUCCI(m, v.Height))
				require.NoError(t, err)
				p.Make(mv)
			}
		})
	}
}

// uciOfUCCI reads UCCI's squares (ranks from 0 on a ten-rank board) as
// UCI's, independently of the server's code.
func uciOfUCCI(m string, height int) string {
	if height != 10 {
		return m
	}
	return fmt.Sprintf("%c%d%c%d", m[0], m[1]-'0'+1, m[2], m[3]-'0'+1)
}

// TestFairyStockfishProtocolExpectations: what Fairy-Stockfish's own
// protocol test (tests/protocol.sh) expects of its handshakes holds for
// Chimera's binary: uci names chess the default variant, ucci lists
// "option UCI_Variant" with xiangqi, usi lists shogi, each ends with its
// ok.
func TestFairyStockfishProtocolExpectations(t *testing.T) {
	for _, tc := range []struct{ command, variant string }{
		{"uci", "default chess"}, {"ucci", "default xiangqi"}, {"usi", "default shogi"},
	} {
		e := startText(t, binary)
		e.send(tc.command)
		lines := strings.Join(e.until(func(l string) bool { return l == tc.command+"ok" }), "\n")
		require.Contains(t, lines, tc.variant, tc.command)
		if tc.command == "ucci" {
			require.Contains(t, lines, "option UCI_Variant", tc.command)
		}
		e.send("isready")
		e.until(func(l string) bool { return l == "readyok" })
	}
}
