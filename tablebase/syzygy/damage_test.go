package syzygy_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// krqFEN is a KQvKR position (queen to move wins).
const krqFEN = "8/8/3k4/8/2r5/8/1Q6/1K6 w - - 0 1"

// damagedDir returns a directory holding the testdata's KQvKR files,
// with file changed by change (nil: unchanged), and file's path.
func damagedDir(t *testing.T, file string, change func([]byte) []byte) (dir, path string) {
	dir = t.TempDir()
	for _, name := range []string{"KQvKR.rtbw", "KQvKR.rtbz", "KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"} {
		data, err := os.ReadFile(filepath.Join(regularDir, name))
		require.NoError(t, err)
		if name == file && change != nil {
			data = change(data)
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	return dir, filepath.Join(dir, file)
}

// mustParse parses a chess FEN.
func mustParse(t testing.TB, fen string) *engine.Position {
	pos, err := variants.Chess().ParseFEN(fen)
	require.NoError(t, err, fen)
	return pos
}

// TestDamagedFilesAreRefused: a truncated file, a wrong magic number, a
// file of zeros, garbage: each is an error naming the file, every time
// it is probed, never a value and never a crash.
func TestDamagedFilesAreRefused(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	changes := map[string]func([]byte) []byte{
		"truncated by half":      func(b []byte) []byte { return b[:len(b)/2] },
		"truncated by 64 bytes":  func(b []byte) []byte { return b[:len(b)-64] },
		"one 64-byte block more": func(b []byte) []byte { return append(b, make([]byte, 64)...) },
		"empty":                  func([]byte) []byte { return nil },
		"wrong magic":            func(b []byte) []byte { b[0] ^= 0xff; return b },
		"DTZ magic":              func(b []byte) []byte { copy(b, []byte{0xd7, 0x66, 0x0c, 0xa5}); return b },
		"pawn flag set":          func(b []byte) []byte { b[4] |= 2; return b },
		"zeros":                  func(b []byte) []byte { return make([]byte, len(b)) },
		"garbage": func(b []byte) []byte {
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			return b
		},
		"garbage after the magic": func(b []byte) []byte {
			for i := 4; i < len(b); i++ {
				b[i] = byte(rng.Uint32())
			}
			return b
		},
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			dir, path := damagedDir(t, "KQvKR.rtbw", change)
			tb, err := syzygy.Open(dir)
			require.NoError(t, err, "Open reads no file")
			defer tb.Close()
			pos := mustParse(t, krqFEN)
			for range 2 {
				_, err = tb.ProbeWDL(pos)
				require.ErrorIs(t, err, syzygy.ErrCorrupt)
				require.ErrorContains(t, err, path)
			}
			_, err = tb.ProbeDTZ(pos)
			require.ErrorIs(t, err, syzygy.ErrCorrupt, "DTZ needs the WDL value first")
			// The other tables are unaffected.
			w, err := tb.ProbeWDL(mustParse(t, "8/8/3k4/8/8/8/1Q6/1K6 w - - 0 1"))
			require.NoError(t, err)
			require.Equal(t, syzygy.Win, w)
		})
	}
}

// TestDamagedDTZFile: a damaged DTZ file fails DTZ probes, naming it,
// and leaves WDL probes alone.
func TestDamagedDTZFile(t *testing.T) {
	dir, path := damagedDir(t, "KQvKR.rtbz", func(b []byte) []byte { return b[:len(b)-64] })
	tb, err := syzygy.Open(dir)
	require.NoError(t, err)
	defer tb.Close()
	pos := mustParse(t, krqFEN)
	_, err = tb.ProbeDTZ(pos)
	require.ErrorIs(t, err, syzygy.ErrCorrupt)
	require.ErrorContains(t, err, path)
	w, err := tb.ProbeWDL(pos)
	require.NoError(t, err)
	require.Equal(t, syzygy.Win, w)
}

// TestDamagedBlocksNeverCrash: bytes changed inside the compressed
// blocks, which no header check can see, give errors or values but
// never a crash.
func TestDamagedBlocksNeverCrash(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var positions []*engine.Position
	for _, c := range readOracle(t) {
		if material(c.fen) == "KQvKR" {
			positions = append(positions, mustParse(t, c.fen))
		}
	}
	require.NotEmpty(t, positions)
	rounds := 20
	if raceEnabled {
		rounds = 5
	}
	for round := range rounds {
		dir, _ := damagedDir(t, "KQvKR.rtbw", func(b []byte) []byte {
			// The blocks are the file's second half, roughly.
			for range 1 + round {
				b[len(b)/2+rng.IntN(len(b)/2-16)] ^= byte(1 + rng.IntN(255))
			}
			return b
		})
		tb, err := syzygy.Open(dir)
		require.NoError(t, err)
		for _, pos := range positions {
			_, _ = tb.ProbeWDL(pos)
			_, _ = tb.ProbeDTZ(pos)
		}
		require.NoError(t, tb.Close())
	}
}

// TestUnknownIsNeverAValue: what the tables cannot answer is an error
// of its own kind.
func TestUnknownIsNeverAValue(t *testing.T) {
	tb, err := syzygy.Open(regularDir)
	require.NoError(t, err)
	defer tb.Close()
	for _, c := range []struct {
		fen  string
		want error
	}{
		{"8/8/3k4/8/6r1/8/1QQ5/1K6 w - - 0 1", syzygy.ErrMissing}, // KQQvKR: five pieces
		{"r3k3/8/8/8/8/8/8/4K3 b q - 0 1", syzygy.ErrCastling},    // castling rights
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", syzygy.ErrTooManyPieces},
	} {
		pos := mustParse(t, c.fen)
		_, err := tb.ProbeWDL(pos)
		require.ErrorIs(t, err, c.want, c.fen)
		_, err = tb.ProbeDTZ(pos)
		require.ErrorIs(t, err, c.want, c.fen)
	}
	atomic, err := variants.Lookup("atomic")
	require.NoError(t, err)
	pos, err := atomic.ParseFEN(krqFEN)
	require.NoError(t, err)
	_, err = tb.ProbeWDL(pos)
	require.ErrorIs(t, err, syzygy.ErrNotChess)

	// A missing DTZ table: the WDL answers, the DTZ does not.
	dir := t.TempDir()
	for _, name := range []string{"KQvKR.rtbw", "KQvK.rtbw", "KRvK.rtbw", "KQvK.rtbz", "KRvK.rtbz"} {
		data, err := os.ReadFile(filepath.Join(regularDir, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	partial, err := syzygy.Open(dir)
	require.NoError(t, err)
	defer partial.Close()
	_, err = partial.ProbeWDL(mustParse(t, krqFEN))
	require.NoError(t, err)
	_, err = partial.ProbeDTZ(mustParse(t, krqFEN))
	require.ErrorIs(t, err, syzygy.ErrMissing)
	require.ErrorContains(t, err, "KQvKR.rtbz")
}

// TestOpen: the tables found, the bare kings, Close.
func TestOpen(t *testing.T) {
	_, err := syzygy.Open()
	require.Error(t, err)
	_, err = syzygy.Open(filepath.Join(t.TempDir(), "absent"))
	require.Error(t, err)

	// Files that are not tables are left alone.
	dir := t.TempDir()
	for _, name := range []string{"README.txt", "KvKQ.rtbw", "KQvK.rtbx", "KQXvK.rtbw"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644))
	}
	empty, err := syzygy.Open(dir)
	require.NoError(t, err)
	require.Zero(t, empty.MaxPieces())

	tb, err := syzygy.Open(regularDir, dir)
	require.NoError(t, err)
	require.Equal(t, 4, tb.MaxPieces())
	kings := mustParse(t, "8/8/3k4/8/8/8/8/1K6 w - - 0 1")
	w, err := tb.ProbeWDL(kings)
	require.NoError(t, err)
	require.Equal(t, syzygy.Draw, w)
	d, err := tb.ProbeDTZ(kings)
	require.NoError(t, err)
	require.Zero(t, d)
	_, err = tb.ProbeWDL(mustParse(t, krqFEN))
	require.NoError(t, err)
	require.NoError(t, tb.Close())
	require.NoError(t, tb.Close(), "closing twice is harmless")
	_, err = tb.ProbeWDL(mustParse(t, krqFEN))
	require.ErrorIs(t, err, syzygy.ErrClosed)
}

// material returns a FEN's material as a table name, the stronger side
// first: KQvKR for both colourings.
func material(fen string) string {
	var sides [2][]byte
	for _, ch := range []byte(strings.Fields(fen)[0]) {
		switch {
		case ch >= 'A' && ch <= 'Z':
			sides[0] = append(sides[0], ch)
		case ch >= 'a' && ch <= 'z':
			sides[1] = append(sides[1], ch-'a'+'A')
		}
	}
	order := func(b []byte) string {
		slices.SortFunc(b, func(x, y byte) int { return strings.IndexByte("KQRBNP", x) - strings.IndexByte("KQRBNP", y) })
		return string(b)
	}
	w, b := order(sides[0]), order(sides[1])
	if len(b) > len(w) || (len(b) == len(w) && strings.Map(rank, b) < strings.Map(rank, w)) {
		w, b = b, w
	}
	return w + "v" + b
}

// rank maps piece letters to letters that sort strongest first.
func rank(r rune) rune { return 'a' + rune(strings.IndexRune("KQRBNP", r)) }
