package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/state/itemjson"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Iterator sessions (RPC.SessionEnabled). A test invocation that leaves
// iterators on its result stack registers them in a session known by a
// random UUID; traverseiterator reads them on, terminatesession drops
// them. A session expires SessionLifetime after its last use (creation or
// traversal, as neo-go resets the timer on each traverseiterator).
//
// Every iterator of this node is materialised when it is created (storage
// Find copies the items it selects, native iterators copy their records),
// so a session holds the state of the invocation's moment and no DAO or
// store snapshot: SessionBackedByMPT changes nothing here.
//
// Ownership: the pool owns its sessions; expiry runs on time.AfterFunc
// timers (no goroutine while waiting), and closeAll, called when the
// server stops serving, stops every timer and refuses new sessions.

// errSessionPoolFull is neo-go's answer when SessionPoolSize sessions
// are open.
const errSessionPoolFull = "max session capacity reached"

// minSessionLifetime is the shortest default session lifetime.
const minSessionLifetime = 5 * time.Second

// sessionIterator is one iterator of a session.
type sessionIterator struct {
	mu      sync.Mutex
	it      interop.Iterator // guarded by mu
	pending stackitem.Item   // a value read ahead by the expansion, served first
}

// next returns up to n further values.
func (si *sessionIterator) next(n int) ([]stackitem.Item, error) {
	si.mu.Lock()
	defer si.mu.Unlock()
	var out []stackitem.Item
	if si.pending != nil && n > 0 {
		out = append(out, si.pending)
		si.pending = nil
	}
	for len(out) < n && si.it.Next() {
		v, err := si.it.Value()
		if err != nil {
			return nil, fmt.Errorf("iterator value: %w", err)
		}
		out = append(out, v)
	}
	return out, nil
}

// session is the iterators of one invocation.
type session struct {
	iters    map[string]*sessionIterator // by iterator UUID; read-only once registered
	timer    *time.Timer
	deadline time.Time // guarded by sessionPool.mu
}

// sessionPool holds the open sessions.
type sessionPool struct {
	lifetime time.Duration
	size     int

	mu     sync.Mutex
	closed bool
	m      map[string]*session // guarded by mu
}

// newSessionPool applies neo-go's defaults to an unset SessionLifetime
// (the block time, at least 5 s) and SessionPoolSize (20).
func newSessionPool(c Config, timePerBlock time.Duration) *sessionPool {
	lifetime, size := c.SessionLifetime, c.SessionPoolSize
	if lifetime <= 0 {
		lifetime = max(timePerBlock, minSessionLifetime)
	}
	if size <= 0 {
		size = DefaultSessionPoolSize
	}
	return &sessionPool{lifetime: lifetime, size: size, m: map[string]*session{}}
}

// add registers the iterators under a new session ID.
func (p *sessionPool) add(iters map[string]*sessionIterator) (string, error) {
	id, err := newUUID()
	if err != nil {
		return "", err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return "", errors.New("server is shutting down")
	}
	if len(p.m) >= p.size {
		return "", errors.New(errSessionPoolFull)
	}
	s := &session{iters: iters, deadline: time.Now().Add(p.lifetime)}
	s.timer = time.AfterFunc(p.lifetime, func() { p.expire(id) })
	p.m[id] = s
	return id, nil
}

// expire drops session id when its deadline has passed; a session used
// since the timer was armed gets the rest of its time.
func (p *sessionPool) expire(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.m[id]
	if !ok {
		return
	}
	if left := time.Until(s.deadline); left > 0 {
		s.timer.Reset(left)
		return
	}
	delete(p.m, id)
}

// touch returns session id and extends its life.
func (p *sessionPool) touch(id string) (*session, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.m[id]
	if ok {
		s.deadline = time.Now().Add(p.lifetime)
	}
	return s, ok
}

// remove drops session id and reports whether it was open.
func (p *sessionPool) remove(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.m[id]
	if ok {
		s.timer.Stop()
		delete(p.m, id)
	}
	return ok
}

// len is the number of open sessions.
func (p *sessionPool) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.m)
}

// closeAll drops every session and refuses new ones.
func (p *sessionPool) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for id, s := range p.m {
		s.timer.Stop()
		delete(p.m, id)
	}
}

// releaseSessions drops the open iterator sessions; serve calls it once
// the listeners are shut down.
func (s *Server) releaseSessions() { s.sessions.closeAll() }

// packStack turns a result stack into the answer's entries. Iterators
// are dumped (sessions off), registered (sessions on), or both
// (SessionExpansionEnabled: the first MaxIteratorResultItems values are
// given, and the iterator is registered only if more are left), as
// neo-go does. The registered iterators are returned by ID.
func (s *Server) packStack(items []stackitem.Item) ([]any, map[string]*sessionIterator, error) {
	out := make([]any, len(items))
	var iters map[string]*sessionIterator
	rpc := &s.cfg
	for i, it := range items {
		in, ok := it.(*stackitem.Interop)
		if !ok {
			out[i] = it
			continue
		}
		iter, ok := in.Value().(interop.Iterator)
		if !ok {
			out[i] = it
			continue
		}
		if !rpc.SessionEnabled {
			out[i] = s.dumpIterator(it)
			continue
		}
		si := &sessionIterator{it: iter}
		var res result.Iterator
		if rpc.SessionExpansionEnabled {
			vals, err := si.next(rpc.MaxIteratorResultItems + 1)
			if err != nil {
				return nil, nil, err
			}
			if len(vals) > rpc.MaxIteratorResultItems {
				si.pending = vals[rpc.MaxIteratorResultItems]
				vals = vals[:rpc.MaxIteratorResultItems]
			}
			res.Values = vals
			if si.pending == nil { // nothing left to traverse
				out[i] = res
				continue
			}
		}
		id, err := newUUID()
		if err != nil {
			return nil, nil, err
		}
		if iters == nil {
			iters = map[string]*sessionIterator{}
		}
		iters[id] = si
		res.ID = id
		out[i] = res
	}
	return out, iters, nil
}

// paramError is neo-go's wording of a parameter error ("params: " cut).
func paramError(what string, err error) *result.Error {
	return result.NewInvalidParamsError(fmt.Sprintf("%s: %s", what, strings.TrimPrefix(err.Error(), "params: ")))
}

// uuidParam reads a UUID parameter in its canonical lower-case form.
func uuidParam(p *params.Param) (string, error) {
	str, err := p.GetString()
	if err != nil {
		return "", err
	}
	id, err := parseUUID(str)
	if err != nil {
		return "", fmt.Errorf("not a valid UUID: %w", err)
	}
	return id, nil
}

func (s *Server) traverseIterator(ps params.Params) (any, *result.Error) {
	if !s.cfg.SessionEnabled {
		return nil, result.ErrSessionsDisabled
	}
	sid, err := uuidParam(ps.Value(0))
	if err != nil {
		return nil, paramError("invalid session ID", err)
	}
	iid, err := uuidParam(ps.Value(1))
	if err != nil {
		return nil, paramError("invalid iterator ID", err)
	}
	count, err := ps.Value(2).GetInt()
	if err != nil {
		return nil, paramError("invalid iterator items count", err)
	}
	if count < -1<<31 || count > 1<<31-1 {
		return nil, result.NewInvalidParamsError("invalid iterator items count: not an int32")
	}
	if maxItems := s.cfg.MaxIteratorResultItems; count > int64(maxItems) {
		return nil, result.NewInvalidParamsError(fmt.Sprintf(
			"iterator items count (%d) is out of range (%d at max)", count, maxItems))
	}
	sess, ok := s.sessions.touch(sid)
	if !ok {
		return nil, result.ErrUnknownSession
	}
	si, ok := sess.iters[iid]
	if !ok {
		return nil, result.ErrUnknownIterator
	}
	vals, err := si.next(int(count))
	if err != nil {
		return nil, internal("failed to traverse iterator", err)
	}
	out := make([]json.RawMessage, len(vals))
	for i, v := range vals {
		if out[i], err = itemjson.Marshal(v); err != nil {
			return nil, internal("failed to marshal iterator value", err)
		}
	}
	return out, nil
}

func (s *Server) terminateSession(ps params.Params) (any, *result.Error) {
	if !s.cfg.SessionEnabled {
		return nil, result.ErrSessionsDisabled
	}
	sid, err := uuidParam(ps.Value(0))
	if err != nil {
		return nil, paramError("invalid session ID", err)
	}
	if !s.sessions.remove(sid) {
		return nil, result.ErrUnknownSession
	}
	return true, nil
}
