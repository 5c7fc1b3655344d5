package chain

import (
	"errors"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/stretchr/testify/require"
)

// defaultPicoFee is the Policy contract's initial ExecFeeFactor (30) in
// picoGAS, the factor every conformance block is verified with.
const defaultPicoFee = 30 * vm.FeeFactor

// refChainBlocks decodes every block of a reference chain, genesis built by
// us (its equality with the reference is TestGenesisMatchesReference's job).
func refChainBlocks(t *testing.T, name string) []*block.Block {
	t.Helper()
	cfg := loadProtocol(t, name)
	g, err := GenesisBlock(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	out := []*block.Block{g}
	for _, rb := range refBlocks(t, name)[1:] {
		b, err := block.NewBlockFromBytes(rb.Raw)
		require.NoError(t, err)
		require.Equal(t, rb.Hash, b.Hash().String())
		out = append(out, b)
	}
	return out
}

func newTestHeaderVerifier(t *testing.T, name string, vmv WitnessVM) *headerVerifier {
	cfg := loadProtocol(t, name)
	p := cfg.ProtocolConfiguration
	return &headerVerifier{magic: uint32(p.Magic), validatorsAt: p.ValidatorsCountAt, vm: vmv}
}

func TestVerifyHeaderReferenceChains(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		t.Run(name, func(t *testing.T) {
			cfg := loadProtocol(t, name)
			v := newTestHeaderVerifier(t, name, nil)
			blocks := refChainBlocks(t, name)
			for i := 1; i < len(blocks); i++ {
				require.NoError(t, v.verifyHeader(&blocks[i].Header, &blocks[i-1].Header, util.Uint256{}, defaultPicoFee), "block %d", i)
				require.NoError(t, checkBlockLimits(blocks[i], cfg.ProtocolConfiguration.MaxBlockSize,
					cfg.ProtocolConfiguration.MaxTransactionsPerBlock), "block %d", i)
			}
		})
	}
}

// corrupt returns a copy of the header of b with f applied.
func corrupt(b *block.Block, f func(h *block.Header)) *block.Header {
	h := b.Header
	h.Witness = b.Witness.Copy()
	f(&h)
	h.InvalidateCache()
	return &h
}

func TestVerifyHeaderRejects(t *testing.T) {
	blocks := refChainBlocks(t, "chain50x2")
	v := newTestHeaderVerifier(t, "chain50x2", nil)
	prev, cur := &blocks[4].Header, blocks[5]
	cases := map[string]struct {
		f   func(h *block.Header)
		err error
	}{
		"primary":    {func(h *block.Header) { h.PrimaryIndex = 4 }, ErrHeaderPrimary},
		"index":      {func(h *block.Header) { h.Index++ }, ErrHeaderIndex},
		"prev hash":  {func(h *block.Header) { h.PrevHash[0] ^= 1 }, ErrHeaderPrevHash},
		"timestamp":  {func(h *block.Header) { h.Timestamp = prev.Timestamp }, ErrHeaderTimestamp},
		"nonce":      {func(h *block.Header) { h.Nonce++ }, ErrWitness},
		"signature":  {func(h *block.Header) { h.Witness.InvocationScript[10] ^= 1 }, ErrWitness},
		"one sig":    {func(h *block.Header) { h.Witness.InvocationScript = h.Witness.InvocationScript[:66] }, ErrWitness},
		"other acct": {func(h *block.Header) { h.Witness.VerificationScript[5] ^= 1 }, ErrWitness},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			h := corrupt(cur, c.f)
			err := v.verifyHeader(h, prev, util.Uint256{}, defaultPicoFee)
			require.ErrorIs(t, err, c.err)
		})
	}
	// Too little GAS for the multisig check (limit in datoshi, factor absurd).
	err := v.verifyHeader(&cur.Header, prev, util.Uint256{}, HeaderVerificationGasLimit*vm.FeeFactor)
	require.ErrorIs(t, err, ErrWitness)
	require.NoError(t, v.verifyHeader(&cur.Header, prev, util.Uint256{}, defaultPicoFee))
}

type fakeVM struct {
	calls int
	err   error
}

func (f *fakeVM) VerifyWitnessVM(_ any, _ util.Uint160, _ *transaction.Witness, gasLimit int64) (int64, error) {
	f.calls++
	if gasLimit != MaxVerificationGas {
		return 0, errors.New("wrong limit")
	}
	return 7, f.err
}

func TestVerifyHeaderNonStandardGoesToVM(t *testing.T) {
	blocks := refChainBlocks(t, "chain50x2")
	prev, cur := &blocks[1].Header, blocks[2]
	// A NOP in front of the signatures: no longer a plain list of pushes.
	h := corrupt(cur, func(h *block.Header) {
		h.Witness.InvocationScript = append([]byte{0x21}, h.Witness.InvocationScript...)
	})
	v := newTestHeaderVerifier(t, "chain50x2", nil)
	require.ErrorIs(t, v.verifyHeader(h, prev, util.Uint256{}, defaultPicoFee), ErrWitness)
	f := &fakeVM{}
	v.vm = f
	require.NoError(t, v.verifyHeader(h, prev, util.Uint256{}, defaultPicoFee))
	require.Equal(t, 1, f.calls)
	f.err = errors.New("HALT with false")
	require.ErrorIs(t, v.verifyHeader(h, prev, util.Uint256{}, defaultPicoFee), ErrWitness)
	// Standard witnesses never reach the VM.
	require.NoError(t, v.verifyHeader(&cur.Header, prev, util.Uint256{}, defaultPicoFee))
	require.Equal(t, 2, f.calls)
}

// TestWitnessFeeMatchesNetworkFee checks the fast path's fee arithmetic
// against the reference: a transaction's network fee is its size times the
// default FeePerByte (1000) plus the verification fee of its witnesses.
func TestWitnessFeeMatchesNetworkFee(t *testing.T) {
	const feePerByte = 1000
	checked, exact := 0, 0
	for _, name := range conformance.Chains(t) {
		cfg := loadProtocol(t, name)
		for _, b := range refChainBlocks(t, name)[1:] {
			for _, tx := range b.Transactions {
				p := witnessParams{signData: tx.SignData(uint32(cfg.ProtocolConfiguration.Magic)),
					picoFee: defaultPicoFee, gasLimit: 1_50000000}
				var total int64
				standard := true
				for i := range tx.Witnesses {
					fee, handled, err := fastWitness(p, &tx.Witnesses[i])
					if !handled {
						standard = false
						break
					}
					require.NoError(t, err, "tx %s", tx.Hash().String())
					total += fee
				}
				if !standard {
					continue
				}
				// Some senders overpay a round figure; none may underpay.
				require.LessOrEqual(t, int64(tx.Size())*feePerByte+total, tx.NetworkFee, "tx %s", tx.Hash().String())
				if tx.NetworkFee == int64(tx.Size())*feePerByte+total {
					exact++
				}
				checked++
			}
		}
	}
	// Some reference transactions were built with calculatenetworkfee.
	require.Positive(t, exact)
	t.Logf("%d of %d standard transactions pay exactly the computed fee", exact, checked)
}
