package network

import (
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// handleGetData sends the requested items we have, one message each as
// the writer drains them, then a notfound for the transactions and blocks
// we lack (as the reference does; unknown extensibles are not reported).
func (s *Server) handleGetData(p *peer, inv *payload.Inventory) error {
	var missing []util.Uint256
	for _, h := range inv.Hashes {
		var err error
		switch inv.Type {
		case payload.InvTX:
			var tx *transaction.Transaction
			ok := false
			if s.cfg.Pool != nil {
				tx, ok = s.cfg.Pool.GetTx(h)
			}
			if !ok {
				missing = append(missing, h)
				continue
			}
			err = p.sendNew(qDirect, message.CmdTransaction, tx)
		case payload.InvBlock:
			b, gerr := s.cfg.Ledger.GetBlock(h)
			if gerr != nil {
				missing = append(missing, h)
				continue
			}
			err = p.sendNew(qDirect, message.CmdBlock, b)
		case payload.InvExtensible:
			e := s.ext.get(h, s.cfg.Ledger.BlockHeight())
			if e == nil {
				continue
			}
			err = p.sendNew(qHigh, message.CmdExtensible, e)
		case payload.InvP2PNotaryRequest:
			var ok bool
			if ok, err = s.serveNotaryRequest(p, h); !ok {
				missing = append(missing, h)
			}
		}
		if err != nil {
			return err
		}
	}
	for _, inv := range payload.SplitInventory(inv.Type, missing, payload.MaxHashesCount) {
		if err := p.sendNew(qDirect, message.CmdNotFound, &inv); err != nil {
			return err
		}
	}
	return nil
}

// handleMempool announces every pooled transaction, 500 hashes per inv.
func (s *Server) handleMempool(p *peer) error {
	if s.cfg.Pool == nil {
		return nil
	}
	for _, inv := range payload.SplitInventory(payload.InvTX, s.cfg.Pool.TxHashes(), payload.MaxHashesCount) {
		if err := p.sendNew(qDirect, message.CmdInv, &inv); err != nil {
			return err
		}
	}
	return nil
}

// handleBlock hands a block to the block queue; the sync loop is told so
// it can move its window. A block asked for by an inv stays tracked once
// queued (inflight.delivered) until the chain has it: until then the
// ledger does not know it, and every other announcement of it (each
// validator relays a new block) would fetch and decode it again.
func (s *Server) handleBlock(p *peer, b *block.Block) {
	h := b.Hash()
	p.updateHeight(b.Index)
	if s.ssync != nil && s.ssync.active() {
		s.seen.remove(h)
		s.ssync.onBlock(p, b)
		s.kickSync()
		return
	}
	s.sync.received(p, b.Index)
	if err := s.cfg.Blocks.Put(b); err != nil {
		s.seen.remove(h)
		s.log.Debug("block not queued", zap.Uint32("index", b.Index), zap.Error(err))
	} else {
		s.seen.delivered(h, p, s.clock.Now(), s.cfg.requestTimeout())
	}
	s.kickSync()
}

// knownBlock tells the message decoder which blocks need only their
// header: those at or below the chain's height, which the block queue
// would drop (not while state sync takes blocks of its own).
func (s *Server) knownBlock(index uint32) bool {
	if s.ssync != nil && s.ssync.active() {
		return false
	}
	if i, _, ok := s.adding(); ok && i == index {
		return true
	}
	return index <= s.cfg.Ledger.BlockHeight()
}

// knownBlockHash reports whether the ledger has the block or is adding it.
func (s *Server) knownBlockHash(h util.Uint256) bool {
	if _, hash, ok := s.adding(); ok && hash == h {
		return true
	}
	_, err := s.cfg.Ledger.GetHeader(h)
	return err == nil
}

// adding is Config.Adding, ok=false without it.
func (s *Server) adding() (uint32, util.Uint256, bool) {
	if s.cfg.Adding == nil {
		return 0, util.Uint256{}, false
	}
	return s.cfg.Adding()
}

// handleKnownBlock is handleBlock for a block the chain has, decoded as
// its header only: what handleBlock does but queueing it.
func (s *Server) handleKnownBlock(p *peer, h *block.Header) {
	s.seen.remove(h.Hash())
	p.updateHeight(h.Index)
	s.sync.received(p, h.Index)
	s.kickSync()
}

// handleTx passes a transaction to the peer's transaction worker; this
// blocks (holding back the peer's reader) while that worker is behind. A
// requested transaction stays tracked until the node knows it
// (inflight.delivered).
func (s *Server) handleTx(p *peer, tx *transaction.Transaction) error {
	s.seen.delivered(tx.Hash(), p, s.clock.Now(), s.cfg.requestTimeout())
	if s.cfg.OnTransaction == nil {
		return nil
	}
	select {
	case p.txs <- tx:
		return nil
	case <-p.done:
		return errGone
	}
}

// known reports whether an item of an inventory is here already.
func (s *Server) known(typ payload.InventoryType, h util.Uint256) bool {
	switch typ {
	case payload.InvTX:
		return s.cfg.Pool != nil && s.cfg.Pool.ContainsTx(h)
	case payload.InvBlock:
		return s.knownBlockHash(h)
	case payload.InvExtensible:
		return s.knownExtensible(h)
	case payload.InvP2PNotaryRequest:
		return s.notaryOn() && s.knownNotary(h)
	}
	return false
}

// retryRequests asks again, from another peer that announced it, every
// item whose getdata went unanswered for requestTimeout (or was answered
// with notfound). It runs from the server's loop and never waits on a
// peer: one that cannot take the getdata now is passed over at the next
// round.
func (s *Server) retryRequests(now time.Time) {
	res := s.seen.expired(now, s.cfg.requestTimeout(), s.known)
	s.metrics.abandoned.Add(float64(res.abandoned))
	s.metrics.refetched.Add(float64(res.refetched))
	for _, r := range res.retries {
		q := qDirect
		if r.typ == payload.InvExtensible {
			q = qHigh
		}
		for _, inv := range payload.SplitInventory(r.typ, r.hashes, payload.MaxHashesCount) {
			m, err := message.New(message.CmdGetData, &inv)
			if err != nil {
				s.log.Error("building getdata", zap.Error(err))
				return
			}
			if err := r.p.tryEnqueue(q, m); err != nil {
				s.seen.failed(r.p, inv.Hashes...)
				continue
			}
			s.metrics.retries.Add(float64(len(inv.Hashes)))
		}
	}
}
