package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"go.uber.org/zap"
)

// The lean HTTP/1.1 front of the plain RPC listeners.
//
// net/http spends more CPU around a small JSON-RPC call than the call
// itself (MIME parsing into Header maps, a Request with its URL and
// context, the response's header map and chunk writer, ~5 KB of garbage
// a request). The front serves the common shape itself: kept-alive
// HTTP/1.1 POSTs with a Content-Length (parseLean), read into the
// connection's buffer, answered by the same JSON-RPC dispatch as
// ServeHTTP with one write. At the first request of another shape (GET,
// /ws upgrades, OPTIONS, chunked bodies, Expect, HTTP/1.0 or /2, oversized
// or malformed input) it hands the connection, with the bytes it has
// read, to the http.Server, which then owns it for good.
//
// The front keeps the http.Server's timeouts: the first request's header
// must arrive within the header timeout from the accept, a later one's
// within it from its first byte; no idle, body or write timeout (the
// http.Server has none set). Its connections are closed on shutdown:
// idle ones at once, busy ones after their answer or when the shutdown
// context ends.

const (
	// frontReadSize is a connection's read buffer (net/http's bufio
	// size); it grows for a bigger request and shrinks back after it.
	frontReadSize = 4 << 10
)

// front owns the connections of the plain listeners.
type front struct {
	s             *Server
	headerTimeout time.Duration // the http.Server's ReadHeaderTimeout

	mu      sync.Mutex
	conns   map[*frontConn]struct{}
	closing bool
	emptied chan struct{} // closed when closing and conns is empty
	lns     []*frontListener

	accepts sync.WaitGroup // the accept loops

	// served and handedOff count the requests answered by the front and
	// the connections given to net/http.
	served, handedOff atomic.Uint64
}

func newFront(s *Server, headerTimeout time.Duration) *front {
	return &front{s: s, headerTimeout: headerTimeout, conns: map[*frontConn]struct{}{},
		emptied: make(chan struct{})}
}

// listener wraps l: the front accepts its connections, and the returned
// listener's Accept yields those handed to net/http.
func (f *front) listener(l net.Listener) net.Listener {
	fl := &frontListener{Listener: l, handoff: make(chan net.Conn), done: make(chan struct{})}
	f.mu.Lock()
	f.lns = append(f.lns, fl)
	f.mu.Unlock()
	f.accepts.Go(func() { f.acceptLoop(fl) })
	return fl
}

// frontListener is what the http.Server serves: the connections the
// front hands over.
type frontListener struct {
	net.Listener
	handoff chan net.Conn
	done    chan struct{} // closed by Close or a failed Accept
	once    sync.Once
	err     error // why done was closed (set before)
}

func (l *frontListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.handoff:
		return c, nil
	case <-l.done:
		return nil, l.err
	}
}

func (l *frontListener) Close() error {
	err := l.Listener.Close()
	l.stop(net.ErrClosed)
	return err
}

func (l *frontListener) stop(err error) {
	l.once.Do(func() {
		l.err = err
		close(l.done)
	})
}

// acceptLoop accepts l's connections until l is closed, backing off on
// temporary errors as http.Server.Serve does.
func (f *front) acceptLoop(l *frontListener) {
	var delay time.Duration
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				f.s.log.Warn("RPC accept failed; retrying", zap.Error(err), zap.Duration("delay", delay))
				select {
				case <-time.After(delay):
					continue
				case <-l.done:
				}
			}
			l.stop(fmt.Errorf("rpc: accept: %w", err))
			return
		}
		delay = 0
		fc := &frontConn{f: f, c: c, ln: l, idle: true}
		if !f.track(fc) {
			_ = c.Close() // shutting down
			continue
		}
		go fc.serve()
	}
}

// track registers a new connection; false once the front is closing.
func (f *front) track(fc *frontConn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closing {
		return false
	}
	f.conns[fc] = struct{}{}
	return true
}

func (f *front) untrack(fc *frontConn) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.conns, fc)
	if f.closing && len(f.conns) == 0 {
		f.closeEmptiedLocked()
	}
}

func (f *front) closeEmptiedLocked() {
	select {
	case <-f.emptied:
	default:
		close(f.emptied)
	}
}

// setIdle marks fc idle (waiting for a request) or busy; it reports false
// when fc should close instead of waiting (the front is closing).
func (f *front) setIdle(fc *frontConn, idle bool) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	fc.idle = idle
	return !(idle && f.closing)
}

// isClosing reports whether the front is shutting down.
func (f *front) isClosing() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closing
}

// closeIdle starts the shutdown: no new connection is taken, idle ones
// are closed, busy ones close after their answer.
func (f *front) closeIdle() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closing = true
	for fc := range f.conns {
		if fc.idle {
			_ = fc.c.Close() // its loop sees the error and leaves
		}
	}
	if len(f.conns) == 0 {
		f.closeEmptiedLocked()
	}
}

// shutdown closes the listeners and waits for the accept loops, then
// for the busy connections until ctx ends, when it closes them (their
// goroutines leave when the running call returns, as net/http's do after
// http.Server.Close).
func (f *front) shutdown(ctx context.Context) error {
	f.closeIdle()
	f.mu.Lock()
	lns := f.lns
	f.mu.Unlock()
	for _, l := range lns {
		_ = l.Close() // the http.Server's Shutdown closed it already
	}
	f.accepts.Wait()
	f.closeIdle() // any taken by a loop before it saw the close
	select {
	case <-f.emptied:
		return nil
	case <-ctx.Done():
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for fc := range f.conns {
		_ = fc.c.Close()
	}
	return fmt.Errorf("rpc: closing busy connections: %w", ctx.Err())
}
