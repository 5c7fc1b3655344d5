package node

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/internal/cputime"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// BenchmarkIngest pushes signed GAS transfers through the node's
// sendrawtransaction path without HTTP (SubmitTx: ingress pipeline,
// verification, pool, saved pool), ten at once as neo-bench's workers, on
// a LevelDB single node that makes no blocks, with the saved pool on and
// off. cpu-ns/op is the process's CPU time per accepted transaction: on a
// shared machine it moves much less with the load than ns/op.
func BenchmarkIngest(b *testing.B) {
	for _, saved := range []bool{false, true} {
		name := "savedpool=off"
		if saved {
			name = "savedpool=on"
		}
		b.Run(name, func(b *testing.B) { benchIngest(b, saved) })
	}
}

func benchIngest(b *testing.B, saved bool) {
	data, ok := config.Embedded(config.NetPrivNetSingle)
	require.True(b, ok)
	cfg, err := config.Parse(data, "")
	require.NoError(b, err)
	a := &cfg.ApplicationConfiguration
	a.DBConfiguration = config.DBConfiguration{Type: config.DBLevelDB,
		LevelDBOptions: config.LevelDBOptions{DataDirectoryPath: filepath.Join(b.TempDir(), "chain")}}
	a.P2P.Addresses = []string{"127.0.0.1:0"}
	a.Consensus.UnlockWallet.Path, err = filepath.Abs(filepath.Join("..", "..", "config", "wallet.privnet.single.json"))
	require.NoError(b, err)
	a.MempoolPersistence.Disabled = !saved
	cfg.ProtocolConfiguration.MemPoolSize = max(cfg.ProtocolConfiguration.MemPoolSize, b.N+1)
	cons := a.Consensus
	cons.Enabled = true
	ks, err := ConsensusKeys(cons)
	require.NoError(b, err)
	a.Consensus.Enabled = false // no blocks: every transaction stays valid

	n, err := New(cfg, WithLogger(zap.NewNop()), WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	require.NoError(b, err)
	require.NoError(b, n.Start(context.Background()))
	defer func() { require.NoError(b, n.Stop()) }()
	txs := make([]*transaction.Transaction, b.N)
	for i := range txs {
		txs[i] = benchTransfer(b, n, ks[0], uint32(i+1))
	}
	var next atomic.Int64
	b.SetParallelism(5) // 10 goroutines on 2 cores
	ctx := context.Background()
	start := cputime.Process()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := n.SubmitTx(ctx, txs[next.Add(1)-1]); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
}

// benchTransfer is a 1-datoshi GAS transfer from the validators' account
// signed with key.
func benchTransfer(b *testing.B, n *Node, key *keys.PrivateKey, nonce uint32) *transaction.Transaction {
	verif, err := scripts.MultiSigContract(1, keys.PublicKeys{key.PublicKey()})
	require.NoError(b, err)
	from := scripts.ScriptHash(verif)
	gas := n.natives.Governance.GAS.Metadata().Hash
	script, err := emit.NewBuilder().AppCall(gas, "transfer", byte(callflag.All), from, util.Uint160{1}, int64(1), nil).
		Opcodes(opcode.ASSERT).Script()
	require.NoError(b, err)
	tx := &transaction.Transaction{Nonce: nonce, SystemFee: 1_0000_0000, NetworkFee: 1_0000_0000,
		ValidUntilBlock: n.chain.BlockHeight() + 100, Script: script,
		Signers: []transaction.Signer{{Account: from, Scopes: transaction.CalledByEntry}}}
	sig := key.Sign(tx.SignData(uint32(n.chain.Config().Magic)))
	tx.Witnesses = []transaction.Witness{{InvocationScript: append([]byte{byte(opcode.PUSHDATA1), 64}, sig...),
		VerificationScript: verif}}
	tx.InvalidateCache()
	return tx
}
