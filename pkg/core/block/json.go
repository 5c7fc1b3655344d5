package block

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
)

// headerJSON is the reference's getblockheader (verbose) form in its key
// order; getblock adds "tx" after "witnesses" and reports the block size.
type headerJSON struct {
	Hash          util.Uint256          `json:"hash"`
	Size          int                   `json:"size"`
	Version       uint32                `json:"version"`
	PrevHash      util.Uint256          `json:"previousblockhash"`
	MerkleRoot    util.Uint256          `json:"merkleroot"`
	Timestamp     uint64                `json:"time"`
	Nonce         string                `json:"nonce"`
	Index         uint32                `json:"index"`
	PrimaryIndex  uint8                 `json:"primary"`
	NextConsensus string                `json:"nextconsensus"`
	PrevStateRoot *util.Uint256         `json:"previousstateroot,omitempty"`
	Witnesses     []transaction.Witness `json:"witnesses"`
}

type blockJSON struct {
	headerJSON
	Transactions []*transaction.Transaction `json:"tx"`
}

func (h *Header) toJSON(size int) headerJSON {
	j := headerJSON{
		Hash:          h.Hash(),
		Size:          size,
		Version:       h.Version,
		PrevHash:      h.PrevHash,
		MerkleRoot:    h.MerkleRoot,
		Timestamp:     h.Timestamp,
		Nonce:         fmt.Sprintf("%016X", h.Nonce),
		Index:         h.Index,
		PrimaryIndex:  h.PrimaryIndex,
		NextConsensus: address.Uint160ToString(h.NextConsensus),
		Witnesses:     []transaction.Witness{h.Witness},
	}
	if h.StateRootEnabled {
		sr := h.PrevStateRoot
		j.PrevStateRoot = &sr
	}
	return j
}

// MarshalJSON writes the reference's verbose header form.
func (h *Header) MarshalJSON() ([]byte, error) {
	return json.Marshal(h.toJSON(h.Size()))
}

// MarshalJSON writes the reference's verbose block form.
func (b *Block) MarshalJSON() ([]byte, error) {
	aux := blockJSON{headerJSON: b.Header.toJSON(b.Size()), Transactions: b.Transactions}
	if aux.Transactions == nil {
		aux.Transactions = []*transaction.Transaction{}
	}
	return json.Marshal(aux)
}

// headerJSONIn accepts the verbose form; hash and size are optional and
// checked when present.
type headerJSONIn struct {
	Hash          *util.Uint256         `json:"hash"`
	Size          *int                  `json:"size"`
	Version       uint32                `json:"version"`
	PrevHash      util.Uint256          `json:"previousblockhash"`
	MerkleRoot    util.Uint256          `json:"merkleroot"`
	Timestamp     uint64                `json:"time"`
	Nonce         string                `json:"nonce"`
	Index         uint32                `json:"index"`
	PrimaryIndex  uint8                 `json:"primary"`
	NextConsensus string                `json:"nextconsensus"`
	PrevStateRoot *util.Uint256         `json:"previousstateroot"`
	Witnesses     []transaction.Witness `json:"witnesses"`
}

func (aux *headerJSONIn) header() (Header, error) {
	var h Header
	if aux.Version != VersionInitial {
		return h, fmt.Errorf("%w: %d", ErrInvalidVersion, aux.Version)
	}
	nonce, err := strconv.ParseUint(aux.Nonce, 16, 64)
	if err != nil {
		return h, fmt.Errorf("%w: nonce: %w", ErrInvalidJSON, err)
	}
	nc, err := address.StringToUint160(aux.NextConsensus)
	if err != nil {
		return h, fmt.Errorf("%w: nextconsensus: %w", ErrInvalidJSON, err)
	}
	if len(aux.Witnesses) != 1 {
		return h, fmt.Errorf("%w: %d", ErrWitnessCount, len(aux.Witnesses))
	}
	h = Header{
		Version: aux.Version, PrevHash: aux.PrevHash, MerkleRoot: aux.MerkleRoot,
		Timestamp: aux.Timestamp, Nonce: nonce, Index: aux.Index,
		PrimaryIndex: aux.PrimaryIndex, NextConsensus: nc, Witness: aux.Witnesses[0],
	}
	if aux.PrevStateRoot != nil {
		h.StateRootEnabled = true
		h.PrevStateRoot = *aux.PrevStateRoot
	}
	if aux.Hash != nil && *aux.Hash != h.Hash() {
		return h, fmt.Errorf("%w: %s, computed %s", ErrHashMismatch, *aux.Hash, h.Hash())
	}
	return h, nil
}

// UnmarshalJSON parses the verbose header form.
func (h *Header) UnmarshalJSON(data []byte) error {
	var aux headerJSONIn
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: header: %w", ErrInvalidJSON, err)
	}
	hd, err := aux.header()
	if err != nil {
		return err
	}
	if aux.Size != nil && *aux.Size != hd.Size() {
		return fmt.Errorf("%w: %d, computed %d", ErrSizeMismatch, *aux.Size, hd.Size())
	}
	*h = hd
	return nil
}

// UnmarshalJSON parses the verbose block form; the Merkle root must match
// the transactions, and hash and size (when present) the contents.
func (b *Block) UnmarshalJSON(data []byte) error {
	var aux struct {
		headerJSONIn
		Transactions []*transaction.Transaction `json:"tx"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: block: %w", ErrInvalidJSON, err)
	}
	hd, err := aux.header()
	if err != nil {
		return err
	}
	nb := Block{Header: hd, Transactions: aux.Transactions}
	if len(nb.Transactions) > MaxTransactionsPerBlock {
		return fmt.Errorf("%w: %d", ErrTooManyTxs, len(nb.Transactions))
	}
	hashes := make([]util.Uint256, len(nb.Transactions))
	for i, tx := range nb.Transactions {
		if tx == nil {
			return fmt.Errorf("%w: null transaction %d", ErrInvalidJSON, i)
		}
		hashes[i] = tx.Hash()
	}
	if err := checkUnique(hashes); err != nil {
		return err
	}
	if root := nb.ComputeMerkleRoot(); root != nb.MerkleRoot {
		return fmt.Errorf("%w: header %s, computed %s", ErrMerkleRoot, nb.MerkleRoot, root)
	}
	if aux.Size != nil && *aux.Size != nb.Size() {
		return fmt.Errorf("%w: %d, computed %d", ErrSizeMismatch, *aux.Size, nb.Size())
	}
	*b = nb
	return nil
}
