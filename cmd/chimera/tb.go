package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// tbFlags are the flags every tablebase command takes.
type tbFlags struct {
	vf  variantFlags
	dir string
	// saveRequired: a table that cannot be saved fails the command.
	saveRequired bool
}

func (f *tbFlags) register(cmd *cobra.Command) {
	f.vf.register(cmd)
	cmd.Flags().StringVar(&f.dir, "dir", "", "tablebase directory (default: "+tablebase.DefaultDir()+")")
}

// table resolves the variant and the material argument and returns the
// table, generating it if need be, and the store it is in.
func (f *tbFlags) table(cmd *cobra.Command, material string) (*engine.Variant, *tablebase.Table, *tablebase.Store, error) {
	v, err := f.vf.variant()
	if err != nil {
		return nil, nil, nil, err
	}
	m, err := tablebase.ParseMaterial(v, material)
	if err != nil {
		return nil, nil, nil, err
	}
	store := f.store(cmd.ErrOrStderr())
	t, err := store.Build(v, m, tablebase.Hooks{})
	return v, t, store, err
}

// store opens the store, with generation progress on stderr.
func (f *tbFlags) store(errOut io.Writer) *tablebase.Store {
	s := tablebase.NewStore(f.dir)
	s.SaveRequired = f.saveRequired
	s.Log = func(msg string) { fmt.Fprintf(errOut, "\r%s\n", msg) }
	last := -1
	s.Progress = func(m tablebase.Material, frac float64) {
		const width = 30
		if pct := int(100 * frac); pct != last {
			last = pct
			n := int(frac * width)
			fmt.Fprintf(errOut, "\r%-8s [%s%s] %3d%%", m, strings.Repeat("#", n), strings.Repeat(".", width-n), pct)
		}
		if frac >= 1 {
			fmt.Fprintln(errOut)
			last = -1
		}
	}
	return s
}

func newTablebaseCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tb",
		Short: "Generate, probe and inspect endgame tablebases",
		Long: `Tablebases give perfect play for endings of up to five pieces (kings
included), with or without pawns, by retrograde analysis, in any variant
whose pieces the generator can un-move (leapers and riders, lame or not,
pawns with double steps, en passant and promotions). Material is written
strong side first: KBNvK, KRPvKR. Tables are generated on first use, with
the smaller ones captures and promotions lead into, and kept in the
tablebase directory.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newTBGenerateCommand(), newTBProbeCommand(), newTBStatsCommand(), newTBVerifyCommand())
	return cmd
}

func newTBGenerateCommand() *cobra.Command {
	var f tbFlags
	var cpuProfile string
	cmd := &cobra.Command{
		Use:   "generate MATERIAL",
		Short: "Generate a table (and the smaller ones it needs) and save it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			start := time.Now()
			// A generation's memory is a few huge arrays without pointers,
			// cheap to collect: collecting at 25% growth instead of 100%
			// keeps a five-piece generation's peak near what it holds.
			defer debug.SetGCPercent(debug.SetGCPercent(25))
			if cpuProfile != "" {
				stop, err := startCPUProfile(cpuProfile)
				if err != nil {
					return err
				}
				defer stop()
			}
			f.saveRequired = true
			v, t, _, err := f.table(cmd, args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s %s: %d entries per side to move (symmetries: %s; generator: %s), %.2fs, in %s\n", v.Name, t.Material,
				t.Entries(), t.Symmetries(), t.Generator(), time.Since(start).Seconds(), f.dir)
			return nil
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the generation to this file (for go tool pprof)")
	return cmd
}

// startCPUProfile starts writing a CPU profile to path; the returned
// function stops it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	out, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); out.Close() }, nil
}

func newTBVerifyCommand() *cobra.Command {
	var f tbFlags
	cmd := &cobra.Command{
		Use:   "verify MATERIAL",
		Short: "Check a table against a one-ply search over every legal position",
		Long: `Verify sets up every position of the table in the rules core, makes each
legal move there and values the position after it by the table itself or,
after a capture, by the smaller table; the best of those values must be
the stored one exactly. So every win has a move to a loss one ply shorter,
no draw has a winning move, and every loss's moves all lead to wins no
longer than it. Disagreements are printed (at most 20, then a count) and
make the command fail.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			start := time.Now()
			v, t, store, err := f.table(cmd, args[0])
			if err != nil {
				return err
			}
			errOut := cmd.ErrOrStderr()
			rep := tablebase.Verify(t, store.Finder(tablebase.Build), func(frac float64) { fmt.Fprintf(errOut, "\rverifying %s %3d%%", t.Material, int(100*frac)) })
			fmt.Fprintln(errOut)
			out := cmd.OutOrStdout()
			for _, d := range rep.Disagreements {
				fmt.Fprintln(out, d)
			}
			bad := len(rep.Disagreements) + rep.More
			fmt.Fprintf(out, "%s %s: %d positions checked, %d disagreements, %.1fs\n", v.Name, t.Material, rep.Checked, bad,
				time.Since(start).Seconds())
			if bad > 0 {
				return fmt.Errorf("tb verify: %s %s has %d disagreements", v.Name, t.Material, bad)
			}
			return nil
		},
	}
	f.register(cmd)
	return cmd
}

func newTBStatsCommand() *cobra.Command {
	var f tbFlags
	cmd := &cobra.Command{
		Use:   "stats MATERIAL",
		Short: "Print counts per result and the histogram of distances to mate",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.saveRequired = true
			v, t, _, err := f.table(cmd, args[0])
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			for stm, side := range []string{"white", "black"} {
				st := t.Stats(stm, nil)
				fmt.Fprintf(out, "%s %s, %s to move: %d legal positions: %d won, %d drawn, %d lost (%d checkmated, %d stalemates)\n",
					v.Name, t.Material, side, st.Legal, st.Win, st.Draw, st.Loss, st.Checkmated, st.Stalemate)
				histogram(out, "  win, mate in", st.WinPlies, func(p int) int { return (p + 1) / 2 })
				histogram(out, "  loss, mated in", st.LossPlies, func(p int) int { return p / 2 })
			}
			return nil
		},
	}
	f.register(cmd)
	return cmd
}

// histogram prints "label N: count" rows in order of distance.
func histogram(out io.Writer, label string, plies map[int]int, moves func(int) int) {
	var keys []int
	for k := range plies {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(out, "%s %d: %d\n", label, moves(k), plies[k])
	}
}

func newTBProbeCommand() *cobra.Command {
	var (
		f       tbFlags
		fen     string
		fenFile string
		asJSON  bool
	)
	cmd := &cobra.Command{
		Use:   "probe --fen FEN | --fen-file FILE [--json]",
		Short: "Say a position's value and the value of every move",
		Long: `Probe prints a position's result, distance to mate and best moves, and the
value of every legal move, in words a player reads. --fen-file answers one
position per line; with --json each answer is one JSON object:
{"fen":…,"wdl":1|0|-1,"dtm":P,"best":[…]} (dtm in signed plies), or
{"fen":…,"error":"…"} for a position no table covers.`,
		Args: fenNoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := f.vf.variant()
			if err != nil {
				return err
			}
			if (fen == "") == (fenFile == "") {
				return errors.New("tb probe: give --fen or --fen-file")
			}
			store := f.store(cmd.ErrOrStderr())
			out := cmd.OutOrStdout()
			if fen != "" {
				ans := probeOne(store, v, fen)
				if asJSON {
					return json.NewEncoder(out).Encode(ans)
				}
				if ans.Error != "" {
					return errors.New(ans.Error)
				}
				printProbe(out, ans)
				return nil
			}
			file, err := os.Open(fenFile)
			if err != nil {
				return fmt.Errorf("tb probe: %w", err)
			}
			defer file.Close()
			sc := bufio.NewScanner(file)
			enc := json.NewEncoder(out)
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				if line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				line, _, _ = strings.Cut(line, ";") // EPD-style annotations
				ans := probeOne(store, v, strings.TrimSpace(line))
				if asJSON {
					enc.Encode(ans)
				} else if ans.Error != "" {
					fmt.Fprintf(out, "%s: %s\n", ans.FEN, ans.Error)
				} else {
					printProbe(out, ans)
				}
			}
			return sc.Err()
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&fen, "fen", "", "the position")
	cmd.Flags().StringVar(&fenFile, "fen-file", "", "a file of positions, one per line")
	cmd.Flags().BoolVar(&asJSON, "json", false, "answer in JSON, one object per line")
	return cmd
}

// probeAnswer is one probe's answer, as JSON writes it.
type probeAnswer struct {
	FEN   string       `json:"fen"`
	WDL   *int         `json:"wdl,omitempty"`
	DTM   *int         `json:"dtm,omitempty"`
	Best  []string     `json:"best,omitempty"`
	Error string       `json:"error,omitempty"`
	moves []moveAnswer // for the text form
	words string
}

type moveAnswer struct {
	move, words string
}

func probeOne(store *tablebase.Store, v *engine.Variant, fen string) probeAnswer {
	ans := probeAnswer{FEN: fen}
	p, err := v.ParseFEN(fen)
	if err != nil {
		ans.Error = err.Error()
		return ans
	}
	t, err := store.Find(p, tablebase.Build)
	if err != nil {
		ans.Error = err.Error()
		return ans
	}
	r, err := t.Probe(p)
	if err != nil {
		ans.Error = err.Error()
		return ans
	}
	all, best, err := t.Moves(p, store.Finder(tablebase.Build))
	if err != nil {
		ans.Error = err.Error()
		return ans
	}
	ans.WDL, ans.DTM, ans.words = &r.WDL, &r.DTM, r.String()
	for _, m := range best {
		ans.Best = append(ans.Best, v.UCI(m))
	}
	slices.Sort(ans.Best)
	if ans.Best == nil {
		ans.Best = []string{}
	}
	for _, mv := range all {
		ans.moves = append(ans.moves, moveAnswer{move: p.SAN(mv.Move), words: mv.Result.String()})
	}
	return ans
}

func printProbe(out io.Writer, ans probeAnswer) {
	fmt.Fprintf(out, "%s\n  %s", ans.FEN, ans.words)
	if len(ans.Best) > 0 {
		fmt.Fprintf(out, "; best: %s", strings.Join(ans.Best, " "))
	}
	fmt.Fprintln(out)
	for _, m := range ans.moves {
		fmt.Fprintf(out, "  %-8s %s\n", m.move, m.words)
	}
}
