package node

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/mempool/follow"
	"github.com/n3d-io/n3d/pkg/util"
)

// TestFollowerDropsIncludedTransactions: a follow.Follower over the
// node's chain keeps a pool of its own current: the transaction it holds
// leaves it once the validator includes it in a block; Run returns when
// its context ends.
func TestFollowerDropsIncludedTransactions(t *testing.T) {
	cfg := singleConfig(t, true, 100*time.Millisecond)
	key := validatorKey(t, cfg)
	r := startNode(t, cfg)
	c := r.n.Chain()
	pool, err := mempool.New(mempool.Config{Capacity: 10, Ledger: c})
	require.NoError(t, err)
	f := follow.New(c, pool, zaptest.NewLogger(t))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()

	tx := gasTransfer(t, r.n, key, 21, util.Uint160{5}, 1)
	// Added as verified at the current height (again if a block came in
	// between: the pool refuses a stale verdict).
	require.Eventually(t, func() bool { return pool.Add(tx, c.BlockHeight()) == nil }, 10*time.Second, time.Millisecond)
	require.NoError(t, r.n.SubmitTx(context.Background(), tx))
	require.Eventually(t, func() bool { return !pool.Contains(tx.Hash()) }, 20*time.Second, 10*time.Millisecond,
		"the follower did not drop the included transaction")
	_, _, err = c.GetTransaction(tx.Hash())
	require.NoError(t, err, "the transaction is on chain")
}
