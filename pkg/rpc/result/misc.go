package result

import (
	"encoding/json"
	"math/big"

	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
)

// StateHeight is the getstateheight answer.
type StateHeight struct {
	Local     uint32 `json:"localrootindex"`
	Validated uint32 `json:"validatedrootindex"`
}

// StateRoot is the getstateroot answer.
type StateRoot struct {
	Version   byte          `json:"version"`
	Index     uint32        `json:"index"`
	RootHash  util.Uint256  `json:"roothash"`
	Witnesses []WitnessJSON `json:"witnesses"`
}

// WitnessJSON is a witness as getstateroot prints it.
type WitnessJSON struct {
	Invocation   []byte `json:"invocation"`
	Verification []byte `json:"verification"`
}

// KeyValue is one storage entry of findstorage and findstates.
type KeyValue struct {
	Key   []byte `json:"key"`
	Value []byte `json:"value"`
}

// FindStorage is the findstorage answer.
type FindStorage struct {
	Results   []KeyValue `json:"results"`
	Next      int        `json:"next"`
	Truncated bool       `json:"truncated"`
}

// FindStates is the findstates answer; proofs are the base64 proof
// strings of getproof.
type FindStates struct {
	Results    []KeyValue `json:"results"`
	FirstProof string     `json:"firstProof,omitzero"`
	LastProof  string     `json:"lastProof,omitzero"`
	Truncated  bool       `json:"truncated"`
}

// Validator is one getnextblockvalidators entry (votes -1 for a validator
// that is not a registered candidate).
type Validator struct {
	PublicKey string `json:"publickey"`
	Votes     int64  `json:"votes"`
}

// Candidate is one getcandidates entry.
type Candidate struct {
	PublicKey string `json:"publickey"`
	Votes     string `json:"votes"`
	Active    bool   `json:"active"`
}

// UnclaimedGas is the getunclaimedgas answer.
type UnclaimedGas struct {
	Address   util.Uint160
	Unclaimed *big.Int
}

// MarshalJSON implements json.Marshaler: the address in Neo form and the
// amount as a decimal string.
func (g UnclaimedGas) MarshalJSON() ([]byte, error) {
	u := g.Unclaimed
	if u == nil {
		u = new(big.Int)
	}
	return json.Marshal(struct {
		Address   string `json:"address"`
		Unclaimed string `json:"unclaimed"`
	}{address.Uint160ToString(g.Address), u.String()})
}

// ValidateAddress is the validateaddress answer; Address echoes the
// parameter as given.
type ValidateAddress struct {
	Address json.RawMessage `json:"address"`
	IsValid bool            `json:"isvalid"`
}

// NetworkFee is the calculatenetworkfee answer.
type NetworkFee struct {
	Value int64 `json:"networkfee,string"`
}

// Peers is the getpeers answer.
type Peers struct {
	Unconnected []Peer `json:"unconnected"`
	Connected   []Peer `json:"connected"`
	Bad         []Peer `json:"bad"`
}

// Peer is one getpeers entry.
type Peer struct {
	Address         string `json:"address"`
	Port            uint16 `json:"port"`
	UserAgent       string `json:"useragent,omitzero"`
	LastKnownHeight uint32 `json:"lastknownheight,omitzero"`
}
