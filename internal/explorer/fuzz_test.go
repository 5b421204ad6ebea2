package explorer_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzProbe sends any FEN to any variant: the answer is 200 with a
// position or 400/404 with an error, always JSON, never a crash.
func FuzzProbe(f *testing.F) {
	srv, _ := newServer(f, "KQvK")
	for _, seed := range []string{
		"8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "8/8/8/4k3/8/8/8/KQ6_b_-_-_0_1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"k7/8/8/8/8/8/8/K7 w", "", "8/8/8/8/8/8/8/8 w - - 0 1", "16/16 w", "K7/8/8/8/8/8/8/7k w - - 99 400",
	} {
		f.Add("chess", seed)
		f.Add("capablanca", seed)
	}
	f.Fuzz(func(t *testing.T, variant, fen string) {
		if variant == "" || variant == "." || variant == ".." {
			t.Skip("the page, or a path the server cleans and redirects")
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/"+url.PathEscape(variant)+"?fen="+url.QueryEscape(fen), nil))
		var body map[string]any
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body), rec.Body.String())
		switch rec.Code {
		case http.StatusOK:
			require.Contains(t, []any{"win", "draw", "loss", "unknown"}, body["category"])
		case http.StatusBadRequest, http.StatusNotFound:
			require.NotEmpty(t, body["error"])
		default:
			t.Fatalf("status %d for %q %q: %s", rec.Code, variant, fen, rec.Body.String())
		}
	})
}
