package transaction

import (
	"crypto/elliptic"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
)

// ECPointSize is the size of a compressed secp256r1 public key.
const ECPointSize = 33

// ECPoint is a secp256r1 public key in compressed form (0x02/0x03 prefix
// and the big-endian X coordinate), as used by group conditions and
// CustomGroups scopes. It is kept as raw bytes so that wire types do not
// depend on the key package; ECPoint values produced by the decoders and
// parsers here are always valid points.
type ECPoint [ECPointSize]byte

var p256 = elliptic.P256()

// DecodeECPoint parses a compressed (33 bytes, validated on the curve) or an
// uncompressed (65 bytes) secp256r1 point, as the reference does, and
// returns it in compressed form.
func DecodeECPoint(b []byte) (ECPoint, error) {
	var p ECPoint
	if len(b) == 0 {
		return p, fmt.Errorf("%w: empty", ErrInvalidPublicKey)
	}
	switch b[0] {
	case 0x02, 0x03:
		if len(b) != ECPointSize {
			return p, fmt.Errorf("%w: compressed key of %d bytes", ErrInvalidPublicKey, len(b))
		}
		// keys caches decompressed points, so repeated groups are cheap.
		if _, err := keys.NewPublicKeyFromBytes(b); err != nil {
			return p, fmt.Errorf("%w: %w", ErrInvalidPublicKey, err)
		}
		copy(p[:], b)
	case 0x04:
		if len(b) != 2*ECPointSize-1 {
			return p, fmt.Errorf("%w: uncompressed key of %d bytes", ErrInvalidPublicKey, len(b))
		}
		// The reference only range-checks the coordinates of an
		// uncompressed point and re-encodes it compressed.
		prime := p256.Params().P
		x := new(big.Int).SetBytes(b[1:33])
		y := new(big.Int).SetBytes(b[33:])
		if x.Cmp(prime) >= 0 || y.Cmp(prime) >= 0 {
			return p, fmt.Errorf("%w: coordinate out of range", ErrInvalidPublicKey)
		}
		p[0] = 0x02 | b[64]&1
		copy(p[1:], b[1:33])
	default:
		return p, fmt.Errorf("%w: prefix 0x%02x", ErrInvalidPublicKey, b[0])
	}
	return p, nil
}

// String returns the lowercase hex of the compressed key, as the
// reference prints it.
func (p ECPoint) String() string { return hex.EncodeToString(p[:]) }

// EncodeBinary writes the compressed key.
func (p *ECPoint) EncodeBinary(w *io.BinWriter) { w.WriteBytes(p[:]) }

// DecodeBinary reads a compressed or uncompressed key (see DecodeECPoint).
func (p *ECPoint) DecodeBinary(r *io.BinReader) {
	var buf [2*ECPointSize - 1]byte
	buf[0] = r.ReadU8()
	n := ECPointSize
	if buf[0] == 0x04 {
		n = len(buf)
	}
	r.ReadBytes(buf[1:n])
	if r.Err != nil {
		return
	}
	k, err := DecodeECPoint(buf[:n])
	if err != nil {
		setErr(r, err)
		return
	}
	*p = k
}

// MarshalJSON writes the key as a hex string.
func (p ECPoint) MarshalJSON() ([]byte, error) {
	return json.Marshal(p.String())
}

// UnmarshalJSON parses a hex string (compressed or uncompressed).
func (p *ECPoint) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("%w: public key: %w", ErrInvalidJSON, err)
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidPublicKey, err)
	}
	k, err := DecodeECPoint(b)
	if err != nil {
		return err
	}
	*p = k
	return nil
}
