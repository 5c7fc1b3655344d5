package oracle

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/testwallet"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/chaindump"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/storage"
)

// neogoDiffDir holds the chains neo-go 0.120.0 made with its oracle
// service on (see its README): their oracle response transactions were
// built and signed by neo-go.
var neogoDiffDir = filepath.Join("..", "..", "core", "chain", "testdata", "neogo-diff")

// TestReferenceResponseTxs replays the neo-go chains through the service
// (OnBlock after each block, the requests processed at once with neo-go's
// oracle key) and requires every response transaction it builds to be
// neo-go's: same hash (every field but the witnesses: nonce, fees,
// ValidUntilBlock, signers, attribute with code and result, script) and
// the same bytes (both nodes sign deterministically). The chains contain a Policy change in the
// block of a request and a Faun-scheduled fee factor: the fees match only
// when computed on the state before the request's block, as neo-go does.
func TestReferenceResponseTxs(t *testing.T) {
	runs, err := os.ReadDir(neogoDiffDir)
	require.NoError(t, err)
	checked := 0
	for _, r := range runs {
		if !r.IsDir() {
			continue
		}
		t.Run(r.Name(), func(t *testing.T) { checked += checkReferenceResponses(t, filepath.Join(neogoDiffDir, r.Name())) })
	}
	require.Positive(t, checked)
}

func checkReferenceResponses(t *testing.T, dir string) int {
	cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
	require.NoError(t, err)
	acc, err := os.ReadFile(filepath.Join(dir, "chain.acc"))
	require.NoError(t, err)

	// The reference's responses by request id.
	reference := map[uint64]*transaction.Transaction{}
	rd, err := chaindump.NewReader(bytes.NewReader(acc))
	require.NoError(t, err)
	for {
		b, _, err := rd.NextBlock()
		if errors.Is(err, io.EOF) || (err == nil && b == nil) {
			break
		}
		require.NoError(t, err)
		for _, tx := range b.Transactions {
			if a := tx.GetAttributes(transaction.AttrOracleResponse); len(a) > 0 {
				reference[a[0].Value.(*transaction.OracleResponse).ID] = tx
			}
		}
		if rd.Remaining() == 0 {
			break
		}
	}
	require.NotEmpty(t, reference)

	natives, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: natives, BloomCapacity: 1000})
	require.NoError(t, err)
	defer func() { require.NoError(t, c.Close()) }()

	// The oracle node of those chains: the validator, neo-go's privnet
	// wallet 1; its requests go to 127.0.0.1:1 (nothing listens: Error)
	// and to an http URL (ProtocolNotSupported), as neo-go answered them.
	relayed := make(chan *transaction.Transaction, 1)
	s, err := New(Config{
		Oracle: config.OracleConfiguration{AllowPrivateHost: true, RequestTimeout: 10 * time.Second,
			AllowedContentTypes: []string{"application/json"}},
		Magic:     uint32(cfg.ProtocolConfiguration.Magic),
		Keys:      []*keys.PrivateKey{neogoWalletKey(t)},
		Ledger:    c,
		Relay:     func(tx *transaction.Transaction) error { relayed <- tx; return nil },
		Broadcast: func(Response) {},
		Log:       testLogger(t),
	})
	require.NoError(t, err)

	n := 0
	_, err = chain.Restore(context.Background(), c, bytes.NewReader(acc), chain.RestoreOptions{
		OnBlock: func(b *block.Block) error {
			if err := s.OnBlock(b); err != nil {
				return err
			}
			// Answer what this block asked, as the service's workers do.
			s.mu.Lock()
			work := s.mu.pending
			s.mu.pending = make(map[uint64]request)
			s.mu.Unlock()
			for _, r := range work {
				ref := reference[r.ID]
				require.NotNil(t, ref, "no reference response to request %d", r.ID)
				require.NoError(t, s.process(context.Background(), r))
				tx := <-relayed
				if tx.ValidUntilBlock != ref.ValidUntilBlock {
					// neo-go's race (see Config.PooledTx): it answered after
					// its pool had dropped the request's transaction.
					t.Logf("request %d: neo-go answered with the transaction out of its pool", r.ID)
					s.RemoveRequests([]uint64{r.ID})
					r.pooled = !r.pooled
					require.NoError(t, s.process(context.Background(), r))
					tx = <-relayed
				}
				compareResponse(t, ref, tx)
				n++
			}
			return nil
		}})
	require.NoError(t, err)
	require.Len(t, reference, n)
	t.Logf("%d neo-go oracle responses rebuilt", n)
	return n
}

// neogoWalletKey is the key of neo-go's privnet wallet 1 (pkg/wallet
// testdata, password "one").
func neogoWalletKey(t *testing.T) *keys.PrivateKey {
	return testwallet.Key(t, filepath.Join("..", "..", "wallet", "testdata", "neogo_wallet1.json"), "one")
}

// compareResponse requires our transaction to be the reference's: the
// same hash (every field but the witnesses), witnesses of the same shape
// and the same bytes.
func compareResponse(t *testing.T, ref, ours *transaction.Transaction) {
	resp := ref.GetAttributes(transaction.AttrOracleResponse)[0].Value.(*transaction.OracleResponse)
	require.Equal(t, ref.ValidUntilBlock, ours.ValidUntilBlock, "request %d", resp.ID)
	require.Equal(t, ref.NetworkFee, ours.NetworkFee, "request %d", resp.ID)
	require.Equal(t, ref.SystemFee, ours.SystemFee, "request %d", resp.ID)
	require.Equal(t, ref.Hash(), ours.Hash(), "request %d", resp.ID)
	require.Len(t, ours.Witnesses, 2)
	require.Empty(t, ours.Witnesses[0].InvocationScript)
	require.Empty(t, ours.Witnesses[0].VerificationScript)
	require.Equal(t, ref.Witnesses[1].VerificationScript, ours.Witnesses[1].VerificationScript)
	require.Len(t, ours.Witnesses[1].InvocationScript, len(ref.Witnesses[1].InvocationScript))
	rb, err := ref.Bytes()
	require.NoError(t, err)
	ob, err := ours.Bytes()
	require.NoError(t, err)
	// Both sign deterministically (RFC 6979): the whole transaction is the
	// same.
	require.Equal(t, rb, ob, "request %d", resp.ID)
}
