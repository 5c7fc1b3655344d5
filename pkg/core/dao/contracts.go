package dao

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/util"
)

// ContractManagement storage layout (reference ContractManagement).
const (
	// ManagementID is the contract id of ContractManagement.
	ManagementID int32 = -1
	// PrefixContract precedes a contract hash (LE) in ContractManagement
	// storage; the value is the serialized contract state.
	PrefixContract byte = 8
	// PrefixContractHash precedes a contract id (int32 BE); the value is the
	// contract hash (LE).
	PrefixContractHash byte = 12
)

// maxCachedContracts bounds the decoded-contract cache.
const maxCachedContracts = 4096

type cachedContract struct {
	raw []byte
	c   *state.Contract
}

type contractCache struct {
	mu sync.RWMutex
	m  map[util.Uint160]cachedContract // guarded by mu
}

func newContractCache() *contractCache {
	return &contractCache{m: make(map[util.Uint160]cachedContract)}
}

func (cc *contractCache) lookup(h util.Uint160, raw []byte) *state.Contract {
	cc.mu.RLock()
	e, ok := cc.m[h]
	cc.mu.RUnlock()
	if ok && bytes.Equal(e.raw, raw) {
		return e.c
	}
	return nil
}

func (cc *contractCache) store(h util.Uint160, raw []byte, c *state.Contract) {
	cc.mu.Lock()
	if len(cc.m) >= maxCachedContracts {
		clear(cc.m)
	}
	cc.m[h] = cachedContract{raw: raw, c: c}
	cc.mu.Unlock()
}

// ContractKey returns the ContractManagement storage key of hash h.
func ContractKey(h util.Uint160) []byte {
	return append([]byte{PrefixContract}, h.BytesLE()...)
}

// ContractIDKey returns the ContractManagement storage key of id.
func ContractIDKey(id int32) []byte {
	return binary.BigEndian.AppendUint32([]byte{PrefixContractHash}, uint32(id))
}

// GetContract returns the state of the contract with hash h, or an error
// wrapping ErrNotFound. The result is shared: do not modify it.
func (d *DAO) GetContract(h util.Uint160) (*state.Contract, error) {
	var key [1 + util.Uint160Size]byte
	key[0] = PrefixContract
	copy(key[1:], h[:])
	raw, err := d.GetStorageItem(ManagementID, key[:])
	if err != nil {
		return nil, err
	}
	if c := d.cache.lookup(h, raw); c != nil {
		return c, nil
	}
	c, err := state.ContractFromBytes(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: contract %s: %w", ErrCorrupted, h, err)
	}
	d.cache.store(h, raw, c)
	return c, nil
}

// GetContractHashByID returns the hash of the contract with id.
func (d *DAO) GetContractHashByID(id int32) (util.Uint160, error) {
	raw, err := d.GetStorageItem(ManagementID, ContractIDKey(id))
	if err != nil {
		return util.Uint160{}, err
	}
	h, err := util.Uint160DecodeBytesLE(raw)
	if err != nil {
		return util.Uint160{}, fmt.Errorf("%w: contract id %d: %w", ErrCorrupted, id, err)
	}
	return h, nil
}

// GetContractByID returns the state of the contract with id.
func (d *DAO) GetContractByID(id int32) (*state.Contract, error) {
	h, err := d.GetContractHashByID(id)
	if err != nil {
		return nil, err
	}
	return d.GetContract(h)
}

// PutContract stores c under its hash and its id → hash mapping, as
// ContractManagement does on deploy and update.
func (d *DAO) PutContract(c *state.Contract) error {
	if err := d.UpdateContract(c); err != nil {
		return err
	}
	return d.PutStorageItem(ManagementID, ContractIDKey(c.ID), c.Hash.BytesLE())
}

// UpdateContract stores a new state of an existing contract. Unlike
// PutContract it leaves the id mapping alone, as the reference writes that
// only on deployment (rewriting it would show up in storage diffs).
func (d *DAO) UpdateContract(c *state.Contract) error {
	raw, err := c.Bytes()
	if err != nil {
		return err
	}
	return d.PutStorageItem(ManagementID, ContractKey(c.Hash), raw)
}

// DeleteContract removes the state and id mapping of c.
func (d *DAO) DeleteContract(c *state.Contract) error {
	if err := d.DeleteStorageItem(ManagementID, ContractKey(c.Hash)); err != nil {
		return err
	}
	return d.DeleteStorageItem(ManagementID, ContractIDKey(c.ID))
}

// IsNotFound reports whether err says a record is absent.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
