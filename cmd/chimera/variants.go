package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/variants"
)

// variantFlags are the --variant and --variant-file flags every command
// that plays a variant takes.
type variantFlags struct {
	name  string
	files []string
}

func (f *variantFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.name, "variant", "chess", "variant to play (UCI_Variant name; see 'chimera variants list')")
	cmd.Flags().StringArrayVar(&f.files, "variant-file", nil, "load user variants from this Fairy-Stockfish-style file first (repeatable)")
}

// catalogue returns the built-ins plus the user files.
func (f *variantFlags) catalogue() (*variants.Catalogue, error) {
	c := variants.Builtin()
	for _, file := range f.files {
		if err := c.LoadFile(file); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// variant resolves the chosen variant.
func (f *variantFlags) variant() (*engine.Variant, error) {
	c, err := f.catalogue()
	if err != nil {
		return nil, err
	}
	return c.Lookup(f.name)
}

func newVariantsCommand() *cobra.Command {
	var flags variantFlags
	cmd := &cobra.Command{
		Use:   "variants",
		Short: "List, show and check variants",
		Long: `Variants are defined in Fairy-Stockfish's variants.ini format, with pieces in
Betza notation. The built-ins are themselves written that way; add your own
with --variant-file on any command that takes --variant.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.PersistentFlags().StringArrayVar(&flags.files, "variant-file", nil, "load user variants from this file first (repeatable)")

	list := &cobra.Command{
		Use:   "list",
		Short: "List every variant with its board size and a description",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := flags.catalogue()
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			for _, name := range c.Names() {
				files, ranks, _ := c.BoardSize(name) // without building every variant
				fmt.Fprintf(w, "%s\t%dx%d\t%s\n", name, files, ranks, c.Description(name))
			}
			return w.Flush()
		},
	}
	show := &cobra.Command{
		Use:   "show NAME",
		Short: "Show a variant's pieces, start position and rules",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := flags.catalogue()
			if err != nil {
				return err
			}
			v, err := c.Lookup(args[0])
			if err != nil {
				return err
			}
			showVariant(cmd.OutOrStdout(), v, c.Description(args[0]))
			return nil
		},
	}
	check := &cobra.Command{
		Use:   "check FILE",
		Short: "Report every problem in a variant file without loading it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := flags.catalogue()
			if err != nil {
				return err
			}
			if err := c.Check(args[0]); err != nil {
				// One problem per line, then a one-line summary as the error.
				lines := strings.Split(err.Error(), "\n")
				for _, l := range lines {
					fmt.Fprintln(cmd.OutOrStdout(), l)
				}
				return fmt.Errorf("%s: %d problem(s)", args[0], len(lines))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: OK\n", args[0])
			return nil
		},
	}
	cmd.AddCommand(list, show, check)
	return cmd
}

// showVariant prints the pieces, the start position as a board, and the
// rules that differ from chess's defaults.
func showVariant(w io.Writer, v *engine.Variant, description string) {
	fmt.Fprintf(w, "%s (%dx%d): %s\n\nPieces:\n", v.Name, v.Width, v.Height, description)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  letter\tname\tbetza\tvalue\troyal")
	values := eval.Values(v)
	for i, pt := range v.Pieces {
		royal, value := "", strconv.Itoa(values[i])
		if pt.Royal {
			royal = "royal"
		}
		if pt.Value == 0 && !pt.Royal {
			value += " (estimated)"
		}
		fmt.Fprintf(tw, "  %c\t%s\t%s\t%s\t%s\n", pt.Letter, pt.Name, pt.Betza, value, royal)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nStart position: %s\n\n", v.StartFEN)
	fmt.Fprint(w, v.StartPosition().Board())
	fmt.Fprintln(w, "\nRules:")
	for _, r := range ruleSummary(v) {
		fmt.Fprintf(w, "  %s\n", r)
	}
}
