package explorer

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// response holds a handler's answer until it is complete, so that the
// server can send it with its length, compressed when the client takes
// gzip, or as 304 Not Modified when the client's copy (If-None-Match) is
// current. Every answer here is small (the largest, a page's script, is
// tens of kilobytes), so holding it costs nothing that matters.
type response struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newResponse() *response { return &response{header: http.Header{}} }

func (r *response) Header() http.Header { return r.header }

func (r *response) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *response) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}

// minGzip is the smallest body worth compressing: below it, gzip's own
// header and the work cost more than they save.
const minGzip = 512

// send writes the response to w for the request req, compressing with
// gz.
func (r *response) send(w http.ResponseWriter, req *http.Request, gz *compressors) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	h := w.Header()
	for k, v := range r.header {
		h[k] = v
	}
	if etag := r.header.Get("ETag"); etag != "" && r.status == http.StatusOK && matchesETag(req.Header.Get("If-None-Match"), etag) {
		h.Del("Content-Type")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := r.body.Bytes()
	if compressible(h.Get("Content-Type")) {
		h.Add("Vary", "Accept-Encoding")
		if len(body) >= minGzip && acceptsGzip(req) {
			body = gz.compress(body)
			h.Set("Content-Encoding", "gzip")
			if etag := h.Get("ETag"); etag != "" && !strings.HasPrefix(etag, "W/") {
				// Another representation of the same content: its
				// validator must differ from the plain one's.
				h.Set("ETag", strings.TrimSuffix(etag, `"`)+`-gzip"`)
			}
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(r.status)
	if req.Method != http.MethodHead {
		w.Write(body)
	}
}

// compressors keeps gzip writers for reuse: each holds hundreds of
// kilobytes of tables, and making one per answer cut the API's
// throughput by two thirds.
type compressors struct{ pool sync.Pool }

// compress returns body gzipped.
func (c *compressors) compress(body []byte) []byte {
	var z bytes.Buffer
	gz, _ := c.pool.Get().(*gzip.Writer)
	if gz == nil {
		gz, _ = gzip.NewWriterLevel(&z, gzip.BestSpeed)
	} else {
		gz.Reset(&z)
	}
	gz.Write(body)
	gz.Close()
	c.pool.Put(gz)
	return z.Bytes()
}

// matchesETag reports whether an If-None-Match header names etag (or its
// compressed form).
func matchesETag(header, etag string) bool {
	if header == "" {
		return false
	}
	if strings.TrimSpace(header) == "*" {
		return true
	}
	gz := strings.TrimSuffix(etag, `"`) + `-gzip"`
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == gz {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether the client takes gzip (and did not refuse
// it with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// compressible reports whether a content type is text worth compressing.
func compressible(contentType string) bool {
	for _, t := range []string{"application/json", "text/", "image/svg+xml"} {
		if strings.HasPrefix(contentType, t) {
			return true
		}
	}
	return false
}

// The caching policies of the answers.
const (
	// cacheForever: an answer from tables, which never change (a rebuilt
	// table has another checksum, so another ETag).
	cacheForever = "public, max-age=86400"
	// cacheAsset: the page's files, which change with the server.
	cacheAsset = "public, max-age=3600"
	// cacheBrief: lists that change as tables come (variants, index).
	cacheBrief = "public, max-age=10"
	// cacheNever: answers that change from one request to the next (a
	// table being built, progress, errors, health).
	cacheNever = "no-store"
)
