package memnet

import (
	"io"
	"net"
	"net/netip"
	"os"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"
)

// chunk is one write's bytes with the time they may be read.
type chunk struct {
	b  []byte
	at time.Time
}

// stream is one direction of a connection: a bounded buffer of chunks.
type stream struct {
	n        *Network
	from, to netip.Addr

	mu      sync.Mutex
	chunks  []chunk
	size    int           // buffered bytes
	busy    time.Time     // the link is sending until then (bandwidth)
	last    time.Time     // delivery time of the last chunk (order)
	wclosed bool          // the writing end closed: EOF once drained
	rclosed bool          // the reading end closed: writes fail
	reset   bool          // cut: reads fail too
	changed chan struct{} // closed and replaced on every change
}

func newStream(n *Network, from, to netip.Addr) *stream {
	return &stream{n: n, from: from, to: to, changed: make(chan struct{})}
}

// wakeLocked wakes every waiter of the stream.
func (s *stream) wakeLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// read reads what is due, waiting for it (dl: the reader's deadline).
func (s *stream) read(b []byte, dl *deadline) (int, error) {
	var timer clock.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		s.mu.Lock()
		switch {
		case s.rclosed:
			s.mu.Unlock()
			return 0, net.ErrClosed
		case s.reset:
			s.mu.Unlock()
			return 0, ErrReset
		case dl.passed():
			s.mu.Unlock()
			return 0, os.ErrDeadlineExceeded
		}
		var due <-chan time.Time
		if len(s.chunks) > 0 && s.n.flowing(s.from, s.to) {
			head := &s.chunks[0]
			now := s.n.clock.Now()
			if !head.at.After(now) {
				k := copy(b, head.b)
				if head.b = head.b[k:]; len(head.b) == 0 {
					s.chunks[0] = chunk{}
					s.chunks = s.chunks[1:]
				}
				s.size -= k
				s.wakeLocked()
				s.mu.Unlock()
				return k, nil
			}
			if timer == nil {
				timer = s.n.clock.NewTimer(head.at.Sub(now))
			} else {
				timer.Reset(head.at.Sub(now))
			}
			due = timer.C()
		} else if len(s.chunks) == 0 && s.wclosed {
			s.mu.Unlock()
			return 0, io.EOF
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-due:
		case <-dl.wait():
		}
	}
}

// write buffers b, waiting for room (dl: the writer's deadline).
func (s *stream) write(b []byte, dl *deadline) (int, error) {
	done := 0
	defer func() { s.n.countSent(s.from, done) }()
	for len(b) > 0 {
		s.mu.Lock()
		switch {
		case s.wclosed:
			s.mu.Unlock()
			return done, net.ErrClosed
		case s.rclosed || s.reset:
			s.mu.Unlock()
			return done, ErrReset
		case dl.passed():
			s.mu.Unlock()
			return done, os.ErrDeadlineExceeded
		}
		if room := s.n.bufSz - s.size; room > 0 {
			k := min(room, len(b))
			at, busy, _ := s.n.delay(s.from, s.to, s.n.clock.Now(), s.busy, s.last, k)
			s.busy, s.last = busy, at
			s.chunks = append(s.chunks, chunk{b: append([]byte(nil), b[:k]...), at: at})
			s.size += k
			b, done = b[k:], done+k
			s.wakeLocked()
			s.mu.Unlock()
			continue
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-dl.wait():
		}
	}
	return done, nil
}

// conn is one end of a connection.
type conn struct {
	n             *Network
	local, remote netip.AddrPort
	in, out       *stream
	rdl, wdl      deadline
	once          sync.Once
}

func (c *conn) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	return c.in.read(b, &c.rdl)
}

func (c *conn) Write(b []byte) (int, error) { return c.out.write(b, &c.wdl) }

// Close closes this end: the other reads what was written, then EOF;
// its writes fail.
func (c *conn) Close() error {
	err := net.ErrClosed
	c.once.Do(func() {
		err = nil
		c.n.mu.Lock()
		delete(c.n.conns, c)
		c.n.mu.Unlock()
		for _, s := range []*stream{c.in, c.out} {
			s.mu.Lock()
			if s == c.in {
				s.rclosed = true
			} else {
				s.wclosed = true
			}
			s.wakeLocked()
			s.mu.Unlock()
		}
	})
	return err
}

// reset cuts the connection: both ends fail at once.
func (c *conn) reset() {
	for _, s := range []*stream{c.in, c.out} {
		s.mu.Lock()
		s.reset = true
		s.wakeLocked()
		s.mu.Unlock()
	}
	_ = c.Close()
}

func (c *conn) LocalAddr() net.Addr  { return Addr(c.local) }
func (c *conn) RemoteAddr() net.Addr { return Addr(c.remote) }

func (c *conn) SetDeadline(t time.Time) error {
	c.rdl.set(t)
	c.wdl.set(t)
	return nil
}

func (c *conn) SetReadDeadline(t time.Time) error  { c.rdl.set(t); return nil }
func (c *conn) SetWriteDeadline(t time.Time) error { c.wdl.set(t); return nil }

// deadline is a wall-clock deadline (the net.Conn contract): its channel
// is closed when it passes. Setting it closes the current channel, so
// waiters look again at the new deadline.
type deadline struct {
	mu     sync.Mutex
	t      time.Time
	timer  *time.Timer
	ch     chan struct{}
	closed bool // ch is closed
}

func (d *deadline) set(t time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	if d.ch != nil && !d.closed {
		close(d.ch)
	}
	d.t, d.ch, d.closed = t, make(chan struct{}), false
	if t.IsZero() {
		return
	}
	ch := d.ch
	d.timer = time.AfterFunc(time.Until(t), func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.ch == ch && !d.closed {
			close(ch)
			d.closed = true
		}
	})
}

// wait is closed when the deadline passes or changes (nil: none set).
func (d *deadline) wait() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ch
}

func (d *deadline) passed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.t.IsZero() && !time.Now().Before(d.t)
}
