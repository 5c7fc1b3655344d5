package ecdsa

import (
	"bytes"
	stdecdsa "crypto/ecdsa"
	"crypto/elliptic"
	"fmt"
	"math/big"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// Encoded sizes of a public key (SEC 1: prefix byte and coordinates).
const (
	CompressedSize   = 33 // 0x02/0x03 ‖ x
	UncompressedSize = 65 // 0x04 ‖ x ‖ y
	SignatureSize    = 64 // r ‖ s, big-endian
	coordSize        = 32
)

// Field primes, big-endian, for the coordinate range checks.
var (
	primeR1 = mustHex32("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
	primeK1 = mustHex32("fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f")
)

// PublicKey is a decoded, validated secp256r1 or secp256k1 public key.
type PublicKey struct {
	curve Curve
	r1    *stdecdsa.PublicKey  // set for Secp256r1
	k1    *secp256k1.PublicKey // set for Secp256k1
}

// DecodePublicKey decodes a SEC 1 compressed (33 bytes) or uncompressed
// (65 bytes) point of the given curve, as the reference's ECPoint.DecodePoint
// followed by its key import. The error says which reference exception the
// input raises:
//
//	ErrPublicKeyFormat      empty, unknown prefix, or wrong length (FormatException, IndexOutOfRange)
//	ErrPublicKeyRange       a coordinate ≥ p (ArgumentException)
//	ErrPublicKeyNoPoint     compressed x with no point (ArithmeticException)
//	ErrPublicKeyNotOnCurve  uncompressed point off the curve (decoded by
//	                        ECPoint, rejected when the key is imported)
func DecodePublicKey(c Curve, b []byte) (*PublicKey, error) {
	prime, err := curvePrime(c)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrPublicKeyFormat)
	}
	var compressed bool
	switch b[0] {
	case 0x02, 0x03:
		compressed = true
		if len(b) != CompressedSize {
			return nil, fmt.Errorf("%w: compressed key of %d bytes", ErrPublicKeyFormat, len(b))
		}
	case 0x04:
		if len(b) != UncompressedSize {
			return nil, fmt.Errorf("%w: uncompressed key of %d bytes", ErrPublicKeyFormat, len(b))
		}
	default:
		return nil, fmt.Errorf("%w: prefix %#02x", ErrPublicKeyFormat, b[0])
	}
	if bytes.Compare(b[1:1+coordSize], prime) >= 0 ||
		(!compressed && bytes.Compare(b[1+coordSize:], prime) >= 0) {
		return nil, ErrPublicKeyRange
	}
	if c == Secp256k1 {
		return decodeK1(b, compressed)
	}
	return decodeR1(b, compressed)
}

func curvePrime(c Curve) ([]byte, error) {
	switch c {
	case Secp256r1:
		return primeR1, nil
	case Secp256k1:
		return primeK1, nil
	default:
		return nil, fmt.Errorf("%w: curve %d", ErrUnsupportedCurveHash, c)
	}
}

func decodeK1(b []byte, compressed bool) (*PublicKey, error) {
	k, err := secp256k1.ParsePubKey(b)
	if err != nil {
		// Format and range were checked above: what remains is a point
		// that does not exist (compressed) or is off the curve.
		if compressed {
			return nil, fmt.Errorf("%w: %w", ErrPublicKeyNoPoint, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrPublicKeyNotOnCurve, err)
	}
	return &PublicKey{curve: Secp256k1, k1: k}, nil
}

func decodeR1(b []byte, compressed bool) (*PublicKey, error) {
	raw := b
	if compressed {
		x, y := elliptic.UnmarshalCompressed(elliptic.P256(), b)
		if x == nil {
			return nil, ErrPublicKeyNoPoint
		}
		raw = make([]byte, UncompressedSize)
		raw[0] = 0x04
		x.FillBytes(raw[1 : 1+coordSize])
		y.FillBytes(raw[1+coordSize:])
	}
	k, err := stdecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPublicKeyNotOnCurve, err)
	}
	return &PublicKey{curve: Secp256r1, r1: k}, nil
}

// Curve returns the key's curve.
func (k *PublicKey) Curve() Curve { return k.curve }

// Bytes returns the SEC 1 encoding of the key, compressed (33 bytes) or
// uncompressed (65 bytes).
func (k *PublicKey) Bytes(compressed bool) []byte {
	if k.curve == Secp256k1 {
		if compressed {
			return k.k1.SerializeCompressed()
		}
		return k.k1.SerializeUncompressed()
	}
	raw, err := k.r1.Bytes()
	if err != nil { // only for keys not made by DecodePublicKey
		return nil
	}
	if !compressed {
		return raw
	}
	out := make([]byte, CompressedSize)
	out[0] = 0x02 | raw[UncompressedSize-1]&1
	copy(out[1:], raw[1:1+coordSize])
	return out
}

// VerifyHash reports whether sig (r ‖ s, 64 bytes, big-endian) is a valid
// ECDSA signature of the 32-byte digest hash. r and s must lie in [1, n-1];
// high s values are accepted (the reference does not normalize s).
func (k *PublicKey) VerifyHash(hash, sig []byte) bool {
	if len(sig) != SignatureSize {
		return false
	}
	if k.curve == Secp256k1 {
		var r, s secp256k1.ModNScalar
		if r.SetByteSlice(sig[:coordSize]) || s.SetByteSlice(sig[coordSize:]) {
			return false // ≥ n
		}
		if r.IsZero() || s.IsZero() {
			return false
		}
		return k1ecdsa.NewSignature(&r, &s).Verify(hash, k.k1)
	}
	r := new(big.Int).SetBytes(sig[:coordSize])
	s := new(big.Int).SetBytes(sig[coordSize:])
	return stdecdsa.Verify(k.r1, hash, r, s)
}

func mustHex32(s string) []byte {
	b, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("ecdsa: bad constant " + s)
	}
	return b.FillBytes(make([]byte, coordSize))
}
