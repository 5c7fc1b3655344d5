package chain

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

const (
	syncTestInterval = 10
	syncTestMTB      = 25
	syncTestBlocks   = 47 // sync point 40
)

// syncConfig is a StateRootInHeader network with state exchange, a short
// sync interval and a short traceable window.
func syncConfig(t testing.TB) config.Config {
	cfg := unitTestnet(t)
	cfg.ProtocolConfiguration.StateRootInHeader = true
	cfg.ProtocolConfiguration.P2PStateExchangeExtensions = true
	cfg.ProtocolConfiguration.StateSyncInterval = syncTestInterval
	cfg.ProtocolConfiguration.MaxTraceableBlocks = syncTestMTB
	cfg.ProtocolConfiguration.Genesis.MaxTraceableBlocks = syncTestMTB
	return cfg
}

// syncSource generates the chain the tests synchronise from.
func syncSource(t *testing.T) *Chain {
	t.Helper()
	a := openMemChain(t, syncConfig(t))
	_, err := Generate(context.Background(), a, io.Discard, GenerateOptions{Blocks: syncTestBlocks,
		Validators: validatorKeys(t, 3)})
	require.NoError(t, err)
	return a
}

// syncTarget opens a light node (RemoveUntraceableBlocks) over st, which
// survives Close.
func syncTarget(t *testing.T, st storage.Store) *Chain {
	t.Helper()
	return syncTargetWith(t, st, func(l *config.Ledger) { l.RemoveUntraceableBlocks = true })
}

// syncTargetWith opens a node over st with the ledger settings set.
func syncTargetWith(t testing.TB, st storage.Store, set func(*config.Ledger)) *Chain {
	t.Helper()
	cfg := syncConfig(t)
	set(&cfg.ApplicationConfiguration.Ledger)
	n, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: noCloseStore{st}, Natives: n, BloomCapacity: 1000})
	require.NoError(t, err)
	return c
}

func headersOf(t testing.TB, a *Chain, from, to uint32) []*block.Header {
	var out []*block.Header
	for i := from; i <= to; i++ {
		h, err := a.GetHeaderByIndex(i)
		require.NoError(t, err)
		out = append(out, h)
	}
	return out
}

// peerNodes answers a getmptdata request as a peer does: the subtrees
// under the asked hashes, up to limit nodes.
func peerNodes(t *testing.T, a *Chain, hashes []util.Uint256, limit int) [][]byte {
	var out [][]byte
	for _, h := range hashes {
		require.NoError(t, a.WalkStateNodes(h, func(_ util.Uint256, enc []byte) mpt.WalkAction {
			if len(out) == limit {
				return mpt.WalkStop
			}
			out = append(out, bytes.Clone(enc))
			return mpt.WalkOn
		}))
	}
	return out
}

// feedMPT feeds b's module a's trie nodes in shuffled batches with
// duplicates and a node corrupted in transit, for at most rounds rounds.
func feedMPT(t *testing.T, a, b *Chain, rnd *rand.Rand, rounds int) {
	ss := b.StateSync()
	for i := 0; i < rounds && ss.NeedMPTNodes(); i++ {
		nodes := peerNodes(t, a, ss.UnknownMPTNodes(8), 40)
		require.NotEmpty(t, nodes)
		nodes = append(nodes, nodes[rnd.IntN(len(nodes))])
		bad := bytes.Clone(nodes[rnd.IntN(len(nodes))])
		bad[len(bad)-1] ^= 0x55
		nodes = append(nodes, bad)
		rnd.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
		if err := ss.AddMPTNodes(nodes); err != nil {
			// The corrupted node did not decode: the others are taken.
			require.ErrorIs(t, err, ErrStateSync)
			require.Contains(t, err.Error(), fmt.Sprintf("node of %d bytes", len(bad)))
		}
		badHash := hash.DoubleSha256(bad)
		_, err := b.cache.Get(append(storage.DataMPT.Bytes(), badHash[:]...))
		require.ErrorIs(t, err, storage.ErrKeyNotFound, "corrupted node stored")
	}
}

// contractStorage is every contract storage item of c.
func contractStorage(t *testing.T, c *Chain) map[string]string {
	out := map[string]string{}
	require.NoError(t, c.cache.Seek(storage.SeekRange{Prefix: storage.STStorage.Bytes()}, func(k, v []byte) bool {
		out[string(k)] = string(v)
		return true
	}))
	return out
}

// gasHolders are the accounts with a GAS balance record in c.
func gasHolders(t *testing.T, c *Chain) []util.Uint160 {
	var out []util.Uint160
	id := native.GasID
	prefix := binary.LittleEndian.AppendUint32(storage.STStorage.Bytes(), uint32(id))
	require.NoError(t, c.cache.Seek(storage.SeekRange{Prefix: append(prefix, 20)}, func(k, _ []byte) bool {
		var u util.Uint160
		copy(u[:], k[len(prefix)+1:])
		out = append(out, u)
		return true
	}))
	return out
}

// TestStateSync synchronises a light node from a generated chain using
// only its headers, the blocks of the window and its trie nodes
// (shuffled, in batches, with duplicates and corrupted ones), then adds
// the following blocks: every state root, storage item and GAS balance is
// the source's.
func TestStateSync(t *testing.T) {
	a := syncSource(t)
	t.Run("RemoveUntraceableBlocks", func(t *testing.T) {
		testStateSync(t, a, func(l *config.Ledger) { l.RemoveUntraceableBlocks = true })
	})
	t.Run("KeepOnlyLatestState", func(t *testing.T) {
		testStateSync(t, a, func(l *config.Ledger) { l.RemoveUntraceableBlocks, l.KeepOnlyLatestState = true, true })
	})
}

func testStateSync(t *testing.T, a *Chain, set func(*config.Ledger)) {
	rnd := rand.New(rand.NewPCG(1, 2))
	b := syncTargetWith(t, storage.NewMemoryStore(), set)
	defer b.Close()
	ss := b.StateSync()
	require.False(t, ss.IsInitialized())
	require.True(t, ss.IsActive(), "on until Init decides")
	require.NoError(t, ss.Init(a.BlockHeight()))
	require.True(t, ss.IsActive())
	require.EqualValues(t, 40, ss.SyncPoint())
	require.NoError(t, b.cache.Seek(storage.SeekRange{Prefix: storage.DataMPT.Bytes()}, func(k, _ []byte) bool {
		t.Errorf("genesis trie node %x kept", k)
		return false
	}))
	require.True(t, ss.NeedHeaders())
	require.ErrorIs(t, ss.AddMPTNodes(nil), ErrStateSync, "nodes before headers")

	// A header with a bad witness is refused; those before it are kept.
	hdrs := headersOf(t, a, 1, a.BlockHeight())
	bad := *hdrs[20]
	bad.Witness.InvocationScript = bytes.Clone(bad.Witness.InvocationScript)
	bad.Witness.InvocationScript[5] ^= 1
	bad.InvalidateCache()
	err := ss.AddHeaders(append(append([]*block.Header{}, hdrs[:20]...), &bad)...)
	require.Error(t, err)
	require.EqualValues(t, 20, b.HeaderHeight())
	require.EqualValues(t, 0, b.BlockHeight())
	require.ErrorIs(t, b.AddBlock(mustBlock(t, a, 1)), ErrStateSyncActive)
	require.NoError(t, ss.AddHeaders(hdrs[10:30]...), "overlap")
	require.NoError(t, ss.AddHeaders(hdrs[30:]...))
	require.False(t, ss.NeedHeaders())
	require.True(t, ss.NeedMPTNodes())

	require.ErrorIs(t, ss.AddMPTNodes([][]byte{{0xff, 1, 2}}), ErrStateSync, "undecodable node")
	feedMPT(t, a, b, rnd, 1000)
	require.False(t, ss.NeedMPTNodes())
	require.True(t, ss.NeedBlocks())
	root := hdrs[40].PrevStateRoot // header 41
	_, err = b.cache.Get(append(storage.DataMPT.Bytes(), root[:]...))
	require.NoError(t, err, "the nodes are stored where feedMPT looks for the corrupted ones")
	from, to, ok := ss.BlockRange()
	require.True(t, ok)
	require.EqualValues(t, 40-syncTestMTB+1, from)
	require.EqualValues(t, 40, to)

	// A block that does not match its header is refused.
	blk := mustBlock(t, a, from)
	forged := *blk
	forged.Header = blk.Header
	forged.Timestamp++
	forged.InvalidateCache()
	require.ErrorIs(t, ss.AddBlock(&forged), ErrHeaderMismatch)
	require.ErrorIs(t, ss.AddBlock(mustBlock(t, a, from+1)), ErrBlockIndex)
	require.Equal(t, from-1, ss.BlockHeight())
	for i := from; i <= to; i++ {
		require.NoError(t, ss.AddBlock(mustBlock(t, a, i)), "block %d", i)
		if i == from {
			require.ErrorIs(t, ss.AddBlock(mustBlock(t, a, i)), ErrAlreadyExists)
		}
	}
	require.False(t, ss.IsActive())
	checkSynced(t, a, b)
}

func mustBlock(t testing.TB, a *Chain, i uint32) *block.Block {
	t.Helper()
	blk, err := a.GetBlockByIndex(i)
	require.NoError(t, err)
	return blk
}

// checkSynced checks b right after its jump and while it adds a's
// following blocks.
func checkSynced(t *testing.T, a, b *Chain) {
	t.Helper()
	p := b.BlockHeight()
	require.EqualValues(t, 40, p)
	require.Equal(t, mustBlock(t, a, p).Hash(), b.CurrentBlockHash())
	want, err := a.StateRoot(p)
	require.NoError(t, err)
	require.Equal(t, want.Root, b.CurrentStateRoot())
	require.Equal(t, contractStorage(t, a.historicCopy(t, p)), contractStorage(t, b))
	walked := func(c *Chain) int {
		n := 0
		require.NoError(t, c.WalkStateNodes(want.Root, func(util.Uint256, []byte) mpt.WalkAction {
			n++
			return mpt.WalkOn
		}))
		return n
	}
	require.Equal(t, walked(a), walked(b), "serves the trie at the sync point")
	_, err = b.GetBlockByIndex(p - syncTestMTB + 1)
	require.NoError(t, err, "first block of the window")
	_, err = b.GetBlockByIndex(p - syncTestMTB)
	require.ErrorIs(t, err, ErrNotFound, "below the window: only the header")
	_, err = b.GetHeaderByIndex(p - syncTestMTB)
	require.NoError(t, err)
	for i := p + 1; i <= a.BlockHeight(); i++ {
		require.NoError(t, b.AddBlock(mustBlock(t, a, i)), "block %d", i)
		want, err := a.StateRoot(i)
		require.NoError(t, err)
		require.Equal(t, want.Root, b.CurrentStateRoot(), "state root %d", i)
	}
	require.Equal(t, contractStorage(t, a), contractStorage(t, b))
	holders := gasHolders(t, a)
	require.NotEmpty(t, holders)
	for _, h := range holders {
		wb, err := a.GASBalance(h)
		require.NoError(t, err)
		gb, err := b.GASBalance(h)
		require.NoError(t, err)
		require.Equal(t, wb, gb, "GAS of %s", h.StringLE())
	}
}

// historicCopy returns a chain holding a's contract storage after block p:
// a reset of a copy of a's store.
func (c *Chain) historicCopy(t *testing.T, p uint32) *Chain {
	t.Helper()
	mem := storage.NewMemoryStore()
	require.NoError(t, c.cache.Seek(storage.SeekRange{}, func(k, v []byte) bool {
		require.NoError(t, mem.Put(bytes.Clone(k), bytes.Clone(v)))
		return true
	}))
	n, err := NewNativeSet(c.proto)
	require.NoError(t, err)
	cp, err := Open(Config{Protocol: *c.proto, Ledger: c.cfg.Ledger, Store: mem, Natives: n, BloomCapacity: 1000})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, cp.Close()) })
	require.NoError(t, cp.Reset(p))
	return cp
}

// TestStateSyncResumes closes and reopens the light node in every stage
// (headers, trie nodes, blocks) and interrupts the jump in each of its
// stages: the next open and Init go on from where it stopped.
func TestStateSyncResumes(t *testing.T) {
	a := syncSource(t)
	hdrs := headersOf(t, a, 1, a.BlockHeight())
	for _, failAt := range []byte{jumpStageStorage, jumpStageFinish} {
		t.Run(fmt.Sprintf("jump stage %d", failAt), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(3, uint64(failAt)))
			st := storage.NewMemoryStore()
			b := syncTarget(t, st)
			reopen := func() *StateSync {
				require.NoError(t, b.Close())
				b = syncTarget(t, st)
				ss := b.StateSync()
				require.NoError(t, ss.Init(a.BlockHeight()))
				return ss
			}
			require.NoError(t, b.StateSync().Init(a.BlockHeight()))
			require.NoError(t, b.StateSync().AddHeaders(hdrs[:25]...))

			ss := reopen()
			require.True(t, ss.NeedHeaders())
			require.EqualValues(t, 25, b.HeaderHeight())
			require.ErrorIs(t, b.AddBlock(mustBlock(t, a, 1)), ErrStateSyncActive)
			require.NoError(t, ss.AddHeaders(hdrs[25:]...))
			feedMPT(t, a, b, rnd, 3)
			require.True(t, ss.NeedMPTNodes())

			ss = reopen()
			require.True(t, ss.NeedMPTNodes())
			require.EqualValues(t, a.BlockHeight(), b.HeaderHeight())
			feedMPT(t, a, b, rnd, 1000)
			from, to, ok := ss.BlockRange()
			require.True(t, ok)
			for i := from; i < from+5; i++ {
				require.NoError(t, ss.AddBlock(mustBlock(t, a, i)))
			}

			ss = reopen()
			require.True(t, ss.NeedBlocks())
			from2, to2, ok := ss.BlockRange()
			require.True(t, ok)
			require.Equal(t, from+5, from2)
			require.Equal(t, to, to2)
			for i := from2; i < to; i++ {
				require.NoError(t, ss.AddBlock(mustBlock(t, a, i)))
			}
			b.cfg.jumpHook = func(stage byte) error {
				if stage == failAt {
					return errInjected
				}
				return nil
			}
			require.ErrorIs(t, ss.AddBlock(mustBlock(t, a, to)), errInjected)
			require.Error(t, b.AddBlock(mustBlock(t, a, to+1)))

			require.NoError(t, b.Close())
			b = syncTarget(t, st) // completes the jump
			defer b.Close()
			require.EqualValues(t, to, b.BlockHeight())
			require.NoError(t, b.StateSync().Init(a.BlockHeight()))
			require.False(t, b.StateSync().IsActive(), "in sync")
			checkSynced(t, a, b)
		})
	}
}

var errInjected = errors.New("injected failure")

// TestStateSyncOff: without RemoveUntraceableBlocks (an archival node, as
// neo-go decides), or with peers too close, blocks are executed as usual;
// a configuration without StateRootInHeader is refused.
func TestStateSyncOff(t *testing.T) {
	a := syncSource(t)
	archival := syncTargetWith(t, storage.NewMemoryStore(), func(*config.Ledger) {})
	defer archival.Close()
	ss := archival.StateSync()
	require.True(t, ss.IsInitialized())
	require.False(t, ss.IsActive())
	require.ErrorIs(t, ss.Init(a.BlockHeight()), ErrStateSync)
	require.NoError(t, archival.AddBlock(mustBlock(t, a, 1)))

	light := syncTarget(t, storage.NewMemoryStore())
	defer light.Close()
	require.NoError(t, light.StateSync().Init(2*syncTestInterval-1))
	require.False(t, light.StateSync().IsActive(), "peers below two intervals")
	require.NoError(t, light.AddBlock(mustBlock(t, a, 1)))

	// A chain that went on executing blocks is too far below a new point.
	light2 := syncTarget(t, storage.NewMemoryStore())
	defer light2.Close()
	require.NoError(t, light2.AddBlock(mustBlock(t, a, 1)))
	require.ErrorIs(t, light2.StateSync().Init(100*syncTestInterval), ErrStateSync)

	cfg := syncConfig(t)
	cfg.ProtocolConfiguration.StateRootInHeader = false
	n, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	_, err = Open(Config{Protocol: cfg.ProtocolConfiguration, Store: storage.NewMemoryStore(), Natives: n, BloomCapacity: 1000})
	require.ErrorIs(t, err, ErrBadConfig)
}

// syncFrom synchronises dst's state from src's headers, trie nodes and
// blocks only.
func syncFrom(t *testing.T, src, dst *Chain, rnd *rand.Rand) {
	t.Helper()
	ss := dst.StateSync()
	require.NoError(t, ss.Init(src.BlockHeight()))
	require.True(t, ss.NeedHeaders())
	top := src.HeaderHeight()
	for i := uint32(1); i <= top; i += 7 {
		require.NoError(t, ss.AddHeaders(headersOf(t, src, i, min(i+6, top))...))
	}
	feedMPT(t, src, dst, rnd, 1000)
	from, to, ok := ss.BlockRange()
	require.True(t, ok)
	for i := from; i <= to; i++ {
		require.NoError(t, ss.AddBlock(mustBlock(t, src, i)))
	}
	require.False(t, ss.IsActive())
}

// TestStateSyncFromLightNode: a node that synchronised its state serves
// the next one (headers, including those below its blocks; the trie at
// the sync point; the blocks of the window).
func TestStateSyncFromLightNode(t *testing.T) {
	a := syncSource(t)
	rnd := rand.New(rand.NewPCG(5, 6))
	b := syncTarget(t, storage.NewMemoryStore())
	defer b.Close()
	syncFrom(t, a, b, rnd)
	require.Greater(t, b.HeaderHeight(), b.BlockHeight())
	c := syncTarget(t, storage.NewMemoryStore())
	defer c.Close()
	syncFrom(t, b, c, rnd)
	checkSynced(t, a, c)
}
