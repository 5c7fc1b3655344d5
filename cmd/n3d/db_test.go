package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
)

// readLines parses a JSON-lines file into generic values.
func readLines(t *testing.T, path string) []any {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v))
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}

// TestStorageDumpFormat writes the reference's storage diffs through the
// --dump writer and reads back the same JSON objects.
func TestStorageDumpFormat(t *testing.T) {
	ref := filepath.Join(conformance.Dir(t, "chains", "testblocks"), "storagediff.jsonl")
	want := readLines(t, ref)
	var blocks []blockDump
	f, err := os.Open(ref)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var b blockDump
		require.NoError(t, json.Unmarshal(sc.Bytes(), &b))
		blocks = append(blocks, b)
	}
	dir := t.TempDir()
	sd := &storageDump{dir: dir}
	for _, b := range blocks {
		ch := make([]chain.StorageChange, len(b.Storage))
		for i, op := range b.Storage {
			st := map[string]chain.ChangeState{"Added": chain.Added, "Changed": chain.Changed, "Deleted": chain.Deleted}[op.State]
			require.NotZero(t, st, op.State)
			ch[i] = chain.StorageChange{State: st, Key: op.Key, Value: op.Value}
		}
		sd.add(b.Block, ch)
	}
	require.NoError(t, sd.Close())
	got := readLines(t, filepath.Join(dir, "BlockStorage_0", "dump-block-0.dump"))
	require.Equal(t, want, got)
}

func TestStorageDumpLayout(t *testing.T) {
	dir := t.TempDir()
	sd := &storageDump{dir: dir}
	for i := uint32(99990); i < 101010; i++ {
		sd.add(i, []chain.StorageChange{{State: chain.Deleted, Key: []byte{1, 0, 0, 0, byte(i)}}})
	}
	require.NoError(t, sd.Close())
	count := func(p string) int { return len(readLines(t, filepath.Join(dir, p))) }
	require.Equal(t, 10, count("BlockStorage_0/dump-block-99000.dump"))
	require.Equal(t, 1000, count("BlockStorage_100000/dump-block-100000.dump"))
	require.Equal(t, 10, count("BlockStorage_100000/dump-block-101000.dump"))
	line := readLines(t, filepath.Join(dir, "BlockStorage_100000/dump-block-101000.dump"))[0].(map[string]any)
	op := line["storage"].([]any)[0].(map[string]any)
	_, hasValue := op["value"]
	require.False(t, hasValue, "Deleted entries carry no value")
	require.EqualValues(t, 1, line["size"])
}

// TestRestoreDumpCommands restores a reference chain through the command
// functions into LevelDB with --dump, reopens it for db dump and gets the
// input back byte for byte.
func TestRestoreDumpCommands(t *testing.T) {
	dir := conformance.Dir(t, "chains", "chain50x2")
	cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
	require.NoError(t, err)
	tmp := t.TempDir()
	cfg.ApplicationConfiguration.DBConfiguration = config.DBConfiguration{Type: config.DBLevelDB,
		LevelDBOptions: config.LevelDBOptions{DataDirectoryPath: filepath.Join(tmp, "db")}}
	in := filepath.Join(dir, "chain50x2.acc")
	dumpDir := filepath.Join(tmp, "diffs")
	log := zap.NewNop()
	require.NoError(t, restoreDB(context.Background(), cfg, log, RestoreOptions{In: in, Count: 20, DumpDir: dumpDir}))
	// A second run continues after block 20.
	require.NoError(t, restoreDB(context.Background(), cfg, log, RestoreOptions{In: in, DumpDir: dumpDir}))
	// The genesis batch (this restore created the chain and the dump starts
	// at 0) and every block after it, as neo-go's restore writes them.
	lines := readLines(t, filepath.Join(dumpDir, "BlockStorage_0", "dump-block-0.dump"))
	require.Equal(t, readLines(t, filepath.Join(dir, "storagediff.jsonl")), lines)
	require.Len(t, lines, 51)
	for i, l := range lines {
		require.EqualValues(t, i, l.(map[string]any)["block"])
	}
	out := filepath.Join(tmp, "out.acc")
	require.NoError(t, dumpDB(context.Background(), cfg, log, DumpOptions{Out: out, NonIncremental: true}))
	want, err := os.ReadFile(in)
	require.NoError(t, err)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Error(t, dumpDB(context.Background(), cfg, log, DumpOptions{Out: out, Start: 40, Count: 20}))

	// dump-bin: one file per block holding the reference's block bytes.
	raw := conformance.RawBlocks(t, "chain50x2") // index i is block i
	bin := filepath.Join(tmp, "bin")
	require.NoError(t, dumpBinDB(cfg, log, DumpBinOptions{Dir: bin, Start: 45}))
	entries, err := os.ReadDir(bin)
	require.NoError(t, err)
	require.Len(t, entries, 6, "blocks 45..50")
	for i := 45; i <= 50; i++ {
		got, err := os.ReadFile(filepath.Join(bin, fmt.Sprintf("block-%d.bin", i)))
		require.NoError(t, err)
		require.Equal(t, raw[i], got, "block %d", i)
	}
	require.ErrorIs(t, dumpBinDB(cfg, log, DumpBinOptions{Dir: bin, Start: 48, Count: 5}), chain.ErrNotFound)
	require.Error(t, dumpBinDB(cfg, log, DumpBinOptions{}))

	// reset: back to block 30, the database dumps the first 31 blocks of the
	// input; restoring the input again brings the same chain back.
	require.NoError(t, resetDB(cfg, log, 30))
	require.NoError(t, dumpDB(context.Background(), cfg, log, DumpOptions{Out: out, Count: 31}))
	got, err = os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, want[4:4+len(got)-8], got[8:], "the records of blocks 0..30")
	require.EqualValues(t, 31, binary.LittleEndian.Uint32(got[4:]))
	require.ErrorIs(t, resetDB(cfg, log, 31), chain.ErrReset)
	require.NoError(t, restoreDB(context.Background(), cfg, log, RestoreOptions{In: in}))
	require.NoError(t, dumpDB(context.Background(), cfg, log, DumpOptions{Out: out, NonIncremental: true}))
	got, err = os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, want, got)
}

// TestRestoreDumpGenesisBatch: the genesis batch is written only when this
// restore creates the chain and the dump's first block is the genesis (as
// in neo-go, whose last batch is nil for a genesis persisted earlier).
func TestRestoreDumpGenesisBatch(t *testing.T) {
	firstBlocks := func(t *testing.T, name string, create bool) float64 {
		dir := conformance.Dir(t, "chains", name)
		cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
		require.NoError(t, err)
		tmp := t.TempDir()
		cfg.ApplicationConfiguration.DBConfiguration = config.DBConfiguration{Type: config.DBLevelDB,
			LevelDBOptions: config.LevelDBOptions{DataDirectoryPath: filepath.Join(tmp, "db")}}
		if !create {
			c, err := openChain(cfg, zap.NewNop(), nil)
			require.NoError(t, err)
			require.NoError(t, c.Close())
		}
		dumpDir := filepath.Join(tmp, "diffs")
		require.NoError(t, restoreDB(context.Background(), cfg, zap.NewNop(),
			RestoreOptions{In: filepath.Join(dir, name+".acc"), Count: 3, DumpDir: dumpDir}))
		lines := readLines(t, filepath.Join(dumpDir, "BlockStorage_0", "dump-block-0.dump"))
		return lines[0].(map[string]any)["block"].(float64)
	}
	require.EqualValues(t, 0, firstBlocks(t, "chain50x2", true))
	require.EqualValues(t, 1, firstBlocks(t, "chain50x2", false), "genesis persisted before this restore")
	require.EqualValues(t, 1, firstBlocks(t, "testblocks", true), "the dump has no genesis entry")
}

func TestFirstDumpIndex(t *testing.T) {
	blk := make([]byte, 4+32+32+8+8+4)
	binary.LittleEndian.PutUint32(blk[len(blk)-4:], 7)
	plain := binary.LittleEndian.AppendUint32(nil, 1)
	plain = binary.LittleEndian.AppendUint32(plain, uint32(len(blk)))
	plain = append(plain, blk...)
	require.EqualValues(t, 7, firstDumpIndex(bufio.NewReader(bytes.NewReader(plain))))
	incr := binary.LittleEndian.AppendUint32(nil, 7)
	incr = append(incr, plain...)
	require.EqualValues(t, 7, firstDumpIndex(bufio.NewReader(bytes.NewReader(incr))))
	require.EqualValues(t, -1, firstDumpIndex(bufio.NewReader(bytes.NewReader(plain[:20]))))
}
