package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
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
that games differ. PGN goes to --pgn; --show draws the board after every move.`,
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
				sp.OnMove = func(g int, pos *engine.Position, m engine.Move, san string) {
					fmt.Fprintf(out, "\nGame %d, move %d: %s\n%s", g, pos.Ply(), san, pos.Board())
				}
			}
			var pgnErr error
			sp.OnGame = func(g int, rec *game.Record, st selfplay.Stats) {
				if pgn != nil && pgnErr == nil {
					pgnErr = rec.WritePGN(pgn)
				}
				if show {
					fmt.Fprintf(out, "\nGame %d: %s (%s)\n", g, rec.Result, rec.Termination.String())
				}
				progress(errOut, g, games, st)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			st, _, err := sp.Run(ctx)
			fmt.Fprintln(errOut)
			if err != nil {
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
	intFlag(f, &randomPlies, "random-plies", 4, 0, 100, "random opening plies per game")
	f.Uint64Var(&seed, "seed", 1, "seed for the random opening plies")
	intFlag(f, &maxPlies, "max-plies", 1000, 0, 1000000, "adjudicate a draw after this many plies (0: no limit)")
	intFlag(f, &hash, "hash", session.DefaultHashMB, 1, session.HashMaxMB(), "transposition table size per side in MiB")
	f.StringVar(&pgnPath, "pgn", "", "write the games to this PGN file")
	f.StringVar(&fen, "fen", "", "start position (default: the variant's)")
	f.BoolVar(&show, "show", false, "draw the board after every move")
	f.StringVar(&tbDir, "tablebase-dir", "", "where endgame tables are kept and built (default: the user cache directory)")
	f.BoolVar(&noTablebase, "no-tablebase", false, "play without endgame tables")
	return cmd
}

// progress draws a one-line progress bar on stderr.
func progress(w io.Writer, done, total int, st selfplay.Stats) {
	const width = 30
	filled := done * width / total
	fmt.Fprintf(w, "\r[%s%s] %d/%d games  A +%d =%d -%d", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		done, total, st.AWins, st.Draws, st.BWins)
}
