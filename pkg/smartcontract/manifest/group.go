package manifest

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
)

// SignatureLen is the length of a group signature.
const SignatureLen = 64

// Group is a public key whose owner vouches for the contract by signing its
// hash.
type Group struct {
	PublicKey *keys.PublicKey
	Signature []byte
}

// IsValid reports whether the signature signs the contract hash (its 20
// little-endian bytes, hashed with SHA-256) under the group key.
func (g *Group) IsValid(h util.Uint160) bool {
	return g.PublicKey.VerifyMessage(g.Signature, h[:])
}

// validateGroups checks the signature lengths (as JSON decoding does) and
// that no key appears twice.
func validateGroups(gs []Group) error {
	for i := range gs {
		if len(gs[i].Signature) != SignatureLen {
			return fmt.Errorf("%w: group signature of %d bytes", ErrInvalidField, len(gs[i].Signature))
		}
	}
	if d, ok := firstDuplicate(gs, func(g Group) [keys.CompressedLen]byte { return g.PublicKey.Compressed() }); ok {
		return fmt.Errorf("%w: group %s", ErrDuplicate, d.PublicKey)
	}
	return nil
}
