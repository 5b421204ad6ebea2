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
	Progress float64 `json:"progress"` // 0 to 1
	Queued   bool    `json:"queued"`   // waiting for a free generation slot
	Error    string  `json:"error,omitempty"`
}

// builds generates missing tables in the background, at most max at once
// and each once: a request never waits for one. Failures are remembered
// (with their reason) so a table the generator refuses is not retried at
// every request.
type builds struct {
	store  *tablebase.Store
	ctx    context.Context // done when the server shuts down
	slots  chan struct{}   // one token per generation under way
	queue  int             // most builds waiting for a slot
	memory int64           // most bytes one generation may take

	mu      sync.Mutex
	pending map[string]*Build // by variant/material, queued or running
	failed  map[string]*Build
	started int // generations begun, for tests
	wg      sync.WaitGroup
}

func newBuilds(ctx context.Context, store *tablebase.Store, concurrent, queue int, memory int64) *builds {
	return &builds{store: store, ctx: ctx, slots: make(chan struct{}, max(concurrent, 1)), queue: queue, memory: memory,
		pending: map[string]*Build{}, failed: map[string]*Build{}}
}

// buildKey names a table across variants.
func buildKey(v *engine.Variant, m tablebase.Material) string { return v.Name + "/" + m.String() }

// want asks for m's table and returns the build's state: under way,
// queued, failed, or nil when the queue is full.
func (b *builds) want(v *engine.Variant, m tablebase.Material) *Build {
	key := buildKey(v, m)
	b.mu.Lock()
	defer b.mu.Unlock()
	if st, ok := b.pending[key]; ok {
		return st.snapshot()
	}
	if st, ok := b.failed[key]; ok {
		return st.snapshot()
	}
	if _, err := b.store.FindMaterial(v, m, tablebase.MemoryOnly); err == nil {
		// Built since the caller looked: a build ends (is no longer
		// pending) only after its table is in memory, so this check
		// under the lock cannot miss one and start it again.
		return &Build{Variant: v.Name, Table: m.String(), Progress: 1}
	}
	if len(b.pending) >= b.queue || b.ctx.Err() != nil {
		return nil
	}
	st := &Build{Variant: v.Name, Table: m.String(), Queued: true}
	if cost, err := tablebase.GenerationCost(v, m); err != nil || cost.Memory > b.memory {
		// Refused at once: a 16×16 board's four-piece table would take
		// tens of gigabytes.
		st.Queued = false
		if err != nil {
			st.Error = fmt.Sprintf("cannot generate %s: %v", st.Table, err)
		} else {
			st.Error = fmt.Sprintf("%s of %s would need about %d MiB to generate, over this server's cap of %d MiB",
				st.Table, v.Name, cost.Memory>>20, b.memory>>20)
		}
		b.failed[key] = st
		return st.snapshot()
	}
	b.pending[key] = st
	b.wg.Go(func() { b.run(v, m, key, st) })
	return st.snapshot()
}

// snapshot copies a build's state (under the builds' lock) for a caller
// that reads it after the lock is released.
func (st *Build) snapshot() *Build {
	c := *st
	return &c
}

// run generates one table when a slot is free.
func (b *builds) run(v *engine.Variant, m tablebase.Material, key string, st *Build) {
	select {
	case b.slots <- struct{}{}:
	case <-b.ctx.Done():
		b.finish(key, nil)
		return
	}
	defer func() { <-b.slots }()
	b.mu.Lock()
	st.Queued = false
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
		st.Error = fmt.Sprintf("cannot generate %s: %v", st.Table, err)
		st.Queued = false
		b.failed[key] = st
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

// wait returns when every build has ended (after the server's context is
// done, promptly: generations check it every few milliseconds).
func (b *builds) wait() { b.wg.Wait() }
