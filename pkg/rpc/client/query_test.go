package client_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/rpc/client"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func TestAgainstServerQueryMethods(t *testing.T) {
	n := startGenesisNode(t)
	ctx := context.Background()
	comm, err := n.c.GetCommittee(ctx)
	require.NoError(t, err)
	want, err := keys.NewPublicKeysFromStrings(n.cfg.ProtocolConfiguration.StandbyCommittee)
	require.NoError(t, err)
	require.Equal(t, want, comm)

	sh, err := n.c.GetStateHeight(ctx)
	require.NoError(t, err)
	require.Equal(t, result.StateHeight{}, *sh, "only the genesis block")

	_, err = n.c.GetRawTransactionVerbose(ctx, util.Uint256{1})
	var re *result.Error
	require.True(t, errorAs(err, &re), "%v", err)
	require.Equal(t, result.ErrUnknownTransaction.Code, re.Code)
}

// TestTransactionInfoReadsServerForm decodes the verbose transaction as
// the server writes it, in a block or (no block fields) in the pool.
func TestTransactionInfoReadsServerForm(t *testing.T) {
	tx := &transaction.Transaction{Nonce: 7, SystemFee: 100, NetworkFee: 200, ValidUntilBlock: 19, Script: []byte{0x40},
		Signers:   []transaction.Signer{{Account: util.Uint160{1}, Scopes: transaction.CalledByEntry}},
		Witnesses: []transaction.Witness{{InvocationScript: []byte{}, VerificationScript: []byte{}}}}
	meta := result.TransactionMetadata{BlockHash: util.Uint256{5}, Confirmations: 3, BlockTime: 1234, VMState: "FAULT"}
	raw, err := json.Marshal(result.TransactionOutput{Transaction: tx, TransactionMetadata: meta})
	require.NoError(t, err)
	var info client.TransactionInfo
	require.NoError(t, json.Unmarshal(raw, &info))
	require.Equal(t, tx.Hash(), info.Transaction.Hash())
	require.Equal(t, &meta.BlockHash, info.BlockHash)
	require.Equal(t, client.TransactionInfo{Transaction: info.Transaction, BlockHash: info.BlockHash,
		Confirmations: 3, BlockTime: 1234, VMState: "FAULT"}, info)

	raw, err = json.Marshal(tx)
	require.NoError(t, err)
	info = client.TransactionInfo{}
	require.NoError(t, json.Unmarshal(raw, &info))
	require.Nil(t, info.BlockHash)
	require.Equal(t, tx.Hash(), info.Transaction.Hash())

	// A hash that is not the transaction's is refused.
	bad := strings.Replace(string(raw), tx.Hash().String(), util.Uint256{9}.String(), 1)
	require.Error(t, json.Unmarshal([]byte(bad), &info))
	require.Error(t, json.Unmarshal([]byte(strings.Replace(string(raw), "{", `{"blockhash":1,`, 1)), &info))
}
