package txbuild

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzContext: any context file is rejected or read; what is read writes
// back to a document that reads to the same transaction.
func FuzzContext(f *testing.F) {
	f.Add([]byte(`{"type":"Neo.Network.P2P.Payloads.Transaction","network":1,"data":"AAEAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAACAAAER","items":{}}`))
	f.Add([]byte(`{"type":"Neo.Core.ContractTransaction","data":"","items":{"0x00":{}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Context
		if err := json.Unmarshal(data, &c); err != nil {
			return
		}
		raw, err := json.Marshal(&c)
		require.NoError(t, err)
		var back Context
		require.NoError(t, json.Unmarshal(raw, &back))
		require.Equal(t, c.Tx.Hash(), back.Tx.Hash())
	})
}
