package tbplan

import (
	"context"
	"fmt"
	"sync"

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
// busy, or memory is the bound). A table that fails is reported and the
// others go on; the tables that need it then fail too (their generation
// would have to build it). done is told each table as it ends.
func RunLocal(ctx context.Context, store *tablebase.Store, v *engine.Variant, plan []tablebase.PlanEntry, jobs int,
	done func(m tablebase.Material, err error)) []Failure {
	var mu sync.Mutex
	var failures []Failure
	failed := map[tablebase.Material]bool{}
	for _, level := range Levels(plan) {
		slots := make(chan struct{}, max(jobs, 1))
		var wg sync.WaitGroup
		for _, name := range level.Materials {
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
				done(m, fmt.Errorf("needs %s, which failed", blocked))
				continue
			}
			slots <- struct{}{}
			wg.Go(func() {
				defer func() { <-slots }()
				_, err := store.Build(v, m, tablebase.Hooks{Pause: func() bool { return ctx.Err() == nil }})
				mu.Lock()
				if err != nil {
					failures = append(failures, Failure{m, err})
					failed[m] = true
				}
				mu.Unlock()
				done(m, err)
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
