package native

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// countingStore counts the Gets of Policy keys with prefix.
type countingStore struct {
	storage.Store
	prefix []byte
	gets   int
}

func (s *countingStore) Get(key []byte) ([]byte, error) {
	if bytes.HasPrefix(key, s.prefix) {
		s.gets++
	}
	return s.Store.Get(key)
}

func policyKeyPrefix(sub byte) []byte {
	return dao.StorageKey(PolicyID, []byte{sub})
}

// TestPolicyBlockedFilter: negative IsBlocked answers need no storage
// read once the filter is loaded, and the filter never hides a blocked
// account: not after a discarded layer, an unblock, or with records
// written by another Policy instance.
func TestPolicyBlockedFilter(t *testing.T) {
	e, _ := faunEnv(t, protocol.HFFaun)
	pol := e.core.Policy
	h := pol.Metadata().Hash
	a, b := util.Uint160{0xa}, util.Uint160{0xb}
	halted(t, e.at(1, 10, appCall(t, h, "blockAccount", a)))

	cs := &countingStore{Store: e.d.Store(), prefix: policyKeyPrefix(policyBlockedAccount)}
	d := dao.New(cs)
	ok, err := pol.IsBlocked(d, b)
	require.NoError(t, err)
	require.False(t, ok)
	require.Zero(t, cs.gets, "a never blocked account is answered from the filter")
	ok, err = pol.IsBlocked(d, a)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, 1, cs.gets)

	// Blocked in a layer that is discarded: the filter keeps b, storage
	// says no.
	p := e.d.Private()
	halted(t, e.runOn(p, trigger.Application, &block.Block{Header: block.Header{Index: 1}}, appCall(t, h, "blockAccount", b)))
	ok, err = pol.IsBlocked(p, b)
	require.NoError(t, err)
	require.True(t, ok)
	require.NoError(t, p.Discard())
	ok, err = pol.IsBlocked(e.d, b)
	require.NoError(t, err)
	require.False(t, ok)

	// Unblocked: false although the filter still holds it.
	halted(t, e.at(1, 0, appCall(t, h, "unblockAccount", a)))
	ok, err = pol.IsBlocked(e.d, a)
	require.NoError(t, err)
	require.False(t, ok)

	// A fresh Policy loads the records it did not write.
	halted(t, e.at(1, 0, appCall(t, h, "blockAccount", a)))
	other := NewPolicy(&e.cfg)
	ok, err = other.IsBlocked(e.d, a)
	require.NoError(t, err)
	require.True(t, ok)

	// Records written behind its back are seen after ResetCaches only.
	c := util.Uint160{0xc}
	require.NoError(t, e.d.PutStorageItem(PolicyID, blockedKey(c), []byte{}))
	ok, err = other.IsBlocked(e.d, c)
	require.NoError(t, err)
	require.False(t, ok, "documented limitation: out-of-band writes need ResetCaches")
	other.ResetCaches()
	ok, err = other.IsBlocked(e.d, c)
	require.NoError(t, err)
	require.True(t, ok)

	// A blocked contract cannot be called, through the registry's Policy.
	ok, err = e.reg.IsBlocked(e.d, c)
	require.NoError(t, err)
	require.False(t, ok, "the registry's Policy has not seen c either")
	e.core.Policy.ResetCaches()
	ok, err = e.reg.IsBlocked(e.d, c)
	require.NoError(t, err)
	require.True(t, ok)
}

func TestPolicyWhitelistFilter(t *testing.T) {
	e, _ := faunEnv(t, protocol.HFFaun)
	pol := e.core.Policy
	h := pol.Metadata().Hash
	c := e.deployTest(t, util.Uint160{1})
	cs := &countingStore{Store: e.d.Store(), prefix: policyKeyPrefix(policyWhitelistedFee)}
	d := dao.New(cs)
	main := &manifest.Method{Name: "main", Offset: 0}
	_, ok, err := pol.WhitelistedFee(d, c, main)
	require.NoError(t, err)
	require.False(t, ok)
	require.Zero(t, cs.gets)

	p := e.d.Private()
	halted(t, e.runOn(p, trigger.Application, &block.Block{Header: block.Header{Index: 1}},
		appCall(t, h, "setWhitelistFeeContract", c, "main", 0, 9)))
	fee, ok, err := pol.WhitelistedFee(p, c, main)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(9), fee)
	require.NoError(t, p.Discard())
	_, ok, err = pol.WhitelistedFee(d, c, main)
	require.NoError(t, err)
	require.False(t, ok, "the discarded record is gone")
	require.Equal(t, 1, cs.gets)
}

// upgradable returns a contract "U" with main() → 1, upgrade(nef)
// calling ContractManagement.update(nef, null), and kill() calling destroy.
func upgradable(t *testing.T, mg util.Uint160, extra ...opcode.Opcode) ([]byte, []byte) {
	t.Helper()
	b := emit.NewBuilder()
	b.Opcodes(opcode.PUSH1, opcode.RET)
	up := b.Len()
	b.Opcodes(opcode.PUSHNULL, opcode.SWAP, opcode.PUSH2, opcode.PACK).Int(int64(callflag.All)).String("update").
		Bytes(mg.BytesLE()).Syscall("System.Contract.Call").Opcodes(opcode.DROP, opcode.RET)
	kill := b.Len()
	b.AppCall(mg, "destroy", byte(callflag.All)).Opcodes(opcode.DROP, opcode.RET)
	b.Opcodes(extra...)
	f, err := nef.NewFile("test", "", nil, mustScript(t, b))
	require.NoError(t, err)
	nb, err := f.Bytes()
	require.NoError(t, err)
	man := fmt.Sprintf(`{"name":"U","groups":[],"features":{},"supportedstandards":[],"abi":{"methods":[`+
		`{"name":"main","parameters":[],"returntype":"Integer","offset":0,"safe":false},`+
		`{"name":"upgrade","parameters":[{"name":"nef","type":"ByteArray"}],"returntype":"Void","offset":%d,"safe":false},`+
		`{"name":"kill","parameters":[],"returntype":"Void","offset":%d,"safe":false}],"events":[]},`+
		`"permissions":[{"contract":"*","methods":"*"}],"trusts":[],"extra":null}`, up, kill)
	return nb, []byte(man)
}

// TestManagementStatesAcrossLayers: contract states read through
// ContractManagement follow updates and destruction in private layers and
// their discarding (the DAO's decoded-state cache is checked against the
// stored bytes).
func TestManagementStatesAcrossLayers(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	mg := e.core.Management.Metadata().Hash
	sender := util.Uint160{3}
	e.tx = &transaction.Transaction{Signers: []transaction.Signer{{Account: sender, Scopes: transaction.Global}}}
	nb, man := upgradable(t, mg)
	ic := e.at(1, 0, appCall(t, mg, "deploy", nb, man))
	h := util.Uint160{}
	copy(h[:], []byte(itemString(t, e.ctxResult(ic).(*stackitem.Array).At(2))))
	nb2, _ := upgradable(t, mg, opcode.RET)

	get := func(d *dao.DAO) stackitem.Item {
		return e.ctxResult(e.runOn(d, trigger.Application, &block.Block{Header: block.Header{Index: 1}}, appCall(t, mg, "getContract", h)))
	}
	counter := func(d *dao.DAO) int64 { return itemInt(t, get(d).(*stackitem.Array).At(1)) }
	upgrade := func(d *dao.DAO) {
		halted(t, e.runOn(d, trigger.Application, &block.Block{Header: block.Header{Index: 1}}, appCall(t, h, "upgrade", nb2)))
	}
	require.Equal(t, int64(0), counter(e.d))

	p := e.d.Private()
	upgrade(p)
	require.Equal(t, int64(1), counter(p))
	require.Equal(t, int64(0), counter(e.d), "the parent does not see the layer")
	require.NoError(t, p.Discard())
	require.Equal(t, int64(0), counter(e.d))
	p = e.d.Private()
	require.Equal(t, int64(0), counter(p), "nor does a new layer after the discard")
	upgrade(p)
	require.NoError(t, p.Persist())
	require.Equal(t, int64(1), counter(e.d), "a persisted update is seen")

	p = e.d.Private()
	halted(t, e.runOn(p, trigger.Application, &block.Block{Header: block.Header{Index: 1}}, appCall(t, h, "kill")))
	require.Equal(t, stackitem.Null{}, get(p))
	require.NoError(t, p.Discard())
	require.Equal(t, int64(1), counter(e.d), "a discarded destroy leaves the contract")
}

// BenchmarkPolicyIsBlocked compares the filtered negative answer with the
// storage read it replaces, on a transaction layer over a block layer
// over a memory store.
func BenchmarkPolicyIsBlocked(b *testing.B) {
	e, _ := faunEnv(b, protocol.HFFaun)
	d := e.d.Private().Private()
	acc := util.Uint160{0x42}
	b.Run("filter", func(b *testing.B) {
		for b.Loop() {
			if ok, err := e.core.Policy.IsBlocked(d, acc); ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("read", func(b *testing.B) {
		key := blockedKey(acc)
		for b.Loop() {
			if _, err := d.GetStorageItem(PolicyID, key); !dao.IsNotFound(err) {
				b.Fatal(err)
			}
		}
	})
}
