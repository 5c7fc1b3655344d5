package keys

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// PublicKey is a point of one of the two curves. A decoded key is immutable
// and may be shared (the decompression cache hands out the same pointer to
// every caller), so no method modifies it after construction.
//
// The zero value is the point at infinity of secp256r1: it encodes as the
// single byte 0x00, sorts before every other key and verifies nothing.
type PublicKey struct {
	curve Curve
	set   bool                // false for the point at infinity
	comp  [CompressedLen]byte // compressed encoding
	y     [coordLen]byte      // big-endian Y (X is comp[1:])
	r1    *ecdsa.PublicKey    // verification key for secp256r1
	hot   *hotKey             // verification state of r1 keys, shared by copies
	k1    *secp256k1.PublicKey
}

// NewPublicKeyFromBytes decodes a secp256r1 key in compressed (33 bytes,
// 0x02/0x03) or uncompressed (65 bytes, 0x04) form. Compressed keys are
// served from a cache, so decoding a known key costs a map lookup.
func NewPublicKeyFromBytes(b []byte) (*PublicKey, error) {
	return NewPublicKeyFromBytesOnCurve(b, Secp256r1)
}

// NewPublicKeyFromBytesOnCurve decodes a key of the given curve, with the
// same rules as the reference's ECPoint.DecodePoint: the length must match
// the prefix exactly, coordinates must be below the field prime and the point
// must be on the curve. The infinity byte 0x00 is rejected.
func NewPublicKeyFromBytesOnCurve(b []byte, c Curve) (*PublicKey, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("%w: %d", ErrUnknownCurve, byte(c))
	}
	if len(b) == CompressedLen && (b[0] == 0x02 || b[0] == 0x03) {
		return cachedDecompress(b, c)
	}
	return decodePoint(b, c)
}

// NewPublicKeyFromString decodes a hex-encoded secp256r1 key.
func NewPublicKeyFromString(s string) (*PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPublicKey, err)
	}
	return NewPublicKeyFromBytes(b)
}

// decodePoint decodes without the cache.
func decodePoint(b []byte, c Curve) (*PublicKey, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrInvalidPublicKey)
	}
	switch b[0] {
	case 0x02, 0x03:
		if len(b) != CompressedLen {
			return nil, fmt.Errorf("%w: compressed key of %d bytes", ErrInvalidPublicKey, len(b))
		}
	case 0x04:
		if len(b) != UncompressedLen {
			return nil, fmt.Errorf("%w: uncompressed key of %d bytes", ErrInvalidPublicKey, len(b))
		}
	default:
		return nil, fmt.Errorf("%w: prefix 0x%02x", ErrInvalidPublicKey, b[0])
	}
	if c == Secp256k1 {
		k, err := secp256k1.ParsePubKey(b)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidPublicKey, err)
		}
		return newK1(k), nil
	}
	var x, y *big.Int
	if b[0] == 0x04 {
		k, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), b)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidPublicKey, err)
		}
		return newR1(k), nil
	}
	x, y = elliptic.UnmarshalCompressed(elliptic.P256(), b)
	if x == nil {
		return nil, fmt.Errorf("%w: not a point of %s", ErrInvalidPublicKey, c)
	}
	return newR1(&ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}), nil
}

// newR1 wraps a validated P-256 key.
func newR1(k *ecdsa.PublicKey) *PublicKey {
	p := &PublicKey{curve: Secp256r1, set: true, r1: k}
	k.X.FillBytes(p.comp[1:])
	k.Y.FillBytes(p.y[:])
	p.comp[0] = 0x02 | p.y[coordLen-1]&1
	p.hot = newHotKey((*[coordLen]byte)(p.comp[1:]), &p.y)
	return p
}

// newK1 wraps a validated secp256k1 key.
func newK1(k *secp256k1.PublicKey) *PublicKey {
	p := &PublicKey{curve: Secp256k1, set: true, k1: k}
	un := k.SerializeUncompressed()
	copy(p.comp[1:], un[1:1+coordLen])
	copy(p.y[:], un[1+coordLen:])
	p.comp[0] = 0x02 | p.y[coordLen-1]&1
	return p
}

// Curve returns the key's curve.
func (p *PublicKey) Curve() Curve { return p.curve }

// IsInfinity tells whether p is the point at infinity (the zero value).
func (p *PublicKey) IsInfinity() bool { return !p.set }

// Bytes returns the compressed encoding (33 bytes, or {0x00} for infinity).
// The slice is a fresh copy.
func (p *PublicKey) Bytes() []byte {
	if !p.set {
		return []byte{0}
	}
	b := p.comp
	return b[:]
}

// Compressed returns the compressed encoding as an array; for the point at
// infinity it is all zeroes.
func (p *PublicKey) Compressed() [CompressedLen]byte {
	if !p.set {
		return [CompressedLen]byte{}
	}
	return p.comp
}

// UncompressedBytes returns 0x04‖X‖Y (or {0x00} for infinity).
func (p *PublicKey) UncompressedBytes() []byte {
	if !p.set {
		return []byte{0}
	}
	b := make([]byte, UncompressedLen)
	b[0] = 0x04
	copy(b[1:], p.comp[1:])
	copy(b[1+coordLen:], p.y[:])
	return b
}

// String returns the hex of the compressed encoding, as the reference prints
// an ECPoint ("00" for infinity).
func (p *PublicKey) String() string { return hex.EncodeToString(p.Bytes()) }

// Cmp orders keys like the reference's ECPoint.CompareTo: infinity first,
// then by X, then by Y, both as unsigned integers. Keys of different curves
// (which the reference refuses to compare) order by curve first.
func (p *PublicKey) Cmp(o *PublicKey) int {
	if p.curve != o.curve {
		if p.curve < o.curve {
			return -1
		}
		return 1
	}
	switch {
	case !p.set && !o.set:
		return 0
	case !p.set:
		return -1
	case !o.set:
		return 1
	}
	if c := bytes.Compare(p.comp[1:], o.comp[1:]); c != 0 {
		return c
	}
	return bytes.Compare(p.y[:], o.y[:])
}

// Equal tells whether p and o are the same point of the same curve.
func (p *PublicKey) Equal(o *PublicKey) bool { return p.Cmp(o) == 0 }

// EncodeBinary writes the compressed encoding.
func (p *PublicKey) EncodeBinary(w *io.BinWriter) {
	if !p.set {
		w.WriteU8(0)
		return
	}
	w.WriteBytes(p.comp[:])
}

// DecodeBinary reads a secp256r1 key (compressed or uncompressed, chosen by
// the prefix byte, as the reference's ECPoint.DeserializeFrom). On success
// *p becomes a copy of the decoded key.
func (p *PublicKey) DecodeBinary(r *io.BinReader) {
	var buf [UncompressedLen]byte
	buf[0] = r.ReadU8()
	if r.Err != nil {
		return
	}
	n := CompressedLen
	switch buf[0] {
	case 0x02, 0x03:
	case 0x04:
		n = UncompressedLen
	default:
		r.Err = fmt.Errorf("%w: prefix 0x%02x", ErrInvalidPublicKey, buf[0])
		return
	}
	r.ReadBytes(buf[1:n])
	if r.Err != nil {
		return
	}
	k, err := NewPublicKeyFromBytes(buf[:n])
	if err != nil {
		r.Err = err
		return
	}
	*p = *k
}

// MarshalJSON writes the key as a hex string of its compressed form.
func (p PublicKey) MarshalJSON() ([]byte, error) {
	return json.Marshal(p.String())
}

// UnmarshalJSON reads a hex string holding a secp256r1 key.
func (p *PublicKey) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidPublicKey, err)
	}
	k, err := NewPublicKeyFromString(s)
	if err != nil {
		return err
	}
	*p = *k
	return nil
}

// VerificationScript returns the standard single-signature verification
// script of the key: PUSHDATA1 33 <key> SYSCALL System.Crypto.CheckSig.
func (p *PublicKey) VerificationScript() []byte {
	return p.appendSignatureScript(make([]byte, 0, SignatureScriptLen))
}

// ScriptHash returns the script hash of the standard account of the key.
func (p *PublicKey) ScriptHash() util.Uint160 {
	var s [SignatureScriptLen]byte
	return hash.Hash160(p.appendSignatureScript(s[:0]))
}

// Address returns the N3 address of the standard account of the key.
func (p *PublicKey) Address() string {
	return address.Uint160ToString(p.ScriptHash())
}
