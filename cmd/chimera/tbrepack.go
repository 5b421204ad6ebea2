package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/atomicfile"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/spf13/cobra"
)

func newTBRepackCommand() *cobra.Command {
	var f tbFlags
	var out string
	var bothSides, recompress bool
	cmd := &cobra.Command{
		Use:   "repack [MATERIAL...] --out DIR [--both-sides] [--recompress]",
		Short: "Write tables again storing one side's distances: about half the bytes",
		Long: `Repack writes the variant's tables of --dir (or the materials named) into
--out, each storing the distances to mate and to zeroing of one side to
move only, the side whose distances take fewer bytes, and the outcomes of
both: about half the bytes, as tables are shipped. A probe of the other
side to move searches one ply over the stored side and the smaller
tables, so a set repacked this way is used whole: the smaller tables
must be at hand too (repack them together). Probes, best moves and
verification give the same answers from either kind of file.

--both-sides writes every distance again (a set to generate bigger
tables from: a generation reads whole tables, and a one-side table is
searched through first).

A file that stores every distance is repacked one-sided from its
compressed blocks as they are: seconds for a five-piece table, the
blocks staying at the level they were compressed at; a one-side file
is copied as it is. --recompress
decompresses the table and compresses every block again at the
compressor's best level (minutes for a five-piece table): a generation
writes at a quicker one, and its files come out 8–15% smaller so.
--both-sides always compresses again, at the best level. --out may be
--dir itself: each file is replaced whole, the smaller tables first.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return errors.New("tb repack: --out DIR names where the repacked tables go")
			}
			v, store, err := f.open(cmd, false)
			if err != nil {
				return err
			}
			if err := tablebase.CheckDir(out, true); err != nil {
				return fmt.Errorf("tb repack: %w", err)
			}
			materials, err := repackMaterials(store, v, args)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			var before, after int64
			for _, m := range materials {
				start := time.Now()
				was, _ := store.FileSize(v, m)
				t, err := store.FindMaterial(v, m, tablebase.MemoryOrDisk)
				if err != nil {
					return fmt.Errorf("tb repack: %w", err)
				}
				if err := repack(t, store.Dir(), out, bothSides, recompress); err != nil {
					return fmt.Errorf("tb repack: %w", err)
				}
				st, err := os.Stat(filepath.Join(out, tablebase.FileName(v, m)))
				if err != nil {
					return fmt.Errorf("tb repack: %w", err)
				}
				before, after = before+was, after+st.Size()
				fmt.Fprintf(w, "%s %s: %s -> %s (%s), %.1fs\n", v.Name, m, fileBytes(was), fileBytes(st.Size()),
					storedSides(out, v, m), time.Since(start).Seconds())
			}
			if len(materials) > 1 {
				fmt.Fprintf(w, "%d tables: %s -> %s in %s\n", len(materials), fileBytes(before), fileBytes(after), out)
			}
			return nil
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&out, "out", "", "directory to write the repacked tables to (may be --dir)")
	cmd.Flags().BoolVar(&bothSides, "both-sides", false, "store every side's distances (a set to generate from)")
	cmd.Flags().BoolVar(&recompress, "recompress", false, "compress every block again at the best level (slower; 8-15% smaller than a generation's files)")
	return cmd
}

// repack writes t, read from dir, into out: one side's distances from its
// file's blocks as they are where it stores both; a one-side file copied
// as it is (or left, in place); else (bothSides, recompress) from its
// entries in memory, compressed again.
func repack(t *tablebase.Table, dir, out string, bothSides, recompress bool) error {
	if !bothSides && !recompress {
		if t.DistancesStored(0) && t.DistancesStored(1) {
			return t.RepackOneSide(out)
		}
		return copyTableFile(t, dir, out)
	}
	dense, err := t.Dense()
	if err != nil {
		return err
	}
	if bothSides {
		return dense.SaveSmallest(out)
	}
	return dense.SaveOneSide(out)
}

// repackMaterials returns the materials to repack, fewest pieces first
// (a one-side table is read through its smaller tables): the named ones,
// each of which must have a file, or every table file of the variant.
func repackMaterials(store *tablebase.Store, v *engine.Variant, names []string) ([]tablebase.Material, error) {
	var ms []tablebase.Material
	for _, name := range names {
		m, err := tablebase.ParseMaterial(v, name)
		if err != nil {
			return nil, err
		}
		if !store.HasFile(v, m) {
			return nil, fmt.Errorf("tb repack: no %s table file in %s", m, store.Dir())
		}
		ms = append(ms, m)
	}
	if len(names) == 0 {
		lookup := func(name string) (*engine.Variant, error) {
			if name == v.Name {
				return v, nil
			}
			return nil, fmt.Errorf("not %s", v.Name)
		}
		for _, f := range store.Files(lookup) {
			ms = append(ms, f.Material)
		}
		if len(ms) == 0 {
			return nil, fmt.Errorf("tb repack: no %s table files in %s", v.Name, store.Dir())
		}
	}
	pieces := func(m tablebase.Material) int { return len(m.Strong) + len(m.Weak) }
	slices.SortStableFunc(ms, func(a, b tablebase.Material) int { return pieces(a) - pieces(b) })
	return ms, nil
}

// copyTableFile copies t's file from dir to out as it is, atomically; a
// file already in place is left.
func copyTableFile(t *tablebase.Table, dir, out string) error {
	name := tablebase.FileName(t.Variant, t.Material)
	src, dst := filepath.Join(dir, name), filepath.Join(out, name)
	if same, err := sameFile(src, dst); err != nil || same {
		return err
	}
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	return atomicfile.Write(dst, 0o644, func(w io.Writer) error {
		_, err := io.Copy(w, f)
		return err
	})
}

// sameFile reports whether two paths name one file (a missing second is
// not it).
func sameFile(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

// storedSides says whose distances a table file holds.
func storedSides(dir string, v *engine.Variant, m tablebase.Material) string {
	t, err := tablebase.Load(dir, v, m)
	if err != nil {
		return err.Error()
	}
	switch white, black := t.DistancesStored(0), t.DistancesStored(1); {
	case white && black:
		return "both sides' distances"
	case white:
		return "white to move's distances"
	}
	return "black to move's distances"
}

// fileBytes writes a file's size for people, small ones in KiB.
func fileBytes(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return mebibytes(n)
}
