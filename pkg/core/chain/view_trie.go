package chain

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/util"
)

// ErrBadRecord is a stored record that does not decode.
var ErrBadRecord = errors.New("chain: undecodable record")

// TrieView reads the contract storage under one state root straight from
// the state trie, with proofs (getstate, getproof, findstates). Read
// errors are the trie's: mpt.ErrNotFound for an absent key, and
// mpt.ErrMissingNode for a node the store no longer has (an old root on a
// node that prunes). Safe for concurrent use: the trie, which resolves
// nodes as it reads, is behind the view's mutex.
type TrieView struct {
	mu sync.Mutex
	t  *mpt.Trie // guarded by mu
}

// StorageItem is one contract storage item of a TrieView: the key without
// the contract part.
type StorageItem struct {
	Key, Value []byte
}

// TrieAt opens the state trie at root read-only.
func (c *Chain) TrieAt(root util.Uint256) (*TrieView, error) {
	t, err := c.openTrie(root)
	if err != nil {
		return nil, err
	}
	return &TrieView{t: t}, nil
}

// trieKey is the trie key of a contract storage item: int32 LE id ‖ key.
func trieKey(id int32, key []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(key)), uint32(id)), key...)
}

// Contract reads the state of contract h (ContractManagement's record).
// A record that does not decode is reported wrapping ErrBadRecord.
func (v *TrieView) Contract(h util.Uint160) (*state.Contract, error) {
	v.mu.Lock()
	raw, err := v.t.Get(trieKey(native.ManagementID, dao.ContractKey(h)))
	v.mu.Unlock()
	if err != nil {
		return nil, err
	}
	c, err := state.ContractFromBytes(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: contract state: %w", ErrBadRecord, err)
	}
	return c, nil
}

// Get reads key of contract id.
func (v *TrieView) Get(id int32, key []byte) ([]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.t.Get(trieKey(id, key))
}

// Proof returns the trie key of key of contract id and the nodes proving
// its value.
func (v *TrieView) Proof(id int32, key []byte) ([]byte, [][]byte, error) {
	k := trieKey(id, key)
	v.mu.Lock()
	defer v.mu.Unlock()
	p, err := v.t.GetProof(k)
	return k, p, err
}

// Find returns at most max items of contract id under prefix in key
// order, after the item whose key is prefix ‖ from when from is not empty.
func (v *TrieView) Find(id int32, prefix, from []byte, max int) ([]StorageItem, error) {
	v.mu.Lock()
	kvs, err := v.t.Find(trieKey(id, prefix), from, max)
	v.mu.Unlock()
	out := make([]StorageItem, len(kvs))
	for i, kv := range kvs {
		out[i] = StorageItem{Key: kv.Key[4:], Value: kv.Value}
	}
	return out, err
}

// Leaves returns up to max leaves of the whole trie with their trie keys
// (contract id ‖ key): what a state-synchronising peer must end up with.
func (v *TrieView) Leaves(max int) ([]StorageItem, error) {
	v.mu.Lock()
	kvs, err := v.t.Find(nil, nil, max)
	v.mu.Unlock()
	out := make([]StorageItem, len(kvs))
	for i, kv := range kvs {
		out[i] = StorageItem{Key: kv.Key, Value: kv.Value}
	}
	return out, err
}
