package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/internal/compare"
	"github.com/chimera-chess/chimera/tablebase"
)

func newCompareCommand() *cobra.Command {
	var (
		f                    tbFlags
		material, depths     string
		movetimes, svgPath   string
		evaluation, evalFile string
		syzygyDirs           []string
		positions            int
		seed                 uint64
	)
	cmd := &cobra.Command{
		Use:   "compare --material KBNvK --positions 500 --depth 2,4,6 | --movetime MS [--syzygy DIR] [--svg FILE]",
		Short: "Measure how far search falls short of perfect play",
		Long: `Compare takes random won positions of an ending, lets the search (without
tablebases) play the winning side against the tablebase's best defence (the
longest resistance), and reports for each search setting: the share of games
mated, mated within the fifty-move rule, the moves used against the optimal
distance, the share of moves that kept the shortest mate, and the share that
threw the win away. --svg draws the moves used against the optimum. Ctrl-C
stops it: the finished games are reported (and drawn), the games under way
are not counted, and the exit status is 130.

--syzygy DIR (repeatable) takes the positions and perfect play from
Syzygy's tables of chess there instead, for endings of up to seven pieces;
nothing is generated. The material's files, and those its captures and
promotions lead to, must all be there. Syzygy knows the distance to zeroing
(the next capture, pawn move or mate) under the fifty-move rule, not the
distance to mate, so perfect play is Syzygy's: the defence the slowest way
to the next zeroing move, the starts wins within the rule; "best moves" are
the DTZ-optimal ones (fastest to the next zeroing move) and "optimal" is the
moves Syzygy's perfect play of both sides takes from the start to mate.
Where mate is the only zeroing move (KQvK, KRvK, KBNvK) that is the shortest
mate against the longest resistance; elsewhere it can be longer or shorter
(the defence resists the next zeroing move, not the mate), and the search
can take fewer moves.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cat, err := f.vf.catalogue()
			if err != nil {
				return err
			}
			v, err := cat.Lookup(f.vf.name)
			if err != nil {
				return err
			}
			// Perfect play: Syzygy's tables, or Chimera's own, built below
			// once the flags are checked.
			var (
				perfect compare.Perfect
				ending  tablebase.Material
			)
			if len(syzygyDirs) > 0 {
				tables, err := compare.OpenSyzygy(syzygyDirs, v, material)
				if err != nil {
					return err
				}
				defer tables.Close()
				perfect, ending = tables, tables.Material
			} else if ending, err = tablebase.ParseMaterial(v, material); err != nil {
				return err
			}
			settings, err := compareSettings(depths, movetimes)
			if err != nil {
				return err
			}
			if positions < 1 {
				return errors.New("compare: --positions must be at least 1")
			}
			var svg *os.File
			if svgPath != "" {
				// Opened first, so a bad path is said before the run.
				if svg, err = os.Create(svgPath); err != nil {
					return fmt.Errorf("compare: %w", err)
				}
				defer svg.Close()
			}
			errOut := cmd.ErrOrStderr()
			if perfect == nil {
				store := f.store(errOut)
				table, err := store.Build(v, ending, tablebase.Hooks{})
				if err != nil {
					return err
				}
				perfect = &compare.OwnTables{Table: table, Store: store}
			}
			planned := positions * len(settings) // until Progress says (there may be fewer won positions)
			line := newLiveLine(errOut)
			c := &compare.Comparison{Perfect: perfect, Settings: settings, Positions: positions, Seed: seed,
				Evaluation: evaluation, EvalFile: evalFile, Catalogue: cat,
				Progress: func(done, total int) {
					planned = total
					// Every game on a terminal; in a log, a line a tenth.
					if line.live || done*10/total != (done-1)*10/total {
						line.report("games %d/%d", done, total)
					}
				}}
			ctx, stop := interruptible(cmd)
			defer stop()
			rows, err := c.Run(ctx)
			line.end()
			stopped := err != nil && ctx.Err() != nil
			if err != nil && !stopped {
				return err
			}
			// Interrupted, the rows are those of the games finished: a
			// setting not begun, or begun without a game finished, has
			// none to show.
			rows = slices.DeleteFunc(rows, func(r compare.Row) bool { return r.Games == 0 })
			bySyzygy := len(syzygyDirs) > 0
			if len(rows) > 0 {
				printComparison(cmd.OutOrStdout(), ending.String(), bySyzygy, rows)
			}
			if svg != nil {
				if err := writeComparisonSVG(svg, v.Name+" "+ending.String(), bySyzygy, rows); err != nil {
					return fmt.Errorf("compare: %s: %w", svgPath, err)
				}
			}
			if stopped {
				finished := 0
				for _, r := range rows {
					finished += r.Games
				}
				return interrupted("compare", "%d of %d games finished and reported above, each setting's row over its finished games; the games under way are not",
					finished, planned)
			}
			return nil
		},
	}
	f.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&material, "material", "KBNvK", "the ending, strong side first")
	intFlag(fl, &positions, "positions", 100, 1, 1000000, "random won positions to play")
	fl.StringVar(&depths, "depth", "", "comma-separated search depths, e.g. 2,4,6")
	fl.StringVar(&movetimes, "movetime", "", "comma-separated milliseconds per move")
	fl.StringVar(&svgPath, "svg", "", "write a chart to this SVG file")
	fl.StringVar(&evaluation, "evaluation", "documents", "the search's evaluation: documents (the reference) or tuned")
	fl.StringVar(&evalFile, "eval-file", "", "a weights file for the tuned evaluation")
	fl.Uint64Var(&seed, "seed", 1, "seed for choosing the positions")
	fl.StringArrayVar(&syzygyDirs, "syzygy", nil, "a directory of chess's Syzygy tables (.rtbw, .rtbz) to take positions and perfect play from instead of Chimera's tables (repeatable)")
	return cmd
}

func compareSettings(depths, movetimes string) ([]compare.Setting, error) {
	var out []compare.Setting
	parse := func(list, what string, add func(int)) error {
		if list == "" {
			return nil
		}
		for _, s := range strings.Split(list, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 1 {
				return fmt.Errorf("compare: --%s %q: want positive numbers separated by commas", what, list)
			}
			add(n)
		}
		return nil
	}
	if err := parse(depths, "depth", func(n int) { out = append(out, compare.Setting{Depth: n}) }); err != nil {
		return nil, err
	}
	if err := parse(movetimes, "movetime", func(n int) {
		out = append(out, compare.Setting{MoveTime: time.Duration(n) * time.Millisecond})
	}); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("compare: give --depth or --movetime")
	}
	return out, nil
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func avg(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// avgText is avg for a table cell: a dash when there is nothing to average.
func avgText(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", avg(a, b))
}

// printComparison writes the rows as a table with its legend; bySyzygy
// says that perfect play was Syzygy's, whose optimum and best moves are
// by distance to zeroing.
func printComparison(w io.Writer, material string, bySyzygy bool, rows []compare.Row) {
	if bySyzygy {
		fmt.Fprintf(w, "%s: search (winning side) against perfect defence by Syzygy's tables (distance to zeroing, no distance to mate)\n", material)
	} else {
		fmt.Fprintf(w, "%s: search (winning side) against perfect defence\n", material)
	}
	fmt.Fprintf(w, "%-16s %6s %8s %10s %10s %10s %10s %10s %10s\n", "setting", "games", "mated", "mated<=50", "rule drew", "avg moves", "optimal", "best moves", "win lost")
	for _, r := range rows {
		fmt.Fprintf(w, "%-16s %6d %7.1f%% %9.1f%% %9.1f%% %10s %10s %9.1f%% %9.1f%%\n", r.Setting, r.Games,
			pct(r.Mated, r.Games), pct(r.MatedIn50, r.Games), pct(r.RuleDrawn, r.Games), avgText(r.MovesUsed, r.Mated), avgText(r.MovesOptimal, r.Mated),
			pct(r.OptimalMoves, r.Moves), pct(r.Blunders, r.Games))
	}
	fmt.Fprintln(w, "games start from wins within the fifty-move rule (no cursed wins); mated<=50: converted within the rule;")
	fmt.Fprintln(w, "rule drew: the search let the distance to zeroing outgrow the clock, so perfect defence draws by the rule;")
	fmt.Fprintln(w, "avg moves and optimal are over the mated games only (- when none was mated)")
	if bySyzygy {
		fmt.Fprintln(w, "optimal: the moves Syzygy's perfect play (fastest to each zeroing move against the slowest) takes to mate from")
		fmt.Fprintln(w, "the same start: the shortest mate where mate is the only zeroing move (KQvK, KRvK), elsewhere longer or shorter;")
		fmt.Fprintln(w, "best moves: the DTZ-optimal ones (as few plies to the next zeroing move as perfect play), not the shortest mate's")
	}
}

// writeComparisonSVG draws, per setting, the average moves used (in the
// mated games) next to the optimal distance, and the share mated;
// bySyzygy labels the optimum as Syzygy's perfect play.
func writeComparisonSVG(w io.Writer, title string, bySyzygy bool, rows []compare.Row) error {
	const (
		width, height     = 720, 420
		left, bottom, top = 70, 60, 66
		barW, groupW      = 36, 120
	)
	maxMoves := 1.0
	for _, r := range rows {
		maxMoves = max(maxMoves, avg(r.MovesUsed, r.Mated), avg(r.MovesOptimal, r.Mated))
	}
	plotH := float64(height - bottom - top)
	y := func(moves float64) float64 { return float64(height-bottom) - plotH*moves/(maxMoves*1.15) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="13">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="28" font-size="17">%s: moves to mate, search vs perfect play</text>`+"\n", left, title)
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, height-bottom, width-20, height-bottom)
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, top, left, height-bottom)
	for tick := 0.0; tick <= maxMoves*1.15; tick += 10 {
		fmt.Fprintf(&b, `<text x="%d" y="%.0f" text-anchor="end">%.0f</text><line x1="%d" y1="%.0f" x2="%d" y2="%.0f" stroke="#ddd"/>`+"\n",
			left-6, y(tick)+4, tick, left, y(tick), width-20, y(tick))
	}
	fmt.Fprintf(&b, `<text transform="translate(20,%d) rotate(-90)">average moves (mated games, n each)</text>`+"\n", height/2+80)
	for i, r := range rows {
		x := left + 30 + i*groupW
		used, opt := avg(r.MovesUsed, r.Mated), avg(r.MovesOptimal, r.Mated)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", x+barW, height-bottom+18, r.Setting)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill="#555">mated %d of %d</text>`+"\n", x+barW, height-bottom+36, r.Mated, r.Games)
		if r.Mated == 0 {
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill="#555">no mate: no bars</text>`+"\n", x+barW, height-bottom-10)
			continue
		}
		fmt.Fprintf(&b, `<text x="%d" y="%.0f" text-anchor="middle" font-size="11">n=%d</text>`+"\n", x+barW, min(y(used), y(opt))-6, r.Mated)
		fmt.Fprintf(&b, `<rect x="%d" y="%.0f" width="%d" height="%.0f" fill="#d9534f"><title>used %.1f</title></rect>`+"\n",
			x, y(used), barW, float64(height-bottom)-y(used), used)
		fmt.Fprintf(&b, `<rect x="%d" y="%.0f" width="%d" height="%.0f" fill="#5cb85c"><title>optimal %.1f</title></rect>`+"\n",
			x+barW+4, y(opt), barW, float64(height-bottom)-y(opt), opt)
	}
	// The legend: each label starts after its swatch, the second item
	// after the first one's text (about 7 px a character at this size).
	optimal := "optimal (tablebase)"
	if bySyzygy {
		optimal = "Syzygy's perfect play (by distance to zeroing)"
	}
	legend := left + 10
	for _, item := range []struct{ colour, label string }{{"#d9534f", "search"}, {"#5cb85c", optimal}} {
		fmt.Fprintf(&b, `<rect x="%d" y="40" width="12" height="12" fill="%s"/><text x="%d" y="51">%s</text>`+"\n", legend, item.colour, legend+18, item.label)
		legend += 18 + 7*len(item.label) + 24
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
