package native

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// argECPoint decodes a secp256r1 key argument (compressed or not) and
// returns its compressed form.
func argECPoint(it stackitem.Item) ([]byte, error) {
	b, err := argBytes(it)
	if err != nil {
		return nil, err
	}
	k, err := keys.NewPublicKeyFromBytes(b)
	if err != nil {
		return nil, vm.Fault(ErrInvalidArgument, interop.PublicKeyError(b, err).Error(), err)
	}
	return k.Bytes(), nil
}

// distributeGAS is the reference DistributeGas: the account's bonus up to
// the persisting block, its balance height and GAS-per-vote mark moved.
func (n *NEO) distributeGAS(ic *interop.Context, acc util.Uint160, st *neostate.NEOBalance) (*gasDistribution, error) {
	b := ic.Block()
	if b == nil {
		return nil, nil
	}
	d := ic.DAO()
	bonus, err := n.bonus(d, st, b.Index)
	if err != nil {
		return nil, err
	}
	st.BalanceHeight = b.Index
	if st.VoteTo != nil {
		latest, err := n.gasPerVote(d, st.VoteTo)
		if err != nil {
			return nil, err
		}
		st.LastGasPerVote.Set(latest)
	}
	if bonus.Sign() == 0 {
		return nil, nil
	}
	return &gasDistribution{to: acc, amount: bonus}, nil
}

// balanceChanging is NEO's OnBalanceChanging: GAS distribution, then the
// voted candidate's votes and the voters count follow the balance.
func (n *NEO) balanceChanging(ic *interop.Context, acc util.Uint160, s accountState, amount *big.Int) (*gasDistribution, error) {
	st := s.(*neostate.NEOBalance)
	dist, err := n.distributeGAS(ic, acc, st)
	if err != nil {
		return nil, err
	}
	if amount.Sign() == 0 || st.VoteTo == nil {
		return dist, nil
	}
	d := ic.DAO()
	if err := n.addVotersCount(d, amount); err != nil {
		return nil, err
	}
	c, err := n.candidate(d, st.VoteTo)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("%w: voted candidate %x missing", ErrInvalidState, st.VoteTo)
	}
	c.Votes.Add(&c.Votes, amount)
	return dist, n.putCandidate(d, st.VoteTo, c)
}

func (n *NEO) addVotersCount(d *dao.DAO, delta *big.Int) error {
	v, err := d.GetBigInt(n.md.ID, []byte{neoPrefixVotersCount})
	if err != nil {
		return err
	}
	return d.PutBigInt(n.md.ID, []byte{neoPrefixVotersCount}, v.Add(v, delta))
}

// putCandidate stores c, or drops it (and its GAS-per-vote record) when it
// is unregistered and has no votes (the reference CheckCandidate).
func (n *NEO) putCandidate(d *dao.DAO, pub []byte, c *neostate.Candidate) error {
	if !c.Registered && c.Votes.Sign() == 0 {
		if err := d.DeleteStorageItem(n.md.ID, voterRewardKey(pub)); err != nil {
			return err
		}
		return d.DeleteStorageItem(n.md.ID, candidateKey(pub))
	}
	return d.PutStorageItem(n.md.ID, candidateKey(pub), c.Bytes())
}

// distribute mints the GAS collected during a NEO balance change, one
// mint after the other (each may call a contract), then runs then.
func (n *NEO) distribute(ic *interop.Context, ds []gasDistribution, callOnPayment bool, then func(*interop.Context) error) error {
	if len(ds) == 0 {
		if then != nil {
			return then(ic)
		}
		return nil
	}
	first, rest := ds[0], ds[1:]
	return n.GAS.mintThen(ic, first.to, first.amount, callOnPayment, func(ic *interop.Context) error {
		return n.distribute(ic, rest, callOnPayment, then)
	})
}

func (n *NEO) registerCandidateMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	pub, err := argECPoint(args[0])
	if err != nil {
		return nil, err
	}
	if !ic.IsHardforkEnabled(protocol.HFEchidna) {
		ok, err := ic.CheckWitness(signatureHash(pub))
		if err != nil || !ok {
			return stackitem.Bool(false), err
		}
	}
	price, err := n.RegisterPrice(ic.DAO())
	if err != nil {
		return nil, err
	}
	if err := ic.AddFee(price); err != nil {
		return nil, vm.Fault(err, fmt.Sprintf("%s executing %s/registerCandidate", err, n.md.Hash.StringBE()), nil)
	}
	ok, err := n.register(ic, pub)
	return stackitem.Bool(ok), err
}

// register is the reference RegisterInternal.
func (n *NEO) register(ic *interop.Context, pub []byte) (bool, error) {
	ok, err := ic.CheckWitness(signatureHash(pub))
	if err != nil || !ok {
		return false, err
	}
	d := ic.DAO()
	c, err := n.candidate(d, pub)
	if err != nil {
		return false, err
	}
	if c == nil {
		c = new(neostate.Candidate)
	}
	if c.Registered {
		return true, nil
	}
	c.Registered = true
	if err := n.putCandidate(d, pub, c); err != nil {
		return false, err
	}
	return true, ic.SendNotification(n.md.Hash, "CandidateStateChanged", stackitem.NewArray([]stackitem.Item{
		stackitem.ByteString(pub), stackitem.Bool(true), stackitem.NewBigInteger(new(big.Int).Set(&c.Votes)),
	}))
}

func (n *NEO) unregisterCandidateMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	pub, err := argECPoint(args[0])
	if err != nil {
		return nil, err
	}
	ok, err := ic.CheckWitness(signatureHash(pub))
	if err != nil || !ok {
		return stackitem.Bool(false), err
	}
	d := ic.DAO()
	c, err := n.candidate(d, pub)
	if err != nil {
		return nil, err
	}
	if c == nil || !c.Registered {
		return stackitem.Bool(true), nil
	}
	c.Registered = false
	if err := n.putCandidate(d, pub, c); err != nil {
		return nil, err
	}
	return stackitem.Bool(true), ic.SendNotification(n.md.Hash, "CandidateStateChanged", stackitem.NewArray([]stackitem.Item{
		stackitem.ByteString(pub), stackitem.Bool(false), stackitem.NewBigInteger(new(big.Int).Set(&c.Votes)),
	}))
}

// onPaymentMethod registers the candidate whose key is the data of a GAS
// payment of exactly the register price (Echidna+), burning the GAS.
func (n *NEO) onPaymentMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	if caller, ok := ic.CallingScriptHash(); !ok || caller != n.GAS.md.Hash {
		return nil, interop.Fault(ErrInvalidArgument, "only GAS is accepted")
	}
	if _, err := argUint160(args[0]); err != nil {
		return nil, err
	}
	amount, err := argBigInt(args[1])
	if err != nil {
		return nil, err
	}
	price, err := n.RegisterPrice(ic.DAO())
	if err != nil {
		return nil, err
	}
	if !amount.IsInt64() || amount.Int64() != price {
		return nil, interop.Faultf(ErrInvalidArgument, "incorrect GAS amount for registration (expected %d)", price)
	}
	pub, err := argECPoint(args[2])
	if err != nil {
		return nil, err
	}
	ok, err := n.register(ic, pub)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, interop.Fault(ErrInvalidArgument, "not witnessed by the key owner")
	}
	return nil, n.GAS.Burn(ic, n.md.Hash, amount)
}

func (n *NEO) voteMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	acc, err := argUint160(args[0])
	if err != nil {
		return nil, err
	}
	var to []byte
	if !isNull(args[1]) {
		if to, err = argECPoint(args[1]); err != nil {
			return nil, err
		}
	}
	ok, err := ic.CheckWitness(acc)
	if err != nil || !ok {
		return stackitem.Bool(false), err
	}
	ok, err = n.Vote(ic, acc, to)
	return stackitem.Bool(ok), err
}

// Vote is the reference VoteInternal: acc's NEO now backs candidate to
// (nil: no one).
func (n *NEO) Vote(ic *interop.Context, acc util.Uint160, to []byte) (bool, error) {
	return n.vote(ic, acc, to, nil)
}

// RevokeVote is VoteInternal(acc, null) for Policy's Faun blockAccount
// (VoteRevoker): then runs exactly once, after the claimed GAS was minted
// (and the account's onNEP17Payment returned), or at once when nothing is
// minted or acc has no NEO.
func (n *NEO) RevokeVote(ic *interop.Context, acc util.Uint160, then func(*interop.Context) error) error {
	_, err := n.vote(ic, acc, nil, then)
	return err
}

// vote is VoteInternal followed by then (nil: nothing).
func (n *NEO) vote(ic *interop.Context, acc util.Uint160, to []byte, then func(*interop.Context) error) (bool, error) {
	if then == nil {
		then = func(*interop.Context) error { return nil }
	}
	d := ic.DAO()
	s, err := n.account(d, acc)
	if err != nil {
		return false, err
	}
	if s == nil || s.(*neostate.NEOBalance).Balance.Sign() == 0 {
		return false, then(ic)
	}
	st := s.(*neostate.NEOBalance)
	var newCand *neostate.Candidate
	if to != nil {
		if newCand, err = n.candidate(d, to); err != nil {
			return false, err
		}
		if newCand == nil || !newCand.Registered {
			return false, then(ic)
		}
	}
	if (st.VoteTo == nil) != (to == nil) {
		delta := new(big.Int).Set(&st.Balance)
		if st.VoteTo != nil {
			delta.Neg(delta)
		}
		if err := n.addVotersCount(d, delta); err != nil {
			return false, err
		}
	}
	dist, err := n.distributeGAS(ic, acc, st)
	if err != nil {
		return false, err
	}
	if err := n.moveVotes(ic, st, to, newCand); err != nil {
		return false, err
	}
	return true, n.finishVote(ic, acc, st, to, dist, then)
}

// moveVotes takes st's balance from its old candidate and gives it to the
// new one (whose state newCand was read before the old one changed).
func (n *NEO) moveVotes(ic *interop.Context, st *neostate.NEOBalance, to []byte, newCand *neostate.Candidate) error {
	d := ic.DAO()
	if st.VoteTo != nil {
		old, err := n.candidate(d, st.VoteTo)
		if err != nil {
			return err
		}
		if old == nil {
			return fmt.Errorf("%w: voted candidate %x missing", ErrInvalidState, st.VoteTo)
		}
		old.Votes.Sub(&old.Votes, &st.Balance)
		if err := n.putCandidate(d, st.VoteTo, old); err != nil {
			return err
		}
		if to != nil && bytes.Equal(to, st.VoteTo) {
			newCand = old
		}
	}
	if to != nil && !bytes.Equal(to, st.VoteTo) {
		latest, err := n.gasPerVote(d, to)
		if err != nil {
			return err
		}
		st.LastGasPerVote.Set(latest)
	}
	if newCand == nil {
		st.LastGasPerVote.SetInt64(0)
		return nil
	}
	newCand.Votes.Add(&newCand.Votes, &st.Balance)
	return n.putCandidate(d, to, newCand)
}

// finishVote stores the account, sends Vote, mints the claimed GAS and
// runs then.
func (n *NEO) finishVote(ic *interop.Context, acc util.Uint160, st *neostate.NEOBalance, to []byte,
	dist *gasDistribution, then func(*interop.Context) error) error {
	from := st.VoteTo
	st.VoteTo = to
	if err := n.putAccount(ic.DAO(), acc, st); err != nil {
		return err
	}
	key := func(k []byte) stackitem.Item {
		if k == nil {
			return stackitem.Null{}
		}
		return stackitem.ByteString(k)
	}
	err := ic.SendNotification(n.md.Hash, "Vote", stackitem.NewArray([]stackitem.Item{
		stackitem.ByteString(acc.BytesLE()), key(from), key(to), stackitem.NewBigInteger(new(big.Int).Set(&st.Balance)),
	}))
	if err != nil {
		return err
	}
	if dist == nil {
		return then(ic)
	}
	return n.GAS.mintThen(ic, dist.to, dist.amount, true, then)
}
