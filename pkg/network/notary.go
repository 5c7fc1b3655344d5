package network

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// ErrP2PSigExtensionsOff is returned (and the peer disconnected) for a
// notary request, or an inventory of notary requests, received while the
// P2PSigExtensions are off, as the reference does.
var ErrP2PSigExtensionsOff = errors.New("network: notary request while P2PSigExtensions are off")

// NotaryConfig enables the relay of P2P notary requests (inventory and
// command 0x50) on a network with P2PSigExtensions. A request is named by
// its fallback transaction's hash on the wire, as in the reference.
type NotaryConfig struct {
	// Pool answers getdata for requests and tells which are known
	// (required).
	Pool NotaryRequestPool
	// OnRequest verifies a request received from a peer and pools it; a
	// nil error means pooled, the request is then announced to the other
	// peers. An error only drops the request (the reference keeps the
	// sender). It is called from the peer's reader.
	OnRequest func(r *payload.P2PNotaryRequest) error
}

// NotaryRequestPool is the notary request pool as the server reads it.
type NotaryRequestPool interface {
	// ContainsKey reports whether a request with this fallback hash is
	// pooled.
	ContainsKey(fallback util.Uint256) bool
	// GetRequest returns the pooled request with this fallback hash.
	GetRequest(fallback util.Uint256) (*payload.P2PNotaryRequest, bool)
}

// notaryOn reports whether notary requests are relayed.
func (s *Server) notaryOn() bool {
	return s.cfg.Notary != nil && s.cfg.Notary.Pool != nil && s.cfg.Notary.OnRequest != nil
}

// knownNotary reports whether an announced request is not to be requested.
func (s *Server) knownNotary(fallback util.Uint256) bool {
	return s.cfg.Notary.Pool.ContainsKey(fallback)
}

// checkInventory refuses an inventory of notary requests when the
// P2PSigExtensions are off.
func (s *Server) checkInventory(inv *payload.Inventory) error {
	if !inv.Type.ValidWith(s.notaryOn()) {
		return fmt.Errorf("%w: %w: inventory type %s", ErrProtocol, ErrP2PSigExtensionsOff, inv.Type)
	}
	return nil
}

// handleNotaryRequest passes a request to OnRequest and announces it when
// pooled.
func (s *Server) handleNotaryRequest(p *peer, r *payload.P2PNotaryRequest) error {
	if !s.notaryOn() {
		return fmt.Errorf("%w: %w", ErrProtocol, ErrP2PSigExtensionsOff)
	}
	h := r.FallbackTransaction.Hash()
	s.seen.remove(h)
	if s.knownNotary(h) {
		return nil
	}
	if err := s.cfg.Notary.OnRequest(r); err != nil {
		s.log.Debug("notary request rejected", zap.Stringer("addr", p), zap.Stringer("fallback", h),
			zap.Stringer("main", r.MainTransaction.Hash()), zap.Error(err))
		return nil
	}
	s.RelayNotaryRequest(r)
	return nil
}

// RelayNotaryRequest announces a pooled request (by its fallback hash) to
// peers: the RPC server calls it after pooling a submitted request.
func (s *Server) RelayNotaryRequest(r *payload.P2PNotaryRequest) {
	inv := &payload.Inventory{Type: payload.InvP2PNotaryRequest,
		Hashes: []util.Uint256{r.FallbackTransaction.Hash()}}
	m, err := message.New(message.CmdInv, inv)
	if err != nil {
		s.log.Error("building notary request inv", zap.Error(err))
		return
	}
	s.broadcast(m, qBroadcast, false, nil)
}

// serveNotaryRequest answers a getdata for one request; false: not pooled.
func (s *Server) serveNotaryRequest(p *peer, fallback util.Uint256) (bool, error) {
	r, ok := s.cfg.Notary.Pool.GetRequest(fallback)
	if !ok {
		return false, nil
	}
	return true, p.sendNew(qDirect, message.CmdP2PNotaryRequest, r)
}
