package util

import (
	"encoding/hex"

	"github.com/n3d-io/n3d/pkg/io"
)

// Uint256Size is the size of Uint256 in bytes.
const Uint256Size = 32

// Uint256 is a 32-byte hash stored in little-endian (wire) order.
type Uint256 [Uint256Size]byte

// Uint256DecodeBytesLE makes a Uint256 from little-endian bytes.
func Uint256DecodeBytesLE(b []byte) (u Uint256, err error) {
	if err = checkLen(b, Uint256Size, "Uint256"); err == nil {
		copy(u[:], b)
	}
	return u, err
}

// Uint256DecodeBytesBE makes a Uint256 from big-endian bytes.
func Uint256DecodeBytesBE(b []byte) (u Uint256, err error) {
	if err = checkLen(b, Uint256Size, "Uint256"); err == nil {
		reverseInto(u[:], b)
	}
	return u, err
}

// Uint256DecodeStringBE parses the reference's big-endian hex form, with or
// without a "0x" prefix.
func Uint256DecodeStringBE(s string) (Uint256, error) {
	b, err := decodeHex(s, Uint256Size)
	if err != nil {
		return Uint256{}, err
	}
	return Uint256DecodeBytesBE(b)
}

// Uint256DecodeStringLE parses little-endian hex, with or without "0x".
func Uint256DecodeStringLE(s string) (Uint256, error) {
	b, err := decodeHex(s, Uint256Size)
	if err != nil {
		return Uint256{}, err
	}
	return Uint256DecodeBytesLE(b)
}

// BytesLE returns a copy of the little-endian bytes.
func (u Uint256) BytesLE() []byte { return append([]byte(nil), u[:]...) }

// BytesBE returns the big-endian bytes.
func (u Uint256) BytesBE() []byte {
	b := make([]byte, Uint256Size)
	reverseInto(b, u[:])
	return b
}

// Reverse returns u with its bytes in the opposite order.
func (u Uint256) Reverse() (r Uint256) {
	reverseInto(r[:], u[:])
	return r
}

// String returns the reference's form: "0x" and big-endian hex.
func (u Uint256) String() string { return "0x" + stringBE(u[:]) }

// StringBE returns big-endian hex without a prefix.
func (u Uint256) StringBE() string { return stringBE(u[:]) }

// StringLE returns little-endian hex without a prefix.
func (u Uint256) StringLE() string { return hex.EncodeToString(u[:]) }

// Equals reports whether u and o are the same hash.
func (u Uint256) Equals(o Uint256) bool { return u == o }

// IsZero reports whether every byte of u is zero.
func (u Uint256) IsZero() bool { return u == Uint256{} }

// Compare orders hashes as big-endian numbers, like the reference.
func (u Uint256) Compare(o Uint256) int { return compareBE(u[:], o[:]) }

// Less reports whether u orders before o.
func (u Uint256) Less(o Uint256) bool { return u.Compare(o) < 0 }

// MarshalJSON encodes u as "0x…" big-endian hex.
func (u Uint256) MarshalJSON() ([]byte, error) {
	return []byte(`"` + u.String() + `"`), nil
}

// UnmarshalJSON decodes "0x…" (or bare) big-endian hex.
func (u *Uint256) UnmarshalJSON(data []byte) error {
	return unmarshalHexJSON(data, u[:], "Uint256")
}

// EncodeBinary writes the 32 little-endian bytes.
func (u *Uint256) EncodeBinary(w *io.BinWriter) { w.WriteBytes(u[:]) }

// DecodeBinary reads 32 little-endian bytes.
func (u *Uint256) DecodeBinary(r *io.BinReader) { r.ReadBytes(u[:]) }
