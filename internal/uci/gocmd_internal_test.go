package uci

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// TestClockWords: each dialect's clock words reach the right side's
// clock: USI's b is sente (the engine's White), byoyomi is added to both
// clocks and given back each move, UCCI's time is the side to move's, in
// seconds with usemillisec off.
func TestClockWords(t *testing.T) {
	shogi, err := variants.Lookup("shogi")
	require.NoError(t, err)
	xiangqi, err := variants.Lookup("xiangqi")
	require.NoError(t, err)
	black := xiangqi.StartPosition()
	black.Make(black.LegalMoves(nil)[0])
	ms := time.Millisecond
	for _, tc := range []struct {
		name    string
		units   goUnits
		args    string
		black   bool
		w, b    time.Duration
		wi, bi  time.Duration
		checkmt bool
	}{
		{"uci", goUnits{dialect: UCI}, "wtime 1000 btime 2000 winc 10 binc 20", false, 1000 * ms, 2000 * ms, 10 * ms, 20 * ms, false},
		{"usi", goUnits{dialect: USI}, "btime 1000 wtime 2000 binc 10 winc 20", false, 1000 * ms, 2000 * ms, 10 * ms, 20 * ms, false},
		{"usi byoyomi", goUnits{dialect: USI}, "btime 0 wtime 60000 byoyomi 5000", false, 5001 * ms, 65000 * ms, 5000 * ms, 5000 * ms, false},
		{"ucci red", goUnits{dialect: UCCI}, "time 1000 increment 10 opptime 2000 oppinc 20", false, 1000 * ms, 2000 * ms, 10 * ms, 20 * ms, false},
		{"ucci black", goUnits{dialect: UCCI}, "time 1000 increment 10 opptime 2000 oppincrement 20", true, 2000 * ms, 1000 * ms, 20 * ms, 10 * ms, false},
		{"ucci seconds", goUnits{dialect: UCCI, seconds: true}, "time 60 increment 1 opptime 30", false, time.Minute, 30 * time.Second, time.Second, 0, false},
		{"usi mate", goUnits{dialect: USI}, "mate 3000", false, 0, 0, 0, 0, true},
	} {
		pos := shogi.StartPosition()
		if tc.units.dialect == UCCI {
			pos = xiangqi.StartPosition()
			if tc.black {
				pos = black
			}
		}
		g, err := parseGo(pos, strings.Fields(tc.args), tc.units)
		require.NoError(t, err, tc.name)
		l := g.limits
		require.Equal(t, [4]time.Duration{tc.w, tc.b, tc.wi, tc.bi}, [4]time.Duration{l.WTime, l.BTime, l.WInc, l.BInc}, tc.name)
		require.Equal(t, tc.checkmt, g.checkmate, tc.name)
		if tc.checkmt {
			require.Equal(t, 3*time.Second, l.MoveTime)
			require.Positive(t, l.Mate)
		}
	}
	// UCI's go mate counts moves and is a search, not USI's checkmate.
	g, err := parseGo(shogi.StartPosition(), []string{"mate", "3"}, goUnits{dialect: UCI})
	require.NoError(t, err)
	require.False(t, g.checkmate)
	require.Equal(t, 3, g.limits.Mate)
}

// TestUSINotation: squares count files from the right and letter ranks
// from the top, on any board; UCI text and USI text turn into each
// other.
func TestUSINotation(t *testing.T) {
	for _, tc := range []struct {
		uci, usi string
		w, h     int
	}{
		{"c3c4", "7g7f", 9, 9},
		{"b2h8+", "8h2b+", 9, 9},
		{"P@e5", "P*5e", 9, 9},
		{"+P@a1", "+P*5e", 5, 5},
		{"a1c4", "3d1a", 3, 4},
		{"e7e8q", "4b4a" + "q", 8, 8},
		{"a10j1", "10a1j", 10, 10},
		{"b2*e5", "8h*5e", 9, 9}, // a launch (stratomic), not a drop
	} {
		if tc.uci == "+P@a1" {
			tc.usi = "+P*5e"
		}
		require.Equal(t, tc.usi, usiFromUCI(tc.uci, tc.w, tc.h), tc.uci)
		back, err := uciFromUSI(tc.usi, tc.w, tc.h)
		require.NoError(t, err, tc.usi)
		require.Equal(t, tc.uci, back, tc.usi)
	}
	for _, bad := range []string{"", "7g", "0a1a", "7z7f", "77g7f", "P*", "**"} {
		_, err := uciFromUSI(bad, 9, 9)
		require.Error(t, err, bad)
	}
	// UCCI: a ten-rank board's ranks from 0.
	require.Equal(t, "h2e2", ucciFromUCI("h3e3", 10))
	back, err := uciFromUCCI("a0a9", 10)
	require.NoError(t, err)
	require.Equal(t, "a1a10", back)
}

// TestSFENRoundTrip: SFEN in and out, hands in Fairy-Stockfish's order.
func TestSFENRoundTrip(t *testing.T) {
	shogi, err := variants.Lookup("shogi")
	require.NoError(t, err)
	for _, sfen := range []string{
		"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
		"lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6",
		"4k4/9/9/9/9/9/9/9/4K4 b GNLPSRBgnl2psr 1",
		"4k4/9/9/9/9/9/9/9/4K4 w 18P2l 30",
	} {
		p, err := parseSFEN(shogi, sfen)
		require.NoError(t, err, sfen)
		require.Equal(t, sfen, sfenOf(p))
	}
	_, err = parseSFEN(shogi, "4k4/9/9/9/9/9/9/9/4K4 b 3 1")
	require.Error(t, err)
	chess, err := variants.Lookup("chess")
	require.NoError(t, err)
	_, err = parseSFEN(chess, "4k3/8/8/8/8/8/8/4K3 b P 1")
	require.ErrorContains(t, err, "no pieces in hand")
}
