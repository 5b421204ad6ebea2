package dataset_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/dataset"
	"github.com/chimera-chess/chimera/internal/testkit/randomgames"
	"github.com/chimera-chess/chimera/variants"
)

// gamesOf returns n games of random positions of the variant, labelled
// with made-up scores and results.
func gamesOf(t *testing.T, name string, n int) (*engine.Variant, []dataset.Game) {
	v, err := variants.Builtin().Lookup(name)
	require.NoError(t, err)
	var games []dataset.Game
	for i := range n {
		g := dataset.Game{Index: uint64(i * 3), Result: int8(i%3 - 1)}
		for k, p := range randomgames.Positions(v, 1, 40, uint64(i)) {
			pos := dataset.PositionOf(p, int16(k*37-500))
			pos.Tactical = k%3 == 0 // both kinds of position in every game
			g.Positions = append(g.Positions, pos)
		}
		games = append(games, g)
	}
	return v, games
}

// readAll reads every game of the file at path.
func readAll(t *testing.T, path string) (dataset.Header, []dataset.Game, error) {
	r, err := dataset.Open(path)
	require.NoError(t, err)
	defer r.Close()
	var games []dataset.Game
	for {
		var g dataset.Game
		if err := r.Next(&g); err == io.EOF {
			break
		}
		games = append(games, g)
	}
	return r.Header(), games, r.Damaged()
}

// TestRoundTrip writes games of variants with hands, large boards and
// small ones, and reads back the same positions, header and results.
func TestRoundTrip(t *testing.T) {
	for _, name := range []string{"chess", "crazyhouse", "shogi", "grand", "minishogi", "xiangqi"} {
		v, games := gamesOf(t, name, 3)
		path := filepath.Join(t.TempDir(), name+".data")
		h := dataset.HeaderFor(v, "chimera datagen --variant "+name)
		w, err := dataset.Append(path, h)
		require.NoError(t, err)
		for i := range games {
			require.NoError(t, w.Write(&games[i]))
		}
		require.NoError(t, w.Close())
		got, read, damaged := readAll(t, path)
		require.NoError(t, damaged)
		require.Equal(t, h, got)
		require.Equal(t, games, read, name)
		if name == "crazyhouse" || name == "shogi" {
			held := 0
			for _, g := range read {
				for _, p := range g.Positions {
					held += len(p.Hand)
				}
			}
			require.Positive(t, held, "%s: no position with a piece in hand was tried", name)
		}
	}
}

// TestResumeAfterAKill cuts the file at every byte of its last block, as a
// run killed mid-write would leave it, and flips a byte there: Append
// must keep the whole games before it, cut the rest off, and continue.
func TestResumeAfterAKill(t *testing.T) {
	v, games := gamesOf(t, "crazyhouse", 3)
	dir := t.TempDir()
	path := filepath.Join(dir, "whole.data")
	h := dataset.HeaderFor(v, "test")
	w, err := dataset.Append(path, h)
	require.NoError(t, err)
	var ends []int64
	for i := range games {
		require.NoError(t, w.Write(&games[i]))
		st, err := os.Stat(path)
		require.NoError(t, err)
		ends = append(ends, st.Size())
	}
	require.NoError(t, w.Close())
	whole, err := os.ReadFile(path)
	require.NoError(t, err)
	damaged := func(data []byte) {
		cut := filepath.Join(dir, "cut.data")
		require.NoError(t, os.WriteFile(cut, data, 0o644))
		w, err := dataset.Append(cut, h)
		require.NoError(t, err)
		require.Equal(t, 2, w.Games())
		require.True(t, w.Has(games[1].Index))
		require.False(t, w.Has(games[2].Index))
		require.Equal(t, int64(len(games[0].Positions)+len(games[1].Positions)), w.Positions())
		require.NoError(t, w.Write(&games[2]))
		require.NoError(t, w.Close())
		_, read, bad := readAll(t, cut)
		require.NoError(t, bad)
		require.Equal(t, games, read)
	}
	for end := ends[1]; end < ends[2]; end += max(1, (ends[2]-ends[1])/97) {
		damaged(whole[:end])
	}
	for _, at := range []int64{ends[1] + 2, ends[1] + 20, ends[2] - 1} {
		flipped := bytes.Clone(whole)
		flipped[at] ^= 0x10
		damaged(flipped)
	}
}

// TestForeignFileRefused: data of another variant, board or definition
// is not appended to, and a file that is not training data is not
// overwritten.
func TestForeignFileRefused(t *testing.T) {
	chess, games := gamesOf(t, "chess", 1)
	path := filepath.Join(t.TempDir(), "chess.data")
	w, err := dataset.Append(path, dataset.HeaderFor(chess, "test"))
	require.NoError(t, err)
	require.NoError(t, w.Write(&games[0]))
	require.NoError(t, w.Close())
	capa, err := variants.Builtin().Lookup("capablanca")
	require.NoError(t, err)
	for _, h := range []dataset.Header{
		dataset.HeaderFor(capa, "test"),
		{Variant: "chess", Fingerprint: chess.Fingerprint() + 1, Width: 8, Height: 8},
	} {
		_, err := dataset.Append(path, h)
		require.ErrorIs(t, err, dataset.ErrForeign)
	}
	other := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(other, []byte("my notes"), 0o644))
	_, err = dataset.Append(other, dataset.HeaderFor(chess, "test"))
	require.Error(t, err)
	kept, err := os.ReadFile(other)
	require.NoError(t, err)
	require.Equal(t, "my notes", string(kept))
}

// FuzzRead reads arbitrary bytes as a data file: an error or games, never
// a panic, and no game read from a block that failed its checks.
func FuzzRead(f *testing.F) {
	v, games := gamesOf(&testing.T{}, "shogi", 2)
	path := filepath.Join(f.TempDir(), "seed.data")
	w, err := dataset.Append(path, dataset.HeaderFor(v, "seed"))
	if err != nil {
		f.Fatal(err)
	}
	for i := range games {
		if err := w.Write(&games[i]); err != nil {
			f.Fatal(err)
		}
	}
	w.Close()
	seed, _ := os.ReadFile(path)
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte("CHIMDATA"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := dataset.NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		var g dataset.Game
		for n := 0; n < 1000; n++ {
			if err := r.Next(&g); err != nil {
				require.True(t, errors.Is(err, io.EOF))
				return
			}
			for _, p := range g.Positions {
				for _, pl := range p.Board {
					require.Less(t, pl.Square.File(), r.Header().Width)
					require.Less(t, pl.Square.Rank(), r.Header().Height)
				}
			}
		}
	})
}

// TestOneWriterAFile: a second run on a file another is writing to is
// refused (two would interleave their games' bytes); once the first ends,
// the file is open to the next.
func TestOneWriterAFile(t *testing.T) {
	v, games := gamesOf(t, "chess", 1)
	path := filepath.Join(t.TempDir(), "busy.data")
	h := dataset.HeaderFor(v, "test")
	first, err := dataset.Append(path, h)
	require.NoError(t, err)
	_, err = dataset.Append(path, h)
	require.ErrorIs(t, err, dataset.ErrBusy)
	require.NoError(t, first.Write(&games[0]))
	require.NoError(t, first.Close())
	next, err := dataset.Append(path, h)
	require.NoError(t, err)
	require.Equal(t, 1, next.Games())
	require.NoError(t, next.Close())
}

// TestCutShortTellsFromDamage: a last block cut short (a run killed, or
// one still writing) is told from damage in the middle of a file.
func TestCutShortTellsFromDamage(t *testing.T) {
	v, games := gamesOf(t, "chess", 2)
	path := filepath.Join(t.TempDir(), "two.data")
	w, err := dataset.Append(path, dataset.HeaderFor(v, "test"))
	require.NoError(t, err)
	for i := range games {
		require.NoError(t, w.Write(&games[i]))
	}
	require.NoError(t, w.Close())
	whole, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, whole[:len(whole)-3], 0o644))
	_, read, bad := readAll(t, path)
	require.ErrorIs(t, bad, dataset.ErrCutShort)
	require.Len(t, read, 1)
	flipped := bytes.Clone(whole)
	flipped[len(whole)-3] ^= 0x10
	require.NoError(t, os.WriteFile(path, flipped, 0o644))
	_, _, bad = readAll(t, path)
	require.Error(t, bad)
	require.NotErrorIs(t, bad, dataset.ErrCutShort)
}
