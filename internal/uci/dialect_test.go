package uci_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	enginesession "github.com/chimera-chess/chimera/internal/session"
	"github.com/chimera-chess/chimera/internal/uci"
)

// TestUSIHandshake: usi answers with USI's option names, the Protocol
// option first, shogi as the variant, and usiok; its moves and SFEN
// follow.
func TestUSIHandshake(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("usi")
	_, lines := s.Expect("usiok")
	text := strings.Join(lines, "\n")
	require.Contains(t, lines, "option name Protocol type combo default usi var uci var usi var ucci var xboard")
	for _, want := range []string{"option name USI_Hash type spin", "option name USI_Ponder type check",
		"option name USI_MultiPV type spin", "option name USI_Variant type combo default shogi ",
		"option name Move_Overhead type spin", "option name Clear_Hash type button"} {
		require.Contains(t, text, want)
	}
	require.NotContains(t, text, "name Hash ")
	s.Send("setoption name USI_Hash value 8", "setoption name Hash value 8", "setoption name Move_Overhead value 10")
	s.quiet()
	s.Send("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e", "d")
	line, _ := s.Expect("Sfen: ")
	require.Equal(t, "Sfen: lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6", line)
	s.Send("go depth 2")
	best, infos := s.Expect("bestmove ")
	require.Regexp(t, `^bestmove (\d[a-i]\d[a-i]\+?|[A-Z]\*\d[a-i])( ponder \S+)?$`, best)
	require.Regexp(t, ` pv \d[a-i]`, infos[len(infos)-1])
}

// TestUSIBadInput: a broken SFEN, an illegal move, a drop of a piece not
// in hand and an unknown command are errors, and the position before
// stays.
func TestUSIBadInput(t *testing.T) {
	s := start(t, uci.Config{Dialect: uci.USI})
	s.Send("setoption name USI_Variant value shogi", "position startpos moves 7g7f", "d")
	before, _ := s.Expect("Sfen: ")
	for _, bad := range []struct{ command, says string }{
		{"position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1", "side to move"},
		{"position sfen lnsgkgsnl/1r5b1/ppppppppp b", "SFEN"},
		{"position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - zero", "ply number"},
		{"position startpos moves 7g7e", "not legal"},
		{"position startpos moves 7g7f 3c3d P*5e", "not legal"},
		{"position startpos moves 0i0h", "off the 9×9 board"},
		{"position startpos moves 7g", "want two squares"},
		{"position sfen", "needs a SFEN"},
		{"frobnicate", "unknown command"},
	} {
		s.Send(bad.command)
		line, _ := s.Expect("info string error")
		require.Contains(t, line, bad.says, bad.command)
		s.Send("d")
		after, _ := s.Expect("Sfen: ")
		require.Equal(t, before, after, "%s changed nothing", bad.command)
	}
}

// TestUSIGoMate: go mate answers checkmate with the mating line, nomate
// when the side to move has no move, timeout when no mate was found in
// the time; USI's mate scores count plies.
func TestUSIGoMate(t *testing.T) {
	s := start(t, uci.Config{Dialect: uci.USI})
	s.Send("usi")
	s.Expect("usiok")
	// Few pieces: no table is built first (it would take the time).
	s.Send("setoption name TablebaseBuild value 0")
	s.Send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "go mate 10000")
	line, infos := s.Expect("checkmate")
	require.Equal(t, "checkmate G*5b", line, "%q", infos)
	require.Contains(t, infos[len(infos)-1], "score mate 1 ")
	s.Send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "go mate infinite")
	line, _ = s.Expect("checkmate")
	require.Equal(t, "checkmate G*5b", line)
	s.Send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1", "go mate 300")
	line, _ = s.Expect("checkmate")
	require.Equal(t, "checkmate timeout", line)
	s.Send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", "go mate 300")
	line, _ = s.Expect("checkmate")
	require.Equal(t, "checkmate nomate", line)
	// A search under way is answered in its own way when go mate comes,
	// and the mate search in its.
	s.Send("position startpos", "go infinite", "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "go mate 5000")
	line, _ = s.Expect("bestmove ")
	require.Regexp(t, `^bestmove \d[a-i]\d[a-i]`, line)
	line, _ = s.Expect("checkmate")
	require.Equal(t, "checkmate G*5b", line)
	s.Send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "go mate 5000", "position startpos", "go depth 2")
	line, _ = s.Expect("checkmate")
	require.Equal(t, "checkmate G*5b", line)
	line, _ = s.Expect("bestmove ")
	require.Regexp(t, `^bestmove \d[a-i]\d[a-i]`, line)
	s.Send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1")
	// Mated at the root: no bestmove but resign.
	s.Send("go depth 3")
	line, _ = s.Expect("bestmove")
	require.Equal(t, "bestmove resign", line)
	// A mate in two moves is three plies.
	s.Send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "go depth 4")
	_, infos = s.Expect("bestmove")
	require.Contains(t, infos[len(infos)-1], "score mate 1 ")
}

// TestUCCI: ucci answers with UCCI's option lines (no "name"; hashsize),
// xiangqi as the variant; moves count ranks from 0; banmoves keeps moves
// out of the next search; go time/increment/opptime are the side to
// move's and its opponent's; no move is nobestmove.
func TestUCCI(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("ucci")
	_, lines := s.Expect("ucciok")
	text := strings.Join(lines, "\n")
	for _, want := range []string{"option Protocol type combo default ucci", "option hashsize type spin",
		"option UCI_Variant type combo default xiangqi ", "option usemillisec type check default true"} {
		require.Contains(t, text, want)
	}
	require.NotContains(t, text, "option name ")
	s.Send("setoption hashsize 8", "setoption Move_Overhead 10", "setoption name Hash value 8")
	s.quiet()
	s.Send("position startpos moves h2e2 h9g7", "d")
	line, _ := s.Expect("Fen: ")
	require.Equal(t, "Fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2", line)
	s.Send("go depth 3")
	best, infos := s.Expect("bestmove ")
	require.Regexp(t, `^bestmove [a-i]\d[a-i]\d`, best)
	require.Regexp(t, ` score -?\d+ nodes `, infos[len(infos)-1], "UCCI's scores are bare numbers")

	// Banning every move but one leaves that one.
	s.Send("position startpos")
	var ban []string
	for _, m := range []string{"a0a1", "a0a2", "b0a2", "b0c2", "c0a2", "c0e2", "d0e1", "e0e1", "f0e1", "g0e2", "g0i2",
		"h0g2", "h0i2", "i0i1", "i0i2", "a3a4", "c3c4", "e3e4", "g3g4", "i3i4", "b2b1", "b2b3", "b2b4", "b2b5",
		"b2b6", "b2b9", "b2a2", "b2c2", "b2d2", "b2e2", "b2f2", "b2g2", "h2h1", "h2h3", "h2h4", "h2h5", "h2h6",
		"h2h9", "h2g2", "h2f2", "h2e2", "h2d2", "h2c2", "h2i2"} {
		if m != "h2e2" {
			ban = append(ban, m)
		}
	}
	s.Send("banmoves "+strings.Join(ban, " "), "go depth 2")
	best, _ = s.Expect("bestmove ")
	require.True(t, strings.HasPrefix(best, "bestmove h2e2"), best)
	s.Send("banmoves z9z9")
	line, _ = s.Expect("info string error")
	require.Contains(t, line, "banmoves")

	// A side with no move has no bestmove.
	s.Send("position fen 3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1", "go time 1000 increment 0 opptime 1000")
	line, _ = s.Expect("nobestmove")
	require.Equal(t, "nobestmove", line)

	// quit during a search: its answer, then bye, the last word.
	s.Send("position startpos", "go infinite", "quit")
	s.Expect("bestmove ")
	line, _ = s.Expect("bye")
	require.Equal(t, "bye", line)
}

// TestProtocolOption: the Protocol option changes the dialect at once;
// xboard, another conversation, is refused with the way to it.
func TestProtocolOption(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("setoption name UCI_Variant value shogi", "setoption name Protocol value usi", "position startpos", "go depth 1")
	best, _ := s.Expect("bestmove ")
	require.Regexp(t, `^bestmove \d[a-i]\d[a-i]`, best)
	s.Send("setoption name Protocol value uci", "go depth 1")
	best, _ = s.Expect("bestmove ")
	require.Regexp(t, `^bestmove [a-i]\d[a-i]\d`, best)
	s.Send("setoption name Protocol value xboard")
	line, _ := s.Expect("info string error")
	require.Contains(t, line, "first command")
	s.Send("setoption name Protocol value telex")
	line, _ = s.Expect("info string error")
	require.Contains(t, line, "want uci, usi or ucci")
}

// FuzzDialectCommands: no line crashes a USI or UCCI session, and the
// session answers afterwards.
func FuzzDialectCommands(f *testing.F) {
	for _, seed := range []string{"position startpos moves 7g7f 3c3d 8h2b+", "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
		"go mate 100", "go btime 100 wtime 100 byoyomi 50", "position sfen 9/9/9 b 2P3g 12", "banmoves h2e2",
		"go time 100 increment 1 opptime 100 oppinc 1", "setoption hashsize 2", "setoption usemillisec false",
		"setoption name Protocol value ucci", "usinewgame", "gameover win", "position startpos moves P*5e"} {
		f.Add(uint8(1), seed)
		f.Add(uint8(2), seed)
	}
	f.Fuzz(func(t *testing.T, dialect uint8, line string) {
		if strings.ContainsAny(line, "\n\r") || strings.HasPrefix(strings.TrimSpace(line), "quit") {
			return
		}
		if strings.Contains(line, "perft") || strings.Contains(line, "VariantPath") || strings.Contains(line, "Log") {
			return // slow or touches files: covered by the other tests
		}
		var out syncBuffer
		server := uci.NewServer(&out, uci.Config{Dialect: uci.Dialect(dialect % 3),
			Config: enginesession.Config{Searcher: &instantEngine{}, TablebaseDir: os.TempDir()}})
		in := strings.NewReader("usi\nposition startpos\n" + line + "\nstop\nisready\n")
		require.NoError(t, server.Run(in))
		require.Contains(t, out.String(), "readyok")
	})
}

// TestSkillWhilePondering: a weakened engine stays weakened when it
// ponders (its lines are the weakened search's four).
func TestSkillWhilePondering(t *testing.T) {
	s := start(t, uci.Config{})
	s.Send("setoption name Ponder value true", "setoption name Skill Level value 0", "position startpos",
		"go ponder wtime 2000 btime 2000")
	s.Expect("info depth 1 ")
	s.Send("ponderhit")
	_, infos := s.Expect("bestmove ")
	require.Contains(t, strings.Join(infos, "\n"), " multipv 4 ")
}
