package block

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
)

// baseAux is the verbose header form as NewFakeHeaderFromJSON reads it;
// its name and field types make encoding/json's errors read as the
// reference's.
type baseAux struct {
	Hash          util.Uint256          `json:"hash"`
	Version       uint32                `json:"version"`
	PrevHash      util.Uint256          `json:"previousblockhash"`
	MerkleRoot    util.Uint256          `json:"merkleroot"`
	Timestamp     uint64                `json:"time"`
	Nonce         string                `json:"nonce"`
	Index         uint32                `json:"index"`
	NextConsensus string                `json:"nextconsensus"`
	PrimaryIndex  byte                  `json:"primary"`
	Witnesses     []transaction.Witness `json:"witnesses"`
}

// Errors of NewFakeHeaderFromJSON, worded as neo-go's header decoder.
var (
	errFakeWitnesses = errors.New("wrong number of witnesses")
	errFakeHash      = errors.New("json 'hash' doesn't match block hash")
)

// NewFakeHeaderFromJSON decodes a header of the verbose form as the
// reference's header JSON decoder does for RPC invokecontainedscript: any
// version, an optional nonce, exactly one witness, and a "hash" that must
// be the header's. Unlike UnmarshalJSON it checks nothing else, and its
// errors are the reference's words.
func NewFakeHeaderFromJSON(data []byte) (*Header, error) {
	var aux baseAux
	if err := json.Unmarshal(data, &aux); err != nil {
		return nil, err
	}
	var nonce uint64
	if aux.Nonce != "" {
		n, err := strconv.ParseUint(aux.Nonce, 16, 64)
		if err != nil {
			return nil, err
		}
		nonce = n
	}
	nc, err := address.StringToUint160(aux.NextConsensus)
	if err != nil {
		return nil, err
	}
	if len(aux.Witnesses) != 1 {
		return nil, errFakeWitnesses
	}
	h := &Header{Version: aux.Version, PrevHash: aux.PrevHash, MerkleRoot: aux.MerkleRoot,
		Timestamp: aux.Timestamp, Nonce: nonce, Index: aux.Index, PrimaryIndex: aux.PrimaryIndex,
		NextConsensus: nc, Witness: aux.Witnesses[0]}
	if aux.Hash != h.Hash() {
		return nil, errFakeHash
	}
	return h, nil
}
