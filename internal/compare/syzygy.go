package compare

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
)

// SyzygyTables is perfect play by Syzygy's tables of chess, for endings
// of up to seven pieces that Chimera does not generate. Syzygy knows the
// distance to zeroing (the next capture, pawn move or mate) under the
// fifty-move rule, not the distance to mate, so perfect play is Syzygy's
// (syzygy.Choose): the winner's fastest way to its next zeroing move, the
// defender's slowest, with the clock; in a game played on past the rule
// (the search let it draw), the same without the rule. Hence:
//   - starts are wins within the rule (a win with the counter at zero);
//   - the optimal moves are the DTZ-optimal ones: those Choose ranks
//     best (the same outcome, mate first, the fewest plies to zeroing);
//   - the optimum is the length of Syzygy's perfect play, both sides,
//     from the start to mate. Where mate is the only zeroing move (KQvK,
//     KRvK, KBNvK) that is the shortest mate against the longest
//     resistance; elsewhere it may be longer or shorter (the defence
//     resists the next zeroing move, not the mate: in KQvKR about two
//     starts in five differ, most of them shorter), and a search may take
//     fewer moves.
type SyzygyTables struct {
	// Material is the ending, the strong side (White) first.
	Material tablebase.Material
	v        *engine.Variant
	tables   *syzygy.Tables
}

// maxPerfectPlies bounds Optimum's game: perfect play zeroes within a
// hundred plies each time, and a seven-piece ending has few zeroing moves
// to make.
const maxPerfectPlies = 2000

// OpenSyzygy opens Syzygy's tables in dirs for a material of chess (v
// must be chess): "KQRvKR", up to seven pieces, the side stronger by the
// pieces' values becoming White. A table the material's games may need
// (its own, and those its captures and promotions lead to; .rtbw and
// .rtbz) missing from every directory is refused by its file name.
// Close it when done.
func OpenSyzygy(dirs []string, v *engine.Variant, material string) (*SyzygyTables, error) {
	if chess := variants.Chess(); v != chess && v.Fingerprint() != chess.Fingerprint() {
		return nil, fmt.Errorf("compare: Syzygy's tables are of chess, not %s", v.Name)
	}
	m, err := chessMaterial(v, material)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	if err := checkSyzygyFiles(dirs, m); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	tables, err := syzygy.Open(dirs...)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	return &SyzygyTables{Material: m, v: v, tables: tables}, nil
}

// Close releases the tables' files.
func (s *SyzygyTables) Close() error { return s.tables.Close() }

// Starts implements Perfect: random legal placements of the material,
// White to move, kept where Syzygy says White wins within the rule.
func (s *SyzygyTables) Starts(n int, seed uint64) ([]*engine.Position, error) {
	v := s.v
	rng := rand.New(rand.NewPCG(seed, 7))
	pieces := s.Material.Pieces(v)
	placed := make([]engine.Placement, len(pieces))
	var out []*engine.Position
	for tries := 0; len(out) < n && tries < 1000*n; tries++ {
		var used [64]bool
		for i, pc := range pieces {
			sq := rng.IntN(64)
			for used[sq] {
				sq = rng.IntN(64)
			}
			used[sq] = true
			placed[i] = engine.Placement{Square: engine.SquareAt(sq%8, sq/8), Piece: pc}
		}
		p, err := v.SetUp(placed, engine.White)
		if err != nil {
			continue // a side left in check, or a pawn on its first or last rank
		}
		w, err := s.tables.ProbeWDL(p)
		if err != nil {
			return nil, err
		}
		if w == syzygy.Win {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no won positions found for %s", s.Material)
	}
	return out, nil
}

// Optimum implements Perfect: Syzygy's perfect play, both sides, played
// out from the start to mate.
func (s *SyzygyTables) Optimum(start *engine.Position) (int, error) {
	pos := start.Clone()
	for ply := 0; ply < maxPerfectPlies; ply++ {
		best, err := s.Best(pos)
		if err != nil {
			return 0, err
		}
		if len(best) == 0 {
			if pos.SideToMove() == engine.Black && pos.InCheck() {
				return (ply + 1) / 2, nil
			}
			break
		}
		pos.Make(best[0])
	}
	return 0, fmt.Errorf("Syzygy's perfect play from %s does not mate", start.FEN())
}

// Best implements Perfect: the moves syzygy.Choose ranks best (see
// perfectMoves).
func (s *SyzygyTables) Best(pos *engine.Position) ([]engine.Move, error) {
	values, err := s.tables.MoveValues(pos)
	if err != nil || len(values) == 0 {
		return nil, err
	}
	return perfectMoves(values, pos.HalfmoveClock()), nil
}

// Lost implements Perfect: a loss, blessed or not.
func (s *SyzygyTables) Lost(pos *engine.Position) (bool, error) {
	w, err := s.tables.ProbeWDL(pos)
	return w <= syzygy.BlessedLoss, err
}

// RuleDrawn implements Perfect: perfect play, with the clock, sees only a
// cursed win.
func (s *SyzygyTables) RuleDrawn(pos *engine.Position) (bool, error) {
	values, err := s.tables.MoveValues(pos)
	if err != nil || len(values) == 0 {
		return false, err
	}
	o, _, _ := syzygy.Choose(values, pos.HalfmoveClock(), true)
	return o == syzygy.OutcomeCursedWin, nil
}

// perfectMoves returns the moves syzygy.Choose ranks best for a position
// whose counter is clock, the move it plays first: in a win or a loss,
// those tied with its choice; in a draw, those that keep it. Under the
// fifty-move rule; where the rule has already drawn a win or saved a
// loss (a game played on past it), without it: the fastest conversion
// and the slowest defence still.
func perfectMoves(values []syzygy.MoveValue, clock int) []engine.Move {
	_, move, keep := syzygy.Choose(values, clock, true)
	if move == engine.NoMove {
		_, _, keep = syzygy.Choose(values, clock, false)
	}
	return keep
}

// chessMaterial reads a material of chess of up to seven pieces (Syzygy's
// tables hold more than Chimera's): one king a side, the others of
// QRBNP, each side written king first and strongest first, the side
// stronger by the pieces' values first (as tablebase.ParseMaterial
// orients Chimera's).
func chessMaterial(v *engine.Variant, s string) (tablebase.Material, error) {
	strong, weak, ok := strings.Cut(strings.ToUpper(strings.TrimSpace(s)), "V")
	if !ok {
		return tablebase.Material{}, fmt.Errorf("material %q: want the form KQRvKR", s)
	}
	const order = "KQRBNP"
	side := func(letters string) (string, error) {
		counts := make([]int, len(order))
		for i := 0; i < len(letters); i++ {
			k := strings.IndexByte(order, letters[i])
			if k < 0 {
				return "", fmt.Errorf("material %q: no piece %q in chess", s, letters[i])
			}
			counts[k]++
		}
		if counts[0] != 1 {
			return "", fmt.Errorf("material %q: one king a side", s)
		}
		var b strings.Builder
		for k, n := range counts {
			b.WriteString(strings.Repeat(order[k:k+1], n))
		}
		return b.String(), nil
	}
	var err error
	if strong, err = side(strong); err != nil {
		return tablebase.Material{}, err
	}
	if weak, err = side(weak); err != nil {
		return tablebase.Material{}, err
	}
	if n := len(strong) + len(weak); n > 7 {
		return tablebase.Material{}, fmt.Errorf("material %q: %d pieces, Syzygy's tables hold at most 7", s, n)
	}
	value := func(letters string) int {
		n := 0
		for i := 1; i < len(letters); i++ {
			t := v.TypeByLetter(letters[i])
			n += v.Pieces[t-1].Value*16 + t
		}
		return n
	}
	if value(weak) > value(strong) {
		strong, weak = weak, strong
	}
	return tablebase.Material{Strong: strong, Weak: weak}, nil
}

// checkSyzygyFiles finds, in some directory of dirs, both files of every
// table the games of m may probe: m's own and those its captures and
// promotions lead to, bare kings apart. The first missing is the error.
func checkSyzygyFiles(dirs []string, m tablebase.Material) error {
	seen := map[string]bool{}
	var visit func(white, black string) error
	visit = func(white, black string) error {
		name := syzygyName(white, black)
		if seen[name] || len(white)+len(black) == 2 {
			return nil
		}
		seen[name] = true
		for _, ext := range []string{".rtbw", ".rtbz"} {
			if !anyHolds(dirs, name+ext) {
				what := "Syzygy's " + name + ext
				if name != syzygyName(m.Strong, m.Weak) {
					what += ", which " + m.String() + " leads to,"
				}
				return fmt.Errorf("%s is in none of %s", what, strings.Join(dirs, ", "))
			}
		}
		for _, sides := range [][2]string{{white, black}, {black, white}} {
			own, other := sides[0], sides[1]
			for i := 1; i < len(own); i++ { // the king is never taken
				rest := own[:i] + own[i+1:]
				if err := visit(rest, other); err != nil {
					return err
				}
				if own[i] == 'P' {
					for _, promoted := range "QRBN" {
						if err := visit(sortedSide(rest+string(promoted)), other); err != nil {
							return err
						}
					}
				}
			}
		}
		return nil
	}
	return visit(m.Strong, m.Weak)
}

// sortedSide writes a side's letters king first, then strongest first.
func sortedSide(letters string) string {
	var b strings.Builder
	for _, l := range "KQRBNP" {
		b.WriteString(strings.Repeat(string(l), strings.Count(letters, string(l))))
	}
	return b.String()
}

// syzygyName is the name Syzygy gives the table of two sides (each
// written strongest first): the side with more pieces first; between
// sides of as many pieces, the one with more of the strongest piece where
// they first differ.
func syzygyName(a, b string) string {
	first := len(a) > len(b)
	if len(a) == len(b) {
		first = true
		for _, l := range "KQRBNP" {
			if ca, cb := strings.Count(a, string(l)), strings.Count(b, string(l)); ca != cb {
				first = ca > cb
				break
			}
		}
	}
	if !first {
		a, b = b, a
	}
	return a + "v" + b
}

// anyHolds reports whether some directory holds the regular file name.
func anyHolds(dirs []string, name string) bool {
	for _, dir := range dirs {
		if info, err := os.Stat(filepath.Join(dir, name)); err == nil && info.Mode().IsRegular() {
			return true
		}
	}
	return false
}
