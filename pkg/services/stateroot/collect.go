package stateroot

import (
	"fmt"
	"time"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"go.uber.org/zap"
)

// pendingRoot is the signing state of one block's root on a state
// validator: the validators designated for it, the signatures collected
// (checked once the local root is known), the node's own vote and its
// resend schedule.
type pendingRoot struct {
	index   uint32
	svs     keys.PublicKeys
	myIndex int // position of key in svs; -1: not a validator for this block
	key     *keys.PrivateKey
	root    *chain.StateRoot // the local root, once signed
	sigs    map[int]rootSig  // by validator index
	sent    bool             // the validated root is out (ours or another's)

	vote     *payload.Extensible // our vote, once signed
	retries  int                 // -1 before the first send
	resendAt time.Time           // zero: no more resends
}

type rootSig struct {
	sig []byte
	ok  bool // verified against root
}

// pendingLocked returns the state of block index, creating it.
func (s *Service) pendingLocked(index uint32) (*pendingRoot, error) {
	if p := s.mu.roots[index]; p != nil {
		return p, nil
	}
	svs, err := s.cfg.Ledger.StateValidators(index)
	if err != nil {
		return nil, err
	}
	p := &pendingRoot{index: index, svs: svs, myIndex: -1, sigs: make(map[int]rootSig)}
	for i, pub := range svs {
		for _, k := range s.cfg.Keys {
			if p.myIndex < 0 && k.PublicKey().Equal(pub) {
				p.myIndex, p.key = i, k
			}
		}
	}
	s.mu.roots[index] = p
	return p, nil
}

// onVote records another validator's signature and sends the validated
// root when it is complete and the node's turn.
func (s *Service) onVote(pub *keys.PublicKey, v *Vote, height uint32) error {
	if len(s.cfg.Keys) == 0 || v.Height+VoteValidBlocks <= height || v.Height > height+VoteValidBlocks {
		return nil // an observer, or a vote too old or too early to collect
	}
	s.mu.Lock()
	out, err := s.addVoteLocked(pub, v)
	s.mu.Unlock()
	s.broadcast(out)
	return err
}

func (s *Service) addVoteLocked(pub *keys.PublicKey, v *Vote) ([]*payload.Extensible, error) {
	p, err := s.pendingLocked(v.Height)
	if err != nil || p.myIndex < 0 {
		return nil, err
	}
	if v.ValidatorIndex < 0 || int(v.ValidatorIndex) >= len(p.svs) {
		return nil, fmt.Errorf("%w: validator index %d of %d", ErrInvalidPayload, v.ValidatorIndex, len(p.svs))
	}
	i := int(v.ValidatorIndex)
	if !p.svs[i].Equal(pub) {
		return nil, fmt.Errorf("%w: vote of validator %d sent by another one", ErrInvalidPayload, i)
	}
	sig := rootSig{sig: v.Signature}
	if p.root != nil {
		if !pub.VerifyMessage(v.Signature, RootSignData(s.cfg.Magic, p.root)) {
			return nil, fmt.Errorf("%w: bad vote signature of validator %d at %d", ErrInvalidPayload, i, v.Height)
		}
		sig.ok = true
	}
	p.sigs[i] = sig
	return s.trySendRootLocked(p), nil
}

// onBlocks signs the roots of the blocks added since the last call (those
// whose votes are still valid) and forgets roots whose votes expired.
func (s *Service) onBlocks() {
	h := s.cfg.Ledger.BlockHeight()
	s.storeEarlyRoots(h)
	if len(s.cfg.Keys) == 0 || !s.isSynced() {
		return
	}
	var out []*payload.Extensible
	s.mu.Lock()
	from := h // on start: the current block only
	if s.mu.begun {
		from = s.mu.last + 1 // beyond h when no block was added
	}
	if h >= VoteValidBlocks && from+VoteValidBlocks <= h {
		from = h - VoteValidBlocks + 1
	}
	for i := from; i <= h && i >= from; i++ {
		es, err := s.signLocked(i, h)
		if err != nil {
			s.log.Error("cannot sign state root", zap.Uint32("index", i), zap.Error(err))
		}
		out = append(out, es...)
	}
	if !s.mu.begun || h > s.mu.last {
		s.mu.last, s.mu.begun = h, true
	}
	for i := range s.mu.roots {
		if i+VoteValidBlocks <= h {
			delete(s.mu.roots, i)
		}
	}
	s.mu.Unlock()
	s.broadcast(out)
}

// signLocked signs block index's local root: the validated root when it is
// complete and the node's turn, and the node's vote.
func (s *Service) signLocked(index, height uint32) ([]*payload.Extensible, error) {
	p, err := s.pendingLocked(index)
	if err != nil || p.myIndex < 0 || p.root != nil {
		return nil, err
	}
	local, err := s.cfg.Ledger.StateRoot(index)
	if err != nil {
		return nil, err
	}
	p.root = &chain.StateRoot{Version: local.Version, Index: local.Index, Root: local.Root}
	signData := RootSignData(s.cfg.Magic, p.root)
	sig := p.key.Sign(signData)
	p.sigs[p.myIndex] = rootSig{sig: sig, ok: true}
	for i, rs := range p.sigs {
		if !rs.ok {
			rs.ok = p.svs[i].VerifyMessage(rs.sig, signData)
			p.sigs[i] = rs
		}
	}
	out := s.trySendRootLocked(p)
	vote := &Message{Type: VoteT, Vote: &Vote{ValidatorIndex: int32(p.myIndex), Height: index, Signature: sig}}
	if p.vote, err = newExtensible(s.cfg.Magic, p.key, index, index+VoteValidBlocks, vote); err != nil {
		return out, err
	}
	p.retries = -1
	if e := s.sendVoteLocked(p, height); e != nil {
		out = append(out, e)
	}
	return out, nil
}

// sendVoteLocked returns the node's vote when it is to be (re)sent now and
// schedules the next resend: after FirstResendDelay, then after
// TimePerBlock << retries, at most maxRetries times, while the root is not
// out and the vote valid.
func (s *Service) sendVoteLocked(p *pendingRoot, height uint32) *payload.Extensible {
	if p.vote == nil || p.sent || p.retries >= maxRetries || height >= p.vote.ValidBlockEnd {
		p.resendAt = time.Time{}
		return nil
	}
	delay := FirstResendDelay
	if p.retries > 0 {
		delay = s.cfg.TimePerBlock() << p.retries
	}
	p.resendAt = s.cfg.Clock.Now().Add(delay)
	p.retries++
	return p.vote
}

// trySendRootLocked returns the validated root message when m verified
// signatures are in and the node is the sender at this retry ((index -
// retries) mod n), after storing the root.
func (s *Service) trySendRootLocked(p *pendingRoot) []*payload.Extensible {
	n := len(p.svs)
	if p.root == nil || p.sent || n == 0 {
		return nil
	}
	turn := (int(p.index) - max(p.retries, 0)) % n
	if turn < 0 {
		turn += n
	}
	if turn != p.myIndex {
		return nil
	}
	m := scripts.BFTThreshold(n)
	sigs := make([][]byte, 0, m)
	for i := 0; i < n && len(sigs) < m; i++ {
		if rs, ok := p.sigs[i]; ok && rs.ok {
			sigs = append(sigs, rs.sig)
		}
	}
	if len(sigs) < m {
		return nil
	}
	w, err := rootWitness(p.svs, sigs)
	if err != nil {
		s.log.Error("cannot build the state root witness", zap.Error(err))
		return nil
	}
	sr := &chain.StateRoot{Version: p.root.Version, Index: p.index, Root: p.root.Root, Witnesses: []transaction.Witness{w}}
	if err := s.cfg.Ledger.AddValidatedStateRoot(sr); err != nil {
		s.log.Error("cannot store the validated state root", zap.Uint32("index", p.index), zap.Error(err))
	} else {
		s.metrics.validated.Set(float64(p.index))
	}
	e, err := newExtensible(s.cfg.Magic, p.key, p.index, p.index+RootValidBlocks, &Message{Type: RootT, Root: sr})
	if err != nil {
		s.log.Error("cannot sign the state root message", zap.Error(err))
		return nil
	}
	p.sent = true
	p.resendAt = time.Time{}
	return []*payload.Extensible{e}
}

// nextResend is how long until the earliest scheduled vote resend.
func (s *Service) nextResend() (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var next time.Time
	for _, p := range s.mu.roots {
		if !p.resendAt.IsZero() && (next.IsZero() || p.resendAt.Before(next)) {
			next = p.resendAt
		}
	}
	if next.IsZero() {
		return 0, false
	}
	return max(next.Sub(s.cfg.Clock.Now()), 0), true
}

// resendVotes resends the votes that are due (and sends a validated root
// the node became the sender of).
func (s *Service) resendVotes() {
	h := s.cfg.Ledger.BlockHeight()
	now := s.cfg.Clock.Now()
	var out []*payload.Extensible
	s.mu.Lock()
	for _, p := range s.mu.roots {
		if p.resendAt.IsZero() || p.resendAt.After(now) {
			continue
		}
		if e := s.sendVoteLocked(p, h); e != nil {
			out = append(out, e)
		}
		out = append(out, s.trySendRootLocked(p)...)
	}
	s.mu.Unlock()
	s.broadcast(out)
}

func (s *Service) broadcast(es []*payload.Extensible) {
	for _, e := range es {
		typ := "vote"
		if len(e.Data) != 0 && MessageType(e.Data[0]) == RootT {
			typ = "root"
		}
		s.metrics.sent.WithLabelValues(typ).Inc()
		s.cfg.Broadcast(e)
	}
}

// isSynced latches Config.Synced.
func (s *Service) isSynced() bool {
	if s.synced.Load() {
		return true
	}
	if s.cfg.Synced == nil || s.cfg.Synced() {
		s.synced.Store(true)
		return true
	}
	return false
}
