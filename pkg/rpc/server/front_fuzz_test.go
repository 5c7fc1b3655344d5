package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pipeListener hands in-memory connections to an http.Server.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

// echoServer is a net/http server answering what it parsed of a request:
// its method, Content-Length, Close, then its body.
func echoServer(t testing.TB) *pipeListener {
	l := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %d %v %v|", r.Method, r.ContentLength, r.Close, err)
		_, _ = w.Write(body)
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return l
}

// exchange sends req to the server and returns its answer's status and
// body.
func (l *pipeListener) exchange(req []byte) (int, []byte, error) {
	client, server := net.Pipe()
	defer client.Close()
	l.conns <- server
	if err := client.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return 0, nil, err
	}
	go func() { _, _ = client.Write(req) }()
	resp, err := http.ReadResponse(bufio.NewReader(client), nil)
	if err != nil {
		return 0, nil, err
	}
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// FuzzParseLean: the front's parser never panics, stays within its
// limits, and what it serves itself net/http parses the same way (method,
// Content-Length, Connection: close, the body's bytes).
func FuzzParseLean(f *testing.F) {
	for _, s := range []string{
		"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
		"POST /a?b=c HTTP/1.1\r\nhost: 127.0.0.1:1\r\ncontent-length:  5 \r\nConnection: close\r\n\r\n[1,2]",
		"POST / HTTP/1.1\r\nHost: x\r\nUser-Agent: fasthttp\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n",
		"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
		"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx",
		"POST / HTTP/1.0\r\nContent-Length: 1\r\n\r\nx",
		"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n",
		"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
		"POST / HTTP/1.1\r\nHost: x\r\nX: a\x00b\r\nContent-Length: 0\r\n\r\n",
		"POST / HTTP/1.1\r\nHost: x\r\n Folded: y\r\nContent-Length: 0\r\n\r\n",
		"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n",
		"POST / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nContent-Length: 3\r\n\r\nabcPOST / HTTP/1.1\r\n",
	} {
		f.Add([]byte(s))
	}
	const headerLimit, bodyLimit = 1024, 256
	srv := echoServer(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		req, st := parseLean(b, headerLimit, bodyLimit)
		require.Equal(t, st != parseMore, decidable(b, 0, headerLimit))
		// Read in two parts, the first undecided: the same answer.
		if k := len(b) / 2; !decidable(b[:k], 0, headerLimit) {
			require.Equal(t, st != parseMore, decidable(b, k, headerLimit))
		}
		switch st {
		case parseMore:
			require.Less(t, len(b), headerLimit)
			return
		case parseFallback:
			return
		}
		require.LessOrEqual(t, req.headerLen, headerLimit)
		require.LessOrEqual(t, req.headerLen, len(b))
		require.LessOrEqual(t, req.bodyLen, bodyLimit)
		msg := append([]byte(nil), b[:req.headerLen]...)
		body := b[req.headerLen:min(len(b), req.headerLen+req.bodyLen)]
		body = append(body[:len(body):len(body)], bytes.Repeat([]byte("z"), req.bodyLen-len(body))...)
		msg = append(msg, body...)
		status, got, err := srv.exchange(msg)
		require.NoError(t, err, "%q", msg)
		require.Equal(t, http.StatusOK, status, "%q: %s", msg, got)
		want := fmt.Appendf(nil, "POST %d %v <nil>|%s", req.bodyLen, req.close, body)
		require.Equal(t, string(want), string(got), "%q", msg)
	})
}
