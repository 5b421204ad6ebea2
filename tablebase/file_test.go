package tablebase_test

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// customVariant loads a user variant with piece A = betza into a fresh
// catalogue, as a user's file loaded again after an edit would be.
func customVariant(t *testing.T, betza string) *engine.Variant {
	t.Helper()
	cat := variants.Builtin()
	require.NoError(t, cat.Load("custom.ini", []byte("[custom:chess]\ncustomPiece1 = a:"+betza+"\n")))
	v, err := cat.Lookup("custom")
	require.NoError(t, err)
	return v
}

// TestRedefinedVariantIsNotTrusted: a table made for a user variant whose
// piece A moved as a rook is never used once A moves as a knight. Before
// fingerprints the stale KAvK file answered "win: mate in 14" for a
// knight that cannot mate at all.
func TestRedefinedVariantIsNotTrusted(t *testing.T) {
	dir := t.TempDir()
	const fen = "8/8/8/8/4k3/8/8/A3K3 w - - 0 1"
	rook := customVariant(t, "R")
	p, err := rook.ParseFEN(fen)
	require.NoError(t, err)
	store := gen.NewStore(dir)
	tb, err := store.Find(p, tablebase.Build)
	require.NoError(t, err)
	r, err := tb.Probe(p)
	require.NoError(t, err)
	require.Equal(t, 1, r.WDL, "a rook mates")

	knight := customVariant(t, "N")
	q, err := knight.ParseFEN(fen)
	require.NoError(t, err)
	require.NotEqual(t, tablebase.Fingerprint(rook, tb.Material), tablebase.Fingerprint(knight, tb.Material))
	// The same store, the variant loaded again: memory does not answer
	// for the new definition, and the file is refused where nothing may
	// be built.
	_, err = store.Find(q, tablebase.MemoryOnly)
	require.ErrorIs(t, err, tablebase.ErrNotInMemory)
	_, err = store.Find(q, tablebase.MemoryOrDisk)
	require.ErrorIs(t, err, tablebase.ErrStale)
	require.ErrorContains(t, err, "made for another definition of custom")
	kept := gen.NewStore(dir)
	kept.KeepFiles = true
	_, err = kept.Find(q, tablebase.Build)
	require.ErrorIs(t, err, tablebase.ErrStale)
	// Where building is allowed the table is rebuilt, and says so.
	var logs []string
	store.Log = func(s string) { logs = append(logs, s) }
	tb, err = store.Find(q, tablebase.Build)
	require.NoError(t, err)
	r, err = tb.Probe(q)
	require.NoError(t, err)
	require.Equal(t, 0, r.WDL, "a knight does not mate")
	require.Len(t, logs, 1)
	require.Contains(t, logs[0], "made for another definition of custom")
	require.Contains(t, logs[0], "regenerating it")
	_, err = tablebase.Load(dir, knight, tb.Material)
	require.NoError(t, err, "the rebuilt file carries the new fingerprint")
	st, err := os.Stat(filepath.Join(dir, tablebase.FileName(knight, tb.Material)))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), st.Mode().Perm(), "a table is readable by all")
}

// TestFingerprint: a fingerprint follows what a table depends on and
// nothing else, and stays the same from one release to the next (files
// made before are still used).
func TestFingerprint(t *testing.T) {
	chess := variants.Chess()
	krk := tbtest.Material(t, chess, "KRvK")
	// Format 3 (the distances to zeroing) made the move rule part of it.
	require.Equal(t, uint64(0x6a6a930a583d7fd7), tablebase.Fingerprint(chess, krk), "the encoding changed: every table would be rebuilt")
	same := customVariant(t, "R")
	other := customVariant(t, "N")
	kak := tbtest.Material(t, same, "KAvK")
	require.Equal(t, tablebase.Fingerprint(same, kak), tablebase.Fingerprint(customVariant(t, "R"), kak), "stable")
	require.NotEqual(t, tablebase.Fingerprint(same, kak), tablebase.Fingerprint(other, kak), "the piece's movement")
	// A leap and a ride along the same vectors are different pieces.
	for _, pair := range [][2]string{{"W", "R"}, {"F", "B"}, {"WF", "RB"}, {"N", "NN"}} {
		require.NotEqual(t, tablebase.Fingerprint(customVariant(t, pair[0]), kak), tablebase.Fingerprint(customVariant(t, pair[1]), kak), pair)
	}
	// A piece the table does not hold, or a piece's value, changes
	// nothing; the board size does.
	require.Equal(t, tablebase.Fingerprint(chess, krk), tablebase.Fingerprint(same, krk))
	cat := variants.Builtin()
	require.NoError(t, cat.Load("values.ini", []byte("[values:chess]\npieceValues = r:700\n")))
	values, err := cat.Lookup("values")
	require.NoError(t, err)
	require.Equal(t, 700, values.Pieces[values.TypeByLetter('R')-1].Value)
	require.Equal(t, tablebase.Fingerprint(chess, krk), tablebase.Fingerprint(values, krk))
	tiny := tbtest.Tiny(t)
	require.NotEqual(t, tablebase.Fingerprint(chess, krk), tablebase.Fingerprint(tiny, tbtest.Material(t, tiny, "KRvK")))
	// Pawns bring the promotion pieces in.
	kpk := tbtest.Material(t, chess, "KPvK")
	amazon, err := variants.Lookup("amazon")
	require.NoError(t, err)
	require.NotEqual(t, tablebase.Fingerprint(chess, kpk), tablebase.Fingerprint(amazon, tbtest.Material(t, amazon, "KPvK")))
	// Every built-in variant's tables can be fingerprinted.
	for _, name := range variants.Names() {
		v, err := variants.Lookup(name)
		require.NoError(t, err)
		for _, pt := range v.Pieces {
			if pt.Royal {
				m := tablebase.Material{Strong: string(pt.Letter), Weak: string(pt.Letter)}
				require.NotZero(t, tablebase.Fingerprint(v, m), name)
			}
		}
	}
}

// TestOldFormatIsRebuilt: a file of format version 1, which records no
// fingerprint, is stale: rebuilt where building is allowed.
func TestOldFormatIsRebuilt(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	m := tbtest.Material(t, v, "KRvK")
	_, err := gen.NewStore(dir).Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	path := filepath.Join(dir, tablebase.FileName(v, m))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	binary.LittleEndian.PutUint16(data[8:], 1)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	_, err = tablebase.Load(dir, v, m)
	require.ErrorIs(t, err, tablebase.ErrStale)
	require.ErrorContains(t, err, "format version 1 records no fingerprint")
	var logs []string
	store := gen.NewStore(dir)
	store.Log = func(s string) { logs = append(logs, s) }
	_, err = store.Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	require.Len(t, logs, 1)
	_, err = tablebase.Load(dir, v, m)
	require.NoError(t, err)
}

// TestFormatFourIsRead: a table with every distance stored is written as
// format 4 (no byte saying whose, so that releases before one-side files
// read it) and read as it is, not rebuilt; the same entries under a
// format 5 header saying both sides are read alike; a format 5 header
// claiming no side's distances, or a side that does not exist, is
// damage.
func TestFormatFourIsRead(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	m := tbtest.Material(t, v, "KRvK")
	made, err := gen.NewStore(dir).Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	p, err := v.ParseFEN("8/8/8/3k4/8/8/8/R3K3 b - - 0 1")
	require.NoError(t, err)
	want, err := made.Probe(p) // before the file changes under it
	require.NoError(t, err)
	path := filepath.Join(dir, tablebase.FileName(v, m))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	const fixed = 37 // the fixed header's bytes; from format 5 the stored distances' byte follows
	require.EqualValues(t, 4, binary.LittleEndian.Uint16(data[8:]), "both sides' distances: format 4")
	names := 2 + len(v.Name) + 2 + len(m.String())
	rest := data[fixed+names+4:]
	read, err := tablebase.Load(dir, v, m)
	require.NoError(t, err, "format 4 is read")
	got, err := read.Probe(p)
	require.NoError(t, err)
	require.Equal(t, want, got)
	store := gen.NewStore(dir)
	var logs []string
	store.Log = func(s string) { logs = append(logs, s) }
	_, err = store.Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	require.Empty(t, logs, "not rebuilt")

	rewrite := func(stored byte) {
		t.Helper()
		head := append(append([]byte(nil), data[:fixed]...), stored)
		binary.LittleEndian.PutUint16(head[8:], 5)
		head = append(head, data[fixed:fixed+names]...)
		file := binary.LittleEndian.AppendUint32(head, crc32.Checksum(head, crc32.MakeTable(crc32.Castagnoli)))
		require.NoError(t, os.WriteFile(path, append(file, rest...), 0o644))
	}
	rewrite(3)
	read, err = tablebase.Load(dir, v, m)
	require.NoError(t, err, "format 5 with both sides' distances")
	got, err = read.Probe(p)
	require.NoError(t, err)
	require.Equal(t, want, got)
	for _, stored := range []byte{0, 4, 7} {
		rewrite(stored)
		_, err = tablebase.Load(dir, v, m)
		require.ErrorIs(t, err, tablebase.ErrCorrupt, "stored %d", stored)
		require.ErrorContains(t, err, "stored distances")
	}
}

// TestDirectoryInTheWay: a directory where a table file should be is named
// as such (it used to read as a damaged file), the save fails with that
// cause, and no temporary file is left behind.
func TestDirectoryInTheWay(t *testing.T) {
	v := variants.Chess()
	dir := t.TempDir()
	m := tbtest.Material(t, v, "KRvK")
	require.NoError(t, os.Mkdir(filepath.Join(dir, tablebase.FileName(v, m)), 0o755))
	_, err := tablebase.Load(dir, v, m)
	require.ErrorContains(t, err, "chess-KRvK.ctb is a directory, not a table file")
	require.NotErrorIs(t, err, tablebase.ErrCorrupt)
	store := gen.NewStore(dir)
	store.SaveRequired = true
	for range 2 {
		_, err = store.Build(v, m, tablebase.Hooks{})
		require.ErrorContains(t, err, "is a directory")
	}
	noTemporaries(t, dir)

	// A store whose directory is a file: the cause is named, nothing is
	// left.
	file := filepath.Join(t.TempDir(), "plain")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	store = gen.NewStore(file)
	store.SaveRequired = true
	_, err = store.Build(v, m, tablebase.Hooks{})
	require.ErrorContains(t, err, "not a directory")
}

func noTemporaries(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		require.False(t, strings.HasPrefix(e.Name(), ".tmp-"), "a temporary file is left: %s", e.Name())
	}
}

// TestCheckDir: a table directory is a directory, created when missing
// and written to, and writable when tables are to be written.
func TestCheckDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hostname")
	require.NoError(t, os.WriteFile(file, []byte("box\n"), 0o644))
	for _, write := range []bool{false, true} {
		require.ErrorContains(t, tablebase.CheckDir(file, write), "is not a directory")
		require.ErrorContains(t, tablebase.CheckDir(filepath.Join(file, "sub"), write), "hostname/sub")
	}
	fresh := filepath.Join(t.TempDir(), "a", "b")
	require.Error(t, tablebase.CheckDir(fresh, false), "read-only use of a missing directory")
	require.NoError(t, tablebase.CheckDir(fresh, true))
	require.DirExists(t, fresh)
	require.NoError(t, tablebase.CheckDir(fresh, false))
	noTemporaries(t, fresh)
}
