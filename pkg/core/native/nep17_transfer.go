package native

import (
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func (t *token) transferMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	from, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	to, err := argUint160(args[1])
	if err != nil {
		return nil, err
	}
	amount, err := argBigInt(args[2])
	if err != nil {
		return nil, err
	}
	ok, err := t.Transfer(ic, from, to, amount, args[3])
	if err != nil {
		return nil, err
	}
	return stackitem.Bool(ok), nil
}

// Transfer is the NEP-17 transfer (the reference FungibleToken.Transfer):
// false without from's witness or funds; the recipient contract's
// onNEP17Payment runs after the Transfer notification.
func (t *token) Transfer(ic *interop.Context, from, to util.Uint160, amount *big.Int, data stackitem.Item) (bool, error) {
	if amount.Sign() < 0 {
		return false, errNegativeAmount
	}
	if caller, ok := ic.CallingScriptHash(); !ok || caller != from {
		w, err := ic.CheckWitness(from)
		if err != nil {
			return false, err
		}
		if !w {
			return false, nil
		}
	}
	d := ic.DAO()
	stFrom, err := t.account(d, from)
	if err != nil {
		return false, err
	}
	var ds []gasDistribution
	switch {
	case amount.Sign() == 0:
		if stFrom != nil {
			if err := t.onChanging(ic, from, stFrom, amount, &ds); err != nil {
				return false, err
			}
			if err := t.putAccount(d, from, stFrom); err != nil {
				return false, err
			}
		}
	case stFrom == nil || stFrom.Amount().Cmp(amount) < 0:
		return false, nil
	case from == to:
		if err := t.onChanging(ic, from, stFrom, new(big.Int), &ds); err != nil {
			return false, err
		}
		if err := t.putAccount(d, from, stFrom); err != nil {
			return false, err
		}
	default:
		if err := t.move(ic, d, from, to, stFrom, amount, &ds); err != nil {
			return false, err
		}
	}
	if err := t.postTransfer(ic, &from, &to, amount, data, true, ds, nil); err != nil {
		return false, err
	}
	return true, nil
}

// move debits from (whose state is stFrom) and credits to.
func (t *token) move(ic *interop.Context, d *dao.DAO, from, to util.Uint160, stFrom accountState, amount *big.Int, ds *[]gasDistribution) error {
	if err := t.onChanging(ic, from, stFrom, new(big.Int).Neg(amount), ds); err != nil {
		return err
	}
	var err error
	if stFrom.Amount().Cmp(amount) == 0 {
		k := accountKey(from)
		err = d.DeleteStorageItem(t.md.ID, k[:])
	} else {
		stFrom.Amount().Sub(stFrom.Amount(), amount)
		err = t.putAccount(d, from, stFrom)
	}
	if err != nil {
		return err
	}
	stTo, err := t.account(d, to)
	if err != nil {
		return err
	}
	if stTo == nil {
		stTo = t.empty()
	}
	if err := t.onChanging(ic, to, stTo, amount, ds); err != nil {
		return err
	}
	stTo.Amount().Add(stTo.Amount(), amount)
	return t.putAccount(d, to, stTo)
}

func hashItem(h *util.Uint160) stackitem.Item {
	if h == nil {
		return stackitem.Null{}
	}
	return stackitem.ByteString(h.BytesLE())
}

// postTransfer sends the Transfer notification, calls the recipient's
// onNEP17Payment when asked to and the recipient is a contract, then mints
// the collected GAS distributions and runs then (if not nil).
func (t *token) postTransfer(ic *interop.Context, from, to *util.Uint160, amount *big.Int, data stackitem.Item,
	callOnPayment bool, ds []gasDistribution, then func(*interop.Context) error) error {
	err := ic.SendOwnNotification(t.md.Hash, "Transfer", []stackitem.Item{
		hashItem(from), hashItem(to), stackitem.NewBigInteger(new(big.Int).Set(amount)),
	})
	if err != nil {
		return err
	}
	if callOnPayment && to != nil {
		isContract, err := contractExists(ic.DAO(), *to)
		if err != nil {
			return err
		}
		if isContract {
			args := []stackitem.Item{hashItem(from), stackitem.NewBigInteger(new(big.Int).Set(amount)), data}
			return ic.CallFromNative(t.md.Hash, *to, "onNEP17Payment", args, false, func(ic *interop.Context) error {
				return t.afterTransfer(ic, ds, callOnPayment, then)
			})
		}
	}
	return t.afterTransfer(ic, ds, callOnPayment, then)
}

// afterTransfer mints the collected GAS distributions and runs then (if
// not nil): what follows a transfer's notification and payment call.
func (t *token) afterTransfer(ic *interop.Context, ds []gasDistribution, callOnPayment bool,
	then func(*interop.Context) error) error {
	if t.distribute != nil {
		return t.distribute(ic, ds, callOnPayment, then)
	}
	if then != nil {
		return then(ic)
	}
	return nil
}

// contractExists is the reference ContractManagement.IsContract.
func contractExists(d *dao.DAO, h util.Uint160) (bool, error) {
	_, err := d.GetContract(h)
	if err != nil {
		if dao.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}
