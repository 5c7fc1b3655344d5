package chain

import (
	"path/filepath"
	"testing"

	bloomfilter "github.com/holiman/bloomfilter/v2"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// requireAllInBloom checks that the filter knows every transaction of
// blocks (no false negative, ever).
func requireAllInBloom(t *testing.T, f *bloomfilter.Filter, blocks []*block.Block) {
	t.Helper()
	for _, b := range blocks {
		for _, tx := range b.Transactions {
			require.True(t, f.ContainsHash(bloomKey(tx.Hash())), "block %d tx %s", b.Index, tx.Hash().String())
		}
	}
}

func filterOf(t *testing.T, capacity uint64, blocks []*block.Block) *bloomfilter.Filter {
	f, err := bloomfilter.NewOptimal(capacity, bloomFalsePositive)
	require.NoError(t, err)
	for _, b := range blocks {
		for _, tx := range b.Transactions {
			f.AddHash(bloomKey(tx.Hash()))
		}
	}
	return f
}

func TestBloomRecord(t *testing.T) {
	blocks := refChainBlocks(t, "chain50x2")
	c, err := Open(testConfig(t, "chain50x2", storage.NewMemoryStore()))
	require.NoError(t, err)
	defer c.Close()
	for _, b := range blocks[1:36] {
		require.NoError(t, c.AddBlock(b))
	}
	hash, height := c.CurrentBlockHash(), c.BlockHeight()
	txs := 0
	for _, b := range blocks[:36] {
		txs += len(b.Transactions)
	}
	load := func() bloomLoad {
		f, res, err := c.loadBloom(hash, height)
		require.NoError(t, err)
		requireAllInBloom(t, f, blocks[:36])
		require.EqualValues(t, txs, f.N())
		return res
	}

	res := load()
	require.True(t, res.rebuilt)
	require.Equal(t, "no stored filter", res.reason)
	require.Equal(t, filterOf(t, minBloomCapacity, nil).M(), res.bits, "sized for %d transactions: the minimum", txs)

	// A record of block 20: blocks 21..35 are added on top.
	require.NoError(t, c.saveBloom(filterOf(t, 1000, blocks[:21]), blocks[20].Hash(), 20))
	res = load()
	require.False(t, res.rebuilt, res.reason)
	require.EqualValues(t, 15, res.toppedUp)

	// A record of the current block: nothing to do.
	require.NoError(t, c.persistBloom())
	res = load()
	require.False(t, res.rebuilt, res.reason)
	require.Zero(t, res.toppedUp)

	bad := map[string]func(){
		"covers block": func() { // another chain's block at that height
			require.NoError(t, c.saveBloom(filterOf(t, 1000, blocks[:21]), util.Uint256{1}, 20))
		},
		"above the chain": func() {
			require.NoError(t, c.saveBloom(filterOf(t, 1000, blocks[:21]), blocks[20].Hash(), height+1))
		},
		"stored filter": func() { // a flipped bit fails the filter's checksum
			require.NoError(t, c.saveBloom(filterOf(t, 1000, blocks[:21]), blocks[20].Hash(), 20))
			v, err := c.cache.Get(bloomRecordKey)
			require.NoError(t, err)
			v = append([]byte(nil), v...)
			v[len(v)-100] ^= 1
			require.NoError(t, c.cache.Put(bloomRecordKey, v))
		},
		"unknown filter record format": func() {
			require.NoError(t, c.cache.Put(bloomRecordKey, []byte{2, 0, 0}))
		},
		"exceed the filter's capacity": func() { // built for 4, holds all
			require.NoError(t, c.saveBloom(filterOf(t, 4, blocks[:2]), blocks[1].Hash(), 1))
		},
	}
	for reason, spoil := range bad {
		t.Run(reason, func(t *testing.T) {
			spoil()
			res := load()
			require.True(t, res.rebuilt)
			require.Contains(t, res.reason, reason)
		})
	}
	require.EqualValues(t, minBloomCapacity, bloomCapacity(1000, 99))
	require.EqualValues(t, 2_000_000, bloomCapacity(0, 1_000_000))
	require.EqualValues(t, 3_000_000, bloomCapacity(3_000_000, 1_000_000))
}

// TestBloomReopen restarts a LevelDB chain: the first reopen rebuilds and
// stores the filter, the next one tops it up with the blocks added since;
// every transaction is found each time.
func TestBloomReopen(t *testing.T) {
	blocks := refChainBlocks(t, "chain50x2")
	dir := filepath.Join(t.TempDir(), "db")
	reopen := func(upTo int) *Chain {
		c, err := Open(testConfig(t, "chain50x2", levelDB(t, dir)))
		require.NoError(t, err)
		for _, b := range blocks[c.BlockHeight()+1 : upTo+1] {
			require.NoError(t, c.AddBlock(b))
		}
		for _, b := range blocks[1 : upTo+1] {
			for _, tx := range b.Transactions {
				ok, err := c.HasTransaction(tx.Hash())
				require.NoError(t, err)
				require.True(t, ok)
			}
		}
		return c
	}
	c := reopen(20)
	_, h, _, reason := c.readBloomRecord()
	require.Equal(t, "no stored filter", reason, "a new chain writes no record before its first reopen")
	require.NoError(t, c.Close())

	c = reopen(35)
	_, h, _, reason = c.readBloomRecord()
	require.Empty(t, reason)
	require.EqualValues(t, 20, h, "rebuilt at open for block 20")
	require.NoError(t, c.Close())

	c = reopen(50)
	_, h, _, _ = c.readBloomRecord()
	require.EqualValues(t, 35, h, "topped up at open with blocks 21..35")
	require.NoError(t, c.persistBloom())
	require.NoError(t, c.Close())

	c = reopen(50)
	_, h, _, _ = c.readBloomRecord()
	require.EqualValues(t, 50, h)
	require.NoError(t, c.Close())
}
