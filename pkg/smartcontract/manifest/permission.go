package manifest

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
)

// PermissionDescType tells what a PermissionDesc designates.
type PermissionDescType byte

// The kinds of permission descriptors.
const (
	PermissionWildcard PermissionDescType = iota
	PermissionHash
	PermissionGroup
)

// PermissionDesc designates contracts: one contract by hash, the contracts
// of a group by public key, or every contract ("*").
type PermissionDesc struct {
	Type  PermissionDescType
	Hash  util.Uint160    // for PermissionHash
	Group *keys.PublicKey // for PermissionGroup
}

// NewWildcardDesc returns the "*" descriptor.
func NewWildcardDesc() PermissionDesc { return PermissionDesc{Type: PermissionWildcard} }

// NewHashDesc designates one contract.
func NewHashDesc(h util.Uint160) PermissionDesc { return PermissionDesc{Type: PermissionHash, Hash: h} }

// NewGroupDesc designates the contracts of a group.
func NewGroupDesc(k *keys.PublicKey) PermissionDesc {
	return PermissionDesc{Type: PermissionGroup, Group: k}
}

// Equals reports whether d and o designate the same contracts.
func (d PermissionDesc) Equals(o PermissionDesc) bool {
	if d.Type != o.Type {
		return false
	}
	switch d.Type {
	case PermissionHash:
		return d.Hash == o.Hash
	case PermissionGroup:
		return d.Group.Equal(o.Group)
	}
	return true
}

// String returns the JSON text: the hash as "0x…" (big-endian), the group
// key as compressed hex, or "*".
func (d PermissionDesc) String() string {
	switch d.Type {
	case PermissionHash:
		return d.Hash.String()
	case PermissionGroup:
		return d.Group.String()
	}
	return "*"
}

// bytes returns the stack-item form: 20 bytes of hash (little-endian), 33
// bytes of compressed key, or nil for the wildcard.
func (d PermissionDesc) bytes() []byte {
	switch d.Type {
	case PermissionHash:
		return d.Hash.BytesLE()
	case PermissionGroup:
		return d.Group.Bytes()
	}
	return nil
}

// ParsePermissionDesc reads the JSON text as the reference does: 42
// characters are a hash ("0x" or "0X" and 40 hex digits, big-endian), 66
// are a compressed public key in hex, "*" is the wildcard.
func ParsePermissionDesc(s string) (PermissionDesc, error) {
	switch {
	case len(s) == 42:
		if !strings.HasPrefix(s, "0x") && !strings.HasPrefix(s, "0X") {
			return PermissionDesc{}, fmt.Errorf("%w: descriptor %q", ErrInvalidField, s)
		}
		h, err := util.Uint160DecodeStringBE(s[2:])
		if err != nil {
			return PermissionDesc{}, fmt.Errorf("%w: descriptor %q: %w", ErrInvalidField, s, err)
		}
		return NewHashDesc(h), nil
	case len(s) == 66:
		b, err := hex.DecodeString(s)
		if err != nil {
			return PermissionDesc{}, fmt.Errorf("%w: descriptor %q: %w", ErrInvalidField, s, err)
		}
		return groupDescFromBytes(b)
	case s == "*":
		return NewWildcardDesc(), nil
	}
	return PermissionDesc{}, fmt.Errorf("%w: descriptor %q", ErrInvalidField, s)
}

// permissionDescFromBytes reads the stack-item form (20 or 33 bytes).
func permissionDescFromBytes(b []byte) (PermissionDesc, error) {
	switch len(b) {
	case util.Uint160Size:
		h, err := util.Uint160DecodeBytesLE(b)
		if err != nil {
			return PermissionDesc{}, fmt.Errorf("%w: %w", ErrInvalidStackItem, err)
		}
		return NewHashDesc(h), nil
	case keys.CompressedLen:
		return groupDescFromBytes(b)
	}
	return PermissionDesc{}, fmt.Errorf("%w: descriptor of %d bytes", ErrInvalidStackItem, len(b))
}

func groupDescFromBytes(b []byte) (PermissionDesc, error) {
	k, err := keys.NewPublicKeyFromBytes(b)
	if err != nil {
		return PermissionDesc{}, fmt.Errorf("%w: group descriptor: %w", ErrInvalidField, err)
	}
	return NewGroupDesc(k), nil
}

// Permission allows calling some methods of some contracts.
type Permission struct {
	Contract PermissionDesc
	Methods  WildStrings
}

// NewPermission returns a permission for the contracts of desc and the
// given methods (none given: every method).
func NewPermission(desc PermissionDesc, methods ...string) Permission {
	p := Permission{Contract: desc}
	if len(methods) == 0 {
		p.Methods = WildStrings{Wildcard: true}
	} else {
		p.Methods = WildStrings{Value: methods}
	}
	return p
}

// IsAllowed reports whether the permission allows calling method of the
// contract with the given hash and manifest.
func (p *Permission) IsAllowed(hash util.Uint160, m *Manifest, method string) bool {
	switch p.Contract.Type {
	case PermissionHash:
		if p.Contract.Hash != hash {
			return false
		}
	case PermissionGroup:
		found := false
		for i := range m.Groups {
			if m.Groups[i].PublicKey.Equal(p.Contract.Group) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return p.Methods.Contains(method)
}

// validate applies the reference's checks on a decoded permission.
func (p *Permission) validate() error {
	if p.Methods.Wildcard {
		return nil
	}
	for _, m := range p.Methods.Value {
		if m == "" {
			return fmt.Errorf("%w: empty method name in a permission", ErrInvalidField)
		}
	}
	if d, ok := firstDuplicate(p.Methods.Value, func(s string) string { return s }); ok {
		return fmt.Errorf("%w: permission method %q", ErrDuplicate, d)
	}
	return nil
}

// descKey is a comparable identity of a PermissionDesc.
type descKey struct {
	t PermissionDescType
	b [keys.CompressedLen]byte
}

func (d PermissionDesc) key() descKey {
	k := descKey{t: d.Type}
	switch d.Type {
	case PermissionHash:
		copy(k.b[:], d.Hash[:])
	case PermissionGroup:
		k.b = d.Group.Compressed()
	}
	return k
}
