package network

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
)

// metrics are the server's Prometheus collectors.
type metrics struct {
	peers       prometheus.Gauge
	handshaking prometheus.Gauge
	staleTxs    prometheus.Gauge
	reannounced prometheus.Counter
	retries     prometheus.Counter
	skipped     prometheus.Counter

	ssStage    prometheus.Gauge
	ssFlying   prometheus.Gauge
	ssMissing  prometheus.Gauge
	ssNodes    prometheus.Counter
	ssTimeouts prometheus.Counter
	abandoned  prometheus.Counter
	refetched  prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	s := promutil.NewSet(reg, "p2p")
	m := &metrics{
		peers:       s.Gauge("peers", "Handshaked P2P peers."),
		handshaking: s.Gauge("handshaking_connections", "Inbound connections holding a handshake slot."),
		staleTxs: s.Gauge("stale_pool_transactions",
			"Pooled transactions pending for longer than the re-announcement threshold."),
		reannounced: s.Counter("reannounced_transactions_total",
			"Announcements of pooled transactions made again because they stayed in the pool."),
		retries: s.Counter("getdata_retries_total", "Items asked from another announcer after a getdata went unanswered."),
		skipped: s.Counter("broadcast_skipped_total", "Peers a broadcast did not reach because their send queue was full."),
		abandoned: s.Counter("getdata_abandoned_total",
			"Requested items given up: the getdata went unanswered and no other peer announced them, or the "+
				"delivered transaction was dropped on its way to the pool too often."),
		refetched: s.Counter("tx_refetched_total",
			"Delivered transactions asked for again because the node dropped them before pooling (a full queue, a "+
				"refusal depending on the moment)."),
	}
	ss := promutil.NewSet(reg, "statesync")
	m.ssStage = ss.Gauge("stage", "State sync stage: 0 off or done, 1 waiting for peers, 2 headers, "+
		"3 MPT nodes and window blocks, 4 failed to start.")
	m.ssFlying = ss.Gauge("mpt_nodes_requested", "MPT node hashes asked from peers and not answered yet.")
	m.ssMissing = ss.Gauge("mpt_nodes_missing", "MPT nodes of the sync point's trie known to be missing.")
	m.ssNodes = ss.Counter("mpt_nodes_received_total", "MPT nodes received in answers to getmptdata.")
	m.ssTimeouts = ss.Counter("mpt_requests_timedout_total",
		"getmptdata requests a peer left unanswered (their hashes asked again from others).")
	if err := ss.Err(); err != nil {
		return nil, err
	}
	return m, s.Err()
}
