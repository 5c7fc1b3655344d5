package mpt

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/n3d-io/n3d/internal/cputime"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// benchStore is a map store without copies: it measures the trie, not the
// store.
type benchStore map[string][]byte

func (s benchStore) Get(k []byte) ([]byte, error) { return s[string(k)], nil }
func (s benchStore) Put(k, v []byte) error        { s[string(k)] = v; return nil }
func (s benchStore) Delete(k []byte) error        { delete(s, string(k)); return nil }

// benchKeys returns n storage-like keys: a contract id, a prefix byte and a
// 20-byte account, as NEP-17 balances are keyed.
func benchKeys(r *rand.Rand, n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		k := make([]byte, 4+1+20)
		binary.LittleEndian.PutUint32(k, uint32(int32(-6+r.IntN(8))))
		k[4] = 0x14
		for j := 5; j < len(k); j++ {
			k[j] = byte(r.Uint32())
		}
		keys[i] = k
	}
	return keys
}

func benchValue(r *rand.Rand) []byte {
	v := make([]byte, 20+r.IntN(40))
	for i := range v {
		v[i] = byte(r.Uint32())
	}
	return v
}

// benchStores are the stores the benchmarks run on: the bare map (the
// trie's own cost) and the node's write cache over a memory store (the
// setting neo-go's benchmark uses with its own MemCachedStore).
var benchStores = []struct {
	name string
	new  func() Store
}{
	{"map", func() Store { return benchStore{} }},
	{"memcached", func() Store { return storage.NewMemCachedStore(storage.NewMemoryStore()) }},
}

func benchTrie(b testing.TB, keys [][]byte) (*Trie, Store) {
	return benchTrieOn(b, storage.NewMemCachedStore(storage.NewMemoryStore()), keys)
}

func benchTrieOn(b testing.TB, s Store, keys [][]byte) (*Trie, Store) {
	tr, err := New([32]byte{}, Config{
		Store:      s,
		Prefix:     3,
		Mode:       ModeLatest,
		IsNotFound: func(err error) bool { return errors.Is(err, storage.ErrKeyNotFound) },
	})
	require.NoError(b, err)
	if len(keys) == 0 {
		return tr, s
	}
	r := rand.New(rand.NewPCG(9, 9))
	var batch Batch
	for _, k := range keys {
		require.NoError(b, batch.Put(k, benchValue(r)))
	}
	require.NoError(b, tr.PutBatch(&batch))
	require.NoError(b, tr.Flush(0))
	return tr, s
}

// BenchmarkBlock10k is one block's state update: 10k changes (half new keys,
// half updates of existing ones) on a 100k-key state, flushed and hashed.
// "batch" uses PutBatch; "one-by-one" the naive baseline of 10k Put calls.
func BenchmarkBlock10k(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	base := benchKeys(r, 100_000)
	for _, st := range benchStores {
		for _, mode := range []string{"batch", "one-by-one"} {
			b.Run(st.name+"/"+mode, func(b *testing.B) { benchBlock(b, r, base, st.new(), mode) })
		}
	}
}

func benchBlock(b *testing.B, r *rand.Rand, base [][]byte, s Store, mode string) {
	tr, _ := benchTrieOn(b, s, base)
	tr.Collapse(3) // a node keeps a few upper levels in memory
	var clk cpuClock
	defer clk.report(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tr.Collapse(3)
		keys := append(benchKeys(r, 5_000), base[i*5_000%95_000:][:5_000]...)
		values := make([][]byte, len(keys))
		for j := range values {
			values[j] = benchValue(r)
		}
		b.StartTimer()
		clk.start()
		if mode == "batch" {
			var batch Batch
			for j, k := range keys {
				_ = batch.Put(k, values[j])
			}
			require.NoError(b, tr.PutBatch(&batch))
		} else {
			for j, k := range keys {
				require.NoError(b, tr.Put(k, values[j]))
			}
		}
		require.NoError(b, tr.Flush(uint32(i+1)))
		_ = tr.StateRoot()
		clk.stop()
	}
}

// BenchmarkBatch10kEmpty builds a 10k-key trie from nothing.
func BenchmarkBatch10kEmpty(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	keys := benchKeys(r, 10_000)
	values := make([][]byte, len(keys))
	for j := range values {
		values[j] = benchValue(r)
	}
	for _, st := range benchStores {
		b.Run(st.name, func(b *testing.B) {
			b.ReportAllocs()
			var clk cpuClock
			clk.start()
			for b.Loop() {
				tr, _ := benchTrieOn(b, st.new(), nil)
				var batch Batch
				for j, k := range keys {
					_ = batch.Put(k, values[j])
				}
				require.NoError(b, tr.PutBatch(&batch))
				require.NoError(b, tr.Flush(1))
				_ = tr.StateRoot()
			}
			clk.stop()
			clk.report(b)
		})
	}
}

// BenchmarkPutSingle is one Put, flushed, into a 10k-key trie.
func BenchmarkPutSingle(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	keys := benchKeys(r, 10_000)
	tr, _ := benchTrie(b, keys)
	// Two values, swapped on every pass over the keys, so every Put changes.
	vs := [2][]byte{benchValue(r), benchValue(r)}
	b.ReportAllocs()
	var clk cpuClock
	i := 0
	clk.start()
	for b.Loop() {
		require.NoError(b, tr.Put(keys[i%len(keys)], vs[i/len(keys)%2]))
		require.NoError(b, tr.Flush(uint32(i)))
		i++
	}
	clk.stop()
	clk.report(b)
}

// BenchmarkGet reads keys of a 10k-key trie held in memory.
func BenchmarkGet(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	keys := benchKeys(r, 10_000)
	tr, _ := benchTrie(b, keys)
	tr.Collapse(0)
	for _, k := range keys { // resolve everything once
		_, err := tr.Get(k)
		require.NoError(b, err)
	}
	b.ReportAllocs()
	var clk cpuClock
	i := 0
	clk.start()
	for b.Loop() {
		_, err := tr.Get(keys[i%len(keys)])
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
	clk.stop()
	clk.report(b)
}

// BenchmarkGetFromStore reads keys of a 10k-key trie collapsed to its root,
// so every node on the path is read from the store and decoded.
func BenchmarkGetFromStore(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	keys := benchKeys(r, 10_000)
	tr, _ := benchTrie(b, keys)
	b.ReportAllocs()
	var clk cpuClock
	i := 0
	clk.start()
	for b.Loop() {
		tr.Collapse(0)
		_, err := tr.Get(keys[i%len(keys)])
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
	clk.stop()
	clk.report(b)
}

// neoGoBenchRoot is the root neo-go v0.111.0's mpt computes for the 10k-key
// state of benchTrie(benchKeys(PCG(7, 8), 10000)) (see
// docs/benchmarks-mpt.md for the side-by-side harness).
const neoGoBenchRoot = "0x89308003217b365938dbde27201353844e7a0a1dd647a9d8ae52ff6dd62656e0"

// TestBenchDataRootMatchesNeoGo cross-checks the trie against the reference
// on a larger state than the conformance chains have.
func TestBenchDataRootMatchesNeoGo(t *testing.T) {
	tr, _ := benchTrieOn(t, benchStore{}, benchKeys(rand.New(rand.NewPCG(7, 8)), 10_000))
	want, err := util.Uint256DecodeStringBE(neoGoBenchRoot)
	require.NoError(t, err)
	require.Equal(t, want, tr.StateRoot())
}

// cpuClock adds up the process CPU time (user and system, all threads, so
// GC work is included) of the timed sections: on a shared machine it varies
// far less with load than wall time. Reported as cpu-ns/op.
type cpuClock struct{ total, mark time.Duration }

func (c *cpuClock) start() { c.mark = cputime.Process() }
func (c *cpuClock) stop()  { c.total += cputime.Process() - c.mark }
func (c *cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(c.total.Nanoseconds())/float64(b.N), "cpu-ns/op")
}
