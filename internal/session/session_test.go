package session_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/internal/session"
	"github.com/chimera-chess/chimera/search"
)

// blockingSearcher searches until it is cancelled, then answers with the
// first legal move; it counts what it was asked.
type blockingSearcher struct {
	mu       sync.Mutex
	searches int
	clears   int
	hash     int
	// evaluation is what the session last set as the evaluation.
	evaluation func(*engine.Variant) eval.Evaluator
}

func (b *blockingSearcher) Search(ctx context.Context, pos *engine.Position, l search.Limits, _ func(search.Info)) search.Result {
	b.mu.Lock()
	b.searches++
	b.mu.Unlock()
	if l.Depth == 0 {
		<-ctx.Done()
	}
	return search.Result{Best: pos.LegalMoves(nil)[0]}
}
func (b *blockingSearcher) Clear()                              { b.mu.Lock(); b.clears++; b.mu.Unlock() }
func (b *blockingSearcher) SetHash(mb int)                      { b.mu.Lock(); b.hash = mb; b.mu.Unlock() }
func (b *blockingSearcher) SetMoveOverhead(time.Duration)       {}
func (b *blockingSearcher) SetProber(search.Prober)             {}
func (b *blockingSearcher) SetResultProber(search.ResultProber) {}
func (b *blockingSearcher) SetEvaluation(f func(*engine.Variant) eval.Evaluator) {
	b.mu.Lock()
	b.evaluation = f
	b.mu.Unlock()
}
func (b *blockingSearcher) SetThreads(int) {}

// harness drives a session through Serve with a tiny command language, so
// every call happens on the serving goroutine, as a protocol's would.
type harness struct {
	t       *testing.T
	in      *io.PipeWriter
	results chan search.Result
	errs    chan error
	sess    *session.Session
}

func newHarness(t *testing.T, searcher session.Searcher) *harness {
	h := &harness{t: t, results: make(chan search.Result, 10), errs: make(chan error, 10)}
	h.sess = session.New(session.Config{Searcher: searcher, TablebaseDir: t.TempDir(),
		OnResult: func(r search.Result) { h.results <- r }})
	r, w := io.Pipe()
	h.in = w
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.sess.Serve(r, func(line string) bool {
			var err error
			switch line {
			case "position":
				h.sess.SetPosition(h.sess.Variant().StartPosition())
			case "go depth":
				err = h.sess.Go(search.Limits{Depth: 1}, false)
			case "go infinite":
				err = h.sess.Go(search.Limits{Infinite: true}, false)
			case "go ponder":
				err = h.sess.Go(search.Limits{WTime: time.Second, BTime: time.Second}, true)
			case "stop":
				h.sess.Stop()
			case "ponderhit":
				h.sess.PonderHit()
			case "hash 32":
				err = h.sess.SetOption("Hash", "32")
			case "quit":
				return false
			}
			h.errs <- err
			return true
		}, func(err error) { h.errs <- err }, func(string) bool { return false })
	}()
	t.Cleanup(func() {
		w.Close()
		<-done
	})
	return h
}

// do runs one command and returns its error.
func (h *harness) do(cmd string) error {
	_, err := io.WriteString(h.in, cmd+"\n")
	require.NoError(h.t, err)
	return <-h.errs
}

// result waits for the next result (the deadline only guards a hang).
func (h *harness) result() search.Result {
	select {
	case r := <-h.results:
		return r
	case <-time.After(10 * time.Second):
		h.t.Fatal("no result")
	}
	return search.Result{}
}

// none asserts that no result has been given by the time a command that
// goes through the same loop has run.
func (h *harness) none() {
	require.NoError(h.t, h.do("noop"))
	select {
	case r := <-h.results:
		h.t.Fatalf("unexpected result %v", r)
	default:
	}
}

func TestLifecycle(t *testing.T) {
	h := newHarness(t, &blockingSearcher{})
	// Before any position: the start position.
	require.NoError(t, h.do("go depth"))
	require.Equal(t, "a2a3", h.sess.Variant().UCI(h.result().Best))
	require.NoError(t, h.do("position"))

	// A limited search answers by itself, exactly once.
	require.NoError(t, h.do("go depth"))
	require.NotEqual(t, engine.NoMove, h.result().Best)
	h.none()
	require.False(t, h.sess.Busy())

	// An infinite search waits for stop; an option meanwhile is refused,
	// and a second go stops it (it would never end) and runs after it.
	require.NoError(t, h.do("go infinite"))
	require.True(t, errors.Is(h.sess.SetOption("Hash", "8"), session.ErrBusy))
	h.none()
	require.NoError(t, h.do("go depth"))
	h.result()
	h.result()
	h.none()
	require.NoError(t, h.do("go infinite"))
	require.NoError(t, h.do("stop"))
	h.result()
	h.none()

	// A ponder search also waits; ponderhit makes it a normal one on the
	// go command's clock, which then ends it.
	require.NoError(t, h.do("go ponder"))
	h.none()
	require.NoError(t, h.do("ponderhit"))
	h.result()
	h.none()

	// Stop when idle, and ponderhit without pondering, do nothing.
	require.NoError(t, h.do("stop"))
	require.NoError(t, h.do("ponderhit"))
	h.none()
}

// gatedSearcher searches until released (or cancelled) and answers with
// the legal move numbered by its search count, so answers show their order.
type gatedSearcher struct {
	release chan struct{}
	mu      sync.Mutex
	n       int
	hash    int
	seen    []int // the hash size each search started with
}

func (g *gatedSearcher) Search(ctx context.Context, pos *engine.Position, _ search.Limits, _ func(search.Info)) search.Result {
	g.mu.Lock()
	n := g.n
	g.n++
	g.seen = append(g.seen, g.hash)
	g.mu.Unlock()
	select {
	case <-g.release:
	case <-ctx.Done():
	}
	return search.Result{Best: pos.LegalMoves(nil)[n]}
}
func (g *gatedSearcher) Clear()                                             {}
func (g *gatedSearcher) SetHash(mb int)                                     { g.mu.Lock(); g.hash = mb; g.mu.Unlock() }
func (g *gatedSearcher) SetThreads(int)                                     {}
func (g *gatedSearcher) SetMoveOverhead(time.Duration)                      {}
func (g *gatedSearcher) SetProber(search.Prober)                            {}
func (g *gatedSearcher) SetResultProber(search.ResultProber)                {}
func (g *gatedSearcher) SetEvaluation(func(*engine.Variant) eval.Evaluator) {}

// TestGoWhileSearchingIsQueued: commands piped without waiting for
// bestmove run in order, each go answered exactly once, and an option set
// between them applies to the next search, after the running one.
func TestGoWhileSearchingIsQueued(t *testing.T) {
	g := &gatedSearcher{release: make(chan struct{})}
	h := newHarness(t, g)
	_, err := io.WriteString(h.in, "go depth\ngo depth\nhash 32\ngo depth\n")
	require.NoError(t, err)
	require.NoError(t, <-h.errs) // the first go started; the second waits
	for want := 0; want < 3; want++ {
		g.release <- struct{}{}
		require.Equal(t, h.sess.Variant().StartPosition().LegalMoves(nil)[want], h.result().Best)
	}
	for range 3 {
		require.NoError(t, <-h.errs)
	}
	g.mu.Lock()
	require.Equal(t, []int{16, 16, 32}, g.seen, "the option came between the second and third go")
	g.mu.Unlock()
}

// TestQuitAnswersTheRunningSearch: the end of input stops a search and
// gives its result, so no go is left unanswered.
func TestQuitAnswersTheRunningSearch(t *testing.T) {
	h := newHarness(t, &blockingSearcher{})
	require.NoError(t, h.do("position"))
	require.NoError(t, h.do("go infinite"))
	_, err := io.WriteString(h.in, "quit\n")
	require.NoError(t, err)
	h.result()
}

func TestOptionTable(t *testing.T) {
	b := &blockingSearcher{}
	s := session.New(session.Config{Searcher: b, TablebaseDir: "/tmp/tables"})
	names := map[string]session.Option{}
	for _, o := range s.Options() {
		names[o.Name] = o
	}
	require.Len(t, names, 29)
	require.Equal(t, session.Option{Name: "TablebaseFiftyMove", Kind: session.Check, Default: "true"}, names["TablebaseFiftyMove"])
	require.Equal(t, session.Option{Name: "UCI_ShowWDL", Kind: session.Check, Default: "false"}, names["UCI_ShowWDL"])
	require.Equal(t, session.Option{Name: "TablebaseCache", Kind: session.Spin, Default: "64", Min: 1, Max: 65536}, names["TablebaseCache"])
	hash := names["Hash"]
	require.Equal(t, session.Option{Name: "Hash", Kind: session.Spin, Default: "16", Min: 1, Max: hash.Max}, hash)
	require.True(t, hash.Max >= 16 && hash.Max <= 65536, "a maximum the machine can hold: %d", hash.Max)
	require.Equal(t, "/tmp/tables", names["TablebaseDir"].Default)
	require.Contains(t, names["UCI_Variant"].Choices, "capablanca")
	require.Equal(t, 16, b.hash, "defaults are applied at the start")
	require.Equal(t, "chess", s.Variant().Name)

	require.NoError(t, s.SetOption("hash", "64"), "names match without regard to case")
	require.Equal(t, 64, b.hash)
	require.NoError(t, s.SetOption("Ponder", "TRUE"))
	require.True(t, s.Ponder())
	clears := b.clears
	require.NoError(t, s.SetOption("Clear Hash", ""))
	require.Equal(t, clears+1, b.clears)

	s.SetPosition(s.Variant().StartPosition())
	require.NoError(t, s.SetOption("UCI_Variant", "capablanca"))
	require.Equal(t, "capablanca", s.Variant().Name)
	require.Nil(t, s.Position(), "a new variant has no position yet")

	// UCI_Chess960 plays the Chess960 form of UCI_Variant's variant, in
	// either order of setting them.
	require.NoError(t, s.SetOption("UCI_Chess960", "true"))
	require.Equal(t, "capablanca960", s.Variant().Name)
	require.True(t, s.Variant().Chess960)
	require.NoError(t, s.SetOption("UCI_Variant", "chess"))
	require.Equal(t, "chess960", s.Variant().Name)
	require.NoError(t, s.SetOption("UCI_Chess960", "false"))
	require.Equal(t, "chess", s.Variant().Name)
	require.False(t, s.Variant().Chess960)

	for name, want := range map[string]string{
		"Hash=0":                 `option Hash: "0" is not a number from 1 to `,
		"Hash=1000000":           `option Hash: "1000000" is not a number from 1 to `,
		"Threads=many":           `option Threads: "many" is not a number`,
		"Ponder=maybe":           `option Ponder: "maybe" is not true or false`,
		"UCI_Variant=nosuch":     `option UCI_Variant: `,
		"VariantPath=/nonexist":  "option VariantPath",
		"Bogus=1":                `unknown option "Bogus"`,
		"TablebaseBuild=6":       "is not a number from 0 to 5",
		"TablebaseCache=0":       "is not a number from 1 to 65536",
		"Move Overhead=-1":       "from 0 to 5000",
		"MultiPV=257":            "from 1 to 256",
		"UseTablebase=yes":       "not true or false",
		"UCI_Variant=capablanca": "",
	} {
		name, value, _ := strings.Cut(name, "=")
		err := s.SetOption(name, value)
		if want == "" {
			require.NoError(t, err)
			continue
		}
		require.ErrorContains(t, err, want)
	}
	require.Equal(t, 64, b.hash, "a bad value changes nothing")
}

// TestTablebaseDirIsChecked: a TablebaseDir that is no directory is refused
// with the reason and the tables before are kept; a read-only one is read,
// and the engine says it builds nothing there.
func TestTablebaseDirIsChecked(t *testing.T) {
	var messages []string
	dir := t.TempDir()
	s := session.New(session.Config{Searcher: &blockingSearcher{}, TablebaseDir: dir,
		OnMessage: func(m string) { messages = append(messages, m) }})
	defer s.Close()
	file := filepath.Join(t.TempDir(), "hostname")
	require.NoError(t, os.WriteFile(file, []byte("box\n"), 0o644))
	require.ErrorContains(t, s.SetOption("TablebaseDir", file), "table directory "+file+" is not a directory")
	require.ErrorContains(t, s.SetOption("TablebaseDir", filepath.Join(file, "sub")), "hostname/sub: not a directory")
	fresh := filepath.Join(t.TempDir(), "new", "tables")
	require.NoError(t, s.SetOption("TablebaseDir", fresh))
	require.DirExists(t, fresh, "a missing directory is created")
	if os.Geteuid() != 0 { // root writes anywhere
		readOnly := t.TempDir()
		require.NoError(t, os.Chmod(readOnly, 0o555))
		require.NoError(t, s.SetOption("TablebaseDir", readOnly))
		require.Contains(t, strings.Join(messages, "\n"), "its tables are read, none is built")
	}
}
