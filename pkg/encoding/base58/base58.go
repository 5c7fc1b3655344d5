package base58

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/mr-tron/base58"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
)

// Sentinel errors.
var (
	// ErrChecksum means the Base58Check checksum does not match.
	ErrChecksum = errors.New("base58: checksum mismatch")
	// ErrTooShort means the decoded data cannot hold a checksum.
	ErrTooShort = errors.New("base58: data too short")
)

// Encode encodes b as Base58.
func Encode(b []byte) string { return base58.Encode(b) }

// Decode decodes a Base58 string.
func Decode(s string) ([]byte, error) {
	b, err := base58.Decode(s)
	if err != nil {
		return nil, fmt.Errorf("base58: %w", err)
	}
	return b, nil
}

// CheckEncode appends the 4-byte checksum to b and encodes it as Base58.
func CheckEncode(b []byte) string {
	buf := make([]byte, 0, len(b)+4)
	buf = append(buf, b...)
	buf = append(buf, hash.Checksum(b)...)
	return base58.Encode(buf)
}

// CheckDecode decodes s and verifies and strips its checksum.
func CheckDecode(s string) ([]byte, error) {
	b, err := Decode(s)
	if err != nil {
		return nil, err
	}
	if len(b) < 5 {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooShort, len(b))
	}
	data, sum := b[:len(b)-4], b[len(b)-4:]
	if !bytes.Equal(hash.Checksum(data), sum) {
		return nil, ErrChecksum
	}
	return data, nil
}
