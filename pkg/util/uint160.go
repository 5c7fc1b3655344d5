package util

import (
	"encoding/hex"

	"github.com/n3d-io/n3d/pkg/io"
)

// Uint160Size is the size of Uint160 in bytes.
const Uint160Size = 20

// Uint160 is a 20-byte hash stored in little-endian (wire) order.
type Uint160 [Uint160Size]byte

// Uint160DecodeBytesLE makes a Uint160 from little-endian bytes.
func Uint160DecodeBytesLE(b []byte) (u Uint160, err error) {
	if err = checkLen(b, Uint160Size, "Uint160"); err == nil {
		copy(u[:], b)
	}
	return u, err
}

// Uint160DecodeBytesBE makes a Uint160 from big-endian bytes.
func Uint160DecodeBytesBE(b []byte) (u Uint160, err error) {
	if err = checkLen(b, Uint160Size, "Uint160"); err == nil {
		reverseInto(u[:], b)
	}
	return u, err
}

// Uint160DecodeStringBE parses the reference's big-endian hex form, with or
// without a "0x" prefix.
func Uint160DecodeStringBE(s string) (Uint160, error) {
	b, err := decodeHex(s, Uint160Size)
	if err != nil {
		return Uint160{}, err
	}
	return Uint160DecodeBytesBE(b)
}

// Uint160DecodeStringLE parses little-endian hex, with or without "0x".
func Uint160DecodeStringLE(s string) (Uint160, error) {
	b, err := decodeHex(s, Uint160Size)
	if err != nil {
		return Uint160{}, err
	}
	return Uint160DecodeBytesLE(b)
}

// BytesLE returns a copy of the little-endian bytes.
func (u Uint160) BytesLE() []byte { return append([]byte(nil), u[:]...) }

// BytesBE returns the big-endian bytes.
func (u Uint160) BytesBE() []byte {
	b := make([]byte, Uint160Size)
	reverseInto(b, u[:])
	return b
}

// Reverse returns u with its bytes in the opposite order.
func (u Uint160) Reverse() (r Uint160) {
	reverseInto(r[:], u[:])
	return r
}

// String returns the reference's form: "0x" and big-endian hex.
func (u Uint160) String() string { return "0x" + stringBE(u[:]) }

// StringBE returns big-endian hex without a prefix.
func (u Uint160) StringBE() string { return stringBE(u[:]) }

// StringLE returns little-endian hex without a prefix.
func (u Uint160) StringLE() string { return hex.EncodeToString(u[:]) }

// Equals reports whether u and o are the same hash.
func (u Uint160) Equals(o Uint160) bool { return u == o }

// IsZero reports whether every byte of u is zero.
func (u Uint160) IsZero() bool { return u == Uint160{} }

// Compare orders hashes as big-endian numbers, like the reference.
func (u Uint160) Compare(o Uint160) int { return compareBE(u[:], o[:]) }

// Less reports whether u orders before o.
func (u Uint160) Less(o Uint160) bool { return u.Compare(o) < 0 }

// MarshalJSON encodes u as "0x…" big-endian hex.
func (u Uint160) MarshalJSON() ([]byte, error) {
	return []byte(`"` + u.String() + `"`), nil
}

// UnmarshalJSON decodes "0x…" (or bare) big-endian hex.
func (u *Uint160) UnmarshalJSON(data []byte) error {
	return unmarshalHexJSON(data, u[:], "Uint160")
}

// EncodeBinary writes the 20 little-endian bytes.
func (u *Uint160) EncodeBinary(w *io.BinWriter) { w.WriteBytes(u[:]) }

// DecodeBinary reads 20 little-endian bytes.
func (u *Uint160) DecodeBinary(r *io.BinReader) { r.ReadBytes(u[:]) }
