package tbbuild

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/atomicfile"
	"github.com/chimera-chess/chimera/internal/smallfile"
	"github.com/chimera-chess/chimera/tablebase"
)

// builtName is the record, in the table directory, of the files the
// engine built unasked: only these count against MaxDisk and only these
// are ever removed (a table a user generated is theirs). Within a process
// its changes take turns (Builder.recordMu); several engines may share
// the directory (a GUI's two players), and as the record is rewritten
// whole one engine's entry may be lost to another's write, which leaves
// that file out of the budget but never removes a table wrongly.
const builtName = "engine-built.json"

// builtFile is one file the engine built: its size, and when a session
// last read it (Unix nanoseconds), for evicting the least recently used.
type builtFile struct {
	Bytes    int64 `json:"bytes"`
	LastUsed int64 `json:"last_used"`
}

// maxBuiltRecord bounds the record read: some thousands of entries.
const maxBuiltRecord = 4 << 20

// readBuilt reads the record (empty when missing or unreadable: nothing
// is then removed), less the files gone since.
func (b *Builder) readBuilt() map[string]builtFile {
	files := map[string]builtFile{}
	data, err := smallfile.Read(filepath.Join(b.store.Dir(), builtName), maxBuiltRecord, "the record of the tables the engine built")
	if err != nil || json.Unmarshal(data, &files) != nil {
		return map[string]builtFile{}
	}
	for name := range files {
		if _, err := os.Lstat(filepath.Join(b.store.Dir(), filepath.Base(name))); err != nil || filepath.Base(name) != name {
			delete(files, name)
		}
	}
	return files
}

// writeBuilt writes the record whole.
func (b *Builder) writeBuilt(files map[string]builtFile) error {
	return atomicfile.Write(filepath.Join(b.store.Dir(), builtName), 0o644, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(files)
	})
}

// makeRoom removes the least recently used files the engine built until
// need more bytes fit in MaxDisk beside the others, keeping the tables
// of keep; it fails when they cannot.
func (b *Builder) makeRoom(need int64, keep []string) error {
	b.recordMu.Lock()
	defer b.recordMu.Unlock()
	files := b.readBuilt()
	var used int64
	for _, f := range files {
		used += f.Bytes
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.SortFunc(names, func(x, y string) int {
		return cmp.Or(cmp.Compare(files[x].LastUsed, files[y].LastUsed), cmp.Compare(x, y))
	})
	var removable int64
	for _, name := range names {
		if !slices.Contains(keep, name) {
			removable += files[name].Bytes
		}
	}
	if used-removable+need > b.MaxDisk {
		// Removing every table it may would not make room: none is.
		return fmt.Errorf("needs about %s, and the tables it builds may take %s of disk (TablebaseDisk), %s of which are in use", mib(need), mib(b.MaxDisk), mib(used))
	}
	removed := false
	for _, name := range names {
		if used+need <= b.MaxDisk {
			break
		}
		if slices.Contains(keep, name) {
			continue
		}
		if err := os.Remove(filepath.Join(b.store.Dir(), name)); err != nil && !os.IsNotExist(err) {
			continue
		}
		size := files[name].Bytes
		used -= size
		delete(files, name)
		removed = true
		b.log("tablebase: removed %s (%s, used least recently) to keep the tables the engine built within %s (TablebaseDisk)",
			name, mib(size), mib(b.MaxDisk))
	}
	if removed {
		if err := b.writeBuilt(files); err != nil {
			return err
		}
	}
	if used+need > b.MaxDisk {
		return fmt.Errorf("needs about %s, and the tables it builds may take %s of disk (TablebaseDisk), %s of which are in use", mib(need), mib(b.MaxDisk), mib(used))
	}
	return nil
}

// roomFor makes room for building m (see makeRoom), keeping the smaller
// tables it reads, and returns the tables the build will write: m and
// the smaller ones it lacks.
func (b *Builder) roomFor(v *engine.Variant, m tablebase.Material) ([]tablebase.Material, error) {
	plan, err := b.store.Plan(v, []tablebase.Material{m})
	if err != nil {
		return nil, err
	}
	var need int64
	var keep []string
	var fresh []tablebase.Material
	for _, e := range plan {
		keep = append(keep, tablebase.FileName(v, e.Material))
		if !e.Exists {
			need += e.Cost.File
			fresh = append(fresh, e.Material)
		}
	}
	return fresh, b.makeRoom(need, keep)
}

// recordBuilt adds the files of a build to the record and says what it
// wrote.
func (b *Builder) recordBuilt(v *engine.Variant, built []tablebase.Material) {
	b.recordMu.Lock()
	defer b.recordMu.Unlock()
	files := b.readBuilt()
	var wrote []string
	var bytes int64
	for _, m := range built {
		name := tablebase.FileName(v, m)
		st, err := os.Stat(filepath.Join(b.store.Dir(), name))
		if err != nil {
			continue // not saved (a read-only directory: kept in memory)
		}
		files[name] = builtFile{Bytes: st.Size(), LastUsed: time.Now().UnixNano()}
		wrote, bytes = append(wrote, name), bytes+st.Size()
	}
	if len(wrote) == 0 {
		return
	}
	var used int64
	for _, f := range files {
		used += f.Bytes
	}
	if err := b.writeBuilt(files); err != nil {
		b.log("tablebase: %v", err)
	}
	b.log("tablebase: wrote %s (%s) in %s; the tables the engine built take %s of %s (TablebaseDisk)",
		strings.Join(wrote, " "), mib(bytes), b.store.Dir(), mib(used), mib(b.MaxDisk))
}

// touchBuilt records that a session read a file the engine built, so the
// tables in use are the last removed.
func (b *Builder) touchBuilt(v *engine.Variant, m tablebase.Material) {
	b.recordMu.Lock()
	defer b.recordMu.Unlock()
	name := tablebase.FileName(v, m)
	files := b.readBuilt()
	if f, ok := files[name]; ok {
		f.LastUsed = time.Now().UnixNano()
		files[name] = f
		b.writeBuilt(files) // a lost touch only makes the file older
	}
}

// mib writes a byte count for people.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
