package dao

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/storage"
)

// DAO is typed access over a store. The zero value is not usable: use New.
type DAO struct {
	store  storage.Store
	snap   *storage.Snapshot // non-nil for a private DAO
	cache  *contractCache
	keyBuf []byte // scratch for storage keys (stores do not keep keys)
	// enc is the scratch encoder of transaction records, recs the arena
	// they are copied into (stores keep values).
	enc  *io.BufBinWriter
	recs recordArena
	// srInHeader: stored headers carry the previous state root
	// (StateRootInHeader).
	srInHeader bool
}

// SetStateRootInHeader tells d that stored headers carry the previous
// state root (the network's StateRootInHeader); set it before any read.
func (d *DAO) SetStateRootInHeader(on bool) { d.srInHeader = on }

// StateRootInHeader reports the setting of SetStateRootInHeader.
func (d *DAO) StateRootInHeader() bool { return d.srInHeader }

// New returns a DAO over st with a fresh contract cache.
func New(st storage.Store) *DAO {
	return &DAO{store: st, cache: newContractCache()}
}

// Store returns the underlying store (for a private DAO, its Snapshot).
func (d *DAO) Store() storage.Store { return d.store }

// Private returns a DAO over a new Snapshot of d's store that shares d's
// contract cache. Its changes reach d only with Persist.
func (d *DAO) Private() *DAO {
	s := storage.NewSnapshot(d.store)
	return &DAO{store: s, snap: s, cache: d.cache, srInHeader: d.srInHeader}
}

// PrivateReusing is Private reusing spare, a private DAO whose changes
// were persisted or discarded and that nobody uses any more: its snapshot
// (and the memory of its maps) is put over d's store. A nil or non-private
// spare gets a new one.
func (d *DAO) PrivateReusing(spare *DAO) *DAO {
	if spare == nil || spare.snap == nil {
		return d.Private()
	}
	spare.snap.Reset(d.store)
	spare.store, spare.cache, spare.srInHeader = spare.snap, d.cache, d.srInHeader
	return spare
}

// IsPrivate reports whether d was made by Private.
func (d *DAO) IsPrivate() bool { return d.snap != nil }

// Persist commits a private DAO's changes into its parent; the DAO stays
// usable and empty.
func (d *DAO) Persist() error {
	if d.snap == nil {
		return ErrNotPrivate
	}
	if err := d.snap.Commit(); err != nil {
		return fmt.Errorf("dao: persist: %w", err)
	}
	return nil
}

// Discard drops a private DAO's changes.
func (d *DAO) Discard() error {
	if d.snap == nil {
		return ErrNotPrivate
	}
	d.snap.Discard()
	return nil
}

// Changes is the number of keys a private DAO changed (0 otherwise).
func (d *DAO) Changes() int {
	if d.snap == nil {
		return 0
	}
	return d.snap.Len()
}

// errKeyNotFound is get's error for an absent key, made once: reads of
// absent keys are common on the block path (an unblocked sender, a
// recipient that is no contract).
var errKeyNotFound = fmt.Errorf("%w: %w", ErrNotFound, storage.ErrKeyNotFound)

// get reads key and maps absence to ErrNotFound.
func (d *DAO) get(key []byte) ([]byte, error) {
	v, err := d.store.Get(key)
	if err != nil {
		if errors.Is(err, storage.ErrKeyNotFound) {
			return nil, errKeyNotFound
		}
		return nil, fmt.Errorf("dao: get: %w", err)
	}
	return v, nil
}

// scratch returns the key buffer with length n, at first big enough for
// any storage key (prefix, id, 64-byte key) so appending one to it does
// not reallocate.
func (d *DAO) scratch(n int) []byte {
	if cap(d.keyBuf) < max(n, 1) {
		d.keyBuf = make([]byte, n, max(n, 1+4+64))
	}
	return d.keyBuf[:n]
}

// StorageKey returns the database key of item key of contract id:
// STStorage ‖ int32 LE id ‖ key. key[1:] of the result is the MPT key.
func StorageKey(id int32, key []byte) []byte {
	return appendStorageKey(make([]byte, 0, 5+len(key)), id, key)
}

func appendStorageKey(dst []byte, id int32, key []byte) []byte {
	dst = append(dst, byte(storage.STStorage))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(id))
	return append(dst, key...)
}

// StorageChange is a contract storage change of a private DAO as neo-go's
// invoke diagnostics list it: Key is the contract ID (int32 LE) and the
// item's key.
type StorageChange struct {
	State string `json:"state"` // Added, Changed or Deleted
	Key   []byte `json:"key"`
	Value []byte `json:"value,omitzero"`
}

// StorageChanges lists a private DAO's contract storage changes (nil for
// a DAO that is not private): puts by key, then deletions of keys its
// parent had, by key.
func (d *DAO) StorageChanges() ([]StorageChange, error) {
	if d.snap == nil {
		return nil, nil
	}
	chs, err := d.snap.Changes()
	if err != nil {
		return nil, fmt.Errorf("dao: %w", err)
	}
	out := []StorageChange{}
	for _, c := range chs {
		if len(c.Key) == 0 || c.Key[0] != byte(storage.STStorage) && c.Key[0] != byte(storage.STTempStorage) {
			continue
		}
		switch {
		case c.Deleted && c.Existed:
			out = append(out, StorageChange{State: "Deleted", Key: c.Key[1:]})
		case c.Deleted:
		case c.Existed:
			out = append(out, StorageChange{State: "Changed", Key: c.Key[1:], Value: c.Value})
		default:
			out = append(out, StorageChange{State: "Added", Key: c.Key[1:], Value: c.Value})
		}
	}
	return out, nil
}
