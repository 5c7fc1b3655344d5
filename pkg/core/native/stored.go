package native

import (
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
)

// Helpers for the values the native contracts keep in their storage.

// putInt stores v as a BigInteger.
func putInt(d *dao.DAO, id int32, key []byte, v int64) error {
	return d.PutBigInt(id, key, big.NewInt(v))
}

// getInt reads a stored integer; absent means 0.
func getInt(d *dao.DAO, id int32, key []byte) (int64, error) {
	v, err := d.GetStorageItem(id, key)
	if err != nil {
		if dao.IsNotFound(err) {
			return 0, nil
		}
		return 0, err
	}
	if x, ok := bigint.FromInt64Bytes(v); ok {
		return x, nil // at most 8 bytes: no big.Int needed
	}
	n := bigint.FromBytes(v)
	if !n.IsInt64() {
		return 0, fmt.Errorf("%w: %x holds %s", ErrInvalidState, key, n)
	}
	return n.Int64(), nil
}

// getRecord reads the item under key and decodes it; absent means the
// zero T (nil for the pointer and list records) and no error. A value
// that does not decode is reported as ErrInvalidState.
func getRecord[T any](d *dao.DAO, id int32, key []byte, decode func([]byte) (T, error)) (T, error) {
	var zero T
	v, err := d.GetStorageItem(id, key)
	if err != nil {
		if dao.IsNotFound(err) {
			return zero, nil
		}
		return zero, err
	}
	r, err := decode(v)
	if err != nil {
		return zero, fmt.Errorf("%w: %w", ErrInvalidState, err)
	}
	return r, nil
}
