package explorer

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// Build is a table generation the server has been asked for.
type Build struct {
	Variant  string  `json:"variant"`
	Table    string  `json:"table"`
	State    string  `json:"state"`    // one of the build states below
	Progress float64 `json:"progress"` // 0 to 1
	Queued   bool    `json:"queued"`   // waiting for a free worker
	Error    string  `json:"error,omitempty"`
}

// The states of a build. The last four are refusals: failed and
// over-budget ones are remembered, the others may be asked for again.
const (
	buildQueued      = "queued"
	buildRunning     = "running"
	buildDone        = "done"
	buildFailed      = "failed"
	buildOverBudget  = "over budget"  // memory or disk
	buildQueueFull   = "queue full"   // try again later
	buildRateLimited = "rate limited" // this client asked for too much at once
)

// builds generates missing tables in the background, on the server's
// work queue and each once: a request never waits for one. Failures are
// remembered (with their reason) so a table the generator refuses is not
// retried at every request.
type builds struct {
	store  *tablebase.Store
	ctx    context.Context // done when the server shuts down
	work   *workQueue
	memory int64 // most bytes one generation may take
	disk   int64 // most bytes of table files in the store (0: no bound)

	mu      sync.Mutex
	pending map[string]*Build // by variant/material, queued or running
	failed  map[string]*Build
	started int // generations begun, for tests
}

func newBuilds(ctx context.Context, store *tablebase.Store, work *workQueue, memory, disk int64) *builds {
	return &builds{store: store, ctx: ctx, work: work, memory: memory, disk: disk,
		pending: map[string]*Build{}, failed: map[string]*Build{}}
}

// buildKey names a table across variants.
func buildKey(v *engine.Variant, m tablebase.Material) string { return v.Name + "/" + m.String() }

// want asks for m's table and returns the build's state: under way,
// queued, done, or refused (failed, over budget, queue full, rate
// limited). admit is asked before new work is queued: false refuses it as
// rate limited.
func (b *builds) want(v *engine.Variant, m tablebase.Material, admit func() bool) *Build {
	key := buildKey(v, m)
	st := &Build{Variant: v.Name, Table: m.String()}
	b.mu.Lock()
	defer b.mu.Unlock()
	if old, ok := b.pending[key]; ok {
		return old.snapshot()
	}
	if old, ok := b.failed[key]; ok {
		return old.snapshot()
	}
	if _, err := b.store.FindMaterial(v, m, tablebase.MemoryOnly); err == nil {
		// Built since the caller looked: a build ends (is no longer
		// pending) only after its table is in memory, so this check
		// under the lock cannot miss one and start it again.
		st.State, st.Progress = buildDone, 1
		return st
	}
	if b.ctx.Err() != nil {
		return st.refuse(buildQueueFull, "the server is shutting down")
	}
	cost, err := b.cost(v, m)
	switch {
	case err != nil:
		b.failed[key] = st.refuse(buildFailed, fmt.Sprintf("cannot generate %s: %v", st.Table, err))
		return st.snapshot()
	case cost.Memory > b.memory:
		// Refused at once: a 16×16 board's four-piece table would take
		// tens of gigabytes.
		b.failed[key] = st.refuse(buildOverBudget, fmt.Sprintf("%s of %s would need about %d MiB to generate, over this server's cap of %d MiB",
			st.Table, v.Name, cost.Memory>>20, b.memory>>20))
		return st.snapshot()
	case b.disk > 0 && b.store.DiskUse()+cost.File > b.disk:
		return st.refuse(buildOverBudget, fmt.Sprintf("%s of %s would take %d MiB of disk, over what this server may still use (%d MiB of %d MiB used)",
			st.Table, v.Name, cost.File>>20, b.store.DiskUse()>>20, b.disk>>20))
	case admit != nil && !admit():
		return st.refuse(buildRateLimited, "too many tables asked for at once from this address: try again shortly")
	}
	st.State, st.Queued = buildQueued, true
	if !b.work.submit(int64(cost.Entries), func() { b.run(v, m, key, st) }) {
		waiting, _ := b.work.load()
		return st.refuse(buildQueueFull, fmt.Sprintf("the server's work queue is full (%d jobs waiting): try again in a minute", waiting))
	}
	b.pending[key] = st
	return st.snapshot()
}

// cost is what generating m's table takes with the smaller tables it
// still needs: their entries added up (the queue's order), the largest
// working memory, the files' bytes.
func (b *builds) cost(v *engine.Variant, m tablebase.Material) (tablebase.Cost, error) {
	own, err := b.store.GenerationCost(v, m)
	if err != nil {
		return own, err
	}
	total := own
	if need, err := b.store.ToBuild(v, m); err == nil {
		total = tablebase.Cost{}
		for _, n := range need {
			c, err := b.store.GenerationCost(v, n)
			if err != nil {
				return c, err
			}
			total.Entries += c.Entries
			total.File += c.File
			total.Memory = max(total.Memory, c.Memory)
		}
	}
	return total, nil
}

// refuse marks a build refused in state for the reason and returns it.
func (st *Build) refuse(state, reason string) *Build {
	st.State, st.Error, st.Queued = state, reason, false
	return st
}

// snapshot copies a build's state (under the builds' lock) for a caller
// that reads it after the lock is released.
func (st *Build) snapshot() *Build {
	c := *st
	return &c
}

// run generates one table (on a worker of the queue).
func (b *builds) run(v *engine.Variant, m tablebase.Material, key string, st *Build) {
	b.mu.Lock()
	st.State, st.Queued = buildRunning, false
	b.started++
	b.mu.Unlock()
	_, err := b.store.Build(v, m, tablebase.Hooks{
		Progress: func(frac float64) {
			b.mu.Lock()
			st.Progress = frac
			b.mu.Unlock()
		},
		Pause: func() bool { return b.ctx.Err() == nil },
	})
	b.finish(key, err)
}

// finish files a build as done (or failed: err not nil).
func (b *builds) finish(key string, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := b.pending[key]
	delete(b.pending, key)
	if err != nil && b.ctx.Err() == nil {
		b.failed[key] = st.refuse(buildFailed, fmt.Sprintf("cannot generate %s: %v", st.Table, err))
	}
}

// list returns the builds under way or queued, and failures, by name.
func (b *builds) list() []Build {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := []Build{}
	for _, m := range []map[string]*Build{b.pending, b.failed} {
		for _, st := range m {
			out = append(out, *st)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Variant+"/"+out[i].Table < out[j].Variant+"/"+out[j].Table
	})
	return out
}
