package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/explorer"
	"github.com/chimera-chess/chimera/internal/sysmem"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
	"github.com/spf13/cobra"
)

// tbFlags are the flags every tablebase command takes.
type tbFlags struct {
	vf  variantFlags
	dir string
	// saveRequired: a table that cannot be saved fails the command.
	saveRequired bool
	// force builds a table whose generation's estimated memory is more
	// than the machine has available.
	force bool
}

func (f *tbFlags) register(cmd *cobra.Command) {
	f.vf.register(cmd)
	cmd.Flags().StringVar(&f.dir, "dir", "", "tablebase directory (default: "+tablebase.DefaultDir()+")")
}

// registerForce adds --force, for the commands that build tables.
func (f *tbFlags) registerForce(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.force, "force", false,
		"build even when a generation's estimated memory is more than the machine has available (the system may kill it)")
}

// open resolves the variant and opens the store, after checking that its
// directory can hold tables (created when missing) and, when write is set,
// be written to: an unusable directory is refused before any work. A
// read-only directory serves commands that only read (a table that must
// be built there is then refused when it is saved).
func (f *tbFlags) open(cmd *cobra.Command, write bool) (*engine.Variant, *tablebase.Store, error) {
	v, err := f.vf.variant()
	if err != nil {
		return nil, nil, err
	}
	store := f.store(cmd.ErrOrStderr())
	if err := tablebase.CheckDir(store.Dir(), false); err != nil || write {
		if err := tablebase.CheckDir(store.Dir(), true); err != nil {
			return nil, nil, err
		}
	}
	return v, store, nil
}

// build returns a material's table, generating what is missing: it first
// says which tables it will build when they are more than the one asked
// for, and what they take.
func (f *tbFlags) build(cmd *cobra.Command, material string) (*engine.Variant, *tablebase.Table, *tablebase.Store, error) {
	v, store, err := f.open(cmd, true)
	if err != nil {
		return nil, nil, nil, err
	}
	m, err := tablebase.ParseMaterial(v, material)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := announceBuilds(cmd.ErrOrStderr(), store, v, f.force, []tablebase.Material{m}, m); err != nil {
		return nil, nil, nil, err
	}
	t, err := store.Build(v, m, tablebase.Hooks{})
	return v, t, store, err
}

// announceBuilds says, before a command builds the targets' tables, which
// tables that takes and what they take (the files' size and the largest
// generation's memory), when they are more than the ones the user named.
// A generation whose estimated memory the machine does not have available
// is refused first (as the engine's Hash option refuses a table), unless
// forced.
func announceBuilds(out io.Writer, store *tablebase.Store, v *engine.Variant, force bool, targets []tablebase.Material, named ...tablebase.Material) error {
	var plan []tablebase.Material
	for _, m := range targets {
		more, err := store.ToBuild(v, m)
		if err != nil {
			return err
		}
		for _, p := range more {
			if !slices.Contains(plan, p) {
				plan = append(plan, p)
			}
		}
	}
	var files, memory int64
	names := make([]string, len(plan))
	for i, p := range plan {
		c, err := gen.GenerationCost(v, p)
		if err != nil {
			return err
		}
		if !force {
			if err := checkMemory(v, p, c.Memory, availableMemory(), "is available"); err != nil {
				return err
			}
		}
		files += c.File
		memory = max(memory, c.Memory)
		names[i] = p.String()
	}
	extra := 0
	for _, p := range plan {
		if !slices.Contains(named, p) {
			extra++
		}
	}
	if extra == 0 {
		return nil
	}
	fmt.Fprintf(out, "building %d tables of %s into %s, smallest first: %s (about %s of files; the largest generation takes about %s of memory)\n",
		len(plan), v.Name, store.Dir(), strings.Join(names, " "), mebibytes(files), mebibytes(memory))
	return nil
}

// availableMemory is what the system can give the process now, in bytes
// (0: unknown).
func availableMemory() int64 {
	if mb, ok := sysmem.AvailableMB(); ok {
		return int64(mb) << 20
	}
	return 0
}

// checkMemory refuses a generation estimated to take more memory than
// there is (0: unknown, not refused): started anyway it would swap for
// hours or be killed near its end.
func checkMemory(v *engine.Variant, m tablebase.Material, need, have int64, haveWhat string) error {
	if have <= 0 || need <= have {
		return nil
	}
	return fmt.Errorf("%s %s: its generation takes about %s of memory and %s %s: --force builds it anyway (the system may kill it)",
		v.Name, m, mebibytes(need), mebibytes(have), haveWhat)
}

// generationMemory sets the collector for generations, within limit
// bytes when positive, and returns what restores it. A generation's
// memory is a few huge arrays without pointers, cheap to collect:
// collecting at 25% growth instead of 100% keeps a five-piece
// generation's peak near what it holds. The limit makes the collector
// work harder as the process nears it, so that the generations a plan
// runs together, admitted by their estimates, stay within them together:
// under the default 100% two five-piece pawn generations estimated at
// 9.9 GiB each were killed by the kernel at 24.4 GB.
func generationMemory(limit int64) (restore func()) {
	percent := debug.SetGCPercent(25)
	before := debug.SetMemoryLimit(-1)
	if limit > 0 {
		debug.SetMemoryLimit(limit)
	}
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(before)
	}
}

// mebibytes writes a byte count for people.
func mebibytes(n int64) string {
	if n >= 10<<30 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// store opens the store, with generation progress on stderr.
func (f *tbFlags) store(errOut io.Writer) *tablebase.Store {
	s := gen.NewStore(f.dir)
	s.SaveRequired = f.saveRequired
	line := newLiveLine(errOut)
	s.Log = line.println
	last := -1
	s.Progress = func(m tablebase.Material, frac float64) {
		const width = 30
		if pct := int(100 * frac); pct != last {
			last = pct
			n := int(frac * width)
			line.draw("%-8s [%s%s] %3d%%", m, strings.Repeat("#", n), strings.Repeat(".", width-n), pct)
		}
		if frac >= 1 {
			line.end()
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
	cmd.AddCommand(newTBGenerateCommand(), newTBPlanCommand(), newTBProbeCommand(), newTBStatsCommand(), newTBVerifyCommand(),
		newTBRepackCommand())
	return cmd
}

func newTBGenerateCommand() *cobra.Command {
	var f tbFlags
	var cpuProfile string
	cmd := &cobra.Command{
		Use:   "generate MATERIAL",
		Short: "Generate a table (and the smaller ones it needs) and save it",
		Long: `Generate builds the table of one material (KBNvK, KRPvKR: white's pieces,
"v", black's, in the variant's letters) by retrograde analysis, after the
tables its captures and promotions lead to, and saves each in --dir. It
says first which tables it will build and the memory of the largest
generation. A table already on disk is read, not rebuilt; a damaged or
stale file is rebuilt and said so.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			start := time.Now()
			defer generationMemory(0)()
			if cpuProfile != "" {
				stop, err := startCPUProfile(cpuProfile)
				if err != nil {
					return err
				}
				defer stop()
			}
			f.saveRequired = true
			v, t, store, err := f.build(cmd, args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s %s: %d entries per side to move (symmetries: %s; generator: %s), %.2fs, in %s\n", v.Name, t.Material,
				t.Entries(), t.Symmetries(), t.Generator(), time.Since(start).Seconds(), store.Dir())
			return nil
		},
	}
	f.register(cmd)
	f.registerForce(cmd)
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
	var build bool
	var sample float64
	cmd := &cobra.Command{
		Use:   "verify MATERIAL [--build] [--sample SHARE]",
		Short: "Check a table against a one-ply search over every legal position",
		Long: `Verify sets up every position of the table in the rules core, makes each
legal move there and values the position after it by the table itself or,
after a capture, by the smaller table; the best of those values must be
the stored one exactly. So every win has a move to a loss one ply shorter,
no draw has a winning move, and every loss's moves all lead to wins no
longer than it. Disagreements are printed (at most 20, then a count) and
make the command fail.

Verify checks the tables that exist: the table and the smaller ones its
captures and promotions lead into must have files. A missing, damaged or
stale file (made for another definition of the variant) is a failure and
is left as it is. With --build the missing tables are generated first
(the command says which, and what they take).

--sample SHARE checks that share of the positions (0.01: one in a
hundred), spread over the whole table, the same ones every run: a
five-piece table in minutes instead of hours.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !(sample > 0 && sample <= 1) {
				return fmt.Errorf("tb verify: --sample takes a share of the positions, more than 0 and at most 1, not %v", sample)
			}
			start := time.Now()
			f.saveRequired = true
			v, store, err := f.open(cmd, build)
			if err != nil {
				return err
			}
			// A damaged or stale file is what verify reports, never
			// something to rebuild over, even with --build.
			store.KeepFiles = true
			m, err := tablebase.ParseMaterial(v, args[0])
			if err != nil {
				return err
			}
			needs, err := gen.Needs(v, m)
			if err != nil {
				return err
			}
			read := append([]tablebase.Material{m}, needs...)
			var missing []tablebase.Material
			for _, n := range read {
				if !store.HasFile(v, n) {
					missing = append(missing, n)
				}
			}
			policy := tablebase.MemoryOrDisk
			switch {
			case len(missing) > 0 && !build:
				return fmt.Errorf("tb verify: no table file in %s for %s: verify checks the tables that exist (chimera tb generate makes them, or pass --build)",
					store.Dir(), materialNames(missing))
			case build:
				// Verify was asked to check, not to build: every build is said.
				if err := announceBuilds(cmd.ErrOrStderr(), store, v, f.force, missing); err != nil {
					return err
				}
				policy = tablebase.Build
			}
			// The tables verified and read: damaged or stale files are
			// failures here, never rebuilt over.
			t, err := store.FindMaterial(v, m, policy)
			if err != nil {
				return fmt.Errorf("tb verify: %w", err)
			}
			for _, n := range needs {
				if _, err := store.FindMaterial(v, n, policy); err != nil {
					return fmt.Errorf("tb verify: %s needs %s: %w", m, n, err)
				}
			}
			line := newLiveLine(cmd.ErrOrStderr())
			rep, err := gen.VerifySample(t, store.Finder(tablebase.MemoryOnly), sample,
				func(frac float64) { line.draw("verifying %s %3d%%", t.Material, int(100*frac)) })
			line.end()
			if err != nil {
				return fmt.Errorf("tb verify: %w", err)
			}
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
	f.registerForce(cmd)
	cmd.Flags().BoolVar(&build, "build", false, "generate the missing tables first (the table and the ones it needs)")
	cmd.Flags().Float64Var(&sample, "sample", 1, "check this share of the positions (0.01: one in a hundred), spread over the table")
	return cmd
}

// materialNames lists materials for a message.
func materialNames(ms []tablebase.Material) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.String()
	}
	return strings.Join(names, ", ")
}

func newTBStatsCommand() *cobra.Command {
	var f tbFlags
	cmd := &cobra.Command{
		Use:   "stats MATERIAL",
		Short: "Print counts per result and the histogram of distances to mate",
		Long: `Stats prints, for each side to move, the table's legal positions won,
drawn and lost (with checkmates and stalemates), and how many are won and
lost at each distance to mate, in moves: the figures published statistics
give; and, under the variant's move rule, the cursed wins and blessed
losses and the longest distances to zeroing. The table is read from --dir, or generated there first.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.saveRequired = true
			v, t, _, err := f.build(cmd, args[0])
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			for stm, side := range []string{"white", "black"} {
				st, err := t.StatsUntil(stm, nil, nil)
				if err != nil {
					return fmt.Errorf("tb stats: %w", err)
				}
				fmt.Fprintf(out, "%s %s, %s to move: %d legal positions: %d won, %d drawn, %d lost (%d checkmated, %d stalemates)\n",
					v.Name, t.Material, side, st.Legal, st.Win, st.Draw, st.Loss, st.Checkmated, st.Stalemate)
				histogram(out, "  win, mate in", st.WinPlies, func(p int) int { return (p + 1) / 2 })
				histogram(out, "  loss, mated in", st.LossPlies, func(p int) int { return p / 2 })
				if st.DTZ != nil {
					printDTZStats(out, st.DTZ, v)
				}
			}
			return nil
		},
	}
	f.register(cmd)
	f.registerForce(cmd)
	return cmd
}

// printDTZStats prints the positions the move rule decides otherwise than
// mate does (cursed wins, blessed losses) and the longest distances to
// zeroing.
func printDTZStats(out io.Writer, dtz map[int]int, v *engine.Variant) {
	rule, limit := v.MoveRule, tablebase.RuleLimit(v)
	var cursed, blessed, longestWin, longestLoss int
	for d, n := range dtz {
		switch {
		case d > limit:
			cursed += n
		case d < -limit:
			blessed += n
		}
		longestWin, longestLoss = max(longestWin, d), max(longestLoss, -d)
	}
	fmt.Fprintf(out, "  %d-move rule: %d cursed wins, %d blessed losses; longest distance to zeroing: %d plies winning, %d losing\n",
		rule, cursed, blessed, longestWin, longestLoss)
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
		f         tbFlags
		fen       string
		fenFile   string
		asJSON    bool
		syzygyDir []string
	)
	cmd := &cobra.Command{
		Use:   "probe --fen FEN | --fen-file FILE [--json]",
		Short: "Say a position's value and the value of every move",
		Long: `Probe prints a position's result, distance to mate and best moves, and the
value of every legal move (best first), in words a player reads, exactly as
the explorer's API values them: the move rule counted with the position's
clock (a "cursed win" the 50-move rule draws), a position with castling
rights valued from its moves, bare kings drawn by the rules. --fen-file
answers one position per line; with --json each answer is one JSON object:
{"fen":…,"wdl":1|0|-1,"category":…,"dtm":P,"dtz":Z,"best":[…]} (wdl
without the move rule, category with it in the API's words: win,
cursed-win, draw, blessed-loss, loss; dtm and dtz in signed plies), or
{"fen":…,"error":"…"} for a position no table covers. --syzygy DIR
(repeatable) reads chess's Syzygy tables there too: a position they hold
is answered without building a table (with no dtm where Chimera has no
table of its own), as lila-tablebase answers from them.`,
		Args: fenNoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case fen != "" && fenFile != "":
				return errors.New("tb probe: give --fen or --fen-file, not both")
			case fen == "" && fenFile == "":
				return errors.New("tb probe: give --fen or --fen-file")
			}
			v, store, err := f.open(cmd, false)
			if err != nil {
				return err
			}
			var tables *syzygy.Tables
			if len(syzygyDir) > 0 {
				if tables, err = syzygy.Open(syzygyDir...); err != nil {
					return fmt.Errorf("tb probe: %w", err)
				}
				defer tables.Close()
			}
			fens := []fenLine{{text: fen}}
			if fenFile != "" {
				if fens, err = readFENs(fenFile); err != nil {
					return fmt.Errorf("tb probe: %w", err)
				}
			}
			// Every position is answered, in every form; any that could
			// not be fails the command, whichever form it was asked in.
			out := cmd.OutOrStdout()
			enc := json.NewEncoder(out)
			failed, lastError := 0, ""
			for _, line := range fens {
				ans := probeAnswer{FEN: line.text}
				if line.err != nil {
					ans.Error = line.err.Error()
				} else {
					ans = probeOne(cmd.ErrOrStderr(), store, tables, v, line.text, f.force)
				}
				switch {
				case asJSON:
					enc.Encode(ans)
				case ans.Error != "" && fenFile == "":
					// One position: its error is the command's.
				case ans.Error != "":
					fmt.Fprintf(out, "%s: %s\n", shorten(ans.FEN), ans.Error)
				default:
					printProbe(out, ans)
				}
				if ans.Error != "" {
					failed, lastError = failed+1, ans.Error
				}
			}
			switch {
			case failed > 0 && fenFile == "":
				return fmt.Errorf("tb probe: %s", lastError)
			case failed > 0:
				return fmt.Errorf("tb probe: %d of %d positions could not be answered", failed, len(fens))
			}
			return nil
		},
	}
	f.register(cmd)
	f.registerForce(cmd)
	cmd.Flags().StringVar(&fen, "fen", "", "the position")
	cmd.Flags().StringVar(&fenFile, "fen-file", "", "a file of positions, one per line")
	cmd.Flags().BoolVar(&asJSON, "json", false, "answer in JSON, one object per line")
	cmd.Flags().StringArrayVar(&syzygyDir, "syzygy", nil, "a directory of chess's Syzygy tables (.rtbw, .rtbz) to answer from too (repeatable)")
	return cmd
}

// probeAnswer is one probe's answer, as JSON writes it.
type probeAnswer struct {
	FEN string `json:"fen"`
	// WDL is the outcome for the side to move without the move rule, and
	// Category the outcome with it and the position's clock, in the
	// explorer API's words (win, cursed-win, draw, blessed-loss, loss).
	WDL      *int   `json:"wdl,omitempty"`
	Category string `json:"category,omitempty"`
	DTM      *int   `json:"dtm,omitempty"`
	// DTZ is the distance to zeroing under the move rule, null where the
	// variant has none.
	DTZ   *int         `json:"dtz,omitempty"`
	Best  []string     `json:"best,omitempty"`
	Error string       `json:"error,omitempty"`
	moves []moveAnswer // for the text form
	words string
}

type moveAnswer struct {
	move, words string
}

// maxFENLine bounds a line of a FEN file: far beyond any FEN (a 16×16
// board with pieces in hand takes some 400 bytes), and what a longer line
// (not a FEN at all) costs in memory.
const maxFENLine = 16 << 10

// fenLine is one position of a FEN file, or why its line is none.
type fenLine struct {
	text string
	err  error
}

// readFENs reads a file of positions, one per line; blank lines and lines
// starting with # are skipped, and EPD-style annotations after a ; cut. A
// line too long for a FEN is an error of its own, and reading goes on.
func readFENs(path string) ([]fenLine, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	var fens []fenLine
	r := bufio.NewReader(file)
	for n := 1; ; n++ {
		line, long, err := readBoundedLine(r, maxFENLine)
		text := strings.TrimSpace(line)
		switch {
		case long > 0:
			fens = append(fens, fenLine{text: shorten(text), err: fmt.Errorf("line %d: %d bytes, too long for a FEN", n, long)})
		case text != "" && !strings.HasPrefix(text, "#"):
			text, _, _ = strings.Cut(text, ";")
			fens = append(fens, fenLine{text: strings.TrimSpace(text)})
		}
		if err == io.EOF {
			return fens, nil
		}
		if err != nil {
			return fens, err
		}
	}
}

// readBoundedLine reads a line (without its end) of at most limit bytes;
// a longer one is read to its end but not kept beyond limit, and long is
// its length (0 for a line within the limit).
func readBoundedLine(r *bufio.Reader, limit int) (line string, long int, err error) {
	var buf []byte
	total := 0
	for {
		chunk, err := r.ReadSlice('\n')
		total += len(chunk)
		if len(buf) < limit {
			buf = append(buf, chunk[:min(len(chunk), limit-len(buf))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if total > limit {
			long = total
		}
		return strings.TrimRight(string(buf), "\r\n"), long, err
	}
}

// shorten makes a line fit a message: its start, quoted when it is not
// plain printable text (a binary file's bytes never reach the terminal).
func shorten(text string) string {
	const most = 60
	short := text
	if len(short) > most {
		cut := most
		for cut > 0 && !utf8.RuneStart(short[cut]) {
			cut-- // a character is kept whole or not at all
		}
		short = short[:cut] + "…"
	}
	if !utf8.ValidString(text) || strings.IndexFunc(text, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(short)
	}
	return short
}

// probeOne answers one position, building its table (and saying so first
// when that means more tables) when it has no file, then valuing it and
// its moves as the explorer's API does: with the move rule and the
// position's clock, a position with castling rights from its moves, bare
// kings by the rules.
func probeOne(errOut io.Writer, store *tablebase.Store, tables *syzygy.Tables, v *engine.Variant, fen string, force bool) probeAnswer {
	ans := probeAnswer{FEN: fen}
	p, err := v.ParseFEN(fen)
	if err != nil {
		ans.Error = err.Error()
		return ans
	}
	targets, noTable := probeTargets(p)
	if syzygyHolds(tables, p) {
		targets = nil // Syzygy's tables answer: nothing to build
	}
	if err := announceBuilds(errOut, store, v, force, targets, targets...); err != nil {
		noTable = err
	}
	for _, m := range targets {
		if _, err := store.FindMaterial(v, m, tablebase.Build); err != nil {
			noTable = err
		}
	}
	a := explorer.ProbeWith(store, tables, p)
	if a.Category == "unknown" {
		ans.Error = cmp.Or(noTable, errors.New("no table holds this position or its moves")).Error()
		if a.Building != nil && a.Building.Error != "" {
			ans.Error = a.Building.Error // a damaged file
		}
		return ans
	}
	wdl, dtm, dtz := outcome(a.Category), a.DTM, a.DTZ
	if dtm == nil && dtz == nil && len(a.Moves) > 0 {
		// No table holds the position (castling rights left): its best
		// move's distances, one ply on.
		_, dtm, dtz = moversView(a.Moves[0])
	}
	ans.WDL, ans.DTM, ans.DTZ, ans.Category = &wdl, dtm, dtz, a.Category
	ans.words = probeWords(v, a.Category, dtm, dtz, a.State)
	// The best moves keep the category and, by distance to mate where it
	// is known, else (Syzygy's tables) by distance to zeroing: the moves
	// come best first, so the first move's distance is the best one.
	var bestZeroing *int
	for i, m := range a.Moves {
		category, mate, zeroing := moversView(m)
		if i == 0 {
			bestZeroing = zeroing
		}
		if category == a.Category && equalDTM(mate, dtm) && (dtm != nil || equalDTM(zeroing, bestZeroing)) {
			ans.Best = append(ans.Best, m.UCI)
		}
		ans.moves = append(ans.moves, moveAnswer{move: m.SAN, words: probeWords(v, category, mate, zeroing, m.State)})
	}
	slices.Sort(ans.Best)
	if ans.Best == nil {
		ans.Best = []string{}
	}
	return ans
}

// syzygyHolds reports whether Syzygy's tables (nil: none) hold p or,
// with castling rights left, its moves: chess with few enough pieces.
func syzygyHolds(tables *syzygy.Tables, p *engine.Position) bool {
	return tables != nil && p.Variant().Fingerprint() == variants.Chess().Fingerprint() && p.PieceCount() <= tables.MaxPieces()
}

// probeTargets returns the materials whose tables value p: its own or,
// when no table holds p (castling rights left), its moves'; the error
// says why p has none.
func probeTargets(p *engine.Position) ([]tablebase.Material, error) {
	own, err := tablebase.TableMaterial(p)
	if err == nil {
		return []tablebase.Material{own}, nil
	}
	var targets []tablebase.Material
	for _, m := range p.LegalMoves(nil) {
		p.Make(m)
		if child, err := tablebase.TableMaterial(p); err == nil && !slices.Contains(targets, child) {
			targets = append(targets, child)
		}
		p.Unmake()
	}
	return targets, err
}

// outcome is a category's win, draw or loss for the side to move, the
// move rule aside (a cursed win is a win).
func outcome(category string) int {
	switch category {
	case "win", "cursed-win":
		return 1
	case "loss", "blessed-loss":
		return -1
	}
	return 0
}

// moversView turns a move's value, which the API gives for the side to
// move after it, into the mover's: its category and signed plies to mate
// and to zeroing (a mating move mates in 1; a zeroing move zeroes in 1).
func moversView(m explorer.MoveAnswer) (category string, dtm, dtz *int) {
	category, dtm = moverOutcome(m)
	switch {
	case m.DTZ == nil || category == "draw" || category == "unknown":
	case m.Zeroing || m.Checkmate:
		dtz = ptrTo(1)
	default:
		dtz = ptrTo(max(*m.DTZ, -*m.DTZ) + 1)
	}
	if dtz != nil && (category == "loss" || category == "blessed-loss") {
		*dtz = -*dtz
	}
	return category, dtm, dtz
}

// moverOutcome is moversView's category and plies to mate.
func moverOutcome(m explorer.MoveAnswer) (string, *int) {
	category := explorer.Opposite(m.Category)
	switch {
	case m.Checkmate || m.VariantLoss:
		return category, ptrTo(1)
	case m.DTM == nil:
		return category, nil
	case *m.DTM < 0:
		return category, ptrTo(-*m.DTM + 1)
	case *m.DTM > 0:
		return category, ptrTo(-*m.DTM - 1)
	}
	return category, ptrTo(0)
}

func equalDTM(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func ptrTo(n int) *int { return &n }

// probeWords says a value as a player reads it.
func probeWords(v *engine.Variant, category string, dtm, dtz *int, st explorer.State) string {
	var words string
	switch category {
	case "win", "cursed-win":
		words = "win"
		if category == "cursed-win" {
			words = fmt.Sprintf("cursed win (the %d-move rule draws it)", v.MoveRule)
		}
		if st.VariantWin {
			return words + ": won by the variant's rule"
		}
		if dtm != nil {
			words += fmt.Sprintf(": mate in %d", (*dtm+1)/2)
		}
	case "loss", "blessed-loss":
		words = "loss"
		if category == "blessed-loss" {
			words = fmt.Sprintf("blessed loss (the %d-move rule saves it)", v.MoveRule)
		}
		switch {
		case st.Checkmate:
			return words + ": checkmated"
		case st.VariantLoss:
			return words + ": lost by the variant's rule"
		case dtm != nil:
			words += fmt.Sprintf(": mated in %d", -*dtm/2)
		}
	case "draw":
		words = "draw"
		switch {
		case st.Stalemate:
			return words + ": stalemate"
		case st.InsufficientMaterial:
			return words + ": insufficient material"
		}
		return words
	default:
		return "unknown: no table"
	}
	if dtz != nil {
		words += fmt.Sprintf("; %d plies to zeroing", max(*dtz, -*dtz))
	}
	return words
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
