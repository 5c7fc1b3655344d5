package keys

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/n3d-io/n3d/pkg/util"
	"golang.org/x/crypto/cryptobyte"
	"golang.org/x/crypto/cryptobyte/asn1"
)

// PrivateKey is a scalar of one of the two curves with its public key.
type PrivateKey struct {
	pub *PublicKey
	r1  *ecdsa.PrivateKey
	k1  *secp256k1.PrivateKey
}

// NewPrivateKey generates a random secp256r1 key.
func NewPrivateKey() (*PrivateKey, error) {
	return NewPrivateKeyOnCurve(Secp256r1)
}

// NewPrivateKeyOnCurve generates a random key of the given curve.
func NewPrivateKeyOnCurve(c Curve) (*PrivateKey, error) {
	switch c {
	case Secp256r1:
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("keys: generate: %w", err)
		}
		return fromR1(k), nil
	case Secp256k1:
		k, err := secp256k1.GeneratePrivateKey()
		if err != nil {
			return nil, fmt.Errorf("keys: generate: %w", err)
		}
		return fromK1(k), nil
	default:
		return nil, fmt.Errorf("%w: %d", ErrUnknownCurve, byte(c))
	}
}

// NewPrivateKeyFromBytes makes a secp256r1 key from its 32-byte big-endian
// scalar, which must be in [1, N-1].
func NewPrivateKeyFromBytes(b []byte) (*PrivateKey, error) {
	return NewPrivateKeyFromBytesOnCurve(b, Secp256r1)
}

// NewPrivateKeyFromBytesOnCurve makes a key of the given curve from its
// 32-byte big-endian scalar, which must be in [1, N-1].
func NewPrivateKeyFromBytesOnCurve(b []byte, c Curve) (*PrivateKey, error) {
	if len(b) != PrivateKeyLen {
		return nil, fmt.Errorf("%w: %d bytes", ErrInvalidPrivateKey, len(b))
	}
	switch c {
	case Secp256r1:
		k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), b)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidPrivateKey, err)
		}
		return fromR1(k), nil
	case Secp256k1:
		var d secp256k1.ModNScalar
		if d.SetByteSlice(b) || d.IsZero() {
			return nil, fmt.Errorf("%w: scalar out of range", ErrInvalidPrivateKey)
		}
		return fromK1(secp256k1.NewPrivateKey(&d)), nil
	default:
		return nil, fmt.Errorf("%w: %d", ErrUnknownCurve, byte(c))
	}
}

// NewPrivateKeyFromHex makes a secp256r1 key from the hex of its scalar.
func NewPrivateKeyFromHex(s string) (*PrivateKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPrivateKey, err)
	}
	defer clear(b)
	return NewPrivateKeyFromBytes(b)
}

func fromR1(k *ecdsa.PrivateKey) *PrivateKey {
	return &PrivateKey{pub: newR1(&k.PublicKey), r1: k}
}

func fromK1(k *secp256k1.PrivateKey) *PrivateKey {
	return &PrivateKey{pub: newK1(k.PubKey()), k1: k}
}

// Curve returns the key's curve.
func (p *PrivateKey) Curve() Curve { return p.pub.curve }

// PublicKey returns the public key (shared; do not modify).
func (p *PrivateKey) PublicKey() *PublicKey { return p.pub }

// Bytes returns the 32-byte big-endian scalar.
func (p *PrivateKey) Bytes() []byte {
	if p.k1 != nil {
		return p.k1.Serialize()
	}
	b := make([]byte, PrivateKeyLen)
	p.r1.D.FillBytes(b)
	return b
}

// String returns the hex of the scalar.
func (p *PrivateKey) String() string { return hex.EncodeToString(p.Bytes()) }

// ScriptHash returns the script hash of the key's standard account.
func (p *PrivateKey) ScriptHash() util.Uint160 { return p.pub.ScriptHash() }

// Address returns the N3 address of the key's standard account.
func (p *PrivateKey) Address() string { return p.pub.Address() }

// Sign signs SHA-256(data) and returns the 64-byte r‖s signature.
func (p *PrivateKey) Sign(data []byte) []byte {
	return p.SignHash(sha256.Sum256(data))
}

// SignHash signs a SHA-256 digest. The nonce is derived deterministically
// (RFC 6979 with HMAC-SHA-256), so the same key and digest always give the
// same signature. For secp256k1 the decred implementation also normalises S
// to the lower half; verifiers accept either form.
func (p *PrivateKey) SignHash(digest util.Uint256) []byte {
	if p.k1 != nil {
		sig := k1ecdsa.Sign(p.k1, digest[:])
		out := make([]byte, SignatureLen)
		r, s := sig.R(), sig.S()
		r.PutBytesUnchecked(out[:coordLen])
		s.PutBytesUnchecked(out[coordLen:])
		return out
	}
	der, err := p.r1.Sign(nil, digest[:], crypto.SHA256)
	if err != nil {
		// Only possible for a key that is not a valid P-256 key, which the
		// constructors never produce.
		panic(fmt.Sprintf("keys: sign: %v", err))
	}
	out, err := rawSignature(der)
	if err != nil {
		panic(fmt.Sprintf("keys: sign: %v", err))
	}
	return out
}

// rawSignature converts a DER ECDSA signature to 64-byte r‖s.
func rawSignature(der []byte) ([]byte, error) {
	var (
		inner cryptobyte.String
		r, s  []byte
	)
	in := cryptobyte.String(der)
	if !in.ReadASN1(&inner, asn1.SEQUENCE) || !in.Empty() ||
		!inner.ReadASN1Integer(&r) || !inner.ReadASN1Integer(&s) || !inner.Empty() {
		return nil, fmt.Errorf("keys: malformed DER signature")
	}
	r, s = trimZeros(r), trimZeros(s)
	if len(r) > coordLen || len(s) > coordLen {
		return nil, fmt.Errorf("keys: oversized DER signature")
	}
	out := make([]byte, SignatureLen)
	copy(out[coordLen-len(r):coordLen], r)
	copy(out[SignatureLen-len(s):], s)
	return out, nil
}

// trimZeros strips leading zero bytes.
func trimZeros(b []byte) []byte {
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	return b
}

// Destroy overwrites the scalar. The key must not be used afterwards.
func (p *PrivateKey) Destroy() {
	if p.k1 != nil {
		p.k1.Zero()
		return
	}
	clear(p.r1.D.Bits())
}
