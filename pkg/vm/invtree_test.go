package vm

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// TestInvocationTree checks scripts loaded while another runs become its
// children, a hash set after loading shows, and an in-script CALL adds no
// node.
func TestInvocationTree(t *testing.T) {
	v := New()
	require.Nil(t, v.InvocationTree())
	v.EnableInvocationTree()
	// CALL +3 (to the RET after it), RET, RET.
	a := []byte{byte(opcode.CALL), 3, byte(opcode.RET), byte(opcode.RET)}
	_, err := v.LoadScript(a)
	require.NoError(t, err)
	v.ExecuteNext() // the CALL
	require.Len(t, v.InvocationStack(), 2)
	b := []byte{byte(opcode.RET)}
	ctx, err := v.LoadScript(b)
	require.NoError(t, err)
	set := util.Uint160{1, 2, 3}
	ctx.SetScriptHash(set)
	require.NoError(t, v.Run())
	tr := v.InvocationTree()
	require.Len(t, tr.Calls, 1)
	require.Equal(t, hash.Hash160(a), tr.Calls[0].Hash)
	require.Len(t, tr.Calls[0].Calls, 1)
	require.Equal(t, set, tr.Calls[0].Calls[0].Hash)
	require.Empty(t, tr.Calls[0].Calls[0].Calls)
}
