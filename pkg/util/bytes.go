package util

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrBadLength is returned when a hash is decoded from the wrong number of
// bytes or hex digits.
var ErrBadLength = errors.New("util: wrong length")

// reverseInto writes src into dst in the opposite byte order.
func reverseInto(dst, src []byte) {
	n := len(src)
	for i := range n {
		dst[i] = src[n-1-i]
	}
}

// checkLen returns ErrBadLength unless b has exactly size bytes.
func checkLen(b []byte, size int, name string) error {
	if len(b) != size {
		return fmt.Errorf("%w: %d bytes for %s", ErrBadLength, len(b), name)
	}
	return nil
}

// HexLengthError is ErrBadLength for hex with the wrong number of digits.
type HexLengthError struct {
	Got, Want int // hex digits
}

func (e *HexLengthError) Error() string {
	return fmt.Sprintf("%s: %d hex digits, want %d", ErrBadLength, e.Got, e.Want)
}

// Unwrap makes a HexLengthError match ErrBadLength.
func (e *HexLengthError) Unwrap() error { return ErrBadLength }

// decodeHex parses exactly size bytes of hex, with an optional "0x".
func decodeHex(s string, size int) ([]byte, error) {
	s = strings.TrimPrefix(s, "0x")
	if len(s) != size*2 {
		return nil, &HexLengthError{Got: len(s), Want: size * 2}
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("util: bad hex: %w", err)
	}
	return b, nil
}

// compareBE orders two equal-length little-endian byte strings as
// big-endian numbers.
func compareBE(a, b []byte) int {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// stringBE renders little-endian bytes as big-endian hex.
func stringBE(le []byte) string {
	be := make([]byte, len(le))
	reverseInto(be, le)
	return hex.EncodeToString(be)
}

// unmarshalHexJSON decodes a JSON string of big-endian hex into dst (the
// little-endian storage of a hash).
func unmarshalHexJSON(data []byte, dst []byte, name string) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("util: %s JSON: %w", name, err)
	}
	b, err := decodeHex(s, len(dst))
	if err != nil {
		return fmt.Errorf("util: %s JSON: %w", name, err)
	}
	reverseInto(dst, b)
	return nil
}
