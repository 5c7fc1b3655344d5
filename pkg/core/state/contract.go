package state

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Contract is a deployed (or native) contract as ContractManagement keeps it.
// Values handed out by caches (pkg/core/dao) are shared: never modify a
// Contract you did not build yourself.
type Contract struct {
	ID            int32
	UpdateCounter uint16
	Hash          util.Uint160
	NEF           nef.File
	Manifest      manifest.Manifest
}

// ToStackItem returns the reference's form: Array [id, updatecounter, hash
// (20 bytes LE), NEF bytes, manifest struct].
func (c *Contract) ToStackItem() (stackitem.Item, error) {
	nb, err := c.NEF.Bytes()
	if err != nil {
		return nil, fmt.Errorf("%w: nef: %w", ErrInvalidContract, err)
	}
	return stackitem.NewArray([]stackitem.Item{
		stackitem.NewInt(int64(c.ID)),
		stackitem.NewInt(int64(c.UpdateCounter)),
		stackitem.ByteString(c.Hash.BytesLE()),
		stackitem.ByteString(nb),
		c.Manifest.ToStackItem(),
	}), nil
}

// ContractFromStackItem decodes the form ToStackItem writes. The NEF is
// parsed without checksum verification, as the reference reads stored
// contracts.
func ContractFromStackItem(it stackitem.Item) (*Contract, error) {
	arr, ok := it.(*stackitem.Array)
	if !ok || arr.Len() < 5 {
		return nil, fmt.Errorf("%w: not an array of 5", ErrInvalidContract)
	}
	id, err := intField(arr.At(0), math.MinInt32, math.MaxInt32)
	if err != nil {
		return nil, fmt.Errorf("%w: id: %w", ErrInvalidContract, err)
	}
	uc, err := intField(arr.At(1), 0, math.MaxUint16)
	if err != nil {
		return nil, fmt.Errorf("%w: update counter: %w", ErrInvalidContract, err)
	}
	hb, err := arr.At(2).Bytes()
	if err != nil {
		return nil, fmt.Errorf("%w: hash: %w", ErrInvalidContract, err)
	}
	h, err := util.Uint160DecodeBytesLE(hb)
	if err != nil {
		return nil, fmt.Errorf("%w: hash: %w", ErrInvalidContract, err)
	}
	nb, err := arr.At(3).Bytes()
	if err != nil {
		return nil, fmt.Errorf("%w: nef: %w", ErrInvalidContract, err)
	}
	nf, err := nef.Parse(nb, false)
	if err != nil {
		return nil, fmt.Errorf("%w: nef: %w", ErrInvalidContract, err)
	}
	m, err := manifest.FromStackItem(arr.At(4))
	if err != nil {
		return nil, fmt.Errorf("%w: manifest: %w", ErrInvalidContract, err)
	}
	return &Contract{ID: int32(id), UpdateCounter: uint16(uc), Hash: h, NEF: *nf, Manifest: *m}, nil
}

func intField(it stackitem.Item, lo, hi int64) (int64, error) {
	n, err := it.BigInt()
	if err != nil {
		return 0, err
	}
	if !n.IsInt64() || n.Int64() < lo || n.Int64() > hi {
		return 0, fmt.Errorf("%s out of range", n)
	}
	return n.Int64(), nil
}

// Bytes returns the binary-serialized stack item: the value
// ContractManagement stores under prefix 8 ‖ hash.
func (c *Contract) Bytes() ([]byte, error) {
	it, err := c.ToStackItem()
	if err != nil {
		return nil, err
	}
	b, err := stackitem.Serialize(it)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidContract, err)
	}
	return b, nil
}

// ContractFromBytes decodes a stored contract state.
func ContractFromBytes(b []byte) (*Contract, error) {
	it, err := stackitem.Deserialize(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidContract, err)
	}
	return ContractFromStackItem(it)
}

// CanCall reports whether c's manifest permits calling method of target
// (reference ContractState.CanCall).
func (c *Contract) CanCall(target *Contract, method string) bool {
	return c.Manifest.CanCall(target.Hash, &target.Manifest, method)
}

type contractJSON struct {
	ID            int32           `json:"id"`
	UpdateCounter uint16          `json:"updatecounter"`
	Hash          util.Uint160    `json:"hash"`
	NEF           json.RawMessage `json:"nef"`
	Manifest      json.RawMessage `json:"manifest"`
}

// MarshalJSON writes the getcontractstate form.
func (c *Contract) MarshalJSON() ([]byte, error) {
	m, err := c.Manifest.AppendJSON(nil)
	if err != nil {
		return nil, err
	}
	return json.Marshal(contractJSON{
		ID: c.ID, UpdateCounter: c.UpdateCounter, Hash: c.Hash,
		NEF: c.NEF.AppendJSON(nil), Manifest: m,
	})
}

// UnmarshalJSON reads the getcontractstate form.
func (c *Contract) UnmarshalJSON(data []byte) error {
	var aux contractJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidContract, err)
	}
	var nf nef.File
	if err := nf.UnmarshalJSON(aux.NEF); err != nil {
		return fmt.Errorf("%w: nef: %w", ErrInvalidContract, err)
	}
	m, err := manifest.Parse(aux.Manifest)
	if err != nil {
		return fmt.Errorf("%w: manifest: %w", ErrInvalidContract, err)
	}
	*c = Contract{ID: aux.ID, UpdateCounter: aux.UpdateCounter, Hash: aux.Hash, NEF: nf, Manifest: *m}
	return nil
}
