package keys

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/encoding/base58"
)

// WIFVersion is the version byte of Neo's wallet import format.
const WIFVersion = 0x80

// wifLen is version + scalar + compression flag.
const wifLen = 1 + PrivateKeyLen + 1

// ErrInvalidWIF means a string is not a Neo WIF key.
var ErrInvalidWIF = errors.New("keys: invalid WIF")

// WIF returns the key in wallet import format: Base58Check of
// 0x80 ‖ scalar ‖ 0x01 (the compressed-public-key flag), as the reference's
// KeyPair.Export.
func (p *PrivateKey) WIF() string {
	var buf [wifLen]byte
	buf[0] = WIFVersion
	d := p.Bytes()
	copy(buf[1:], d)
	clear(d)
	buf[wifLen-1] = 0x01
	s := base58.CheckEncode(buf[:])
	clear(buf[:])
	return s
}

// NewPrivateKeyFromWIF decodes a secp256r1 key from WIF. As in the
// reference, only the 34-byte form with version 0x80 and the compression
// flag 0x01 is accepted.
func NewPrivateKeyFromWIF(wif string) (*PrivateKey, error) {
	b, err := base58.CheckDecode(wif)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidWIF, err)
	}
	defer clear(b)
	if len(b) != wifLen {
		return nil, fmt.Errorf("%w: %d bytes", ErrInvalidWIF, len(b))
	}
	if b[0] != WIFVersion || b[wifLen-1] != 0x01 {
		return nil, fmt.Errorf("%w: version 0x%02x, flag 0x%02x", ErrInvalidWIF, b[0], b[wifLen-1])
	}
	k, err := NewPrivateKeyFromBytes(b[1 : 1+PrivateKeyLen])
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidWIF, err)
	}
	return k, nil
}
