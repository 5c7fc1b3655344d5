package interop

import (
	"bytes"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// StorageContext is the storage handle of a contract (reference
// StorageContext).
type StorageContext struct {
	ID       int32
	ReadOnly bool
}

// FindOptions select what Storage.Find iterators return.
type FindOptions byte

// Find options, as in the reference.
const (
	FindDefault           FindOptions = 0
	FindKeysOnly          FindOptions = 1 << 0
	FindRemovePrefix      FindOptions = 1 << 1
	FindValuesOnly        FindOptions = 1 << 2
	FindDeserializeValues FindOptions = 1 << 3
	FindPickField0        FindOptions = 1 << 4
	FindPickField1        FindOptions = 1 << 5
	FindBackwards         FindOptions = 1 << 7
	FindAll                           = FindKeysOnly | FindRemovePrefix | FindValuesOnly |
		FindDeserializeValues | FindPickField0 | FindPickField1 | FindBackwards
)

// Validate applies the reference's rules on option combinations.
func (o FindOptions) Validate() error {
	has := func(f FindOptions) bool { return o&f != 0 }
	switch {
	case o&^FindAll != 0:
		return Fault(ErrInvalidArgument, "invalid Find options: unknown flag")
	case has(FindKeysOnly) && (has(FindDeserializeValues) || has(FindPickField0) || has(FindPickField1)):
		return Fault(ErrInvalidArgument, "invalid Find options KeysOnly conflicts with other options")
	case has(FindValuesOnly) && (has(FindKeysOnly) || has(FindRemovePrefix)):
		return Fault(ErrInvalidArgument, "invalid Find options: KeysOnly conflicts with ValuesOnly")
	case has(FindPickField0) && has(FindPickField1):
		return Fault(ErrInvalidArgument, "invalid Find options: Pick0 conflicts with Pick1")
	case (has(FindPickField0) || has(FindPickField1)) && !has(FindDeserializeValues):
		return Fault(ErrInvalidArgument, "invalid Find options: PickN is specified without Deserialize")
	}
	return nil
}

// errReadOnly is a write through a read-only storage context.
var errReadOnly = Fault(ErrNotAllowed, "storage.Context is read only")

// popStorageContext pops the storage context argument.
func (ic *Context) popStorageContext() (*StorageContext, error) {
	it, err := ic.pop()
	if err != nil {
		return nil, err
	}
	if io, ok := it.(*stackitem.Interop); ok {
		if sc, ok := io.Value().(*StorageContext); ok {
			return sc, nil
		}
	}
	return nil, Faultf(ErrInvalidArgument, "%s is not a storage.Context", goValueType(it))
}

func (ic *Context) contractStorageContext(readOnly bool) (*StorageContext, error) {
	c, err := ic.dao.GetContract(ic.CurrentScriptHash())
	if err != nil {
		if isNotFound(err) {
			return nil, vm.Fault(ErrNotAllowed, "storage context can not be retrieved in dynamic scripts: key not found", err)
		}
		return nil, err
	}
	return &StorageContext{ID: c.ID, ReadOnly: readOnly}, nil
}

func storageGetContext(ic *Context) error         { return pushStorageContext(ic, false) }
func storageGetReadOnlyContext(ic *Context) error { return pushStorageContext(ic, true) }

func pushStorageContext(ic *Context, ro bool) error {
	sc, err := ic.contractStorageContext(ro)
	if err != nil {
		return err
	}
	ic.push(stackitem.NewInterop(sc))
	return nil
}

func storageAsReadOnly(ic *Context) error {
	sc, err := ic.popStorageContext()
	if err != nil {
		return err
	}
	if !sc.ReadOnly {
		sc = &StorageContext{ID: sc.ID, ReadOnly: true}
	}
	ic.push(stackitem.NewInterop(sc))
	return nil
}

func storageGet(ic *Context) error {
	sc, err := ic.popStorageContext()
	if err != nil {
		return err
	}
	return ic.storageGet(sc)
}

func storageLocalGet(ic *Context) error {
	sc, err := ic.contractStorageContext(true)
	if err != nil {
		return err
	}
	return ic.storageGet(sc)
}

func (ic *Context) storageGet(sc *StorageContext) error {
	key, err := ic.popBytes()
	if err != nil {
		return err
	}
	v, err := ic.dao.GetStorageItem(sc.ID, key)
	switch {
	case err == nil:
		ic.push(stackitem.ByteString(bytes.Clone(v)))
	case isNotFound(err):
		ic.push(stackitem.Null{})
	default:
		return err
	}
	return nil
}

func storagePut(ic *Context) error {
	sc, err := ic.popStorageContext()
	if err != nil {
		return err
	}
	return ic.storagePut(sc)
}

func storageLocalPut(ic *Context) error {
	sc, err := ic.contractStorageContext(false)
	if err != nil {
		return err
	}
	return ic.storagePut(sc)
}

func (ic *Context) storagePut(sc *StorageContext) error {
	key, err := ic.popBytes()
	if err != nil {
		return err
	}
	value, err := ic.popBytes()
	if err != nil {
		return err
	}
	if len(key) > MaxStorageKeySize {
		return Fault(ErrInvalidArgument, "key is too big")
	}
	if len(value) > MaxStorageValueSize {
		return Fault(ErrInvalidArgument, "value is too big")
	}
	if sc.ReadOnly {
		return errReadOnly
	}
	old, err := ic.dao.GetStorageItem(sc.ID, key)
	if err != nil && !isNotFound(err) {
		return err
	}
	size := PutFeeSize(len(key), len(value), len(old), err == nil)
	if err := ic.AddFee(int64(size) * ic.cfg.StoragePrice); err != nil {
		return err
	}
	return ic.dao.PutStorageItem(sc.ID, bytes.Clone(key), bytes.Clone(value))
}

// PutFeeSize is the number of bytes Storage.Put charges for: key and value
// for a new item; for a rewrite, a quarter of the overwritten part plus the
// growth.
func PutFeeSize(keyLen, valueLen, oldLen int, exists bool) int {
	switch {
	case !exists:
		return keyLen + valueLen
	case valueLen == 0:
		return 0
	case valueLen <= oldLen:
		return (valueLen-1)/4 + 1
	case oldLen == 0:
		return valueLen
	default:
		return (oldLen-1)/4 + 1 + valueLen - oldLen
	}
}

func storageDelete(ic *Context) error {
	sc, err := ic.popStorageContext()
	if err != nil {
		return err
	}
	return ic.storageDelete(sc)
}

func storageLocalDelete(ic *Context) error {
	sc, err := ic.contractStorageContext(false)
	if err != nil {
		return err
	}
	return ic.storageDelete(sc)
}

func (ic *Context) storageDelete(sc *StorageContext) error {
	key, err := ic.popBytes()
	if err != nil {
		return err
	}
	if sc.ReadOnly {
		return errReadOnly
	}
	return ic.dao.DeleteStorageItem(sc.ID, key)
}

func storageFind(ic *Context) error {
	sc, err := ic.popStorageContext()
	if err != nil {
		return err
	}
	return ic.storageFind(sc)
}

func storageLocalFind(ic *Context) error {
	sc, err := ic.contractStorageContext(true)
	if err != nil {
		return err
	}
	return ic.storageFind(sc)
}

func (ic *Context) storageFind(sc *StorageContext) error {
	prefix, err := ic.popBytes()
	if err != nil {
		return err
	}
	o, err := ic.popByte()
	if err != nil {
		return err
	}
	opts := FindOptions(o)
	if err := opts.Validate(); err != nil {
		return err
	}
	it, err := NewStorageIterator(ic.dao, sc.ID, prefix, opts)
	if err != nil {
		return err
	}
	ic.push(stackitem.NewInterop(it))
	return nil
}

type kv struct{ k, v []byte }

// StorageIterator iterates over the items of one contract under a prefix
// as they were when it was created (the reference snapshots the cache at
// Find time).
type StorageIterator struct {
	items  []kv
	pos    int // index of the current item + 1
	prefix int
	opts   FindOptions
}

// NewStorageIterator collects the items of contract id under prefix.
func NewStorageIterator(d *dao.DAO, id int32, prefix []byte, opts FindOptions) (*StorageIterator, error) {
	it := &StorageIterator{prefix: len(prefix), opts: opts}
	rng := storage.SeekRange{Prefix: prefix, Backwards: opts&FindBackwards != 0}
	err := d.SeekStorage(id, rng, func(k, v []byte) bool {
		it.items = append(it.items, kv{bytes.Clone(k), bytes.Clone(v)})
		return true
	})
	if err != nil {
		return nil, err
	}
	return it, nil
}

// Next implements Iterator.
func (s *StorageIterator) Next() bool {
	if s.pos < len(s.items) {
		s.pos++
		return true
	}
	s.pos = len(s.items) + 1
	return false
}

// Value implements Iterator.
func (s *StorageIterator) Value() (stackitem.Item, error) {
	if s.pos == 0 || s.pos > len(s.items) {
		return nil, Bare(Fault(ErrNotAllowed, "iterator index out of range"))
	}
	e := s.items[s.pos-1]
	key := e.k
	if s.opts&FindRemovePrefix != 0 {
		key = key[s.prefix:]
	}
	if s.opts&FindKeysOnly != 0 {
		return stackitem.ByteString(key), nil
	}
	var val stackitem.Item = stackitem.ByteString(e.v)
	if s.opts&FindDeserializeValues != 0 {
		d, err := stackitem.Deserialize(e.v)
		if err != nil {
			return nil, Bare(vm.Fault(ErrInvalidArgument, err.Error(), err))
		}
		val = d
	}
	if s.opts&(FindPickField0|FindPickField1) != 0 {
		arr, ok := val.(*stackitem.Array)
		idx := 0
		if s.opts&FindPickField1 != 0 {
			idx = 1
		}
		// Worded as the reference Go node's runtime panics.
		if !ok {
			return nil, Bare(Faultf(ErrInvalidArgument, "interface conversion: interface {} is %s, not []stackitem.Item", goValueType(val)))
		}
		if arr.Len() <= idx {
			return nil, Bare(Faultf(ErrInvalidArgument, "runtime error: index out of range [%d] with length %d", idx, arr.Len()))
		}
		val = arr.At(idx)
	}
	if s.opts&FindValuesOnly != 0 {
		return val, nil
	}
	return stackitem.NewStruct([]stackitem.Item{stackitem.ByteString(key), val}), nil
}

// Iterator is what System.Iterator.Next and Value work on; natives may
// return their own implementations.
type Iterator interface {
	// Next advances and reports whether there is a current element.
	Next() bool
	// Value returns the current element.
	Value() (stackitem.Item, error)
}

func iteratorNext(ic *Context) error {
	it, err := popInterop[Iterator](ic)
	if err != nil {
		return err
	}
	ic.push(stackitem.Bool(it.Next()))
	return nil
}

func iteratorValue(ic *Context) error {
	it, err := popInterop[Iterator](ic)
	if err != nil {
		return err
	}
	v, err := it.Value()
	if err != nil {
		return err
	}
	ic.push(v)
	return nil
}

func isNotFound(err error) bool { return dao.IsNotFound(err) }
