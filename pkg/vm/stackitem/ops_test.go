package stackitem

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNewImmutableArrayIsDeepCopy(t *testing.T) {
	prim := func() []Item {
		return []Item{ByteString{1, 2}, NewBigInteger(big.NewInt(-5)), Null{}, Bool(true), NewInt(7)}
	}
	a, ok := NewImmutableArray(prim())
	require.True(t, ok)
	want, ok := DeepCopy(NewArray(prim()), true).(*Array)
	require.True(t, ok)
	require.Equal(t, want, a)
	require.True(t, a.ReadOnly())
	require.Error(t, a.Append(Null{}))

	for _, bad := range []Item{NewArray(nil), NewStruct(nil), NewMap(), NewBuffer([]byte{1})} {
		a, ok := NewImmutableArray(append(prim(), bad))
		require.False(t, ok, "%T", bad)
		require.Nil(t, a)
	}
}
