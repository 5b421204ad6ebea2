package explorer_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
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

	waiting := fetch(srv, "/chess?fen=8/8/8/4k3/8/8/8/KR6_w_-_-_0_1")
	require.Equal(t, "no-store", waiting.Header().Get("Cache-Control"), "unknown until its table is built")
	require.Empty(t, waiting.Header().Get("ETag"))

	asset := fetch(srv, "/assets/app.js", "Accept-Encoding: gzip")
	require.Equal(t, "gzip", asset.Header().Get("Content-Encoding"))
	require.NotEmpty(t, asset.Header().Get("ETag"))
	require.Equal(t, strconv.Itoa(asset.Body.Len()), asset.Header().Get("Content-Length"))
}
