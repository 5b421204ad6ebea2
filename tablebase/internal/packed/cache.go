package packed

import (
	"container/list"
	"sync"
)

// DefaultCacheBytes bounds a cache's decoded blocks unless told
// otherwise: 64 MiB, about 500 blocks of a table with distances to
// zeroing.
const DefaultCacheBytes = 64 << 20

// Cache keeps recently used decoded blocks of any number of readers,
// within a bound on their bytes: the least recently used go first. It is
// safe for concurrent use, and shares one decoder among its readers.
type Cache struct {
	limit int64

	mu     sync.Mutex
	used   int64
	lru    *list.List // of *entry, most recent first
	byKey  map[key]*list.Element
	nextID uint64

	decOnce sync.Once
	dec     *decoder
	decErr  error
	// warming holds the blocks being decoded in the background (see
	// Reader.Cached), at most maxWarming at once.
	warming map[key]bool
}

// maxWarming bounds the blocks decoded in the background at once: one
// core's worth, beside a search.
const maxWarming = 1

// key names a block: its reader and its number (side·blocks + block).
type key struct {
	reader uint64
	block  uint32
}

type entry struct {
	k   key
	blk *Block
}

// NewCache returns a cache of at most limit bytes of decoded blocks
// (DefaultCacheBytes when limit is not positive). One block is always
// kept, even alone over the limit.
func NewCache(limit int64) *Cache {
	if limit <= 0 {
		limit = DefaultCacheBytes
	}
	return &Cache{limit: limit, lru: list.New(), byKey: map[key]*list.Element{}, warming: map[key]bool{}}
}

// Limit returns the cache's bound in bytes.
func (c *Cache) Limit() int64 { return c.limit }

// Used returns the bytes of the blocks the cache holds.
func (c *Cache) Used() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

func (c *Cache) decoder() (*decoder, error) {
	c.decOnce.Do(func() { c.dec, c.decErr = newDecoder() })
	return c.dec, c.decErr
}

func (c *Cache) newID() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	return c.nextID
}

// get returns the cache's entry of a block, nil when it holds none.
func (c *Cache) get(k key) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.byKey[k]
	if e == nil {
		return nil
	}
	c.lru.MoveToFront(e)
	return e.Value.(*entry)
}

// put adds a block (another goroutine may have added it first: then the
// first stays) and drops the least recently used ones over the limit; it
// returns the entry kept.
func (c *Cache) put(k key, blk *Block) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[k]; ok {
		return e.Value.(*entry)
	}
	kept := &entry{k: k, blk: blk}
	c.byKey[k] = c.lru.PushFront(kept)
	c.used += blk.Bytes()
	for c.used > c.limit && c.lru.Len() > 1 {
		old := c.lru.Remove(c.lru.Back()).(*entry)
		delete(c.byKey, old.k)
		c.used -= old.blk.Bytes()
	}
	return kept
}

// startWarming reports whether a background decode of block k may start
// now (it is not held, not being decoded, and the bound allows one more),
// and then counts it as warming until doneWarming.
func (c *Cache) startWarming(k key) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey[k] != nil || c.warming[k] || len(c.warming) >= maxWarming {
		return false
	}
	c.warming[k] = true
	return true
}

func (c *Cache) doneWarming(k key) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.warming, k)
}
