package explorer_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/explorer"
)

// fetch answers one GET with the headers given ("Name: value").
func fetch(h http.Handler, path string, headers ...string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	for _, kv := range headers {
		k, v, _ := strings.Cut(kv, ": ")
		r.Header.Set(k, v)
	}
	h.ServeHTTP(rec, r)
	return rec
}

// TestPageRoutes: pages that do not exist are 404 pages for people (JSON
// only under the API and for API clients), the icon and robots.txt are
// served, and a person at /chess is sent to that variant's explorer.
func TestPageRoutes(t *testing.T) {
	srv, _ := newServer(t)
	for _, path := range []string{"/a/b/c", "/assets/nosuch.js", "/nosuchvariant/KQvK", "/chess/KXvK", "/chess/nonsense", "/atomic/KQvK"} {
		rec := fetch(srv, path)
		require.Equal(t, http.StatusNotFound, rec.Code, path)
		require.Equal(t, "text/html; charset=utf-8", rec.Header().Get("Content-Type"), path)
		require.Contains(t, rec.Body.String(), "Not found", path)
	}
	rec := fetch(srv, "/nosuchvariant", "Accept: text/html,application/xhtml+xml")
	require.Equal(t, http.StatusNotFound, rec.Code)
	require.Contains(t, rec.Header().Get("Content-Type"), "text/html")
	rec = fetch(srv, "/nosuchvariant?fen=8/8/8/8/8/8/8/K6k_w_-_-_0_1")
	require.Equal(t, http.StatusNotFound, rec.Code)
	require.Contains(t, rec.Header().Get("Content-Type"), "application/json", "an API client gets JSON")

	rec = fetch(srv, "/chess/KBNvK")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Body.String(), "<!doctype html>")

	rec = fetch(srv, "/standard", "Accept: text/html")
	require.Equal(t, http.StatusFound, rec.Code)
	require.Equal(t, "/?variant=chess", rec.Header().Get("Location"))

	rec = fetch(srv, "/favicon.ico")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "image/x-icon", rec.Header().Get("Content-Type"))
	require.Equal(t, []byte{0, 0, 1, 0}, rec.Body.Bytes()[:4], "an ICO file")

	rec = fetch(srv, "/robots.txt")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Body.String(), "Disallow: /api/")
}

// TestHealthAndReadiness: /healthz answers at once, /readyz only once the
// tables are loaded; /metrics counts requests by route and status.
func TestHealthAndReadiness(t *testing.T) {
	srv, _ := newServer(t, "KQvK")
	require.Equal(t, http.StatusOK, fetch(srv, "/healthz").Code)
	require.Equal(t, http.StatusServiceUnavailable, fetch(srv, "/readyz").Code)
	srv.Preload()
	require.Equal(t, http.StatusOK, fetch(srv, "/readyz").Code)

	fetch(srv, "/chess?fen=8/8/8/4k3/8/8/8/KQ6_w_-_-_0_1")
	fetch(srv, "/chess?fen=8/8/8/4k3/8/8/8/KQ6_w_-_-_0_1")
	fetch(srv, "/chess?fen=nonsense")
	body := fetch(srv, "/metrics").Body.String()
	require.Contains(t, body, `chimera_http_requests_total{route="/{variant}",status="200"} 2`)
	require.Contains(t, body, `chimera_http_requests_total{route="/{variant}",status="400"} 1`)
	require.Contains(t, body, "chimera_http_request_duration_seconds_bucket{le=\"+Inf\"} ")
	require.Contains(t, body, "chimera_tables_in_memory 1")
	require.Contains(t, body, "chimera_tables_cache_limit_bytes 67108864")
	require.NotContains(t, body, "chimera_tables_cache_bytes 0\n", "the probes' block is in the cache")
	require.Contains(t, body, "chimera_ready 1")
}

// TestCachingAndCompression: an answer read from tables has a long
// max-age and an ETag, a client with that ETag gets 304, a client taking
// gzip gets it compressed (with its length), and an answer still waiting
// for a table is never cached.
func TestCachingAndCompression(t *testing.T) {
	srv, _ := newServer(t, "KQvK")
	const path = "/chess?fen=8/8/8/4k3/8/8/8/KQ6_w_-_-_0_1"
	plain := fetch(srv, path)
	require.Equal(t, http.StatusOK, plain.Code)
	require.Equal(t, "public, max-age=86400", plain.Header().Get("Cache-Control"))
	etag := plain.Header().Get("ETag")
	require.NotEmpty(t, etag)
	require.Equal(t, strconv.Itoa(plain.Body.Len()), plain.Header().Get("Content-Length"))

	require.Equal(t, http.StatusNotModified, fetch(srv, path, "If-None-Match: "+etag).Code)
	require.Equal(t, http.StatusOK, fetch(srv, path, `If-None-Match: "other"`).Code)

	zipped := fetch(srv, path, "Accept-Encoding: gzip, deflate")
	require.Equal(t, "gzip", zipped.Header().Get("Content-Encoding"))
	require.Equal(t, strconv.Itoa(zipped.Body.Len()), zipped.Header().Get("Content-Length"))
	require.Less(t, zipped.Body.Len(), plain.Body.Len())
	zr, err := gzip.NewReader(bytes.NewReader(zipped.Body.Bytes()))
	require.NoError(t, err)
	unzipped, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.Equal(t, plain.Body.String(), string(unzipped))
	require.NotEqual(t, etag, zipped.Header().Get("ETag"), "another representation, another validator")
	require.Equal(t, http.StatusNotModified, fetch(srv, path, "Accept-Encoding: gzip", "If-None-Match: "+zipped.Header().Get("ETag")).Code)
	require.Empty(t, fetch(srv, path, "Accept-Encoding: gzip;q=0").Header().Get("Content-Encoding"))

	// The build that request asks for is held in the queue: KRvK took
	// less time to build than a loaded machine took to value the
	// position's moves, and the answer then came complete (cacheable).
	release := explorer.HoldWorkers(srv)
	waiting := fetch(srv, "/chess?fen=8/8/8/4k3/8/8/8/KR6_w_-_-_0_1")
	release()
	require.Equal(t, "no-store", waiting.Header().Get("Cache-Control"), "unknown until its table is built")
	require.Empty(t, waiting.Header().Get("ETag"))

	asset := fetch(srv, "/assets/app.js", "Accept-Encoding: gzip")
	require.Equal(t, "gzip", asset.Header().Get("Content-Encoding"))
	require.NotEmpty(t, asset.Header().Get("ETag"))
	require.Equal(t, strconv.Itoa(asset.Body.Len()), asset.Header().Get("Content-Length"))
}

// TestPageRenderedForCrawlers: the page of a position comes with its
// verdict, a title naming the material and the verdict, and every move a
// link to its position, before any script runs.
func TestPageRenderedForCrawlers(t *testing.T) {
	srv, _ := newServer(t, "KQvK")
	const fen = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
	a := probe(t, srv, "chess", fen)
	rec := fetch(srv, "/?variant=chess&fen="+url.QueryEscape(fen))
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	want := fmt.Sprintf("White mates in %d", (*a.DTM+1)/2)
	require.Contains(t, body, "<title>KQvK: "+want+" — Chimera tablebases</title>")
	require.Contains(t, body, `class="win">`+want+` (`)
	for _, m := range a.Moves {
		require.Contains(t, body, `<a href="`+html.EscapeString("/?variant=chess&fen="+url.QueryEscape(m.FEN))+`"><span class="san">`+m.SAN+`</span>`, m.UCI)
	}
	require.Equal(t, "public, max-age=3600", rec.Header().Get("Cache-Control"))
	// A position outside the tables is rendered, unknown, and builds nothing.
	rec = fetch(srv, "/?variant=chess&fen="+url.QueryEscape("8/8/8/4k3/8/8/8/KR6 w - - 0 1"))
	require.Contains(t, rec.Body.String(), "Unknown: no table for this position")
	require.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	require.Zero(t, explorer.BuildsStarted(srv))
	// A bad FEN leaves the page to the script.
	rec = fetch(srv, "/?variant=chess&fen=nonsense")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Body.String(), `<ol id="moves" aria-label="legal moves, best first"></ol>`)
}

// TestEndgameIndex: a variant's index lists the tables present (size,
// longest win once counted), being built and buildable; the page route
// exists for variants with tables only.
func TestEndgameIndex(t *testing.T) {
	srv, _ := newServer(t, "KQvK")
	type entry struct {
		Material, State string
		Pieces          int
		Size            int64
		LongestWin      int `json:"longest_win"`
	}
	index := func() map[string]entry {
		var body struct {
			Variant string
			Tables  []entry
		}
		require.Equal(t, http.StatusOK, get(t, srv, "/api/tables/chess", &body))
		require.Equal(t, "chess", body.Variant)
		require.Equal(t, "KQvK", body.Tables[0].Material, "present tables first")
		out := map[string]entry{}
		for _, e := range body.Tables {
			out[e.Material] = e
		}
		return out
	}
	entries := index()
	require.Equal(t, "present", entries["KQvK"].State)
	require.Positive(t, entries["KQvK"].Size)
	require.Zero(t, entries["KQvK"].LongestWin, "not counted yet")
	require.Equal(t, "buildable", entries["KRvK"].State)
	require.Equal(t, "buildable", entries["KBNvK"].State)
	require.Equal(t, 4, entries["KPvKP"].Pieces)
	require.NotContains(t, entries, "KQRvKR", "five pieces are not built here")
	for fetch(srv, "/api/stats/chess/KQvK").Code != http.StatusOK {
		time.Sleep(20 * time.Millisecond)
	}
	require.Equal(t, 19, index()["KQvK"].LongestWin, "KQvK's longest win: mate in 10, 19 plies")

	require.Equal(t, http.StatusOK, fetch(srv, "/chess/tables").Code)
	require.Equal(t, http.StatusNotFound, fetch(srv, "/atomic/tables").Code)
	require.Equal(t, http.StatusNotFound, fetch(srv, "/api/tables/nosuch").Code)
}

// TestTablePagesHideTheBoard: a table's page and the endgame index have
// no board, so they come without the explorer's board controls (Practise,
// Back, Flip, the FEN and move boxes), their own part shown, even before
// the script runs; the explorer's page is the other way round.
func TestTablePagesHideTheBoard(t *testing.T) {
	srv, _ := newServer(t)
	for path, shown := range map[string]string{
		"/chess/KBNvK":   "material",
		"/standard/KQvK": "material",
		"/chess/tables":  "index",
		"/":              "explorer",
		"/?variant=chess&fen=8/8/8/8/8/2k5/8/KBN5_w_-_-_0_1": "explorer",
	} {
		rec := fetch(srv, path)
		require.Equal(t, http.StatusOK, rec.Code, path)
		body := rec.Body.String()
		for _, part := range []string{"explorer", "material", "index"} {
			tag := `<main id="` + part + `"`
			require.Equal(t, 1, strings.Count(body, tag), "%s: one %s", path, tag)
			if part == shown {
				require.Contains(t, body, tag+">", "%s shows its %s", path, part)
			} else {
				require.Contains(t, body, tag+" hidden>", "%s hides the %s", path, part)
			}
		}
	}
}
