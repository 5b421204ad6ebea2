package explorer

import (
	"container/heap"
	"context"
	"sync"
)

// workQueue runs the server's expensive jobs, table generations and
// statistics counts, on a fixed number of workers, the cheapest waiting
// job first: a one-second table is not starved behind big-board builds
// (first come, first served made chess KRRvK wait 177 s). Its capacity
// bounds the jobs waiting; a job refused is the caller's to report.
type workQueue struct {
	ctx      context.Context // done when the server shuts down: waiting jobs are dropped
	workers  int
	capacity int

	mu      sync.Mutex
	waiting jobHeap
	running int // workers busy
	seq     uint64
	wg      sync.WaitGroup
}

// job is one piece of work: its estimated cost (positions to walk) and
// its place in line among equal costs.
type job struct {
	cost int64
	seq  uint64
	run  func()
}

func newWorkQueue(ctx context.Context, workers, capacity int) *workQueue {
	return &workQueue{ctx: ctx, workers: max(workers, 1), capacity: max(capacity, 1)}
}

// submit queues run at its cost and reports whether it was taken: not when
// the queue is full or the server shutting down.
func (q *workQueue) submit(cost int64, run func()) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ctx.Err() != nil || len(q.waiting) >= q.capacity {
		return false
	}
	q.seq++
	heap.Push(&q.waiting, &job{cost: cost, seq: q.seq, run: run})
	if q.running < q.workers {
		q.running++
		q.wg.Go(q.work)
	}
	return true
}

// work runs the cheapest waiting job until none waits.
func (q *workQueue) work() {
	for {
		q.mu.Lock()
		if len(q.waiting) == 0 || q.ctx.Err() != nil {
			q.running--
			q.mu.Unlock()
			return
		}
		j := heap.Pop(&q.waiting).(*job)
		q.mu.Unlock()
		j.run()
	}
}

// load returns the jobs waiting and running.
func (q *workQueue) load() (waiting, running int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waiting), q.running
}

// wait returns when every worker has stopped (after the server's context
// is done: jobs check it every few milliseconds).
func (q *workQueue) wait() { q.wg.Wait() }

// jobHeap orders jobs by cost, then by arrival.
type jobHeap []*job

func (h jobHeap) Len() int { return len(h) }
func (h jobHeap) Less(i, j int) bool {
	if h[i].cost != h[j].cost {
		return h[i].cost < h[j].cost
	}
	return h[i].seq < h[j].seq
}
func (h jobHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *jobHeap) Push(x any)   { *h = append(*h, x.(*job)) }
func (h *jobHeap) Pop() any {
	old := *h
	j := old[len(old)-1]
	*h = old[:len(old)-1]
	return j
}
