package manifest

// WildStrings is a list of strings or the wildcard "*" (every string).
type WildStrings struct {
	Wildcard bool
	Value    []string
}

// Contains reports whether s is in the list or the list is the wildcard.
func (c *WildStrings) Contains(s string) bool {
	if c.Wildcard {
		return true
	}
	for _, v := range c.Value {
		if v == s {
			return true
		}
	}
	return false
}

// WildPermissionDescs is a list of permission descriptors or the wildcard
// "*" (every contract). An element may itself be the "*" descriptor.
type WildPermissionDescs struct {
	Wildcard bool
	Value    []PermissionDesc
}

// Contains reports whether d is in the list or the list is the wildcard.
func (c *WildPermissionDescs) Contains(d PermissionDesc) bool {
	if c.Wildcard {
		return true
	}
	for _, v := range c.Value {
		if v.Equals(d) {
			return true
		}
	}
	return false
}
