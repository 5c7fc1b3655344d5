package native

import (
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Notary storage prefixes and defaults (reference Notary).
const (
	notaryPrefixDeposit         = 1
	notaryPrefixMaxNVBDelta     = 10
	defaultMaxNotValidBeforeDlt = 140
	defaultDepositDeltaTill     = 5760
)

// Notary is the Notary native (Echidna+): GAS deposits paying for
// NotaryAssisted transactions, the notary nodes' rewards and the
// verification of fallback transactions.
type Notary struct {
	md *ContractMD
	// GAS, NEO, Policy and Designate are set by NewGovernance.
	GAS       *GAS
	NEO       *NEO
	Policy    *Policy
	Designate *Designate
}

var _ Contract = (*Notary)(nil)

func newNotary() *Notary {
	n := &Notary{md: NewContractMD(NotaryName, NotaryID, protocol.HFEchidna)}
	n.md.Standards = func(hf protocol.Hardfork) []string {
		if hf >= protocol.HFFaun {
			return []string{"NEP-27", "NEP-30"}
		}
		return []string{"NEP-27"}
	}
	n.md.AddUpdateHardfork(protocol.HFFaun)
	p := manifest.NewParameter
	h160, intT, boolT := smartcontract.Hash160Type, smartcontract.IntegerType, smartcontract.BoolType
	add := func(name string, ret smartcontract.ParamType, flags callflag.CallFlag, h Handler, ps ...manifest.Parameter) {
		n.md.AddMethod(Method{Name: name, Params: ps, Return: ret, CPUFee: 1 << 15, Flags: flags, Handler: h})
	}
	add("onNEP17Payment", smartcontract.VoidType, callflag.States, n.onPaymentMethod,
		p("from", h160), p("amount", intT), p("data", smartcontract.AnyType))
	add("lockDepositUntil", boolT, callflag.States, n.lockDepositUntilMethod, p("account", h160), p("till", intT))
	add("withdraw", boolT, callflag.All, n.withdrawMethod, p("from", h160), p("to", h160))
	add("balanceOf", intT, callflag.ReadStates, n.balanceOfMethod, p("account", h160))
	add("expirationOf", intT, callflag.ReadStates, n.expirationOfMethod, p("account", h160))
	add("verify", boolT, callflag.ReadStates, n.verifyMethod, p("signature", smartcontract.ByteArrayType))
	add("getMaxNotValidBeforeDelta", intT, callflag.ReadStates, n.getMaxNVBDeltaMethod)
	add("setMaxNotValidBeforeDelta", smartcontract.VoidType, callflag.States, n.setMaxNVBDeltaMethod, p("value", intT))
	n.md.Seal()
	return n
}

// Metadata implements Contract.
func (n *Notary) Metadata() *ContractMD { return n.md }

// Initialize implements Contract: the default MaxNotValidBeforeDelta.
func (n *Notary) Initialize(ic *interop.Context, hf protocol.Hardfork) error {
	if hf != n.md.ActiveIn {
		return nil
	}
	return ic.DAO().PutBigInt(n.md.ID, []byte{notaryPrefixMaxNVBDelta}, big.NewInt(defaultMaxNotValidBeforeDlt))
}

// PostPersist implements Contract.
func (n *Notary) PostPersist(*interop.Context) error { return nil }

func depositKey(h util.Uint160) []byte { return append([]byte{notaryPrefixDeposit}, h.BytesLE()...) }

func notaryAssisted(tx *transaction.Transaction) *transaction.NotaryAssisted {
	attrs := tx.GetAttributes(transaction.AttrNotaryAssisted)
	if len(attrs) == 0 {
		return nil
	}
	na, _ := attrs[0].Value.(*transaction.NotaryAssisted)
	return na
}

// Deposit returns h's deposit (nil if none).
func (n *Notary) Deposit(d *dao.DAO, h util.Uint160) (*neostate.Deposit, error) {
	return getRecord(d, n.md.ID, depositKey(h), neostate.DepositFromBytes)
}

func (n *Notary) notaryNodes(d *dao.DAO) (neostate.NodeList, error) {
	cur, err := currentIndex(d)
	if err != nil {
		return nil, err
	}
	return n.Designate.DesignatedByRole(d, RoleP2PNotary, cur+1)
}

// OnPersist implements Contract: fees of NotaryAssisted transactions sent
// by the Notary are taken from the payer's deposit; the notary nodes share
// (nKeys+1) × the NotaryAssisted fee of every such transaction.
func (n *Notary) OnPersist(ic *interop.Context) error {
	d := ic.DAO()
	var nFees int64
	var notaries neostate.NodeList
	for _, tx := range ic.Block().Transactions {
		na := notaryAssisted(tx)
		if na == nil {
			continue
		}
		if notaries == nil {
			var err error
			if notaries, err = n.notaryNodes(d); err != nil {
				return err
			}
		}
		nFees += int64(na.NKeys) + 1
		if tx.Sender() != n.md.Hash || len(tx.Signers) < 2 {
			continue
		}
		payer := tx.Signers[1].Account
		dep, err := n.Deposit(d, payer)
		if err != nil {
			return err
		}
		if dep == nil {
			continue
		}
		dep.Amount.Sub(&dep.Amount, big.NewInt(tx.SystemFee+tx.NetworkFee))
		if dep.Amount.Sign() == 0 {
			err = d.DeleteStorageItem(n.md.ID, depositKey(payer))
		} else {
			err = d.PutStorageItem(n.md.ID, depositKey(payer), dep.Bytes())
		}
		if err != nil {
			return err
		}
	}
	if nFees == 0 || len(notaries) == 0 {
		return nil
	}
	fee, err := n.Policy.AttributeFee(d, transaction.AttrNotaryAssisted)
	if err != nil {
		return err
	}
	reward := big.NewInt(nFees * fee / int64(len(notaries)))
	for _, k := range notaries {
		if err := n.GAS.Mint(ic, signatureHash(k), reward, false); err != nil {
			return err
		}
	}
	return nil
}

func (n *Notary) verifyMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	sig, err := argBytes(args[0])
	if err != nil {
		return nil, err
	}
	ok, err := n.verify(ic, sig)
	return stackitem.Bool(ok), err
}

func (n *Notary) verify(ic *interop.Context, sig []byte) (bool, error) {
	tx := ic.Tx()
	if len(sig) != keys.SignatureLen || tx == nil || notaryAssisted(tx) == nil {
		return false, nil
	}
	for _, s := range tx.Signers {
		if s.Account == n.md.Hash {
			if s.Scopes != transaction.None {
				return false, nil
			}
			break
		}
	}
	d := ic.DAO()
	if tx.Sender() == n.md.Hash {
		if len(tx.Signers) != 2 {
			return false, nil
		}
		dep, err := n.Deposit(d, tx.Signers[1].Account)
		if err != nil {
			return false, err
		}
		if dep == nil || dep.Amount.Cmp(big.NewInt(tx.NetworkFee+tx.SystemFee)) < 0 {
			return false, nil
		}
	}
	notaries, err := n.notaryNodes(d)
	if err != nil {
		return false, err
	}
	msg := tx.SignData(ic.Network())
	for _, k := range notaries {
		pk, err := keys.NewPublicKeyFromBytes(k)
		if err != nil {
			return false, fmt.Errorf("%w: notary key: %w", ErrInvalidState, err)
		}
		if pk.VerifyMessage(sig, msg) {
			return true, nil
		}
	}
	return false, nil
}

// MaxNotValidBeforeDelta is the stored MaxNotValidBeforeDelta (how far
// ahead of the height a notary request's fallback may set NotValidBefore).
func (n *Notary) MaxNotValidBeforeDelta(d *dao.DAO) (uint32, error) {
	v, err := d.GetBigInt(n.md.ID, []byte{notaryPrefixMaxNVBDelta})
	if err != nil {
		return 0, err
	}
	if !v.IsUint64() || v.Uint64() > 1<<32-1 {
		return 0, fmt.Errorf("native: Notary MaxNotValidBeforeDelta %s out of range", v)
	}
	return uint32(v.Uint64()), nil
}

// NotaryNodes are the keys designated for the P2PNotary role at index.
func (n *Notary) NotaryNodes(d *dao.DAO, index uint32) (keys.PublicKeys, error) {
	l, err := n.Designate.DesignatedByRole(d, RoleP2PNotary, index)
	if err != nil {
		return nil, err
	}
	out := make(keys.PublicKeys, len(l))
	for i, b := range l {
		if out[i], err = keys.NewPublicKeyFromBytes(b); err != nil {
			return nil, fmt.Errorf("native: notary node %d: %w", i, err)
		}
	}
	return out, nil
}
