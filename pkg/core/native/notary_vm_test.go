package native_test

import (
	"testing"

	"github.com/n3d-io/n3d/internal/nativetest"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// Expected behaviour: the reference Notary (neo
// src/Neo/SmartContract/Native/Notary.cs): OnNEP17Payment, LockDepositUntil,
// Withdraw, BalanceOf, ExpirationOf, Get/SetMaxNotValidBeforeDelta, Verify,
// OnPersistAsync; and GasToken.OnPersistAsync's NotaryAssisted deduction.

var notaryH = nativetest.NotaryHash

const notaryFee = native.DefaultNotaryAssistedFee // Policy's NotaryAssisted fee per key

func notaryChain(t *testing.T) (*nativetest.Chain, util.Uint160) {
	c := nativetest.New(t, nativetest.Options{Hardforks: nativetest.Hardfork(protocol.HFEchidna, 0)})
	bft := c.ValidatorsAddress()
	a := acc(1)
	mustBool(t, c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, gasH, "transfer", bft, a, 100_0000_0000, nil)), true)
	return c, a
}

func deposit(t *testing.T, c *nativetest.Chain, from util.Uint160, amount int64, to any, till int64) *nativetest.Result {
	return c.Invoke(nativetest.CalledByEntry(from), nativetest.CallScript(t, gasH, "transfer", from, notaryH, amount, []any{to, till}))
}

func TestNotaryDeposits(t *testing.T) {
	c, a := notaryChain(t) // height 1
	b := acc(2)
	expiration := func(h util.Uint160) int64 { return nativetest.Int(t, call(t, c, notaryH, "expirationOf", h)) }
	notaryBalance := func(h util.Uint160) int64 { return nativetest.Int(t, call(t, c, notaryH, "balanceOf", h)) }
	require.Equal(t, int64(0), notaryBalance(a))
	require.Equal(t, int64(0), expiration(a))

	deposit(t, c, a, 2*notaryFee-1, nil, 100).Faults(t, "first deposit")
	deposit(t, c, a, 2*notaryFee, nil, int64(c.Height()+1)).Faults(t, "till") // till < current + 2
	c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, gasH, "transfer", a, notaryH, 2*notaryFee, nil)).Faults(t, "array")
	c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, gasH, "transfer", a, notaryH, 2*notaryFee, []any{nil})).Faults(t, "array")
	deposit(t, c, a, 2*notaryFee, []byte{1}, 100).Faults(t, "expected byte size of 20 got 1")
	c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, notaryH, "onNEP17Payment", a, 2*notaryFee, []any{nil, 100})).Faults(t, "only GAS")

	r := deposit(t, c, a, 2*notaryFee, nil, 100)
	mustBool(t, r, true)
	require.Equal(t, int64(2*notaryFee), notaryBalance(a))
	require.Equal(t, int64(100), expiration(a))
	require.Equal(t, int64(2*notaryFee), balance(t, c, gasH, notaryH))
	// Top-ups add up; till may not go down; the owner may raise it.
	deposit(t, c, a, 1, nil, 99).Faults(t, "till")
	mustBool(t, deposit(t, c, a, 1, nil, 120), true)
	require.Equal(t, int64(2*notaryFee+1), notaryBalance(a))
	require.Equal(t, int64(120), expiration(a))
	// Someone else's deposit: the first one lasts DefaultDepositDeltaTill
	// from the current height whatever till says, later ones keep till.
	cur := int64(c.Height())
	mustBool(t, deposit(t, c, a, 2*notaryFee, b, 50), true)
	require.Equal(t, cur+5760, expiration(b))
	mustBool(t, deposit(t, c, a, 5, b, 10_000), true)
	require.Equal(t, cur+5760, expiration(b))
	require.Equal(t, int64(2*notaryFee+5), notaryBalance(b))

	t.Run("lockDepositUntil", func(t *testing.T) {
		lock := func(signer util.Uint160, who any, till int64) *nativetest.Result {
			return c.Invoke(nativetest.CalledByEntry(signer), nativetest.CallScript(t, notaryH, "lockDepositUntil", who, till))
		}
		mustBool(t, lock(b, a, 200), false)                                 // no witness
		mustBool(t, lock(a, a, int64(c.Height()+1)), false)                 // till < current + 2
		mustBool(t, lock(acc(9), acc(9), 200), false)                       // no deposit
		mustBool(t, lock(a, a, 119), false)                                 // below the current till
		mustBool(t, lock(a, a, 130), true)                                  //
		require.Equal(t, int64(130), expiration(a))                         //
		lock(a, a, -1).Faults(t, "bigint is not in uint32 range")           // not a uint32
		lock(a, []byte{1}, 200).Faults(t, "expected byte size of 20 got 1") // not a hash
	})
	t.Run("withdraw", func(t *testing.T) {
		withdraw := func(signer, from util.Uint160, to any) *nativetest.Result {
			return c.Invoke(nativetest.CalledByEntry(signer), nativetest.CallScript(t, notaryH, "withdraw", from, to))
		}
		mustBool(t, withdraw(b, a, nil), false)           // no witness
		mustBool(t, withdraw(acc(9), acc(9), nil), false) // no deposit
		mustBool(t, withdraw(a, a, nil), false)           // current height < till
		for c.Height() < 130 {
			c.AddBlock()
		}
		rej := acc(0x72)
		c.Rejecter(rej, 1)
		withdraw(a, a, rej).Faults(t, "")
		before := balance(t, c, gasH, a)
		r := withdraw(a, a, nil)
		mustBool(t, r, true)
		ev := r.EventsNamed(gasH, "Transfer")
		require.Len(t, ev, 1)
		transferEvent(t, ev[0].Item, &notaryH, &a, 2*notaryFee+1)
		require.Equal(t, before+2*notaryFee+1, balance(t, c, gasH, a))
		require.Equal(t, int64(0), notaryBalance(a))
		mustBool(t, withdraw(a, a, nil), false)
	})
}

func TestNotaryMaxNotValidBeforeDelta(t *testing.T) {
	c, _ := notaryChain(t)
	com := nativetest.CalledByEntry(c.CommitteeAddress())
	require.Equal(t, int64(140), nativetest.Int(t, call(t, c, notaryH, "getMaxNotValidBeforeDelta")))
	// [ValidatorsCount, MaxValidUntilBlockIncrement / 2]
	c.Invoke(com, nativetest.CallScript(t, notaryH, "setMaxNotValidBeforeDelta", 3)).Faults(t, "MaxNotValidBeforeDelta")
	c.Invoke(com, nativetest.CallScript(t, notaryH, "setMaxNotValidBeforeDelta", 5760/2+1)).Faults(t, "MaxNotValidBeforeDelta")
	c.Invoke(nativetest.CalledByEntry(acc(1)), nativetest.CallScript(t, notaryH, "setMaxNotValidBeforeDelta", 10)).Faults(t, "committee")
	for _, v := range []int64{4, 5760 / 2} {
		c.Invoke(com, nativetest.CallScript(t, notaryH, "setMaxNotValidBeforeDelta", v)).Halt(t)
		require.Equal(t, v, nativetest.Int(t, call(t, c, notaryH, "getMaxNotValidBeforeDelta")))
	}
}

func TestNotaryAssistedFeesAndVerify(t *testing.T) {
	c, a := notaryChain(t)
	mustBool(t, deposit(t, c, a, 10_0000_0000, nil, 1000), true)
	notaryKeys := []any{}
	var raw [][]byte
	for _, s := range []string{"notary 0", "notary 1", "notary 2"} {
		p := nativetest.Key(t, s).PublicKey().Bytes()
		notaryKeys = append(notaryKeys, p)
		raw = append(raw, p)
	}
	c.Invoke(nativetest.CalledByEntry(c.CommitteeAddress()), nativetest.CallScript(t, nativetest.DesignHash, "designateAsRole", int64(native.RoleP2PNotary), notaryKeys)).Halt(t)

	// A NotaryAssisted transaction sent by Notary on behalf of a.
	const sysFee = 1_0000_0000
	tx := c.Tx(nativetest.CallScript(t, notaryH, "verify", make([]byte, 64)), []transaction.Signer{
		{Account: notaryH, Scopes: transaction.None}, {Account: a, Scopes: transaction.CalledByEntry}})
	tx.SystemFee, tx.NetworkFee = sysFee, 3*notaryFee+700
	tx.Attributes = []transaction.Attribute{{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{NKeys: 2}}}
	notaryGAS := balance(t, c, gasH, notaryH)
	br := c.AddBlock(tx)
	require.False(t, nativetest.Bool(t, br.Txs[0].Halt(t)), "a zero signature is no notary's")
	require.Equal(t, int64(10_0000_0000-sysFee-3*notaryFee-700), nativetest.Int(t, call(t, c, notaryH, "balanceOf", a)))
	require.Equal(t, notaryGAS-sysFee-3*notaryFee-700, balance(t, c, gasH, notaryH))
	// GAS OnPersist: the primary gets the network fee minus (nKeys+1) ×
	// fee; Notary OnPersist: each notary (nKeys+1) × fee / 3.
	ev := br.OnPersist.EventsNamed(gasH, "Transfer")
	require.Len(t, ev, 5) // burn, primary, 3 notaries
	require.Equal(t, int64(700), nativetest.Int(t, ev[1].Item.At(2)))
	for i := 2; i < 5; i++ {
		require.Equal(t, int64(3*notaryFee/3), nativetest.Int(t, ev[i].Item.At(2)))
	}
	notaries := map[util.Uint160]bool{}
	for _, p := range raw {
		notaries[keyHash(t, p)] = true
	}
	for i := 2; i < 5; i++ {
		h, err := util.Uint160DecodeBytesLE(nativetest.Bytes(t, ev[i].Item.At(1)))
		require.NoError(t, err)
		require.True(t, notaries[h])
	}

	// (A real signature is checked in TestNotaryVerifySignature.)
	// Without NotaryAssisted or with a bad length: false.
	require.False(t, nativetest.Bool(t, c.Invoke(nativetest.CalledByEntry(a), nativetest.CallScript(t, notaryH, "verify", make([]byte, 64))).Halt(t)))
	tx4 := c.Tx(nativetest.CallScript(t, notaryH, "verify", make([]byte, 63)), tx.Signers)
	tx4.Attributes = tx.Attributes
	tx4.NetworkFee = 3 * notaryFee
	require.False(t, nativetest.Bool(t, c.AddBlock(tx4).Txs[0].Halt(t)))
}

func TestNotaryVerifySignature(t *testing.T) {
	c, a := notaryChain(t)
	mustBool(t, deposit(t, c, a, 10_0000_0000, nil, 1000), true)
	k := nativetest.Key(t, "notary 0")
	c.Invoke(nativetest.CalledByEntry(c.CommitteeAddress()), nativetest.CallScript(t, nativetest.DesignHash, "designateAsRole",
		int64(native.RoleP2PNotary), []any{k.PublicKey().Bytes()})).Halt(t)
	signers := []transaction.Signer{{Account: notaryH, Scopes: transaction.None}, {Account: a, Scopes: transaction.CalledByEntry}}
	attrs := []transaction.Attribute{{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{NKeys: 1}}}
	// The signature is over the transaction under verification; drive
	// Notary.verify directly with that transaction as the container.
	tx := c.Tx([]byte{0x40}, signers)
	tx.Attributes = attrs
	tx.SystemFee, tx.NetworkFee = 10, 20
	sig := k.Sign(tx.SignData(nativetest.Network))
	run := func(tx *transaction.Transaction, sig []byte) bool {
		d := c.DAO.Private()
		defer func() { require.NoError(t, d.Discard()) }()
		ic := c.Context(d, c.NextBlock(), trigger.Verification, tx, -1)
		_, err := ic.LoadScript(nativetest.CallScript(t, notaryH, "verify", sig), callflag.All, -1, 0)
		require.NoError(t, err)
		require.NoError(t, ic.Run())
		return nativetest.Bool(t, ic.VM().ResultStack().Items()[0])
	}
	require.True(t, run(tx, sig))
	bad := append([]byte{}, sig...)
	bad[0] ^= 1
	require.False(t, run(tx, bad))
	// The payer's deposit must cover the fees.
	rich := c.Tx([]byte{0x40}, signers)
	rich.Attributes = attrs
	rich.SystemFee = 20_0000_0000
	require.False(t, run(rich, k.Sign(rich.SignData(nativetest.Network))))
	// Notary as a signer must have scope None.
	scoped := c.Tx([]byte{0x40}, []transaction.Signer{{Account: a, Scopes: transaction.CalledByEntry}, {Account: notaryH, Scopes: transaction.CalledByEntry}})
	scoped.Attributes = attrs
	require.False(t, run(scoped, k.Sign(scoped.SignData(nativetest.Network))))
	// Sent by someone else: no deposit check, the signature suffices.
	other := c.Tx([]byte{0x40}, []transaction.Signer{{Account: acc(7), Scopes: transaction.CalledByEntry}, {Account: notaryH, Scopes: transaction.None}})
	other.Attributes = attrs
	other.SystemFee = 20_0000_0000
	require.True(t, run(other, k.Sign(other.SignData(nativetest.Network))))
}
