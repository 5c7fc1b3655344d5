package server

import (
	"io"
	"net/http"
	"sync"
)

// maxPooledBuffer is the largest buffer kept for reuse: a sendrawtransaction
// body (a few hundred bytes, up to ~137 KiB for the largest transaction)
// and its answer fit the common case; a big block or invocation answer is
// not kept, so the pool never holds more than a few of these per request
// running at once.
const maxPooledBuffer = 16 << 10

// buffers are one HTTP request's reusable memory: its body and the answer
// (a method's result that writes its own JSON, a jsonAppender, is written
// into the answer directly).
type buffers struct {
	body, out []byte
}

var buffersPool = sync.Pool{New: func() any { return new(buffers) }}

func getBuffers() *buffers { return buffersPool.Get().(*buffers) }

// put returns b to the pool, dropping any buffer that grew too big. Nothing
// may use b, or what aliases it (a decoded request, an answer), afterwards.
func (b *buffers) put() {
	for _, p := range []*[]byte{&b.body, &b.out} {
		if cap(*p) > maxPooledBuffer {
			*p = nil
		}
	}
	buffersPool.Put(b)
}

// readBody reads r's body of at most limit bytes, as
// io.ReadAll(http.MaxBytesReader(w, r.Body, limit)) does (the same errors,
// the connection closed after an oversized one), into b.body when the
// request declares its length.
func (b *buffers) readBody(w http.ResponseWriter, r *http.Request, limit int) ([]byte, error) {
	n := r.ContentLength
	if n < 0 || n > int64(limit) || n > maxPooledBuffer {
		return io.ReadAll(http.MaxBytesReader(w, r.Body, int64(limit)))
	}
	if cap(b.body) <= int(n) {
		b.body = make([]byte, max(int(n)+1, 1024))
	}
	body := b.body[:n]
	if _, err := io.ReadFull(r.Body, body); err != nil {
		return nil, err
	}
	// Read to the end as ReadAll does (net/http then has the whole body
	// and needs no discarding read after the answer).
	k, err := r.Body.Read(b.body[n : n+1])
	if k == 0 && err == io.EOF {
		return body, nil
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	// A body longer than it said (only a caller of ServeHTTP can make one).
	rest, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(limit)-n-int64(k)))
	return append(b.body[:n+int64(k):n+int64(k)], rest...), err
}
