package packed

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// randomTable makes entries shaped like a table's: runs of draws, wins
// and losses with nearby distances, and a sprinkling of non-positions.
func randomTable(n int, hasDTZ bool, seed uint64) (val, dtz [2][]byte) {
	rng := rand.New(rand.NewPCG(seed, 1))
	for side := range 2 {
		val[side] = make([]byte, n)
		if hasDTZ {
			dtz[side] = make([]byte, n)
		}
		for i := range n {
			switch r := rng.IntN(100); {
			case r < 10:
				val[side][i] = notPosition
			case r < 40:
				val[side][i] = 0
			default:
				v := byte(1 + rng.IntN(253))
				val[side][i] = v
				if hasDTZ {
					dtz[side][i] = byte(rng.IntN(255))
				}
			}
		}
	}
	return val, dtz
}

func write(t testing.TB, l Layout, val, dtz [2][]byte) []byte {
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, l, val, dtz, 2))
	return buf.Bytes()
}

// TestRoundTrip reads back every position's entry, block by block and
// whole, with and without distances to zeroing, with a short last block.
func TestRoundTrip(t *testing.T) {
	for _, hasDTZ := range []bool{false, true} {
		l := Layout{Entries: 10_000, BlockEntries: 1 << 10, HasDTZ: hasDTZ}
		val, dtz := randomTable(l.Entries, hasDTZ, 3)
		file := write(t, l, val, dtz)
		r, err := Open(bytes.NewReader(file), 0, l, NewCache(1<<12))
		require.NoError(t, err)
		require.EqualValues(t, len(file), r.Size())
		dv, dz, err := r.Dense()
		require.NoError(t, err)
		for side := range 2 {
			for i, v := range val[side] {
				got, z, err := r.Entry(side, i)
				require.NoError(t, err)
				if v == notPosition {
					continue
				}
				require.Equal(t, v, got, "side %d entry %d", side, i)
				require.Equal(t, v, dv[side][i])
				if hasDTZ {
					require.Equal(t, dtz[side][i], z)
					require.Equal(t, dtz[side][i], dz[side][i])
				} else {
					require.Zero(t, z)
					require.Nil(t, dz[side])
				}
			}
		}
		_, _, err = r.Entry(0, l.Entries)
		require.Error(t, err)
	}
}

// fewerDistances makes a side's decided entries mates in one or mated
// now, keeping their outcomes: its distance streams compress to almost
// nothing.
func fewerDistances(val []byte) {
	for i, v := range val {
		if v != 0 && v != notPosition {
			val[i] = 1 + (v-1)%2
		}
	}
}

// encodeOneSide packs entries with one side's distances dropped, and
// returns the section and its layout.
func encodeOneSide(t testing.TB, l Layout, val, dtz [2][]byte) ([]byte, Layout) {
	p, err := Encode(l, val, dtz, Options{Threads: 2, OneSide: true})
	require.NoError(t, err)
	var buf bytes.Buffer
	_, err = p.WriteTo(&buf)
	require.NoError(t, err)
	return buf.Bytes(), p.Layout
}

// TestDropDistancesCopiesTheBlocks: dropping a side's distances from a
// section read back gives the very bytes Encode with OneSide gives from
// the entries, without compressing again; a section with a side dropped
// already, or a damaged block, is refused.
func TestDropDistancesCopiesTheBlocks(t *testing.T) {
	for _, hasDTZ := range []bool{false, true} {
		l := Layout{Entries: 10_000, BlockEntries: 1 << 10, HasDTZ: hasDTZ}
		val, dtz := randomTable(l.Entries, hasDTZ, 5)
		fewerDistances(val[0]) // White's distance streams the smaller
		both := write(t, l, val, dtz)
		want, wantLayout := encodeOneSide(t, l, val, dtz)
		r, err := Open(bytes.NewReader(both), 0, l, NewCache(1<<12))
		require.NoError(t, err)
		p, err := r.DropDistances()
		require.NoError(t, err)
		require.Equal(t, wantLayout, p.Layout)
		require.Equal(t, [2]bool{false, true}, p.Layout.Dropped)
		var got bytes.Buffer
		_, err = p.WriteTo(&got)
		require.NoError(t, err)
		require.Equal(t, want, got.Bytes(), "hasDTZ %v", hasDTZ)

		one, err := Open(bytes.NewReader(want), 0, wantLayout, NewCache(1<<12))
		require.NoError(t, err)
		_, err = one.DropDistances()
		require.ErrorIs(t, err, ErrDropped)

		damaged := slices.Clone(both)
		damaged[len(damaged)-100] ^= 0x10 // inside Black's last block
		r, err = Open(bytes.NewReader(damaged), 0, l, NewCache(1<<12))
		require.NoError(t, err)
		_, err = r.DropDistances()
		require.ErrorIs(t, err, ErrDamaged)
	}
}

// TestOneSide reads back a section with one side's distances dropped:
// the side whose distance streams are larger, its outcomes exact, its
// entries refused; the other side whole. Too small a saving keeps both.
func TestOneSide(t *testing.T) {
	for _, hasDTZ := range []bool{false, true} {
		l := Layout{Entries: 10_000, BlockEntries: 1 << 10, HasDTZ: hasDTZ}
		val, dtz := randomTable(l.Entries, hasDTZ, 3)
		fewerDistances(val[1]) // Black's distance streams the smaller
		both := write(t, l, val, dtz)
		file, got := encodeOneSide(t, l, val, dtz)
		require.Equal(t, [2]bool{true, false}, got.Dropped, "White's larger distances dropped")
		require.Less(t, len(file), len(both))
		r, err := Open(bytes.NewReader(file), 0, got, NewCache(1<<12))
		require.NoError(t, err)
		require.EqualValues(t, len(file), r.Size())
		require.True(t, r.Dropped(0))
		require.False(t, r.Dropped(1))
		dv, dz, err := r.Dense()
		require.NoError(t, err)
		require.Nil(t, dv[0])
		require.Nil(t, dz[0])
		outcomes, err := r.Outcomes(0)
		require.NoError(t, err)
		for side := range 2 {
			for i, v := range val[side] {
				if v == notPosition {
					continue
				}
				want := wdlOf(outcomeOf(v))
				o, err := r.Outcome(side, i)
				require.NoError(t, err)
				require.Equal(t, want, o, "side %d entry %d", side, i)
				got, z, err := r.Entry(side, i)
				if side == 0 {
					require.ErrorIs(t, err, ErrDropped)
					require.EqualValues(t, want, outcomes[i])
					_, _, ok := r.Cached(side, i)
					require.False(t, ok, "no distances to answer with")
					continue
				}
				require.NoError(t, err)
				require.Equal(t, v, got)
				require.Equal(t, v, dv[side][i])
				if hasDTZ {
					require.Equal(t, dtz[side][i], z)
				}
			}
		}
	}
	// Distances that take almost no bytes beside the outcomes (every win
	// a mate in one, every loss mated now) are kept: searching for them
	// would save under 1%.
	l := Layout{Entries: 200_000, BlockEntries: 1 << 16, HasDTZ: true}
	rng := rand.New(rand.NewPCG(4, 1))
	var val, dtz [2][]byte
	for side := range 2 {
		val[side], dtz[side] = make([]byte, l.Entries), make([]byte, l.Entries)
		for i := range val[side] {
			val[side][i] = byte(rng.IntN(3)) // a draw, checkmated, mate in one
			dtz[side][i] = max(val[side][i], 1) - 1
		}
	}
	_, got := encodeOneSide(t, l, val, dtz)
	require.Equal(t, [2]bool{}, got.Dropped)
}

// TestDamageDetected flips every byte of a small file in turn: each flip
// is an error when the index is opened or the block read, never a
// different value.
func TestDamageDetected(t *testing.T) {
	l := Layout{Entries: 3000, BlockEntries: 1 << 10, HasDTZ: true}
	val, dtz := randomTable(l.Entries, true, 5)
	file := write(t, l, val, dtz)
	for at := range file {
		bad := bytes.Clone(file)
		bad[at] ^= 0x10
		r, err := Open(bytes.NewReader(bad), 0, l, NewCache(0))
		if err != nil {
			require.ErrorIs(t, err, ErrDamaged)
			continue
		}
		_, _, err = r.Dense()
		require.ErrorIs(t, err, ErrDamaged, "flipped byte %d of %d read back", at, len(file))
	}
	// One side's outcomes alone: the same.
	file, one := encodeOneSide(t, l, val, dtz)
	require.NotEqual(t, [2]bool{}, one.Dropped)
	for at := range file {
		bad := bytes.Clone(file)
		bad[at] ^= 0x10
		r, err := Open(bytes.NewReader(bad), 0, one, NewCache(0))
		if err != nil {
			require.ErrorIs(t, err, ErrDamaged)
			continue
		}
		_, _, err = r.Dense()
		if err == nil {
			for side := range 2 {
				if _, err = r.Outcomes(side); err != nil {
					break
				}
			}
		}
		require.ErrorIs(t, err, ErrDamaged, "flipped byte %d of %d read back", at, len(file))
	}
}

// TestCacheBound probes from many goroutines at once (run it with -race):
// the cache never holds more than its bound plus the one block it always
// keeps, and every answer is right.
func TestCacheBound(t *testing.T) {
	l := Layout{Entries: 40_000, BlockEntries: 1 << 10, HasDTZ: true}
	val, dtz := randomTable(l.Entries, true, 9)
	cache := NewCache(5 << 10) // two decoded blocks and a half
	r, err := Open(bytes.NewReader(write(t, l, val, dtz)), 0, l, cache)
	require.NoError(t, err)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 2))
			for range 2000 {
				side, i := rng.IntN(2), rng.IntN(l.Entries)
				v, z, err := r.Entry(side, i)
				if err == nil && val[side][i] != notPosition && (v != val[side][i] || z != dtz[side][i]) {
					err = errors.New("wrong value")
				}
				if used := cache.Used(); used > cache.Limit()+2*(1<<10) {
					err = errors.New("cache over its bound")
				}
				if err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	require.NoError(t, failed)
}

// TestCachedNeverWaits: a probe that may not wait misses a block not
// decoded yet, which is then decoded in the background (at most one at
// once), and answers rightly once it is; probes from many goroutines at
// once mix both kinds (run it with -race). A damaged block is never
// answered that way, and Entry names it.
func TestCachedNeverWaits(t *testing.T) {
	l := Layout{Entries: 40_000, BlockEntries: 1 << 10, HasDTZ: true}
	val, dtz := randomTable(l.Entries, true, 11)
	file := write(t, l, val, dtz)
	cache := NewCache(8 << 10)
	r, err := Open(bytes.NewReader(file), 0, l, cache)
	require.NoError(t, err)
	i := 5000 // a position's entry
	for val[0][i] == notPosition {
		i++
	}
	_, _, ok := r.Cached(0, i)
	require.False(t, ok, "not decoded yet: no answer, no wait")
	require.Eventually(t, func() bool {
		v, z, ok := r.Cached(0, i)
		return ok && v == val[0][i] && z == dtz[0][i]
	}, time.Minute, time.Millisecond, "decoded in the background, then answered")

	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	for g := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			for range 2000 {
				side, i := rng.IntN(2), rng.IntN(l.Entries)
				var v, z byte
				var err error
				ok := true
				if g%2 == 0 {
					v, z, ok = r.Cached(side, i)
				} else {
					v, z, err = r.Entry(side, i)
				}
				mu.Lock()
				cache.mu.Lock()
				warming := len(cache.warming)
				cache.mu.Unlock()
				switch {
				case err != nil:
					failed = err
				case ok && val[side][i] != notPosition && (v != val[side][i] || z != dtz[side][i]):
					failed = errors.New("wrong value")
				case warming > maxWarming:
					failed = errors.New("too many blocks decoded in the background")
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	require.NoError(t, failed)

	// A damaged block: never answered without waiting, an error by Entry.
	damaged := bytes.Clone(file)
	damaged[len(damaged)-10] ^= 0xff // in the last block of Black to move
	d, err := Open(bytes.NewReader(damaged), 0, l, NewCache(8<<10))
	require.NoError(t, err)
	last := l.Entries - 1
	for range 50 {
		_, _, ok := d.Cached(1, last)
		require.False(t, ok)
		time.Sleep(time.Millisecond)
	}
	_, _, err = d.Entry(1, last)
	require.ErrorIs(t, err, ErrDamaged)
}

// FuzzOpen reads arbitrary bytes as a packed section: an error or values,
// never a crash.
func FuzzOpen(f *testing.F) {
	l := Layout{Entries: 500, BlockEntries: 128, HasDTZ: true}
	val, dtz := randomTable(l.Entries, true, 1)
	f.Add(write(f, l, val, dtz))
	oneSide, one := encodeOneSide(f, l, val, dtz)
	f.Add(oneSide)
	cache := NewCache(1 << 10)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Open(bytes.NewReader(data), 0, l, cache)
		if err != nil {
			return
		}
		r.Dense()
		for side := range 2 {
			for i := 0; i < l.Entries; i += 37 {
				r.Entry(side, i)
			}
		}
		if r, err = Open(bytes.NewReader(data), 0, one, cache); err == nil {
			for side := range 2 {
				r.Outcomes(side)
				for i := 0; i < l.Entries; i += 37 {
					r.Entry(side, i)
					r.Outcome(side, i)
				}
			}
		}
	})
}
