package dao

import (
	"encoding/binary"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/storage"
)

// GetStorageItem returns the value of key in contract id's storage, or an
// error wrapping ErrNotFound. The result must not be modified.
func (d *DAO) GetStorageItem(id int32, key []byte) ([]byte, error) {
	k := appendStorageKey(d.scratch(0), id, key)
	d.keyBuf = k[:0]
	return d.get(k)
}

// PutStorageItem stores value under key in contract id's storage. value is
// kept by the store: do not modify it afterwards.
func (d *DAO) PutStorageItem(id int32, key, value []byte) error {
	// Stores keep values, not keys (storage.Store): the scratch is reused.
	k := appendStorageKey(d.scratch(0), id, key)
	d.keyBuf = k[:0]
	if err := d.store.Put(k, value); err != nil {
		return fmt.Errorf("dao: put storage item: %w", err)
	}
	return nil
}

// DeleteStorageItem removes key from contract id's storage.
func (d *DAO) DeleteStorageItem(id int32, key []byte) error {
	k := appendStorageKey(d.scratch(0), id, key)
	d.keyBuf = k[:0]
	if err := d.store.Delete(k); err != nil {
		return fmt.Errorf("dao: delete storage item: %w", err)
	}
	return nil
}

// GetBigInt reads an integer item (Neo little-endian two's complement).
func (d *DAO) GetBigInt(id int32, key []byte) (*big.Int, error) {
	v, err := d.GetStorageItem(id, key)
	if err != nil {
		return nil, err
	}
	return bigint.FromBytes(v), nil
}

// PutBigInt stores n as an integer item.
func (d *DAO) PutBigInt(id int32, key []byte, n *big.Int) error {
	return d.PutStorageItem(id, key, bigint.ToBytes(n))
}

// SeekStorage calls fn for the items of contract id whose key starts with
// rng.Prefix (and is at or after rng.Start; rng.Backwards reverses the
// order, see storage.SeekRange). fn receives keys without the id prefix;
// k and v are valid only during the call. Returning false stops.
func (d *DAO) SeekStorage(id int32, rng storage.SeekRange, fn func(k, v []byte) bool) error {
	p := make([]byte, 0, 5+len(rng.Prefix))
	p = append(p, byte(storage.STStorage))
	p = binary.LittleEndian.AppendUint32(p, uint32(id))
	rng.Prefix = append(p, rng.Prefix...)
	n := len(p)
	err := d.store.Seek(rng, func(k, v []byte) bool { return fn(k[n:], v) })
	if err != nil {
		return fmt.Errorf("dao: seek storage: %w", err)
	}
	return nil
}
