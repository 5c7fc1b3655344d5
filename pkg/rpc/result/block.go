package result

import (
	"encoding/json"
	"errors"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
)

// errMerge is returned when a record's JSON is not an object.
var errMerge = errors.New("result: cannot merge JSON objects")

// BlockMetadata is what getblock and getblockheader add to a verbose block
// or header: confirmations, and the next block's hash when there is one.
type BlockMetadata struct {
	Confirmations uint32        `json:"confirmations"`
	NextBlockHash *util.Uint256 `json:"nextblockhash,omitzero"`
}

// Block is a verbose getblock answer: the block's JSON followed by its
// metadata.
type Block struct {
	*block.Block
	BlockMetadata
}

// MarshalJSON implements json.Marshaler.
func (b Block) MarshalJSON() ([]byte, error) {
	base, err := b.Block.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return appendObject(base, b.BlockMetadata)
}

// Header is a verbose getblockheader answer.
type Header struct {
	*block.Header
	BlockMetadata
}

// MarshalJSON implements json.Marshaler.
func (h Header) MarshalJSON() ([]byte, error) {
	base, err := h.Header.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return appendObject(base, h.BlockMetadata)
}

// TransactionMetadata is what getrawtransaction adds to a verbose
// transaction that is on chain.
type TransactionMetadata struct {
	BlockHash     util.Uint256 `json:"blockhash"`
	Confirmations uint32       `json:"confirmations"`
	BlockTime     uint64       `json:"blocktime"`
	VMState       string       `json:"vmstate,omitzero"`
}

// TransactionOutput is a verbose getrawtransaction answer.
type TransactionOutput struct {
	*transaction.Transaction
	TransactionMetadata
}

// MarshalJSON implements json.Marshaler.
func (t TransactionOutput) MarshalJSON() ([]byte, error) {
	base, err := t.Transaction.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return appendObject(base, t.TransactionMetadata)
}

// appendObject returns base (a JSON object) with the fields of extra's
// JSON object appended after its own.
func appendObject(base []byte, extra any) ([]byte, error) {
	ext, err := json.Marshal(extra)
	if err != nil {
		return nil, err
	}
	if len(base) < 2 || base[0] != '{' || base[len(base)-1] != '}' || len(ext) < 2 || ext[0] != '{' {
		return nil, errMerge
	}
	if len(ext) == 2 { // {}
		return base, nil
	}
	out := make([]byte, 0, len(base)+len(ext))
	out = append(out, base[:len(base)-1]...)
	if len(base) > 2 {
		out = append(out, ',')
	}
	return append(out, ext[1:]...), nil
}
