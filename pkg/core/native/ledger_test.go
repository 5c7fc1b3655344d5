package native

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

type headerMap map[uint32]util.Uint256

func (m headerMap) GetHeaderHash(i uint32) (util.Uint256, bool) { h, ok := m[i]; return h, ok }

func TestLedger(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	l := e.core.Ledger.Metadata().Hash
	b1 := &block.Block{Header: block.Header{Index: 1, Timestamp: 42, Nonce: 7, PrevHash: util.Uint256{1}}}
	b0 := &block.Block{Header: block.Header{Index: 0}}
	require.NoError(t, e.d.StoreAsBlock(b0))
	require.NoError(t, e.d.StoreAsBlock(b1))
	e.core.Ledger.Headers = headerMap{0: b0.Hash(), 1: b1.Hash()}

	// Before block 1 is persisted it is not visible.
	require.Equal(t, int64(0), itemInt(t, e.mustCall(l, "currentIndex")))
	require.Equal(t, stackitem.Null{}, e.mustCall(l, "getBlock", 1))
	// Ledger's PostPersist makes the persisting block current.
	ic := e.run(trigger.PostPersist, b1, mustScript(t, emit.NewBuilder().Syscall("System.Contract.NativePostPersist")))
	require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
	require.Equal(t, int64(1), itemInt(t, e.mustCall(l, "currentIndex")))
	h := b1.Hash()
	require.Equal(t, h[:], []byte(itemString(t, e.mustCall(l, "currentHash"))))
	for _, arg := range []any{1, h[:]} {
		arr := e.mustCall(l, "getBlock", arg).(*stackitem.Array)
		require.Equal(t, 10, arr.Len())
		require.Equal(t, h[:], []byte(itemString(t, arr.At(0))))
		require.Equal(t, int64(42), itemInt(t, arr.At(4)))
		require.Equal(t, int64(7), itemInt(t, arr.At(5)))
		require.Equal(t, int64(1), itemInt(t, arr.At(6)))
		require.Equal(t, int64(0), itemInt(t, arr.At(9)))
	}
	require.Equal(t, stackitem.Null{}, e.mustCall(l, "getBlock", 2))
	_, err := e.call(l, "getBlock", make([]byte, 33))
	require.Error(t, err)
	_, err = e.call(l, "getTransactionFromBlock", 1, 0)
	require.Error(t, err, "no transaction 0 in block 1")
	require.Equal(t, stackitem.Null{}, e.mustCall(l, "getTransaction", make([]byte, 32)))
	require.Equal(t, int64(-1), itemInt(t, e.mustCall(l, "getTransactionHeight", make([]byte, 32))))
	require.Equal(t, int64(vm.NoneState), itemInt(t, e.mustCall(l, "getTransactionVMState", make([]byte, 32))))
	_, err = e.call(l, "getTransaction", make([]byte, 31))
	require.Error(t, err)

	// MaxTraceableBlocks from Policy (Echidna): 1 makes only the current block visible.
	e.core.Ledger.MaxTraceableBlocks = 0
	require.NotEqual(t, stackitem.Null{}, e.mustCall(l, "getBlock", 0))
	require.NoError(t, putInt(e.d, PolicyID, []byte{policyMaxTraceableKey}, 1))
	require.NotEqual(t, stackitem.Null{}, e.mustCall(l, "getBlock", 1))
	require.Equal(t, stackitem.Null{}, e.mustCall(l, "getBlock", 0))
}
