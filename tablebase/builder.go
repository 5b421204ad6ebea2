package tablebase

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/chimera-chess/chimera/engine"
)

// Builder prepares tables in the background so that a game finds them
// ready: one generation at a time, paused while the engine searches, so a
// game on the clock never pays for it. With Command set each generation
// runs in a child process at the lowest OS priority, stopped (SIGSTOP)
// while paused; without it, in this process, pausing at check points every
// few milliseconds. (Low-priority threads inside the engine's process were
// tried and measured: the Go runtime's stop-the-world phases wait for
// every running thread, so a starved builder thread stalled the engine
// into time forfeits.) What it builds follows the material on the board
// (Prepare): the endings a few captures away, and KBNvK — the ending the
// project is named for — first. It is safe for concurrent use.
type Builder struct {
	store *Store
	// MaxPieces bounds the tables built (kings included).
	MaxPieces int
	// MaxMemory bounds the estimated memory of one generation, in bytes.
	MaxMemory int64
	// MaxDisk bounds the bytes of table files in the store's directory:
	// nothing more is built once they reach it.
	MaxDisk int64
	// Log receives a line when a build starts, ends or fails.
	Log func(string)
	// Command, when set, is the program and first arguments that generate
	// a table in a child process, given the material and then "--dir DIR"
	// and VariantArgs: for Chimera, its own path and "tb", "generate".
	Command []string
	// VariantArgs are the child's arguments that select a variant
	// (default: --variant NAME).
	VariantArgs func(v *engine.Variant) []string

	mu     sync.Mutex
	cond   *sync.Cond      // signals a change of queue, pause or quit
	queue  []buildJob      // what to build, first first
	tried  map[string]bool // built, found, refused or failed: not again
	paused bool
	// loading are tables whose files are being read; preempted: the build
	// under way gives way to a hurried one.
	loading   map[string]bool
	preempted bool
	// hurried are tables a search needs: while any is wanted the builder
	// goes on even when paused (the build under way first gets out of
	// their way), on its lowest-priority threads.
	hurried map[string]bool
	// awaited are tables Await is building in this process: the builder
	// leaves them alone.
	awaited    map[string]bool
	current    string // the table being built, "" when idle
	currentJob buildJob
	child      *os.Process // the child process building, if any
	stopped    bool        // the child is stopped (SIGSTOP)
	stoppedAt  time.Time
	// childPaused is how long the current child has been stopped;
	// childStart is when it started.
	childPaused time.Duration
	childStart  time.Time
	childCPU    time.Duration // the last child's CPU time per CPU
	frac        float64
	quit        bool
	// nsPerEntry is the measured cost of generation, for Estimate;
	// sizes caches each table's entry count, so estimating on the clock
	// does not rebuild a geometry.
	nsPerEntry float64
	sizes      map[string]int
	started    bool
	// onHeld, for tests, is called (under the lock) whenever the builder
	// waits with work queued because it is paused.
	onHeld   func()
	finished chan struct{} // closed when run returns
}

// buildJob is one table to build.
type buildJob struct {
	v   *engine.Variant
	m   Material
	key string
}

// NewBuilder returns a builder over the store with default bounds: four
// pieces, 1 GiB of memory per generation, 1 GiB of files.
func (s *Store) NewBuilder() *Builder {
	b := &Builder{store: s, MaxPieces: 4, MaxMemory: 1 << 30, MaxDisk: 1 << 30, tried: map[string]bool{}, hurried: map[string]bool{},
		loading: map[string]bool{}, sizes: map[string]int{}, awaited: map[string]bool{},
		nsPerEntry: 500, finished: make(chan struct{})}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// readNsPerByte estimates the cost of loading a table file (reading and
// checking its sum), per byte.
const readNsPerByte = 5

// Prepare plans the tables for the endings reachable from p (the
// variant's start position when p is nil): KBNvK first when the variant
// has those pieces, then each ending at most three captures away, nearest
// first. The plan replaces the one before; tables already stored are
// skipped.
func (b *Builder) Prepare(v *engine.Variant, p *engine.Position) {
	plan := b.plan(v, p)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queue = b.queue[:0]
	for _, m := range plan {
		b.enqueue(v, m, false)
	}
	b.startLocked()
}

// Want asks for one table next (the search met its position at the root).
func (b *Builder) Want(v *engine.Variant, m Material) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.enqueue(v, m, true)
	b.startLocked()
}

// Hurry asks for one table next and lets it be built even while the
// builder is paused: the search needs it on its next move.
func (b *Builder) Hurry(v *engine.Variant, m Material) {
	m, err := m.normalised(v)
	if err != nil {
		return
	}
	key := tableKey(v, m)
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.tried, key) // a failure before may have been a cap since raised
	b.enqueue(v, m, true)
	if key == b.current || b.loading[key] || slices.ContainsFunc(b.queue, func(j buildJob) bool { return j.key == key }) {
		b.hurried[key] = true
	}
	if b.current != "" && b.hurried[key] && key != b.current && !b.hurried[b.current] {
		// A build nobody waits for gives way to one a search needs; it is
		// queued again.
		b.preempted = true
		if b.child != nil {
			b.child.Kill()
			stopProcess(b.child, false)
		}
	}
	b.holdChildLocked()
	b.cond.Broadcast()
	b.startLocked()
}

// enqueue adds a buildable, not yet tried table to the queue, at the front
// when first. A table over MaxPieces is only read, when its file exists
// (tb generate makes five-piece tables; the builder does not).
func (b *Builder) enqueue(v *engine.Variant, m Material, first bool) {
	m, err := m.normalised(v)
	if err != nil || CheckMaterial(v, m) != nil {
		return
	}
	if len(m.Strong)+len(m.Weak) > b.MaxPieces && !b.hasFile(v, m) {
		return
	}
	key := tableKey(v, m)
	if b.tried[key] || key == b.current || b.loading[key] {
		return
	}
	if _, err := b.store.FindMaterial(v, m, MemoryOnly); err == nil {
		return
	}
	if b.hasFile(v, m) {
		b.loadLocked(v, m, key)
		return
	}
	for i, j := range b.queue {
		if j.key == key {
			if !first {
				return
			}
			b.queue = append(b.queue[:i], b.queue[i+1:]...)
			break
		}
	}
	job := buildJob{v: v, m: m, key: key}
	if first {
		b.queue = append([]buildJob{job}, b.queue...)
	} else {
		b.queue = append(b.queue, job)
	}
	b.cond.Broadcast()
}

// hasFile reports whether m's table file is in the store's directory.
func (b *Builder) hasFile(v *engine.Variant, m Material) bool {
	return b.store.HasFile(v, m)
}

// loadLocked reads a table's file in a goroutine of its own: reading takes
// milliseconds, so it does not wait behind a build in the queue.
func (b *Builder) loadLocked(v *engine.Variant, m Material, key string) {
	b.loading[key] = true
	go func() {
		_, err := b.store.FindMaterial(v, m, MemoryOrDisk)
		ok := err == nil
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.loading, key)
		delete(b.hurried, key)
		if !ok {
			b.tried[key] = true
			b.log("tablebase: %s %s could not be read", v.Name, m)
		}
		b.cond.Broadcast()
	}()
}

// Pause holds the builder at its next check point (within milliseconds);
// Resume lets it go on. The engine pauses it for the length of a search.
func (b *Builder) Pause() {
	b.mu.Lock()
	b.paused = true
	b.holdChildLocked()
	b.mu.Unlock()
}

// Resume undoes Pause.
func (b *Builder) Resume() {
	b.mu.Lock()
	b.paused = false
	b.holdChildLocked()
	b.cond.Broadcast()
	b.mu.Unlock()
}

// holdLocked reports whether the builder is to hold still: paused, with no
// table a search needs.
func (b *Builder) holdLocked() bool { return b.paused && len(b.hurried) == 0 && !b.quit }

// holdChildLocked stops or continues the child process to match.
func (b *Builder) holdChildLocked() {
	if b.child != nil && b.holdLocked() != b.stopped {
		b.stopped = !b.stopped
		if b.stopped {
			b.stoppedAt = time.Now()
		} else {
			b.childPaused += time.Since(b.stoppedAt)
		}
		stopProcess(b.child, b.stopped)
	}
}

// Close stops the builder: a generation under way is abandoned at its
// next check point (nothing half-built is saved), and Close returns when
// the builder has stopped writing.
func (b *Builder) Close() {
	b.mu.Lock()
	b.quit = true
	if b.child != nil {
		b.child.Kill()
		stopProcess(b.child, false) // a stopped process dies only once continued
	}
	b.cond.Broadcast()
	started := b.started
	b.mu.Unlock()
	if started {
		<-b.finished
	}
}

// Missing returns the material of p when the builder could build (or
// load) its table and it is not in memory. It reads nothing from disk: it
// is asked on the clock.
func (b *Builder) Missing(p *engine.Position) (Material, bool) {
	if n := p.PieceCount(); n < 3 || n > b.MaxPieces {
		return Material{}, false
	}
	m, err := TableMaterial(p)
	if err != nil {
		return Material{}, false
	}
	if _, err := b.store.Find(p, MemoryOnly); err == nil {
		return Material{}, false
	}
	return m, true
}

// Estimate returns how long getting m into memory should take at full
// speed: reading its file when there is one, else building it (what is
// left of it, when it is being built) at the speed of the last builds,
// after the build under way, if another, which finishes first.
func (b *Builder) Estimate(v *engine.Variant, m Material) time.Duration {
	if size, ok := b.store.FileSize(v, m); ok {
		return time.Duration(size) * readNsPerByte // read at once, beside any build
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	entries := float64(b.sizeLocked(v, m))
	done := b.frac
	if b.child != nil {
		// A child reports no progress: judge it by the time it has run.
		ran := time.Since(b.childStart) - b.childPaused
		size := float64(b.sizeLocked(b.currentJob.v, b.currentJob.m))
		done = min(0.8, float64(ran)/(size*b.nsPerEntry))
	}
	if b.current == tableKey(v, m) {
		entries *= 1 - done
	} else if b.current != "" {
		entries += float64(b.sizeLocked(b.currentJob.v, b.currentJob.m)) * (1 - done)
	}
	return time.Duration(entries * b.nsPerEntry)
}

// sizeLocked returns the entries per side of m's table (0 when the
// generator cannot build it), computed once per table.
func (b *Builder) sizeLocked(v *engine.Variant, m Material) int {
	key := tableKey(v, m)
	if n, ok := b.sizes[key]; ok {
		return n
	}
	n := 0
	if g, err := newGeometry(v, m); err == nil {
		n = g.size
	}
	b.sizes[key] = n
	return n
}

// Await gets m into memory now, even while the builder is paused, and
// returns when it is there (or ctx is done): a file is read at once; with
// a child Command the table is generated here, at normal priority (the
// engine is waiting, so this is its own time, and a nice-19 child may be
// starved by a busy machine: one already on it is stopped, since a
// process may not raise its child's priority again); without one the
// builder is hurried and waited for.
func (b *Builder) Await(ctx context.Context, v *engine.Variant, m Material) error {
	m, err := m.normalised(v)
	if err != nil {
		return err
	}
	key := tableKey(v, m)
	if b.store.HasFile(v, m) {
		if _, err := b.store.FindMaterial(v, m, MemoryOrDisk); err == nil {
			return nil
		}
	}
	if len(b.Command) > 0 && childPauses {
		b.takeOver(key)
		defer func() {
			b.mu.Lock()
			delete(b.awaited, key)
			delete(b.hurried, key)
			b.holdChildLocked()
			b.cond.Broadcast()
			b.mu.Unlock()
		}()
		b.log("tablebase: building %s %s now", v.Name, m)
		start := time.Now()
		if _, err := b.store.Build(v, m, Hooks{Pause: func() bool { return ctx.Err() == nil }}); err != nil {
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
		return nil
	}
	// A child already on it keeps its work: hurry it and wait.
	b.Hurry(v, m)
	stop := context.AfterFunc(ctx, func() {
		b.mu.Lock()
		b.cond.Broadcast()
		b.mu.Unlock()
	})
	defer stop()
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.hurried[key] && !b.quit {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		b.cond.Wait()
	}
	if _, err := b.store.FindMaterial(v, m, MemoryOnly); err != nil {
		return fmt.Errorf("%s could not be built", m)
	}
	return nil
}

// takeOver marks key as built by Await and stops a child building it;
// it returns when the builder has let go of it.
func (b *Builder) takeOver(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.awaited[key] = true
	for b.current == key {
		if b.child != nil && !b.preempted {
			b.preempted = true
			b.child.Kill()
			stopProcess(b.child, false) // a stopped process dies only once continued
		}
		b.cond.Wait()
	}
}

// startLocked starts the builder's goroutine on first use.
func (b *Builder) startLocked() {
	if !b.started && !b.quit {
		b.started = true
		go b.run()
	}
}

// buildInChild runs one generation in a child process and waits for it.
func (b *Builder) buildInChild(job buildJob) error {
	args := append(append([]string(nil), b.Command...), job.m.String(), "--dir", b.store.Dir())
	if b.VariantArgs != nil {
		args = append(args, b.VariantArgs(job.v)...)
	} else {
		args = append(args, "--variant", job.v.Name)
	}
	args = lowPriority(args)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.SysProcAttr = childAttributes()
	// The child's death signal follows the thread that started it: keep
	// this goroutine on that thread until the child is done.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, left: 4096}
	b.mu.Lock()
	if b.quit {
		b.mu.Unlock()
		return fmt.Errorf("closed")
	}
	if err := cmd.Start(); err != nil {
		b.mu.Unlock()
		return err
	}
	b.child, b.stopped, b.childPaused, b.childStart = cmd.Process, false, 0, time.Now()
	b.holdChildLocked()
	b.cond.Broadcast() // an Await may be waiting to take this job over
	b.mu.Unlock()
	err := cmd.Wait()
	b.mu.Lock()
	b.child = nil
	if err == nil && cmd.ProcessState != nil {
		// Its CPU time, spread over the CPUs, is what the build costs at
		// full speed, however long a busy machine made it wait.
		cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		b.childCPU = cpu / time.Duration(runtime.NumCPU())
	}
	b.mu.Unlock()
	if err != nil {
		return fmt.Errorf("%v: %s", err, lastLine(stderr.String()))
	}
	return nil
}

// limitedWriter keeps the first bytes written to it and drops the rest.
type limitedWriter struct {
	w    io.Writer
	left int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.left > 0 {
		n := min(len(p), l.left)
		l.w.Write(p[:n])
		l.left -= n
	}
	return len(p), nil
}

// lastLine returns the last non-empty line of a child's messages.
func lastLine(s string) string {
	lines := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	if len(lines) == 0 {
		return "no message"
	}
	return lines[len(lines)-1]
}

// run builds the queue's tables one by one until Close.
func (b *Builder) run() {
	defer close(b.finished)
	for {
		b.mu.Lock()
		for !b.quit && (len(b.queue) == 0 || b.holdLocked()) {
			if b.onHeld != nil && len(b.queue) > 0 {
				b.onHeld()
			}
			b.cond.Wait()
		}
		if b.quit {
			b.mu.Unlock()
			return
		}
		job := b.queue[0]
		b.queue = b.queue[1:]
		if b.awaited[job.key] {
			b.mu.Unlock()
			continue // Await builds it
		}
		b.current, b.currentJob, b.frac = job.key, job, 0
		b.mu.Unlock()

		err := b.build(job)

		b.mu.Lock()
		preempted := b.preempted && err != nil
		takenOver := b.awaited[job.key]
		quitting := b.quit
		b.preempted = false
		b.mu.Unlock()
		// Log before anyone waiting hears of the end.
		switch {
		case takenOver, quitting:
			// Await says what becomes of it; at Close, nothing is said.
		case preempted:
			b.log("tablebase: %s %s put off for a table the search needs", job.v.Name, job.m)
		case err != nil:
			b.log("tablebase: %s %s not built: %v", job.v.Name, job.m, err)
		}
		b.mu.Lock()
		b.current = ""
		if preempted {
			b.queue = append(b.queue, job)
		} else {
			b.tried[job.key] = true
			delete(b.hurried, job.key)
		}
		b.cond.Broadcast()
		b.mu.Unlock()
	}
}

// build builds one table within the caps, logging its start and end.
func (b *Builder) build(job buildJob) error {
	if _, err := b.store.FindMaterial(job.v, job.m, MemoryOrDisk); err == nil {
		return nil
	}
	cost, err := GenerationCost(job.v, job.m)
	entries, need := cost.Entries, cost.Memory
	if err != nil {
		return err
	}
	if need > b.MaxMemory {
		return fmt.Errorf("needs about %d MiB, over the cap of %d MiB", need>>20, b.MaxMemory>>20)
	}
	if used := b.store.DiskUse(); used >= b.MaxDisk {
		return fmt.Errorf("the table directory holds %d MiB, at the cap of %d MiB", used>>20, b.MaxDisk>>20)
	}
	b.log("tablebase: building %s %s (%d entries per side)", job.v.Name, job.m, entries)
	start := time.Now()
	var paused time.Duration
	hooks := Hooks{
		Progress: func(frac float64) {
			b.mu.Lock()
			b.frac = frac
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
			paused += time.Since(waited)
			return !b.quit && !b.preempted
		},
	}
	if len(b.Command) > 0 && childPauses {
		if err := b.buildInChild(job); err != nil {
			return err
		}
		if _, err := b.store.FindMaterial(job.v, job.m, MemoryOrDisk); err != nil {
			return fmt.Errorf("the child built no readable file")
		}
	} else if _, err := b.store.Build(job.v, job.m, hooks); err != nil {
		return err
	}
	busy := time.Since(start) - paused
	b.mu.Lock()
	if len(b.Command) > 0 && childPauses {
		busy = b.childCPU
	}
	b.nsPerEntry = max(float64(busy.Nanoseconds())/float64(entries), 50)
	b.mu.Unlock()
	b.log("tablebase: built %s %s in %.1f s", job.v.Name, job.m, busy.Seconds())
	return nil
}

func (b *Builder) log(format string, args ...any) {
	if b.Log != nil {
		b.Log(fmt.Sprintf(format, args...))
	}
}

// plan lists the materials worth building for p (the variant's start
// position when p is nil), best first; none when the generator cannot
// model the variant.
func (b *Builder) plan(v *engine.Variant, p *engine.Position) []Material {
	if CheckVariant(v) != nil {
		return nil
	}
	if p == nil {
		p = v.StartPosition()
	}
	const maxCaptures = 3
	var pieces [2][]byte // each side's non-royal letters
	total := 0
	for c := engine.White; c <= engine.Black; c++ {
		for _, s := range p.Pieces(c) {
			total++
			pt := v.PieceType(p.At(s))
			if !pt.Royal {
				pieces[c] = append(pieces[c], pt.Letter)
			}
		}
	}
	type candidate struct {
		m        Material
		captures int
	}
	seen := map[string]bool{}
	var cands []candidate
	add := func(white, black string, captures int) {
		m, err := Material{Strong: "K" + white, Weak: "K" + black}.normalised(v)
		m = orient(v, m)
		if err != nil || seen[m.String()] || CheckMaterial(v, m) != nil {
			return
		}
		seen[m.String()] = true
		cands = append(cands, candidate{m, captures})
	}
	if v.TypeByLetter('K') != 0 && v.TypeByLetter('B') != 0 && v.TypeByLetter('N') != 0 {
		add("BN", "", -1) // the mission's ending comes first
	}
	// Up to MaxPieces to build, and up to the generator's limit to read
	// where a file exists.
	for _, white := range subsets(pieces[engine.White], MaxPieces-2) {
		for _, black := range subsets(pieces[engine.Black], MaxPieces-2-len(white)) {
			n := 2 + len(white) + len(black)
			if n < 3 || total-n > maxCaptures {
				continue
			}
			if m, err := (Material{Strong: "K" + white, Weak: "K" + black}).normalised(v); n <= b.MaxPieces || (err == nil && b.hasFile(v, m)) {
				add(white, black, total-n)
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].captures < cands[j].captures })
	out := make([]Material, len(cands))
	for i, c := range cands {
		out[i] = c.m
	}
	return out
}

// subsets returns the distinct sub-multisets of letters with at most n
// letters, each in sorted order.
func subsets(letters []byte, n int) []string {
	sorted := append([]byte(nil), letters...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	var out []string
	var walk func(from int, prefix string)
	walk = func(from int, prefix string) {
		out = append(out, prefix)
		if len(prefix) == n {
			return
		}
		for i := from; i < len(sorted); i++ {
			if i > from && sorted[i] == sorted[i-1] {
				continue // the same letter again would repeat a subset
			}
			walk(i+1, prefix+string(sorted[i]))
		}
	}
	walk(0, "")
	return out
}

// Plan returns, as names, the tables Prepare would plan for p (the
// variant's start position when p is nil), best first.
func (b *Builder) Plan(v *engine.Variant, p *engine.Position) []string {
	var names []string
	for _, m := range b.plan(v, p) {
		names = append(names, m.String())
	}
	return names
}

// tableKey names a table in the builder's books: variant/material, the
// material normalised.
func tableKey(v *engine.Variant, m Material) string { return v.Name + "/" + m.String() }
