package main

import (
	"fmt"
	"runtime/debug"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/node"
	"github.com/n3d-io/n3d/pkg/storage"
	"go.uber.org/zap"
)

// `db restore` is a batch job: it gives up a little of its speed for
// memory, where a node keeps the settings that buy it throughput
// (docs/benchmarks-tps.md, Memory). Both are set by the command, never by
// the configuration a node shares.
const (
	// restoreWriteBuffer is the LevelDB memtable of a restore (4 MiB, the
	// node's leveldb.DefaultWriteBuffer, was 16 MiB when it was measured:
	// 4 MiB took ~24 MB off the live heap for ~5-10% more CPU, more
	// level-0 flushes). Change sets larger than the memtable go straight
	// to tables, as in a node, so it never grows to a set's size.
	restoreWriteBuffer = 4 << 20
	// restoreL0Trigger is goleveldb's own level-0 compaction trigger: the
	// node's 8 halves its compaction writes under load, but a restore
	// that waits for 8 level-0 tables peaked ~5 MiB higher in the one
	// measurement made (docs/benchmarks-storage.md, LevelDB compaction).
	restoreL0Trigger = 4
	// restoreGCPercent is the GC target of a restore when GOGC is not set
	// in the environment: the heap grows by half the live heap between
	// collections instead of all of it.
	restoreGCPercent = 50
)

// restoreCacheKeys bounds the keys of a restore's write cache
// (chain.RestoreOptions.CacheKeys): a node persists once a second, a
// restore of large blocks adds several a second and kept them all in
// memory until then, so its peak grew with its speed (a quiet machine's
// restore peaked higher than a loaded one's). neo-bench's chain of NEO
// transfers wrote ~1 key per transaction: this is 2-5 of its blocks, about
// half a second of a quiet machine's restore.
const restoreCacheKeys = 8192

// openRestoreChain opens the configured database with a restore's
// memtable and the chain in it.
func openRestoreChain(cfg config.Config, log *zap.Logger, onChanges func(uint32, []chain.StorageChange)) (*chain.Chain, error) {
	sc := node.StoreConfig(cfg.ApplicationConfiguration.DBConfiguration)
	sc.LevelDBOptions.WriteBuffer = restoreWriteBuffer
	sc.LevelDBOptions.L0Trigger = restoreL0Trigger
	st, err := storage.New(sc)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	return node.OpenChainOn(cfg, log, st, onChanges)
}

// restoreGC sets a restore's GC target unless getenv("GOGC") is set (the
// operator's choice wins) and returns what puts the previous one back.
func restoreGC(getenv func(string) string) (undo func()) {
	if getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(restoreGCPercent)
	return func() { debug.SetGCPercent(old) }
}
