package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

func TestResult(t *testing.T) {
	v := variants.Chess()
	for _, tc := range []struct {
		name, fen string
		moves     []string
		reason    engine.Reason
		pgn       string
	}{
		{"start", variants.ChessFEN, nil, engine.Ongoing, "*"},
		{"fool's mate", variants.ChessFEN, []string{"f2f3", "e7e5", "g2g4", "d8h4"}, engine.Checkmate, "0-1"},
		{"back-rank mate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", []string{"a1a8"}, engine.Checkmate, "1-0"},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", nil, engine.Stalemate, "1/2-1/2"},
		{"fifty moves", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", []string{"a1a2"}, engine.MoveRuleDraw, "1/2-1/2"},
		{"not yet fifty", "4k3/8/8/8/8/8/8/R3K3 w - - 98 80", []string{"a1a2"}, engine.Ongoing, "*"},
		{"mate beats fifty", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", []string{"a1a8"}, engine.Checkmate, "1-0"},
		{"threefold", variants.ChessFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}, engine.RepetitionDraw, "1/2-1/2"},
		{"twofold only", variants.ChessFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8"}, engine.Ongoing, "*"},
		{"bare kings", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", nil, engine.InsufficientMaterialDraw, "1/2-1/2"},
		{"king and knight", "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", nil, engine.InsufficientMaterialDraw, "1/2-1/2"},
		{"same-coloured bishops", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", nil, engine.InsufficientMaterialDraw, "1/2-1/2"},
		{"opposite bishops", "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", nil, engine.Ongoing, "*"},
		{"two knights", "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", nil, engine.Ongoing, "*"},
		{"a pawn", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", nil, engine.Ongoing, "*"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := v.ParseFEN(tc.fen)
			require.NoError(t, err)
			for _, s := range tc.moves {
				m, err := p.ParseUCI(s)
				require.NoError(t, err)
				p.Make(m)
			}
			r := p.Result()
			require.Equal(t, tc.reason, r.Reason, r.String())
			require.Equal(t, tc.pgn, r.PGN())
		})
	}
}

func TestSAN(t *testing.T) {
	v := variants.Chess()
	p, err := v.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(t, err)
	for uci, san := range map[string]string{
		"e1g1": "O-O", "e1c1": "O-O-O", "e5f7": "Nxf7", "d5e6": "dxe6", "c3b1": "Nb1",
		"e2a6": "Bxa6", "f3f6": "Qxf6", "g2h3": "gxh3", "a1b1": "Rb1",
	} {
		m, err := p.ParseUCI(uci)
		require.NoError(t, err, uci)
		require.Equal(t, san, p.SAN(m), uci)
		back, err := p.ParseSAN(san)
		require.NoError(t, err, san)
		require.Equal(t, m, back, san)
	}
	m, err := p.ParseSAN("0-0-0")
	require.NoError(t, err)
	require.Equal(t, "e1c1", v.UCI(m))
	_, err = p.ParseSAN("Nf9")
	require.ErrorContains(t, err, "not legal")

	// Disambiguation by file, by rank, and by both.
	for fen, moves := range map[string]map[string]string{
		"4k3/8/8/8/8/8/8/R4R1K w - - 0 1":   {"a1c1": "Rac1", "f1c1": "Rfc1", "f1f5": "Rf5"},
		"R7/8/8/8/8/4k3/8/R6K w - - 0 1":    {"a8a5": "R8a5", "a1a5": "R1a5"},
		"4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1": {"a1b2": "Qa1b2", "a3b2": "Q3b2", "c1b2": "Qcb2"},
	} {
		pos, err := v.ParseFEN(fen)
		require.NoError(t, err)
		for uci, san := range moves {
			m, err := pos.ParseUCI(uci)
			require.NoError(t, err, uci)
			require.Equal(t, san, pos.SAN(m), "%s in %s", uci, fen)
		}
	}

	// Promotion with check and mate marks.
	q, err := v.ParseFEN("7k/P7/7K/8/8/8/8/8 w - - 0 1")
	require.NoError(t, err)
	m, err = q.ParseUCI("a7a8q")
	require.NoError(t, err)
	require.Equal(t, "a8=Q#", q.SAN(m))
	m, err = q.ParseUCI("a7a8n")
	require.NoError(t, err)
	require.Equal(t, "a8=N", q.SAN(m))
}

// TestInsufficientMaterialFollowsTheGoal pins which built-in variants apply
// chess's insufficient-material draw: exactly those whose engine.Goal is
// chess's and that have no hands (the rule is derived, not listed per
// variant).
func TestInsufficientMaterialFollowsTheGoal(t *testing.T) {
	noDraw := map[string]bool{"horde": true, "madking": true, "atomic": true, "shatranj": true, "antichess": true,
		"giveaway": true, "losers": true, "extinction": true, "kingofthehill": true, "3check": true, "5check": true, "racingkings": true,
		"crazyhouse": true, "minishogi": true, "shogi": true, "seirawan": true, "shouse": true, "xiangqi": true, "minixiangqi": true, "janggi": true,
		"makruk": true, "courier": true, "codrus": true, "kinglet": true, "ai-wok": true, "janggitraditional": true,
		"janggimodern": true, "janggicasual": true, "capahouse": true, "pocketknight": true, "gorogoro": true,
		"judkins": true, "dobutsu": true, "clobber": true, "clobber10": true, "breakthrough": true, "manchu": true,
		"threekings": true, "jesonmor": true, "suicide": true, "loop": true, "chessgi": true, "bughouse": true,
		"makpong": true, "euroshogi": true, "supply": true, "kyotoshogi": true, "micro": true, "placement": true,
		"asean": true, "sittuyin": true, "cambodian": true, "karouk": true, "shatar": true, "koedem": true}
	cat := variants.Builtin()
	for _, name := range cat.Names() {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		require.Equal(t, !noDraw[cat.Canonical(name)], v.DrawsInsufficientMaterial(), name) // an alias as its variant
	}
}
