package dao_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

func loadBlocks(t *testing.T) []*block.Block {
	var out []*block.Block
	for _, name := range conformance.Chains(t) {
		f, err := os.Open(filepath.Join(conformance.Dir(t, "chains", name), "blocks.jsonl"))
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var l struct{ Raw string }
			require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
			raw, err := base64.StdEncoding.DecodeString(l.Raw)
			require.NoError(t, err)
			b, err := block.NewBlockFromBytes(raw)
			require.NoError(t, err)
			out = append(out, b)
		}
		require.NoError(t, sc.Err())
		require.NoError(t, f.Close())
	}
	return out
}

// TestLedgerRoundTrip stores every block and transaction of the reference
// chains with execution results and reads them back byte for byte.
func TestLedgerRoundTrip(t *testing.T) {
	d := dao.New(storage.NewMemoryStore())
	blocks := loadBlocks(t)
	require.NotEmpty(t, blocks)
	for _, b := range blocks {
		onp := &state.AppExecResult{Container: b.Hash(), Execution: state.Execution{Trigger: trigger.OnPersist, VMState: vm.HaltState}}
		post := &state.AppExecResult{Container: b.Hash(), Execution: state.Execution{Trigger: trigger.PostPersist, VMState: vm.HaltState, GasConsumed: 1}}
		require.NoError(t, d.StoreAsBlock(b, onp, post))
		for _, tx := range b.Transactions {
			aer := &state.AppExecResult{Container: tx.Hash(), Execution: state.Execution{
				Trigger: trigger.Application, VMState: vm.HaltState, Stack: []stackitem.Item{stackitem.NewInt(int64(b.Index))}}}
			require.NoError(t, d.StoreAsTransaction(tx, b.Index, aer))
		}
		require.NoError(t, d.StoreAsCurrentBlock(b))
	}
	for _, b := range blocks {
		got, err := d.GetBlock(b.Hash())
		require.NoError(t, err)
		want, err := b.Bytes()
		require.NoError(t, err)
		gb, err := got.Bytes()
		require.NoError(t, err)
		require.Equal(t, want, gb)
		raw, err := d.AppendBlockBytes([]byte{0xaa}, b.Hash())
		require.NoError(t, err)
		require.Equal(t, append([]byte{0xaa}, want...), raw, "stored bytes of block %d", b.Index)
		res, err := d.GetAppExecResults(b.Hash(), trigger.OnPersist|trigger.PostPersist)
		require.NoError(t, err)
		require.Len(t, res, 2)
		require.Equal(t, trigger.PostPersist, res[1].Trigger)
		res, err = d.GetAppExecResults(b.Hash(), trigger.PostPersist)
		require.NoError(t, err)
		require.Len(t, res, 1)
		for _, tx := range b.Transactions {
			gt, h, err := d.GetTransaction(tx.Hash())
			require.NoError(t, err)
			require.Equal(t, b.Index, h)
			require.Equal(t, tx.Hash(), gt.Hash())
			res, err := d.GetAppExecResults(tx.Hash(), trigger.Application)
			require.NoError(t, err)
			require.Len(t, res, 1)
			require.True(t, stackitem.NewInt(int64(b.Index)).Equals(res[0].Stack[0]))
			require.ErrorIs(t, d.HasTransaction(tx.Hash(), nil, b.Index, 100), dao.ErrAlreadyExists)
		}
	}
	last := blocks[len(blocks)-1]
	h, idx, err := d.GetCurrentBlock()
	require.NoError(t, err)
	require.Equal(t, last.Hash(), h)
	require.Equal(t, last.Index, idx)
	_, err = d.GetBlock(util.Uint256{1})
	require.ErrorIs(t, err, dao.ErrNotFound)
	require.ErrorIs(t, err, storage.ErrKeyNotFound)
	_, err = d.AppendBlockBytes(nil, util.Uint256{1})
	require.ErrorIs(t, err, dao.ErrNotFound)
	_, _, err = d.GetTransaction(last.Hash())
	require.ErrorIs(t, err, dao.ErrNotFound, "a block is not a transaction")
}

// TestHeaderOnlyIsNoBlock: a header stored ahead of its block is not
// served as a block, decoded or as bytes.
func TestHeaderOnlyIsNoBlock(t *testing.T) {
	d := dao.New(storage.NewMemoryStore())
	for _, b := range loadBlocks(t) {
		if len(b.Transactions) == 0 {
			continue
		}
		require.NoError(t, d.StoreHeader(&b.Header))
		_, err := d.GetBlock(b.Hash())
		require.ErrorIs(t, err, dao.ErrNotFound)
		_, err = d.AppendBlockBytes(nil, b.Hash())
		require.ErrorIs(t, err, dao.ErrNotFound)
		return
	}
	t.Fatal("no block with transactions in the reference chains")
}

func TestHeaderHashesAndPointers(t *testing.T) {
	d := dao.New(storage.NewMemoryStore())
	hs := []util.Uint256{{1}, {2}, {3}}
	require.NoError(t, d.StoreHeaderHashes(hs, 2000))
	got, err := d.GetHeaderHashes(2000)
	require.NoError(t, err)
	require.Equal(t, hs, got)
	_, err = d.GetHeaderHashes(0)
	require.ErrorIs(t, err, dao.ErrNotFound)
	require.NoError(t, d.PutCurrentHeader(util.Uint256{7}, 9))
	h, i, err := d.GetCurrentHeader()
	require.NoError(t, err)
	require.Equal(t, util.Uint256{7}, h)
	require.Equal(t, uint32(9), i)
	// Corrupted records are reported, not panicked on.
	require.NoError(t, d.Store().Put(storage.SYSCurrentHeader.Bytes(), []byte{1}))
	_, _, err = d.GetCurrentHeader()
	require.ErrorIs(t, err, dao.ErrCorrupted)
}

func TestConflictStubs(t *testing.T) {
	d := dao.New(storage.NewMemoryStore())
	victim := util.Uint256{0xee}
	signer := transaction.Signer{Account: util.Uint160{5}}
	tx := &transaction.Transaction{Script: []byte{0x40}, ValidUntilBlock: 10, Signers: []transaction.Signer{signer},
		Attributes: []transaction.Attribute{{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: victim}}}}
	require.NoError(t, d.StoreAsTransaction(tx, 5, nil))
	require.ErrorIs(t, d.HasTransaction(victim, nil, 6, 100), dao.ErrHasConflicts)
	require.ErrorIs(t, d.HasTransaction(victim, []transaction.Signer{signer}, 6, 100), dao.ErrHasConflicts)
	require.NoError(t, d.HasTransaction(victim, []transaction.Signer{{Account: util.Uint160{6}}}, 6, 100))
	require.NoError(t, d.HasTransaction(victim, []transaction.Signer{signer}, 200, 100), "out of traceable range")
	_, _, err := d.GetTransaction(victim)
	require.ErrorIs(t, err, dao.ErrNotFound, "a stub is not a transaction")
}

func testContract(t *testing.T, id int32, name string) *state.Contract {
	nf, err := nef.NewFile("c", "", nil, []byte{0x40})
	require.NoError(t, err)
	return &state.Contract{ID: id, Hash: util.Uint160{byte(id)}, NEF: *nf, Manifest: *manifest.DefaultManifest(name)}
}

func TestContractsAndPrivate(t *testing.T) {
	d := dao.New(storage.NewMemoryStore())
	c := testContract(t, 3, "a")
	require.NoError(t, d.PutContract(c))
	got, err := d.GetContract(c.Hash)
	require.NoError(t, err)
	require.Equal(t, "a", got.Manifest.Name)
	again, err := d.GetContract(c.Hash)
	require.NoError(t, err)
	require.Same(t, got, again, "decoded state is cached")
	byID, err := d.GetContractByID(3)
	require.NoError(t, err)
	require.Same(t, got, byID)

	// An update in a private layer is seen there only, until persisted.
	p := d.Private()
	upd := testContract(t, 3, "b")
	require.NoError(t, p.PutContract(upd))
	pc, err := p.GetContract(c.Hash)
	require.NoError(t, err)
	require.Equal(t, "b", pc.Manifest.Name)
	dc, err := d.GetContract(c.Hash)
	require.NoError(t, err)
	require.Equal(t, "a", dc.Manifest.Name, "the cache never serves another layer's state")
	require.NoError(t, p.Discard())
	pc, err = p.GetContract(c.Hash)
	require.NoError(t, err)
	require.Equal(t, "a", pc.Manifest.Name)
	require.NoError(t, p.PutContract(upd))
	require.Equal(t, 2, p.Changes())
	require.NoError(t, p.Persist())
	dc, err = d.GetContract(c.Hash)
	require.NoError(t, err)
	require.Equal(t, "b", dc.Manifest.Name)
	require.ErrorIs(t, d.Persist(), dao.ErrNotPrivate)

	require.NoError(t, d.DeleteContract(upd))
	_, err = d.GetContract(c.Hash)
	require.True(t, dao.IsNotFound(err))
	// A corrupted state is an error.
	require.NoError(t, d.PutStorageItem(dao.ManagementID, dao.ContractKey(c.Hash), []byte{1, 2}))
	_, err = d.GetContract(c.Hash)
	require.ErrorIs(t, err, dao.ErrCorrupted)
}

func TestStorageItems(t *testing.T) {
	d := dao.New(storage.NewMemoryStore())
	require.Equal(t, []byte{0x70, 0xff, 0xff, 0xff, 0xff, 'k'}, dao.StorageKey(-1, []byte("k")))
	for i, k := range []string{"a1", "a2", "b1"} {
		require.NoError(t, d.PutStorageItem(5, []byte(k), []byte{byte(i)}))
	}
	require.NoError(t, d.PutStorageItem(6, []byte("a3"), []byte{9}))
	var keys []string
	require.NoError(t, d.SeekStorage(5, storage.SeekRange{Prefix: []byte("a"), Backwards: true}, func(k, _ []byte) bool {
		keys = append(keys, string(k))
		return true
	}))
	require.Equal(t, []string{"a2", "a1"}, keys)
	require.NoError(t, d.DeleteStorageItem(5, []byte("a1")))
	_, err := d.GetStorageItem(5, []byte("a1"))
	require.True(t, dao.IsNotFound(err))
}

func FuzzStoredRecords(f *testing.F) {
	f.Add([]byte{1, 0, 0}, byte(1))
	f.Add([]byte{2, 1, 0, 0, 0}, byte(2))
	f.Fuzz(func(t *testing.T, v []byte, kind byte) {
		d := dao.New(storage.NewMemoryStore())
		h := util.Uint256{1}
		key := append([]byte{byte(storage.DataExecutable)}, h.BytesBE()...)
		require.NoError(t, d.Store().Put(key, v))
		require.NoError(t, d.Store().Put(storage.SYSCurrentBlock.Bytes(), v))
		require.NoError(t, d.StoreHeaderHashes(nil, 0))
		_ = d.Store().Put([]byte{byte(storage.IXHeaderHashList), 0, 0, 0, kind}, v)
		_, _ = d.GetBlock(h)
		_, _ = d.AppendBlockBytes(nil, h)
		_, _, _ = d.GetTransaction(h)
		_, _ = d.GetAppExecResults(h, trigger.All)
		_, _, _ = d.GetCurrentBlock()
		_, _ = d.GetHeaderHashes(uint32(kind))
	})
}
