package network

import (
	"fmt"
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// handle dispatches one message of a peer (from its handleLoop). A
// returned error disconnects the peer.
func (s *Server) handle(p *peer, m *message.Message) error {
	if !p.handshaked.Load() {
		return s.handleHandshake(p, m)
	}
	switch pl := m.Payload.(type) {
	case *payload.Ping:
		return s.handlePing(p, m.Command, pl)
	case *payload.AddrList:
		return s.handleAddr(p, pl)
	case *payload.GetBlockByIndex:
		if m.Command == message.CmdGetHeaders {
			return s.handleGetHeaders(p, pl)
		}
		return s.handleGetBlockByIndex(p, pl)
	case *payload.GetBlocks:
		return s.handleGetBlocks(p, pl)
	case *payload.Inventory:
		if err := s.checkInventory(pl); err != nil {
			return err
		}
		switch m.Command {
		case message.CmdInv:
			return s.handleInv(p, pl)
		case message.CmdGetData:
			return s.handleGetData(p, pl)
		default: // notfound: ask another announcer, if any
			s.seen.failed(p, pl.Hashes...)
			return nil
		}
	case *block.Block:
		s.handleBlock(p, pl)
		return nil
	case *block.Header: // a block at a height the chain has (knownBlock)
		s.handleKnownBlock(p, pl)
		return nil
	case *transaction.Transaction:
		return s.handleTx(p, pl)
	case *payload.Extensible:
		return s.handleExtensible(p, pl)
	case *payload.P2PNotaryRequest:
		return s.handleNotaryRequest(p, pl)
	case *payload.MPTInventory:
		return s.handleGetMPTData(p, pl)
	case *payload.MPTData:
		return s.handleMPTData(p, pl)
	case *payload.Headers:
		return s.handleHeaders(p, pl)
	}
	switch m.Command {
	case message.CmdVersion, message.CmdVerack:
		return fmt.Errorf("%w: %s after the handshake", ErrHandshake, m.Command)
	case message.CmdGetAddr:
		return s.handleGetAddr(p)
	case message.CmdMempool:
		return s.handleMempool(p)
	}
	// SPV filters, merkleblock, reject and alert are ignored, as the
	// reference's full node does with most.
	return nil
}

// handlePing answers a ping with a pong carrying our height and the ping's
// nonce; a pong clears the outstanding ping. Both update the peer's height.
func (s *Server) handlePing(p *peer, cmd message.Command, pl *payload.Ping) error {
	p.updateHeight(pl.LastBlockIndex)
	s.kickSync()
	if cmd == message.CmdPong {
		p.mu.Lock()
		p.mu.pingSent = time.Time{}
		p.mu.Unlock()
		return nil
	}
	return p.sendNew(qHigh, message.CmdPong, &payload.Ping{
		LastBlockIndex: s.cfg.Ledger.BlockHeight(),
		Timestamp:      uint32(s.clock.Now().Unix()),
		Nonce:          pl.Nonce,
	})
}

// handleAddr takes addresses we asked for; unsolicited lists are ignored.
func (s *Server) handleAddr(p *peer, pl *payload.AddrList) error {
	p.mu.Lock()
	ok := p.mu.getAddrSent > 0
	if ok {
		p.mu.getAddrSent--
	}
	p.mu.Unlock()
	if !ok {
		return nil
	}
	addrs := make([]string, 0, len(pl.Addrs))
	for i := range pl.Addrs {
		if a := pl.Addrs[i].AddrPort(); a.Port() != 0 && a.Addr().IsValid() {
			addrs = append(addrs, addrKey(a.Addr(), a.Port()))
		}
	}
	s.book.add(addrs...)
	return nil
}

// handleGetAddr answers with the listening addresses of our handshaked
// peers (other than the asker); nothing when there are none, as an empty
// addr payload is invalid.
func (s *Server) handleGetAddr(p *peer) error {
	now := uint32(s.clock.Now().Unix())
	var list payload.AddrList
	for _, q := range s.peers(func(q *peer) bool { return q != p }) {
		v := q.version()
		if v.Capabilities.TCPPort() == 0 || !q.remote.IsValid() {
			continue
		}
		list.Addrs = append(list.Addrs, payload.NewNetworkAddress(q.remote.Addr(), now, v.Capabilities))
		if len(list.Addrs) == payload.MaxAddrCount {
			break
		}
	}
	if len(list.Addrs) == 0 {
		return nil
	}
	return p.sendNew(qDirect, message.CmdAddr, &list)
}

// replyCount turns a request's count (-1: as many as allowed) into the
// number of items to serve.
func replyCount(c int16, limit int) uint32 {
	if c < 0 || int(c) > limit {
		return uint32(limit)
	}
	return uint32(c)
}

// handleGetBlockByIndex sends up to 500 blocks from the requested index,
// one message each, as the writer drains them (never all in memory).
func (s *Server) handleGetBlockByIndex(p *peer, pl *payload.GetBlockByIndex) error {
	n := replyCount(pl.Count, payload.MaxHashesCount)
	for i := uint32(0); i < n && pl.IndexStart+i >= pl.IndexStart; i++ {
		h, ok := s.cfg.Ledger.GetHeaderHash(pl.IndexStart + i)
		if !ok {
			break
		}
		b, err := s.cfg.Ledger.GetBlock(h)
		if err != nil {
			return s.serveError(p, err)
		}
		if err := p.sendNew(qDirect, message.CmdBlock, b); err != nil {
			return err
		}
	}
	return nil
}

// handleGetHeaders sends up to 2000 headers from the requested index.
func (s *Server) handleGetHeaders(p *peer, pl *payload.GetBlockByIndex) error {
	n := replyCount(pl.Count, payload.MaxHeadersCount)
	var hs payload.Headers
	for i := uint32(0); i < n && pl.IndexStart+i >= pl.IndexStart; i++ {
		h, ok := s.cfg.Ledger.GetHeaderHash(pl.IndexStart + i)
		if !ok {
			break
		}
		hdr, err := s.cfg.Ledger.GetHeader(h)
		if err != nil {
			return s.serveError(p, err)
		}
		hs.Headers = append(hs.Headers, hdr)
	}
	if len(hs.Headers) == 0 {
		return nil
	}
	return p.sendNew(qDirect, message.CmdHeaders, &hs)
}

// handleGetBlocks answers with an inv of the hashes following a known
// block (up to 500); an unknown start is ignored.
func (s *Server) handleGetBlocks(p *peer, pl *payload.GetBlocks) error {
	start, err := s.cfg.Ledger.GetHeader(pl.HashStart)
	if err != nil {
		return nil
	}
	n := replyCount(pl.Count, payload.MaxHashesCount)
	inv := payload.Inventory{Type: payload.InvBlock}
	for i := uint32(1); i <= n; i++ {
		h, ok := s.cfg.Ledger.GetHeaderHash(start.Index + i)
		if !ok {
			break
		}
		inv.Hashes = append(inv.Hashes, h)
	}
	if len(inv.Hashes) == 0 {
		return nil
	}
	return p.sendNew(qDirect, message.CmdInv, &inv)
}

// serveError logs a ledger failure while serving: the peer is not at
// fault, the request is dropped.
func (s *Server) serveError(p *peer, err error) error {
	s.log.Warn("cannot serve a peer's request", zap.Stringer("addr", p), zap.Error(err))
	return nil
}

// handleInv requests the announced items we neither have nor already
// asked for; an item asked from another peer is remembered as available
// from this one too (see retryRequests).
func (s *Server) handleInv(p *peer, inv *payload.Inventory) error {
	var known func(util.Uint256) bool
	q := qDirect
	switch inv.Type {
	case payload.InvTX:
		if s.cfg.OnTransaction == nil {
			return nil
		}
		known = func(h util.Uint256) bool { return s.cfg.Pool != nil && s.cfg.Pool.ContainsTx(h) }
	case payload.InvBlock:
		known = s.knownBlockHash
	case payload.InvExtensible:
		if s.cfg.OnExtensible == nil {
			return nil
		}
		known = s.knownExtensible
		q = qHigh
	case payload.InvP2PNotaryRequest:
		known = s.knownNotary
	default:
		return fmt.Errorf("%w: inventory type %s", ErrProtocol, inv.Type)
	}
	want := make([]util.Uint256, 0, len(inv.Hashes))
	now := s.clock.Now()
	for _, h := range inv.Hashes {
		if !known(h) && s.seen.claim(h, inv.Type, p, now, s.cfg.requestTimeout()) {
			want = append(want, h)
		}
	}
	if len(want) == 0 {
		return nil
	}
	err := p.sendNew(q, message.CmdGetData, &payload.Inventory{Type: inv.Type, Hashes: want})
	if err != nil {
		s.seen.failed(p, want...) // asked from another announcer, if any
	}
	return err
}
