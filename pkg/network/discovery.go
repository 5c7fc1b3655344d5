package network

import (
	"errors"
	"math/rand/v2"
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/network/capability"
)

// addrState is what the book knows of an address.
type addrState int

const (
	// stateUnconnected: known, may be dialled (after retryAt).
	stateUnconnected addrState = iota
	// stateDialing: a dial or a connection from it is in progress.
	stateDialing
	// stateConnected: a handshaked peer is behind it.
	stateConnected
	// stateBad: a dial or a send failed; retried after retryAt.
	stateBad
	// stateSelf: it is us; never dialled again.
	stateSelf
)

const (
	// maxBookSize bounds the addresses learnt from peers.
	maxBookSize = 1000
	// maxRetryDelay caps the back-off of a failing address.
	maxRetryDelay = 10 * time.Minute
)

// addrEntry is one known address. The key is the address as given (a
// seed keeps its host name), so a name that resolves to a connected peer
// is recognised by alias, not re-dialled.
type addrEntry struct {
	state   addrState
	fails   int
	retryAt time.Time
	good    bool // handshaked once
	caps    capability.Capabilities
	seed    bool
}

// addrBook tracks known addresses: seeds, those learnt through addr
// messages and those of peers that connected to us.
type addrBook struct {
	cfg *Config
	own func(addr string) bool // our own listening address
	mu  sync.Mutex
	m   map[string]*addrEntry
	// alias maps a peer's listening address (IP:port) to the book key it
	// was dialled under, so "seed.example:10333" and "1.2.3.4:10333" are
	// one peer.
	alias map[string]string
}

func newAddrBook(cfg *Config, own func(string) bool) *addrBook {
	return &addrBook{cfg: cfg, own: own, m: make(map[string]*addrEntry), alias: make(map[string]string)}
}

// add registers addresses (seeds at start, or learnt from peers); our
// own listening addresses are recorded as ourselves, never dialled.
func (b *addrBook) add(addrs ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, a := range addrs {
		if _, ok := b.m[a]; ok {
			continue
		}
		if k, ok := b.alias[a]; ok && b.m[k] != nil {
			continue
		}
		if len(b.m) >= maxBookSize {
			return
		}
		e := &addrEntry{}
		if b.own(a) {
			e.state = stateSelf
		}
		b.m[a] = e
	}
}

// addSeeds registers the configured seeds.
func (b *addrBook) addSeeds(seeds []string) {
	b.add(seeds...)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, a := range seeds {
		b.m[a].seed = true
	}
}

// candidates picks up to n addresses to dial now and marks them dialing.
func (b *addrBook) candidates(n int) []string {
	now := b.cfg.Clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for a, e := range b.m {
		if (e.state == stateUnconnected || e.state == stateBad) && !now.Before(e.retryAt) {
			out = append(out, a)
		}
	}
	rand.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	out = out[:max(min(n, len(out)), 0)]
	for _, a := range out {
		b.m[a].state = stateDialing
	}
	return out
}

// dialFailed rules addr out at once; it is retried after a back-off that
// doubles with each failure.
func (b *addrBook) dialFailed(addr string, _ error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e, ok := b.m[addr]; ok {
		b.ruleOut(e)
	}
}

func (b *addrBook) ruleOut(e *addrEntry) {
	e.fails++
	e.state = stateBad
	d := b.cfg.ProtoTickInterval << min(e.fails, 16)
	e.retryAt = b.cfg.Clock.Now().Add(min(d, maxRetryDelay))
}

// listenAddr is the address a peer accepts connections on: its IP and
// announced TCP port ("" without one).
func listenAddr(p *peer) string {
	v := p.version()
	if v == nil || !p.remote.IsValid() {
		return ""
	}
	port := v.Capabilities.TCPPort()
	if port == 0 {
		return ""
	}
	return netip.AddrPortFrom(p.remote.Addr().Unmap(), port).String()
}

// handshaked records a peer that completed its handshake.
func (b *addrBook) handshaked(p *peer) {
	la := listenAddr(p)
	b.mu.Lock()
	defer b.mu.Unlock()
	key := p.dialed
	if key == "" {
		key = la
	}
	if key == "" {
		return
	}
	e := b.m[key]
	if e == nil {
		e = &addrEntry{}
		b.m[key] = e
	}
	e.state, e.fails, e.good = stateConnected, 0, true
	e.caps = p.version().Capabilities
	if la != "" && la != key {
		b.alias[la] = key
		delete(b.m, la)
	}
}

// disconnected updates the address of a peer that went away: ourselves
// are blocked for good, a duplicate connection is left to the other one,
// a peer dropped for misbehaving or slowness is ruled out for a while.
func (b *addrBook) disconnected(p *peer, err error) {
	key := p.dialed
	if key == "" {
		key = listenAddr(p)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.m[key]
	if e == nil {
		return
	}
	switch {
	case errors.Is(err, ErrSelf):
		e.state = stateSelf
	case errors.Is(err, ErrAlreadyConnected):
		// The other connection serves the node; look again later.
		e.state = stateUnconnected
		e.retryAt = b.cfg.Clock.Now().Add(4 * b.cfg.ProtoTickInterval)
	case errors.Is(err, ErrShutdown):
		e.state = stateUnconnected
	case !p.handshaked.Load() || errors.Is(err, errBusy) || errors.Is(err, ErrProtocol) ||
		errors.Is(err, ErrPingTimeout) || errors.Is(err, ErrWrongMagic):
		b.ruleOut(e)
	default:
		e.state = stateUnconnected
		e.retryAt = b.cfg.Clock.Now().Add(b.cfg.ProtoTickInterval)
	}
}

// list returns the addresses in any of the given states.
func (b *addrBook) list(states ...addrState) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for a, e := range b.m {
		if slices.Contains(states, e.state) {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}

// size is the number of addresses known, ourselves aside.
func (b *addrBook) size() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, e := range b.m {
		if e.state != stateSelf {
			n++
		}
	}
	return n
}

// unconnected counts addresses that could be dialled.
func (b *addrBook) unconnected() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, e := range b.m {
		if e.state == stateUnconnected {
			n++
		}
	}
	return n
}

// networkSize estimates the number of nodes: every address we know that
// is not bad or ourselves, plus us.
func (b *addrBook) networkSize() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 1
	for _, e := range b.m {
		if e.state != stateSelf && (e.state != stateBad || e.good) {
			n++
		}
	}
	return n
}

// addrKey formats an IP and port as a book key.
func addrKey(ip netip.Addr, port uint16) string {
	return netip.AddrPortFrom(ip.Unmap(), port).String()
}
