package transaction

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSameWitnesses compares witness lists byte for byte.
func TestSameWitnesses(t *testing.T) {
	w := func(inv, verif string) Witness {
		return Witness{InvocationScript: []byte(inv), VerificationScript: []byte(verif)}
	}
	a := []Witness{w("sig", "key"), w("", "")}
	require.True(t, SameWitnesses(a, []Witness{w("sig", "key"), w("", "")}))
	require.True(t, SameWitnesses(nil, []Witness{}))
	require.False(t, SameWitnesses(a, a[:1]))
	require.False(t, SameWitnesses(a, []Witness{w("sig", "kez"), w("", "")}))
	require.False(t, SameWitnesses(a, []Witness{w("sig", "key"), w("x", "")}))
	require.False(t, SameWitnesses(a, []Witness{w("sigkey", ""), w("", "")}))
}
