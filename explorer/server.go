// Package explorer serves the tablebases over HTTP: an API in the shape
// of lichess's tablebase API, so existing clients work, and the web page
// of the KBNK article (set up any position, see its value and every
// move's, practise the win against perfect defence), for every variant
// the generator can build tables for.
package explorer

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
)

//go:embed web
var webFiles embed.FS

// Config says what a Server serves.
type Config struct {
	Catalogue *variants.Catalogue
	Store     *tablebase.Store
	// BuildPieces bounds the tables generated on request (kings
	// included; default 4). Larger tables are served if their files
	// exist.
	BuildPieces int
	// Builds is how many generations may run at once (default 1: each
	// uses every core); Queue how many more may wait (default 16).
	Builds, Queue int
	// BuildMemory bounds the estimated memory of one generation, in
	// bytes (default 1 GiB): a table beyond it is refused, not tried.
	BuildMemory int64
	// DiskBudget bounds the bytes of table files in the store: a build
	// that would pass it is refused as over budget (0: no bound).
	DiskBudget int64
	// ReadOnly serves the tables there are and never builds or writes
	// (replicas sharing one directory).
	ReadOnly bool
	// ClientBurst is how many generations and counts one client may start
	// at once, and ClientInterval how fast that allowance comes back (one
	// per interval); past it the client is answered 429 (defaults 8 and
	// 5 s; a negative interval: no limit).
	ClientBurst    int
	ClientInterval time.Duration
	// ClientHeader, when set, names the header a trusted proxy in front
	// puts the client's address in (X-Forwarded-For): behind a load
	// balancer every request comes from its address.
	ClientHeader string
	// Log receives a line per failed request and generation (default:
	// the standard logger).
	Log func(string)
}

// Server is the explorer: an http.Handler. Close it to stop the
// generations under way.
type Server struct {
	cfg    Config
	work   *workQueue
	builds *builds
	stats  *statsCache
	limits *clientLimits
	mux    *http.ServeMux
	cancel context.CancelFunc
}

// maxQuery bounds a request's query string: a FEN of a 16×16 board is
// under 300 bytes.
const maxQuery = 1024

// New returns a server over the configuration's catalogue and store.
func New(cfg Config) *Server {
	if cfg.BuildPieces <= 0 {
		cfg.BuildPieces = 4
	}
	if cfg.Builds <= 0 {
		cfg.Builds = 1
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 16
	}
	if cfg.BuildMemory <= 0 {
		cfg.BuildMemory = 1 << 30
	}
	if cfg.Log == nil {
		cfg.Log = func(s string) { log.Print(s) }
	}
	if cfg.ClientBurst <= 0 {
		cfg.ClientBurst = 8
	}
	if cfg.ClientInterval == 0 {
		cfg.ClientInterval = 5 * time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, work: newWorkQueue(ctx, cfg.Builds, cfg.Queue), cancel: cancel,
		limits: newClientLimits(cfg.ClientBurst, cfg.ClientInterval)}
	s.builds = newBuilds(ctx, cfg.Store, s.work, cfg.BuildMemory, cfg.DiskBudget)
	s.stats = newStatsCache(ctx, cfg.Store, s.work, cfg.ReadOnly)
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("/{$}", s.servePage)
	s.mux.HandleFunc("/assets/{file}", s.serveAsset)
	s.mux.HandleFunc("/api/variants", s.serveVariants)
	s.mux.HandleFunc("/api/builds", s.serveBuilds)
	s.mux.HandleFunc("/api/stats/{variant}/{material}", s.serveStats)
	s.mux.HandleFunc("/{variant}", s.serveProbe)
	// /{variant}/mainline is lichess's route beside the material pages (a
	// pattern of its own would clash with /assets/{file}).
	s.mux.HandleFunc("/{variant}/{material}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("material") == "mainline" {
			s.serveMainline(w, r)
			return
		}
		s.servePage(w, r)
	})
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, "no such page: "+r.URL.Path)
	})
	return s
}

// Close stops the generations and statistics under way and waits for
// them.
func (s *Server) Close() {
	s.cancel()
	s.work.wait()
}

// admitter asks the client limits, for one request, whether it may start
// work, and keeps how long the client should wait when not.
type admitter struct {
	s          *Server
	client     string
	retryAfter time.Duration
}

// admitter returns the request's admitter.
func (s *Server) admitter(r *http.Request) *admitter {
	client := clientOf(r)
	if h := s.cfg.ClientHeader; h != "" {
		// The proxy appends the address it saw: the last one is its own
		// word, the ones before are the client's (and may be made up).
		if all := r.Header.Values(h); len(all) > 0 {
			list := strings.Split(all[len(all)-1], ",")
			if last := strings.TrimSpace(list[len(list)-1]); last != "" {
				client = last
			}
		}
	}
	return &admitter{s: s, client: client}
}

// admit spends one of the client's allowances.
func (a *admitter) admit() bool {
	ok, wait := a.s.limits.take(a.client)
	a.retryAfter = wait
	return ok
}

// tooMany answers 429 with the wait in Retry-After.
func (s *Server) tooMany(w http.ResponseWriter, wait time.Duration, msg string) {
	w.Header().Set("Retry-After", strconv.Itoa(max(int(math.Ceil(wait.Seconds())), 1)))
	fail(w, http.StatusTooManyRequests, msg)
}

// busy answers 503 with a minute in Retry-After: the work queue is full.
func (s *Server) busy(w http.ResponseWriter, msg string) {
	w.Header().Set("Retry-After", "60")
	fail(w, http.StatusServiceUnavailable, msg)
}

// ServeHTTP answers GET and HEAD requests of bounded size; a panic in a
// handler is answered as an internal error, never a crash.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			s.cfg.Log(fmt.Sprintf("explorer: %s: internal error: %v", r.URL, v))
			fail(w, http.StatusInternalServerError, "internal error")
		}
	}()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		fail(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed: use GET")
		return
	}
	if len(r.URL.RawQuery) > maxQuery {
		fail(w, http.StatusBadRequest, fmt.Sprintf("query of %d bytes is too long (at most %d)", len(r.URL.RawQuery), maxQuery))
		return
	}
	s.mux.ServeHTTP(w, r)
}

// fail answers {"error": msg} with the status.
func fail(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Access-Control-Allow-Origin", "*") // a public, read-only API
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// variant resolves a variant name of a path: lichess's "standard" is
// chess, underscores stand for spaces.
func (s *Server) variant(name string) (*engine.Variant, error) {
	name = strings.ReplaceAll(name, "_", " ")
	if name == "standard" {
		name = "chess"
	}
	if v, err := s.cfg.Catalogue.Lookup(name); err == nil {
		return v, nil
	}
	// Our own names may hold underscores.
	return s.cfg.Catalogue.Lookup(strings.ReplaceAll(name, " ", "_"))
}

// serveProbe answers GET /{variant}?fen=FEN.
func (s *Server) serveProbe(w http.ResponseWriter, r *http.Request) {
	p, ok := s.probeRequest(w, r)
	if !ok {
		return
	}
	admit := s.admitter(r)
	a := s.answer(p, admit.admit)
	if a.Building != nil && a.Building.State == buildRateLimited {
		s.tooMany(w, admit.retryAfter, a.Building.Error)
		return
	}
	writeJSON(w, http.StatusOK, a)
}

// probeRequest reads the variant and the position of a probe, or answers
// the error.
func (s *Server) probeRequest(w http.ResponseWriter, r *http.Request) (*engine.Position, bool) {
	v, err := s.variant(r.PathValue("variant"))
	if err != nil {
		fail(w, http.StatusNotFound, err.Error())
		return nil, false
	}
	fen := r.URL.Query().Get("fen")
	if fen == "" {
		fail(w, http.StatusBadRequest, "missing fen parameter: "+r.URL.Path+"?fen=FEN")
		return nil, false
	}
	p, err := lenientFEN(v, strings.ReplaceAll(fen, "_", " "))
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return nil, false
	}
	return p, true
}

// serveBuilds lists the generations under way, queued and failed.
func (s *Server) serveBuilds(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.builds.list())
}

// servePage serves the page (the explorer and the material pages are one
// page, which reads its path).
func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	if m := r.PathValue("material"); m != "" {
		if _, err := s.variant(r.PathValue("variant")); err != nil {
			fail(w, http.StatusNotFound, err.Error())
			return
		}
	}
	s.serveFile(w, r, "web/index.html")
}

// serveAsset serves the page's script and style.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	s.serveFile(w, r, "web/"+r.PathValue("file"))
}

func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	data, err := fs.ReadFile(webFiles, name)
	if err != nil {
		status := http.StatusInternalServerError
		if errors.Is(err, fs.ErrNotExist) {
			status = http.StatusNotFound
		}
		fail(w, status, "no such file: "+strings.TrimPrefix(name, "web/"))
		return
	}
	switch {
	case strings.HasSuffix(name, ".html"):
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	case strings.HasSuffix(name, ".js"):
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case strings.HasSuffix(name, ".css"):
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	}
	w.Write(data)
}
