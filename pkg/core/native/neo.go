package native

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"slices"

	"github.com/n3d-io/n3d/pkg/config/netconfig"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// NeoToken storage prefixes (reference NeoToken).
const (
	neoPrefixVotersCount   = 1
	neoPrefixRegisterPrice = 13
	neoPrefixCommittee     = 14
	neoPrefixVoterReward   = 23
	neoPrefixGASPerBlock   = 29
	neoPrefixCandidate     = 33
)

// maxGetCandidates bounds getCandidates' answer.
const maxGetCandidates = 256

// NEO is the NeoToken native: the indivisible governance token, candidate
// registration and votes, the committee and validators elected from them,
// and the GAS generated for holders, voters and the committee. State lives
// in storage, in the records of package neostate; the decoded committee
// and its address are cached, validated by the stored bytes
// (neo_cache.go).
type NEO struct {
	token
	cfg     netconfig.ProtocolConfiguration
	standby [][]byte // standby committee, compressed keys, config order
	// GAS mints rewards; Policy tells blocked candidates. Both are set by
	// NewGovernance.
	GAS    *GAS
	Policy *Policy

	committee committeeCache
}

var _ Contract = (*NEO)(nil)

// newNEO builds NeoToken for cfg's committee.
func newNEO(cfg netconfig.ProtocolConfiguration, standby [][]byte) *NEO {
	n := &NEO{cfg: cfg, standby: standby}
	n.token = token{
		md:       NewContractMD(NeoName, NeoID, protocol.HFDefault),
		symbol:   "NEO",
		decimals: 0,
		decode: func(b []byte) (accountState, error) {
			return neostate.NEOBalanceFromBytes(b)
		},
		empty:      func() accountState { return new(neostate.NEOBalance) },
		changing:   n.balanceChanging,
		distribute: n.distribute,
	}
	n.md.Standards = func(hf protocol.Hardfork) []string {
		if hf >= protocol.HFEchidna {
			return []string{"NEP-17", "NEP-27"}
		}
		return []string{"NEP-17"}
	}
	n.addTokenMethods()
	n.addMethods()
	n.md.Seal()
	return n
}

func (n *NEO) addMethods() {
	p := manifest.NewParameter
	const (
		intT = smartcontract.IntegerType
		pk   = smartcontract.PublicKeyType
		h160 = smartcontract.Hash160Type
		arr  = smartcontract.ArrayType
	)
	rd, st, stn := callflag.ReadStates, callflag.States, callflag.States|callflag.AllowNotify
	echidna := protocol.HFEchidna
	add := func(name string, ret smartcontract.ParamType, fee int64, flags callflag.CallFlag, from, till protocol.Hardfork, h Handler, ps ...manifest.Parameter) {
		n.md.AddMethod(Method{Name: name, Params: ps, Return: ret, CPUFee: fee, Flags: flags, From: from, Till: till, Handler: h})
	}
	add("unclaimedGas", intT, 1<<17, rd, 0, 0, n.unclaimedGasMethod, p("account", h160), p("end", intT))
	add("registerCandidate", smartcontract.BoolType, 0, st, 0, echidna, n.registerCandidateMethod, p("pubkey", pk))
	add("registerCandidate", smartcontract.BoolType, 0, stn, echidna, 0, n.registerCandidateMethod, p("pubkey", pk))
	add("unregisterCandidate", smartcontract.BoolType, 1<<16, st, 0, echidna, n.unregisterCandidateMethod, p("pubkey", pk))
	add("unregisterCandidate", smartcontract.BoolType, 1<<16, stn, echidna, 0, n.unregisterCandidateMethod, p("pubkey", pk))
	// onNEP17Payment costs 1<<15 in the reference Go node (0 in C# neo):
	// neo-go's gasconsumed of a registration by GAS payment is the one
	// recorded in pkg/core/chain/testdata/neogo-diff.
	add("onNEP17Payment", smartcontract.VoidType, 1<<15, stn, echidna, 0, n.onPaymentMethod,
		p("from", h160), p("amount", intT), p("data", smartcontract.AnyType))
	add("vote", smartcontract.BoolType, 1<<16, st, 0, echidna, n.voteMethod, p("account", h160), p("voteTo", pk))
	add("vote", smartcontract.BoolType, 1<<16, stn, echidna, 0, n.voteMethod, p("account", h160), p("voteTo", pk))
	add("getCandidates", arr, 1<<22, rd, 0, 0, n.getCandidatesMethod)
	add("getAllCandidates", smartcontract.InteropInterfaceType, 1<<22, rd, 0, 0, n.getAllCandidatesMethod)
	add("getCandidateVote", intT, 1<<15, rd, 0, 0, n.getCandidateVoteMethod, p("pubKey", pk))
	add("getAccountState", arr, 1<<15, rd, 0, 0, n.getAccountStateMethod, p("account", h160))
	add("getCommittee", arr, 1<<16, rd, 0, 0, n.getCommitteeMethod)
	add("getCommitteeAddress", h160, 1<<16, rd, protocol.HFCockatrice, 0, n.getCommitteeAddressMethod)
	add("getNextBlockValidators", arr, 1<<16, rd, 0, 0, n.getNextBlockValidatorsMethod)
	add("getGasPerBlock", intT, 1<<15, rd, 0, 0, n.getGASPerBlockMethod)
	add("setGasPerBlock", smartcontract.VoidType, 1<<15, st, 0, 0, n.setGASPerBlockMethod, p("gasPerBlock", intT))
	add("getRegisterPrice", intT, 1<<15, rd, 0, 0, n.getRegisterPriceMethod)
	add("setRegisterPrice", smartcontract.VoidType, 1<<15, st, 0, 0, n.setRegisterPriceMethod, p("registerPrice", intT))
	n.md.AddEvent(Event{Name: "CandidateStateChanged", Params: []manifest.Parameter{
		p("pubkey", pk), p("registered", smartcontract.BoolType), p("votes", intT)}})
	n.md.AddEvent(Event{Name: "Vote", Params: []manifest.Parameter{
		p("account", h160), p("from", pk), p("to", pk), p("amount", intT)}})
	n.md.AddEvent(Event{Name: "CommitteeChanged", Params: []manifest.Parameter{
		p("old", arr), p("new", arr)}, From: protocol.HFCockatrice})
}

// Metadata implements Contract.
func (n *NEO) Metadata() *ContractMD { return n.md }

// Initialize implements Contract: at genesis the standby committee, the
// voters count, the first GAS-per-block record, the register price and the
// whole supply minted to the standby validators' BFT address.
func (n *NEO) Initialize(ic *interop.Context, hf protocol.Hardfork) error {
	if hf != n.md.ActiveIn {
		return nil
	}
	d := ic.DAO()
	c := neostate.ElectCommittee(nil, new(big.Int), n.standby, n.cfg.CommitteeSize(0))
	if err := d.PutStorageItem(n.md.ID, []byte{neoPrefixCommittee}, c.Bytes()); err != nil {
		return err
	}
	if err := d.PutStorageItem(n.md.ID, []byte{neoPrefixVotersCount}, []byte{}); err != nil {
		return err
	}
	if err := d.PutBigInt(n.md.ID, gasRecordKey(0), big.NewInt(neostate.DefaultGASPerBlock)); err != nil {
		return err
	}
	if err := d.PutBigInt(n.md.ID, []byte{neoPrefixRegisterPrice}, big.NewInt(neostate.DefaultRegisterPrice)); err != nil {
		return err
	}
	bft, err := standbyValidatorsAddress(n.standby, int(n.cfg.ValidatorsCountAt(0)))
	if err != nil {
		return err
	}
	return n.Mint(ic, bft, big.NewInt(neostate.NEOTotalSupply), false)
}

// standbyValidatorsAddress is the BFT multisig address of the first count
// standby keys (the reference Contract.GetBFTAddress).
func standbyValidatorsAddress(standby [][]byte, count int) (util.Uint160, error) {
	ks := make(keys.PublicKeys, count)
	for i := range ks {
		k, err := keys.NewPublicKeyFromBytes(standby[i])
		if err != nil {
			return util.Uint160{}, fmt.Errorf("%w: standby key: %w", ErrInvalidArgument, err)
		}
		ks[i] = k
	}
	s, err := scripts.DefaultMultiSigContract(ks)
	if err != nil {
		return util.Uint160{}, fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return hash.Hash160(s), nil
}

func gasRecordKey(index uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{neoPrefixGASPerBlock}, index)
}

func candidateKey(pub []byte) []byte { return append([]byte{neoPrefixCandidate}, pub...) }

func voterRewardKey(pub []byte) []byte { return append([]byte{neoPrefixVoterReward}, pub...) }

// signatureHash is the account of a single-key signature contract.
func signatureHash(pub []byte) util.Uint160 {
	s := make([]byte, 0, keys.SignatureScriptLen)
	s = append(s, 0x0C, byte(len(pub)))
	s = append(s, pub...)
	s = append(s, 0x41)
	return hash.Hash160(binary.LittleEndian.AppendUint32(s, keys.CheckSigID))
}

// Committee returns the stored committee (election order, with the votes
// of its last refresh). The result is shared: callers must not modify it.
func (n *NEO) Committee(d *dao.DAO) (neostate.Committee, error) {
	v, err := n.committee.view(d, n.md.ID)
	if err != nil {
		return nil, err
	}
	return v.members, nil
}

// CommitteeKeys returns the committee sorted by key (getCommittee).
func (n *NEO) CommitteeKeys(d *dao.DAO) ([][]byte, error) {
	v, err := n.committee.view(d, n.md.ID)
	if err != nil {
		return nil, err
	}
	return slices.Clone(v.sorted), nil
}

// CommitteeAddress is the majority multisig address of the committee.
func (n *NEO) CommitteeAddress(d *dao.DAO) (util.Uint160, error) {
	v, err := n.committee.view(d, n.md.ID)
	if err != nil {
		return util.Uint160{}, err
	}
	return v.address, nil
}

// CheckCommittee reports whether the committee witnessed the call.
func (n *NEO) CheckCommittee(ic *interop.Context) (bool, error) {
	h, err := n.CommitteeAddress(ic.DAO())
	if err != nil {
		return false, err
	}
	return ic.CheckWitness(h)
}

func (n *NEO) assertCommittee(ic *interop.Context) error {
	ok, err := n.CheckCommittee(ic)
	if err != nil {
		return err
	}
	if !ok {
		return errNoCommittee
	}
	return nil
}

// NextBlockValidators returns the validators of the next block: the first
// ValidatorsCount committee members, sorted by key.
func (n *NEO) NextBlockValidators(d *dao.DAO) ([][]byte, error) {
	c, err := n.Committee(d)
	if err != nil {
		return nil, err
	}
	_, h, err := d.GetCurrentBlock()
	if err != nil && !dao.IsNotFound(err) {
		return nil, err
	}
	if err != nil {
		h = 0
	}
	return neostate.NextValidators(c, int(n.cfg.ValidatorsCountAt(h+1))), nil
}

// GASRecords returns the GAS-per-block history.
func (n *NEO) GASRecords(d *dao.DAO) (neostate.GASRecords, error) {
	var g neostate.GASRecords
	var bad error
	err := d.SeekStorage(n.md.ID, storage.SeekRange{Prefix: []byte{neoPrefixGASPerBlock}}, func(k, v []byte) bool {
		if len(k) != 5 {
			bad = fmt.Errorf("%w: GAS record key %x", ErrInvalidState, k)
			return false
		}
		var r neostate.GASRecord
		r.Index = binary.BigEndian.Uint32(k[1:])
		r.GASPerBlock.Set(bigFromBytes(v))
		g = append(g, r)
		return true
	})
	if err != nil {
		return nil, err
	}
	return g, bad
}

// candidates returns the registered candidates that are not blocked, in
// storage (key) order.
func (n *NEO) candidates(d *dao.DAO) (neostate.Committee, error) {
	var out neostate.Committee
	var inner error
	err := d.SeekStorage(n.md.ID, storage.SeekRange{Prefix: []byte{neoPrefixCandidate}}, func(k, v []byte) bool {
		c, err := neostate.CandidateFromBytes(v)
		if err != nil {
			inner = fmt.Errorf("%w: %w", ErrInvalidState, err)
			return false
		}
		if !c.Registered {
			return true
		}
		pub := slices.Clone(k[1:])
		blocked, err := n.Policy.IsBlocked(d, signatureHash(pub))
		if err != nil {
			inner = err
			return false
		}
		if !blocked {
			out = append(out, neostate.KeyWithVotes{Key: pub, Votes: c.Votes})
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return out, inner
}

// ComputeNextBlockValidators are the validators the current votes elect
// (neo-go's ComputeNextBlockValidators, what a consensus node puts in
// NextConsensus): the committee a refresh at block index would elect, its
// first ValidatorsCount (of block index+1) members, sorted by key.
func (n *NEO) ComputeNextBlockValidators(d *dao.DAO, index uint32) ([][]byte, error) {
	c, err := n.computeCommittee(d, index)
	if err != nil {
		return nil, err
	}
	return neostate.NextValidators(c, int(n.cfg.ValidatorsCountAt(index+1))), nil
}

// computeCommittee elects the committee for block height.
func (n *NEO) computeCommittee(d *dao.DAO, height uint32) (neostate.Committee, error) {
	voters, err := d.GetBigInt(n.md.ID, []byte{neoPrefixVotersCount})
	if err != nil {
		return nil, err
	}
	cs, err := n.candidates(d)
	if err != nil {
		return nil, err
	}
	return neostate.ElectCommittee(cs, voters, n.standby, n.cfg.CommitteeSize(height)), nil
}

func keysItem(ks [][]byte) *stackitem.Array {
	items := make([]stackitem.Item, len(ks))
	for i, k := range ks {
		items[i] = stackitem.ByteString(k)
	}
	return stackitem.NewArray(items)
}

// OnPersist implements Contract: the committee is re-elected every
// committee-size blocks (CommitteeChanged from Cockatrice on).
func (n *NEO) OnPersist(ic *interop.Context) error {
	h := ic.Block().Index
	if !n.cfg.ShouldUpdateCommitteeAt(h) {
		return nil
	}
	d := ic.DAO()
	prev, err := n.Committee(d)
	if err != nil {
		return err
	}
	next, err := n.computeCommittee(d, h)
	if err != nil {
		return err
	}
	if err := d.PutStorageItem(n.md.ID, []byte{neoPrefixCommittee}, next.Bytes()); err != nil {
		return err
	}
	if !ic.IsHardforkEnabled(protocol.HFCockatrice) ||
		slices.EqualFunc(prev.Keys(), next.Keys(), func(a, b []byte) bool { return string(a) == string(b) }) {
		return nil
	}
	return ic.SendNotification(n.md.Hash, "CommitteeChanged", stackitem.NewArray([]stackitem.Item{
		keysItem(prev.Keys()), keysItem(next.Keys()),
	}))
}

// PostPersist implements Contract: the committee member of the block gets
// its GAS share; at a refresh, each member's voters' GAS per vote grows.
func (n *NEO) PostPersist(ic *interop.Context) error {
	d := ic.DAO()
	h := ic.Block().Index
	records, err := n.GASRecords(d)
	if err != nil {
		return err
	}
	// Ledger's PostPersist has made this block current, so the rewards use
	// the value for the next block, as getGasPerBlock would return now: a
	// setGasPerBlock in this very block already counts (neo's
	// GetGasPerBlock at Ledger.CurrentIndex+1; neo-go's BlockHeight()+1).
	gpb := records.At(h + 1)
	if gpb == nil {
		return fmt.Errorf("%w: no GAS per block record for %d", ErrInvalidState, h)
	}
	c, err := n.Committee(d)
	if err != nil {
		return err
	}
	m := n.cfg.CommitteeSize(h)
	if len(c) < m {
		return fmt.Errorf("%w: committee of %d, want %d", ErrInvalidState, len(c), m)
	}
	member := c[int(h%uint32(m))].Key
	if err := n.GAS.Mint(ic, signatureHash(member), neostate.CommitteeReward(gpb), false); err != nil {
		return err
	}
	if !n.cfg.ShouldUpdateCommitteeAt(h) {
		return nil
	}
	vc := int(n.cfg.ValidatorsCountAt(h))
	per := neostate.VoterRewardPerMember(gpb, m, vc)
	votes, err := n.rewardVotes(ic, c)
	if err != nil {
		return err
	}
	for i := range c {
		inc := neostate.GASPerVoteIncrement(per, i, vc, votes[i])
		if inc == nil {
			continue
		}
		key := voterRewardKey(c[i].Key)
		cur, err := d.GetBigInt(n.md.ID, key)
		if err != nil && !dao.IsNotFound(err) {
			return err
		}
		if cur != nil {
			inc.Add(inc, cur)
		}
		if err := d.PutBigInt(n.md.ID, key, inc); err != nil {
			return err
		}
	}
	return nil
}

// rewardVotes returns the votes the voter reward of a refresh block is
// divided by: the committee's votes as elected in this block's OnPersist,
// or from Gorgon on, when votes moved during the block, the candidates'
// current votes (-1 for an unregistered one). The reference Go node
// (neo-go f5896a0, port of neo PR 4569) keeps a votes-changed flag in its
// NEO cache; here a change is detected as a registered, unblocked member
// whose stored votes differ from its committee votes.
func (n *NEO) rewardVotes(ic *interop.Context, c neostate.Committee) ([]*big.Int, error) {
	out := make([]*big.Int, len(c))
	for i := range c {
		out[i] = &c[i].Votes
	}
	if !ic.IsHardforkEnabled(protocol.HFGorgon) {
		return out, nil
	}
	d := ic.DAO()
	stored := make([]*big.Int, len(c))
	moved := false
	for i := range c {
		cand, err := n.candidate(d, c[i].Key)
		if err != nil {
			return nil, err
		}
		stored[i] = big.NewInt(-1)
		if cand != nil && cand.Registered {
			stored[i] = &cand.Votes
		}
		if moved || stored[i].Cmp(&c[i].Votes) == 0 || (stored[i].Sign() <= 0 && c[i].Votes.Sign() <= 0) {
			continue
		}
		blocked, err := n.Policy.IsBlocked(d, signatureHash(c[i].Key))
		if err != nil {
			return nil, err
		}
		moved = !blocked
	}
	if moved {
		return stored, nil
	}
	return out, nil
}
