package network

import "errors"

// Sentinel errors of the server. A peer is disconnected with one of them
// (wrapped with detail); sends return errGone, errBusy or errStateMismatch.
var (
	// ErrNoLedger is returned by New without a ledger.
	ErrNoLedger = errors.New("network: no ledger")
	// ErrBadConfig wraps an invalid Config value.
	ErrBadConfig = errors.New("network: bad configuration")

	// ErrWrongMagic: the peer's version announced another network.
	ErrWrongMagic = errors.New("network: peer on another network")
	// ErrSelf: the peer's version carried our own nonce, we dialled
	// ourselves.
	ErrSelf = errors.New("network: connected to ourselves")
	// ErrAlreadyConnected: a peer with the same nonce is already connected.
	ErrAlreadyConnected = errors.New("network: peer already connected")
	// ErrHandshake: a message out of the version/verack order.
	ErrHandshake = errors.New("network: handshake violation")
	// ErrHandshakeTimeout: the handshake did not finish in time.
	ErrHandshakeTimeout = errors.New("network: handshake timeout")
	// ErrPingTimeout: no pong within PingTimeout.
	ErrPingTimeout = errors.New("network: ping timeout")
	// ErrMaxPeers: the connection was refused because MaxPeers are
	// connected.
	ErrMaxPeers = errors.New("network: too many peers")
	// ErrHandshakeSlots: every handshake slot is held by a connection
	// that was there first and has already spoken, or the connection's
	// slot was given to a newer one.
	ErrHandshakeSlots = errors.New("network: no handshake slot")
	// ErrProtocol: a message the peer should not have sent (bad inventory,
	// unsolicited addr flood, undecodable payload).
	ErrProtocol = errors.New("network: protocol violation")
	// ErrShutdown: the server is stopping.
	ErrShutdown = errors.New("network: shutting down")

	// errGone: the peer is disconnected; a send to it never succeeds.
	errGone = errors.New("network: peer is gone")
	// errBusy: the peer's queue stayed full for the whole send timeout;
	// the send may be retried later.
	errBusy = errors.New("network: peer is busy")
	// errStateMismatch: the peer has not finished the handshake; protocol
	// messages are not sent to it yet.
	errStateMismatch = errors.New("network: peer not handshaked")
)
