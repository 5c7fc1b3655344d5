package chain

import (
	"bytes"
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chaindump"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// TestCheckMultiSigMatchesScripts: the cached multisignature walk gives
// scripts.VerifyMultiSig's outcome for valid, misordered, forged and
// malformed signature lists, the first time (cache filled) and the second
// (answered from the cache), and without a cache.
func TestCheckMultiSigMatchesScripts(t *testing.T) {
	const n = 4
	var privs []*keys.PrivateKey
	var pubs keys.PublicKeys
	for range n {
		p, err := keys.NewPrivateKey()
		require.NoError(t, err)
		privs = append(privs, p)
		pubs = append(pubs, p.PublicKey())
	}
	digest := hash.Sha256([]byte("message"))
	sig := func(i int) []byte { return privs[i].SignHash(digest) }
	forged := sig(2)
	forged[5] ^= 1
	cases := map[string][][]byte{
		"3 of 4 in order":  {sig(0), sig(1), sig(3)},
		"3 of 4 last keys": {sig(1), sig(2), sig(3)},
		"misordered":       {sig(1), sig(0), sig(3)},
		"forged":           {sig(0), forged, sig(3)},
		"repeated":         {sig(0), sig(0), sig(1)},
		"4 of 4":           {sig(0), sig(1), sig(2), sig(3)},
		"too many":         {sig(0), sig(1), sig(2), sig(3), sig(0)},
		"none":             {},
	}
	cache := keys.NewSigCache(16)
	for name, sigs := range cases {
		want, wantErr := scripts.VerifyMultiSig(digest[:], pubs, sigs)
		for _, c := range []*keys.SigCache{nil, cache, cache} {
			got, err := checkMultiSig(c, digest[:], pubs, sigs)
			require.Equal(t, want, got, name)
			if wantErr != nil {
				require.ErrorIs(t, err, scripts.ErrMultisigParams, name)
			} else {
				require.NoError(t, err, name)
			}
		}
	}
}

// TestRestoreRejectsForgedTxSignature: a transaction signature altered in
// the dump fails pre-verification (nothing is remembered) and the block is
// refused by its own verification, the blocks before it kept.
func TestRestoreRejectsForgedTxSignature(t *testing.T) {
	dump, _, _ := generateDump(t, 6, validatorKeys(t, 3))
	d, err := chaindump.NewReader(bytes.NewReader(dump))
	require.NoError(t, err)
	var raw []byte
	for range 6 { // genesis .. block 5
		raw, err = d.Next()
		require.NoError(t, err)
	}
	b, err := block.NewBlockFromBytes(bytes.Clone(raw))
	require.NoError(t, err)
	require.EqualValues(t, 5, b.Index)
	require.NotEmpty(t, b.Transactions)
	inv := b.Transactions[len(b.Transactions)-1].Witnesses[0].InvocationScript
	at := bytes.Index(dump, inv)
	require.Positive(t, at)
	bad := bytes.Clone(dump)
	bad[at+10] ^= 0xff

	c := openMemChain(t, unitTestnet(t))
	_, err = Restore(context.Background(), c, bytes.NewReader(bad), RestoreOptions{})
	require.ErrorIs(t, err, ErrWitness)
	require.EqualValues(t, 4, c.BlockHeight())
}

// TestRestoreStopsPreverify: the read-ahead and pre-verification goroutines
// end with Restore, whether it finishes, fails or is cancelled.
func TestRestoreStopsPreverify(t *testing.T) {
	acc := accFile(t, "chain50x2")
	before := runtime.NumGoroutine()
	for _, stopAt := range []uint32{0, 3} {
		c, err := Open(testConfig(t, "chain50x2", storage.NewMemoryStore()))
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		_, err = Restore(ctx, c, bytes.NewReader(acc), RestoreOptions{OnBlock: func(b *block.Block) error {
			if b.Index == stopAt {
				cancel()
			}
			return nil
		}})
		cancel()
		if stopAt != 0 {
			require.ErrorIs(t, err, context.Canceled)
		} else {
			require.NoError(t, err)
		}
		require.NoError(t, c.Close())
	}
	// Not require.Eventually: it runs the condition in a goroutine of its own.
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), before, "goroutines left:\n%s", goroutines())
}

func goroutines() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}
