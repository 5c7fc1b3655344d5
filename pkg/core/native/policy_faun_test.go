package native

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// Values and rules are the reference PolicyContract's (C#
// PolicyContract.cs at Faun): exec fee factor ×10000 at Faun with the
// limit 100 × 10000, blocked records holding the block time, one year
// (365 × 86400000 ms) before recoverFund, whitelist records keyed by
// 16 ‖ hash ‖ int32 BE offset holding Struct [hash, method, argCount, fee].

// fakeNEO is the committee and vote-revocation side of NeoToken: its
// committee is keys (the witness check is a fixed answer), RevokeVote
// records the account and, when callback is set and the account is a
// deployed contract, calls its _deploy(null, false) first, as a GAS
// distribution calls onNEP17Payment.
type fakeNEO struct {
	committee bool
	keys      [][]byte
	callback  bool
	revoked   []util.Uint160
	called    []util.Uint160
}

func (f *fakeNEO) CheckCommittee(*interop.Context) (bool, error) { return f.committee, nil }

func (f *fakeNEO) CommitteeKeys(*dao.DAO) ([][]byte, error) { return f.keys, nil }

func (f *fakeNEO) RevokeVote(ic *interop.Context, acc util.Uint160, then func(*interop.Context) error) error {
	f.revoked = append(f.revoked, acc)
	if f.callback {
		c, err := getContractOrNil(ic.DAO(), acc)
		if err != nil {
			return err
		}
		if c != nil {
			f.called = append(f.called, acc)
			neo := smartcontract.CreateNativeContractHash(NeoName)
			return ic.CallFromNative(neo, acc, methodDeploy, []stackitem.Item{stackitem.Null{}, stackitem.Bool(false)}, false, then)
		}
	}
	return then(ic)
}

var (
	_ Committee     = (*fakeNEO)(nil)
	_ VoteRevoker   = (*fakeNEO)(nil)
	_ CommitteeKeys = (*fakeNEO)(nil)
)

// faunEnv is an env with every hardfork up to Faun (or upTo) at genesis
// and a fakeNEO.
func faunEnv(t testing.TB, upTo protocol.Hardfork) (*env, *fakeNEO) {
	e := newEnv(t, upTo)
	f := &fakeNEO{committee: true}
	e.core.Policy.NEO = f
	return e, f
}

// at runs script in block index with timestamp ts over the env's DAO.
func (e *env) at(index uint32, ts uint64, script []byte) *interop.Context {
	e.t.Helper()
	return e.run(trigger.Application, &block.Block{Header: block.Header{Index: index, Timestamp: ts}}, script)
}

func halted(t testing.TB, ic *interop.Context) {
	t.Helper()
	require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
}

func faulted(t testing.TB, ic *interop.Context) {
	t.Helper()
	require.Equal(t, vm.FaultState, ic.VM().State())
}

func appCall(t testing.TB, h util.Uint160, method string, args ...any) []byte {
	t.Helper()
	return mustScript(t, emit.NewBuilder().AppCall(h, method, byte(callflag.All), args...))
}

// drain reads every value of the iterator on top of ic's result stack.
func drain(t *testing.T, ic *interop.Context) []stackitem.Item {
	t.Helper()
	res := ic.VM().ResultStack().Items()
	require.Len(t, res, 1)
	it, ok := res[0].(*stackitem.Interop).Value().(interop.Iterator)
	require.True(t, ok)
	var out []stackitem.Item
	for it.Next() {
		v, err := it.Value()
		require.NoError(t, err)
		out = append(out, v)
	}
	return out
}

func TestPolicyFaunInitialization(t *testing.T) {
	e := newEnvAt(t, map[protocol.Hardfork]uint32{protocol.HFAspidochelone: 0, protocol.HFBasilisk: 0,
		protocol.HFCockatrice: 0, protocol.HFDomovoi: 0, protocol.HFEchidna: 0, protocol.HFFaun: 2})
	f := &fakeNEO{committee: true}
	e.core.Policy.NEO = f
	pol := e.core.Policy
	h := pol.Metadata().Hash
	acc := util.Uint160{1, 2, 3}
	halted(t, e.at(1, 500, appCall(t, h, "blockAccount", acc)))
	require.Empty(t, f.revoked, "no vote revocation before Faun")
	v, err := e.d.GetStorageItem(PolicyID, blockedKey(acc))
	require.NoError(t, err)
	require.Empty(t, v, "blocked records are empty before Faun")
	_, err = e.call(h, "getExecPicoFeeFactor")
	require.Error(t, err, "getExecPicoFeeFactor exists from Faun")

	// The engine of block 2's OnPersist still sees the datoshi value.
	pico, err := pol.ExecPicoFeeFactor(e.d, 1, trigger.Application)
	require.NoError(t, err)
	require.Equal(t, int64(DefaultExecFeeFactor*vm.FeeFactor), pico)
	pico, err = pol.ExecPicoFeeFactor(e.d, 2, trigger.OnPersist)
	require.NoError(t, err)
	require.Equal(t, int64(DefaultExecFeeFactor*vm.FeeFactor), pico)

	const faunTime = 1_700_000_000_000
	ic := e.run(trigger.OnPersist, &block.Block{Header: block.Header{Index: 2, Timestamp: faunTime}},
		mustScript(t, emit.NewBuilder().Syscall("System.Contract.NativeOnPersist")))
	halted(t, ic)
	raw, err := pol.ExecFeeFactor(e.d)
	require.NoError(t, err)
	require.Equal(t, int64(DefaultExecFeeFactor*vm.FeeFactor), raw, "stored in picoGAS from Faun")
	v, err = e.d.GetStorageItem(PolicyID, blockedKey(acc))
	require.NoError(t, err)
	require.Equal(t, bigint.ToBytes(big.NewInt(faunTime)), v, "blocked records get the Faun block time")
	for _, trig := range []trigger.Type{trigger.Application, trigger.PostPersist} {
		pico, err = pol.ExecPicoFeeFactor(e.d, 2, trig)
		require.NoError(t, err)
		require.Equal(t, int64(DefaultExecFeeFactor*vm.FeeFactor), pico)
	}
	pico, err = pol.ExecPicoFeeFactor(e.d, 3, trigger.OnPersist)
	require.NoError(t, err)
	require.Equal(t, int64(DefaultExecFeeFactor*vm.FeeFactor), pico)

	get := func(m string) int64 { return itemInt(t, e.ctxResult(e.at(3, 0, appCall(t, h, m)))) }
	require.Equal(t, int64(DefaultExecFeeFactor), get("getExecFeeFactor"))
	require.Equal(t, int64(DefaultExecFeeFactor*vm.FeeFactor), get("getExecPicoFeeFactor"))
	// From Faun the setter takes picoGAS up to 100 × 10000.
	halted(t, e.at(3, 0, appCall(t, h, "setExecFeeFactor", MaxExecFeeFactor*vm.FeeFactor)))
	require.Equal(t, int64(MaxExecFeeFactor), get("getExecFeeFactor"))
	require.Equal(t, int64(MaxExecFeeFactor*vm.FeeFactor), get("getExecPicoFeeFactor"))
	faulted(t, e.at(3, 0, appCall(t, h, "setExecFeeFactor", MaxExecFeeFactor*vm.FeeFactor+1)))
	faulted(t, e.at(3, 0, appCall(t, h, "setExecFeeFactor", 0)))
	faulted(t, e.at(3, 0, appCall(t, h, "setExecFeeFactor", -1)))
	halted(t, e.at(3, 0, appCall(t, h, "setExecFeeFactor", 15)))
	require.Equal(t, int64(0), get("getExecFeeFactor"), "datoshi value rounds down")
	require.Equal(t, int64(15), get("getExecPicoFeeFactor"))
	pico, err = pol.ExecPicoFeeFactor(e.d, 3, trigger.Application)
	require.NoError(t, err)
	require.Equal(t, int64(15), pico)
}

// ctxResult returns the single result of a halted run.
func (e *env) ctxResult(ic *interop.Context) stackitem.Item {
	e.t.Helper()
	halted(e.t, ic)
	res := ic.VM().ResultStack().Items()
	require.Len(e.t, res, 1)
	return res[0]
}

func TestPolicyExecFeeFactorBeforeFaun(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	pol := e.core.Policy
	h := pol.Metadata().Hash
	faulted(t, e.at(1, 0, appCall(t, h, "setExecFeeFactor", MaxExecFeeFactor+1)))
	halted(t, e.at(1, 0, appCall(t, h, "setExecFeeFactor", 7)))
	pico, err := pol.ExecPicoFeeFactor(e.d, 1, trigger.Application)
	require.NoError(t, err)
	require.Equal(t, int64(7*vm.FeeFactor), pico)
	empty := NewPolicy(&e.cfg)
	pico, err = empty.ExecPicoFeeFactor(dao.New(e.d.Store()).Private(), 0, trigger.OnPersist)
	require.NoError(t, err)
	require.Equal(t, int64(7*vm.FeeFactor), pico, "the stored value")
	pico, err = empty.ExecPicoFeeFactor(dao.New(storage.NewMemoryStore()), 0, trigger.OnPersist)
	require.NoError(t, err)
	require.Equal(t, int64(DefaultExecFeeFactor*vm.FeeFactor), pico, "the default before genesis")
}

func TestPolicyBlockAccountFaun(t *testing.T) {
	e, f := faunEnv(t, protocol.HFFaun)
	h := e.core.Policy.Metadata().Hash
	a, b := util.Uint160{9}, util.Uint160{3}
	ic := e.at(1, 1234, appCall(t, h, "blockAccount", a))
	require.Equal(t, stackitem.Bool(true), e.ctxResult(ic))
	require.Equal(t, []util.Uint160{a}, f.revoked)
	v, err := e.d.GetStorageItem(PolicyID, blockedKey(a))
	require.NoError(t, err)
	require.Equal(t, bigint.ToBytes(big.NewInt(1234)), v)
	require.Equal(t, stackitem.Bool(false), e.ctxResult(e.at(1, 0, appCall(t, h, "blockAccount", a))))
	require.Len(t, f.revoked, 1, "an already blocked account is not revoked again")
	require.Equal(t, stackitem.Bool(true), e.ctxResult(e.at(1, 0, appCall(t, h, "blockAccount", b))))
	faulted(t, e.at(1, 0, appCall(t, h, "blockAccount", e.core.Std.Metadata().Hash)))

	got := drain(t, e.at(1, 0, appCall(t, h, "getBlockedAccounts")))
	require.Equal(t, []stackitem.Item{stackitem.ByteString(b[:]), stackitem.ByteString(a[:])}, got, "key order, prefix removed")

	// blockAccount needs AllowNotify from Faun.
	ic = e.at(1, 0, mustScript(t, emit.NewBuilder().AppCall(h, "blockAccount", byte(callflag.States), util.Uint160{4})))
	faulted(t, ic)
	f.committee = false
	faulted(t, e.at(1, 0, appCall(t, h, "blockAccount", util.Uint160{5})))
	faulted(t, e.at(1, 0, appCall(t, h, "unblockAccount", a)))
	f.committee = true
	require.Equal(t, stackitem.Bool(true), e.ctxResult(e.at(1, 0, appCall(t, h, "unblockAccount", a))))
	require.Equal(t, stackitem.Bool(false), e.ctxResult(e.at(1, 0, appCall(t, h, "unblockAccount", a))))
	got = drain(t, e.at(1, 0, appCall(t, h, "getBlockedAccounts")))
	require.Equal(t, []stackitem.Item{stackitem.ByteString(b[:])}, got)

	e.core.Policy.NEO = fakeCommittee(true)
	ic = e.at(1, 0, appCall(t, h, "blockAccount", util.Uint160{6}))
	faulted(t, ic)
	require.ErrorIs(t, ic.VM().FaultException(), errNoVoteRevoker)
}

// TestPolicyBlockAccountAfterCallback blocks a contract whose vote
// revocation calls it back: the record is written after the callback
// returned, so the callback (a call into the contract) is not refused as
// a call into a blocked contract.
func TestPolicyBlockAccountAfterCallback(t *testing.T) {
	e, f := faunEnv(t, protocol.HFFaun)
	f.callback = true
	c := e.deployTest(t, util.Uint160{7, 7, 7})
	h := e.core.Policy.Metadata().Hash
	ic := e.at(1, 99, appCall(t, h, "blockAccount", c))
	require.Equal(t, stackitem.Bool(true), e.ctxResult(ic))
	require.Equal(t, []util.Uint160{c}, f.called)
	blocked, err := e.core.Policy.IsBlocked(e.d, c)
	require.NoError(t, err)
	require.True(t, blocked)
	v, err := e.d.GetStorageItem(1, []byte("k"))
	require.NoError(t, err, "the callback ran")
	require.Equal(t, []byte("v"), v)
}

// deployTest deploys testContract from sender and returns its hash.
func (e *env) deployTest(t *testing.T, sender util.Uint160) util.Uint160 {
	t.Helper()
	mg := e.core.Management.Metadata().Hash
	e.tx = &transaction.Transaction{Signers: []transaction.Signer{{Account: sender, Scopes: transaction.CalledByEntry}}}
	defer func() { e.tx = nil }()
	nb, man := testContract(t, mg)
	halted(t, e.at(1, 0, appCall(t, mg, "deploy", nb, man)))
	f, err := nef.FileFromBytes(nb)
	require.NoError(t, err)
	return smartcontract.CreateContractHash(sender, f.Checksum, "T")
}

func TestPolicyWhitelist(t *testing.T) {
	e, f := faunEnv(t, protocol.HFFaun)
	pol := e.core.Policy
	h := pol.Metadata().Hash
	c := e.deployTest(t, util.Uint160{1})
	callMain := appCall(t, c, "main")
	base := e.at(1, 0, callMain)
	halted(t, base)

	ic := e.at(1, 0, appCall(t, h, "setWhitelistFeeContract", c, "main", 0, 123))
	halted(t, ic)
	require.Len(t, ic.Notifications(), 1)
	n := ic.Notifications()[0]
	require.Equal(t, whitelistFeeChanged, n.Name)
	require.Equal(t, []stackitem.Item{stackitem.ByteString(c[:]), stackitem.ByteString("main"), stackitem.NewInt(0), stackitem.NewInt(123)}, n.Item.Items())
	raw, err := e.d.GetStorageItem(PolicyID, append(append([]byte{16}, c[:]...), 0, 0, 0, 0))
	require.NoError(t, err)
	want, err := stackitem.Serialize(stackitem.NewStruct([]stackitem.Item{stackitem.ByteString(c[:]),
		stackitem.ByteString("main"), stackitem.NewInt(0), stackitem.NewInt(123)}))
	require.NoError(t, err)
	require.Equal(t, want, raw)

	// main (PUSH1, RET: 1 × the exec fee factor) now costs its fixed fee.
	wl := e.at(1, 0, callMain)
	halted(t, wl)
	require.Equal(t, int64(123-1*DefaultExecFeeFactor), wl.VM().GasConsumed()-base.VM().GasConsumed())

	recs := drain(t, e.at(1, 0, appCall(t, h, "getWhitelistFeeContracts")))
	require.Len(t, recs, 1)
	require.Equal(t, []stackitem.Item{stackitem.ByteString(c[:]), stackitem.ByteString("main"), stackitem.NewInt(0), stackitem.NewInt(123)},
		recs[0].(*stackitem.Array).Items())

	halted(t, e.at(1, 0, appCall(t, h, "setWhitelistFeeContract", c, "main", 0, 5)))
	fee, ok, err := pol.WhitelistedFee(e.d, c, &manifest.Method{Offset: 0})
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(5), fee)

	for _, bad := range [][]any{
		{c, "main", 0, -1},              // negative fee
		{util.Uint160{1}, "main", 0, 1}, // no contract
		{c, "nope", 0, 1},               // no method
		{c, "main", 1, 1},               // wrong count
		{c, "main", -1, 1},              // no method has -1 parameters
	} {
		faulted(t, e.at(1, 0, appCall(t, h, "setWhitelistFeeContract", bad...)))
	}
	f.committee = false
	faulted(t, e.at(1, 0, appCall(t, h, "setWhitelistFeeContract", c, "main", 0, 1)))
	faulted(t, e.at(1, 0, appCall(t, h, "removeWhitelistFeeContract", c, "main", 0)))
	f.committee = true

	ic = e.at(1, 0, appCall(t, h, "removeWhitelistFeeContract", c, "main", 0))
	halted(t, ic)
	require.Equal(t, []stackitem.Item{stackitem.ByteString(c[:]), stackitem.ByteString("main"), stackitem.NewInt(0), stackitem.Null{}},
		ic.Notifications()[0].Item.Items())
	_, ok, err = pol.WhitelistedFee(e.d, c, &manifest.Method{Offset: 0})
	require.NoError(t, err)
	require.False(t, ok)
	faulted(t, e.at(1, 0, appCall(t, h, "removeWhitelistFeeContract", c, "main", 0)))
	require.Equal(t, base.VM().GasConsumed(), e.at(1, 0, callMain).VM().GasConsumed())

	// destroy drops the contract's records with a notification each.
	halted(t, e.at(1, 0, appCall(t, h, "setWhitelistFeeContract", c, "main", 0, 1)))
	halted(t, e.at(1, 0, appCall(t, h, "setWhitelistFeeContract", c, "kill", 0, 2)))
	ic = e.at(1, 0, mustScript(t, emit.NewBuilder().AppCall(c, "kill", byte(callflag.All))))
	halted(t, ic)
	var names []string
	for _, n := range ic.Notifications() {
		names = append(names, n.Name)
		if n.Name == whitelistFeeChanged {
			require.Equal(t, stackitem.Null{}, n.Item.At(3))
		}
	}
	require.Equal(t, []string{whitelistFeeChanged, whitelistFeeChanged, EventDestroy}, names)
	require.Empty(t, drain(t, e.at(1, 0, appCall(t, h, "getWhitelistFeeContracts"))))
}

func TestPolicyWhitelistNative(t *testing.T) {
	e, _ := faunEnv(t, protocol.HFFaun)
	h := e.core.Policy.Metadata().Hash
	std := e.core.Std.Metadata().Hash
	itoa := appCall(t, std, "itoa", 5)
	base := e.at(1, 0, itoa)
	halted(t, base)
	halted(t, e.at(1, 0, appCall(t, h, "setWhitelistFeeContract", std, "itoa", 1, 7)))
	wl := e.at(1, 0, itoa)
	require.Equal(t, stackitem.ByteString("5"), e.ctxResult(wl))
	// The fixed fee replaces itoa's CPU fee (1 << 12) and the PUSH0 (1) of
	// its stub: a whitelisted context charges nothing itself.
	require.Equal(t, int64(7-(1<<12+1)*DefaultExecFeeFactor), wl.VM().GasConsumed()-base.VM().GasConsumed())
}

// token is a NEP-17 stub: balanceOf returns balance, transfer returns ok.
func (e *env) token(t *testing.T, id int32, balance int64, ok bool, standards string) util.Uint160 {
	t.Helper()
	b := emit.NewBuilder()
	b.Opcodes(opcode.DROP).Int(balance).Opcodes(opcode.RET)
	tr := b.Len()
	b.Opcodes(opcode.DROP, opcode.DROP, opcode.DROP, opcode.DROP).Bool(ok).Opcodes(opcode.RET)
	f, err := nef.NewFile("test", "", nil, mustScript(t, b))
	require.NoError(t, err)
	m, err := manifest.Parse([]byte(fmt.Sprintf(`{"name":"Tok%d","groups":[],"features":{},"supportedstandards":[%s],"abi":{"methods":[`+
		`{"name":"balanceOf","parameters":[{"name":"account","type":"Hash160"}],"returntype":"Integer","offset":0,"safe":true},`+
		`{"name":"transfer","parameters":[{"name":"from","type":"Hash160"},{"name":"to","type":"Hash160"},{"name":"amount","type":"Integer"},{"name":"data","type":"Any"}],"returntype":"Boolean","offset":%d,"safe":false}],"events":[]},`+
		`"permissions":[{"contract":"*","methods":"*"}],"trusts":[],"extra":null}`, id, standards, tr)))
	require.NoError(t, err)
	h := util.Uint160{byte(id), 0xee}
	require.NoError(t, e.d.PutContract(&state.Contract{ID: id, Hash: h, NEF: *f, Manifest: *m}))
	return h
}

func TestPolicyRecoverFund(t *testing.T) {
	e, f := faunEnv(t, protocol.HFFaun)
	h := e.core.Policy.Metadata().Hash
	var pubs keys.PublicKeys
	for range 7 {
		k, err := keys.NewPrivateKey()
		require.NoError(t, err)
		pubs = append(pubs, k.PublicKey())
		f.keys = append(f.keys, k.PublicKey().Bytes())
	}
	// 7 members: max(7 - 6/2, 7 - 2) = 5 signatures (the majority is 4).
	s, err := scripts.MultiSigContract(5, pubs)
	require.NoError(t, err)
	almostFull := scripts.ScriptHash(s)
	majority, err := scripts.MajorityMultiSigContract(pubs)
	require.NoError(t, err)
	require.NotEqual(t, scripts.ScriptHash(majority), almostFull)

	acc := util.Uint160{0xac}
	const t0 = 1_000_000
	halted(t, e.at(1, t0, appCall(t, h, "blockAccount", acc)))
	rich := e.token(t, 100, 500, true, `"NEP-17"`)
	empty := e.token(t, 101, 0, true, `"NEP-17"`)
	broken := e.token(t, 102, 500, false, `"NEP-17"`)
	plain := e.token(t, 103, 500, true, "")

	sign := func(signer util.Uint160) {
		e.tx = &transaction.Transaction{Signers: []transaction.Signer{{Account: signer, Scopes: transaction.Global}}}
	}
	sign(almostFull)
	faulted(t, e.at(2, t0+RecoverFundDelay-1, appCall(t, h, "recoverFund", acc, rich))) // a year minus 1 ms
	faulted(t, e.at(2, t0+RecoverFundDelay, appCall(t, h, "recoverFund", util.Uint160{1}, rich)))
	faulted(t, e.at(2, t0+RecoverFundDelay, appCall(t, h, "recoverFund", acc, util.Uint160{2})))
	faulted(t, e.at(2, t0+RecoverFundDelay, appCall(t, h, "recoverFund", acc, plain)))
	faulted(t, e.at(2, t0+RecoverFundDelay, appCall(t, h, "recoverFund", acc, broken)))
	ic := e.at(2, t0+RecoverFundDelay, appCall(t, h, "recoverFund", acc, empty))
	require.Equal(t, stackitem.Bool(false), e.ctxResult(ic))
	require.Empty(t, ic.Notifications())
	ic = e.at(2, t0+RecoverFundDelay, appCall(t, h, "recoverFund", acc, rich))
	require.Equal(t, stackitem.Bool(true), e.ctxResult(ic))
	require.Len(t, ic.Notifications(), 1)
	require.Equal(t, recoveredFund, ic.Notifications()[0].Name)
	require.Equal(t, []stackitem.Item{stackitem.ByteString(acc[:])}, ic.Notifications()[0].Item.Items())

	sign(scripts.ScriptHash(majority))
	ic = e.at(2, t0+RecoverFundDelay, appCall(t, h, "recoverFund", acc, rich))
	faulted(t, ic)
	require.ErrorIs(t, ic.VM().FaultException(), ErrNoCommittee, "the majority is not enough")
}

func TestPolicyFaunMethodsAbsentBefore(t *testing.T) {
	e := newEnv(t, protocol.HFEchidna)
	h := e.core.Policy.Metadata().Hash
	for _, m := range [][]any{{"getBlockedAccounts"}, {"getExecPicoFeeFactor"}, {"getWhitelistFeeContracts"},
		{"recoverFund", util.Uint160{}, util.Uint160{}}, {"removeWhitelistFeeContract", util.Uint160{}, "a", 0},
		{"setWhitelistFeeContract", util.Uint160{}, "a", 0, 0}} {
		_, err := e.call(h, m[0].(string), m[1:]...)
		require.ErrorIs(t, err, interop.ErrContractNotFound, m[0])
	}
}

// TestManagementDestroyFaunGorgon: destroy blocks the contract with a vote
// revocation from Faun; before Gorgon the contract is already erased then
// (no callback into it), from Gorgon it is blocked first and the
// revocation's callback reaches it.
func TestManagementDestroyFaunGorgon(t *testing.T) {
	for _, c := range []struct {
		upTo     protocol.Hardfork
		revoked  bool
		callback bool
	}{
		{protocol.HFEchidna, false, false},
		{protocol.HFFaun, true, false},
		{protocol.HFGorgon, true, true},
	} {
		t.Run(c.upTo.String(), func(t *testing.T) {
			e, f := faunEnv(t, c.upTo)
			f.callback = true
			h := e.deployTest(t, util.Uint160{5})
			require.NoError(t, e.d.DeleteStorageItem(1, []byte("k"))) // written by _deploy at deployment
			ic := e.at(1, 77, mustScript(t, emit.NewBuilder().AppCall(h, "kill", byte(callflag.All))))
			halted(t, ic)
			require.Equal(t, c.revoked, len(f.revoked) == 1)
			require.Equal(t, c.callback, len(f.called) == 1)
			var names []string
			for _, n := range ic.Notifications() {
				names = append(names, n.Name)
			}
			require.Equal(t, []string{EventDestroy}, names)
			blocked, err := e.core.Policy.IsBlocked(e.d, h)
			require.NoError(t, err)
			require.True(t, blocked)
			_, err = e.d.GetStorageItem(1, []byte("k"))
			require.True(t, dao.IsNotFound(err), "the callback's write was erased with the contract")
			cs, err := getContractOrNil(e.d, h)
			require.NoError(t, err)
			require.Nil(t, cs)
		})
	}
}
