package node

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// generatedChain is the single-validator privnet with blocks made by
// `db generate` from seed.
func generatedChain(t *testing.T, blocks uint32, seed string) *chain.Chain {
	cfg := singleConfig(t, false, time.Second)
	natives, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: natives})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	if blocks > 0 {
		_, err = chain.Generate(context.Background(), c, io.Discard, chain.GenerateOptions{Blocks: blocks,
			TxPerBlock: -1, Seed: seed, Validators: []*keys.PrivateKey{validatorKey(t, cfg)}})
		require.NoError(t, err)
	}
	return c
}

// The block the validators agreed on often reaches the chain from the
// network first: handing it to the chain again is no consensus failure
// (it was logged as one on every such block), but another block at that
// height still is.
func TestAddAgreedBlock(t *testing.T) {
	a := generatedChain(t, 1, "a")
	b := generatedChain(t, 1, "b")
	c := generatedChain(t, 0, "")
	ours, err := a.GetBlockByIndex(1)
	require.NoError(t, err)
	other, err := b.GetBlockByIndex(1)
	require.NoError(t, err)
	require.NotEqual(t, ours.Hash(), other.Hash())

	require.NoError(t, addAgreedBlock(c, ours))
	require.NoError(t, addAgreedBlock(c, ours), "the same block again")
	err = addAgreedBlock(c, other)
	require.ErrorIs(t, err, chain.ErrAlreadyExists, "another block at the height")
	require.Equal(t, uint32(1), c.BlockHeight())
}

func keyStrings(ks ...*keys.PublicKey) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.String()
	}
	return out
}

// voteTx registers cand as a candidate and votes for it with the single
// validator's 1-of-1 multisig account (which holds the genesis NEO): the
// account and the candidate both sign.
func voteTx(t *testing.T, svc *Node, key, cand *keys.PrivateKey) *transaction.Transaction {
	t.Helper()
	verif, err := scripts.MultiSigContract(1, keys.PublicKeys{key.PublicKey()})
	require.NoError(t, err)
	from := scripts.ScriptHash(verif)
	neo := svc.natives.Governance.NEO.Metadata().Hash
	pub := cand.PublicKey().Bytes()
	script, err := emit.NewBuilder().
		AppCall(neo, "registerCandidate", byte(callflag.All), pub).Opcodes(opcode.ASSERT).
		AppCall(neo, "vote", byte(callflag.All), from, pub).Opcodes(opcode.ASSERT).Script()
	require.NoError(t, err)
	tx := &transaction.Transaction{Nonce: 42, SystemFee: 1001_0000_0000, NetworkFee: 1_0000_0000,
		ValidUntilBlock: svc.chain.BlockHeight() + 100, Script: script,
		Signers: []transaction.Signer{{Account: from, Scopes: transaction.CalledByEntry},
			{Account: cand.PublicKey().ScriptHash(), Scopes: transaction.CalledByEntry}}}
	data := tx.SignData(uint32(svc.chain.Config().Magic))
	push := func(k *keys.PrivateKey) []byte { return append([]byte{byte(opcode.PUSHDATA1), 64}, k.Sign(data)...) }
	tx.Witnesses = []transaction.Witness{{InvocationScript: push(key), VerificationScript: verif},
		{InvocationScript: push(cand), VerificationScript: cand.PublicKey().VerificationScript()}}
	tx.InvalidateCache()
	return tx
}

// At a committee refresh height the proposal's NextConsensus is the
// address of the validators the votes elect (NEO's
// ComputeNextBlockValidators), as neo-go and the C# node compute it; with
// the current validators instead, mixed validators sign different headers
// once votes change the set. On the single-validator privnet every block
// refreshes the committee: a vote for a new candidate makes it the
// validator of the block after the next.
func TestNextConsensusFollowsVotes(t *testing.T) {
	cfg := singleConfig(t, true, 200*time.Millisecond)
	key := validatorKey(t, cfg)
	r := startNode(t, cfg)
	c := r.n.chain
	cand, err := keys.NewPrivateKey()
	require.NoError(t, err)

	elected, err := c.ComputeNextBlockValidators()
	require.NoError(t, err)
	require.Equal(t, keyStrings(key.PublicKey()), keyStrings(elected...), "no votes: the standby validator")

	tx := voteTx(t, r.n, key, cand)
	r.result("sendrawtransaction", txBase64(t, tx))
	var height uint32
	require.Eventually(t, func() bool {
		_, h, err := c.GetTransaction(tx.Hash())
		height = h
		return err == nil
	}, 20*time.Second, 10*time.Millisecond, "the vote was not included")
	require.Eventually(t, func() bool { return c.BlockHeight() > height }, 20*time.Second, 10*time.Millisecond,
		"no block after the vote")

	next, err := c.GetBlockByIndex(height + 1)
	require.NoError(t, err)
	want, err := scripts.DefaultMultiSigContract(keys.PublicKeys{cand.PublicKey()})
	require.NoError(t, err)
	require.Equal(t, scripts.ScriptHash(want), next.NextConsensus, "NextConsensus of block %d", next.Index)
	vals, err := c.NextBlockValidators()
	require.NoError(t, err)
	require.Equal(t, keyStrings(cand.PublicKey()), keyStrings(vals...))
}
