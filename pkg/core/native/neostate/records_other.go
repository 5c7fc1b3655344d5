package neostate

import (
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// NodeList is a RoleManagement designation: Array[compressed key…], sorted
// as the reference sorts ECPoints.
type NodeList [][]byte

// Bytes returns the stored form.
func (l NodeList) Bytes() []byte {
	b := make([]byte, 0, 3+len(l)*(2+PublicKeyLen))
	b = appendVarUint(append(b, tArray), uint64(len(l)))
	for _, k := range l {
		b = appendBytes(b, k)
	}
	return b
}

// NodeListFromBytes decodes a stored NodeList.
func NodeListFromBytes(data []byte) (NodeList, error) {
	f, err := decodeCompound(data, false, 0, "node list")
	if err != nil {
		return nil, err
	}
	l := make(NodeList, len(f))
	for i, it := range f {
		if l[i], err = itemPublicKey(it, "node"); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// Deposit is a Notary deposit: Struct[amount, till].
type Deposit struct {
	Amount big.Int
	Till   uint32
}

// Bytes returns the stored form.
func (d *Deposit) Bytes() []byte {
	return appendUint(appendBigInt([]byte{tStruct, 2}, &d.Amount), uint64(d.Till))
}

// DepositFromBytes decodes a stored Deposit.
func DepositFromBytes(data []byte) (*Deposit, error) {
	f, err := decodeCompound(data, true, 2, "deposit")
	if err != nil {
		return nil, err
	}
	a, err := itemInt(f[0], "deposit amount")
	if err != nil {
		return nil, err
	}
	till, err := itemUint(f[1], math.MaxUint32, "deposit till")
	if err != nil {
		return nil, err
	}
	d := &Deposit{Till: uint32(till)}
	d.Amount.Set(a)
	return d, nil
}

// IDList is the list of pending oracle request ids of one URL:
// Array[Integer…].
type IDList []uint64

// Bytes returns the stored form.
func (l IDList) Bytes() []byte {
	b := make([]byte, 0, 3+len(l)*10)
	b = appendVarUint(append(b, tArray), uint64(len(l)))
	for _, id := range l {
		b = appendUint(b, id)
	}
	return b
}

// IDListFromBytes decodes a stored IDList.
func IDListFromBytes(data []byte) (IDList, error) {
	f, err := decodeCompound(data, false, 0, "id list")
	if err != nil {
		return nil, err
	}
	l := make(IDList, len(f))
	for i, it := range f {
		if l[i], err = itemUint(it, math.MaxUint64, "request id"); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// OracleRequest is a pending oracle request: Array[original tx hash, GAS for
// response, URL, filter or Null, callback contract, callback method,
// serialized user data].
type OracleRequest struct {
	OriginalTxID     util.Uint256
	GasForResponse   int64
	URL              string
	Filter           *string
	CallbackContract util.Uint160
	CallbackMethod   string
	UserData         []byte
}

// Bytes returns the stored form.
func (r *OracleRequest) Bytes() []byte {
	b := make([]byte, 0, 96+len(r.URL)+len(r.CallbackMethod)+len(r.UserData))
	b = append(b, tArray, 7)
	b = appendBytes(b, r.OriginalTxID.BytesLE())
	b = appendInt(b, r.GasForResponse)
	b = appendBytes(b, []byte(r.URL))
	if r.Filter == nil {
		b = append(b, tNull)
	} else {
		b = appendBytes(b, []byte(*r.Filter))
	}
	b = appendBytes(b, r.CallbackContract.BytesLE())
	b = appendBytes(b, []byte(r.CallbackMethod))
	return appendBytes(b, r.UserData)
}

// ToStackItem returns the Array form (as stored).
func (r *OracleRequest) ToStackItem() stackitem.Item {
	var filter stackitem.Item = stackitem.Null{}
	if r.Filter != nil {
		filter = stackitem.ByteString(*r.Filter)
	}
	return stackitem.NewArray([]stackitem.Item{
		stackitem.ByteString(r.OriginalTxID.BytesLE()),
		stackitem.NewInt(r.GasForResponse),
		stackitem.ByteString(r.URL),
		filter,
		stackitem.ByteString(r.CallbackContract.BytesLE()),
		stackitem.ByteString(r.CallbackMethod),
		stackitem.ByteString(r.UserData),
	})
}

func itemString(it stackitem.Item, what string) (string, error) {
	b, err := itemBytes(it, what)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%w: %s: invalid UTF-8", ErrInvalidRecord, what)
	}
	return string(b), nil
}

// OracleRequestFromBytes decodes a stored OracleRequest.
func OracleRequestFromBytes(data []byte) (*OracleRequest, error) {
	f, err := decodeCompound(data, false, 7, "oracle request")
	if err != nil {
		return nil, err
	}
	r := new(OracleRequest)
	b, err := itemBytes(f[0], "original tx")
	if err != nil {
		return nil, err
	}
	if r.OriginalTxID, err = util.Uint256DecodeBytesLE(b); err != nil {
		return nil, fmt.Errorf("%w: original tx: %w", ErrInvalidRecord, err)
	}
	gas, err := itemInt(f[1], "gas for response")
	if err != nil {
		return nil, err
	}
	if !gas.IsInt64() {
		return nil, fmt.Errorf("%w: gas for response out of range", ErrInvalidRecord)
	}
	r.GasForResponse = gas.Int64()
	if r.URL, err = itemString(f[2], "url"); err != nil {
		return nil, err
	}
	if _, null := f[3].(stackitem.Null); !null {
		s, err := itemString(f[3], "filter")
		if err != nil {
			return nil, err
		}
		r.Filter = &s
	}
	if b, err = itemBytes(f[4], "callback contract"); err != nil {
		return nil, err
	}
	if r.CallbackContract, err = util.Uint160DecodeBytesLE(b); err != nil {
		return nil, fmt.Errorf("%w: callback contract: %w", ErrInvalidRecord, err)
	}
	if r.CallbackMethod, err = itemString(f[5], "callback method"); err != nil {
		return nil, err
	}
	if b, err = itemBytes(f[6], "user data"); err != nil {
		return nil, err
	}
	r.UserData = append([]byte(nil), b...)
	return r, nil
}
