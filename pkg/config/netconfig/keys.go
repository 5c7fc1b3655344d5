package netconfig

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

// parsePublicKey checks that s is a hex-encoded secp256r1 public key as the
// reference accepts it in a config: 33-byte compressed (02/03 prefix) or
// 65-byte uncompressed (04 prefix), on the curve. An optional 0x is allowed.
// It returns the compressed form, the key's identity.
func parsePublicKey(s string) ([keys.CompressedLen]byte, error) {
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil {
		return [keys.CompressedLen]byte{}, fmt.Errorf("%w: %q is not hex: %w", ErrPublicKey, s, err)
	}
	pub, err := keys.NewPublicKeyFromBytes(b)
	if err != nil {
		return [keys.CompressedLen]byte{}, fmt.Errorf("%w: %q (want 33 bytes with prefix 02/03 or 65 with 04 on secp256r1, got %d bytes): %w",
			ErrPublicKey, s, len(b), err)
	}
	return pub.Compressed(), nil
}

// checkKeyList validates every key of a list and rejects duplicates (the
// same point written twice, compressed or not, counts once).
func checkKeyList(what string, list []string) error {
	seen := make(map[[keys.CompressedLen]byte]int, len(list))
	for i, k := range list {
		id, err := parsePublicKey(k)
		if err != nil {
			return fmt.Errorf("%s[%d]: %w", what, i, err)
		}
		if j, dup := seen[id]; dup {
			return fmt.Errorf("%w: %s[%d] repeats %s[%d] (%s)", ErrPublicKey, what, i, what, j, k)
		}
		seen[id] = i
	}
	return nil
}
