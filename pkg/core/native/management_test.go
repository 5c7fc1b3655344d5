package native

import (
	"fmt"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// testContract builds a contract with main() → 1, _deploy(data, update)
// storing "k" → "v", and kill() calling ContractManagement.destroy.
func testContract(t *testing.T, mgmt util.Uint160) ([]byte, []byte) {
	t.Helper()
	b := emit.NewBuilder()
	b.Opcodes(opcode.PUSH1, opcode.RET)
	deployOff := b.Len()
	b.Opcodes(opcode.DROP, opcode.DROP).Bytes([]byte("v")).Bytes([]byte("k")).
		Syscall("System.Storage.GetContext").Syscall("System.Storage.Put").Opcodes(opcode.RET)
	killOff := b.Len()
	b.AppCall(mgmt, "destroy", byte(callflag.All)).Opcodes(opcode.DROP, opcode.RET)
	script := mustScript(t, b)
	f, err := nef.NewFile("test", "", nil, script)
	require.NoError(t, err)
	nb, err := f.Bytes()
	require.NoError(t, err)
	man := fmt.Sprintf(`{"name":"T","groups":[],"features":{},"supportedstandards":[],"abi":{"methods":[`+
		`{"name":"main","parameters":[],"returntype":"Integer","offset":0,"safe":false},`+
		`{"name":"_deploy","parameters":[{"name":"data","type":"Any"},{"name":"update","type":"Boolean"}],"returntype":"Void","offset":%d,"safe":false},`+
		`{"name":"kill","parameters":[],"returntype":"Void","offset":%d,"safe":false}],"events":[]},`+
		`"permissions":[{"contract":"*","methods":"*"}],"trusts":[],"extra":null}`, deployOff, killOff)
	return nb, []byte(man)
}

func TestManagementDeployAndQueries(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	mg := e.core.Management.Metadata().Hash
	sender := util.Uint160{7, 7, 7}
	e.tx = &transaction.Transaction{Signers: []transaction.Signer{{Account: sender, Scopes: transaction.CalledByEntry}}}
	nb, man := testContract(t, mg)
	f, err := nef.FileFromBytes(nb)
	require.NoError(t, err)
	want := smartcontract.CreateContractHash(sender, f.Checksum, "T")

	ic := e.run(trigger.Application, &block.Block{Header: block.Header{Index: 1}},
		mustScript(t, emit.NewBuilder().AppCall(mg, "deploy", byte(callflag.All), nb, man)))
	require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
	require.GreaterOrEqual(t, ic.VM().GasConsumed(), int64(DefaultMinimumDeploymentFee))
	res := ic.VM().ResultStack().Items()
	require.Len(t, res, 1)
	arr := res[0].(*stackitem.Array)
	require.Equal(t, int64(1), itemInt(t, arr.At(0)))
	require.Equal(t, int64(0), itemInt(t, arr.At(1)))
	require.Equal(t, want[:], []byte(itemString(t, arr.At(2))))
	ev := ic.Notifications()
	require.Len(t, ev, 1)
	require.Equal(t, EventDeploy, ev[0].Name)
	v, err := e.d.GetStorageItem(1, []byte("k"))
	require.NoError(t, err, "_deploy ran")
	require.Equal(t, []byte("v"), v)

	c := e.mustCall(mg, "getContract", want).(*stackitem.Array)
	require.Equal(t, int64(1), itemInt(t, c.At(0)))
	c = e.mustCall(mg, "getContractById", 1).(*stackitem.Array)
	require.Equal(t, want[:], []byte(itemString(t, c.At(2))))
	require.Equal(t, stackitem.Null{}, e.mustCall(mg, "getContractById", 2))
	require.Equal(t, stackitem.Null{}, e.mustCall(mg, "getContract", util.Uint160{}))
	require.Equal(t, stackitem.Bool(true), e.mustCall(mg, "hasMethod", want, "main", 0))
	require.Equal(t, stackitem.Bool(true), e.mustCall(mg, "hasMethod", want, "main", -1))
	require.Equal(t, stackitem.Bool(false), e.mustCall(mg, "hasMethod", want, "main", 1))
	require.Equal(t, stackitem.Bool(true), e.mustCall(mg, "isContract", want))
	require.Equal(t, stackitem.Bool(true), e.mustCall(mg, "isContract", mg))
	require.Equal(t, int64(1), itemInt(t, e.mustCall(want, "main")))

	_, err = e.call(mg, "deploy", nb, man)
	require.Error(t, err, "a contract deploys once")

	// destroy from the contract itself: state, id record and storage go,
	// the hash is blocked.
	ic = e.run(trigger.Application, &block.Block{Header: block.Header{Index: 1}},
		mustScript(t, emit.NewBuilder().AppCall(want, "kill", byte(callflag.All)).Opcodes(opcode.DROP)))
	require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
	require.Equal(t, EventDestroy, ic.Notifications()[0].Name)
	require.Equal(t, stackitem.Null{}, e.mustCall(mg, "getContract", want))
	require.Equal(t, stackitem.Null{}, e.mustCall(mg, "getContractById", 1))
	_, err = e.d.GetStorageItem(1, []byte("k"))
	require.Error(t, err)
	blocked, err := e.core.Policy.IsBlocked(e.d, want)
	require.NoError(t, err)
	require.True(t, blocked)
	_, err = e.call(mg, "deploy", nb, man)
	require.Error(t, err, "a destroyed contract is blocked")
}

func TestManagementDeployErrors(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	mg := e.core.Management.Metadata().Hash
	nb, man := testContract(t, mg)
	_, err := e.call(mg, "deploy", nb, man)
	require.Error(t, err, "deploy needs a transaction")
	e.tx = &transaction.Transaction{Signers: []transaction.Signer{{Account: util.Uint160{1}}}}
	for _, bad := range [][]any{{[]byte{}, man}, {nb, []byte{}}, {nb[:len(nb)-1], man}, {nb, man[1:]}, {nil, man}} {
		_, err := e.call(mg, "deploy", bad...)
		require.Error(t, err)
	}
	_, err = e.call(mg, "update", nil, nil)
	require.Error(t, err)
	require.Equal(t, int64(DefaultMinimumDeploymentFee), itemInt(t, e.mustCall(mg, "getMinimumDeploymentFee")))
	e.mustCall(mg, "setMinimumDeploymentFee", 5)
	require.Equal(t, int64(5), itemInt(t, e.mustCall(mg, "getMinimumDeploymentFee")))
	_, err = e.call(mg, "setMinimumDeploymentFee", -1)
	require.Error(t, err)
	e.core.Management.NEO = fakeCommittee(false)
	_, err = e.call(mg, "setMinimumDeploymentFee", 6)
	require.ErrorIs(t, err, ErrNoCommittee)
}

func TestManagementBeforeEchidna(t *testing.T) {
	e := newEnv(t, protocol.HFDomovoi)
	_, err := e.call(e.core.Management.Metadata().Hash, "isContract", util.Uint160{})
	require.Error(t, err, "isContract exists from Echidna")
}
