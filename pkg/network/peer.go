package network

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	stdio "io"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
)

// queueKind selects one of a peer's egress queues.
type queueKind int

// Egress queues, drained in this order of priority.
const (
	// qHigh: consensus extensibles and their getdata, getaddr, handshake.
	qHigh queueKind = iota
	// qDirect: replies to this peer's requests and our requests to it.
	qDirect
	// qBroadcast: inventories and payloads offered to many peers.
	qBroadcast
	numQueues
)

// Queue capacities in messages. The direct queue is small because replies
// (blocks by index) are produced as the writer drains it: a peer asking
// for 500 big blocks holds at most this many in memory.
var queueCap = [numQueues]int{qHigh: 16, qDirect: 16, qBroadcast: 64}

const (
	// readBufSize is the per-peer read buffer.
	readBufSize = 64 << 10
	// maxWriteBatch stops gathering queued messages into one Write.
	maxWriteBatch = 256 << 10
	// maxKeptWriteBuf: a larger write buffer (after a big block) is
	// released rather than kept for the next batch.
	maxKeptWriteBuf = 4 << 20
	// txQueueCap is the per-peer backlog of transactions for its worker.
	txQueueCap = 64
)

// handshake stages, a bit set.
const (
	stageVersionReceived = 1 << iota
	stageVerackReceived
)

// peer is one TCP connection. Four goroutines serve it, all owned by the
// server's WaitGroup: readLoop decodes frames, handleLoop handles them,
// txLoop hands transactions to the sink, writeLoop drains the egress
// queues. disconnect stops them all (once) and closes the connection.
type peer struct {
	s       *Server
	id      uint64 // unique in the server's lifetime, from 1
	conn    net.Conn
	remote  netip.AddrPort
	dialed  string // the address we dialled (seed name kept); "" for inbound
	created time.Time

	done      chan struct{}
	closeOnce sync.Once
	err       error // why it was disconnected; set before done is closed
	// evicted: its handshake slot was given to a newer connection
	// (guarded by the server's mu).
	evicted bool

	queues   [numQueues]chan *message.Message
	incoming chan *message.Message
	txs      chan *transaction.Transaction

	handshaked atomic.Bool // set under the server's mu (Server.promote)
	heard      atomic.Bool // the peer sent a byte
	compress   atomic.Bool // the peer accepts compressed messages
	writing    atomic.Bool // a Write is in progress (the watchdog armed)
	height     atomic.Uint32

	mu struct {
		sync.Mutex
		stage       int
		version     *payload.Version
		pingSent    time.Time // zero: no ping outstanding
		lastPing    time.Time
		getAddrSent int // outstanding getaddr requests
		// handshake timers (first byte, whole handshake); nil once
		// stopped
		timers []clock.Timer
	}
}

func newPeer(s *Server, conn net.Conn, dialed string) *peer {
	p := &peer{s: s, id: s.peerIDs.Add(1), conn: conn, dialed: dialed, created: s.clock.Now(),
		done:     make(chan struct{}),
		incoming: make(chan *message.Message, 1),
		txs:      make(chan *transaction.Transaction, txQueueCap),
	}
	if a, ok := addrPortOf(conn.RemoteAddr()); ok {
		p.remote = a
	}
	for i := range p.queues {
		p.queues[i] = make(chan *message.Message, queueCap[i])
	}
	p.compress.Store(true)
	return p
}

// String names the peer in logs.
func (p *peer) String() string { return p.conn.RemoteAddr().String() }

// start launches the peer's goroutines (the caller added 4 to the
// server's WaitGroup). The peer has FirstByteTimeout to send a first
// byte and HandshakeTimeout to finish the handshake, both timers of the
// server's clock that disconnect it.
func (p *peer) start() {
	if tc, ok := p.conn.(*net.TCPConn); ok {
		// Both are hints: a failure leaves a working, slower connection.
		_ = tc.SetNoDelay(true)
	}
	c, cfg := p.s.clock, &p.s.cfg
	fb := c.AfterFunc(cfg.FirstByteTimeout, func() {
		if !p.heard.Load() {
			p.disconnect(fmt.Errorf("%w: no byte in %v", ErrHandshakeTimeout, cfg.FirstByteTimeout))
		}
	})
	hs := c.AfterFunc(cfg.HandshakeTimeout, func() {
		if !p.handshaked.Load() {
			p.disconnect(ErrHandshakeTimeout)
		}
	})
	p.mu.Lock()
	p.mu.timers = []clock.Timer{fb, hs}
	p.mu.Unlock()
	if p.gone() { // disconnected before the timers were set
		p.stopTimers()
	}
	go func() { defer p.s.wg.Done(); p.readLoop() }()
	go func() { defer p.s.wg.Done(); p.handleLoop() }()
	go func() { defer p.s.wg.Done(); p.txLoop() }()
	go func() { defer p.s.wg.Done(); p.writeLoop() }()
}

// disconnect stops the peer once; later calls do nothing.
func (p *peer) disconnect(err error) {
	p.closeOnce.Do(func() {
		p.err = err
		close(p.done)
		p.stopTimers()
		if cerr := p.conn.Close(); cerr != nil && !errors.Is(cerr, net.ErrClosed) {
			p.err = errors.Join(err, cerr)
		}
		p.s.unregister(p)
	})
}

// stopTimers stops the handshake timers (handshake done or peer gone).
func (p *peer) stopTimers() {
	p.mu.Lock()
	ts := p.mu.timers
	p.mu.timers = nil
	p.mu.Unlock()
	for _, t := range ts {
		t.Stop()
	}
}

// gone reports whether the peer was disconnected.
func (p *peer) gone() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// readLoop decodes frames and passes them to handleLoop. Unknown commands
// are dropped (the frame was consumed, the stream is in step); any other
// error ends the connection, as the reference does.
func (p *peer) readLoop() {
	r := bufio.NewReaderSize(&firstByteReader{r: newAckReader(p.conn), p: p}, readBufSize)
	for {
		m, err := message.ReadWith(r, message.Options{StateRootInHeader: p.s.cfg.StateRootInHeader,
			KnownBlock: p.s.knownBlock})
		if errors.Is(err, message.ErrUnknownCommand) || emptyAddr(m, err) {
			continue
		}
		if err != nil {
			p.disconnect(p.readError(err))
			return
		}
		p.s.counters.recv.count(m, m.Size(true))
		select {
		case p.incoming <- m:
		case <-p.done:
			return
		}
	}
}

// emptyAddr recognises an addr with no address, which the reference's
// decoder refuses but neo-go sends when it knows no peer to share: it is
// dropped rather than the peer.
func emptyAddr(m *message.Message, err error) bool {
	return m != nil && m.Command == message.CmdAddr && errors.Is(err, message.ErrBadPayload) &&
		len(m.RawPayload()) == 1 && m.RawPayload()[0] == 0
}

// readError classifies a read failure for the log.
func (p *peer) readError(err error) error {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout() && !p.handshaked.Load():
		return ErrHandshakeTimeout
	case errors.Is(err, stdio.EOF), errors.Is(err, net.ErrClosed):
		return fmt.Errorf("%w: connection closed: %w", errGone, err)
	case errors.Is(err, message.ErrPayloadTooLarge), errors.Is(err, message.ErrBadPayload),
		errors.Is(err, message.ErrEmptyPayload), errors.Is(err, message.ErrBadCompression):
		return fmt.Errorf("%w: %w", ErrProtocol, err)
	}
	return err
}

// handleLoop handles the peer's messages in order.
func (p *peer) handleLoop() {
	var tol tolerance
	for {
		select {
		case <-p.done:
			return
		case m := <-p.incoming:
			err := p.s.handle(p, m)
			if errors.Is(err, errTolerated) {
				if tol.allow(p.s.clock.Now(), p.s.toleratedErrors(), p.s.cfg.TimePerBlock) {
					continue
				}
				err = fmt.Errorf("%w: more than %d within %s", err, p.s.toleratedErrors(), p.s.cfg.TimePerBlock)
			}
			if err != nil {
				p.disconnect(fmt.Errorf("%s: %w", m.Command, err))
				return
			}
		}
	}
}

// txLoop hands the peer's transactions to the sink, so a peer flooding
// transactions queues behind itself, not behind other peers' blocks.
func (p *peer) txLoop() {
	for {
		select {
		case <-p.done:
			return
		case tx := <-p.txs:
			p.s.cfg.OnTransaction(p.id, tx)
		}
	}
}

// writeLoop sends queued messages, high priority first, gathering what is
// pending into one Write. A Write that takes longer than the send timeout
// (a peer that does not read) is cut by a clock timer closing the
// connection.
func (p *peer) writeLoop() {
	var buf []byte
	timeout := p.s.cfg.sendTimeout()
	watchdog := p.s.clock.AfterFunc(timeout, func() {
		p.disconnect(fmt.Errorf("%w: write blocked for %v", errGone, timeout))
	})
	watchdog.Stop()
	for {
		m := p.next()
		if m == nil {
			select {
			case <-p.done:
				return
			case m = <-p.queues[qHigh]:
			case m = <-p.queues[qDirect]:
			case m = <-p.queues[qBroadcast]:
			}
		}
		compress := p.compress.Load()
		buf = m.AppendBinary(buf[:0], compress)
		p.s.counters.sent.count(m, len(buf))
		for len(buf) < maxWriteBatch {
			if m = p.next(); m == nil {
				break
			}
			k := len(buf)
			buf = m.AppendBinary(buf, compress)
			p.s.counters.sent.count(m, len(buf)-k)
		}
		p.writing.Store(true)
		watchdog.Reset(timeout)
		_, err := p.conn.Write(buf)
		stopped := watchdog.Stop()
		p.writing.Store(false)
		if !stopped {
			return // timed out: disconnected by the watchdog
		}
		if err != nil {
			p.disconnect(fmt.Errorf("%w: write: %w", errGone, err))
			return
		}
		if cap(buf) > maxKeptWriteBuf {
			buf = nil
		}
	}
}

// next takes a pending message without waiting, by queue priority.
func (p *peer) next() *message.Message {
	for _, q := range p.queues {
		select {
		case m := <-q:
			return m
		default:
		}
	}
	return nil
}

// enqueue puts m on queue q. It waits at most until ctx is done (errBusy)
// and fails at once with errGone on a disconnected peer and with
// errStateMismatch for a protocol message before the handshake.
func (p *peer) enqueue(ctx context.Context, q queueKind, m *message.Message) error {
	if !p.handshaked.Load() && m.Command != message.CmdVersion && m.Command != message.CmdVerack {
		return errStateMismatch
	}
	if err := p.tryEnqueue(q, m); !errors.Is(err, errBusy) {
		return err
	}
	select {
	case p.queues[q] <- m:
		return nil
	case <-p.done:
		return errGone
	case <-ctx.Done():
		return fmt.Errorf("%w: %s queue full: %w", errBusy, m.Command, context.Cause(ctx))
	}
}

// tryEnqueue puts m on queue q if there is room, without waiting.
func (p *peer) tryEnqueue(q queueKind, m *message.Message) error {
	if !p.handshaked.Load() && m.Command != message.CmdVersion && m.Command != message.CmdVerack {
		return errStateMismatch
	}
	if p.gone() {
		return errGone
	}
	select {
	case p.queues[q] <- m:
		return nil
	default:
		return fmt.Errorf("%w: %s queue full", errBusy, m.Command)
	}
}

// send enqueues m on q with the send timeout; a peer that cannot take it
// in time is disconnected (ruled out), as is one that is gone. The timer
// is armed only when the queue is full (most sends find room: no context
// nor timer per message).
func (p *peer) send(q queueKind, m *message.Message) error {
	if err := p.tryEnqueue(q, m); !errors.Is(err, errBusy) {
		return err
	}
	ctx, cancel := p.s.withTimeout(context.Background(), p.s.cfg.sendTimeout())
	defer cancel()
	err := p.enqueue(ctx, q, m)
	if errors.Is(err, errBusy) {
		p.disconnect(err)
	}
	return err
}

// sendNew builds a message and sends it (see send).
func (p *peer) sendNew(q queueKind, cmd message.Command, pl io.Serializable) error {
	m, err := message.New(cmd, pl)
	if err != nil {
		return err
	}
	return p.send(q, m)
}

// version returns the peer's version payload (nil before it arrived).
func (p *peer) version() *payload.Version {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mu.version
}

// updateHeight raises the peer's known height.
func (p *peer) updateHeight(h uint32) {
	for {
		old := p.height.Load()
		if h <= old || p.height.CompareAndSwap(old, h) {
			return
		}
	}
}
