package chain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/n3d-io/n3d/internal/cputime"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chaindump"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// Restore benchmarks on a generated chain (see docs/benchmarks-chain.md):
//
//	go test -run '^$' -bench RestoreGenerated -benchtime 1x ./pkg/core/chain
//
// N3D_BENCH_DUMP names an .acc dump of the unit_testnet configuration to
// restore (n3d db generate --config-file <unit_testnet> writes one);
// without it a dump of N3D_BENCH_BLOCKS blocks (2000 by default) with
// N3D_BENCH_TXS transactions per block (4) is generated once and cached in
// the temporary directory.

func benchEnvInt(b *testing.B, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	require.NoError(b, err, name)
	return n
}

// benchDump returns the dump the restore benchmarks use.
func benchDump(b *testing.B) []byte {
	if p := os.Getenv("N3D_BENCH_DUMP"); p != "" {
		data, err := os.ReadFile(p)
		require.NoError(b, err)
		return data
	}
	blocks := benchEnvInt(b, "N3D_BENCH_BLOCKS", 2000)
	txs := benchEnvInt(b, "N3D_BENCH_TXS", DefaultGenerateTxPerBlock)
	path := filepath.Join(os.TempDir(), fmt.Sprintf("n3d-bench-unit_testnet-%dx%d.acc", blocks, txs))
	if data, err := os.ReadFile(path); err == nil {
		return data
	}
	c := openMemChain(b, unitTestnet(b))
	var buf bytes.Buffer
	_, err := Generate(context.Background(), c, &buf, GenerateOptions{Blocks: uint32(blocks), TxPerBlock: txs,
		Validators: validatorKeys(b, 3)})
	require.NoError(b, err)
	require.NoError(b, os.WriteFile(path+".tmp", buf.Bytes(), 0o644))
	require.NoError(b, os.Rename(path+".tmp", path))
	return buf.Bytes()
}

// benchStore opens an empty store of the given type in dir.
func benchStore(b *testing.B, typ, dir string) storage.Store {
	st, err := storage.New(storage.DBConfiguration{Type: typ,
		LevelDBOptions: storage.LevelDBOptions{DataDirectoryPath: filepath.Join(dir, "leveldb")},
		BoltDBOptions:  storage.BoltDBOptions{FilePath: filepath.Join(dir, "bolt.db")}})
	require.NoError(b, err)
	return st
}

// BenchmarkRestoreGenerated restores a generated chain (full header and
// transaction verification per the configuration, execution, state roots)
// into each backend with asynchronous and synchronous persistence, once a
// second (the default) and after every block. Each
// iteration opens a fresh chain (genesis included), restores every block
// and closes the chain (everything written).
func BenchmarkRestoreGenerated(b *testing.B) {
	dump := benchDump(b)
	cfg := unitTestnet(b)
	for _, typ := range []string{config.DBInMemory, config.DBLevelDB, config.DBBoltDB} {
		for _, every := range []time.Duration{DefaultPersistInterval, -1} {
			for _, sync := range []bool{false, true} {
				name := typ + "/async"
				if sync {
					name = typ + "/sync"
				}
				if every < 0 {
					name += "/every-block"
				}
				b.Run(name, func(b *testing.B) { benchRestore(b, cfg, dump, typ, every, sync) })
			}
		}
	}
}

func benchRestore(b *testing.B, cfg config.Config, dump []byte, typ string, every time.Duration, sync bool) {
	var blocks, txs int
	var cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := cputime.Process()
		blocks, txs = 0, 0
		n, err := NewNativeSet(&cfg.ProtocolConfiguration)
		require.NoError(b, err)
		c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
			Store: benchStore(b, typ, b.TempDir()), Natives: n, PersistInterval: every, PersistSync: sync})
		require.NoError(b, err)
		_, err = Restore(context.Background(), c, bytes.NewReader(dump), RestoreOptions{OnBlock: func(blk *block.Block) error {
			blocks++
			txs += len(blk.Transactions)
			return nil
		}})
		require.NoError(b, err)
		require.NoError(b, c.Close())
		cpu += cputime.Process() - start
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(blocks)/sec, "blocks/s")
	b.ReportMetric(float64(txs)/sec, "tx/s")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(blocks)/(cpu.Seconds()/float64(b.N)), "blocks/cpu-s")
}

// BenchmarkAddBlockLog adds the generated chain's blocks one by one with
// AddBlock (the path of blocks from peers and consensus, full
// verification) on LevelDB, with and without the block log, to measure
// what making each block durable before it is announced costs:
//
//	go test -run '^$' -bench AddBlockLog -benchtime 1x ./pkg/core/chain
func BenchmarkAddBlockLog(b *testing.B) {
	dump := benchDump(b)
	cfg := unitTestnet(b)
	d, err := chaindump.NewReader(bytes.NewReader(dump))
	require.NoError(b, err)
	var blocks []*block.Block
	for {
		raw, err := d.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(b, err)
		blk, err := block.NewBlockFromBytes(append([]byte(nil), raw...))
		require.NoError(b, err)
		if blk.Index != 0 {
			blocks = append(blocks, blk)
		}
	}
	for _, mode := range []string{"logged", "logged-nosync", "unlogged"} {
		b.Run("leveldb/"+mode, func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				start := cputime.Process()
				n, err := NewNativeSet(&cfg.ProtocolConfiguration)
				require.NoError(b, err)
				c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
					Store: benchStore(b, config.DBLevelDB, b.TempDir()), Natives: n, noBlockLog: mode == "unlogged",
					BlockLogNoSync: mode == "logged-nosync"})
				require.NoError(b, err)
				for _, blk := range blocks {
					require.NoError(b, c.AddBlock(blk))
				}
				require.NoError(b, c.Close())
				cpu += cputime.Process() - start
			}
			b.ReportMetric(float64(len(blocks))*float64(b.N)/b.Elapsed().Seconds(), "blocks/s")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}
