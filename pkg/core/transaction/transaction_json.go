package transaction

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
)

// transactionJSON is the reference's getrawtransaction (verbose) form, in
// the reference's key order.
type transactionJSON struct {
	Hash            util.Uint256 `json:"hash"`
	Size            int          `json:"size"`
	Version         uint8        `json:"version"`
	Nonce           uint32       `json:"nonce"`
	Sender          string       `json:"sender"`
	SystemFee       int64        `json:"sysfee,string"`
	NetworkFee      int64        `json:"netfee,string"`
	ValidUntilBlock uint32       `json:"validuntilblock"`
	Signers         []Signer     `json:"signers"`
	Attributes      []Attribute  `json:"attributes"`
	Script          []byte       `json:"script"`
	Witnesses       []Witness    `json:"witnesses"`
}

// MarshalJSON writes the reference's verbose transaction form.
func (t *Transaction) MarshalJSON() ([]byte, error) {
	aux := transactionJSON{
		Hash:            t.Hash(),
		Size:            t.Size(),
		Version:         t.Version,
		Nonce:           t.Nonce,
		Sender:          address.Uint160ToString(t.Sender()),
		SystemFee:       t.SystemFee,
		NetworkFee:      t.NetworkFee,
		ValidUntilBlock: t.ValidUntilBlock,
		Signers:         t.Signers,
		Attributes:      t.Attributes,
		Script:          nonNil(t.Script),
		Witnesses:       t.Witnesses,
	}
	if aux.Signers == nil {
		aux.Signers = []Signer{}
	}
	if aux.Attributes == nil {
		aux.Attributes = []Attribute{}
	}
	if aux.Witnesses == nil {
		aux.Witnesses = []Witness{}
	}
	return json.Marshal(aux)
}

// jsonInt64 accepts a decimal string (the reference's form) or a number.
type jsonInt64 int64

func (v *jsonInt64) UnmarshalJSON(data []byte) error {
	data = bytes.Trim(data, `"`)
	n, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil {
		return err
	}
	*v = jsonInt64(n)
	return nil
}

// UnmarshalJSON parses the verbose form. The result goes through the binary
// decoder, so every decoding rule applies; "hash", "size" and "sender",
// when present, must match the contents.
func (t *Transaction) UnmarshalJSON(data []byte) error {
	var aux struct {
		Hash            *util.Uint256 `json:"hash"`
		Size            *int          `json:"size"`
		Version         uint8         `json:"version"`
		Nonce           uint32        `json:"nonce"`
		Sender          *string       `json:"sender"`
		SystemFee       jsonInt64     `json:"sysfee"`
		NetworkFee      jsonInt64     `json:"netfee"`
		ValidUntilBlock uint32        `json:"validuntilblock"`
		Signers         []Signer      `json:"signers"`
		Attributes      []Attribute   `json:"attributes"`
		Script          []byte        `json:"script"`
		Witnesses       []Witness     `json:"witnesses"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: transaction: %w", ErrInvalidJSON, err)
	}
	raw := &Transaction{
		Version: aux.Version, Nonce: aux.Nonce,
		SystemFee: int64(aux.SystemFee), NetworkFee: int64(aux.NetworkFee),
		ValidUntilBlock: aux.ValidUntilBlock,
		Signers:         aux.Signers, Attributes: aux.Attributes,
		Script: aux.Script, Witnesses: aux.Witnesses,
	}
	b, err := raw.Bytes()
	if err != nil {
		return err
	}
	dec, err := NewTransactionFromBytes(b)
	if err != nil {
		return err
	}
	if aux.Hash != nil && *aux.Hash != dec.Hash() {
		return fmt.Errorf("%w: %s, computed %s", ErrHashMismatch, *aux.Hash, dec.Hash())
	}
	if aux.Size != nil && *aux.Size != dec.Size() {
		return fmt.Errorf("%w: %d, computed %d", ErrSizeMismatch, *aux.Size, dec.Size())
	}
	if aux.Sender != nil && *aux.Sender != address.Uint160ToString(dec.Sender()) {
		return fmt.Errorf("%w: sender %s is not the first signer", ErrInvalidJSON, *aux.Sender)
	}
	*t = *dec
	return nil
}
