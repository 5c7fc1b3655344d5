package server

import (
	"fmt"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/txpipe"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/stretchr/testify/require"
)

// TestPoolRejections: the pool's verdicts the recorded neo-go cases cannot
// reach (a full pool, a second oracle response) get neo-go's codes and
// texts (pkg/core/blockchain.go's errors through its getRelayResult).
func TestPoolRejections(t *testing.T) {
	n := node(t, "testblocks")
	tx := firstTx(t, n.chain)
	wrap := func(err error) error { return fmt.Errorf("transaction %s: %w", tx.Hash().String(), err) }
	for _, c := range []struct {
		err  error
		code int64
		data string
	}{
		{mempool.ErrOOM, mempoolCapReachedCode, "no space left in the memory pool"},
		{txpipe.ErrPoolFull, mempoolCapReachedCode, "no space left in the memory pool"},
		{mempool.ErrDup, alreadyInPoolCode, "already exists in mempool"},
		{mempool.ErrOracleResponse, result.VerificationFailedCode, "conflicts with memory pool due to OracleResponse attribute"},
		{mempool.ErrInsufficientFunds, insufficientFundsCode, "invalid transaction due to conflicts with the memory pool"},
		{chain.ErrTxInsufficientFunds, insufficientFundsCode, "insufficient funds"},
	} {
		e := n.srv.poolRejection(wrap(c.err), tx)
		require.Equal(t, c.code, e.Code, c.err.Error())
		require.Equal(t, c.data, e.Data, c.err.Error())
	}
}
