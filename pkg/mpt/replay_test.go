package mpt

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// ledgerContractID is the LedgerContract, whose storage is not in the trie.
const ledgerContractID = -4

type diffItem struct {
	Key   string `json:"key"`
	State string `json:"state"`
	Value string `json:"value"`
}

type blockDiff struct {
	Block   uint32     `json:"block"`
	Storage []diffItem `json:"storage"`
}

type storageDump struct {
	Height    uint32                         `json:"height"`
	Root      string                         `json:"root"`
	Contracts map[string][]map[string]string `json:"contracts"`
}

// chainData is one conformance chain: the storage changes per block and the
// reference's state root per block.
type chainData struct {
	name  string
	diffs []blockDiff // diffs[i] is the change set of block i
	roots []util.Uint256
	final map[string][]byte // trie key → value at the tip
}

// dumpChanges turns a storage dump into the change set that creates it.
func dumpChanges(t *testing.T, path string) (storageDump, []diffItem) {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var d storageDump
	require.NoError(t, json.Unmarshal(raw, &d))
	var items []diffItem
	for name, kvs := range d.Contracts {
		id, err := strconv.ParseInt(strings.SplitN(name, ":", 2)[0], 10, 32)
		require.NoError(t, err, name)
		var prefix [4]byte
		binary.LittleEndian.PutUint32(prefix[:], uint32(int32(id)))
		for _, kv := range kvs {
			k, err := base64.StdEncoding.DecodeString(kv["key"])
			require.NoError(t, err)
			items = append(items, diffItem{
				Key:   base64.StdEncoding.EncodeToString(append(prefix[:], k...)),
				State: "Added",
				Value: kv["value"],
			})
		}
	}
	return d, items
}

func loadChain(t *testing.T, dir, name string) chainData {
	t.Helper()
	base := filepath.Join(dir, "chains", name)
	c := chainData{name: name}
	conformance.EachLine(t, filepath.Join(base, "stateroots.jsonl"), func(line []byte) {
		var r struct {
			Index    uint32 `json:"index"`
			RootHash string `json:"roothash"`
		}
		require.NoError(t, json.Unmarshal(line, &r))
		require.Equal(t, len(c.roots), int(r.Index), "stateroots out of order")
		h, err := util.Uint256DecodeStringBE(r.RootHash)
		require.NoError(t, err)
		c.roots = append(c.roots, h)
	})
	c.diffs = make([]blockDiff, len(c.roots))
	seen := make([]bool, len(c.roots))
	conformance.EachLine(t, filepath.Join(base, "storagediff.jsonl"), func(line []byte) {
		var d blockDiff
		require.NoError(t, json.Unmarshal(line, &d))
		require.Less(t, int(d.Block), len(c.roots))
		c.diffs[d.Block], seen[d.Block] = d, true
	})
	if !seen[0] {
		g, items := dumpChanges(t, filepath.Join(base, "storage", "genesis.json"))
		require.Zero(t, g.Height)
		c.diffs[0], seen[0] = blockDiff{Block: 0, Storage: items}, true
	}
	for i, ok := range seen {
		require.True(t, ok, "%s: no storage diff for block %d", name, i)
	}
	_, items := dumpChanges(t, filepath.Join(base, "storage", "final.json"))
	c.final = make(map[string][]byte)
	for _, it := range items {
		k, v := decodeItem(t, it)
		if trieKeyIncluded(k) {
			c.final[string(k)] = v
		}
	}
	return c
}

func decodeItem(t *testing.T, it diffItem) ([]byte, []byte) {
	k, err := base64.StdEncoding.DecodeString(it.Key)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(k), 4, "storage key without contract id")
	if it.State == "Deleted" {
		return k, nil
	}
	v, err := base64.StdEncoding.DecodeString(it.Value)
	require.NoError(t, err)
	if v == nil {
		v = []byte{}
	}
	return k, v
}

// trieKeyIncluded reports whether a storage key (int32 LE contract id ‖ key)
// is part of the state trie: everything but the LedgerContract's storage.
func trieKeyIncluded(k []byte) bool {
	return int32(binary.LittleEndian.Uint32(k)) != ledgerContractID
}

// blockBatch builds the trie batch of one block's storage changes.
func blockBatch(t *testing.T, d blockDiff) *Batch {
	var b Batch
	for _, it := range d.Storage {
		k, v := decodeItem(t, it)
		if !trieKeyIncluded(k) {
			continue
		}
		switch it.State {
		case "Added", "Changed":
			require.NoError(t, b.Put(k, v))
		case "Deleted":
			require.NoError(t, b.Delete(k))
		default:
			t.Fatalf("unknown storage change state %q", it.State)
		}
	}
	return &b
}

// replay applies a chain's blocks to a fresh trie, flushing after each, and
// returns the number of blocks whose root matches the reference.
func replay(t *testing.T, c chainData, mode Mode) (int, *Trie, *mapStore) {
	tr, s := newTestTrie(t, mode)
	matched := 0
	for i, d := range c.diffs {
		require.NoError(t, tr.PutBatch(blockBatch(t, d)))
		require.NoError(t, tr.Flush(uint32(i)))
		if got := tr.StateRoot(); got == c.roots[i] {
			matched++
		} else {
			t.Errorf("%s (%s) block %d: root %s, reference %s", c.name, mode, i, got, c.roots[i])
		}
	}
	return matched, tr, s
}

func TestStateRootReplay(t *testing.T) {
	dir := conformance.Dir(t)
	chains := []chainData{loadChain(t, dir, "testblocks"), loadChain(t, dir, "chain50x2")}
	results := make([]string, 0, len(chains))
	for _, c := range chains {
		matched, tr, s := replay(t, c, ModeLatest)
		results = append(results, fmt.Sprintf("%s %d/%d roots", c.name, matched, len(c.roots)))

		// The tip's content is the reference's final storage.
		for k, v := range c.final {
			got, err := tr.Get([]byte(k))
			require.NoError(t, err, "%s: key %x", c.name, k)
			require.Equal(t, v, got, "%s: key %x", c.name, k)
		}
		// Reopened from the store alone, the trie has the same content.
		tr2, err := New(tr.StateRoot(), testConfig(s, ModeLatest))
		require.NoError(t, err)
		for k, v := range c.final {
			got, err := tr2.Get([]byte(k))
			require.NoError(t, err)
			require.Equal(t, v, got)
		}
		// Reference counting left exactly the nodes of the tip.
		checkRefCounts(t, s, tr.StateRoot(), ModeLatest)
	}
	line := "mpt replay: " + strings.Join(results, ", ")
	if testing.Verbose() {
		fmt.Println(line)
	}
	for i, c := range chains {
		require.Equal(t, fmt.Sprintf("%s %d/%d roots", c.name, len(c.roots), len(c.roots)), results[i])
	}
}

// TestStateRootReplayModes checks that every storage mode yields the
// reference's roots, and that a trie collapsed after each block (so every
// batch reads its nodes back from the store) does too.
func TestStateRootReplayModes(t *testing.T) {
	dir := conformance.Dir(t)
	for _, name := range []string{"testblocks", "chain50x2"} {
		c := loadChain(t, dir, name)
		for _, mode := range allModes {
			matched, _, _ := replay(t, c, mode)
			require.Equal(t, len(c.roots), matched, "%s %s", name, mode)

			tr, s := newTestTrie(t, mode)
			for i, d := range c.diffs {
				require.NoError(t, tr.PutBatch(blockBatch(t, d)))
				require.NoError(t, tr.Flush(uint32(i)))
				tr.Collapse(0)
				require.Equal(t, c.roots[i], tr.StateRoot(), "%s %s collapsed, block %d", name, mode, i)
			}
			if mode.refCounted() {
				checkRefCounts(t, s, tr.StateRoot(), mode)
			}
		}
	}
}

// checkRefCounts walks the trie of root in the store and checks that every
// active record is reachable and counted once per place it occupies.
func checkRefCounts(t *testing.T, s *mapStore, root util.Uint256, mode Mode) {
	t.Helper()
	cfg := testConfig(s, mode)
	places := make(map[util.Uint256]uint32)
	var walk func(h util.Uint256)
	walk = func(h util.Uint256) {
		places[h]++
		rec, ok, err := cfg.getStored(h, true)
		require.NoError(t, err)
		require.True(t, ok, "node %s missing", h)
		n, err := DecodeNode(rec.enc)
		require.NoError(t, err)
		switch n := n.(type) {
		case *BranchNode:
			for _, c := range n.children {
				if c != nil {
					walk(c.Hash())
				}
			}
		case *ExtensionNode:
			walk(n.next.Hash())
		}
	}
	if !root.IsZero() {
		walk(root)
	}
	active := 0
	keys := make([]string, 0, len(s.m))
	for k := range s.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := s.m[k]
		require.Equal(t, byte(testPrefix), k[0])
		h := util.Uint256([]byte(k[1:]))
		if v[len(v)-rcSuffixLen] != 1 {
			require.Equal(t, ModeGC, mode, "inactive record outside ModeGC")
			continue
		}
		active++
		require.Equal(t, places[h], binary.LittleEndian.Uint32(v[len(v)-4:]), "node %s", h)
	}
	require.Equal(t, len(places), active)
}
