package tbplan

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
)

// Failure is a table a local run could not build, and why.
type Failure struct {
	Material tablebase.Material
	Err      error
}

// RunLocal builds the plan's missing tables on this machine, level by
// level, up to jobs generations at once (each uses every core: more than
// one pays only where the cores outnumber what one generation keeps
// busy) and, when memory is positive, no more at once than their
// estimated memory with its margin (reserve) fits in it (a generation
// larger than memory alone).
// A table that fails is reported and the others go on; the tables that
// need it then fail too (their generation would have to build it). done
// is told each table as it ends, and how long its generation took.
func RunLocal(ctx context.Context, store *tablebase.Store, v *engine.Variant, plan []tablebase.PlanEntry, jobs int, memory int64,
	done func(m tablebase.Material, took time.Duration, err error)) []Failure {
	var mu sync.Mutex
	var failures []Failure
	failed := map[tablebase.Material]bool{}
	cost := map[tablebase.Material]int64{}
	for _, e := range plan {
		cost[e.Material] = e.Cost.Memory
	}
	for _, level := range Levels(plan) {
		slots := make(chan struct{}, max(jobs, 1))
		room := newBudget(memory)
		var wg sync.WaitGroup
		for _, name := range level.Materials {
			if ctx.Err() != nil {
				break // interrupted: no more generations start
			}
			m, err := tablebase.ParseMaterial(v, name)
			if err != nil {
				mu.Lock()
				failures = append(failures, Failure{m, err})
				mu.Unlock()
				continue
			}
			mu.Lock()
			blocked := needsFailed(plan, m, failed)
			if blocked != "" {
				err := fmt.Errorf("needs %s, which failed", blocked)
				failures = append(failures, Failure{m, err})
				failed[m] = true
			}
			mu.Unlock()
			if blocked != "" {
				done(m, 0, fmt.Errorf("needs %s, which failed", blocked))
				continue
			}
			slots <- struct{}{}
			need := room.take(reserve(cost[m]))
			if ctx.Err() != nil {
				room.give(need)
				<-slots
				break
			}
			wg.Go(func() {
				defer func() { room.give(need); <-slots }()
				start := time.Now()
				_, err := store.Build(v, m, tablebase.Hooks{Pause: func() bool { return ctx.Err() == nil }})
				if ctx.Err() != nil && errors.Is(err, tablebase.ErrAbandoned) {
					return // stopped by the interrupt, not failed: the next run builds it
				}
				mu.Lock()
				if err != nil {
					failures = append(failures, Failure{m, err})
					failed[m] = true
				}
				mu.Unlock()
				done(m, time.Since(start), err)
			})
		}
		wg.Wait()
		if ctx.Err() != nil {
			break
		}
	}
	return failures
}

// needsFailed returns a table m needs that failed, or "".
func needsFailed(plan []tablebase.PlanEntry, m tablebase.Material, failed map[tablebase.Material]bool) string {
	for _, e := range plan {
		if e.Material != m {
			continue
		}
		for _, n := range e.Needs {
			if failed[n] {
				return n.String()
			}
		}
	}
	return ""
}

// reserve is the memory a generation of estimated working memory
// estimate is given room for: half again (the runtime, the smaller tables
// it reads whole, which the estimate leaves out) and 256 MiB more. With
// the estimates alone two pawn generations of chess's five-piece set
// (9.9 GiB each) were run at once on a 24 GiB machine and reached 24 GB
// together: the kernel killed the plan.
func reserve(estimate int64) int64 { return estimate*3/2 + 256<<20 }

// budget is memory handed out to generations: take waits until a
// generation's estimate fits beside the ones running (one larger than the
// whole runs alone).
type budget struct {
	mu    sync.Mutex
	freed *sync.Cond
	total int64 // 0: unbounded
	used  int64
}

func newBudget(total int64) *budget {
	b := &budget{total: total}
	b.freed = sync.NewCond(&b.mu)
	return b
}

// take waits for room for need bytes and returns what it took.
func (b *budget) take(need int64) int64 {
	if b.total <= 0 {
		return 0
	}
	need = min(need, b.total)
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used+need > b.total {
		b.freed.Wait()
	}
	b.used += need
	return need
}

// give returns what take took.
func (b *budget) give(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.freed.Broadcast()
}
