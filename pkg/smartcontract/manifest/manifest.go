package manifest

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/smartcontract/neojson"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// MaxManifestSize is the largest manifest JSON accepted, in bytes.
const MaxManifestSize = 0xFFFF

// Manifest describes a contract: its name, ABI, the groups vouching for
// it, the contracts and methods it may call, the contracts it trusts and
// free-form extra data. Its JSON has no other field than "features",
// which must be the empty object.
type Manifest struct {
	Name               string
	Groups             []Group
	SupportedStandards []string
	ABI                ABI
	Permissions        []Permission
	Trusts             WildPermissionDescs
	// Extra is the "extra" object, nil for JSON null.
	Extra *neojson.Object
}

// NewManifest returns a manifest with no methods, no permissions and no
// trusts.
func NewManifest(name string) *Manifest {
	return &Manifest{
		Name:               name,
		Groups:             []Group{},
		SupportedStandards: []string{},
		ABI:                ABI{Methods: []Method{}, Events: []Event{}},
		Permissions:        []Permission{},
		Trusts:             WildPermissionDescs{Value: []PermissionDesc{}},
	}
}

// DefaultManifest returns NewManifest with the permission to call every
// method of every contract, as the native contracts have.
func DefaultManifest(name string) *Manifest {
	m := NewManifest(name)
	m.Permissions = []Permission{NewPermission(NewWildcardDesc())}
	return m
}

// validate applies every check the reference makes when it reads a
// manifest from JSON.
func (m *Manifest) validate() error {
	if m.Name == "" {
		return fmt.Errorf("%w: empty name", ErrInvalidField)
	}
	if err := validateGroups(m.Groups); err != nil {
		return err
	}
	for _, s := range m.SupportedStandards {
		if s == "" {
			return fmt.Errorf("%w: empty supported standard", ErrInvalidField)
		}
	}
	if d, ok := firstDuplicate(m.SupportedStandards, func(s string) string { return s }); ok {
		return fmt.Errorf("%w: standard %q", ErrDuplicate, d)
	}
	if err := m.ABI.validate(); err != nil {
		return err
	}
	for i := range m.Permissions {
		if err := m.Permissions[i].validate(); err != nil {
			return err
		}
	}
	if d, ok := firstDuplicate(m.Permissions, func(p Permission) descKey { return p.Contract.key() }); ok {
		return fmt.Errorf("%w: permission for %s", ErrDuplicate, d.Contract)
	}
	if d, ok := firstDuplicate(m.Trusts.Value, PermissionDesc.key); ok {
		return fmt.Errorf("%w: trust %s", ErrDuplicate, d)
	}
	return nil
}

// IsValid is the reference's deployment check for a contract of the given
// hash: the manifest's stack item serializes within the VM limits
// (MaxItemSize bytes, MaxStackSize items) and every group signs the hash.
func (m *Manifest) IsValid(h util.Uint160) error {
	if _, err := stackitem.Serialize(m.ToStackItem()); err != nil {
		return fmt.Errorf("%w: %w", ErrNotSerializable, err)
	}
	for i := range m.Groups {
		if !m.Groups[i].IsValid(h) {
			return fmt.Errorf("%w: %s", ErrInvalidGroup, m.Groups[i].PublicKey)
		}
	}
	return nil
}

// CanCall reports whether a contract with this manifest may call method of
// the contract with the given hash and manifest.
func (m *Manifest) CanCall(hash util.Uint160, target *Manifest, method string) bool {
	for i := range m.Permissions {
		if m.Permissions[i].IsAllowed(hash, target, method) {
			return true
		}
	}
	return false
}
