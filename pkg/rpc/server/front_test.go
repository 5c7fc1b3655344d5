package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/stretchr/testify/require"
)

// frontServer is a Server serving on a loopback port through the front.
type frontServer struct {
	s    *Server
	addr string
	url  string
	stop func() error // ends the serve and returns its error
}

// startFront serves n's chain with n's settings, tweaked.
func startFront(t *testing.T, n *testNode, tweak func(*Server)) *frontServer {
	t.Helper()
	cfg := n.srv.cfg
	cfg.Addresses = []string{"127.0.0.1:0"}
	s, err := New(cfg, n.srv.chain)
	require.NoError(t, err)
	if tweak != nil {
		tweak(s)
	}
	ctx, cancel := context.WithCancel(context.Background())
	wait, err := s.Start(ctx)
	require.NoError(t, err)
	var once sync.Once
	var serveErr error
	stop := func() error {
		once.Do(func() { cancel(); serveErr = wait() })
		return serveErr
	}
	t.Cleanup(func() { _ = stop() })
	addr := s.Addrs()[0].String()
	return &frontServer{s: s, addr: addr, url: "http://" + addr + "/", stop: stop}
}

func (fs *frontServer) counts() (served, handedOff uint64) {
	f := fs.s.front.Load()
	return f.served.Load(), f.handedOff.Load()
}

// exchange posts body with c and returns the answer's status, headers and
// body.
func exchange(t *testing.T, c *http.Client, url, body string) (*http.Response, []byte) {
	t.Helper()
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, raw
}

// TestFrontAnswersAsNetHTTP compares the front's answers with ServeHTTP's
// through net/http: status, body and every header but Date and the
// framing (the front always sends a Content-Length).
func TestFrontAnswersAsNetHTTP(t *testing.T) {
	n := node(t, "testblocks")
	bodies := []string{
		`{"jsonrpc":"2.0","id":"a","method":"getblockcount","params":[]}`,
		`{"jsonrpc":"2.0","id":1,"method":"nosuch"}`,
		`{"jsonrpc": "2.0", "id": 7, "method": "getblock", "params": [1, true]}`,
		`{"jsonrpc":"2.0","id":1,"method":"getblock","params":[2]}`,
		`[{"jsonrpc":"2.0","id":1,"method":"getblockcount"},{"jsonrpc":"2.0","id":2,"method":"getversion"}]`,
		`{`, ``, `[]`,
	}
	for _, cors := range []bool{false, true} {
		ref := n.srv
		if cors {
			cfg := n.srv.cfg
			cfg.EnableCORSWorkaround = true
			s, err := New(cfg, n.srv.chain)
			require.NoError(t, err)
			ref = s
		}
		plain := &http.Server{Handler: ref}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		go func() { _ = plain.Serve(ln) }()
		fs := startFront(t, n, func(s *Server) { s.cfg.EnableCORSWorkaround = cors })
		for _, body := range bodies {
			want, wantRaw := exchange(t, http.DefaultClient, "http://"+ln.Addr().String()+"/", body)
			got, gotRaw := exchange(t, http.DefaultClient, fs.url, body)
			require.Equal(t, want.StatusCode, got.StatusCode, body)
			require.Equal(t, string(wantRaw), string(gotRaw), body)
			require.Equal(t, headersBut(want.Header), headersBut(got.Header), body)
			require.NotEmpty(t, got.Header.Get("Date"))
			require.Equal(t, int64(len(gotRaw)), got.ContentLength)
		}
		served, handedOff := fs.counts()
		require.Equal(t, uint64(len(bodies)), served)
		require.Zero(t, handedOff)
		require.NoError(t, plain.Close())
	}
}

func headersBut(h http.Header) http.Header {
	h = h.Clone()
	for _, k := range []string{"Date", "Content-Length", "Transfer-Encoding"} {
		delete(h, k)
	}
	return h
}

// TestFrontKeepAlive: sequential requests reuse one connection, and
// concurrent clients each get their own answers.
func TestFrontKeepAlive(t *testing.T) {
	n := node(t, "testblocks")
	fs := startFront(t, n, nil)
	count := fmt.Sprint(n.chain.BlockHeight() + 1)
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	reused := 0
	for i := range 200 {
		trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
			if info.Reused {
				reused++
			}
		}}
		req, err := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace),
			http.MethodPost, fs.url, strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"getblockcount"}`, i)))
		require.NoError(t, err)
		resp, err := c.Do(req)
		require.NoError(t, err)
		raw, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		require.JSONEq(t, fmt.Sprintf(`{"id":%d,"jsonrpc":"2.0","result":%s}`, i, count), string(raw))
	}
	require.Equal(t, 199, reused)

	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Go(func() {
			for i := range 50 {
				id := w*1000 + i
				resp, err := c.Post(fs.url, "application/json",
					strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"getblockhash","params":[%d]}`, id, i%3)))
				if err != nil {
					errs <- err
					return
				}
				raw, err := io.ReadAll(resp.Body)
				_ = resp.Body.Close()
				if err != nil || !bytes.HasPrefix(raw, fmt.Appendf(nil, `{"id":%d,"jsonrpc":"2.0","result":"0x`, id)) {
					errs <- fmt.Errorf("answer %q (%v)", raw, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	served, handedOff := fs.counts()
	require.Equal(t, uint64(200+8*50), served)
	require.Zero(t, handedOff)
}

// rawConn is a client connection writing bytes as they are given.
type rawConn struct {
	net.Conn
	r *bufio.Reader
}

func dialRaw(t *testing.T, addr string) *rawConn {
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return &rawConn{Conn: c, r: bufio.NewReader(c)}
}

func (c *rawConn) send(t *testing.T, s string) {
	_, err := io.WriteString(c, s)
	require.NoError(t, err)
}

func (c *rawConn) response(t *testing.T) (*http.Response, string) {
	require.NoError(t, c.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err := http.ReadResponse(c.r, nil)
	require.NoError(t, err)
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(raw)
}

// closed waits (at most 10 s) for the server to close the connection.
func (c *rawConn) closed(t *testing.T) {
	require.NoError(t, c.SetReadDeadline(time.Now().Add(10*time.Second)))
	_, err := c.r.ReadByte()
	require.ErrorIs(t, err, io.EOF)
}

func post(body string, extra string) string {
	return fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\n%sContent-Length: %d\r\n\r\n%s", extra, len(body), body)
}

const blockCount = `{"jsonrpc":"2.0","id":1,"method":"getblockcount"}`

// TestFrontLimitsAndClose: a body exactly at MaxRequestBodyBytes is served
// by the front, one byte more gets net/http's answer (and the connection
// closed); Connection: close is answered so and closed; pipelined
// requests are answered in order.
func TestFrontLimitsAndClose(t *testing.T) {
	n := node(t, "testblocks")
	fs := startFront(t, n, func(s *Server) { s.cfg.MaxRequestBodyBytes = 128 })
	at := blockCount + strings.Repeat(" ", 128-len(blockCount))
	c := dialRaw(t, fs.addr)
	c.send(t, post(at, ""))
	resp, body := c.response(t)
	require.Contains(t, body, `"result":`)
	require.False(t, resp.Close)
	served, handedOff := fs.counts()
	require.Equal(t, uint64(1), served)
	require.Zero(t, handedOff)

	c.send(t, post(at+" ", ""))
	resp, body = c.response(t)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, body, "request body too large")
	c.closed(t)
	_, handedOff = fs.counts()
	require.Equal(t, uint64(1), handedOff)

	// A request in small pieces (the header's end split too), then one
	// whose body comes later.
	c = dialRaw(t, fs.addr)
	full := post(blockCount, "")
	for i := 0; i < len(full); i += 7 {
		c.send(t, full[i:min(i+7, len(full))]) // separate segments (TCP_NODELAY)
	}
	_, body = c.response(t)
	require.Contains(t, body, `"result":`)
	c.send(t, full[:len(full)-len(blockCount)])
	c.send(t, blockCount)
	_, body = c.response(t)
	require.Contains(t, body, `"result":`)

	// Connection: close, and two pipelined requests before it.
	c = dialRaw(t, fs.addr)
	c.send(t, post(blockCount, "")+post(blockCount, "Connection: keep-alive\r\n")+post(blockCount, "Connection: close\r\n"))
	for i := range 3 {
		resp, body = c.response(t)
		require.Contains(t, body, `"result":`)
		require.Equal(t, i == 2, resp.Close, i)
	}
	c.closed(t)
	served, handedOff = fs.counts()
	require.Equal(t, uint64(6), served)
	require.Equal(t, uint64(1), handedOff)
}

// TestFrontFallback: requests of other shapes are answered by net/http
// as before, on the same connection.
func TestFrontFallback(t *testing.T) {
	n := node(t, "testblocks")
	fs := startFront(t, n, func(s *Server) { s.cfg.EnableCORSWorkaround = true })
	count := fmt.Sprint(n.chain.BlockHeight() + 1)

	// HTTP/1.0, answered as HTTP/1.0 and closed.
	c := dialRaw(t, fs.addr)
	c.send(t, fmt.Sprintf("POST / HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s", len(blockCount), blockCount))
	resp, body := c.response(t)
	require.Equal(t, 0, resp.ProtoMinor)
	require.JSONEq(t, `{"id":1,"jsonrpc":"2.0","result":`+count+`}`, body)
	c.closed(t)

	// A chunked body, then a plain request on the same connection (net/http's now).
	c = dialRaw(t, fs.addr)
	c.send(t, fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n",
		len(blockCount), blockCount))
	_, body = c.response(t)
	require.JSONEq(t, `{"id":1,"jsonrpc":"2.0","result":`+count+`}`, body)
	c.send(t, post(blockCount, ""))
	_, body = c.response(t)
	require.JSONEq(t, `{"id":1,"jsonrpc":"2.0","result":`+count+`}`, body)

	// Expect: 100-continue (Go's client sends it for big bodies when asked).
	c = dialRaw(t, fs.addr)
	c.send(t, post(blockCount, "Expect: 100-continue\r\n"))
	resp, _ = c.response(t)
	require.Equal(t, http.StatusContinue, resp.StatusCode)
	_, body = c.response(t)
	require.JSONEq(t, `{"id":1,"jsonrpc":"2.0","result":`+count+`}`, body)

	// GET and OPTIONS as before (each on a new connection).
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := fresh.Get(fs.url)
	require.NoError(t, err)
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Contains(t, string(raw), "invalid method 'GET', please retry with 'POST'")
	req, err := http.NewRequest(http.MethodOptions, fs.url, nil)
	require.NoError(t, err)
	resp, err = fresh.Do(req)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, "GET, POST", resp.Header.Get("Access-Control-Allow-Methods"))
	require.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"))

	// Malformed: net/http's 400.
	c = dialRaw(t, fs.addr)
	c.send(t, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n")
	resp, _ = c.response(t)
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)

	served, handedOff := fs.counts()
	require.Zero(t, served)
	require.Equal(t, uint64(6), handedOff) // 1.0, chunked, Expect, GET, OPTIONS, malformed
}

// TestFrontWebSocket: /ws subscriptions work over the front's port.
func TestFrontWebSocket(t *testing.T) {
	base := newWSNode(t, "testblocks", nil)
	cfg := base.srv.cfg
	cfg.Addresses = []string{"127.0.0.1:0"}
	s, err := New(cfg, base.chain)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	wait, err := s.Start(ctx)
	require.NoError(t, err)
	defer func() { cancel(); require.NoError(t, wait()) }()
	conn, resp, err := websocket.DefaultDialer.Dial("ws://"+s.Addrs()[0].String()+"/ws", nil)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	c := &wsClientConn{t: t, conn: conn}
	defer conn.Close()
	c.subscribe("block_added")
	base.addBlocks(t, 1, 1)
	msg := c.next()
	require.Equal(t, "block_added", msg.Method)
}

// TestFrontHeaderTimeout: a header that does not complete within the
// header timeout closes the connection, for a first request (from the
// accept) and a later one (from its first byte); so does a connection
// that sends nothing.
func TestFrontHeaderTimeout(t *testing.T) {
	n := node(t, "testblocks")
	fs := startFront(t, n, func(s *Server) { s.headerTimeout = 200 * time.Millisecond })
	silent := dialRaw(t, fs.addr)
	c := dialRaw(t, fs.addr)
	c.send(t, "POST / HTTP/1.1\r\nHost: x\r\n")
	c.closed(t)
	silent.closed(t)

	c = dialRaw(t, fs.addr)
	c.send(t, post(blockCount, ""))
	_, body := c.response(t)
	require.Contains(t, body, `"result":`)
	c.send(t, "POST / HTTP/1.1\r\n")
	c.closed(t)
	served, handedOff := fs.counts()
	require.Equal(t, uint64(1), served)
	require.Zero(t, handedOff)
}

// TestFrontShutdown: an idle connection is closed at once, a busy one
// gets its answer (with Connection: close) and is closed; one still busy
// when the shutdown timeout ends is closed and the serve says so.
func TestFrontShutdown(t *testing.T) {
	base := node(t, "testblocks")
	txB64 := encodeB64(t, firstTx(t, base.chain))
	for _, finish := range []bool{true, false} {
		entered, release := make(chan struct{}, 1), make(chan struct{})
		fs := startFront(t, base, func(s *Server) {
			s.cfg.ShutdownTimeout = time.Hour
			if !finish {
				s.cfg.ShutdownTimeout = 100 * time.Millisecond
			}
			s.cfg.SubmitTx = func(context.Context, *transaction.Transaction) error {
				entered <- struct{}{}
				<-release
				return nil
			}
		})
		idle := dialRaw(t, fs.addr)
		idle.send(t, post(blockCount, ""))
		idle.response(t)
		busy := dialRaw(t, fs.addr)
		busy.send(t, post(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"sendrawtransaction","params":[%q]}`, txB64), ""))
		<-entered
		stopped := make(chan error, 1)
		go func() { stopped <- fs.stop() }()
		idle.closed(t)
		if finish {
			close(release)
			resp, body := busy.response(t)
			require.True(t, resp.Close)
			require.Contains(t, body, `"result":{"hash":`)
			busy.closed(t)
			require.NoError(t, <-stopped)
		} else {
			busy.closed(t)
			require.True(t, errors.Is(<-stopped, context.DeadlineExceeded))
			close(release)
		}
	}
}

// TestFrontHeaderInPieces: over a synchronous pipe every piece is a read
// of its own; a header split anywhere (its end too) is still answered.
func TestFrontHeaderInPieces(t *testing.T) {
	n := node(t, "testblocks")
	f := newFront(n.srv, time.Minute)
	full := post(blockCount, "")
	for _, size := range []int{1, 3, 7, 64} {
		client, server := net.Pipe()
		fc := &frontConn{f: f, c: server, ln: &frontListener{done: make(chan struct{})}, idle: true}
		require.True(t, f.track(fc))
		go fc.serve()
		c := &rawConn{Conn: client, r: bufio.NewReader(client)}
		require.NoError(t, client.SetDeadline(time.Now().Add(10*time.Second)))
		go func() {
			for i := 0; i < len(full); i += size {
				if _, err := io.WriteString(client, full[i:min(i+size, len(full))]); err != nil {
					return
				}
			}
		}()
		_, body := c.response(t)
		require.Contains(t, body, `"result":`, size)
		require.NoError(t, client.Close())
	}
	require.Equal(t, uint64(4), f.served.Load())
}
