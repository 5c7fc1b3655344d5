package native

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// fakeCommittee answers CheckCommittee with a fixed value.
type fakeCommittee bool

func (f fakeCommittee) CheckCommittee(*interop.Context) (bool, error) { return bool(f), nil }

// env is a chain of the core natives deployed at genesis with the given
// hardforks enabled from height 0 (nil: all of them up to upTo).
type env struct {
	t    testing.TB
	cfg  config.ProtocolConfiguration
	core *Core
	reg  *Registry
	d    *dao.DAO
	tx   *transaction.Transaction
}

func newEnv(t testing.TB, upTo protocol.Hardfork) *env {
	t.Helper()
	heights := map[protocol.Hardfork]uint32{}
	for _, hf := range protocol.Hardforks() {
		if hf <= upTo {
			heights[hf] = 0
		}
	}
	if upTo == protocol.HFDefault { // an empty map would enable every stable hardfork
		heights[protocol.HFAspidochelone] = 1_000_000
	}
	return newEnvAt(t, heights)
}

// newEnvAt is newEnv with the hardforks at the given heights.
func newEnvAt(t testing.TB, heights map[protocol.Hardfork]uint32) *env {
	t.Helper()
	cfg := config.ProtocolConfiguration{Hardforks: map[string]uint32{}, MaxTraceableBlocks: 2102400}
	cfg.Genesis.TimePerBlock = 15_000_000_000
	cfg.Genesis.MaxTraceableBlocks = 2102400
	cfg.Genesis.MaxValidUntilBlockIncrement = 5760
	for hf, h := range heights {
		cfg.Hardforks[hf.String()] = h
	}
	e := &env{t: t, cfg: cfg, core: NewCore(&cfg)}
	e.core.Policy.NEO = fakeCommittee(true)
	e.core.Management.NEO = fakeCommittee(true)
	e.reg = NewRegistry(&e.cfg, e.core.Contracts()...)
	e.d = dao.New(storage.NewMemoryStore())
	genesis := &block.Block{Header: block.Header{Index: 0}}
	e.run(trigger.OnPersist, genesis, mustScript(t, emit.NewBuilder().Syscall("System.Contract.NativeOnPersist")))
	require.NoError(t, e.d.StoreAsCurrentBlock(genesis))
	return e
}

func mustScript(t testing.TB, b *emit.Builder) []byte {
	t.Helper()
	s, err := b.Script()
	require.NoError(t, err)
	return s
}

// run executes script in block b over the env's DAO and returns the
// context.
func (e *env) run(trig trigger.Type, b *block.Block, script []byte) *interop.Context {
	e.t.Helper()
	return e.runOn(e.d, trig, b, script)
}

// runOn is run over d.
func (e *env) runOn(d *dao.DAO, trig trigger.Type, b *block.Block, script []byte) *interop.Context {
	e.t.Helper()
	var cont interop.Container
	if e.tx != nil {
		cont = e.tx
	}
	ic := interop.NewContext(interop.Config{
		Trigger:         trig,
		Container:       cont,
		Block:           b,
		HardforkEnabled: e.cfg.Enabled,
		Natives:         e.reg,
		Policy:          e.core.Policy,
		ExecFeeFactor:   DefaultExecFeeFactor * vm.FeeFactor,
		StoragePrice:    DefaultStoragePrice,
		GasLimit:        -1,
	}, d)
	_, err := ic.LoadScript(script, callflag.All, -1, 0)
	require.NoError(e.t, err)
	_ = ic.Run()
	return ic
}

// call invokes method of contract h with args (System.Contract.Call with
// all flags) in block 1 and returns the result or the fault.
func (e *env) call(h util.Uint160, method string, args ...any) (stackitem.Item, error) {
	e.t.Helper()
	ic := e.run(trigger.Application, &block.Block{Header: block.Header{Index: 1}},
		mustScript(e.t, emit.NewBuilder().AppCall(h, method, byte(callflag.All), args...)))
	if ic.VM().State() != vm.HaltState {
		return nil, ic.VM().FaultException()
	}
	items := ic.VM().ResultStack().Items()
	require.Len(e.t, items, 1)
	return items[0], nil
}

// mustCall is call that must HALT.
func (e *env) mustCall(h util.Uint160, method string, args ...any) stackitem.Item {
	e.t.Helper()
	it, err := e.call(h, method, args...)
	require.NoError(e.t, err, method)
	return it
}

func itemString(t *testing.T, it stackitem.Item) string {
	t.Helper()
	b, err := it.Bytes()
	require.NoError(t, err)
	return string(b)
}

func itemInt(t *testing.T, it stackitem.Item) int64 {
	t.Helper()
	n, err := it.BigInt()
	require.NoError(t, err)
	require.True(t, n.IsInt64())
	return n.Int64()
}
