package explorer

import (
	"math"
	"net"
	"net/http"
	"sync"
	"time"
)

// clientLimits bounds the expensive requests of each client (by address):
// the ones that start a generation or a count. Each client has a bucket of
// burst tokens that refills at one per interval; a request that would
// start work with the bucket empty is answered 429 with Retry-After.
type clientLimits struct {
	burst    float64
	interval time.Duration
	now      func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// maxClients bounds the buckets kept: past it, the full ones (clients
// idle long enough to be back at burst) are forgotten.
const maxClients = 10000

func newClientLimits(burst int, interval time.Duration) *clientLimits {
	return &clientLimits{burst: float64(max(burst, 1)), interval: interval, now: time.Now, buckets: map[string]*bucket{}}
}

// take spends one of client's tokens; when none is left it returns how
// long until one is.
func (l *clientLimits) take(client string) (ok bool, retryAfter time.Duration) {
	if l == nil || l.interval <= 0 {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[client]
	if b == nil {
		if len(l.buckets) >= maxClients {
			l.forgetIdle(now)
		}
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[client] = b
	}
	b.tokens = math.Min(l.burst, b.tokens+float64(now.Sub(b.at))/float64(l.interval))
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) * float64(l.interval))
}

// forgetIdle drops the buckets that have refilled. Under mu.
func (l *clientLimits) forgetIdle(now time.Time) {
	for k, b := range l.buckets {
		if b.tokens+float64(now.Sub(b.at))/float64(l.interval) >= l.burst {
			delete(l.buckets, k)
		}
	}
}

// clientOf names a request's client: its address without the port.
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
