package chain

import (
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

func storageKey(id int32, key string) []byte {
	return append(storage.STStorage.Bytes(), StorageKeyOf(id, []byte(key))...)
}

// TestRecorderCleanCache: contract storage reads are answered from the
// clean cache, which follows the change sets applied through the recorder;
// other keys always reach the store.
func TestRecorderCleanCache(t *testing.T) {
	lower := storage.NewMemoryStore()
	r := &recorder{Store: lower}
	k, other := storageKey(5, "k"), []byte{byte(storage.SYSVersion), 1}
	require.NoError(t, lower.Put(k, []byte("v1")))
	require.NoError(t, lower.Put(other, []byte("o1")))

	get := func(key []byte) string {
		v, err := r.Get(key)
		if err != nil {
			require.ErrorIs(t, err, storage.ErrKeyNotFound)
			return "<absent>"
		}
		return string(v)
	}
	require.Equal(t, "v1", get(k))
	require.Equal(t, "o1", get(other))
	// Behind the recorder's back: the storage item is served from the
	// cache, the other key is not cached.
	require.NoError(t, lower.Put(k, []byte("stale")))
	require.NoError(t, lower.Put(other, []byte("o2")))
	require.Equal(t, "v1", get(k))
	require.Equal(t, "o2", get(other))

	require.NoError(t, r.PutChangeSet(map[string][]byte{string(k): []byte("v3")}, nil))
	require.Equal(t, "v3", get(k))
	r.take()
	require.NoError(t, r.PutChangeSet(nil, map[string]struct{}{string(k): {}}))
	require.Equal(t, "<absent>", get(k))
	r.take()

	// An absent item is cached as absent, then created by a change set.
	n := storageKey(5, "new")
	require.Equal(t, "<absent>", get(n))
	require.NoError(t, r.PutChangeSet(map[string][]byte{string(n): nil}, nil))
	v, err := r.Get(n)
	require.NoError(t, err)
	require.Empty(t, v)
}

// blockingStore holds a Get until released, to interleave it with a
// change set.
type blockingStore struct {
	storage.Store
	entered, release chan struct{}
}

func (s *blockingStore) Get(key []byte) ([]byte, error) {
	v, err := s.Store.Get(key)
	s.entered <- struct{}{}
	<-s.release
	return v, err
}

// TestRecorderCleanCacheNoStaleFill: a value read from the store before a
// change set landed is not cached after it.
func TestRecorderCleanCacheNoStaleFill(t *testing.T) {
	lower := storage.NewMemoryStore()
	k := storageKey(7, "k")
	require.NoError(t, lower.Put(k, []byte("old")))
	bs := &blockingStore{Store: lower, entered: make(chan struct{}), release: make(chan struct{})}
	r := &recorder{Store: bs}
	done := make(chan []byte)
	go func() {
		v, _ := r.Get(k) // reads "old", then waits
		done <- v
	}()
	<-bs.entered
	// The change set goes to the store without blocking (PutChangeSet is
	// not intercepted).
	require.NoError(t, r.PutChangeSet(map[string][]byte{string(k): []byte("new")}, nil))
	close(bs.release)
	require.Equal(t, "old", string(<-done)) // the read started before the change
	go func() {
		for range bs.entered { // later Gets pass straight through
		}
	}()
	v, err := r.Get(k)
	require.NoError(t, err)
	require.Equal(t, "new", string(v))
	close(bs.entered)
}

// TestPersistLoop: blocks that no later block persisted reach the store
// from the timer within about PersistInterval.
func TestPersistLoop(t *testing.T) {
	cfg := unitTestnet(t)
	n, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	st := storage.NewMemoryStore()
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Store: st, Natives: n, BloomCapacity: 1000,
		PersistInterval: time.Hour})
	require.NoError(t, err)
	defer func() { require.NoError(t, c.Close()) }()
	g, err := newGenerator(c, GenerateOptions{Validators: validatorKeys(t, 3)})
	require.NoError(t, err)
	for range 2 {
		_, err := g.nextBlock()
		require.NoError(t, err)
	}
	stored := func() uint32 {
		_, h, err := dao.New(st).GetCurrentBlock()
		require.NoError(t, err)
		return h
	}
	require.NoError(t, c.cache.WaitPersist()) // Open's persist of the genesis runs in the background
	require.Zero(t, stored(), "only the genesis was persisted (at open)")
	c.addMu.Lock()
	c.cfg.PersistInterval = 20 * time.Millisecond
	c.addMu.Unlock()
	stop := make(chan struct{})
	defer close(stop)
	go c.persistLoop(stop, 20*time.Millisecond)
	require.Eventually(t, func() bool { return stored() == 2 }, 5*time.Second, 10*time.Millisecond)
}
