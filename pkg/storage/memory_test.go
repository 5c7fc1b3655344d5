package storage

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMemoryStoreIndexChurn deletes and re-puts keys of an indexed
// MemoryStore: Seek stays exact and the index is rebuilt once stale keys
// dominate.
func TestMemoryStoreIndexChurn(t *testing.T) {
	s := NewMemoryStore()
	m := map[string]string{}
	const n = 3 * 512
	for i := range n {
		k := fmt.Sprintf("k%05d", i)
		m[k] = "v"
		require.NoError(t, s.Put([]byte(k), []byte("v")))
	}
	rngs := []SeekRange{{}, {Backwards: true}, {Prefix: []byte("k00"), Start: []byte("5")}, {Prefix: []byte("k01"), Backwards: true}}
	check := func() {
		for _, rng := range rngs {
			require.Equal(t, modelSeek(m, rng), seekAll(t, s, rng))
		}
	}
	check()
	require.True(t, s.l.indexed)
	for i := range n {
		if i%10 != 0 {
			k := fmt.Sprintf("k%05d", i)
			delete(m, k)
			require.NoError(t, s.Delete([]byte(k)))
		}
	}
	for i := 1; i < n; i += 20 {
		k := fmt.Sprintf("k%05d", i)
		m[k] = "again"
		require.NoError(t, s.Put([]byte(k), []byte("again")))
	}
	check()
	require.LessOrEqual(t, s.l.indexLen(), 2*s.Len()+indexMinKeys, "stale index entries were dropped")
	require.Equal(t, len(m), s.Len())
}

// TestLayerIndexRunsStayLogarithmic interleaves single puts with Seeks on
// an indexed layer (what a chain does to a large write cache): every Seek
// is exact and the index keeps O(log n) runs, so neither a Seek nor a put
// costs time linear in the layer size.
func TestLayerIndexRunsStayLogarithmic(t *testing.T) {
	s := NewMemCachedStore(NewMemoryStore())
	defer s.Close()
	m := map[string]string{}
	const n = 20_000
	for i := range n {
		k := fmt.Sprintf("k%08d", (i*7919)%n) // scattered order
		m[k] = "v"
		require.NoError(t, s.Put([]byte(k), []byte("v")))
		if i%97 == 0 || i == n-1 {
			rng := SeekRange{Prefix: []byte(k[:6])}
			require.Equal(t, modelSeek(m, rng), seekAll(t, s, rng))
		}
		if s.mem.indexed {
			runs := len(s.mem.runs)
			require.LessOrEqual(t, runs, 2+bitsLen(s.mem.len()), "runs after %d puts", i+1)
		}
	}
	require.True(t, s.mem.indexed)
	require.Equal(t, n, s.mem.indexLen()+len(s.mem.added))
	for _, rng := range []SeekRange{{}, {Backwards: true}, {Prefix: []byte("k0001")}} {
		require.Equal(t, modelSeek(m, rng), seekAll(t, s, rng))
	}
}

func bitsLen(n int) int {
	b := 0
	for ; n > 0; n >>= 1 {
		b++
	}
	return b
}
