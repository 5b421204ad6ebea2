// Package tbbuild is the engine's table service: it prepares endgame tables
// in the background so that a game finds them ready, one generation at a
// time, paused while the engine searches, in a child process at the lowest
// OS priority. The algorithms, the files and the store are package
// tablebase's; this package holds the processes, the queue and the life
// cycle, and knows no command line: the command that starts a child is
// given to it (Builder.Command).
package tbbuild

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
)

// Builder prepares tables in the background: one generation at a time,
// paused while the engine searches, so a game on the clock never pays for
// it. With Command set each generation runs in a child process at the
// lowest OS priority, stopped (SIGSTOP) while paused; without it, in this
// process, pausing at check points every few milliseconds. (Low-priority
// threads inside the engine's process were tried and measured: the Go
// runtime's stop-the-world phases wait for every running thread, so a
// starved builder thread stalled the engine into time forfeits.) What it
// builds follows the material on the board (Prepare): the endings a few
// captures away, and KBNvK — the ending the project is named for — first.
// It is safe for concurrent use.
type Builder struct {
	store *tablebase.Store
	// MaxPieces bounds the tables built (kings included).
	MaxPieces int
	// MaxMemory bounds the estimated memory of one generation, in bytes.
	MaxMemory int64
	// MaxDisk bounds the bytes of the table files the builder built (the
	// record in the directory says which): the least recently used are
	// removed to make room, and a table that does not fit is not built.
	// Files it did not build (a user's) never count and are never removed.
	MaxDisk int64
	// Log receives a line when a build starts, ends or fails.
	Log func(string)
	// Command, when set, gives the child process that builds one table;
	// nil builds in this process.
	Command Command

	// recordMu serialises the changes of the record of the files built
	// (engine-built.json): the builder, loads and Await all change it.
	recordMu sync.Mutex

	mu    sync.Mutex
	cond  *sync.Cond // signals a change of queue, phase, build or hurry
	phase phase
	queue []job // what to build, first first
	// current is the build under way; nil when idle.
	current *building
	// tables holds each table's marks (tried, loading, hurried, awaited,
	// unreadable: see tableState); a table without any is absent.
	tables map[key]tableState
	// hurriedCount counts the tables marked hurried: while any is, the builder
	// goes on even when paused.
	hurriedCount int
	// variantFiles are the user variant files a child loads.
	variantFiles []string
	// nsPerEntry is the measured cost of generation, for Estimate;
	// sizes caches each table's entry count, so estimating on the clock
	// does not rebuild a table's geometry.
	nsPerEntry float64
	sizes      map[key]int
	// onHeld, for tests, is called (under the lock) whenever the builder
	// waits with work queued because it is paused.
	onHeld func()
	// finished is made when the builder's goroutine starts (with the
	// first work) and closed when it returns.
	finished chan struct{}
}

// phase is the builder's life cycle, one state at a time.
type phase uint8

const (
	// working: building what is queued, or waiting for work.
	working phase = iota
	// paused: holding still while the engine searches; only tables a
	// search hurries are built.
	paused
	// closed: stopped for good; a build under way was abandoned and
	// nothing more is built.
	closed
)

// key names a table in the builder's books: tables are kept per variant
// value, as the store keeps them.
type key struct {
	v *engine.Variant
	m string
}

// job is one table to build.
type job struct {
	v   *engine.Variant
	m   tablebase.Material
	key key
}

func keyOf(v *engine.Variant, m tablebase.Material) key { return key{v, m.String()} }

// New returns a builder over the store with default bounds: four pieces,
// 1 GiB of memory per generation, 1 GiB of files. A store without a
// generator is given tablebase/gen's: Await builds in this process.
func New(store *tablebase.Store) *Builder {
	b := &Builder{store: store, MaxPieces: 4, MaxMemory: 1 << 30, MaxDisk: 1 << 30,
		tables: map[key]tableState{}, sizes: map[key]int{}, nsPerEntry: 500}
	b.cond = sync.NewCond(&b.mu)
	if store.Generator == nil {
		store.Generator = gen.Generator{} // Await builds in this process
	}
	return b
}

// SetVariantFiles sets the user variant files a child process loads to
// find the variant it builds for (a session adds the files VariantPath
// loads).
func (b *Builder) SetVariantFiles(files []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.variantFiles = append([]string(nil), files...)
}

// Pause holds the builder at its next check point (within milliseconds);
// Resume lets it go on. The engine pauses it for the length of a search.
func (b *Builder) Pause() { b.setPhase(paused) }

// Resume undoes Pause.
func (b *Builder) Resume() { b.setPhase(working) }

// setPhase moves between working and paused (never out of closed).
func (b *Builder) setPhase(p phase) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.phase == closed {
		return
	}
	b.phase = p
	b.holdChildLocked()
	b.cond.Broadcast()
}

// holdLocked reports whether the builder is to hold still: paused, with no
// table a search needs.
func (b *Builder) holdLocked() bool { return b.phase == paused && b.hurriedCount == 0 }

// Close stops the builder: a generation under way is abandoned at its
// next check point (nothing half-built is saved), and Close returns when
// the builder has stopped writing. Closing twice is harmless.
func (b *Builder) Close() {
	b.mu.Lock()
	b.phase = closed
	if b.current != nil {
		b.current.giveWay()
	}
	b.cond.Broadcast()
	finished := b.finished
	b.mu.Unlock()
	if finished != nil {
		<-finished
	}
}

// startLocked starts the builder's goroutine on first use.
func (b *Builder) startLocked() {
	if b.finished == nil && b.phase != closed {
		b.finished = make(chan struct{})
		go b.run()
	}
}

// run builds the queue's tables one by one until Close.
func (b *Builder) run() {
	defer close(b.finished)
	for {
		b.mu.Lock()
		for b.phase != closed && (len(b.queue) == 0 || b.holdLocked()) {
			if b.onHeld != nil && len(b.queue) > 0 {
				b.onHeld()
			}
			b.cond.Wait()
		}
		if b.phase == closed {
			b.mu.Unlock()
			return
		}
		j := b.queue[0]
		b.queue = b.queue[1:]
		if b.isLocked(j.key, tableAwaited) {
			b.mu.Unlock()
			continue // Await builds it
		}
		cur := &building{job: j}
		b.current = cur
		b.mu.Unlock()

		err := b.build(cur)

		b.mu.Lock()
		gaveWay := cur.state == givingWay && err != nil
		takenOver := b.isLocked(j.key, tableAwaited)
		closing := b.phase == closed
		b.mu.Unlock()
		// Log before anyone waiting hears of the end.
		switch {
		case takenOver, closing:
			// Await says what becomes of it; at Close, nothing is said.
		case gaveWay:
			b.log("tablebase: %s %s put off for a table the search needs", j.v.Name, j.m)
		case err != nil:
			b.log("tablebase: %s %s not built: %v", j.v.Name, j.m, err)
		}
		b.mu.Lock()
		b.current = nil
		if gaveWay {
			b.queueLocked(j, b.isLocked(j.key, tableHurried)) // first if a search wants it now
		} else {
			b.markLocked(j.key, tableTried)
			b.unmarkLocked(j.key, tableHurried)
		}
		b.cond.Broadcast()
		b.mu.Unlock()
	}
}

// build builds one table within the caps, logging its start and end.
func (b *Builder) build(cur *building) error {
	j := cur.job
	if _, err := b.store.FindMaterial(j.v, j.m, tablebase.MemoryOrDisk); err == nil {
		return nil
	}
	cost, err := b.store.GenerationCost(j.v, j.m)
	if err != nil {
		return err
	}
	if cost.Memory > b.MaxMemory {
		return fmt.Errorf("needs about %d MiB, over the cap of %d MiB", cost.Memory>>20, b.MaxMemory>>20)
	}
	fresh, err := b.roomFor(j.v, j.m)
	if err != nil {
		return err
	}
	b.log("tablebase: building %s %s (%d entries per side)", j.v.Name, j.m, cost.Entries)
	var busy time.Duration
	if b.Command != nil && childPauses {
		if busy, err = b.buildInChild(cur); err != nil {
			return err
		}
		if _, err := b.store.FindMaterial(j.v, j.m, tablebase.MemoryOrDisk); err != nil {
			return fmt.Errorf("the child built no readable file: %w", err)
		}
	} else if busy, err = b.buildHere(cur); err != nil {
		return err
	}
	b.mu.Lock()
	b.nsPerEntry = max(float64(busy.Nanoseconds())/float64(cost.Entries), 50)
	b.mu.Unlock()
	b.log("tablebase: built %s %s in %.1f s", j.v.Name, j.m, busy.Seconds())
	b.recordBuilt(j.v, fresh)
	return nil
}

// buildHere generates a table in this process, holding at every check
// point while paused, and returns the time it was busy (not held).
func (b *Builder) buildHere(cur *building) (time.Duration, error) {
	start := time.Now()
	var held time.Duration
	hooks := tablebase.Hooks{
		Progress: func(frac float64) {
			b.mu.Lock()
			cur.frac = frac
			b.mu.Unlock()
		},
		Pause: func() bool {
			b.mu.Lock()
			defer b.mu.Unlock()
			waited := time.Now()
			// A table a search awaits lets everything go on: the build
			// under way first gets out of its way.
			for b.holdLocked() {
				b.cond.Wait()
			}
			held += time.Since(waited)
			return b.phase != closed && cur.state != givingWay
		},
	}
	_, err := b.store.Build(cur.v, cur.m, hooks)
	return time.Since(start) - held, err
}

func (b *Builder) log(format string, args ...any) {
	if b.Log != nil {
		b.Log(fmt.Sprintf(format, args...))
	}
}

// building is the build under way and its state.
type building struct {
	job
	state buildState
	// child is the process building it (nil: in this process, or not
	// started yet); start is when it started, stoppedAt when it was last
	// stopped, and heldFor how long it has been stopped in all.
	child     *os.Process
	start     time.Time
	stoppedAt time.Time
	heldFor   time.Duration
	frac      float64 // progress reported in this process
}

// buildState is where a build under way stands.
type buildState uint8

const (
	// running: the build goes on.
	running buildState = iota
	// stopped: its child process is stopped (SIGSTOP) while the engine
	// searches.
	stopped
	// givingWay: asked to end (a search needs another table first, Await
	// takes it over, or the builder closes): its child is killed, or the
	// in-process generation abandons at its next check point.
	givingWay
)

// giveWay ends the build early (under the builder's lock).
func (cur *building) giveWay() {
	cur.state = givingWay
	if cur.child != nil {
		cur.child.Kill()
		stopProcess(cur.child, false) // a stopped process dies only once continued
	}
}

// holdChildLocked stops or continues the current build's child process to
// match the builder's phase.
func (b *Builder) holdChildLocked() {
	cur := b.current
	if cur == nil || cur.child == nil || cur.state == givingWay {
		return
	}
	switch hold := b.holdLocked(); {
	case hold && cur.state == running:
		cur.state, cur.stoppedAt = stopped, time.Now()
		stopProcess(cur.child, true)
	case !hold && cur.state == stopped:
		cur.state = running
		cur.heldFor += time.Since(cur.stoppedAt)
		stopProcess(cur.child, false)
	}
}
