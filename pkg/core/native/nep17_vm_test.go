package native_test

import (
	"math/big"
	"testing"

	"github.com/n3d-io/n3d/internal/nativetest"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// Expected figures in these tests follow the reference's rules:
// FungibleToken.Transfer/Mint/Burn/PostTransferAsync and
// NeoToken.OnBalanceChanging/DistributeGas/CalculateBonus (neo
// src/Neo/SmartContract/Native/FungibleToken.cs, NeoToken.cs).

var (
	neoH = nativetest.NeoHash
	gasH = nativetest.GasHash
)

func acc(b byte) util.Uint160 { return util.Uint160{b, 0xaa, b} }

func call(t *testing.T, c *nativetest.Chain, h util.Uint160, method string, args ...any) stackitem.Item {
	t.Helper()
	return c.Call(nil, nativetest.CallScript(t, h, method, args...)).Halt(t)
}

func balance(t *testing.T, c *nativetest.Chain, h, who util.Uint160) int64 {
	t.Helper()
	return nativetest.Int(t, call(t, c, h, "balanceOf", who))
}

// transferEvent checks a Transfer notification (Null for a nil side).
func transferEvent(t *testing.T, it *stackitem.Array, from, to *util.Uint160, amount int64) {
	t.Helper()
	items := it.Items()
	require.Len(t, items, 3)
	for i, h := range []*util.Uint160{from, to} {
		if h == nil {
			require.Equal(t, stackitem.Null{}, items[i])
		} else {
			require.Equal(t, h.BytesLE(), nativetest.Bytes(t, items[i]))
		}
	}
	require.Equal(t, amount, nativetest.Int(t, items[2]))
}

func TestNEP17Metadata(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	require.Equal(t, "NEO", string(nativetest.Bytes(t, call(t, c, neoH, "symbol"))))
	require.Equal(t, int64(0), nativetest.Int(t, call(t, c, neoH, "decimals")))
	require.Equal(t, "GAS", string(nativetest.Bytes(t, call(t, c, gasH, "symbol"))))
	require.Equal(t, int64(8), nativetest.Int(t, call(t, c, gasH, "decimals")))
	// NeoToken: 100 000 000 NEO, all at the standby validators' BFT address.
	require.Equal(t, int64(neostate.NEOTotalSupply), nativetest.Int(t, call(t, c, neoH, "totalSupply")))
	require.Equal(t, int64(neostate.NEOTotalSupply), balance(t, c, neoH, c.ValidatorsAddress()))
	// GasToken: InitialGASSupply to the BFT address, plus the committee
	// reward of block 0 (5 GAS × 10%) to committee member 0.
	initial := int64(config.DefaultInitialGASSupply)
	reward := int64(neostate.DefaultGASPerBlock * neostate.CommitteeRewardRatio / 100)
	require.Equal(t, initial+reward, nativetest.Int(t, call(t, c, gasH, "totalSupply")))
	require.Equal(t, initial, balance(t, c, gasH, c.ValidatorsAddress()))
	require.Equal(t, reward, balance(t, c, gasH, c.Keys[0].ScriptHash()))
	c.AddBlock()
	// Block 1 pays committee member 1 % 7.
	require.Equal(t, reward, balance(t, c, gasH, c.Keys[1].ScriptHash()))
	require.Equal(t, initial+2*reward, nativetest.Int(t, call(t, c, gasH, "totalSupply")))
	require.Equal(t, int64(0), balance(t, c, gasH, acc(1)))
	// Wrong hash length: the reference binder rejects it.
	c.Call(nil, nativetest.CallScript(t, gasH, "balanceOf", []byte{1, 2, 3})).Faults(t, "expected byte size of 20 got 3")
}

func TestGASTransfer(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	bft := c.ValidatorsAddress()
	a, b := acc(1), acc(2)
	r := c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, gasH, "transfer", bft, a, 1000, nil))
	require.True(t, nativetest.Bool(t, r.Halt(t)))
	ev := r.EventsNamed(gasH, "Transfer")
	require.Len(t, ev, 1)
	transferEvent(t, ev[0].Item, &bft, &a, 1000)
	require.Equal(t, int64(1000), balance(t, c, gasH, a))

	t.Run("no witness", func(t *testing.T) {
		r := c.Invoke(nativetest.CalledByEntry(b), nativetest.CallScript(t, gasH, "transfer", a, b, 1, nil))
		require.False(t, nativetest.Bool(t, r.Halt(t)))
		require.Empty(t, r.Events)
		require.Equal(t, int64(1000), balance(t, c, gasH, a))
	})
	t.Run("insufficient", func(t *testing.T) {
		r := c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, gasH, "transfer", a, b, 1001, nil))
		require.False(t, nativetest.Bool(t, r.Halt(t)))
		require.Empty(t, r.Events)
		// An empty account cannot send either.
		r = c.Invoke(nativetest.CalledByEntry(b), nativetest.CallScript(t, gasH, "transfer", b, a, 1, nil))
		require.False(t, nativetest.Bool(t, r.Halt(t)))
	})
	t.Run("negative", func(t *testing.T) {
		c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, gasH, "transfer", a, b, -1, nil)).Faults(t, "negative")
	})
	t.Run("zero", func(t *testing.T) {
		// A zero transfer succeeds (even from an empty account) and notifies.
		r := c.Invoke(nativetest.CalledByEntry(b), nativetest.CallScript(t, gasH, "transfer", b, a, 0, nil))
		require.True(t, nativetest.Bool(t, r.Halt(t)))
		transferEvent(t, r.EventsNamed(gasH, "Transfer")[0].Item, &b, &a, 0)
		_, err := c.DAO.GetStorageItem(-6, append([]byte{20}, b.BytesLE()...))
		require.Error(t, err, "a zero transfer does not create the sender's account")
	})
	t.Run("to self", func(t *testing.T) {
		r := c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, gasH, "transfer", a, a, 600, nil))
		require.True(t, nativetest.Bool(t, r.Halt(t)))
		transferEvent(t, r.EventsNamed(gasH, "Transfer")[0].Item, &a, &a, 600)
		require.Equal(t, int64(1000), balance(t, c, gasH, a))
		// More than the balance fails even to self.
		r = c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, gasH, "transfer", a, a, 1001, nil))
		require.False(t, nativetest.Bool(t, r.Halt(t)))
	})
	t.Run("whole balance deletes the account", func(t *testing.T) {
		r := c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, gasH, "transfer", a, b, 1000, nil))
		require.True(t, nativetest.Bool(t, r.Halt(t)))
		_, err := c.DAO.GetStorageItem(-6, append([]byte{20}, a.BytesLE()...))
		require.Error(t, err)
		require.Equal(t, int64(1000), balance(t, c, gasH, b))
	})
	t.Run("bad arguments", func(t *testing.T) {
		c.Invoke(nativetest.CalledByEntry(b), nativetest.CallScript(t, gasH, "transfer", b.BytesLE()[:19], a, 1, nil)).Faults(t, "expected byte size of 20 got 19")
		c.Invoke(nativetest.CalledByEntry(b), nativetest.CallScript(t, gasH, "transfer", b, nil, 1, nil)).Faults(t, "invalid conversion: Null/ByteString")
	})
}

func TestGASTransferToContracts(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	bft := c.ValidatorsAddress()
	recv, rej, proxy := acc(0x71), acc(0x72), acc(0x73)
	c.PaymentReceiver(recv, 1)
	c.Rejecter(rej, 2)
	c.Proxy(proxy, 3)

	r := c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, gasH, "transfer", bft, recv, 5, "hello"))
	require.True(t, nativetest.Bool(t, r.Halt(t)))
	require.Len(t, r.Events, 2)
	transferEvent(t, r.Events[0].Item, &bft, &recv, 5)
	require.Equal(t, "Payment", r.Events[1].Name)
	p := r.Events[1].Item.Items()
	require.Equal(t, bft.BytesLE(), nativetest.Bytes(t, p[0]))
	require.Equal(t, int64(5), nativetest.Int(t, p[1]))
	require.Equal(t, "hello", string(nativetest.Bytes(t, p[2])))

	// A contract that throws in onNEP17Payment makes the transfer FAULT and
	// nothing moves.
	c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, gasH, "transfer", bft, rej, 5, nil)).Faults(t, "")
	require.Equal(t, int64(0), balance(t, c, gasH, rej))

	// The calling contract is its own witness (from == CallingScriptHash).
	r = c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, gasH, "transfer", bft, proxy, 10, nil))
	require.True(t, nativetest.Bool(t, r.Halt(t)))
	r = c.Invoke(nil, nativetest.ProxyCall(t, proxy, gasH, "transfer", proxy, acc(9), 4, nil))
	require.True(t, nativetest.Bool(t, r.Halt(t)))
	require.Equal(t, int64(6), balance(t, c, gasH, proxy))
	require.Equal(t, int64(4), balance(t, c, gasH, acc(9)))
	// ... but an entry script is not the contract.
	r = c.Invoke(nil, nativetest.CallScript(t, gasH, "transfer", proxy, acc(9), 1, nil))
	require.False(t, nativetest.Bool(t, r.Halt(t)))
	// A CalledByEntry witness does not reach a native called through a
	// contract; Global does.
	r = c.Invoke(nativetest.CalledByEntry(bft), nativetest.ProxyCall(t, proxy, gasH, "transfer", bft, acc(9), 1, nil))
	require.False(t, nativetest.Bool(t, r.Halt(t)))
	r = c.Invoke(nativetest.Global(bft), nativetest.ProxyCall(t, proxy, gasH, "transfer", bft, acc(9), 1, nil))
	require.True(t, nativetest.Bool(t, r.Halt(t)))
}

func TestGASFeesInOnPersist(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	bft := c.ValidatorsAddress()
	a := acc(1)
	c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, gasH, "transfer", bft, a, 10_0000_0000, nil)).Halt(t)
	supply := nativetest.Int(t, call(t, c, gasH, "totalSupply"))

	// GasToken.OnPersistAsync burns SystemFee+NetworkFee of every
	// transaction from its sender and mints the network fees to the
	// primary (validator PrimaryIndex of getNextBlockValidators).
	tx := c.Tx(nativetest.CallScript(t, gasH, "symbol"), nativetest.CalledByEntry(a))
	tx.SystemFee, tx.NetworkFee = 1_0000_0000, 2345
	b := c.NextBlock(tx)
	b.PrimaryIndex = 2
	br := c.PersistBlock(b)
	require.Equal(t, "GAS", string(nativetest.Bytes(t, br.Txs[0].Halt(t))))
	vals := nativetest.Items(t, call(t, c, neoH, "getNextBlockValidators"))
	primary := keyHash(t, nativetest.Bytes(t, vals[2]))
	require.Equal(t, int64(10_0000_0000-1_0000_0000-2345), balance(t, c, gasH, a))
	ev := br.OnPersist.EventsNamed(gasH, "Transfer")
	require.Len(t, ev, 2)
	transferEvent(t, ev[0].Item, &a, nil, 1_0000_0000+2345)
	transferEvent(t, ev[1].Item, nil, &primary, 2345)
	reward := int64(neostate.DefaultGASPerBlock * neostate.CommitteeRewardRatio / 100)
	require.Equal(t, supply-1_0000_0000+reward, nativetest.Int(t, call(t, c, gasH, "totalSupply")))

	// A sender without the GAS makes the block invalid (OnPersist FAULTs):
	// checked directly on the native.
	poor := c.Tx(nativetest.CallScript(t, gasH, "symbol"), nativetest.CalledByEntry(acc(5)))
	poor.SystemFee = 1
	d := c.DAO.Private()
	ic := c.Context(d, c.NextBlock(poor), trigger.OnPersist, nil, -1)
	_, err := ic.LoadScript([]byte{byte(opcode.RET)}, callflag.All, -1, 0)
	require.NoError(t, err)
	require.ErrorContains(t, c.Gov.GAS.OnPersist(ic), "insufficient")
}

func TestNEOTransferAndClaims(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	bft := c.ValidatorsAddress()
	a, b := acc(1), acc(2)
	perBlock := big.NewInt(neostate.DefaultGASPerBlock)
	// NeoToken.CalculateReward: balance × Σ gasPerBlock × 10 / 100 / total.
	holder := func(balance, blocks int64) int64 {
		r := new(big.Int).Mul(big.NewInt(balance), new(big.Int).Mul(perBlock, big.NewInt(blocks)))
		r.Mul(r, big.NewInt(10))
		r.Quo(r, big.NewInt(100))
		return r.Quo(r, big.NewInt(neostate.NEOTotalSupply)).Int64()
	}
	gasBefore := balance(t, c, gasH, bft)
	r := c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, neoH, "transfer", bft, a, 100, nil))
	require.True(t, nativetest.Bool(t, r.Halt(t)))
	// Block 1: the sender claims what 100M NEO earned in block 0..1.
	require.Len(t, r.Events, 2)
	transferEvent(t, r.Events[0].Item, &bft, &a, 100)
	require.Equal(t, gasH, r.Events[1].ScriptHash)
	transferEvent(t, r.Events[1].Item, nil, &bft, holder(neostate.NEOTotalSupply, 1))
	require.Equal(t, gasBefore+holder(neostate.NEOTotalSupply, 1), balance(t, c, gasH, bft))
	require.Equal(t, int64(100), balance(t, c, neoH, a))

	st := nativetest.Items(t, call(t, c, neoH, "getAccountState", a))
	require.Len(t, st, 4)
	require.Equal(t, int64(100), nativetest.Int(t, st[0]))
	require.Equal(t, int64(1), nativetest.Int(t, st[1]), "balance height")
	require.Equal(t, stackitem.Null{}, st[2])
	require.Equal(t, int64(0), nativetest.Int(t, st[3]))
	require.Equal(t, stackitem.Null{}, call(t, c, neoH, "getAccountState", b))

	c.AddBlocks(9) // height 10
	// unclaimedGas must be asked for the persisting block (11 here).
	next := c.Height() + 1
	require.Equal(t, holder(100, int64(next-1)), nativetest.Int(t, call(t, c, neoH, "unclaimedGas", a, next)))
	require.Equal(t, int64(0), nativetest.Int(t, call(t, c, neoH, "unclaimedGas", b, next)))
	c.Call(nil, nativetest.CallScript(t, neoH, "unclaimedGas", a, next+1)).Faults(t, "can't calculate bonus of height unequal (BlockHeight + 1)")
	c.Call(nil, nativetest.CallScript(t, neoH, "unclaimedGas", a, next-1)).Faults(t, "can't calculate bonus of height unequal (BlockHeight + 1)")
	// The reference checks end before looking the account up
	// (NeoToken.UnclaimedGas), so an unknown account FAULTs too.
	c.Call(nil, nativetest.CallScript(t, neoH, "unclaimedGas", b, next+1)).Faults(t, "can't calculate bonus of height unequal (BlockHeight + 1)")

	t.Run("zero transfer claims", func(t *testing.T) {
		r := c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, neoH, "transfer", a, b, 0, nil))
		require.True(t, nativetest.Bool(t, r.Halt(t)))
		require.Len(t, r.Events, 2)
		transferEvent(t, r.Events[0].Item, &a, &b, 0)
		transferEvent(t, r.Events[1].Item, nil, &a, holder(100, 10))
		require.Equal(t, int64(11), nativetest.Int(t, nativetest.Items(t, call(t, c, neoH, "getAccountState", a))[1]))
	})
	t.Run("to self claims", func(t *testing.T) {
		c.AddBlocks(2) // height 13, claims blocks 11..13
		r := c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, neoH, "transfer", a, a, 40, nil))
		require.True(t, nativetest.Bool(t, r.Halt(t)))
		transferEvent(t, r.Events[1].Item, nil, &a, holder(100, 3))
		require.Equal(t, int64(100), balance(t, c, neoH, a))
	})
	t.Run("both sides claim, sender first", func(t *testing.T) {
		c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, neoH, "transfer", a, b, 30, nil)).Halt(t) // 15
		c.AddBlocks(4)                                                                                           // 19
		r := c.Invoke(nativetest.CalledByEntry(b), nativetest.CallScript(t, neoH, "transfer", b, a, 10, nil))    // 20
		require.True(t, nativetest.Bool(t, r.Halt(t)))
		require.Len(t, r.Events, 3)
		transferEvent(t, r.Events[1].Item, nil, &b, holder(30, 5))
		transferEvent(t, r.Events[2].Item, nil, &a, holder(70, 5))
	})
	t.Run("errors", func(t *testing.T) {
		r := c.Invoke(nativetest.CalledByEntry(b), nativetest.CallScript(t, neoH, "transfer", a, b, 1, nil))
		require.False(t, nativetest.Bool(t, r.Halt(t)), "no witness")
		r = c.Invoke(nativetest.CalledByEntry(b), nativetest.CallScript(t, neoH, "transfer", b, a, 21, nil))
		require.False(t, nativetest.Bool(t, r.Halt(t)), "insufficient")
		require.Empty(t, r.Events)
		c.Invoke(nativetest.CalledByEntry(b), nativetest.CallScript(t, neoH, "transfer", b, a, -1, nil)).Faults(t, "negative")
	})
}

func TestNEOTransferToContract(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	bft := c.ValidatorsAddress()
	proxy := acc(0x73)
	c.Proxy(proxy, 1)
	r := c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, neoH, "transfer", bft, proxy, 1000, []byte{7}))
	require.True(t, nativetest.Bool(t, r.Halt(t)))
	// Transfer, the recipient's onNEP17Payment, then the sender's GAS claim.
	require.Len(t, r.Events, 3)
	require.Equal(t, "Payment", r.Events[1].Name)
	require.Equal(t, int64(1000), nativetest.Int(t, r.Events[1].Item.At(1)))
	require.Equal(t, gasH, r.Events[2].ScriptHash)

	c.AddBlocks(3) // height 4
	// The contract claims GAS for blocks 1..5 when it sends NEO; the GAS is
	// minted with onNEP17Payment (NeoToken.PostTransferAsync passes
	// callOnPayment on), from Null.
	r = c.Invoke(nil, nativetest.ProxyCall(t, proxy, neoH, "transfer", proxy, acc(1), 1, nil))
	require.True(t, nativetest.Bool(t, r.Halt(t)))
	require.Len(t, r.Events, 3)
	transferEvent(t, r.Events[1].Item, nil, &proxy, 1000*neostate.DefaultGASPerBlock*4/10/neostate.NEOTotalSupply)
	require.Equal(t, "Payment", r.Events[2].Name)
	require.Equal(t, stackitem.Null{}, r.Events[2].Item.At(0))
}

func keyHash(t *testing.T, pub []byte) util.Uint160 {
	t.Helper()
	pk, err := keys.NewPublicKeyFromBytes(pub)
	require.NoError(t, err)
	return pk.ScriptHash()
}
