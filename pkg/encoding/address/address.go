package address

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/encoding/base58"
	"github.com/n3d-io/n3d/pkg/util"
)

// NEO3Prefix is the address version byte of Neo N3.
const NEO3Prefix byte = 0x35

// ErrBadAddress is returned for a string that is not an address of the
// expected version.
var ErrBadAddress = errors.New("address: invalid address")

// Uint160ToString returns the N3 address of a script hash.
func Uint160ToString(u util.Uint160) string {
	return EncodeWithVersion(u, NEO3Prefix)
}

// EncodeWithVersion returns the address of u for a given version byte.
func EncodeWithVersion(u util.Uint160, version byte) string {
	b := make([]byte, 0, 1+util.Uint160Size)
	b = append(b, version)
	b = append(b, u[:]...)
	return base58.CheckEncode(b)
}

// StringToUint160 parses an N3 address into its script hash.
func StringToUint160(s string) (util.Uint160, error) {
	return DecodeWithVersion(s, NEO3Prefix)
}

// DecodeWithVersion parses an address that must carry the given version.
func DecodeWithVersion(s string, version byte) (util.Uint160, error) {
	b, err := base58.CheckDecode(s)
	if err != nil {
		return util.Uint160{}, fmt.Errorf("%w %q: %w", ErrBadAddress, s, err)
	}
	if len(b) != 1+util.Uint160Size {
		return util.Uint160{}, fmt.Errorf("%w %q: %d bytes", ErrBadAddress, s, len(b))
	}
	if b[0] != version {
		return util.Uint160{}, fmt.Errorf("%w %q: version 0x%02x, want 0x%02x", ErrBadAddress, s, b[0], version)
	}
	return util.Uint160DecodeBytesLE(b[1:])
}
