package chain

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/n3d-io/n3d/internal/testwallet"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chaindump"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// unitTestnet is the repository's unit_testnet configuration: four
// validators whose keys are neo-go's privnet wallets in pkg/wallet/testdata.
func unitTestnet(t testing.TB) config.Config {
	data, ok := config.Embedded(config.NetUnitTestNet)
	require.True(t, ok)
	cfg, err := config.Parse(data, "")
	require.NoError(t, err)
	return cfg
}

var (
	testKeysOnce sync.Once
	testKeys     []*keys.PrivateKey
)

// validatorKeys decrypts the first n of neo-go's four privnet validator
// wallets (passwords published in neo-go's configs, see the testdata
// README); the first three are decrypted once per test binary (scrypt is
// slow).
func validatorKeys(t testing.TB, n int) []*keys.PrivateKey {
	t.Helper()
	if n <= 3 {
		testKeysOnce.Do(func() { testKeys = decryptValidatorKeys(t, 3) })
		require.Len(t, testKeys, 3)
		return testKeys[:n]
	}
	return decryptValidatorKeys(t, n)
}

func decryptValidatorKeys(t testing.TB, n int) []*keys.PrivateKey {
	passwords := []string{"one", "two", "three", "four"}
	out := make([]*keys.PrivateKey, n)
	for i := range n {
		out[i] = testwallet.Key(t, filepath.Join("..", "..", "wallet", "testdata",
			fmt.Sprintf("neogo_wallet%d.json", i+1)), passwords[i])
	}
	return out
}

// openMemChain opens a chain of the configuration over an in-memory store.
func openMemChain(t testing.TB, cfg config.Config) *Chain {
	t.Helper()
	n, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: n, BloomCapacity: 10000})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, c.Close()) })
	return c
}

// generateDump generates a chain of blocks on a fresh in-memory chain and
// returns the dump and the chain.
func generateDump(t testing.TB, blocks uint32, keys []*keys.PrivateKey) ([]byte, *Chain, GenerateResult) {
	t.Helper()
	cfg := unitTestnet(t)
	c := openMemChain(t, cfg)
	var buf bytes.Buffer
	res, err := Generate(context.Background(), c, &buf, GenerateOptions{Blocks: blocks, Validators: keys})
	require.NoError(t, err)
	return buf.Bytes(), c, res
}

// TestGenerateRestores generates a 200-block chain, restores it into a
// fresh chain with full verification and execution and compares every
// block's state root.
func TestGenerateRestores(t *testing.T) {
	const blocks = 200
	dump, gen, res := generateDump(t, blocks, validatorKeys(t, 3))
	require.EqualValues(t, blocks, res.Height)
	require.Equal(t, 1+(blocks-1)*(DefaultGenerateTxPerBlock)+1, res.Transactions) // setup, deploy, workload

	d, err := chaindump.NewReader(bytes.NewReader(dump))
	require.NoError(t, err)
	require.Equal(t, chaindump.Plain, d.Format())
	require.EqualValues(t, blocks+1, d.Count())

	c := openMemChain(t, unitTestnet(t))
	r, err := Restore(context.Background(), c, bytes.NewReader(dump), RestoreOptions{})
	require.NoError(t, err)
	require.EqualValues(t, blocks, r.Added)
	require.EqualValues(t, 1, r.Skipped) // the genesis
	for i := uint32(0); i <= blocks; i++ {
		want, err := gen.StateRoot(i)
		require.NoError(t, err)
		got, err := c.StateRoot(i)
		require.NoError(t, err)
		require.Equal(t, want.Root, got.Root, "state root of block %d", i)
	}
	require.Equal(t, gen.CurrentBlockHash(), c.CurrentBlockHash())

	// The workload wrote the storage contract's items and moved NEO: the
	// chain does more than its natives' housekeeping.
	diffs := 0
	for i := uint32(3); i <= blocks; i++ {
		a, _ := c.StateRoot(i - 1)
		b, _ := c.StateRoot(i)
		if a.Root != b.Root {
			diffs++
		}
	}
	require.Equal(t, blocks-2, diffs)
}

// TestGenerateDeterministic: the same options give the same dump.
func TestGenerateDeterministic(t *testing.T) {
	ks := validatorKeys(t, 3)
	a, _, _ := generateDump(t, 12, ks)
	b, _, _ := generateDump(t, 12, ks)
	require.Equal(t, a, b)
}

// TestGenerateErrors: too few validator keys and a chain that is not
// fresh are refused.
func TestGenerateErrors(t *testing.T) {
	ks := validatorKeys(t, 3)
	c := openMemChain(t, unitTestnet(t))
	_, err := Generate(context.Background(), c, &bytes.Buffer{}, GenerateOptions{Blocks: 1, Validators: ks[:2]})
	require.ErrorIs(t, err, ErrGenerate)

	_, err = Generate(context.Background(), c, &bytes.Buffer{}, GenerateOptions{Blocks: 1, Validators: ks})
	require.NoError(t, err)
	_, err = Generate(context.Background(), c, &bytes.Buffer{}, GenerateOptions{Blocks: 1, Validators: ks})
	require.ErrorIs(t, err, ErrGenerate)
}

// TestInvalidBlockLeavesNoTrace: a block with a valid header and a
// transaction whose signature is wrong, or with a forged header witness, is
// refused both by AddBlock (header first, transactions beside the
// execution) and by the restore path (everything beside the execution),
// and the speculative execution leaves nothing behind: same height and
// state root, and the valid block is accepted afterwards.
func TestInvalidBlockLeavesNoTrace(t *testing.T) {
	c := openMemChain(t, unitTestnet(t))
	g, err := newGenerator(c, GenerateOptions{Validators: validatorKeys(t, 3)})
	require.NoError(t, err)
	for range 3 {
		_, err := g.nextBlock()
		require.NoError(t, err)
	}
	height, root := c.BlockHeight(), c.CurrentStateRoot()
	b, err := g.buildBlock()
	require.NoError(t, err)
	require.NotEmpty(t, b.Transactions)

	// A witness does not take part in the transaction hash, so the header
	// stays valid.
	inv := b.Transactions[1].Witnesses[0].InvocationScript
	good := inv[10]
	inv[10] ^= 0xff
	for _, speculative := range []bool{false, true} {
		err := c.add(b, speculative)
		require.ErrorIs(t, err, ErrWitness, "speculative %v", speculative)
		require.ErrorContains(t, err, b.Transactions[1].Hash().String())
		require.Equal(t, height, c.BlockHeight())
		require.Equal(t, root, c.CurrentStateRoot())
	}
	inv[10] = good

	hw := b.Witness.InvocationScript
	hw[5] ^= 0xff
	for _, speculative := range []bool{false, true} {
		require.ErrorIs(t, c.add(b, speculative), ErrWitness, "speculative %v", speculative)
		require.Equal(t, height, c.BlockHeight())
		require.Equal(t, root, c.CurrentStateRoot())
	}
	hw[5] ^= 0xff

	require.NoError(t, c.AddBlock(b))
	require.NoError(t, g.checkResults(b))
	require.Equal(t, height+1, c.BlockHeight())
}
