package main

import (
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/chimera-chess/chimera/internal/explorer"
	"github.com/chimera-chess/chimera/internal/sysmem"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/spf13/cobra"
)

// defaultServeMemoryMB is the tables' memory by default: a quarter of the
// machine (the generations, the other programs need the rest), 1 GiB
// where the machine's memory is unknown.
func defaultServeMemoryMB() int {
	if mb, ok := sysmem.PhysicalMB(); ok {
		return max(mb/4, 64)
	}
	return 1024
}

func newServeCommand() *cobra.Command {
	var (
		files, syzygyDirs   []string
		dir, addr           string
		clientHeader        string
		buildPieces, builds int
		memoryMB, diskMB    int
		cacheMB             int
		readOnly            bool
	)
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--dir D] [--variant-file F]",
		Short: "Serve the tablebase explorer page and its lichess-style API",
		Long: `Serve runs the tablebase explorer: a web page to set up any position of a
variant with tables and see its value and every move's, practise a win
against perfect defence, and read a table's statistics; and under it an
API in the shape of lichess's tablebase API:

  curl 'http://127.0.0.1:8080/standard?fen=8/8/8/8/8/8/8/KBNk4_w_-_-_0_1'

answers {"category": "win", "dtm": 57, "moves": [...best first...], ...}.
Missing tables of up to --build-pieces pieces are generated in the
background on first request (the API says "unknown" meanwhile). The server
binds to loopback unless --addr says otherwise; the page needs no network
resource beyond the server.

Generations and statistics counts share --builds workers, the cheapest
waiting job first; each address may start only a few at once (429 with
Retry-After past that). Tables stay in memory up to --memory MiB, the
least recently used dropped first (and read again when asked for);
--disk bounds the table files a server may write.

Replicas: --read-only serves an existing directory and never builds or
writes, so several servers may share one directory behind a load
balancer. /healthz answers while the process runs, /readyz once the
tables present at start are loaded, /metrics in Prometheus's format.
Behind a balancer, --client-header X-Forwarded-For makes the per-address
limits count the clients, not the balancer. SIGINT or SIGTERM stops the
server within a second, builds under way abandoned.

--syzygy DIR (repeatable) answers chess from Syzygy's tables too, as
lila-tablebase does: a position they hold gets its category and dtz from
them (precise_dtz only for draws: a DTZ file may round a distance by a
ply), and dtm, exact dtz and precise_dtz from Chimera's own table where
there is one. Where both hold a position they must agree; a disagreement
is logged, and Chimera's answer served.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			vf := variantFlags{files: files}
			cat, err := vf.catalogue()
			if err != nil {
				return err
			}
			store := tablebase.NewStore(dir)
			// Missing tables are built into it on request: a directory
			// that cannot take them is refused now, not at the first build.
			if err := tablebase.CheckDir(store.Dir(), !readOnly); err != nil {
				return fmt.Errorf("serve: %w", err)
			}
			store.KeepFiles = true // serving never rewrites a table file
			if !readOnly {
				store.Generator = gen.Generator{}
			}
			store.MemoryBudget = int64(memoryMB) << 20
			store.CacheBytes = int64(cacheMB) << 20
			logger := log.New(cmd.ErrOrStderr(), "", log.LstdFlags)
			store.Log = func(s string) { logger.Print(s) }
			var tables *syzygy.Tables
			if len(syzygyDirs) > 0 {
				if tables, err = syzygy.Open(syzygyDirs...); err != nil {
					return fmt.Errorf("serve: %w", err)
				}
				defer tables.Close()
			}
			srv := explorer.New(explorer.Config{Catalogue: cat, Store: store, Syzygy: tables, BuildPieces: buildPieces,
				Builds: builds, DiskBudget: int64(diskMB) << 20, ReadOnly: readOnly, ClientHeader: clientHeader,
				Log: func(s string) { logger.Print(s) }})
			defer srv.Close()
			go srv.Preload()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("serve: %w", err)
			}
			hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
				WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10,
				ErrorLog: logger}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			fmt.Fprintf(cmd.OutOrStdout(), "Chimera tablebase explorer on http://%s/ (tables in %s)\n", ln.Addr(), store.Dir())
			// Within a second, always: the answers under way are short;
			// the builds are abandoned (srv.Close).
			if err := serveUntil(ctx, hs, ln, stopGrace); err != nil {
				return fmt.Errorf("serve: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	cmd.Flags().StringVar(&dir, "dir", "", "tablebase directory (default: "+tablebase.DefaultDir()+")")
	cmd.Flags().StringArrayVar(&files, "variant-file", nil, "load user variants from this Fairy-Stockfish-style file first (repeatable)")
	intFlag(cmd.Flags(), &buildPieces, "build-pieces", 4, 3, tablebase.MaxPieces, "largest tables (kings included) generated on request")
	intFlag(cmd.Flags(), &builds, "builds", 1, 1, 64, "generations and statistics counts run at once (each generation uses every core)")
	intFlag(cmd.Flags(), &memoryMB, "memory", defaultServeMemoryMB(), 16, 1<<24, "MiB of tables kept in memory (least recently used dropped first)")
	intFlag(cmd.Flags(), &cacheMB, "cache", 64, 1, 1<<16, "MiB of decoded blocks of the table files probed (a file is never read whole)")
	intFlag(cmd.Flags(), &diskMB, "disk", 0, 0, 1<<30, "MiB of table files the server may hold in --dir (0: no bound)")
	cmd.Flags().BoolVar(&readOnly, "read-only", false, "serve the tables in --dir without building or writing anything (replicas)")
	cmd.Flags().StringArrayVar(&syzygyDirs, "syzygy", nil, "a directory of chess's Syzygy tables (.rtbw, .rtbz) to answer chess from too (repeatable)")
	cmd.Flags().StringVar(&clientHeader, "client-header", "", "header a trusted proxy puts the client's address in (e.g. X-Forwarded-For), for the per-client limits")
	return cmd
}

// stopGrace is how long the answers under way may take to finish once the
// server stops: they are short (a probe, a page), and serve ends within a
// second.
const stopGrace = 500 * time.Millisecond

// serveUntil serves hs on ln until ctx is done, then stops and returns
// once every connection is closed: the answers under way may finish
// within grace, the rest are cut after it. The connections with no request
// under way are closed at once, not waited for: a browser keeps its
// connections open after a page (keep-alive) and opens spare ones before
// it needs them, and http.Server.Shutdown counts a connection that has
// sent nothing yet as busy until it is five seconds old. serveUntil takes
// over hs's ConnState hook, and calls the one hs had.
func serveUntil(ctx context.Context, hs *http.Server, ln net.Listener, grace time.Duration) error {
	conns := &connStates{next: hs.ConnState, state: map[net.Conn]http.ConnState{}}
	hs.ConnState = conns.set
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err // the listener failed: never ErrServerClosed here
	case <-ctx.Done():
	}
	// The answers still under way say Connection: close, so their
	// connections end with them instead of waiting idle.
	hs.SetKeepAlivesEnabled(false)
	stop, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- hs.Shutdown(stop) }()
	// Serve returns once Shutdown has closed the listener, and it has
	// reported each connection it accepted (StateNew) before: none can
	// come after the connections are swept.
	<-served
	conns.closeUnused()
	if <-shut != nil {
		// The grace is over: cut what is left. Its error can only be the
		// listener's, which Serve has closed already.
		hs.Close()
	}
	return nil
}

// connStates follows a server's connections by state (http.Server's
// ConnState hook), so that a stopping server can close those with no
// request under way.
type connStates struct {
	next func(net.Conn, http.ConnState) // the server's own hook, if it had one

	mu    sync.Mutex
	state map[net.Conn]http.ConnState
}

// set records a connection's new state (the hook).
func (c *connStates) set(conn net.Conn, s http.ConnState) {
	c.mu.Lock()
	if s == http.StateClosed || s == http.StateHijacked {
		delete(c.state, conn)
	} else {
		c.state[conn] = s
	}
	c.mu.Unlock()
	if c.next != nil {
		c.next(conn, s)
	}
}

// closeUnused closes the connections that are new (nothing read from them
// yet) or idle between requests. A request arriving on one just now is
// lost, as one would be a moment later on the closed listener.
func (c *connStates) closeUnused() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for conn, s := range c.state {
		if s == http.StateNew || s == http.StateIdle {
			conn.Close()
		}
	}
}
