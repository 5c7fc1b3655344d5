package manifest

import "errors"

// Sentinel errors of manifest decoding and validation.
var (
	// ErrInvalidJSON is returned for JSON that is not a manifest.
	ErrInvalidJSON = errors.New("manifest: invalid JSON")
	// ErrTooLarge is returned for a manifest over MaxManifestSize bytes.
	ErrTooLarge = errors.New("manifest: too large")
	// ErrInvalidField is returned for a field that breaks a rule of the
	// reference (empty name, bad type, bad offset, non-empty features...).
	ErrInvalidField = errors.New("manifest: invalid field")
	// ErrDuplicate is returned for a repeated group, standard, permission,
	// trust, method name in a permission or parameter name.
	ErrDuplicate = errors.New("manifest: duplicate entry")
	// ErrInvalidStackItem is returned when a stack item has not the shape
	// of a manifest.
	ErrInvalidStackItem = errors.New("manifest: invalid stack item")
	// ErrInvalidGroup is returned for a group whose signature does not
	// sign the contract hash.
	ErrInvalidGroup = errors.New("manifest: invalid group signature")
	// ErrNotSerializable is returned when the manifest's stack item
	// exceeds the VM's serialization limits.
	ErrNotSerializable = errors.New("manifest: not serializable within limits")
)
