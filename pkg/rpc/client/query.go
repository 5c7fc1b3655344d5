package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
)

// Methods of `n3d query`: the committee, the state root heights and the
// verbose form of a transaction.

// GetCommittee returns the committee's public keys in the node's order.
func (c *Client) GetCommittee(ctx context.Context) (keys.PublicKeys, error) {
	var ks keys.PublicKeys
	if err := c.Call(ctx, "getcommittee", nil, &ks); err != nil {
		return nil, err
	}
	return ks, nil
}

// GetStateHeight returns the heights of the latest local and validated
// state roots.
func (c *Client) GetStateHeight(ctx context.Context) (*result.StateHeight, error) {
	h := new(result.StateHeight)
	if err := c.Call(ctx, "getstateheight", nil, h); err != nil {
		return nil, err
	}
	return h, nil
}

// TransactionInfo is a verbose getrawtransaction answer. A transaction
// still in the memory pool has no block: BlockHash is nil and the other
// block fields are zero.
type TransactionInfo struct {
	Transaction   *transaction.Transaction
	BlockHash     *util.Uint256
	Confirmations uint32
	BlockTime     uint64
	// VMState is the state of its execution ("HALT", "FAULT"), when the
	// node reports it.
	VMState string
}

// UnmarshalJSON implements json.Unmarshaler: the transaction's fields
// (checked against its "hash") and the block fields next to them.
func (t *TransactionInfo) UnmarshalJSON(data []byte) error {
	tx := new(transaction.Transaction)
	if err := json.Unmarshal(data, tx); err != nil {
		return err
	}
	var meta struct {
		BlockHash     *util.Uint256 `json:"blockhash"`
		Confirmations uint32        `json:"confirmations"`
		BlockTime     uint64        `json:"blocktime"`
		VMState       string        `json:"vmstate"`
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return fmt.Errorf("block fields: %w", err)
	}
	*t = TransactionInfo{Transaction: tx, BlockHash: meta.BlockHash, Confirmations: meta.Confirmations,
		BlockTime: meta.BlockTime, VMState: meta.VMState}
	return nil
}

// GetRawTransactionVerbose returns transaction h with its block, if it is
// in one.
func (c *Client) GetRawTransactionVerbose(ctx context.Context, h util.Uint256) (*TransactionInfo, error) {
	t := new(TransactionInfo)
	if err := c.Call(ctx, "getrawtransaction", []any{h.String(), true}, t); err != nil {
		return nil, err
	}
	return t, nil
}
