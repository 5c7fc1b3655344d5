package chain

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// scriptedExecutor stands in for the interop layer in tests of the
// persistence machinery: it writes storage a deterministic function of the
// block (a counter per block, one item per transaction, a deletion every
// third block, a LedgerContract item the trie must ignore).
type scriptedExecutor struct {
	failAt uint32 // block index whose execution fails (0: none)
}

const testContractID = 7

func (e *scriptedExecutor) execFeeFactor(*dao.DAO) (int64, error) { return defaultPicoFee, nil }

func (e *scriptedExecutor) execute(d *dao.DAO, b *block.Block) (*blockResult, error) {
	if e.failAt != 0 && b.Index == e.failAt {
		return nil, errors.New("scripted failure")
	}
	idx := binary.LittleEndian.AppendUint32(nil, b.Index)
	if err := d.PutStorageItem(testContractID, []byte("height"), idx); err != nil {
		return nil, err
	}
	if err := d.PutStorageItem(testContractID, append([]byte("b"), idx...), b.Hash().BytesLE()); err != nil {
		return nil, err
	}
	if b.Index%3 == 0 && b.Index > 0 {
		prev := binary.LittleEndian.AppendUint32(nil, b.Index-1)
		if err := d.DeleteStorageItem(testContractID, append([]byte("b"), prev...)); err != nil {
			return nil, err
		}
	}
	if err := d.PutStorageItem(ledgerContractID, idx, []byte{1}); err != nil {
		return nil, err
	}
	res := &blockResult{}
	for _, tx := range b.Transactions {
		txd := d.Private()
		if err := txd.PutStorageItem(testContractID, tx.Hash().BytesBE(), []byte{byte(tx.Nonce)}); err != nil {
			return nil, err
		}
		if err := txd.Persist(); err != nil {
			return nil, err
		}
		ev := state.NotificationEvent{Name: "tx", Item: stackitem.NewArray([]stackitem.Item{stackitem.Make(int64(tx.Nonce))})}
		res.txs = append(res.txs, &state.AppExecResult{Container: tx.Hash(), Execution: state.Execution{
			Trigger: trigger.Application, VMState: vm.HaltState, GasConsumed: int64(tx.Nonce),
			Events: []state.NotificationEvent{ev}}})
	}
	res.onPersist = &state.AppExecResult{Container: b.Hash(), Execution: state.Execution{Trigger: trigger.OnPersist, VMState: vm.HaltState}}
	res.postPersist = &state.AppExecResult{Container: b.Hash(), Execution: state.Execution{Trigger: trigger.PostPersist, VMState: vm.HaltState}}
	return res, nil
}

func testConfig(t *testing.T, name string, st storage.Store) Config {
	cfg := loadProtocol(t, name)
	return Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: st, executor: &scriptedExecutor{}, BloomCapacity: 1000}
}

func levelDB(t *testing.T, dir string) storage.Store {
	st, err := storage.New(storage.DBConfiguration{Type: config.DBLevelDB,
		LevelDBOptions: storage.LevelDBOptions{DataDirectoryPath: dir}})
	require.NoError(t, err)
	return st
}

// expectedRoot builds the state root of the chain's contract storage from
// scratch, the naive way: every STStorage item except the Ledger's.
func expectedRoot(t *testing.T, c *Chain) util.Uint256 {
	tr, err := mpt.New(util.Uint256{}, mpt.Config{Store: storage.NewMemoryStore(), Prefix: byte(storage.DataMPT)})
	require.NoError(t, err)
	require.NoError(t, c.cache.Seek(storage.SeekRange{Prefix: storage.STStorage.Bytes()}, func(k, v []byte) bool {
		if isTrieKey(string(k)) {
			require.NoError(t, tr.Put(append([]byte(nil), k[1:]...), append([]byte(nil), v...)))
		}
		return true
	}))
	return tr.StateRoot()
}

func TestChainAddsReferenceBlocks(t *testing.T) {
	blocks := refChainBlocks(t, "chain50x2")
	c, err := Open(testConfig(t, "chain50x2", storage.NewMemoryStore()))
	require.NoError(t, err)
	defer c.Close()
	require.EqualValues(t, 0, c.BlockHeight())
	require.Equal(t, blocks[0].Hash(), c.CurrentBlockHash())
	for _, b := range blocks[1:] {
		require.NoError(t, c.AddBlock(b))
		require.Equal(t, expectedRoot(t, c), c.CurrentStateRoot(), "block %d", b.Index)
	}
	require.EqualValues(t, len(blocks)-1, c.BlockHeight())
	for _, b := range blocks {
		got, err := c.GetBlockByIndex(b.Index)
		require.NoError(t, err)
		want, err := b.Bytes()
		require.NoError(t, err)
		gotRaw, err := got.Bytes()
		require.NoError(t, err)
		require.Equal(t, want, gotRaw)
		for _, tx := range b.Transactions {
			ok, err := c.HasTransaction(tx.Hash())
			require.NoError(t, err)
			require.True(t, ok)
			aer, err := c.GetAppExecResults(tx.Hash(), trigger.All)
			require.NoError(t, err)
			require.Len(t, aer, 1)
			require.EqualValues(t, tx.Nonce, aer[0].GasConsumed)
		}
		sr, err := c.StateRoot(b.Index)
		require.NoError(t, err)
		require.Equal(t, b.Index, sr.Index)
	}
	ok, err := c.HasTransaction(util.Uint256{1, 2, 3})
	require.NoError(t, err)
	require.False(t, ok)
	// Duplicates and gaps.
	require.ErrorIs(t, c.AddBlock(blocks[3]), ErrAlreadyExists)
	_, err = c.GetBlockByIndex(c.BlockHeight() + 1)
	require.ErrorIs(t, err, ErrNotFound)
}

func TestChainRejectsBadBlockKeepsState(t *testing.T) {
	blocks := refChainBlocks(t, "chain50x2")
	c, err := Open(testConfig(t, "chain50x2", storage.NewMemoryStore()))
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.AddBlock(blocks[1]))
	root := c.CurrentStateRoot()
	require.ErrorIs(t, c.AddBlock(blocks[3]), ErrBlockIndex)
	bad := *blocks[2]
	bad.Header = *corrupt(blocks[2], func(h *block.Header) { h.Witness.InvocationScript[3] ^= 0xff })
	err = c.AddBlock(&bad)
	require.ErrorIs(t, err, ErrWitness)
	require.Contains(t, err.Error(), "block 2 (")
	require.EqualValues(t, 1, c.BlockHeight())
	require.Equal(t, root, c.CurrentStateRoot())
	// A failing execution leaves nothing behind either.
	c.exec = &scriptedExecutor{failAt: 2}
	require.Error(t, c.AddBlock(blocks[2]))
	require.Equal(t, root, c.CurrentStateRoot())
	require.Equal(t, root, expectedRoot(t, c))
	c.exec = &scriptedExecutor{}
	require.NoError(t, c.AddBlock(blocks[2]))
}

func TestChainSkipBlockVerification(t *testing.T) {
	blocks := refChainBlocks(t, "chain50x2")
	cfg := testConfig(t, "chain50x2", storage.NewMemoryStore())
	cfg.Ledger.SkipBlockVerification = true
	c, err := Open(cfg)
	require.NoError(t, err)
	defer c.Close()
	bad := *blocks[1]
	bad.Header = *corrupt(blocks[1], func(h *block.Header) { h.Witness.InvocationScript[3] ^= 0xff })
	require.NoError(t, c.AddBlock(&bad))
}

func TestChainReopen(t *testing.T) {
	blocks := refChainBlocks(t, "chain50x2")
	dir := filepath.Join(t.TempDir(), "db")
	c, err := Open(testConfig(t, "chain50x2", levelDB(t, dir)))
	require.NoError(t, err)
	for _, b := range blocks[1:30] {
		require.NoError(t, c.AddBlock(b))
	}
	root, hash := c.CurrentStateRoot(), c.CurrentBlockHash()
	require.NoError(t, c.Close())
	require.ErrorIs(t, c.AddBlock(blocks[30]), ErrClosed)

	c, err = Open(testConfig(t, "chain50x2", levelDB(t, dir)))
	require.NoError(t, err)
	require.EqualValues(t, 29, c.BlockHeight())
	require.Equal(t, root, c.CurrentStateRoot())
	require.Equal(t, hash, c.CurrentBlockHash())
	ok, err := c.HasTransaction(blocks[5].Transactions[0].Hash())
	require.NoError(t, err)
	require.True(t, ok, "bloom filled at open")
	for _, b := range blocks[30:] {
		require.NoError(t, c.AddBlock(b))
	}
	require.Equal(t, expectedRoot(t, c), c.CurrentStateRoot())
	require.NoError(t, c.Close())

	// Another network's configuration is refused.
	cfg := testConfig(t, "chain50x2", levelDB(t, dir))
	cfg.Protocol.Magic++
	_, err = Open(cfg)
	require.ErrorIs(t, err, ErrVersion)
}

func TestChainHeaderHashBatches(t *testing.T) {
	// Blocks built in code (no verification) past one header batch.
	cfg := testConfig(t, "chain50x2", levelDB(t, filepath.Join(t.TempDir(), "db")))
	cfg.Ledger.SkipBlockVerification = true
	c, err := Open(cfg)
	require.NoError(t, err)
	n := uint32(headerBatch + 10)
	prev := c.mu.tip
	for i := uint32(1); i <= n; i++ {
		b := &block.Block{Header: block.Header{Index: i, PrevHash: prev.Hash(), Timestamp: prev.Timestamp + 1,
			NextConsensus: prev.NextConsensus, Witness: prev.Witness}}
		b.RebuildMerkleRoot()
		require.NoError(t, c.AddBlock(b))
		prev = &b.Header
	}
	hashes := append([]util.Uint256(nil), c.mu.headers...)
	_, err = c.cache.PersistSync()
	require.NoError(t, err)
	loaded, err := c.loadHeaderHashes(n)
	require.NoError(t, err)
	require.Equal(t, hashes, loaded)
	require.NoError(t, c.Close())
}

func TestStorageChangesFromChain(t *testing.T) {
	blocks := refChainBlocks(t, "chain50x2")
	cfg := testConfig(t, "chain50x2", storage.NewMemoryStore())
	got := map[uint32][]StorageChange{}
	cfg.OnStorageChanges = func(i uint32, ch []StorageChange) { got[i] = ch }
	c, err := Open(cfg)
	require.NoError(t, err)
	defer c.Close()
	for _, b := range blocks[1:4] {
		require.NoError(t, c.AddBlock(b))
	}
	key := func(k string) string {
		return string(binary.LittleEndian.AppendUint32(nil, uint32(testContractID))) + k
	}
	idx := func(i uint32) string { return string(binary.LittleEndian.AppendUint32(nil, i)) }
	find := func(ch []StorageChange, k string) (StorageChange, bool) {
		for _, c := range ch {
			if string(c.Key) == k {
				return c, true
			}
		}
		return StorageChange{}, false
	}
	// Block 1 changes the genesis counter and adds its own item.
	ch, ok := find(got[1], key("height"))
	require.True(t, ok)
	require.Equal(t, Changed, ch.State)
	ch, ok = find(got[1], key("b"+idx(1)))
	require.True(t, ok)
	require.Equal(t, Added, ch.State)
	// Block 3 deletes block 2's item.
	ch, ok = find(got[3], key("b"+idx(2)))
	require.True(t, ok)
	require.Equal(t, Deleted, ch.State)
	require.Nil(t, ch.Value)
	// The Ledger's items are storage too (the trie skips them, the dump does not).
	_, ok = find(got[2], string(binary.LittleEndian.AppendUint32(nil, uint32(0xfffffffc)))+idx(2))
	require.True(t, ok)
	for i := 1; i < len(got[2]); i++ {
		require.Negative(t, bytes.Compare(got[2][i-1].Key, got[2][i].Key), "sorted")
	}
}

func TestSubscriptions(t *testing.T) {
	blocks := refChainBlocks(t, "chain50x2")
	c, err := Open(testConfig(t, "chain50x2", storage.NewMemoryStore()))
	require.NoError(t, err)
	defer c.Close()
	all := c.Subscribe(EventAll, 0)
	blocksOnly := c.Subscribe(EventBlock, 0)
	slow := c.Subscribe(EventAll, 5) // never read: dropped, never blocks
	pending := c.Subscribe(EventAll, 0)
	txExec := c.Subscribe(EventTransaction|EventExecution, 0) // the RPC server's kinds
	for _, b := range blocks[1:11] {
		require.NoError(t, c.AddBlock(b))
	}
	// Closing with undelivered events does not block and closes C.
	done := make(chan struct{})
	go func() { pending.Close(); pending.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close blocked")
	}
	for range pending.C {
	}
	for i := uint32(1); i <= 10; i++ {
		e := <-blocksOnly.C
		require.Equal(t, EventBlock, e.Kind)
		require.Equal(t, i, e.Block.Index)
	}
	// Order for the first block: OnPersist, per tx: tx, execution, notification, PostPersist, block.
	want := []EventKind{EventExecution}
	for range blocks[1].Transactions {
		want = append(want, EventTransaction, EventExecution, EventNotification)
	}
	want = append(want, EventExecution, EventBlock)
	for i, k := range want {
		e := <-all.C
		require.Equal(t, k, e.Kind, "event %d", i)
	}
	// Without notifications: the same order, the executions' events kept.
	want = want[:0]
	for _, b := range blocks[1:3] {
		want = append(want, EventExecution)
		for range b.Transactions {
			want = append(want, EventTransaction, EventExecution)
		}
		want = append(want, EventExecution)
	}
	for i, k := range want {
		e := <-txExec.C
		require.Equal(t, k, e.Kind, "event %d", i)
		if k == EventExecution {
			require.Equal(t, e.Container, e.Execution.Container)
		}
	}
	txExec.Close()
	for range slow.C {
	}
	require.ErrorIs(t, slow.Err(), ErrSlowSubscriber)
	require.NoError(t, all.Err())
	all.Close()
	blocksOnly.Close()
}
