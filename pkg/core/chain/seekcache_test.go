package chain

import (
	"encoding/binary"
	"testing"

	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// seekCounter counts the seeks that reach the store.
type seekCounter struct {
	storage.Store
	seeks int
}

func (s *seekCounter) Seek(rng storage.SeekRange, fn func(k, v []byte) bool) error {
	s.seeks++
	return s.Store.Seek(rng, fn)
}

func storageItemKey(id int32, key ...byte) string {
	k := binary.LittleEndian.AppendUint32([]byte{byte(storage.STStorage)}, uint32(id))
	return string(append(k, key...))
}

// collect runs a seek through r and returns "key=value" strings, stopping
// after max items (0: all).
func collect(t *testing.T, r *recorder, rng storage.SeekRange, max int) []string {
	var out []string
	require.NoError(t, r.Seek(rng, func(k, v []byte) bool {
		out = append(out, string(k)+"="+string(v))
		return max == 0 || len(out) < max
	}))
	return out
}

func TestRecorderSeekCache(t *testing.T) {
	below := &seekCounter{Store: storage.NewMemoryStore()}
	r := &recorder{Store: below}
	puts := map[string][]byte{}
	for i := range 10 {
		puts[storageItemKey(-5, 29, byte(i))] = []byte{byte('a' + i)}
		puts[storageItemKey(-5, 30, byte(i))] = []byte{byte('A' + i)}
	}
	require.NoError(t, r.PutChangeSet(puts, nil))
	r.take()
	gasRecords := storage.SeekRange{Prefix: []byte(storageItemKey(-5, 29))}
	other := storage.SeekRange{Prefix: []byte(storageItemKey(-5, 30))}

	first := collect(t, r, gasRecords, 0)
	require.Len(t, first, 10)
	require.Equal(t, first, collect(t, r, gasRecords, 0), "served again")
	require.Equal(t, 1, below.seeks, "from the cache")
	require.Equal(t, first[:3], collect(t, r, gasRecords, 3), "a seek that stops early")
	back := storage.SeekRange{Prefix: gasRecords.Prefix, Backwards: true}
	require.Equal(t, first[9], collect(t, r, back, 1)[0], "direction is part of the key")
	require.Equal(t, first[9], collect(t, r, back, 1)[0])
	require.Equal(t, 2, below.seeks)

	// A change set under another prefix keeps the entry, one under it
	// drops it and the next seek sees the change.
	require.NoError(t, r.PutChangeSet(map[string][]byte{storageItemKey(-5, 30, 0): []byte("x")}, nil))
	r.take()
	require.Equal(t, first, collect(t, r, gasRecords, 0))
	require.Equal(t, 2, below.seeks)
	require.NoError(t, r.PutChangeSet(map[string][]byte{storageItemKey(-5, 29, 42): []byte("new")}, nil))
	r.take()
	got := collect(t, r, gasRecords, 0)
	require.Len(t, got, 11)
	require.Equal(t, storageItemKey(-5, 29, 42)+"=new", got[10])
	require.NoError(t, r.PutChangeSet(nil, map[string]struct{}{storageItemKey(-5, 29, 0): {}}))
	r.take()
	require.Len(t, collect(t, r, gasRecords, 0), 10, "a deletion drops the entry too")
	require.Len(t, collect(t, r, other, 0), 10)

	// Results over the bound are not kept; a failed change set forgets all.
	many := map[string][]byte{}
	for i := range maxSeekCacheItems + 1 {
		many[storageItemKey(-6, byte(i))] = []byte{1}
	}
	require.NoError(t, r.PutChangeSet(many, nil))
	r.take()
	big := storage.SeekRange{Prefix: []byte(storageItemKey(-6))}
	n := below.seeks
	require.Len(t, collect(t, r, big, 0), maxSeekCacheItems+1)
	require.Len(t, collect(t, r, big, 2), 2)
	require.Equal(t, n+2, below.seeks, "not cached")
	collect(t, r, other, 0)
	n = below.seeks
	r.updateClean(nil, nil, true)
	collect(t, r, other, 0)
	require.Equal(t, n+1, below.seeks, "forgotten")

	// Seeks of anything but contract storage pass through.
	require.NoError(t, r.Seek(storage.SeekRange{Prefix: []byte{byte(storage.DataMPT)}}, func(k, v []byte) bool { return true }))
	require.NoError(t, r.Seek(storage.SeekRange{Prefix: []byte{byte(storage.DataMPT)}}, func(k, v []byte) bool { return true }))
	require.Equal(t, n+3, below.seeks)
}
