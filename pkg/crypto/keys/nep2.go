package keys

import (
	"bytes"
	"crypto/aes"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/encoding/base58"
	"golang.org/x/crypto/scrypt"
)

// NEP-2 layout: 0x01 0x42 0xE0 ‖ address hash (4) ‖ encrypted key (32).
const (
	nep2Len     = 39
	nep2Flag    = 0xE0
	nep2DKLen   = 64
	addrHashLen = 4
	maxScryptN  = 1 << 20
	maxScryptRP = 1 << 10
)

// Sentinel errors.
var (
	// ErrInvalidNEP2 means a string is not a NEP-2 encrypted key.
	ErrInvalidNEP2 = errors.New("keys: invalid NEP-2 key")
	// ErrWrongPassphrase means the decrypted key does not match the address
	// hash stored in the NEP-2 string.
	ErrWrongPassphrase = errors.New("keys: wrong passphrase")
	// ErrScryptParams means unusable scrypt parameters.
	ErrScryptParams = errors.New("keys: bad scrypt parameters")
)

// ScryptParams are the scrypt cost parameters of NEP-2 (NEP-6 "scrypt").
type ScryptParams struct {
	N int `json:"n"`
	R int `json:"r"`
	P int `json:"p"`
}

// NEP2ScryptParams returns the standard parameters N=16384, r=8, p=8.
func NEP2ScryptParams() ScryptParams { return ScryptParams{N: 16384, R: 8, P: 8} }

// Validate rejects parameters scrypt cannot use or that would take absurd
// memory (a wallet file is untrusted input).
func (s ScryptParams) Validate() error {
	if s.N <= 1 || s.N&(s.N-1) != 0 || s.N > maxScryptN {
		return fmt.Errorf("%w: n=%d", ErrScryptParams, s.N)
	}
	if s.R < 1 || s.R > maxScryptRP || s.P < 1 || s.P > maxScryptRP {
		return fmt.Errorf("%w: r=%d p=%d", ErrScryptParams, s.R, s.P)
	}
	return nil
}

// derive runs scrypt over the passphrase bytes with the address hash as salt.
func (s ScryptParams) derive(passphrase string, salt []byte) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	dk, err := scrypt.Key([]byte(passphrase), salt, s.N, s.R, s.P, nep2DKLen)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrScryptParams, err)
	}
	return dk, nil
}

// addressHash is the first 4 bytes of double SHA-256 of the key's address.
func addressHash(p *PrivateKey) []byte {
	return hash.Checksum([]byte(p.Address()))
}

// NEP2Encrypt encrypts a secp256r1 key with a passphrase (NEP-2).
func NEP2Encrypt(p *PrivateKey, passphrase string, params ScryptParams) (string, error) {
	if p.Curve() != Secp256r1 {
		return "", fmt.Errorf("%w: NEP-2 needs a %s key", ErrInvalidPrivateKey, Secp256r1)
	}
	ah := addressHash(p)
	dk, err := params.derive(passphrase, ah)
	if err != nil {
		return "", err
	}
	defer clear(dk)
	d := p.Bytes()
	defer clear(d)
	for i := range d {
		d[i] ^= dk[i]
	}
	out := make([]byte, nep2Len)
	out[0], out[1], out[2] = 0x01, 0x42, nep2Flag
	copy(out[3:], ah)
	if err := aesECB(out[3+addrHashLen:], d, dk[32:], true); err != nil {
		return "", err
	}
	return base58.CheckEncode(out), nil
}

// parseNEP2 decodes and checks the fixed part of a NEP-2 string.
func parseNEP2(s string) ([]byte, error) {
	b, err := base58.CheckDecode(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidNEP2, err)
	}
	if len(b) != nep2Len || b[0] != 0x01 || b[1] != 0x42 || b[2] != nep2Flag {
		return nil, fmt.Errorf("%w: bad header or length %d", ErrInvalidNEP2, len(b))
	}
	return b, nil
}

// NEP2Decrypt decrypts a NEP-2 key. A wrong passphrase is reported as
// ErrWrongPassphrase (detected through the stored address hash).
func NEP2Decrypt(s, passphrase string, params ScryptParams) (*PrivateKey, error) {
	return NEP2DecryptFor(s, passphrase, params, (*PublicKey).Address)
}

// NEP2DecryptFor is NEP2Decrypt with the passphrase checked against the
// address addressOf gives the decrypted key (NEP-2 hashes the N3 address;
// Neo Legacy wallets hash the Neo 2 one).
func NEP2DecryptFor(s, passphrase string, params ScryptParams, addressOf func(*PublicKey) string) (*PrivateKey, error) {
	b, err := parseNEP2(s)
	if err != nil {
		return nil, err
	}
	ah := b[3 : 3+addrHashLen]
	dk, err := params.derive(passphrase, ah)
	if err != nil {
		return nil, err
	}
	defer clear(dk)
	d := make([]byte, PrivateKeyLen)
	defer clear(d)
	if err := aesECB(d, b[3+addrHashLen:], dk[32:], false); err != nil {
		return nil, err
	}
	for i := range d {
		d[i] ^= dk[i]
	}
	k, err := NewPrivateKeyFromBytes(d)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWrongPassphrase, err)
	}
	if !bytes.Equal(hash.Checksum([]byte(addressOf(k.PublicKey()))), ah) {
		k.Destroy()
		return nil, ErrWrongPassphrase
	}
	return k, nil
}

// aesECB runs AES-256 in ECB mode without padding over whole blocks.
func aesECB(dst, src, key []byte, encrypt bool) error {
	c, err := aes.NewCipher(key)
	if err != nil {
		return fmt.Errorf("keys: aes: %w", err)
	}
	for i := 0; i+aes.BlockSize <= len(src); i += aes.BlockSize {
		if encrypt {
			c.Encrypt(dst[i:i+aes.BlockSize], src[i:i+aes.BlockSize])
		} else {
			c.Decrypt(dst[i:i+aes.BlockSize], src[i:i+aes.BlockSize])
		}
	}
	return nil
}
