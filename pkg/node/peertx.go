package node

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/core/txpipe"
)

// peerTxVerdicts counts the pipeline's verdicts on transactions that came
// from peers (n3d_node_peer_tx_verdicts_total{verdict}): "pooled", the
// refusals that depend on the moment ("pool_full", "stale",
// "insufficient_funds": the transaction is not remembered as processed, a
// later announcement brings it back), "duplicate", and "invalid" for the
// rest. It is the pipeline's OnResult.
func peerTxVerdicts(reg prometheus.Registerer) (func(txpipe.Source, *transaction.Transaction, error), error) {
	m := promutil.NewSet(reg, "node")
	v := m.CounterVec("peer_tx_verdicts_total",
		"Verdicts of the ingress pipeline on transactions received from peers.", "verdict")
	if err := m.Err(); err != nil {
		return nil, err
	}
	names := []string{"pooled", "pool_full", "stale", "insufficient_funds", "duplicate", "invalid"}
	cs := make(map[string]prometheus.Counter, len(names))
	for _, n := range names {
		cs[n] = v.WithLabelValues(n)
	}
	return func(src txpipe.Source, _ *transaction.Transaction, err error) {
		if src == txpipe.SourceLocal {
			return
		}
		cs[verdictName(err)].Inc()
	}, nil
}

// verdictName is the verdict label of a pipeline result.
func verdictName(err error) string {
	switch {
	case err == nil:
		return "pooled"
	case errors.Is(err, mempool.ErrOOM):
		return "pool_full"
	case errors.Is(err, mempool.ErrStale):
		return "stale"
	case errors.Is(err, mempool.ErrInsufficientFunds):
		return "insufficient_funds"
	case errors.Is(err, mempool.ErrDup):
		return "duplicate"
	}
	return "invalid"
}
