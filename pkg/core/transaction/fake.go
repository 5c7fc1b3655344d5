package transaction

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/n3d-io/n3d/pkg/util"
)

// NewFakeFromJSON decodes the verbose JSON form of a transaction without
// any check and takes its "hash" and "size" as given (the zero hash and
// the computed size when absent): the container of a test run that asks
// for a particular hash or size (RPC invokecontainedscript, neo-go's
// UnmarshalJSONUnsafe). Such a transaction must never be verified, pooled
// or relayed. Decoding errors are encoding/json's over the verbose form's
// fields, worded as the reference's.
func NewFakeFromJSON(data []byte) (*Transaction, error) {
	// The reference's field types under its type name, so that
	// encoding/json's errors read the same.
	type transactionJSON struct {
		Hash            fakeHash    `json:"hash"`
		Size            int         `json:"size"`
		Version         uint8       `json:"version"`
		Nonce           uint32      `json:"nonce"`
		Sender          string      `json:"sender"`
		SystemFee       int64       `json:"sysfee,string"`
		NetworkFee      int64       `json:"netfee,string"`
		ValidUntilBlock uint32      `json:"validuntilblock"`
		Attributes      []Attribute `json:"attributes"`
		Signers         []Signer    `json:"signers"`
		Script          []byte      `json:"script"`
		Witnesses       []Witness   `json:"witnesses"`
	}
	var aux transactionJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return nil, err
	}
	t := &Transaction{
		Version: aux.Version, Nonce: aux.Nonce,
		SystemFee: aux.SystemFee, NetworkFee: aux.NetworkFee,
		ValidUntilBlock: aux.ValidUntilBlock,
		Signers:         aux.Signers, Attributes: aux.Attributes,
		Script: aux.Script, Witnesses: aux.Witnesses,
	}
	t.SetFakeHash(util.Uint256(aux.Hash), aux.Size)
	return t, nil
}

// fakeHash reads a "0x"-prefixed (or bare) big-endian hex hash with the
// reference's error texts.
type fakeHash util.Uint256

func (h *fakeHash) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	s = strings.TrimPrefix(s, "0x")
	if len(s) != 2*util.Uint256Size {
		return fmt.Errorf("expected string size of %d got %d", 2*util.Uint256Size, len(s))
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return err
	}
	slices.Reverse(b) // big-endian text, little-endian bytes
	copy(h[:], b)
	return nil
}

// SetFakeHash makes Hash return h and Size return size (the computed size
// when 0) whatever the contents: for test runs only (see NewFakeFromJSON).
func (t *Transaction) SetFakeHash(h util.Uint256, size int) {
	t.hash, t.hashed, t.size = h, true, size
}
