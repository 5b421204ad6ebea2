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
	"fmt"
	"hash/fnv"
	"html"
	"io"
	"io/fs"
	"log"
	"math"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
)

//go:embed web
var webFiles embed.FS

// Config says what a Server serves.
type Config struct {
	Catalogue *variants.Catalogue
	Store     *tablebase.Store
	// Syzygy, when set, answers chess positions from Syzygy's tables
	// where the store has no table (lookup.go: the store's, with their
	// distances to mate, lead where both have one).
	Syzygy *syzygy.Tables
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
	cfg     Config
	work    *workQueue
	builds  *builds
	stats   *statsCache
	limits  *clientLimits
	metrics *metrics
	gzip    compressors
	ready   atomic.Bool // the tables present at start are loaded (Preload)
	mux     *http.ServeMux
	cancel  context.CancelFunc
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
		limits: newClientLimits(cfg.ClientBurst, cfg.ClientInterval), metrics: newMetrics()}
	s.builds = newBuilds(ctx, cfg.Store, s.work, cfg.BuildMemory, cfg.DiskBudget)
	s.stats = newStatsCache(ctx, cfg.Store, s.work, cfg.ReadOnly)
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("/{$}", s.servePage)
	s.mux.HandleFunc("/assets/{file}", s.serveAsset)
	s.mux.HandleFunc("/favicon.ico", func(w http.ResponseWriter, r *http.Request) { s.serveFile(w, r, "web/favicon.ico") })
	s.mux.HandleFunc("/robots.txt", s.serveRobots)
	s.mux.HandleFunc("/healthz", s.serveHealth)
	s.mux.HandleFunc("/readyz", s.serveReady)
	s.mux.HandleFunc("/metrics", s.serveMetrics)
	s.mux.HandleFunc("/api/variants", s.serveVariants)
	s.mux.HandleFunc("/api/builds", s.serveBuilds)
	s.mux.HandleFunc("/api/stats/{variant}/{material}", s.serveStats)
	s.mux.HandleFunc("/api/tables/{variant}", s.serveIndex)
	s.mux.HandleFunc("/{variant}", s.serveProbe)
	// /{variant}/mainline is lichess's route beside the material pages (a
	// pattern of its own would clash with /assets/{file}).
	s.mux.HandleFunc("/{variant}/{material}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("variant") == "api" {
			fail(w, http.StatusNotFound, "no such API route: "+r.URL.Path)
			return
		}
		switch r.PathValue("material") {
		case "mainline":
			s.serveMainline(w, r)
			return
		case "tables": // the endgame index's page
			if v, err := s.variant(r.PathValue("variant")); err != nil || tablebase.CheckVariant(v) != nil {
				notFoundPage(w, "No endgame index at "+r.URL.Path+": not a variant with tables.")
				return
			}
			s.servePage(w, r)
			return
		}
		s.serveMaterialPage(w, r)
	})
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			fail(w, http.StatusNotFound, "no such API route: "+r.URL.Path)
			return
		}
		notFoundPage(w, "There is no page at "+r.URL.Path+".")
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
// handler is answered as an internal error, never a crash. Every answer
// is held until complete and sent with its length, compressed for
// clients that take gzip, or as 304 when the client's copy is current;
// each is counted for /metrics by its route.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	resp := newResponse()
	_, route := s.mux.Handler(r)
	s.handle(resp, r)
	resp.send(w, r, &s.gzip)
	s.metrics.record(route, resp.status, time.Since(start))
}

// handle answers one request into resp.
func (s *Server) handle(resp *response, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			s.cfg.Log(fmt.Sprintf("explorer: %s: internal error: %v", r.URL, v))
			*resp = *newResponse()
			fail(resp, http.StatusInternalServerError, "internal error")
		}
	}()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		resp.Header().Set("Allow", "GET, HEAD")
		fail(resp, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed: use GET")
		return
	}
	if len(r.URL.RawQuery) > maxQuery {
		fail(resp, http.StatusBadRequest, fmt.Sprintf("query of %d bytes is too long (at most %d)", len(r.URL.RawQuery), maxQuery))
		return
	}
	s.mux.ServeHTTP(resp, r)
}

// Preload reads the tables in the store's directory (as many as the
// memory budget holds: the last read stay), then reports the server
// ready (/readyz). A file that cannot be read is logged and skipped.
func (s *Server) Preload() {
	defer s.ready.Store(true)
	for _, f := range s.tableFiles() {
		if _, err := s.cfg.Store.FindMaterial(f.Variant, f.Material, tablebase.MemoryOrDisk); err != nil {
			s.cfg.Log(fmt.Sprintf("explorer: %v", err))
		}
	}
}

// serveHealth answers GET /healthz: the process answers.
func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", cacheNever)
	io.WriteString(w, "ok\n")
}

// serveReady answers GET /readyz: 200 once the tables present at start
// are loaded, 503 before (a load balancer sends no traffic yet).
func (s *Server) serveReady(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", cacheNever)
	if !s.ready.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "loading tables\n")
		return
	}
	io.WriteString(w, "ready\n")
}

// serveRobots answers GET /robots.txt: crawlers are welcome to the pages,
// whose moves are links, but not to the API, whose answers the pages
// already show.
func (s *Server) serveRobots(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", cacheAsset)
	io.WriteString(w, "User-agent: *\nDisallow: /api/\nAllow: /\n")
}

// fail answers {"error": msg} with the status, never cached.
func fail(w http.ResponseWriter, status int, msg string) {
	w.Header().Del("ETag")
	w.Header().Set("Cache-Control", cacheNever)
	writeJSON(w, status, map[string]string{"error": msg})
}

// notFoundPage answers 404 with a page for people (a mistyped address,
// a material that does not exist).
func notFoundPage(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", cacheNever)
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprintf(w, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found — Chimera tablebases</title><link rel="stylesheet" href="/assets/style.css"></head>
<body><main class="notfound"><h1>Not found</h1><p>%s</p><p><a href="/">Open the explorer</a></p></main></body></html>
`, html.EscapeString(msg))
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
	cacheAnswer(w, a.complete, a.etag())
	writeJSON(w, http.StatusOK, a)
}

// probeRequest reads the variant and the position of a probe, or answers
// the error.
func (s *Server) probeRequest(w http.ResponseWriter, r *http.Request) (*engine.Position, bool) {
	v, err := s.variant(r.PathValue("variant"))
	if err != nil {
		if wantsHTML(r) {
			notFoundPage(w, "There is no page at "+r.URL.Path+": "+err.Error())
			return nil, false
		}
		fail(w, http.StatusNotFound, err.Error())
		return nil, false
	}
	fen := r.URL.Query().Get("fen")
	if fen == "" {
		if wantsHTML(r) {
			// A person at /chess: the explorer of that variant.
			http.Redirect(w, r, "/?variant="+url.QueryEscape(v.Name), http.StatusFound)
			return nil, false
		}
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

// wantsHTML reports whether the request comes from a browser's address
// bar (it asks for HTML first), not from an API client.
func wantsHTML(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	return strings.HasPrefix(accept, "text/html") || strings.HasPrefix(accept, "application/xhtml")
}

// cacheAnswer sets the caching of an answer read from tables: complete
// ones never change while their tables stand (the ETag names them), the
// others change as tables come.
func cacheAnswer(w http.ResponseWriter, complete bool, etag string) {
	if !complete {
		w.Header().Set("Cache-Control", cacheNever)
		return
	}
	w.Header().Set("Cache-Control", cacheForever)
	w.Header().Set("ETag", etag)
}

// serveBuilds lists the generations under way, queued and failed.
func (s *Server) serveBuilds(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", cacheNever)
	writeJSON(w, http.StatusOK, s.builds.list())
}

// serveMaterialPage serves the page for /{variant}/{material}, or a 404
// page for a variant or material that does not exist.
func (s *Server) serveMaterialPage(w http.ResponseWriter, r *http.Request) {
	v, err := s.variant(r.PathValue("variant"))
	if err != nil {
		notFoundPage(w, err.Error())
		return
	}
	if err := tablebase.CheckVariant(v); err != nil {
		notFoundPage(w, v.Name+" has no tables: "+err.Error())
		return
	}
	if _, err := tablebase.ParseMaterial(v, r.PathValue("material")); err != nil {
		notFoundPage(w, "No such table: "+err.Error())
		return
	}
	s.servePage(w, r)
}

// serveAsset serves the page's script and style.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	s.serveFile(w, r, "web/"+r.PathValue("file"))
}

// contentTypes are the page's files' types, by extension.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".ico":  "image/x-icon",
	".svg":  "image/svg+xml",
}

// serveFile serves one of the page's files, with an ETag of its contents.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	data, err := fs.ReadFile(webFiles, name)
	if err != nil {
		notFoundPage(w, "No such file: "+strings.TrimPrefix(name, "web/"))
		return
	}
	if t, ok := contentTypes[path.Ext(name)]; ok {
		w.Header().Set("Content-Type", t)
	}
	writeContent(w, data, cacheAsset)
}

// writeContent writes a file's content with the caching policy and, for
// a cacheable one, an ETag of the content.
func writeContent(w http.ResponseWriter, data []byte, policy string) {
	if policy != cacheNever {
		h := fnv.New64a()
		h.Write(data)
		w.Header().Set("ETag", fmt.Sprintf(`"%x"`, h.Sum64()))
	}
	w.Header().Set("Cache-Control", policy)
	w.Write(data)
}

// tableFiles lists the table files of the store's directory whose
// variant the catalogue knows.
func (s *Server) tableFiles() []tablebase.TableFile {
	return s.cfg.Store.Files(s.cfg.Catalogue.Lookup)
}
