package chain

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// diffBlock is one line of a neogo-diff run's blocks.jsonl.
type diffBlock struct {
	Index uint32   `json:"index"`
	Hash  string   `json:"hash"`
	Txs   []string `json:"txs"`
}

// maxDiffReports bounds the mismatches one run reports.
const maxDiffReports = 50

// TestDiffChain restores the chains neo-go 0.120.0 produced under
// scripts/neogo-diffchain.sh (testdata/neogo-diff/<run>/, or $DIFFCHAIN_DIR)
// and checks every block hash, state root and application log (trigger, VM
// state, GAS, stack, notifications, FAULT exception texts) against
// what neo-go reported for them.
func TestDiffChain(t *testing.T) {
	dir := os.Getenv("DIFFCHAIN_DIR")
	if dir == "" {
		dir = filepath.Join("testdata", "neogo-diff")
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	runs := 0
	for _, e := range entries {
		if e.IsDir() {
			runs++
			t.Run(e.Name(), func(t *testing.T) { checkDiffChain(t, filepath.Join(dir, e.Name())) })
		}
	}
	require.NotZero(t, runs, "no recorded runs in %s", dir)
}

func checkDiffChain(t *testing.T, dir string) {
	cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
	require.NoError(t, err)
	natives, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	blocks := readJSONL[diffBlock](t, filepath.Join(dir, "blocks.jsonl"))
	roots := readJSONL[refStateRoot](t, filepath.Join(dir, "stateroots.jsonl"))
	require.Len(t, roots, len(blocks))
	logs := map[uint32][]refAppLog{}
	for _, l := range readGzipJSONL[refAppLog](t, filepath.Join(dir, "applogs.jsonl.gz")) {
		logs[l.Height] = append(logs[l.Height], l)
	}
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: natives, BloomCapacity: 1000})
	require.NoError(t, err)
	defer c.Close()

	var diffs []string
	checkBlock := func(i uint32) error {
		if int(i) >= len(blocks) {
			return fmt.Errorf("block %d is beyond the reference's %d", i, len(blocks)-1)
		}
		if h, ok := c.GetHeaderHash(i); !ok || h.String() != blocks[i].Hash {
			diffs = append(diffs, fmt.Sprintf("block %d: hash %s, reference %s", i, h.String(), blocks[i].Hash))
		}
		if got := c.CurrentStateRoot(); got.String() != roots[i].RootHash {
			diffs = append(diffs, fmt.Sprintf("block %d: state root %s, reference %s", i, got, roots[i].RootHash))
		}
		diffs = append(diffs, diffAppLogs(c, logs[i])...)
		if len(diffs) > maxDiffReports {
			return fmt.Errorf("too many differences: %d", len(diffs))
		}
		return nil
	}
	require.NoError(t, checkBlock(0))
	acc, err := os.ReadFile(filepath.Join(dir, "chain.acc"))
	require.NoError(t, err)
	_, err = Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{OnBlock: func(b *block.Block) error {
		return checkBlock(b.Index)
	}})
	require.Empty(t, diffs)
	require.NoError(t, err)
	require.EqualValues(t, len(blocks)-1, c.BlockHeight())
	t.Logf("diffchain %s: %d blocks, %d application logs equal neo-go's", filepath.Base(dir), len(blocks), countLogs(logs))
}

// diffAppLogs lists how our application logs of a block's executables
// differ from the reference's.
func diffAppLogs(c *Chain, refs []refAppLog) []string {
	var out []string
	for _, ref := range refs {
		h, err := util.Uint256DecodeStringBE(strings.TrimPrefix(ref.Hash, "0x"))
		if err != nil {
			return append(out, err.Error())
		}
		ours, err := c.GetAppExecResults(h, trigger.All)
		if err != nil {
			out = append(out, fmt.Sprintf("height %d %s %s: %v", ref.Height, ref.Kind, ref.Hash, err))
			continue
		}
		if len(ours) != len(ref.Result.Executions) {
			out = append(out, fmt.Sprintf("height %d %s %s: %d executions, reference %d",
				ref.Height, ref.Kind, ref.Hash, len(ours), len(ref.Result.Executions)))
			continue
		}
		for i := range ours {
			b, err := json.Marshal(ours[i].Execution)
			if err != nil {
				return append(out, err.Error())
			}
			want, got := normExec(ref.Result.Executions[i]), normExec(b)
			if !reflect.DeepEqual(want, got) {
				out = append(out, fmt.Sprintf("height %d %s %s execution %d:\n ours      %v\n reference %v\n our exception %q",
					ref.Height, ref.Kind, ref.Hash, i, got, want, ours[i].FaultException))
			}
		}
	}
	return out
}

func countLogs(logs map[uint32][]refAppLog) int {
	n := 0
	for _, l := range logs {
		n += len(l)
	}
	return n
}

// readGzipJSONL decodes every line of a gzipped .jsonl file into a T.
func readGzipJSONL[T any](t testing.TB, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	return decodeJSONL[T](t, zr, path)
}
