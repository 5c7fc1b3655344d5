package native

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// NEP-17 storage prefixes shared by NEO and GAS (reference FungibleToken).
const (
	prefixTotalSupply = 11
	prefixAccount     = 20
)

// Errors of the token natives.
var (
	// ErrInsufficientFunds is a burn of more than the balance.
	ErrInsufficientFunds = errors.New("native: insufficient funds")
	// ErrNegativeAmount is a negative mint, burn or transfer amount.
	ErrNegativeAmount = errors.New("native: negative amount")
)

// accountState is a token's account record.
type accountState interface {
	Amount() *big.Int
	Bytes() []byte
}

// gasDistribution is GAS to mint to an account after a NEO balance change.
type gasDistribution struct {
	to     util.Uint160
	amount *big.Int
}

// token is the reference FungibleToken shared by NEO and GAS.
type token struct {
	md       *ContractMD
	symbol   string
	decimals int64
	decode   func([]byte) (accountState, error)
	empty    func() accountState
	// changing is OnBalanceChanging: it runs before the balance of acc
	// changes by amount and may return GAS to distribute (NEO only).
	changing func(ic *interop.Context, acc util.Uint160, st accountState, amount *big.Int) (*gasDistribution, error)
	// distribute mints collected distributions after the transfer's
	// payment callback, then runs then if not nil (NEO only).
	distribute func(ic *interop.Context, ds []gasDistribution, callOnPayment bool, then func(*interop.Context) error) error
}

// accountKey is the storage key of h's account: prefixAccount ‖ h. It is
// an array so that the key of the one or two lookups of a transfer stays on
// the stack (the DAO copies keys into its own buffer).
func accountKey(h util.Uint160) [1 + util.Uint160Size]byte {
	var k [1 + util.Uint160Size]byte
	k[0] = prefixAccount
	copy(k[1:], h[:])
	return k
}

// addTokenMethods adds the NEP-17 methods and the Transfer event.
func (t *token) addTokenMethods() {
	p := manifest.NewParameter
	add := func(name string, ret smartcontract.ParamType, fee int64, flags callflag.CallFlag, h Handler, ps ...manifest.Parameter) {
		t.md.AddMethod(Method{Name: name, Params: ps, Return: ret, CPUFee: fee, Flags: flags, Handler: h})
	}
	add("symbol", smartcontract.StringType, 0, callflag.None, func(*interop.Context, []stackitem.Item) (stackitem.Item, error) {
		return stackitem.ByteString(t.symbol), nil
	})
	add("decimals", smartcontract.IntegerType, 0, callflag.None, func(*interop.Context, []stackitem.Item) (stackitem.Item, error) {
		return stackitem.NewInt(t.decimals), nil
	})
	add("totalSupply", smartcontract.IntegerType, 1<<15, callflag.ReadStates, t.totalSupplyMethod)
	add("balanceOf", smartcontract.IntegerType, 1<<15, callflag.ReadStates, t.balanceOfMethod, p("account", smartcontract.Hash160Type))
	t.md.AddMethod(Method{
		Name: "transfer", Return: smartcontract.BoolType, CPUFee: 1 << 17, StorageFee: 50,
		Flags: callflag.States | callflag.AllowCall | callflag.AllowNotify, Handler: t.transferMethod,
		Params: []manifest.Parameter{
			p("from", smartcontract.Hash160Type), p("to", smartcontract.Hash160Type),
			p("amount", smartcontract.IntegerType), p("data", smartcontract.AnyType),
		},
	})
	t.md.AddEvent(Event{Name: "Transfer", Params: []manifest.Parameter{
		p("from", smartcontract.Hash160Type), p("to", smartcontract.Hash160Type), p("amount", smartcontract.IntegerType),
	}})
}

// TotalSupply returns the stored total supply (0 if none).
func (t *token) TotalSupply(d *dao.DAO) (*big.Int, error) {
	n, err := d.GetBigInt(t.md.ID, []byte{prefixTotalSupply})
	if dao.IsNotFound(err) {
		return new(big.Int), nil
	}
	return n, err
}

func (t *token) totalSupplyMethod(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	n, err := t.TotalSupply(ic.DAO())
	if err != nil {
		return nil, err
	}
	return stackitem.NewBigInteger(n), nil
}

// account reads the account state of h (nil if absent).
func (t *token) account(d *dao.DAO, h util.Uint160) (accountState, error) {
	k := accountKey(h)
	v, err := d.GetStorageItem(t.md.ID, k[:])
	if err != nil {
		if dao.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	st, err := t.decode(v)
	if err != nil {
		return nil, fmt.Errorf("%w: %s account %s: %w", ErrInvalidState, t.md.Name, h, err)
	}
	return st, nil
}

// BalanceOf returns the balance of h.
func (t *token) BalanceOf(d *dao.DAO, h util.Uint160) (*big.Int, error) {
	st, err := t.account(d, h)
	if err != nil || st == nil {
		return new(big.Int), err
	}
	return new(big.Int).Set(st.Amount()), nil
}

func (t *token) balanceOfMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	n, err := t.BalanceOf(ic.DAO(), h)
	if err != nil {
		return nil, err
	}
	return stackitem.NewBigInteger(n), nil
}

func (t *token) putAccount(d *dao.DAO, h util.Uint160, st accountState) error {
	k := accountKey(h)
	return d.PutStorageItem(t.md.ID, k[:], st.Bytes())
}

func (t *token) addSupply(d *dao.DAO, delta *big.Int) error {
	s, err := t.TotalSupply(d)
	if err != nil {
		return err
	}
	return d.PutBigInt(t.md.ID, []byte{prefixTotalSupply}, s.Add(s, delta))
}

func (t *token) onChanging(ic *interop.Context, h util.Uint160, st accountState, amount *big.Int, ds *[]gasDistribution) error {
	if t.changing == nil {
		return nil
	}
	d, err := t.changing(ic, h, st, amount)
	if err != nil {
		return err
	}
	if d != nil {
		*ds = append(*ds, *d)
	}
	return nil
}

// Mint credits amount to h (the reference FungibleToken.Mint).
func (t *token) Mint(ic *interop.Context, h util.Uint160, amount *big.Int, callOnPayment bool) error {
	return t.mintThen(ic, h, amount, callOnPayment, nil)
}

// mintThen is Mint followed by then (nil: nothing), which runs after the
// recipient's onNEP17Payment if one is called.
func (t *token) mintThen(ic *interop.Context, h util.Uint160, amount *big.Int, callOnPayment bool, then func(*interop.Context) error) error {
	if amount.Sign() < 0 {
		return errNegativeAmount
	}
	if amount.Sign() == 0 {
		if then != nil {
			return then(ic)
		}
		return nil
	}
	d := ic.DAO()
	st, err := t.account(d, h)
	if err != nil {
		return err
	}
	if st == nil {
		st = t.empty()
	}
	var ds []gasDistribution
	if err := t.onChanging(ic, h, st, amount, &ds); err != nil {
		return err
	}
	st.Amount().Add(st.Amount(), amount)
	if err := t.putAccount(d, h, st); err != nil {
		return err
	}
	if err := t.addSupply(d, amount); err != nil {
		return err
	}
	return t.postTransfer(ic, nil, &h, amount, stackitem.Null{}, callOnPayment, ds, then)
}

// Burn debits amount from h (the reference FungibleToken.Burn).
func (t *token) Burn(ic *interop.Context, h util.Uint160, amount *big.Int) error {
	return t.burn(ic, h, amount, true)
}

// burn is Burn; without updateSupply the total supply is left for the
// caller to lower (GAS's OnPersist lowers it once for all the fees it
// burns: nothing reads it in between, and the stored value it ends with is
// the same).
func (t *token) burn(ic *interop.Context, h util.Uint160, amount *big.Int, updateSupply bool) error {
	if amount.Sign() < 0 {
		return errNegativeAmount
	}
	if amount.Sign() == 0 {
		return nil
	}
	d := ic.DAO()
	st, err := t.account(d, h)
	if err != nil {
		return err
	}
	if st == nil || st.Amount().Cmp(amount) < 0 {
		return fmt.Errorf("%w: %s of %s", ErrInsufficientFunds, t.symbol, h)
	}
	var ds []gasDistribution
	if err := t.onChanging(ic, h, st, new(big.Int).Neg(amount), &ds); err != nil {
		return err
	}
	if st.Amount().Cmp(amount) == 0 {
		k := accountKey(h)
		err = d.DeleteStorageItem(t.md.ID, k[:])
	} else {
		st.Amount().Sub(st.Amount(), amount)
		err = t.putAccount(d, h, st)
	}
	if err != nil {
		return err
	}
	if updateSupply {
		if err := t.addSupply(d, new(big.Int).Neg(amount)); err != nil {
			return err
		}
	}
	return t.postTransfer(ic, &h, nil, amount, stackitem.Null{}, false, ds, nil)
}
