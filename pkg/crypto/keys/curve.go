package keys

import (
	"errors"
	"fmt"
)

// Curve selects one of the two elliptic curves Neo N3 knows.
type Curve byte

// The curves. The zero value is secp256r1, the curve of every Neo account.
const (
	Secp256r1 Curve = iota
	Secp256k1
)

// coordLen is the length of one serialized coordinate.
const coordLen = 32

// Encoded point lengths.
const (
	CompressedLen   = 1 + coordLen
	UncompressedLen = 1 + 2*coordLen
	// SignatureLen is the length of an r‖s signature.
	SignatureLen = 2 * coordLen
	// PrivateKeyLen is the length of a serialized private key.
	PrivateKeyLen = coordLen
)

// Sentinel errors.
var (
	// ErrInvalidPublicKey means bytes do not encode a point of the curve.
	ErrInvalidPublicKey = errors.New("keys: invalid public key")
	// ErrInvalidPrivateKey means bytes are not a scalar in [1, N-1].
	ErrInvalidPrivateKey = errors.New("keys: invalid private key")
	// ErrUnknownCurve means a Curve value outside the known ones.
	ErrUnknownCurve = errors.New("keys: unknown curve")
)

// String returns the curve's name as the reference spells it.
func (c Curve) String() string {
	switch c {
	case Secp256r1:
		return "secp256r1"
	case Secp256k1:
		return "secp256k1"
	default:
		return fmt.Sprintf("Curve(%d)", byte(c))
	}
}

// Valid tells whether c is a known curve.
func (c Curve) Valid() bool { return c == Secp256r1 || c == Secp256k1 }
