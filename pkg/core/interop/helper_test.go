package interop_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// method is one method of a test contract: its code starts at the offset
// the builder has reached.
type method struct {
	name   string
	params []smartcontract.ParamType
	ret    smartcontract.ParamType
	safe   bool
	code   func(b *emit.Builder)
}

// testContract deploys a contract made of methods (plus an event "Ev" with
// one Integer parameter) into d with id.
func testContract(t testing.TB, d *dao.DAO, id int32, name string, methods []method) *state.Contract {
	t.Helper()
	b := emit.NewBuilder()
	m := manifest.DefaultManifest(name)
	for _, md := range methods {
		ps := make([]manifest.Parameter, len(md.params))
		for i, p := range md.params {
			ps[i] = manifest.NewParameter(string(rune('a'+i)), p)
		}
		m.ABI.Methods = append(m.ABI.Methods, manifest.Method{
			Name: md.name, Parameters: ps, ReturnType: md.ret, Offset: b.Len(), Safe: md.safe,
		})
		md.code(b)
	}
	m.ABI.Events = []manifest.Event{{Name: "Ev", Parameters: []manifest.Parameter{manifest.NewParameter("n", smartcontract.IntegerType)}}}
	script, err := b.Script()
	require.NoError(t, err)
	nf, err := nef.NewFile("test", "", nil, script)
	require.NoError(t, err)
	c := &state.Contract{ID: id, Hash: smartcontract.CreateContractHash(util.Uint160{}, nf.Checksum, name), NEF: *nf, Manifest: *m}
	require.NoError(t, d.PutContract(c))
	return c
}

type env struct {
	d   *dao.DAO
	cfg interop.Config
}

func newEnv() *env {
	d := dao.New(storage.NewMemoryStore())
	return &env{d: d, cfg: interop.Config{
		Trigger: trigger.Application, Network: 42, AddressVersion: 0x35,
		HardforkEnabled: func(protocol.Hardfork, uint32) bool { return true },
		ExecFeeFactor:   30 * vm.FeeFactor, StoragePrice: 100000, GasLimit: -1,
		Block: &block.Block{Header: block.Header{Index: 10, Timestamp: 1234, Nonce: 77}},
	}}
}

// run executes script as the entry (flags All) and returns the context.
func (e *env) run(t *testing.T, script []byte) *interop.Context {
	t.Helper()
	ic := interop.NewContext(e.cfg, e.d)
	_, err := ic.LoadScript(script, callflag.All, -1, 0)
	require.NoError(t, err)
	_ = ic.Run()
	return ic
}

func script(t testing.TB, f func(b *emit.Builder)) []byte {
	t.Helper()
	b := emit.NewBuilder()
	f(b)
	s, err := b.Script()
	require.NoError(t, err)
	return s
}

// halt runs script and returns the result stack, requiring HALT.
func (e *env) halt(t *testing.T, s []byte) []stackitem.Item {
	t.Helper()
	ic := e.run(t, s)
	require.Equal(t, vm.HaltState, ic.VM().State(), "fault: %v", ic.VM().FaultException())
	return ic.VM().ResultStack().Items()
}

func (e *env) fault(t *testing.T, s []byte) error {
	t.Helper()
	ic := e.run(t, s)
	require.Equal(t, vm.FaultState, ic.VM().State())
	return ic.Run()
}

func txWithSigners(signers ...transaction.Signer) *transaction.Transaction {
	return &transaction.Transaction{Script: []byte{byte(opcode.RET)}, Signers: signers, ValidUntilBlock: 100}
}

var (
	smartcontract_Int = smartcontract.IntegerType
	voidT             = smartcontract.VoidType
)
