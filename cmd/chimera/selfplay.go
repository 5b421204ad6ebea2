package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/internal/selfplay"
	"github.com/chimera-chess/chimera/internal/session"
	"github.com/chimera-chess/chimera/search"
	"github.com/chimera-chess/chimera/tablebase"
)

// playerFlags are one side's search settings.
type playerFlags struct {
	depth    int
	movetime int
	tc       string
}

func (pf playerFlags) player(name string, hash int, def playerFlags) (selfplay.Config, error) {
	if pf.depth == 0 && pf.movetime == 0 && pf.tc == "" {
		pf = def
	}
	p := selfplay.Config{Name: name, Depth: pf.depth, MoveTime: time.Duration(pf.movetime) * time.Millisecond, HashMB: hash}
	set := 0
	for _, on := range []bool{pf.depth > 0, pf.movetime > 0, pf.tc != ""} {
		if on {
			set++
		}
	}
	if set > 1 {
		return p, errors.New("choose one of depth, movetime and tc for each side")
	}
	if pf.depth < 0 || pf.movetime < 0 {
		return p, errors.New("depth and movetime must be positive")
	}
	if pf.tc != "" {
		tc, err := game.ParseTimeControl(pf.tc)
		if err != nil {
			return p, err
		}
		p.TC = &tc
	}
	if set == 0 {
		p.Depth = 4
	}
	p.Name = fmt.Sprintf("%s (%s)", name, describe(p))
	return p, nil
}

func describe(p selfplay.Config) string {
	switch {
	case p.TC != nil:
		return "tc " + p.TC.String()
	case p.MoveTime > 0:
		return fmt.Sprintf("movetime %dms", p.MoveTime.Milliseconds())
	}
	return fmt.Sprintf("depth %d", p.Depth)
}

func newSelfPlayCommand() *cobra.Command {
	var (
		vf                 variantFlags
		both, white, black playerFlags
		games, randomPlies int
		maxPlies, hash     int
		seed               uint64
		pgnPath, fen       string
		show, fixed        bool
		tbDir              string
		noTablebase        bool
	)
	cmd := &cobra.Command{
		Use:   "selfplay --variant V --games N [--depth D | --movetime MS | --tc 40/60+0.5]",
		Short: "Play the engine against itself",
		Long: `Selfplay plays the engine against itself, or two configurations of itself
(--white-depth 3 --black-depth 5 and the like). The "white" configuration
plays White in the first game and the colours alternate (unless
--fixed-colours); the summary counts wins from the white configuration's
point of view. The first --random-plies plies of each game are random so
that games differ; from a --fen position none are, unless --random-plies is
given: the position given is the one played. PGN goes to --pgn; --show draws
the board after every move, with the pieces in hand in variants that have
them, and the FEN. Ctrl-C stops the series: the games finished are reported
and written, the game under way is not counted, and the exit status is 130.`,
		Args: fenNoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := vf.variant()
			if err != nil {
				return err
			}
			if err := session.CheckHash(2*hash, 0); err != nil { // a table for each side
				return fmt.Errorf("selfplay: --hash %d: two tables of it: %w", hash, err)
			}
			a, err := white.player("Chimera A", hash, both)
			if err != nil {
				return fmt.Errorf("selfplay: %w", err)
			}
			b, err := black.player("Chimera B", hash, both)
			if err != nil {
				return fmt.Errorf("selfplay: %w", err)
			}
			if !noTablebase {
				if tbDir == "" {
					tbDir = tablebase.DefaultDir()
				}
				if err := tablebase.CheckDir(tbDir, true); err != nil {
					return fmt.Errorf("selfplay: %w (--no-tablebase plays without tables)", err)
				}
				a.TablebaseDir, b.TablebaseDir = tbDir, tbDir
				a.BuildCommand, b.BuildCommand = buildCommand(), buildCommand()
				a.VariantFiles, b.VariantFiles = vf.files, vf.files
			}
			if fen != "" {
				if _, err := v.ParseFEN(fen); err != nil {
					return err
				}
				// A position given is played as given: random plies
				// from it (the default's four) would play some other
				// position, perhaps throw a won ending away.
				if !cmd.Flags().Changed("random-plies") {
					randomPlies = 0
				}
			}
			var pgn io.Writer
			if pgnPath != "" {
				f, err := os.Create(pgnPath)
				if err != nil {
					return fmt.Errorf("selfplay: %w", err)
				}
				defer f.Close()
				pgn = f
			}
			out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
			sp := &selfplay.SelfPlay{Variant: v, StartFEN: fen, Games: games, A: a, B: b, FixedColours: fixed,
				RandomPlies: randomPlies, Seed: seed, MaxPlies: maxPlies}
			if show {
				sp.OnMove = func(g int, pos *engine.Position, _ engine.Move, san string) {
					fmt.Fprintf(out, "\nGame %d, %s\n", g, shownMove(pos, san))
				}
			}
			var pgnErr error
			bar := newLiveLine(errOut)
			sp.OnGame = func(g int, rec *game.Record, st selfplay.Stats) {
				if pgn != nil && pgnErr == nil {
					pgnErr = rec.WritePGN(pgn)
				}
				if show {
					fmt.Fprintf(out, "\nGame %d: %s (%s)\n", g, rec.Result, rec.Termination.String())
				}
				progress(bar, g, games, st)
			}
			ctx, stop := interruptible(cmd)
			defer stop()
			st, _, err := sp.Run(ctx)
			bar.end()
			stopped := err != nil && ctx.Err() != nil
			if err != nil && !stopped {
				return err
			}
			if pgnErr != nil {
				return fmt.Errorf("selfplay: writing PGN: %w", pgnErr)
			}
			fmt.Fprintf(out, "%s vs %s, %s, %s\n", a.Name, b.Name, v.Name, gameCount(st.Games))
			fmt.Fprintf(out, "A wins %d, draws %d, B wins %d (score %.1f/%d for A)\n",
				st.AWins, st.Draws, st.BWins, float64(st.AWins)+float64(st.Draws)/2, st.Games)
			fmt.Fprintf(out, "average length %.1f moves, %d time forfeits, %d nodes/second\n",
				st.AverageLength(), st.TimeForfeits, st.NPS())
			if stopped {
				return interrupted("selfplay", "%s of %d finished and counted above; the game under way is not", gameCount(st.Games), games)
			}
			return nil
		},
	}
	vf.register(cmd)
	f := cmd.Flags()
	intFlag(f, &games, "games", 1, 1, 1000000, "number of games")
	intFlag(f, &both.depth, "depth", 0, 1, search.MaxPly-1, "search depth for both sides (default 4)")
	intFlag(f, &both.movetime, "movetime", 0, 1, 3600000, "milliseconds per move for both sides")
	f.StringVar(&both.tc, "tc", "", "time control for both sides: 40/60+0.5, 60+0.5 or 60 (seconds)")
	intFlag(f, &white.depth, "white-depth", 0, 1, search.MaxPly-1, "depth of configuration A (White in game 1)")
	intFlag(f, &black.depth, "black-depth", 0, 1, search.MaxPly-1, "depth of configuration B")
	intFlag(f, &white.movetime, "white-movetime", 0, 1, 3600000, "movetime of configuration A (ms)")
	intFlag(f, &black.movetime, "black-movetime", 0, 1, 3600000, "movetime of configuration B (ms)")
	f.StringVar(&white.tc, "white-tc", "", "time control of configuration A")
	f.StringVar(&black.tc, "black-tc", "", "time control of configuration B")
	f.BoolVar(&fixed, "fixed-colours", false, "A always plays White")
	intFlag(f, &randomPlies, "random-plies", 4, 0, 100, "random opening plies per game (with --fen: 0 unless given)")
	f.Uint64Var(&seed, "seed", 1, "seed for the random opening plies")
	intFlag(f, &maxPlies, "max-plies", 1000, 0, 1000000, "adjudicate a draw after this many plies (0: no limit)")
	intFlag(f, &hash, "hash", session.DefaultHashMB, 1, session.HashMaxMB(), "transposition table size per side in MiB")
	f.StringVar(&pgnPath, "pgn", "", "write the games to this PGN file")
	f.StringVar(&fen, "fen", "", "start position (default: the variant's)")
	f.BoolVar(&show, "show", false, "draw the board after every move (with the pieces in hand, and the FEN)")
	f.StringVar(&tbDir, "tablebase-dir", "", "where endgame tables are kept and built (default: the user cache directory)")
	f.BoolVar(&noTablebase, "no-tablebase", false, "play without endgame tables")
	return cmd
}

// progress draws a one-line progress bar after each game: redrawn on a
// terminal, a line per game in a log.
func progress(bar *liveLine, done, total int, st selfplay.Stats) {
	const width = 30
	filled := done * width / total
	bar.report("[%s%s] %d/%d games  A +%d =%d -%d", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		done, total, st.AWins, st.Draws, st.BWins)
}

// shownMove is what --show prints after a move: the move numbered as a
// move, not a ply ("19... Nf6", Black's 19th move), the board, the pieces
// each side holds in hand when the variant has hands (a drop must come
// from somewhere the reader saw), and the FEN. pos is the position after
// the move.
func shownMove(pos *engine.Position, san string) string {
	// The mover is the side not to move now; a move of Black's has
	// already advanced the move number.
	number, dots := pos.FullmoveNumber(), "."
	if pos.SideToMove() == engine.White {
		number, dots = number-1, "..."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d%s %s\n%s", number, dots, san, pos.Board())
	if v := pos.Variant(); v.HasHands() {
		fmt.Fprintf(&b, "in hand: white %s; black %s\n", handText(pos, engine.White), handText(pos, engine.Black))
	}
	fmt.Fprintf(&b, "FEN %s\n", pos.FEN())
	return b.String()
}

// handText lists the pieces side c holds by their FEN letters (White's
// upper case, Black's lower), each as often as it is held: "PPN"; "-"
// for none.
func handText(pos *engine.Position, c engine.Colour) string {
	v := pos.Variant()
	var b strings.Builder
	for typ := 1; typ <= len(v.Pieces); typ++ {
		letter := v.Pieces[typ-1].Letter
		if c == engine.Black {
			letter += 'a' - 'A'
		}
		b.WriteString(strings.Repeat(string(letter), pos.InHand(c, typ)))
	}
	if b.Len() == 0 {
		return "-"
	}
	return b.String()
}
