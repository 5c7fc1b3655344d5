package node

import (
	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/n3d-io/n3d/pkg/network"
)

// WithClock sets the clock the node's timers run on (default: the wall
// clock, clock.Real). The P2P server takes it (network.Config.Clock):
// handshake, ping, discovery, sync, getdata retry, relay batching and
// re-announcement; so does the pool's ingress pipeline
// (txpipe.Config.Clock: its transaction announcement batching). A test or simulator passes a *clock.Fake shared by
// several nodes and advances it.
func WithClock(c clock.Clock) Option { return func(o *options) { o.clock = c } }

// WithTransport sets how the P2P server listens and dials (default: TCP);
// the listen addresses and seeds of the configuration are then addresses
// of that transport. A memnet.Host (pkg/network/memnet) puts the node on
// an in-memory network.
func WithTransport(t network.Transport) Option { return func(o *options) { o.transport = t } }

// WithP2PTuning lets f change the P2P server's Config after the node
// filled it from its configuration, before the server is made: the
// simulator (pkg/sim) sets its gossip-policy switches this way
// (BroadcastFactor, FirstHandRelayOnly, BroadcastNoCancel, InvBatchSize).
func WithP2PTuning(f func(*network.Config)) Option { return func(o *options) { o.p2pTune = f } }
