package neostate

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// ErrInvalidRecord is a stored value that does not decode as its record.
var ErrInvalidRecord = errors.New("neostate: invalid record")

// Stack item type bytes of the binary serializer.
const (
	tNull       = 0x00
	tBool       = 0x20
	tInteger    = 0x21
	tByteString = 0x28
	tArray      = 0x40
	tStruct     = 0x41
)

// PublicKeyLen is the length of a compressed secp256r1 key.
const PublicKeyLen = keys.CompressedLen

func appendVarUint(b []byte, v uint64) []byte {
	switch {
	case v < 0xfd:
		return append(b, byte(v))
	case v <= math.MaxUint16:
		return append(b, 0xfd, byte(v), byte(v>>8))
	case v <= math.MaxUint32:
		return append(b, 0xfe, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	b = append(b, 0xff)
	for i := range 8 {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

func appendBytes(b []byte, data []byte) []byte {
	b = append(b, tByteString)
	b = appendVarUint(b, uint64(len(data)))
	return append(b, data...)
}

func appendBigInt(b []byte, n *big.Int) []byte {
	var buf [33]byte
	v := bigint.ToPreallocatedBytes(n, buf[:0])
	b = append(b, tInteger)
	b = appendVarUint(b, uint64(len(v)))
	return append(b, v...)
}

func appendInt(b []byte, v int64) []byte {
	return appendBigInt(b, big.NewInt(v))
}

func appendUint(b []byte, v uint64) []byte {
	return appendBigInt(b, new(big.Int).SetUint64(v))
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, tBool, 1)
	}
	return append(b, tBool, 0)
}

// decodeCompound deserializes data as an Array (or Struct when wantStruct)
// of at least n elements.
func decodeCompound(data []byte, wantStruct bool, n int, what string) ([]stackitem.Item, error) {
	it, err := stackitem.Deserialize(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidRecord, what, err)
	}
	arr, ok := it.(*stackitem.Array)
	if !ok || (wantStruct && !arr.IsStruct()) {
		return nil, fmt.Errorf("%w: %s: not a %s", ErrInvalidRecord, what, kind(wantStruct))
	}
	if arr.Len() < n {
		return nil, fmt.Errorf("%w: %s: %d fields, want %d", ErrInvalidRecord, what, arr.Len(), n)
	}
	return arr.Items(), nil
}

func kind(wantStruct bool) string {
	if wantStruct {
		return "struct"
	}
	return "array"
}

func itemInt(it stackitem.Item, what string) (*big.Int, error) {
	n, err := it.BigInt()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidRecord, what, err)
	}
	return n, nil
}

func itemUint(it stackitem.Item, limit uint64, what string) (uint64, error) {
	n, err := itemInt(it, what)
	if err != nil {
		return 0, err
	}
	if n.Sign() < 0 || !n.IsUint64() || n.Uint64() > limit {
		return 0, fmt.Errorf("%w: %s: %s out of range", ErrInvalidRecord, what, n)
	}
	return n.Uint64(), nil
}

func itemBytes(it stackitem.Item, what string) ([]byte, error) {
	b, err := it.Bytes()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidRecord, what, err)
	}
	return b, nil
}

// itemPublicKey reads a compressed key without decompressing it: records
// are written only after the key was validated.
func itemPublicKey(it stackitem.Item, what string) ([]byte, error) {
	b, err := itemBytes(it, what)
	if err != nil {
		return nil, err
	}
	if len(b) != PublicKeyLen || (b[0] != 2 && b[0] != 3) {
		return nil, fmt.Errorf("%w: %s: not a compressed key", ErrInvalidRecord, what)
	}
	return b, nil
}

// NEP17Balance is the account state of a plain NEP-17 native (GAS):
// Struct[balance].
type NEP17Balance struct {
	Balance big.Int
}

// Bytes returns the stored form.
func (s *NEP17Balance) Bytes() []byte {
	// Struct, count, Integer, length and the value's bytes (at most one
	// more than its bits need): one allocation.
	b := make([]byte, 0, 4+s.Balance.BitLen()/8+1)
	return appendBigInt(append(b, tStruct, 1), &s.Balance)
}

// NEP17BalanceFromBytes decodes a stored NEP17Balance.
func NEP17BalanceFromBytes(data []byte) (*NEP17Balance, error) {
	if s, ok := fastNEP17Balance(data); ok {
		return s, nil
	}
	return nep17BalanceFromItems(data)
}

// nep17BalanceFromItems is NEP17BalanceFromBytes through the generic
// deserializer (any form it accepts, and its errors).
func nep17BalanceFromItems(data []byte) (*NEP17Balance, error) {
	f, err := decodeCompound(data, true, 1, "balance")
	if err != nil {
		return nil, err
	}
	n, err := itemInt(f[0], "balance")
	if err != nil {
		return nil, err
	}
	s := new(NEP17Balance)
	s.Balance.Set(n)
	return s, nil
}

// NEOBalance is the NeoToken account state: Struct[balance, balance height,
// voted key or Null, last GAS per vote].
type NEOBalance struct {
	Balance       big.Int
	BalanceHeight uint32
	// VoteTo is the compressed key voted for (nil: no vote).
	VoteTo         []byte
	LastGasPerVote big.Int
}

// Bytes returns the stored form.
func (s *NEOBalance) Bytes() []byte {
	b := make([]byte, 0, 64)
	b = append(b, tStruct, 4)
	b = appendBigInt(b, &s.Balance)
	b = appendUint(b, uint64(s.BalanceHeight))
	if s.VoteTo == nil {
		b = append(b, tNull)
	} else {
		b = appendBytes(b, s.VoteTo)
	}
	return appendBigInt(b, &s.LastGasPerVote)
}

// ToStackItem returns the Struct getAccountState returns.
func (s *NEOBalance) ToStackItem() stackitem.Item {
	var vote stackitem.Item = stackitem.Null{}
	if s.VoteTo != nil {
		vote = stackitem.ByteString(s.VoteTo)
	}
	return stackitem.NewStruct([]stackitem.Item{
		stackitem.NewBigInteger(new(big.Int).Set(&s.Balance)),
		stackitem.NewInt(int64(s.BalanceHeight)),
		vote,
		stackitem.NewBigInteger(new(big.Int).Set(&s.LastGasPerVote)),
	})
}

// NEOBalanceFromBytes decodes a stored NEOBalance.
func NEOBalanceFromBytes(data []byte) (*NEOBalance, error) {
	if s, ok := fastNEOBalance(data); ok {
		return s, nil
	}
	return neoBalanceFromItems(data)
}

// neoBalanceFromItems is NEOBalanceFromBytes through the generic
// deserializer (any form it accepts, and its errors).
func neoBalanceFromItems(data []byte) (*NEOBalance, error) {
	f, err := decodeCompound(data, true, 4, "NEO balance")
	if err != nil {
		return nil, err
	}
	s := new(NEOBalance)
	bal, err := itemInt(f[0], "NEO balance")
	if err != nil {
		return nil, err
	}
	s.Balance.Set(bal)
	h, err := itemUint(f[1], math.MaxUint32, "balance height")
	if err != nil {
		return nil, err
	}
	s.BalanceHeight = uint32(h)
	if _, null := f[2].(stackitem.Null); !null {
		if s.VoteTo, err = itemPublicKey(f[2], "vote"); err != nil {
			return nil, err
		}
	}
	last, err := itemInt(f[3], "last GAS per vote")
	if err != nil {
		return nil, err
	}
	s.LastGasPerVote.Set(last)
	return s, nil
}

// Candidate is a candidate's state: Struct[registered, votes].
type Candidate struct {
	Registered bool
	Votes      big.Int
}

// Bytes returns the stored form.
func (c *Candidate) Bytes() []byte {
	return appendBigInt(appendBool([]byte{tStruct, 2}, c.Registered), &c.Votes)
}

// CandidateFromBytes decodes a stored Candidate.
func CandidateFromBytes(data []byte) (*Candidate, error) {
	f, err := decodeCompound(data, true, 2, "candidate")
	if err != nil {
		return nil, err
	}
	reg, err := f[0].Bool()
	if err != nil {
		return nil, fmt.Errorf("%w: candidate: %w", ErrInvalidRecord, err)
	}
	v, err := itemInt(f[1], "candidate votes")
	if err != nil {
		return nil, err
	}
	c := &Candidate{Registered: reg}
	c.Votes.Set(v)
	return c, nil
}

// KeyWithVotes is one committee member (compressed key) and its votes at
// the last committee refresh.
type KeyWithVotes struct {
	Key   []byte
	Votes big.Int
}

// Committee is the cached committee in election order:
// Array[Struct[key, votes]…].
type Committee []KeyWithVotes

// Bytes returns the stored form.
func (c Committee) Bytes() []byte {
	b := make([]byte, 0, 3+len(c)*(2+2+PublicKeyLen+2+8))
	b = appendVarUint(append(b, tArray), uint64(len(c)))
	for i := range c {
		b = appendBytes(append(b, tStruct, 2), c[i].Key)
		b = appendBigInt(b, &c[i].Votes)
	}
	return b
}

// Keys returns the members' keys in election order.
func (c Committee) Keys() [][]byte {
	out := make([][]byte, len(c))
	for i := range c {
		out[i] = c[i].Key
	}
	return out
}

// CommitteeFromBytes decodes a stored Committee.
func CommitteeFromBytes(data []byte) (Committee, error) {
	f, err := decodeCompound(data, false, 0, "committee")
	if err != nil {
		return nil, err
	}
	c := make(Committee, len(f))
	for i, it := range f {
		arr, ok := it.(*stackitem.Array)
		if !ok || !arr.IsStruct() || arr.Len() < 2 {
			return nil, fmt.Errorf("%w: committee member %d", ErrInvalidRecord, i)
		}
		if c[i].Key, err = itemPublicKey(arr.At(0), "committee key"); err != nil {
			return nil, err
		}
		v, err := itemInt(arr.At(1), "committee votes")
		if err != nil {
			return nil, err
		}
		c[i].Votes.Set(v)
	}
	return c, nil
}

// Amount returns the balance (for the shared NEP-17 code).
func (s *NEP17Balance) Amount() *big.Int { return &s.Balance }

// Amount returns the balance (for the shared NEP-17 code).
func (s *NEOBalance) Amount() *big.Int { return &s.Balance }
