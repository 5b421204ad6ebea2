package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/atomicfile"
	"github.com/chimera-chess/chimera/internal/dataset"
	"github.com/chimera-chess/chimera/wdl"
)

func newWDLCommand() *cobra.Command {
	var (
		vf    variantFlags
		data  []string
		out   string
		steps int
	)
	cmd := &cobra.Command{
		Use:   "wdl --variant V --data FILE [--data FILE...] [--out MODEL]",
		Short: "Fit a variant's win-rate model (UCI_ShowWDL) to its games",
		Long: `Wdl fits the model UCI_ShowWDL reports "wdl W D L" by: the side to move's
chances of a win, a draw and a loss from its score and the material left
(the share of the start position's pieces still in play), fitted by
maximum likelihood to the positions and results of chimera datagen's
files (--data, repeatable). The data must be the engine's own games, its
own search scoring them (datagen without --teacher): the model is of what
Chimera's scores mean. The model is written to --out (default: standard
output) in the form the shipped ones take (wdl/models/VARIANT.txt).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cat, err := vf.catalogue()
			if err != nil {
				return err
			}
			v, err := cat.Lookup(vf.name)
			if err != nil {
				return err
			}
			if len(data) == 0 {
				return errors.New("wdl: give --data FILE (chimera datagen's positions)")
			}
			var samples []wdl.Sample
			for _, path := range data {
				if samples, err = appendWDLSamples(samples, v, path); err != nil {
					return fmt.Errorf("wdl: %w", err)
				}
			}
			md, err := wdl.Fit(samples, wdl.FitOptions{Steps: steps})
			if err != nil {
				return fmt.Errorf("wdl: %w", err)
			}
			text := fmt.Sprintf("# %s: fitted to %d positions by: chimera %s\n%s", v.Name, len(samples),
				strings.Join(os.Args[1:], " "), md)
			if out == "" {
				_, err = fmt.Fprint(cmd.OutOrStdout(), text)
				return err
			}
			return atomicfile.Write(out, 0o644, func(w io.Writer) error {
				_, err := io.WriteString(w, text)
				return err
			})
		},
	}
	vf.register(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&data, "data", nil, "a file of chimera datagen's positions, the engine's own games (repeatable)")
	fl.StringVar(&out, "out", "", "write the model to this file (default: standard output)")
	intFlag(fl, &steps, "steps", 2000, 1, 1000000, "steps of the fit")
	return cmd
}

// appendWDLSamples adds the positions of the data file at path, games of
// variant v, as the win-rate model's samples: score and result for the
// side to move, and the material left.
func appendWDLSamples(samples []wdl.Sample, v *engine.Variant, path string) ([]wdl.Sample, error) {
	r, err := dataset.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := r.Header().Matches(dataset.HeaderFor(v, "")); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if strings.Contains(r.Header().Command, "--teacher") {
		// Another engine's scores: the model is of what Chimera's mean.
		return nil, fmt.Errorf("%s: labelled by a teacher (%q): the model needs the engine's own scores", path, r.Header().Command)
	}
	start := float64(wdl.StartPieces(v))
	var g dataset.Game
	for r.Next(&g) == nil {
		for _, p := range g.Positions {
			n := len(p.Board)
			for _, h := range p.Hand {
				n += int(h.Count)
			}
			result := g.Result
			if p.Black {
				result = -result
			}
			samples = append(samples, wdl.Sample{Score: int(p.Score), Material: float64(n) / start, Result: result})
		}
	}
	if err := r.Damaged(); err != nil && !errors.Is(err, dataset.ErrCutShort) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return samples, nil
}
