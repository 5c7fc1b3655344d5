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
	require.LessOrEqual(t, len(s.l.sorted), 2*s.Len()+indexMinKeys, "stale index entries were dropped")
	require.Equal(t, len(m), s.Len())
}
