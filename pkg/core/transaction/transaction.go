package transaction

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// Reference limits of a transaction.
const (
	// MaxTransactionSize bounds a transaction's serialized size; it is a
	// verification rule (checked by CheckSize), not a decoding one.
	MaxTransactionSize = 102400
	// MaxAttributes bounds signers plus attributes.
	MaxAttributes = 16
	// MaxScriptLength bounds the transaction script.
	MaxScriptLength = math.MaxUint16
	// headerSize is the fixed part: version, nonce, fees, valid-until-block.
	headerSize = 1 + 4 + 8 + 8 + 4
	// SignDataSize is the size of the data a witness signs (see SignData).
	SignDataSize = 4 + util.Uint256Size
)

// Transaction is a Neo N3 transaction.
//
// The hash and size are computed once (at decode time, or on first use for
// a transaction built in code) and cached: after changing a field of a
// transaction whose Hash or Size has been read, call InvalidateCache.
type Transaction struct {
	Version         uint8
	Nonce           uint32
	SystemFee       int64
	NetworkFee      int64
	ValidUntilBlock uint32
	Signers         []Signer
	Attributes      []Attribute
	Script          []byte
	Witnesses       []Witness

	hash   util.Uint256
	hashed bool
	size   int
}

// oneSigner is a transaction with room for one signer and its witness,
// what most transactions have: NewTransactionFromBytes makes the three in
// one allocation instead of three (sized uses the room).
type oneSigner struct {
	tx      Transaction
	signer  [1]Signer
	witness [1]Witness
}

// sized returns s[:n] when s is empty with room for n (the room laid out
// by NewTransactionFromBytes), else a new slice of n zero values.
func sized[T any](s []T, n uint64) []T {
	if len(s) == 0 && n > 0 && n <= uint64(cap(s)) {
		return s[:n]
	}
	return make([]T, n)
}

// NewTransactionFromBytes decodes a transaction that must fill b exactly.
// The transaction's scripts alias b: do not modify b afterwards.
func NewTransactionFromBytes(b []byte) (*Transaction, error) {
	o := new(oneSigner)
	t := &o.tx
	t.Signers, t.Witnesses = o.signer[:0], o.witness[:0]
	r := io.NewBinReaderFromBuf(b)
	t.DecodeBinaryBuf(r, b)
	if r.Err != nil {
		return nil, r.Err
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%w: %d bytes", ErrTrailingData, r.Len())
	}
	return t, nil
}

// EncodedLen returns the length of the transaction serialized at the start
// of b (what may follow it is not read), checked by the rules of
// DecodeBinary, without hashing it or copying its scripts: a stored
// record's transaction is served as it is from it.
func EncodedLen(b []byte) (int, error) {
	o := encodedLenPool.Get().(*oneSigner)
	defer encodedLenPool.Put(o)
	t := &o.tx
	*t = Transaction{Signers: o.signer[:0], Witnesses: o.witness[:0]}
	r := io.NewBinReaderFromBuf(b)
	t.decodeUnsigned(r, b)
	t.decodeWitnesses(r, b)
	if r.Err != nil {
		return 0, r.Err
	}
	return len(b) - r.Len(), nil
}

// encodedLenPool holds EncodedLen's scratch transactions (their slices
// alias the last input until reused).
var encodedLenPool = sync.Pool{New: func() any { return new(oneSigner) }}

// DecodeBinary reads a transaction and caches its hash and size.
func (t *Transaction) DecodeBinary(r *io.BinReader) { t.DecodeBinaryBuf(r, nil) }

// DecodeBinaryBuf is DecodeBinary for a reader made with
// io.NewBinReaderFromBuf(buf): it hashes the unsigned part straight from
// buf instead of re-encoding it, and its scripts alias buf instead of being
// copied (so buf must not be modified afterwards). buf may be nil.
func (t *Transaction) DecodeBinaryBuf(r *io.BinReader, buf []byte) {
	start := r.Len()
	t.decodeUnsigned(r, buf)
	unsignedEnd := r.Len()
	t.decodeWitnesses(r, buf)
	if r.Err != nil {
		return
	}
	t.hashed = false
	unsigned := t.unsignedSize()
	if buf != nil && start >= 0 && start <= len(buf) && start-unsignedEnd == unsigned {
		// The input is canonical (it has the size of our encoding), so its
		// bytes are our encoding: hash them in place.
		off := len(buf) - start
		t.hash = hash.Sha256(buf[off : off+unsigned])
		t.hashed = true
	} else {
		// Re-encode, as the reference hashes its own serialization.
		t.hash, r.Err = t.computeHash()
		t.hashed = r.Err == nil
	}
	if start >= 0 {
		// The reference caches the size actually read.
		t.size = start - r.Len()
	} else {
		t.size = unsigned + t.witnessesSize()
	}
}

func (t *Transaction) decodeUnsigned(r *io.BinReader, buf []byte) {
	t.Version = r.ReadU8()
	t.Nonce = r.ReadU32LE()
	t.SystemFee = int64(r.ReadU64LE())
	t.NetworkFee = int64(r.ReadU64LE())
	t.ValidUntilBlock = r.ReadU32LE()
	if r.Err != nil {
		return
	}
	if err := t.checkHeader(); err != nil {
		setErr(r, err)
		return
	}
	t.decodeSigners(r)
	t.decodeAttributes(r)
	t.Script = readVarBytes(r, buf, MaxScriptLength)
	if r.Err == nil && len(t.Script) == 0 {
		setErr(r, ErrEmptyScript)
	}
}

func (t *Transaction) checkHeader() error {
	switch {
	case t.Version > 0:
		return fmt.Errorf("%w: %d", ErrInvalidVersion, t.Version)
	case t.SystemFee < 0:
		return fmt.Errorf("%w: system fee %d", ErrNegativeFee, t.SystemFee)
	case t.NetworkFee < 0:
		return fmt.Errorf("%w: network fee %d", ErrNegativeFee, t.NetworkFee)
	case t.SystemFee+t.NetworkFee < t.SystemFee:
		return ErrFeeOverflow
	}
	return nil
}

func (t *Transaction) decodeSigners(r *io.BinReader) {
	n := r.ReadVarUint()
	if r.Err != nil {
		return
	}
	if n == 0 {
		setErr(r, ErrNoSigners)
		return
	}
	if n > MaxAttributes {
		setErr(r, fmt.Errorf("%w: %d", ErrTooManySigners, n))
		return
	}
	t.Signers = sized(t.Signers, n)
	for i := range t.Signers {
		t.Signers[i].DecodeBinary(r)
		if r.Err != nil {
			return
		}
		for j := range i {
			if t.Signers[j].Account == t.Signers[i].Account {
				setErr(r, fmt.Errorf("%w: %s", ErrDuplicateSigner, t.Signers[i].Account))
				return
			}
		}
	}
}

func (t *Transaction) decodeAttributes(r *io.BinReader) {
	n := r.ReadVarUint()
	if r.Err != nil {
		return
	}
	if n > uint64(MaxAttributes-len(t.Signers)) {
		setErr(r, fmt.Errorf("%w: %d with %d signers", ErrTooManyAttributes, n, len(t.Signers)))
		return
	}
	t.Attributes = make([]Attribute, n)
	var seen [256]bool
	for i := range t.Attributes {
		a := &t.Attributes[i]
		a.DecodeBinary(r)
		if r.Err != nil {
			return
		}
		if !a.Type.AllowMultiple() {
			if seen[a.Type] {
				setErr(r, fmt.Errorf("%w: %s", ErrDuplicateAttribute, a.Type))
				return
			}
			seen[a.Type] = true
		}
	}
}

func (t *Transaction) decodeWitnesses(r *io.BinReader, buf []byte) {
	if r.Err != nil {
		return
	}
	n := r.ReadVarUint()
	if r.Err != nil {
		return
	}
	if n != uint64(len(t.Signers)) {
		setErr(r, fmt.Errorf("%w: %d witnesses, %d signers", ErrWitnessCount, n, len(t.Signers)))
		return
	}
	t.Witnesses = sized(t.Witnesses, n)
	for i := range t.Witnesses {
		t.Witnesses[i].decodeBuf(r, buf)
	}
}

// EncodeBinary writes the transaction.
func (t *Transaction) EncodeBinary(w *io.BinWriter) {
	t.encodeUnsigned(w)
	w.WriteVarUint(uint64(len(t.Witnesses)))
	for i := range t.Witnesses {
		t.Witnesses[i].EncodeBinary(w)
	}
}

// EncodeUnsigned writes the part of the transaction covered by its hash
// (everything but the witnesses).
func (t *Transaction) EncodeUnsigned(w *io.BinWriter) { t.encodeUnsigned(w) }

func (t *Transaction) encodeUnsigned(w *io.BinWriter) {
	w.WriteU8(t.Version)
	w.WriteU32LE(t.Nonce)
	w.WriteU64LE(uint64(t.SystemFee))
	w.WriteU64LE(uint64(t.NetworkFee))
	w.WriteU32LE(t.ValidUntilBlock)
	w.WriteVarUint(uint64(len(t.Signers)))
	for i := range t.Signers {
		t.Signers[i].EncodeBinary(w)
	}
	w.WriteVarUint(uint64(len(t.Attributes)))
	for i := range t.Attributes {
		t.Attributes[i].EncodeBinary(w)
	}
	w.WriteVarBytes(t.Script)
}

// Bytes returns the serialized transaction.
func (t *Transaction) Bytes() ([]byte, error) {
	w := io.NewBufBinWriter()
	w.Grow(t.Size())
	t.EncodeBinary(w.BinWriter)
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
}

func (t *Transaction) computeHash() (util.Uint256, error) {
	w := io.NewBufBinWriter()
	w.Grow(t.unsignedSize())
	t.encodeUnsigned(w.BinWriter)
	if w.Err != nil {
		return util.Uint256{}, w.Err
	}
	return hash.Sha256(w.Bytes()), nil
}

// Hash returns the transaction hash: SHA-256 of the unsigned part. It is
// cached (see the type's doc). It is the zero hash if the transaction
// cannot be encoded.
func (t *Transaction) Hash() util.Uint256 {
	if !t.hashed {
		h, err := t.computeHash()
		if err != nil {
			return util.Uint256{}
		}
		t.hash, t.hashed = h, true
	}
	return t.hash
}

// Size returns the serialized size (cached, see the type's doc); the
// network fee per byte is computed from it.
func (t *Transaction) Size() int {
	if t.size == 0 {
		t.size = t.unsignedSize() + t.witnessesSize()
	}
	return t.size
}

// InvalidateCache drops the cached hash and size after a field changed.
func (t *Transaction) InvalidateCache() {
	t.hashed = false
	t.size = 0
}

func (t *Transaction) unsignedSize() int {
	n := headerSize + io.GetVarSize(len(t.Signers)) + io.GetVarSize(len(t.Attributes)) +
		varBytesSize(len(t.Script))
	for i := range t.Signers {
		n += t.Signers[i].Size()
	}
	for i := range t.Attributes {
		n += t.Attributes[i].Size()
	}
	return n
}

func (t *Transaction) witnessesSize() int {
	n := io.GetVarSize(len(t.Witnesses))
	for i := range t.Witnesses {
		n += t.Witnesses[i].Size()
	}
	return n
}

// CheckSize reports ErrOversized when the transaction exceeds
// MaxTransactionSize (a state-independent verification rule).
func (t *Transaction) CheckSize() error {
	if s := t.Size(); s > MaxTransactionSize {
		return fmt.Errorf("%w: %d bytes", ErrOversized, s)
	}
	return nil
}

// Sender is the first signer, who pays the fees. It is the zero hash for a
// transaction without signers (which cannot be decoded).
func (t *Transaction) Sender() util.Uint160 {
	if len(t.Signers) == 0 {
		return util.Uint160{}
	}
	return t.Signers[0].Account
}

// FeePerByte is the network fee divided by the size.
func (t *Transaction) FeePerByte() int64 {
	return t.NetworkFee / int64(t.Size())
}

// SignData returns the data a witness of the transaction signs on the
// network with the given magic: magic (u32 LE) followed by the hash.
func (t *Transaction) SignData(magic uint32) []byte {
	b := make([]byte, SignDataSize)
	binary.LittleEndian.PutUint32(b, magic)
	h := t.Hash()
	copy(b[4:], h[:])
	return b
}

// HasAttribute reports whether the transaction has an attribute of type typ.
func (t *Transaction) HasAttribute(typ AttrType) bool {
	for i := range t.Attributes {
		if t.Attributes[i].Type == typ {
			return true
		}
	}
	return false
}

// GetAttributes returns the attributes of type typ (nil if none).
func (t *Transaction) GetAttributes(typ AttrType) []Attribute {
	var res []Attribute
	for i := range t.Attributes {
		if t.Attributes[i].Type == typ {
			res = append(res, t.Attributes[i])
		}
	}
	return res
}

// HasSigner reports whether account is one of the signers.
func (t *Transaction) HasSigner(account util.Uint160) bool {
	for i := range t.Signers {
		if t.Signers[i].Account == account {
			return true
		}
	}
	return false
}

// Copy returns a deep copy of t with its caches dropped.
func (t *Transaction) Copy() *Transaction {
	c := *t
	c.Signers = make([]Signer, len(t.Signers))
	for i := range t.Signers {
		c.Signers[i] = t.Signers[i].Copy()
	}
	c.Attributes = make([]Attribute, len(t.Attributes))
	for i := range t.Attributes {
		c.Attributes[i] = t.Attributes[i].Copy()
	}
	c.Witnesses = make([]Witness, len(t.Witnesses))
	for i := range t.Witnesses {
		c.Witnesses[i] = t.Witnesses[i].Copy()
	}
	c.Script = append([]byte(nil), t.Script...)
	c.InvalidateCache()
	return &c
}
