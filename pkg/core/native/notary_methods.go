package native

import (
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func (n *Notary) putDeposit(ic *interop.Context, h util.Uint160, dep *neostate.Deposit) error {
	return ic.DAO().PutStorageItem(n.md.ID, depositKey(h), dep.Bytes())
}

// onPaymentMethod takes a GAS deposit: data is [to or Null, till].
func (n *Notary) onPaymentMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	from, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	amount, err := argBigInt(args[1])
	if err != nil {
		return nil, err
	}
	if caller, ok := ic.CallingScriptHash(); !ok || caller != n.GAS.md.Hash {
		return nil, interop.Faultf(ErrInvalidArgument, "only GAS can be accepted for deposit, got %s", caller.StringLE())
	}
	data, ok := args[2].(*stackitem.Array)
	if !ok || data.Len() != 2 {
		return nil, interop.Fault(ErrInvalidArgument, "`data` parameter should be an array of 2 elements")
	}
	to := from
	if !isNull(data.At(0)) {
		if to, err = argUint160(data.At(0)); err != nil {
			return nil, err
		}
	}
	till, err := argUint32(data.At(1))
	if err != nil {
		return nil, err
	}
	tx := ic.Tx()
	if tx == nil {
		return nil, fmt.Errorf("%w: deposit outside a transaction", ErrInvalidArgument)
	}
	cur, err := currentIndex(ic.DAO())
	if err != nil {
		return nil, err
	}
	if uint64(till) < uint64(cur)+2 {
		return nil, interop.Faultf(ErrInvalidArgument, "`till` shouldn't be less than the chain's height + 1 (%d at min)", cur+2)
	}
	dep, err := n.Deposit(ic.DAO(), to)
	if err != nil {
		return nil, err
	}
	mayChangeTill := tx.Sender() == to
	switch {
	case dep != nil && till < dep.Till:
		return nil, interop.Faultf(ErrInvalidArgument, "`till` shouldn't be less than the previous value %d", dep.Till)
	case dep == nil:
		fee, err := n.Policy.AttributeFee(ic.DAO(), transaction.AttrNotaryAssisted)
		if err != nil {
			return nil, err
		}
		if !amount.IsInt64() || amount.Int64() < 2*fee {
			return nil, interop.Faultf(ErrInvalidArgument, "first deposit can not be less than %d, got %s", 2*fee, amount)
		}
		dep = new(neostate.Deposit)
		if !mayChangeTill {
			till = cur + defaultDepositDeltaTill
		}
	case !mayChangeTill:
		till = dep.Till
	}
	dep.Amount.Add(&dep.Amount, amount)
	dep.Till = till
	return nil, n.putDeposit(ic, to, dep)
}

func (n *Notary) lockDepositUntilMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	acc, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	till, err := argUint32(args[1])
	if err != nil {
		return nil, err
	}
	ok, err := ic.CheckWitness(acc)
	if err != nil || !ok {
		return stackitem.Bool(false), err
	}
	cur, err := currentIndex(ic.DAO())
	if err != nil {
		return nil, err
	}
	if uint64(till) < uint64(cur)+2 {
		return stackitem.Bool(false), nil
	}
	dep, err := n.Deposit(ic.DAO(), acc)
	if err != nil {
		return nil, err
	}
	if dep == nil || till < dep.Till {
		return stackitem.Bool(false), nil
	}
	dep.Till = till
	return stackitem.Bool(true), n.putDeposit(ic, acc, dep)
}

func (n *Notary) expirationOfMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	acc, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	dep, err := n.Deposit(ic.DAO(), acc)
	if err != nil || dep == nil {
		return stackitem.NewInt(0), err
	}
	return stackitem.NewInt(int64(dep.Till)), nil
}

func (n *Notary) balanceOfMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	acc, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	dep, err := n.Deposit(ic.DAO(), acc)
	if err != nil || dep == nil {
		return stackitem.NewInt(0), err
	}
	return stackitem.NewBigInteger(new(big.Int).Set(&dep.Amount)), nil
}

// withdrawMethod returns an expired deposit of from to to (Null: from)
// through GAS.transfer; a failed transfer FAULTs.
func (n *Notary) withdrawMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	from, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	to := from
	if !isNull(args[1]) {
		if to, err = argUint160(args[1]); err != nil {
			return nil, err
		}
	}
	ok, err := ic.CheckWitness(from)
	if err != nil || !ok {
		return stackitem.Bool(false), err
	}
	d := ic.DAO()
	dep, err := n.Deposit(d, from)
	if err != nil || dep == nil {
		return stackitem.Bool(false), err
	}
	cur, err := currentIndex(d)
	if err != nil {
		return nil, err
	}
	if cur < dep.Till {
		return stackitem.Bool(false), nil
	}
	if err := d.DeleteStorageItem(n.md.ID, depositKey(from)); err != nil {
		return nil, err
	}
	targs := []stackitem.Item{stackitem.ByteString(n.md.Hash.BytesLE()), stackitem.ByteString(to.BytesLE()),
		stackitem.NewBigInteger(new(big.Int).Set(&dep.Amount)), stackitem.Null{}}
	err = ic.CallFromNative(n.md.Hash, n.GAS.md.Hash, "transfer", targs, true, func(ic *interop.Context) error {
		res, err := ic.VM().Context().Estack().Pop()
		if err != nil {
			return err
		}
		if ok, err := res.Bool(); err != nil || !ok {
			return interop.Fault(ErrInvalidArgument, "failed to transfer GAS from Notary account: `transfer` returned false")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(true), nil
}

func (n *Notary) getMaxNVBDeltaMethod(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	v, err := ic.DAO().GetBigInt(n.md.ID, []byte{notaryPrefixMaxNVBDelta})
	if err != nil {
		return nil, err
	}
	return stackitem.NewBigInteger(v), nil
}

func (n *Notary) setMaxNVBDeltaMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	v, err := argUint32(args[0])
	if err != nil {
		return nil, err
	}
	maxVUB, err := n.Policy.MaxValidUntilBlockIncrement(ic.DAO())
	if err != nil {
		return nil, err
	}
	if v > maxVUB/2 || v < n.NEO.cfg.ValidatorsCount {
		return nil, interop.Faultf(ErrInvalidArgument, "MaxNotValidBeforeDelta cannot be more than %d or less than %d",
			maxVUB/2, n.NEO.cfg.ValidatorsCount)
	}
	if err := n.NEO.assertCommittee(ic); err != nil {
		return nil, err
	}
	return nil, ic.DAO().PutBigInt(n.md.ID, []byte{notaryPrefixMaxNVBDelta}, big.NewInt(int64(v)))
}
