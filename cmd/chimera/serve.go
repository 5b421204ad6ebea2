package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/chimera-chess/chimera/explorer"
	"github.com/chimera-chess/chimera/tablebase"
)

func newServeCommand() *cobra.Command {
	var (
		files       []string
		dir, addr   string
		buildPieces int
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
resource beyond the server.`,
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
			if err := tablebase.CheckDir(store.Dir(), true); err != nil {
				return fmt.Errorf("serve: %w", err)
			}
			store.KeepFiles = true // serving never rewrites a table file
			logger := log.New(cmd.ErrOrStderr(), "", log.LstdFlags)
			store.Log = func(s string) { logger.Print(s) }
			srv := explorer.New(explorer.Config{Catalogue: cat, Store: store, BuildPieces: buildPieces,
				Log: func(s string) { logger.Print(s) }})
			defer srv.Close()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("serve: %w", err)
			}
			hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
				WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10,
				ErrorLog: logger}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			go func() {
				<-ctx.Done()
				shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				hs.Shutdown(shut)
			}()
			fmt.Fprintf(cmd.OutOrStdout(), "Chimera tablebase explorer on http://%s/ (tables in %s)\n", ln.Addr(), store.Dir())
			if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("serve: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	cmd.Flags().StringVar(&dir, "dir", "", "tablebase directory (default: "+tablebase.DefaultDir()+")")
	cmd.Flags().StringArrayVar(&files, "variant-file", nil, "load user variants from this Fairy-Stockfish-style file first (repeatable)")
	intFlag(cmd.Flags(), &buildPieces, "build-pieces", 4, 3, tablebase.MaxPieces, "largest tables (kings included) generated on request")
	return cmd
}
