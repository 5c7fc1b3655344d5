//go:build !invariants

package mpt

// checkInvariants is a no-op unless built with -tags invariants (see
// invariants_on.go).
func checkInvariants(*Trie) {}
