package network

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTxBatchDelay(t *testing.T) {
	require.Equal(t, 7*time.Millisecond, TxBatchDelay(7*time.Millisecond, 15*time.Second), "configured")
	require.Equal(t, 25*time.Millisecond, TxBatchDelay(0, 500*time.Millisecond), "5% of the block time")
	require.Equal(t, maxTxBatchDelay, TxBatchDelay(0, 15*time.Second), "capped")
}
