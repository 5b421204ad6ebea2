package session

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chimera-chess/chimera/internal/tbbuild"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/tablebase"
)

// OptionKind is how a protocol presents an option (UCI's option types,
// which XBoard's feature option= has counterparts for).
type OptionKind uint8

// The option kinds.
const (
	Spin   OptionKind = iota // a whole number in [Min, Max]
	Check                    // true or false
	Combo                    // one of Choices
	Button                   // an action without a value
	String                   // any text; empty is written <empty> in UCI
)

// Option is one engine option as a protocol declares it.
type Option struct {
	Name    string
	Kind    OptionKind
	Default string // as text: "16", "true", "chess"; "" for an empty string
	Min     int    // Spin
	Max     int    // Spin
	Choices []string
}

// optionValues are the options' current values.
type optionValues struct {
	hash, threads, multiPV, overheadMS int
	// slowMover is Slow Mover's percent of the usual clock budget;
	// nodesTime nodestime's nodes per millisecond of the clock (0: the
	// clock is time).
	slowMover, nodesTime int
	ponder               bool
	showWDL              bool
	analyse              bool
	// skillLevel is Skill Level's; limitStrength and elo UCI_LimitStrength's
	// and UCI_Elo's.
	skillLevel, elo    int
	limitStrength      bool
	useTablebase       bool
	tablebaseFiftyMove bool
	tablebaseDir       string
	tablebaseBuild     int
	tablebaseCacheMB   int
	tablebaseDiskMB    int
	// syzygyPath, syzygyLimit, syzygyDepth and syzygyRule50 are the
	// Syzygy options' (syzygy.go).
	syzygyPath               string
	syzygyLimit, syzygyDepth int
	syzygyRule50             bool
	// variant is UCI_Variant's value and chess960 UCI_Chess960's: the
	// variant played is their combination.
	variant  string
	chess960 bool
	// evaluation is the Evaluation option's value.
	evaluation string
}

func (v optionValues) moveOverhead() time.Duration {
	return time.Duration(v.overheadMS) * time.Millisecond
}

// value is an option's new value, already checked against its kind and
// range: text as given, n for a Spin, on for a Check.
type value struct {
	text string
	n    int
	on   bool
}

// optionDecl declares one option, once: how protocols show it (the
// Option, with run-time choices and default) and how a value applies.
type optionDecl struct {
	Option
	choices    func(*Session) []string // Combo: the choices known at run time
	defaultFor func(*Session) string   // a default known only at run time
	apply      func(*Session, value) error
}

// optionTable is every option, in the order protocols list them. To add an
// option, add its declaration here: UCI and XBoard both read this table.
func optionTable() []optionDecl {
	return []optionDecl{
		// Debug Log File: the conversation with the GUI, appended to
		// this file (empty: none), for finding out what a GUI sent.
		{Option: Option{Name: "Debug Log File", Kind: String},
			apply: func(s *Session, v value) error {
				if err := s.debugLog.open(v.text); err != nil {
					return fmt.Errorf("option Debug Log File: %w; not logging", err)
				}
				return nil
			}},
		{Option: Option{Name: "Hash", Kind: Spin, Default: strconv.Itoa(DefaultHashMB), Min: 1, Max: HashMaxMB()},
			defaultFor: func(s *Session) string { return strconv.Itoa(cmp.Or(s.cfg.HashMB, DefaultHashMB)) },
			apply: func(s *Session, v value) error {
				if err := CheckHash(v.n, s.values.hash); err != nil {
					return fmt.Errorf("option Hash: %w; keeping %d MB", err, s.values.hash)
				}
				s.values.hash = v.n
				s.searcher.SetHash(v.n)
				return nil
			}},
		{Option: Option{Name: "Threads", Kind: Spin, Default: "1", Min: 1, Max: search.MaxThreads},
			apply: func(s *Session, v value) error {
				s.values.threads = v.n
				s.searcher.SetThreads(v.n)
				return nil
			}},
		{Option: Option{Name: "MultiPV", Kind: Spin, Default: "1", Min: 1, Max: 256},
			apply: func(s *Session, v value) error { s.values.multiPV = v.n; return nil }},
		{Option: Option{Name: "Clear Hash", Kind: Button},
			apply: func(s *Session, _ value) error { s.searcher.Clear(); return nil }},
		{Option: Option{Name: "Ponder", Kind: Check, Default: "false"},
			apply: func(s *Session, v value) error { s.values.ponder = v.on; return nil }},
		{Option: Option{Name: "Move Overhead", Kind: Spin, Default: "30", Min: 0, Max: 5000},
			apply: func(s *Session, v value) error {
				s.values.overheadMS = v.n
				s.searcher.SetMoveOverhead(s.values.moveOverhead())
				return nil
			}},
		// Slow Mover: the share of the usual time budget a move on the
		// clock spends, in percent (Stockfish's option).
		{Option: Option{Name: "Slow Mover", Kind: Spin, Default: "100", Min: 10, Max: 1000},
			apply: func(s *Session, v value) error { s.values.slowMover = v.n; return nil }},
		// nodestime: the clock counts nodes, this many a millisecond, so
		// that games on a clock are the same on any machine, however busy
		// (Stockfish's option; 0: the clock is time).
		{Option: Option{Name: "nodestime", Kind: Spin, Default: "0", Min: 0, Max: 100000},
			apply: func(s *Session, v value) error { s.values.nodesTime = v.n; return nil }},
		// UCI_ShowWDL: every info line with a score also gives the side
		// to move's chances of a win, a draw and a loss (wdl W D L, per
		// mille), from the variant's win-rate model (package wdl), or
		// exactly from a table.
		{Option: Option{Name: "UCI_ShowWDL", Kind: Check, Default: "false"},
			apply: func(s *Session, v value) error { s.values.showWDL = v.on; return nil }},
		// UCI_AnalyseMode: searches for analysis, not games: none ends
		// early on its own judgement (search.Limits.Analysis). Chimera
		// has no contempt to turn off: a draw is always 0.
		{Option: Option{Name: "UCI_AnalyseMode", Kind: Check, Default: "false"},
			apply: func(s *Session, v value) error { s.values.analyse = v.on; return nil }},
		// Strength (strength.go): Skill Level weakens the search;
		// UCI_LimitStrength plays at UCI_Elo, with the variant's
		// strongest evaluation.
		{Option: Option{Name: "Skill Level", Kind: Spin, Default: "20", Min: 0, Max: search.MaxSkill},
			apply: func(s *Session, v value) error { s.values.skillLevel = v.n; return nil }},
		{Option: Option{Name: "UCI_LimitStrength", Kind: Check, Default: "false"},
			apply: func(s *Session, v value) error {
				s.values.limitStrength = v.on
				s.searcher.SetEvaluation(s.evaluation())
				return nil
			}},
		{Option: Option{Name: "UCI_Elo", Kind: Spin, Default: strconv.Itoa(MinElo), Min: MinElo, Max: MaxElo},
			apply: func(s *Session, v value) error { s.values.elo = v.n; return nil }},
		{Option: Option{Name: "UCI_Variant", Kind: Combo, Default: "chess"},
			choices: func(s *Session) []string { return s.cat.Names() },
			apply:   (*Session).setVariant},
		{Option: Option{Name: "UCI_Chess960", Kind: Check, Default: "false"},
			apply: func(s *Session, v value) error {
				s.values.chess960 = v.on
				return s.applyVariant("UCI_Chess960")
			}},
		{Option: Option{Name: "VariantPath", Kind: String},
			apply: (*Session).loadVariantFile},
		// Evaluation: the documents' formula (the default and the
		// reference), the tuned evaluation or a network; EvalFile loads
		// a weights file (chimera tune's) or a network (chimera
		// train's) for the variant it names.
		{Option: Option{Name: "Evaluation", Kind: Combo, Default: Documents, Choices: []string{Documents, Tuned, Network}},
			apply: (*Session).setEvaluation},
		{Option: Option{Name: "EvalFile", Kind: String},
			apply: (*Session).loadEvalFile},
		{Option: Option{Name: "UseTablebase", Kind: Check, Default: "true"},
			apply: func(s *Session, v value) error {
				s.values.useTablebase = v.on
				s.setTablebases()
				return nil
			}},
		// TablebaseFiftyMove: tablebase answers honour the variant's move
		// rule by the tables' distances to zeroing and the clock; off, a
		// win is a win however long it takes (for analysis).
		{Option: Option{Name: "TablebaseFiftyMove", Kind: Check, Default: "true"},
			apply: func(s *Session, v value) error {
				s.values.tablebaseFiftyMove = v.on
				s.setTablebases()
				return nil
			}},
		{Option: Option{Name: "TablebaseDir", Kind: String},
			defaultFor: func(s *Session) string { return s.defaultTablebaseDir() },
			apply: func(s *Session, v value) error {
				dir := v.text
				if dir == "" {
					dir = s.defaultTablebaseDir()
				}
				// Not a directory at all: refused, the tables before kept.
				// A read-only one is used for reading (setTablebases).
				if tablebase.CheckDir(dir, false) != nil {
					if err := tablebase.CheckDir(dir, true); err != nil {
						return fmt.Errorf("option TablebaseDir: %w", err)
					}
				}
				s.values.tablebaseDir = dir
				s.setTablebases()
				return nil
			}},
		// The Syzygy options (syzygy.go): chess's Syzygy tables, read
		// where the engine's own do not answer.
		{Option: Option{Name: "SyzygyPath", Kind: String, Default: emptyPath},
			apply: (*Session).setSyzygyPath},
		{Option: Option{Name: "SyzygyProbeDepth", Kind: Spin, Default: strconv.Itoa(defaultSyzygyDepth), Min: 1, Max: 100},
			apply: func(s *Session, v value) error {
				s.values.syzygyDepth = v.n
				s.setSyzygy()
				return nil
			}},
		{Option: Option{Name: "Syzygy50MoveRule", Kind: Check, Default: "true"},
			apply: func(s *Session, v value) error {
				s.values.syzygyRule50 = v.on
				s.setSyzygy()
				return nil
			}},
		{Option: Option{Name: "SyzygyProbeLimit", Kind: Spin, Default: strconv.Itoa(defaultSyzygyLimit), Min: 0, Max: defaultSyzygyLimit},
			apply: func(s *Session, v value) error {
				s.values.syzygyLimit = v.n
				s.setSyzygy()
				return nil
			}},
		// TablebaseCache: the memory, in MB, of the decoded blocks of the
		// table files being probed (a table is never read whole).
		{Option: Option{Name: "TablebaseCache", Kind: Spin, Default: "64", Min: 1, Max: 1 << 16},
			apply: func(s *Session, v value) error {
				s.values.tablebaseCacheMB = v.n
				s.setTablebases()
				return nil
			}},
		// TablebaseDisk: the disk, in MB, the tables the engine builds by
		// itself may take in TablebaseDir; the least recently used are
		// removed to make room (tables it did not build never are).
		{Option: Option{Name: "TablebaseDisk", Kind: Spin, Default: "256", Min: 1, Max: 1 << 24},
			apply: func(s *Session, v value) error {
				s.values.tablebaseDiskMB = v.n
				s.setTablebases()
				return nil
			}},
		// TablebaseBuild: the most pieces of a table the engine builds by
		// itself, in its idle time (below 3: none; the files there are
		// are read whatever it says).
		{Option: Option{Name: "TablebaseBuild", Kind: Spin, Default: "4", Min: 0, Max: tablebase.MaxPieces},
			apply: func(s *Session, v value) error {
				s.values.tablebaseBuild = v.n
				s.setTablebases()
				return nil
			}},
	}
}

// Options returns the options as protocols declare them, with their
// run-time choices and defaults.
func (s *Session) Options() []Option {
	out := make([]Option, len(s.options))
	for i, d := range s.options {
		out[i] = d.Option
		if d.choices != nil {
			out[i].Choices = d.choices(s)
		}
		if d.defaultFor != nil {
			out[i].Default = d.defaultFor(s)
		}
	}
	return out
}

// Ponder reports the Ponder option: whether the GUI lets the engine think
// on the opponent's time.
func (s *Session) Ponder() bool { return s.values.ponder }

// SetOption sets an option by name (matched without regard to case). The
// value is checked against the option's kind and range first; on any
// error nothing changes.
func (s *Session) SetOption(name, text string) error {
	d := s.lookupOption(name)
	if d == nil {
		return fmt.Errorf("unknown option %q", name)
	}
	if err := s.idleFor("setoption " + d.Name); err != nil {
		return err
	}
	v, err := d.parse(text)
	if err != nil {
		return err
	}
	return d.apply(s, v)
}

func (s *Session) lookupOption(name string) *optionDecl {
	for i := range s.options {
		if strings.EqualFold(s.options[i].Name, name) {
			return &s.options[i]
		}
	}
	return nil
}

// parse checks a value against the option's kind and range. UCI writes an
// empty string as <empty>.
func (d *optionDecl) parse(text string) (value, error) {
	v := value{text: text}
	switch d.Kind {
	case Spin:
		n, err := strconv.Atoi(text)
		if err != nil || n < d.Min || n > d.Max {
			return v, fmt.Errorf("option %s: %q is not a number from %d to %d", d.Name, text, d.Min, d.Max)
		}
		v.n = n
	case Check:
		switch strings.ToLower(text) {
		case "true", "1": // XBoard sends check options as 1 and 0
			v.on = true
		case "false", "0":
		default:
			return v, fmt.Errorf("option %s: %q is not true or false", d.Name, text)
		}
	case Combo:
		// Run-time choices (variants) are checked where they apply.
		if len(d.Choices) > 0 {
			i := slices.IndexFunc(d.Choices, func(c string) bool { return strings.EqualFold(c, text) })
			if i < 0 {
				return v, fmt.Errorf("option %s: %q is not one of %s", d.Name, text, strings.Join(d.Choices, ", "))
			}
			v.text = d.Choices[i]
		}
	case String:
		if text == "<empty>" {
			v.text = ""
		}
	}
	return v, nil
}

// resetOptions gives every option its default value.
func (s *Session) resetOptions() {
	for _, o := range s.Options() {
		if o.Kind == Button {
			continue
		}
		d := s.lookupOption(o.Name)
		v, err := d.parse(o.Default)
		if err == nil {
			err = d.apply(s, v)
		}
		if err != nil {
			panic(fmt.Sprintf("session: option %s: bad default %q: %v", o.Name, o.Default, err)) // a bug in optionTable
		}
	}
}

// setVariant switches to the named variant: a new game, with no position
// until the next SetPosition.
func (s *Session) setVariant(v value) error {
	if _, err := s.cat.Lookup(v.text); err != nil {
		return fmt.Errorf("option UCI_Variant: %w", err)
	}
	s.values.variant = v.text
	return s.applyVariant("UCI_Variant")
}

// applyVariant plays UCI_Variant's variant, or with UCI_Chess960 its
// Chess960 form: the catalogue's NAME960 (chess960 for chess) when it has
// one, else the variant itself with chess960 = true, added to the
// catalogue under that name.
func (s *Session) applyVariant(option string) error {
	variant, err := s.cat.Lookup(s.values.variant)
	if err != nil {
		return fmt.Errorf("option %s: %w", option, err)
	}
	if s.values.chess960 && !variant.Chess960 {
		name := variant.Name + "960"
		if _, err := s.cat.Lookup(name); err != nil {
			ini := fmt.Sprintf("[%s:%s]\nchess960 = true\n", name, variant.Name)
			if err := s.cat.Load("UCI_Chess960", []byte(ini)); err != nil {
				return fmt.Errorf("option %s: %w", option, err)
			}
		}
		if variant, err = s.cat.Lookup(name); err != nil {
			return fmt.Errorf("option %s: %w", option, err)
		}
	}
	s.SetVariant(variant)
	return nil
}

// loadVariantFile adds the variants of a user's file to the catalogue.
func (s *Session) loadVariantFile(v value) error {
	if v.text == "" {
		return nil
	}
	before := len(s.cat.Names())
	if err := s.cat.LoadFile(v.text); err != nil {
		return fmt.Errorf("option VariantPath: %s", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	if !slices.Contains(s.cfg.VariantFiles, v.text) {
		s.cfg.VariantFiles = append(s.cfg.VariantFiles, v.text)
		if s.builder != nil {
			s.builder.SetVariantFiles(s.cfg.VariantFiles)
		}
	}
	s.cfg.OnMessage(fmt.Sprintf("loaded %d new variant(s) from %s", len(s.cat.Names())-before, v.text))
	// A reloaded file may have redefined the variant being played.
	if nv, err := s.cat.Lookup(s.variant.Name); err == nil && nv != s.variant {
		s.SetVariant(nv)
	}
	return nil
}

func (s *Session) defaultTablebaseDir() string {
	if s.cfg.TablebaseDir != "" {
		return s.cfg.TablebaseDir
	}
	return tablebase.DefaultDir()
}

// setTablebases points the search at the tables of the TablebaseDir
// option (their decoded blocks within TablebaseCache), or at none when
// UseTablebase is off, with a builder preparing the tables of up to
// TablebaseBuild pieces in the background.
func (s *Session) setTablebases() {
	if s.builder != nil {
		s.builder.Close()
		s.builder = nil
	}
	if !s.values.useTablebase {
		s.prober = nil
		s.installProbers()
		return
	}
	store := s.cfg.Store // a store handed in keeps its own cache bound
	if store == nil || store.Dir() != s.values.tablebaseDir {
		store = tablebase.NewStore(s.values.tablebaseDir)
		store.CacheBytes = int64(s.values.tablebaseCacheMB) << 20
		store.Log = s.cfg.OnMessage
	}
	prober := store.Prober()
	prober.FiftyMove = s.values.tablebaseFiftyMove
	prober.Report = s.cfg.OnMessage
	build := s.values.tablebaseBuild
	if writable := tablebase.CheckDir(store.Dir(), true); writable != nil && build >= 3 {
		s.cfg.OnMessage(fmt.Sprintf("tablebase: %v: its tables are read, none is built", writable))
		build = 0
	}
	// The builder also reads the files there are into memory, for the
	// search's tree (which never opens a file): with nothing to build
	// (TablebaseBuild below 3) it only reads.
	s.builder = tbbuild.New(store)
	s.builder.MaxPieces = build
	s.builder.MaxDisk = int64(s.values.tablebaseDiskMB) << 20
	s.builder.Log = s.cfg.OnMessage
	s.builder.Command = s.cfg.BuildCommand
	s.builder.SetVariantFiles(s.cfg.VariantFiles)
	prober.Missing = s.builder.Want
	s.prepareTables()
	s.prober = prober
	s.installProbers()
}
