package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/game"
	"github.com/chimera-chess/chimera/match"
)

func newMatchCommand() *cobra.Command {
	var (
		vf                    variantFlags
		engines, options      []string
		games, concurrency    int
		tc, openings, pgnPath string
		sprt                  string
		repeat                bool
	)
	cmd := &cobra.Command{
		Use:   "match --engine NAME=CMD [--engine NAME=CMD] --variant V --games N --tc 10+0.1",
		Short: "Play two engines (UCI or CECP) against each other",
		Long: `Match plays two engines, UCI or CECP, against each other with Chimera's rules core as
the referee: an illegal or malformed move, a crash or a hang loses the game
and is reported, a flag that falls loses on time, and games end only by the
variant's rules. Colours alternate; each opening (--openings: an EPD/FEN
file or a PGN, whose games' last positions are the openings; a position
whose game is already over is skipped, and said so) is played twice, once
with each engine as White, unless --repeat=false. Ctrl-C stops the match:
the games finished are reported and written, those under way are not
counted, and the exit status is 130.

--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05 runs a sequential probability
ratio test (logistic Elo; game pairs scored pentanomially, as fishtest
does): the match stops, at the latest after --games, once the
log-likelihood ratio leaves its bounds, and the LLR is shown after every
game.

CMD is the engine's command line; "self" means this chimera, given the
--variant-file files too (so a user's variant plays without more). With
one --engine the opponent is this chimera. Engine options: --option
NAME=Hash=64.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := vf.variant()
			if err != nil {
				return err
			}
			specs, err := engineSpecs(engines, options, vf.files)
			if err != nil {
				return err
			}
			control, err := game.ParseTimeControl(tc)
			if err != nil {
				return fmt.Errorf("match: %w", err)
			}
			cfg := match.Config{Variant: v, Engines: specs, Games: games, TC: control, Concurrency: concurrency, Repeat: repeat}
			if openings != "" {
				if cfg.Openings, err = readOpenings(cmd.ErrOrStderr(), openings, v); err != nil {
					return err
				}
			}
			if sprt != "" {
				test, err := match.ParseSPRT(sprt)
				if err != nil {
					return fmt.Errorf("match: --%w", err)
				}
				cfg.SPRT = &test
			}
			if pgnPath != "" {
				f, err := os.Create(pgnPath)
				if err != nil {
					return fmt.Errorf("match: %w", err)
				}
				defer f.Close()
				cfg.PGN = f
			}
			line := newLiveLine(cmd.ErrOrStderr())
			cfg.OnGame = func(rec *game.Record, st match.Standing) {
				text := fmt.Sprintf("game %d/%d: %s %s (%s)   %s: +%d =%d -%d", st.Games, games, rec.Result,
					rec.Tags["White"]+" vs "+rec.Tags["Black"], rec.Termination, specs[0].Name, st.Wins, st.Draws, st.Losses)
				if cfg.SPRT != nil {
					text += "   " + sprtLine(*cfg.SPRT, st)
				}
				line.report("%s", text)
			}
			ctx, stop := interruptible(cmd)
			defer stop()
			st, err := match.Run(ctx, cfg)
			line.end()
			if st.Games > 0 { // no table for games not played
				printStanding(cmd.OutOrStdout(), specs, v.Name, control, st)
				if cfg.SPRT != nil {
					fmt.Fprintf(cmd.OutOrStdout(), "SPRT %s: %s\n", cfg.SPRT, sprtLine(*cfg.SPRT, st))
				}
			}
			if err != nil && ctx.Err() != nil {
				return interrupted("match", "%s of %d finished and counted above; the games under way are not", gameCount(st.Games), games)
			}
			return err
		},
	}
	vf.register(cmd)
	f := cmd.Flags()
	f.StringArrayVar(&engines, "engine", nil, "an engine as NAME=CMD, or NAME=CMD:xboard for a CECP engine (CMD \"self\": this chimera); give one or two")
	f.StringArrayVar(&options, "option", nil, "a UCI option for an engine as NAME=OPTION=VALUE (repeatable)")
	intFlag(f, &games, "games", 2, 1, 1000000, "number of games")
	f.StringVar(&tc, "tc", "10+0.1", "time control: 40/60+0.5, 10+0.1 or 60 (seconds)")
	f.StringVar(&openings, "openings", "", "EPD or FEN file of start positions")
	f.StringVar(&pgnPath, "pgn", "", "write the games to this PGN file")
	intFlag(f, &concurrency, "concurrency", 1, 1, 256, "games played at once")
	f.BoolVar(&repeat, "repeat", true, "play each opening twice, colours reversed (a game pair)")
	f.StringVar(&sprt, "sprt", "", "stop on a sequential test: elo0=0,elo1=10,alpha=0.05,beta=0.05")
	return cmd
}

// engineSpecs parses --engine and --option; "self" engines load the
// variant files too, by absolute path (an engine may run elsewhere), unless
// their command line names its own.
func engineSpecs(engines, options, variantFiles []string) ([2]match.EngineSpec, error) {
	var specs [2]match.EngineSpec
	if len(engines) == 0 || len(engines) > 2 {
		return specs, errors.New("match: give one or two --engine NAME=CMD")
	}
	self, err := os.Executable()
	if err != nil {
		return specs, err
	}
	if len(engines) == 1 {
		engines = append(engines, "chimera=self")
	}
	for i, e := range engines {
		name, command, ok := strings.Cut(e, "=")
		if !ok || name == "" || strings.TrimSpace(command) == "" {
			return specs, fmt.Errorf("match: --engine %q: want NAME=CMD", e)
		}
		protocol := "uci"
		for _, p := range []string{"uci", "xboard"} {
			if rest, ok := strings.CutSuffix(command, ":"+p); ok {
				command, protocol = rest, p
			}
		}
		args := strings.Fields(command)
		if len(args) == 0 {
			return specs, fmt.Errorf("match: --engine %q: want NAME=CMD", e)
		}
		if args[0] == "self" {
			args[0] = self
			if !slices.Contains(args, "--variant-file") {
				for _, f := range variantFiles {
					abs, err := filepath.Abs(f)
					if err != nil {
						return specs, fmt.Errorf("match: --variant-file %s: %w", f, err)
					}
					args = append(args, "--variant-file", abs)
				}
			}
		}
		specs[i] = match.EngineSpec{Name: name, Command: args, Options: map[string]string{}, Protocol: protocol}
	}
	if specs[0].Name == specs[1].Name {
		specs[1].Name += "-2"
	}
	for _, o := range options {
		parts := strings.SplitN(o, "=", 3)
		if len(parts) != 3 || parts[1] == "" {
			return specs, fmt.Errorf("match: --option %q: want NAME=OPTION=VALUE", o)
		}
		found := false
		for i := range specs {
			if specs[i].Name == parts[0] {
				specs[i].Options[parts[1]] = parts[2]
				found = true
			}
		}
		if !found {
			return specs, fmt.Errorf("match: --option %q: no engine named %q", o, parts[0])
		}
	}
	return specs, nil
}

// readOpenings reads an opening book (EPD/FEN lines or PGN) for v, and
// says on w how many of its positions it skipped as games already over.
func readOpenings(w io.Writer, path string, v *engine.Variant) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	defer f.Close()
	book, err := match.ReadOpenings(f, v)
	if err != nil {
		return nil, fmt.Errorf("match: openings %s: %w", path, err)
	}
	if book.Finished > 0 {
		fmt.Fprintf(w, "match: openings %s: skipped %d of %d positions whose game is already over (checkmate, stalemate, a draw by rule or the variant's end); playing the other %d\n",
			path, book.Finished, book.Finished+len(book.Openings), len(book.Openings))
	}
	return book.Openings, nil
}

// sprtLine reports an SPRT's state: LLR, bounds, the pentanomial (or
// trinomial) counts and the verdict.
func sprtLine(t match.SPRT, st match.Standing) string {
	lower, upper := t.Bounds()
	verdict := "continue"
	switch st.Decision {
	case "H1":
		verdict = "H1 accepted"
	case "H0":
		verdict = "H0 accepted"
	}
	return fmt.Sprintf("LLR %.2f (%.2f, %.2f) %v %s", t.LLR(st.Samples), lower, upper, st.Samples, verdict)
}

// printStanding prints the final table.
func printStanding(w io.Writer, specs [2]match.EngineSpec, variant string, tc game.TimeControl, st match.Standing) {
	elo, margin := st.Elo()
	fmt.Fprintf(w, "%s vs %s, %s, tc %s, %s\n", specs[0].Name, specs[1].Name, variant, tc, gameCount(st.Games))
	fmt.Fprintf(w, "%-16s %7s %5s %5s %5s %7s  %s\n", "engine", "score", "W", "D", "L", "score%", "Elo (95%)")
	pct := 0.0
	if st.Games > 0 {
		pct = 100 * st.Score() / float64(st.Games)
	}
	eloText := "n/a"
	switch {
	case math.IsInf(elo, 1):
		eloText = "+inf (every game won: no finite estimate)"
	case math.IsInf(elo, -1):
		eloText = "-inf (every game lost: no finite estimate)"
	case math.IsInf(margin, 0):
		eloText = fmt.Sprintf("%+.0f ± inf (too few games)", elo)
	case st.Games > 0:
		eloText = fmt.Sprintf("%+.0f ± %.0f", elo, margin)
	}
	fmt.Fprintf(w, "%-16s %7.1f %5d %5d %5d %6.1f%%  %s\n", specs[0].Name, st.Score(), st.Wins, st.Draws, st.Losses, pct, eloText)
	fmt.Fprintf(w, "%-16s %7.1f %5d %5d %5d %6.1f%%\n", specs[1].Name, float64(st.Games)-st.Score(), st.Losses, st.Draws, st.Wins, 100-pct)
	fmt.Fprintf(w, "illegal moves %d, time forfeits %d, crashes %d\n", st.IllegalMoves, st.TimeForfeits, st.Crashes)
}
