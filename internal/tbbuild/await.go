package tbbuild

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// readNsPerByte estimates the cost of loading a table file (reading and
// checking its sum), per byte.
const readNsPerByte = 5

// Missing returns the material of p when the builder could build or
// load its table and it is not in memory: a table of more than MaxPieces
// pieces (every table, with building off) only when its file is there
// and has not failed to load. It reads no file (a stat at most): it is
// asked on the clock.
func (b *Builder) Missing(p *engine.Position) (tablebase.Material, bool) {
	n := p.PieceCount()
	if n < 3 || n > tablebase.MaxPieces {
		return tablebase.Material{}, false
	}
	m, err := tablebase.TableMaterial(p)
	if err != nil {
		return tablebase.Material{}, false
	}
	if _, err := b.store.Find(p, tablebase.MemoryOnly); err == nil {
		return tablebase.Material{}, false
	}
	if n > b.MaxPieces && !b.Readable(p.Variant(), m) {
		return tablebase.Material{}, false
	}
	return m, true
}

// Readable reports whether m has a file that has not failed to load: the
// only way to a table the builder may not build, and the quick one to any.
func (b *Builder) Readable(v *engine.Variant, m tablebase.Material) bool {
	m, err := m.Normalised(v)
	if err != nil || !b.store.HasFile(v, m) {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.isLocked(keyOf(v, m), tableUnreadable|tableTried)
}

// Estimate returns how long getting m into memory should take at full
// speed: reading its file when there is one, else building it (what is
// left of it, when it is being built) at the speed of the last builds,
// after the build under way, if another, which finishes first.
func (b *Builder) Estimate(v *engine.Variant, m tablebase.Material) time.Duration {
	m, err := m.Normalised(v)
	if err != nil {
		return 0
	}
	// A file is read at once, beside any build, unless it was made for
	// another definition of the variant (or by an older format) or failed
	// to load: then it is built again.
	size, ok := b.store.FileSize(v, m)
	if ok && tablebase.CheckFile(b.store.Dir(), v, m) == nil {
		b.mu.Lock()
		unreadable := b.isLocked(keyOf(v, m), tableUnreadable)
		b.mu.Unlock()
		if !unreadable {
			return time.Duration(size) * readNsPerByte
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	entries := float64(b.sizeLocked(v, m))
	if cur := b.current; cur != nil {
		done := cur.frac
		if cur.child != nil {
			// A child reports no progress: judge it by the time it has run.
			ran := time.Since(cur.start) - cur.heldFor
			done = min(0.8, float64(ran)/(float64(b.sizeLocked(cur.v, cur.m))*b.nsPerEntry))
		}
		if cur.key == keyOf(v, m) {
			entries *= 1 - done
		} else {
			entries += float64(b.sizeLocked(cur.v, cur.m)) * (1 - done)
		}
	}
	return time.Duration(entries * b.nsPerEntry)
}

// sizeLocked returns the entries per side of m's table (0 when the
// generator cannot build it), computed once per table.
func (b *Builder) sizeLocked(v *engine.Variant, m tablebase.Material) int {
	k := keyOf(v, m)
	if n, ok := b.sizes[k]; ok {
		return n
	}
	n := 0
	if c, err := b.store.GenerationCost(v, m); err == nil {
		n = c.Entries
	}
	b.sizes[k] = n
	return n
}

// Await gets m into memory now, even while the builder is paused, and
// returns when it is there (or ctx is done): a file is read at once; with
// a child Command the table is generated here, at normal priority (the
// engine is waiting, so this is its own time, and a nice-19 child may be
// starved by a busy machine: one already on it is stopped, since a
// process may not raise its child's priority again); without one the
// builder is hurried and waited for.
func (b *Builder) Await(ctx context.Context, v *engine.Variant, m tablebase.Material) error {
	m, err := m.Normalised(v)
	if err != nil {
		return err
	}
	k := keyOf(v, m)
	if b.store.HasFile(v, m) {
		if _, err := b.store.FindMaterial(v, m, tablebase.MemoryOrDisk); err == nil {
			b.touchBuilt(v, m) // in use: the last to be removed
			return nil
		} else if !errors.Is(err, tablebase.ErrGenerating) {
			b.mu.Lock()
			b.markLocked(k, tableUnreadable) // estimated as a build from now on
			b.mu.Unlock()
			if len(m.Strong)+len(m.Weak) > b.MaxPieces {
				return err // only read, never built: the reason is the file's
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err // the caller gave up already: nothing to hurry
	}
	if b.Command != nil && childPauses {
		return b.buildNow(ctx, v, m, k)
	}
	// The builder's own goroutine builds it: hurry it and wait.
	b.Hurry(v, m)
	stop := context.AfterFunc(ctx, func() {
		b.mu.Lock()
		b.cond.Broadcast()
		b.mu.Unlock()
	})
	defer stop()
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.isLocked(k, tableHurried) && b.phase != closed {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		b.cond.Wait()
	}
	if _, err := b.store.FindMaterial(v, m, tablebase.MemoryOnly); err != nil {
		if ctx.Err() != nil {
			return ctx.Err() // abandoned by the caller rather than failed
		}
		return fmt.Errorf("%s could not be built", m)
	}
	return nil
}

// buildNow builds m in this process at once, taking it over from a child
// building it.
func (b *Builder) buildNow(ctx context.Context, v *engine.Variant, m tablebase.Material, k key) error {
	b.takeOver(k)
	defer func() {
		b.mu.Lock()
		b.unmarkLocked(k, tableAwaited|tableHurried)
		b.holdChildLocked()
		b.cond.Broadcast()
		b.mu.Unlock()
	}()
	fresh, err := b.roomFor(v, m)
	if err != nil {
		return err
	}
	b.log("tablebase: building %s %s now", v.Name, m)
	start := time.Now()
	if _, err := b.store.Build(v, m, tablebase.Hooks{Pause: func() bool { return ctx.Err() == nil }}); err != nil {
		if ctx.Err() != nil {
			// Slower than estimated: estimate more next time, rather
			// than start and abandon the same build on every move.
			b.mu.Lock()
			b.nsPerEntry *= 2
			b.mu.Unlock()
			return ctx.Err()
		}
		return err
	}
	b.log("tablebase: built %s %s in %.1f s", v.Name, m, time.Since(start).Seconds())
	b.recordBuilt(v, fresh)
	return nil
}

// takeOver marks k as built by Await and ends a build of it under way;
// it returns when the builder has let go of it.
func (b *Builder) takeOver(k key) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.markLocked(k, tableAwaited)
	for b.current != nil && b.current.key == k {
		if b.current.state != givingWay {
			b.current.giveWay()
		}
		b.cond.Wait()
	}
}
