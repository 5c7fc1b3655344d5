package server

import (
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// frontConn is one connection the front serves.
type frontConn struct {
	f  *front
	c  net.Conn
	ln *frontListener
	// idle: waiting for a request (guarded by f.mu).
	idle bool

	in  []byte // read buffer: in[:n] are the bytes read and not served
	n   int
	out []byte // the answer being written
}

// serve runs the connection's requests until it closes or goes to
// net/http.
func (fc *frontConn) serve() {
	handedOff := false
	defer func() {
		fc.f.untrack(fc)
		if !handedOff {
			_ = fc.c.Close() // done with it (or it failed)
		}
	}()
	fc.in = make([]byte, frontReadSize)
	// The first request's header must come within the timeout from now.
	deadline := time.Now().Add(fc.f.headerTimeout)
	if fc.c.SetReadDeadline(deadline) != nil {
		return
	}
	for {
		if fc.n == 0 {
			if !fc.f.setIdle(fc, true) {
				return
			}
			if !fc.read(0) {
				return
			}
			fc.f.setIdle(fc, false)
		}
		req, st := fc.readHeader(&deadline)
		switch st {
		case parseFallback:
			handedOff = fc.handOff()
			if handedOff {
				fc.f.handedOff.Add(1)
			}
			return
		case parseMore: // a read failed or the header timed out
			return
		}
		if !fc.readBody(req, &deadline) {
			return
		}
		if !fc.answer(req) {
			return
		}
	}
}

// read reads into fc.in after fc.n, growing it to hold at least want
// bytes; false on a read error (or none to read).
func (fc *frontConn) read(want int) bool {
	if want > len(fc.in) {
		in := make([]byte, max(want, 2*len(fc.in)))
		copy(in, fc.in[:fc.n])
		fc.in = in
	}
	k, err := fc.c.Read(fc.in[fc.n:])
	fc.n += k
	return k > 0 || err == nil
}

// readHeader reads until the request's header is complete (parseOK),
// the request is one for net/http (parseFallback) or a read fails
// (parseMore), within the header timeout from the request's first byte
// (from the accept for the first one).
func (fc *frontConn) readHeader(deadline *time.Time) (leanRequest, parseState) {
	cfg := &fc.f.s.cfg
	for scanned := 0; ; {
		if decidable(fc.in[:fc.n], scanned, cfg.MaxRequestHeaderBytes) {
			return parseLean(fc.in[:fc.n], cfg.MaxRequestHeaderBytes, cfg.MaxRequestBodyBytes)
		}
		scanned = fc.n
		if deadline.IsZero() {
			*deadline = time.Now().Add(fc.f.headerTimeout)
			if fc.c.SetReadDeadline(*deadline) != nil {
				return leanRequest{}, parseMore
			}
		}
		// The header fits cfg.MaxRequestHeaderBytes: parseLean falls back
		// at that size.
		if !fc.read(min(fc.n+frontReadSize, cfg.MaxRequestHeaderBytes+1)) {
			return leanRequest{}, parseMore
		}
	}
}

// readBody reads the rest of req's body, without a deadline (the
// http.Server has no ReadTimeout).
func (fc *frontConn) readBody(req leanRequest, deadline *time.Time) bool {
	if !deadline.IsZero() {
		*deadline = time.Time{}
		if fc.c.SetReadDeadline(time.Time{}) != nil {
			return false
		}
	}
	total := req.headerLen + req.bodyLen
	for fc.n < total {
		if !fc.read(total) {
			return false
		}
	}
	return true
}

// answer runs the request at the start of fc.in, writes its answer and
// keeps what follows it (a pipelined request) at the start of fc.in. It
// reports whether the connection stays open.
func (fc *frontConn) answer(req leanRequest) bool {
	total := req.headerLen + req.bodyLen
	s := fc.f.s
	buf := getBuffers()
	body := s.answer(fc.in[req.headerLen:total], buf)
	closeAfter := req.close || fc.f.isClosing() // a shutdown may have begun meanwhile
	fc.out = appendHead(fc.out[:0], len(body), closeAfter, s.cfg.EnableCORSWorkaround)
	fc.out = append(fc.out, body...)
	buf.put()
	fc.f.served.Add(1)
	_, err := fc.c.Write(fc.out)
	if cap(fc.out) > maxPooledBuffer {
		fc.out = nil
	}
	fc.n = copy(fc.in, fc.in[total:fc.n])
	if len(fc.in) > frontReadSize && fc.n <= frontReadSize {
		fc.in = append(make([]byte, 0, frontReadSize), fc.in[:fc.n]...)[:frontReadSize]
	}
	return err == nil && !closeAfter
}

// handOff gives the connection, with the bytes read of its request, to
// the http.Server; false when the listener is closed (the connection is
// then closed by the caller).
func (fc *frontConn) handOff() bool {
	rc := &replayConn{Conn: fc.c, pre: append([]byte(nil), fc.in[:fc.n]...)}
	select {
	case fc.ln.handoff <- rc:
		return true
	case <-fc.ln.done:
		return false
	}
}

// replayConn reads pre before the connection's further bytes.
type replayConn struct {
	net.Conn
	pre []byte
}

func (c *replayConn) Read(p []byte) (int, error) {
	if len(c.pre) > 0 {
		n := copy(p, c.pre)
		c.pre = c.pre[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// CloseWrite lets net/http half-close the connection before closing it
// (after an error answer), as it does with a TCP connection.
func (c *replayConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errors.ErrUnsupported
}

// appendHead appends the status line and headers of a 200 answer of n
// bytes: those net/http writes for ServeHTTP's answers (setHeaders, its
// Date), with a Content-Length always (net/http sends a big answer
// chunked instead).
func appendHead(dst []byte, n int, closeAfter, cors bool) []byte {
	dst = append(dst, "HTTP/1.1 200 OK\r\n"...)
	if cors {
		dst = append(dst, "Access-Control-Allow-Headers: "+corsAllowHeaders+"\r\n"+
			"Access-Control-Allow-Origin: *\r\n"...)
	}
	dst = append(dst, "Content-Type: "...)
	dst = append(dst, jsonContentType[0]...)
	if closeAfter {
		dst = append(dst, "\r\nConnection: close"...)
	}
	dst = append(dst, "\r\nDate: "...)
	dst = append(dst, httpDate()...)
	dst = append(dst, "\r\nContent-Length: "...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	return append(dst, "\r\n\r\n"...)
}

// dateCache is the Date header of the current second.
type dateCache struct {
	unix int64
	text []byte
}

var lastDate atomic.Pointer[dateCache]

// httpDate is the Date header's value for now (formatted once a second).
func httpDate() []byte {
	now := time.Now()
	if d := lastDate.Load(); d != nil && d.unix == now.Unix() {
		return d.text
	}
	d := &dateCache{unix: now.Unix(), text: now.UTC().AppendFormat(nil, http.TimeFormat)}
	lastDate.Store(d)
	return d.text
}
