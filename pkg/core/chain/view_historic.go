package chain

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"sync"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/storage"
)

// historicStore is a read-only storage.Store of a past state: contract
// storage (STStorage keys, but the LedgerContract's, which is not in the
// trie) comes from the state trie at that state's root, the current block
// pointer names the state's block, and every other record (blocks,
// transactions, headers) comes from the chain's store, where it does not
// change. A test run writes into a private layer over it (dao.Private).
// Safe for concurrent use: the trie, which resolves nodes as it reads, is
// behind mu.
type historicStore struct {
	mu      sync.Mutex
	trie    *mpt.Trie // guarded by mu
	base    storage.Store
	current []byte // the SYSCurrentBlock record of the state's block (nil: the chain's)
}

var _ storage.Store = (*historicStore)(nil)

// errHistoricRange is a seek over contract storage that names no
// contract.
var errHistoricRange = errors.New("chain: historic storage is read per contract")

// errReadOnly is a write to a view's store.
var errReadOnly = errors.New("chain: read-only state view")

// newHistoricStore returns the state after block hdr over trie t (opened
// at hdr's state root) and the chain's store base. Without hdr the current
// block pointer is the chain's (for storage reads only).
func newHistoricStore(t *mpt.Trie, base storage.Store, hdr *block.Header) (*historicStore, error) {
	if hdr == nil {
		return &historicStore{trie: t, base: base}, nil
	}
	ptr := storage.NewMemoryStore()
	if err := dao.New(ptr).StoreAsCurrentBlock(&block.Block{Header: *hdr}); err != nil {
		return nil, err
	}
	cur, err := ptr.Get(storage.SYSCurrentBlock.Bytes())
	if err != nil {
		return nil, err
	}
	return &historicStore{trie: t, base: base, current: cur}, nil
}

// inTrie reports whether key (or a range prefix) is one contract's
// storage kept in the trie; whole reports whether it names the contract.
func inTrie(key []byte) (in, whole bool) {
	if len(key) == 0 || key[0] != byte(storage.STStorage) {
		return false, true
	}
	if len(key) < 5 {
		return true, false
	}
	return int32(binary.LittleEndian.Uint32(key[1:5])) != native.LedgerID, true
}

// Get implements storage.Store.
func (h *historicStore) Get(key []byte) ([]byte, error) {
	if h.current != nil && bytes.Equal(key, storage.SYSCurrentBlock.Bytes()) {
		return bytes.Clone(h.current), nil
	}
	in, whole := inTrie(key)
	if !in || !whole {
		if !whole {
			return nil, fmt.Errorf("%w: key of %d bytes", storage.ErrKeyNotFound, len(key))
		}
		return h.base.Get(key)
	}
	h.mu.Lock()
	v, err := h.trie.Get(key[1:])
	h.mu.Unlock()
	if errors.Is(err, mpt.ErrNotFound) {
		return nil, storage.ErrKeyNotFound
	}
	return v, err
}

// Seek implements storage.Store: the contract storage under the range's
// prefix is read from the trie and walked in the range's order.
func (h *historicStore) Seek(rng storage.SeekRange, fn func(k, v []byte) bool) error {
	in, whole := inTrie(rng.Prefix)
	if !in {
		if len(rng.Prefix) == 0 {
			return errHistoricRange
		}
		return h.base.Seek(rng, fn)
	}
	if !whole {
		return errHistoricRange
	}
	h.mu.Lock()
	kvs, err := h.trie.Find(rng.Prefix[1:], nil, math.MaxInt)
	h.mu.Unlock()
	if err != nil {
		return fmt.Errorf("chain: historic seek: %w", err)
	}
	m := storage.NewMemoryStore()
	for _, kv := range kvs {
		if err := m.Put(append([]byte{byte(storage.STStorage)}, kv.Key...), kv.Value); err != nil {
			return err
		}
	}
	return m.Seek(rng, fn)
}

// Put, Delete and PutChangeSet implement storage.Store: the store is
// read-only.
func (h *historicStore) Put([]byte, []byte) error { return errReadOnly }

func (h *historicStore) Delete([]byte) error { return errReadOnly }

func (h *historicStore) PutChangeSet(map[string][]byte, map[string]struct{}) error {
	return errReadOnly
}

// Close implements storage.Store; the chain's store stays open.
func (h *historicStore) Close() error { return nil }
