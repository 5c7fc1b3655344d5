package native_test

import (
	"bytes"
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/n3d-io/n3d/internal/nativetest"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// Expected values follow the reference NeoToken (neo
// src/Neo/SmartContract/Native/NeoToken.cs): RegisterCandidate,
// UnregisterCandidate, VoteInternal, ComputeCommitteeMembers,
// OnPersistAsync, PostPersistAsync, SetGasPerBlock, SetRegisterPrice.

func mustBool(t *testing.T, r *nativetest.Result, want bool) {
	t.Helper()
	require.Equal(t, want, nativetest.Bool(t, r.Halt(t)))
}

func pubs(ks []*keys.PrivateKey) [][]byte {
	out := make([][]byte, len(ks))
	for i, k := range ks {
		out[i] = k.PublicKey().Bytes()
	}
	return out
}

// sortedByPoint sorts compressed keys as ECPoint.CompareTo does.
func sortedByPoint(t *testing.T, in [][]byte) [][]byte {
	t.Helper()
	out := slices.Clone(in)
	slices.SortFunc(out, func(a, b []byte) int {
		ka, err := keys.NewPublicKeyFromBytes(a)
		require.NoError(t, err)
		kb, err := keys.NewPublicKeyFromBytes(b)
		require.NoError(t, err)
		return ka.Cmp(kb)
	})
	return out
}

func itemKeys(t *testing.T, it stackitem.Item) [][]byte {
	t.Helper()
	var out [][]byte
	for _, k := range nativetest.Items(t, it) {
		out = append(out, nativetest.Bytes(t, k))
	}
	return out
}

func candidateList(t *testing.T, it stackitem.Item) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, s := range nativetest.Items(t, it) {
		kv := nativetest.Items(t, s)
		out[string(nativetest.Bytes(t, kv[0]))] = nativetest.Int(t, kv[1])
	}
	return out
}

func multisig(t *testing.T, ks [][]byte, majority bool) util.Uint160 {
	t.Helper()
	pk := make(keys.PublicKeys, len(ks))
	for i, k := range ks {
		var err error
		pk[i], err = keys.NewPublicKeyFromBytes(k)
		require.NoError(t, err)
	}
	var s []byte
	var err error
	if majority {
		s, err = scripts.MajorityMultiSigContract(pk)
	} else {
		s, err = scripts.DefaultMultiSigContract(pk)
	}
	require.NoError(t, err)
	return hash.Hash160(s)
}

func TestNEOCandidateRegistration(t *testing.T) {
	for _, hf := range []protocol.Hardfork{protocol.HFDomovoi, protocol.HFEchidna} {
		t.Run(hf.String(), func(t *testing.T) {
			c := nativetest.New(t, nativetest.Options{Hardforks: nativetest.Hardfork(hf, 0)})
			k := nativetest.Key(t, "candidate")
			pub, owner := k.PublicKey().Bytes(), k.ScriptHash()
			price := nativetest.Int(t, call(t, c, neoH, "getRegisterPrice"))
			require.Equal(t, int64(neostate.DefaultRegisterPrice), price)

			// Without the key's witness: false (before Echidna nothing is
			// charged, from Echidna the price is charged first).
			r := c.Invoke(nativetest.CalledByEntry(acc(1)), nativetest.CallScript(t, neoH, "registerCandidate", pub))
			mustBool(t, r, false)
			require.Empty(t, r.Events)
			if hf >= protocol.HFEchidna {
				require.GreaterOrEqual(t, r.GasConsumed, price)
			} else {
				require.Less(t, r.GasConsumed, price)
			}
			r = c.Invoke(nativetest.CalledByEntry(owner), nativetest.CallScript(t, neoH, "registerCandidate", pub))
			mustBool(t, r, true)
			require.GreaterOrEqual(t, r.GasConsumed, price)
			ev := r.EventsNamed(neoH, "CandidateStateChanged")
			require.Len(t, ev, 1)
			require.Equal(t, pub, nativetest.Bytes(t, ev[0].Item.At(0)))
			require.True(t, nativetest.Bool(t, ev[0].Item.At(1)))
			require.Equal(t, int64(0), nativetest.Int(t, ev[0].Item.At(2)))
			require.Equal(t, int64(0), nativetest.Int(t, call(t, c, neoH, "getCandidateVote", pub)))
			require.Equal(t, map[string]int64{string(pub): 0}, candidateList(t, call(t, c, neoH, "getCandidates")))
			// Registering again succeeds silently.
			r = c.Invoke(nativetest.CalledByEntry(owner), nativetest.CallScript(t, neoH, "registerCandidate", pub))
			mustBool(t, r, true)
			require.Empty(t, r.Events)
			// Not a key: FAULT.
			c.Invoke(nativetest.CalledByEntry(owner), nativetest.CallScript(t, neoH, "registerCandidate", []byte{2, 1})).Faults(t, "unexpected EOF")
			// An uncompressed key is the same candidate.
			unc := k.PublicKey().UncompressedBytes()
			mustBool(t, c.Invoke(nativetest.CalledByEntry(owner), nativetest.CallScript(t, neoH, "registerCandidate", unc)), true)
			require.Len(t, candidateList(t, call(t, c, neoH, "getCandidates")), 1)

			// Unregistration.
			mustBool(t, c.Invoke(nativetest.CalledByEntry(acc(1)), nativetest.CallScript(t, neoH, "unregisterCandidate", pub)), false)
			other := nativetest.Key(t, "never registered")
			r = c.Invoke(nativetest.CalledByEntry(other.ScriptHash()), nativetest.CallScript(t, neoH, "unregisterCandidate", other.PublicKey().Bytes()))
			mustBool(t, r, true)
			require.Empty(t, r.Events)
			r = c.Invoke(nativetest.CalledByEntry(owner), nativetest.CallScript(t, neoH, "unregisterCandidate", pub))
			mustBool(t, r, true)
			ev = r.EventsNamed(neoH, "CandidateStateChanged")
			require.Len(t, ev, 1)
			require.False(t, nativetest.Bool(t, ev[0].Item.At(1)))
			require.Equal(t, int64(-1), nativetest.Int(t, call(t, c, neoH, "getCandidateVote", pub)))
			require.Empty(t, candidateList(t, call(t, c, neoH, "getCandidates")))
			// No votes: the record is gone (CheckCandidate).
			_, err := c.DAO.GetStorageItem(-5, append([]byte{33}, pub...))
			require.Error(t, err)
		})
	}
}

func TestNEORegisterByGASPayment(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{Hardforks: nativetest.Hardfork(protocol.HFEchidna, 0)})
	bft := c.ValidatorsAddress()
	k := nativetest.Key(t, "payer")
	pub, owner := k.PublicKey().Bytes(), k.ScriptHash()
	price := int64(neostate.DefaultRegisterPrice)
	mustBool(t, c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, gasH, "transfer", bft, owner, 3*price, nil)), true)
	// NeoToken.OnNEP17Payment: wrong amount, not a key, no witness of the
	// key (the witness must reach NEO through GAS: Global scope).
	c.Invoke(nativetest.Global(owner), nativetest.CallScript(t, gasH, "transfer", owner, neoH, price-1, pub)).Faults(t, "incorrect GAS amount for registration")
	c.Invoke(nativetest.Global(owner), nativetest.CallScript(t, gasH, "transfer", owner, neoH, price, []byte{1})).Faults(t, "invalid prefix 1")
	other := nativetest.Key(t, "other").PublicKey().Bytes()
	c.Invoke(nativetest.Global(owner), nativetest.CallScript(t, gasH, "transfer", owner, neoH, price, other)).Faults(t, "not witnessed by the key owner")
	// Only GAS may call it.
	c.Invoke(nativetest.Global(owner), nativetest.CallScript(t, neoH, "onNEP17Payment", owner, price, pub)).Faults(t, "only GAS")

	supply := nativetest.Int(t, call(t, c, gasH, "totalSupply"))
	r := c.Invoke(nativetest.Global(owner), nativetest.CallScript(t, gasH, "transfer", owner, neoH, price, pub))
	mustBool(t, r, true)
	require.Len(t, r.Events, 3) // GAS transfer to NEO, CandidateStateChanged, GAS burn by NEO
	require.Equal(t, "CandidateStateChanged", r.Events[1].Name)
	transferEvent(t, r.Events[2].Item, &neoH, nil, price)
	require.Equal(t, 2*price, balance(t, c, gasH, owner))
	require.Equal(t, int64(0), balance(t, c, gasH, neoH))
	reward := int64(neostate.DefaultGASPerBlock * neostate.CommitteeRewardRatio / 100)
	require.Equal(t, supply-price+reward, nativetest.Int(t, call(t, c, gasH, "totalSupply")))
	require.Contains(t, candidateList(t, call(t, c, neoH, "getCandidates")), string(pub))
	// Before Echidna there is no onNEP17Payment: NEO refuses GAS.
	old := nativetest.New(t, nativetest.Options{Hardforks: nativetest.Hardfork(protocol.HFDomovoi, 0)})
	bft = old.ValidatorsAddress()
	old.Invoke(nativetest.Global(bft), nativetest.CallScript(t, gasH, "transfer", bft, neoH, price, pub)).Faults(t, "")
}

// electionFixture registers n candidates and gives voter i (3+i)M NEO
// voting for candidate i, all in blocks 1 and 2.
type electionFixture struct {
	c      *nativetest.Chain
	cands  []*keys.PrivateKey
	voters []util.Uint160
	votes  []int64
}

func newElection(t *testing.T, opts nativetest.Options, n int) *electionFixture {
	f := &electionFixture{c: nativetest.New(t, opts)}
	c := f.c
	bft := c.ValidatorsAddress()
	var txs []*nativetestTx
	for i := range n {
		f.cands = append(f.cands, nativetest.Key(t, fmt.Sprintf("cand %d", i)))
		f.voters = append(f.voters, acc(byte(0x30+i)))
		f.votes = append(f.votes, int64(3_000_000+i*1_000_000))
		txs = append(txs, &nativetestTx{nativetest.CalledByEntry(bft),
			nativetest.CallScript(t, neoH, "transfer", bft, f.voters[i], f.votes[i], nil)})
	}
	f.block(t, txs)
	txs = nil
	for i := range n {
		txs = append(txs, &nativetestTx{nativetest.CalledByEntry(f.cands[i].ScriptHash()),
			nativetest.CallScript(t, neoH, "registerCandidate", f.cands[i].PublicKey().Bytes())})
	}
	for i := range n {
		txs = append(txs, &nativetestTx{nativetest.CalledByEntry(f.voters[i]),
			nativetest.CallScript(t, neoH, "vote", f.voters[i], f.cands[i].PublicKey().Bytes())})
	}
	f.block(t, txs)
	return f
}

type nativetestTx struct {
	signers []transaction.Signer
	script  []byte
}

func (f *electionFixture) block(t *testing.T, txs []*nativetestTx) *nativetest.BlockResult {
	t.Helper()
	var list []*transaction.Transaction
	for _, x := range txs {
		list = append(list, f.c.Tx(x.script, x.signers))
	}
	br := f.c.AddBlock(list...)
	for i, r := range br.Txs {
		require.True(t, nativetest.Bool(t, r.Halt(t)), "tx %d", i)
	}
	return br
}

func TestNEOVotes(t *testing.T) {
	f := newElection(t, nativetest.Options{}, 3)
	c := f.c
	total := f.votes[0] + f.votes[1] + f.votes[2]
	votersCount := func() int64 {
		v, err := c.DAO.GetBigInt(-5, []byte{1})
		require.NoError(t, err)
		return v.Int64()
	}
	require.Equal(t, total, votersCount())
	cl := candidateList(t, call(t, c, neoH, "getCandidates"))
	for i, k := range f.cands {
		require.Equal(t, f.votes[i], cl[string(k.PublicKey().Bytes())])
		require.Equal(t, f.votes[i], nativetest.Int(t, call(t, c, neoH, "getCandidateVote", k.PublicKey().Bytes())))
	}
	st := nativetest.Items(t, call(t, c, neoH, "getAccountState", f.voters[0]))
	require.Equal(t, f.cands[0].PublicKey().Bytes(), nativetest.Bytes(t, st[2]))

	v0, p0, p1 := f.voters[0], f.cands[0].PublicKey().Bytes(), f.cands[1].PublicKey().Bytes()
	t.Run("errors", func(t *testing.T) {
		mustBool(t, c.Invoke(nativetest.CalledByEntry(acc(1)), nativetest.CallScript(t, neoH, "vote", v0, p1)), false)
		mustBool(t, c.Invoke(nativetest.CalledByEntry(acc(1)), nativetest.CallScript(t, neoH, "vote", acc(1), p1)), false)
		unreg := nativetest.Key(t, "not a candidate").PublicKey().Bytes()
		mustBool(t, c.Invoke(nativetest.CalledByEntry(v0), nativetest.CallScript(t, neoH, "vote", v0, unreg)), false)
		c.Invoke(nativetest.CalledByEntry(v0), nativetest.CallScript(t, neoH, "vote", v0, []byte{3})).Faults(t, "unexpected EOF")
		c.Invoke(nativetest.CalledByEntry(v0), nativetest.CallScript(t, neoH, "vote", []byte{1}, p1)).Faults(t, "expected byte size of 20 got 1")
		require.Equal(t, total, votersCount())
	})
	t.Run("change", func(t *testing.T) {
		r := c.Invoke(nativetest.CalledByEntry(v0), nativetest.CallScript(t, neoH, "vote", v0, p1))
		mustBool(t, r, true)
		ev := r.EventsNamed(neoH, "Vote")
		require.Len(t, ev, 1)
		require.Equal(t, v0.BytesLE(), nativetest.Bytes(t, ev[0].Item.At(0)))
		require.Equal(t, p0, nativetest.Bytes(t, ev[0].Item.At(1)))
		require.Equal(t, p1, nativetest.Bytes(t, ev[0].Item.At(2)))
		require.Equal(t, f.votes[0], nativetest.Int(t, ev[0].Item.At(3)))
		require.Equal(t, int64(0), nativetest.Int(t, call(t, c, neoH, "getCandidateVote", p0)))
		require.Equal(t, f.votes[0]+f.votes[1], nativetest.Int(t, call(t, c, neoH, "getCandidateVote", p1)))
		require.Equal(t, total, votersCount())
		// The same vote again changes nothing but is a success.
		mustBool(t, c.Invoke(nativetest.CalledByEntry(v0), nativetest.CallScript(t, neoH, "vote", v0, p1)), true)
		require.Equal(t, f.votes[0]+f.votes[1], nativetest.Int(t, call(t, c, neoH, "getCandidateVote", p1)))
	})
	t.Run("transfer moves votes", func(t *testing.T) {
		mustBool(t, c.Invoke(nativetest.CalledByEntry(v0), nativetest.CallScript(t, neoH, "transfer", v0, acc(1), 1000, nil)), true)
		require.Equal(t, f.votes[0]+f.votes[1]-1000, nativetest.Int(t, call(t, c, neoH, "getCandidateVote", p1)))
		require.Equal(t, total-1000, votersCount())
	})
	t.Run("unvote", func(t *testing.T) {
		r := c.Invoke(nativetest.CalledByEntry(v0), nativetest.CallScript(t, neoH, "vote", v0, nil))
		mustBool(t, r, true)
		ev := r.EventsNamed(neoH, "Vote")
		require.Equal(t, stackitem.Null{}, ev[0].Item.At(2))
		require.Equal(t, total-f.votes[0], votersCount())
		st := nativetest.Items(t, call(t, c, neoH, "getAccountState", v0))
		require.Equal(t, stackitem.Null{}, st[2])
		require.Equal(t, int64(0), nativetest.Int(t, st[3]))
	})
	t.Run("unregistered candidate keeps votes", func(t *testing.T) {
		k2 := f.cands[2]
		mustBool(t, c.Invoke(nativetest.CalledByEntry(k2.ScriptHash()), nativetest.CallScript(t, neoH, "unregisterCandidate", k2.PublicKey().Bytes())), true)
		require.Equal(t, int64(-1), nativetest.Int(t, call(t, c, neoH, "getCandidateVote", k2.PublicKey().Bytes())))
		_, err := c.DAO.GetStorageItem(-5, append([]byte{33}, k2.PublicKey().Bytes()...))
		require.NoError(t, err, "a candidate with votes stays stored")
		// Its voter can leave it; then the record goes.
		mustBool(t, c.Invoke(nativetest.CalledByEntry(f.voters[2]), nativetest.CallScript(t, neoH, "vote", f.voters[2], nil)), true)
		_, err = c.DAO.GetStorageItem(-5, append([]byte{33}, k2.PublicKey().Bytes()...))
		require.Error(t, err)
	})
}

func TestNEOGetAllCandidatesAndBlocked(t *testing.T) {
	// Policy's blockAccount of Faun is not there yet (helper-11): Echidna.
	f := newElection(t, nativetest.Options{Hardforks: nativetest.Hardfork(protocol.HFEchidna, 0)}, 3)
	c := f.c
	r := c.Call(nil, nativetest.CallScript(t, neoH, "getAllCandidates")).Halt(t)
	it, ok := r.(*stackitem.Interop).Value().(interop.Iterator)
	require.True(t, ok)
	var got [][]byte
	for it.Next() {
		v, err := it.Value()
		require.NoError(t, err)
		kv := nativetest.Items(t, v)
		got = append(got, nativetest.Bytes(t, kv[0]))
	}
	// Storage order: the compressed keys' bytes.
	want := pubs(f.cands)
	slices.SortFunc(want, bytes.Compare)
	require.Equal(t, want, got)
	getCandidates := candidateList(t, call(t, c, neoH, "getCandidates"))
	require.Len(t, getCandidates, 3)

	// A blocked candidate is not a candidate (GetCandidatesInternal).
	blocked := f.cands[1]
	mustBool(t, c.Invoke(nativetest.CalledByEntry(c.CommitteeAddress()),
		nativetest.CallScript(t, nativetest.PolicyHash, "blockAccount", blocked.ScriptHash())), true)
	cl := candidateList(t, call(t, c, neoH, "getCandidates"))
	require.Len(t, cl, 2)
	require.NotContains(t, cl, string(blocked.PublicKey().Bytes()))
}

func TestNEOCommitteeElection(t *testing.T) {
	f := newElection(t, nativetest.Options{}, 7)
	c := f.c
	standby := pubs(c.Keys)
	// Until the refresh block (7) the standby committee stays.
	c.AddBlocks(4) // height 6
	require.Equal(t, sortedByPoint(t, standby), itemKeys(t, call(t, c, neoH, "getCommittee")))
	require.Equal(t, sortedByPoint(t, standby[:4]), itemKeys(t, call(t, c, neoH, "getNextBlockValidators")))
	require.Equal(t, multisig(t, sortedByPoint(t, standby), true), util.Uint160(nativetest.Bytes(t, call(t, c, neoH, "getCommitteeAddress"))))

	br := c.AddBlock() // 7: 42M ≥ 20M voted and 7 candidates: elected by votes
	elected := pubs(f.cands)
	slices.Reverse(elected) // votes grow with the index
	ev := br.OnPersist.EventsNamed(neoH, "CommitteeChanged")
	require.Len(t, ev, 1)
	require.Equal(t, standby, itemKeys(t, ev[0].Item.At(0)))
	require.Equal(t, elected, itemKeys(t, ev[0].Item.At(1)))
	require.Equal(t, sortedByPoint(t, elected), itemKeys(t, call(t, c, neoH, "getCommittee")))
	require.Equal(t, sortedByPoint(t, elected[:4]), itemKeys(t, call(t, c, neoH, "getNextBlockValidators")))
	require.Equal(t, multisig(t, sortedByPoint(t, elected), true), util.Uint160(nativetest.Bytes(t, call(t, c, neoH, "getCommitteeAddress"))))
	// The committee reward of block 7 goes to member 7 % 7 = 0 of the
	// election order.
	reward := int64(neostate.DefaultGASPerBlock * neostate.CommitteeRewardRatio / 100)
	require.Equal(t, reward, balance(t, c, gasH, f.cands[6].ScriptHash()))

	// Votes change at block 8; the committee follows only at 14.
	mustBool(t, c.Invoke(nativetest.CalledByEntry(f.voters[6]), nativetest.CallScript(t, neoH, "vote", f.voters[6], nil)), true)
	c.AddBlocks(5) // 13
	require.Equal(t, sortedByPoint(t, elected), itemKeys(t, call(t, c, neoH, "getCommittee")))
	br = c.AddBlock() // 14: 33M voted, but only 6 candidates have votes; all 7 are registered
	require.Len(t, br.OnPersist.EventsNamed(neoH, "CommitteeChanged"), 1)
	// cand 6 now has 0 votes: last of the committee (ties broken by key).
	newOrder := append(slices.Clone(elected[1:]), elected[0])
	require.Equal(t, sortedByPoint(t, newOrder[:4]), itemKeys(t, call(t, c, neoH, "getNextBlockValidators")))
	// An unchanged committee emits nothing.
	c.AddBlocks(6)
	require.Empty(t, c.AddBlock().OnPersist.EventsNamed(neoH, "CommitteeChanged")) // 21

	// Fewer than 7 registered candidates: back to the standby committee.
	k := f.cands[3]
	mustBool(t, c.Invoke(nativetest.CalledByEntry(k.ScriptHash()), nativetest.CallScript(t, neoH, "unregisterCandidate", k.PublicKey().Bytes())), true)
	c.AddBlocks(5) // 27
	br = c.AddBlock()
	require.Len(t, br.OnPersist.EventsNamed(neoH, "CommitteeChanged"), 1)
	require.Equal(t, sortedByPoint(t, standby), itemKeys(t, call(t, c, neoH, "getCommittee")))
}

// voterRewardPerMember is NeoToken.PostPersistAsync's
// gasPerBlock × VoterRewardRatio × VoteFactor × m / (m + n) / 100.
func voterRewardPerMember(gasPerBlock int64, m, n int) *big.Int {
	r := big.NewInt(gasPerBlock)
	r.Mul(r, big.NewInt(80))
	r.Mul(r, big.NewInt(100_000_000))
	r.Mul(r, big.NewInt(int64(m)))
	r.Quo(r, big.NewInt(int64(m+n)))
	return r.Quo(r, big.NewInt(100))
}

// holderReward is CalculateReward's holder part for a constant GAS per
// block.
func holderReward(balance, gasPerBlock, blocks int64) *big.Int {
	r := big.NewInt(balance)
	r.Mul(r, big.NewInt(gasPerBlock*blocks))
	r.Mul(r, big.NewInt(10))
	r.Quo(r, big.NewInt(100))
	return r.Quo(r, big.NewInt(neostate.NEOTotalSupply))
}

func TestNEOVoterRewards(t *testing.T) {
	f := newElection(t, nativetest.Options{}, 7)
	c := f.c
	c.AddBlocks(5) // 7: elected, first voter reward
	per := voterRewardPerMember(neostate.DefaultGASPerBlock, 7, 4)
	gpv := func(i int, times int64) *big.Int {
		// Election order is reversed: candidate 6 is member 0. Members 0..3
		// are validators and earn twice.
		factor := int64(1)
		if 6-i < 4 {
			factor = 2
		}
		g := new(big.Int).Mul(per, big.NewInt(factor))
		g.Quo(g, big.NewInt(f.votes[i]))
		return g.Mul(g, big.NewInt(times))
	}
	stored := func(i int) *big.Int {
		v, err := c.DAO.GetBigInt(-5, append([]byte{23}, f.cands[i].PublicKey().Bytes()...))
		require.NoError(t, err)
		return v
	}
	for i := range f.cands {
		require.Equal(t, gpv(i, 1), stored(i), "candidate %d", i)
	}
	c.AddBlocks(7) // 14: second reward
	for _, i := range []int{0, 6} {
		require.Equal(t, gpv(i, 2), stored(i))
		// Voter i voted at block 2 (balance height 2, last GAS per vote 0).
		end := c.Height() + 1
		want := holderReward(f.votes[i], neostate.DefaultGASPerBlock, int64(end-2))
		want.Add(want, new(big.Int).Quo(new(big.Int).Mul(big.NewInt(f.votes[i]), gpv(i, 2)), big.NewInt(100_000_000)))
		require.Equal(t, want, nativetest.BigInt(t, call(t, c, neoH, "unclaimedGas", f.voters[i], end)), "voter %d", i)
		// Claiming with a zero transfer pays exactly that.
		before := balance(t, c, gasH, f.voters[i])
		mustBool(t, c.Invoke(nativetest.CalledByEntry(f.voters[i]), nativetest.CallScript(t, neoH, "transfer", f.voters[i], f.voters[i], 0, nil)), true)
		require.Equal(t, before+want.Int64(), balance(t, c, gasH, f.voters[i]))
		st := nativetest.Items(t, call(t, c, neoH, "getAccountState", f.voters[i]))
		require.Equal(t, gpv(i, 2), nativetest.BigInt(t, st[3]), "last GAS per vote")
	}
}

func TestNEOGasPerBlockAndRegisterPrice(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	com := nativetest.CalledByEntry(c.CommitteeAddress())
	require.Equal(t, int64(neostate.DefaultGASPerBlock), nativetest.Int(t, call(t, c, neoH, "getGasPerBlock")))
	for _, bad := range []int64{-1, neostate.MaxGASPerBlock + 1} {
		c.Invoke(com, nativetest.CallScript(t, neoH, "setGasPerBlock", bad)).Faults(t, "invalid value for GASPerBlock")
	}
	c.Invoke(nativetest.CalledByEntry(acc(1)), nativetest.CallScript(t, neoH, "setGasPerBlock", 1)).Faults(t, "committee")
	bft := c.ValidatorsAddress()
	mustBool(t, c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, neoH, "transfer", bft, acc(1), 1_000_000, nil)), true) // block 4
	h := c.Height() + 1
	br := c.AddBlock(c.Tx(nativetest.CallScript(t, neoH, "setGasPerBlock", 3_0000_0000), com)) // block 5
	require.Equal(t, 1, len(br.Txs))
	require.Len(t, br.Txs[0].Stack, 1) // Void through System.Contract.Call: Null
	// The record is for the next block, but PostPersist runs after Ledger
	// made this block current and reads the value for the next one, so the
	// committee reward of the block that set it already uses the new value
	// (neo-go 0.120.0 on scripts/neogo-diffchain.sh's chain, block 14 of
	// testdata/neogo-diff/staggered in pkg/core/chain).
	ev := br.PostPersist.EventsNamed(gasH, "Transfer")
	require.Len(t, ev, 1)
	require.Equal(t, int64(3_0000_0000/10), nativetest.Int(t, ev[0].Item.At(2)))
	require.Equal(t, int64(3_0000_0000), nativetest.Int(t, call(t, c, neoH, "getGasPerBlock")))
	br = c.AddBlock() // 6
	require.Equal(t, int64(3_0000_0000/10), nativetest.Int(t, br.PostPersist.EventsNamed(gasH, "Transfer")[0].Item.At(2)))
	c.AddBlocks(3) // 9
	// Holder reward across the change: blocks 4..5 at 5 GAS, 6..10 at 3.
	end := c.Height() + 1
	want := holderReward(1_000_000, 5_0000_0000, int64(h+1-4))
	want.Add(want, holderReward(1_000_000, 3_0000_0000, int64(end-(h+1))))
	require.Equal(t, want, nativetest.BigInt(t, call(t, c, neoH, "unclaimedGas", acc(1), end)))

	// Register price.
	for _, bad := range []int64{0, -1} {
		c.Invoke(com, nativetest.CallScript(t, neoH, "setRegisterPrice", bad)).Faults(t, "invalid register price")
	}
	c.Invoke(nativetest.CalledByEntry(acc(1)), nativetest.CallScript(t, neoH, "setRegisterPrice", 5)).Faults(t, "committee")
	c.Invoke(com, nativetest.CallScript(t, neoH, "setRegisterPrice", 5)).Halt(t)
	require.Equal(t, int64(5), nativetest.Int(t, call(t, c, neoH, "getRegisterPrice")))
	k := nativetest.Key(t, "cheap")
	r := c.Invoke(nativetest.CalledByEntry(k.ScriptHash()), nativetest.CallScript(t, neoH, "registerCandidate", k.PublicKey().Bytes()))
	mustBool(t, r, true)
	require.Less(t, r.GasConsumed, int64(neostate.DefaultRegisterPrice))
}

func TestNEOMethodsByHardfork(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{Hardforks: nativetest.Hardfork(protocol.HFBasilisk, 0)})
	c.Call(nil, nativetest.CallScript(t, neoH, "getCommitteeAddress")).Faults(t, "")
	c.Call(nil, nativetest.CallScript(t, neoH, "onNEP17Payment", acc(1), 1, nil)).Faults(t, "")
	// No CommitteeChanged before Cockatrice: covered by the election test
	// with all hardforks; here the refresh of an unchanged committee.
	c.AddBlocks(6)
	require.Empty(t, c.AddBlock().OnPersist.Events)
}

// RevokeVote is VoteInternal(account, null) for Policy's Faun
// blockAccount: then runs once, after the claimed GAS reached a contract
// voter's onNEP17Payment.
func TestNEORevokeVote(t *testing.T) {
	c := nativetest.New(t, nativetest.Options{})
	bft := c.ValidatorsAddress()
	proxy := acc(0x73)
	c.Proxy(proxy, 1)
	k := nativetest.Key(t, "candidate")
	pub := k.PublicKey().Bytes()
	mustBool(t, c.Invoke(nativetest.CalledByEntry(k.ScriptHash()), nativetest.CallScript(t, neoH, "registerCandidate", pub)), true)
	mustBool(t, c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, neoH, "transfer", bft, proxy, 1000, nil)), true)
	mustBool(t, c.Invoke(nil, nativetest.ProxyCall(t, proxy, neoH, "vote", proxy, pub)), true)
	c.AddBlocks(3)
	require.Equal(t, int64(1000), nativetest.Int(t, call(t, c, neoH, "getCandidateVote", pub)))

	revoke := func(who util.Uint160) (int, []string) {
		d := c.DAO.Private()
		ic := c.Context(d, c.NextBlock(), trigger.Application, nil, -1)
		_, err := ic.LoadScript([]byte{byte(opcode.RET)}, callflag.All, -1, 0)
		require.NoError(t, err)
		calls := 0
		require.NoError(t, c.Gov.NEO.RevokeVote(ic, who, func(ic *interop.Context) error {
			calls++
			// The contract's onNEP17Payment ran before.
			if who == proxy {
				require.Equal(t, "Payment", ic.Notifications()[len(ic.Notifications())-1].Name)
			}
			return nil
		}))
		require.NoError(t, ic.Run())
		require.NoError(t, d.Persist())
		var names []string
		for _, e := range ic.Notifications() {
			names = append(names, e.Name)
		}
		return calls, names
	}
	calls, names := revoke(proxy)
	require.Equal(t, 1, calls)
	require.Equal(t, []string{"Vote", "Transfer", "Payment"}, names)
	require.Equal(t, int64(0), nativetest.Int(t, call(t, c, neoH, "getCandidateVote", pub)))
	// Nothing to revoke: then still runs once, nothing is notified.
	calls, names = revoke(acc(9))
	require.Equal(t, 1, calls)
	require.Empty(t, names)
}

// From Gorgon, votes that change in the refresh block itself count for
// the voter reward of that block (neo-go f5896a0, port of neo PR 4569):
// GAS per vote = factor × per-member reward / current votes; before, the
// votes elected in the block's OnPersist.
func TestNEOGorgonVoterRewardRecount(t *testing.T) {
	for _, gorgon := range []bool{false, true} {
		t.Run(fmt.Sprint("gorgon=", gorgon), func(t *testing.T) {
			hf := nativetest.Hardfork(protocol.HFFaun, 0)
			if gorgon {
				hf = nativetest.Hardfork(protocol.HFGorgon, 0)
			}
			f := newElection(t, nativetest.Options{Hardforks: hf}, 7)
			c := f.c
			c.AddBlocks(4) // 6
			bft := c.ValidatorsAddress()
			const extra = 50_000_000
			br := c.AddBlock(c.Tx(nativetest.CallScript(t, neoH, "transfer", bft, f.voters[0], extra, nil), nativetest.CalledByEntry(bft))) // 7
			require.True(t, nativetest.Bool(t, br.Txs[0].Halt(t)))
			per := voterRewardPerMember(neostate.DefaultGASPerBlock, 7, 4)
			gpv := func(i int, votes int64) *big.Int {
				factor := int64(1)
				if 6-i < 4 {
					factor = 2
				}
				g := new(big.Int).Mul(per, big.NewInt(factor))
				return g.Quo(g, big.NewInt(votes))
			}
			stored := func(i int) *big.Int {
				v, err := c.DAO.GetBigInt(-5, append([]byte{23}, f.cands[i].PublicKey().Bytes()...))
				require.NoError(t, err)
				return v
			}
			want := gpv(0, f.votes[0])
			if gorgon {
				want = gpv(0, f.votes[0]+extra)
			}
			require.Equal(t, want, stored(0))
			require.Equal(t, gpv(6, f.votes[6]), stored(6), "unchanged votes are the same either way")
		})
	}
}

// From Faun, blocking a voter revokes its vote (PolicyContract
// BlockAccountInternal → NeoToken.VoteInternal(account, null)).
func TestNEOFaunBlockRevokesVote(t *testing.T) {
	f := newElection(t, nativetest.Options{Hardforks: nativetest.Hardfork(protocol.HFFaun, 0)}, 2)
	c := f.c
	p0 := f.cands[0].PublicKey().Bytes()
	r := c.Invoke(nativetest.CalledByEntry(c.CommitteeAddress()), nativetest.CallScript(t, nativetest.PolicyHash, "blockAccount", f.voters[0]))
	mustBool(t, r, true)
	ev := r.EventsNamed(neoH, "Vote")
	require.Len(t, ev, 1)
	require.Equal(t, stackitem.Null{}, ev[0].Item.At(2))
	require.Equal(t, int64(0), nativetest.Int(t, call(t, c, neoH, "getCandidateVote", p0)))
	st := nativetest.Items(t, call(t, c, neoH, "getAccountState", f.voters[0]))
	require.Equal(t, stackitem.Null{}, st[2])
}
