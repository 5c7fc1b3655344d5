package storage

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/storage/storagetest"
	"github.com/stretchr/testify/require"
)

var errBoom = errors.New("boom")

var _ Store = (*storagetest.FaultStore)(nil)

func newFaultStore() *storagetest.FaultStore {
	f := storagetest.NewFaultStore(NewMemoryStore())
	f.LeaveOpen = true // tests inspect what was flushed after Close
	return f
}

func mustGet(t *testing.T, s Store, k string) string {
	t.Helper()
	v, err := s.Get([]byte(k))
	require.NoError(t, err, k)
	return string(v)
}

func requireMissing(t *testing.T, s Store, k string) {
	t.Helper()
	_, err := s.Get([]byte(k))
	require.ErrorIs(t, err, ErrKeyNotFound, k)
}

func TestMemCachedLayering(t *testing.T) {
	lower := NewMemoryStore()
	require.NoError(t, lower.Put([]byte("a"), []byte("lower")))
	require.NoError(t, lower.Put([]byte("b"), []byte("lower")))
	s := NewMemCachedStore(lower)
	require.NoError(t, s.Put([]byte("a"), []byte("cache")))
	require.NoError(t, s.Delete([]byte("b")))
	require.NoError(t, s.Put([]byte("c"), []byte("cache")))
	require.Equal(t, "cache", mustGet(t, s, "a"))
	requireMissing(t, s, "b")
	require.Equal(t, "lower", mustGet(t, lower, "a"), "lower untouched before persist")
	require.Equal(t, []string{"61=6361636865", "63=6361636865"}, seekAll(t, s, SeekRange{}))
	require.Equal(t, 3, s.Len())

	n, err := s.PersistSync()
	require.NoError(t, err)
	require.Equal(t, 3, n)
	require.Equal(t, 0, s.Len())
	require.Equal(t, "cache", mustGet(t, lower, "a"))
	requireMissing(t, lower, "b")
	n, err = s.PersistSync()
	require.NoError(t, err)
	require.Zero(t, n)
	n, err = s.Persist()
	require.NoError(t, err)
	require.Zero(t, n)
	require.NoError(t, s.WaitPersist())
}

func TestMemCachedPersistDoesNotBlock(t *testing.T) {
	lower := newFaultStore()
	release := lower.Hold()
	require.NoError(t, lower.Inner.Put([]byte("d"), []byte("disk")))
	s := NewMemCachedStore(lower)

	require.NoError(t, s.Put([]byte("a"), []byte("1")))
	require.NoError(t, s.Delete([]byte("d")))
	n, err := s.Persist()
	require.NoError(t, err)
	require.Equal(t, 2, n)
	<-lower.Started() // the flush is now stuck in the lower store

	// Readers and writers proceed while the disk write is held.
	require.Equal(t, "1", mustGet(t, s, "a"))
	requireMissing(t, s, "d")
	require.NoError(t, s.Put([]byte("b"), []byte("2")))
	require.NoError(t, s.Put([]byte("a"), []byte("3")))
	require.Equal(t, "3", mustGet(t, s, "a"))
	require.Equal(t, []string{"61=33", "62=32"}, seekAll(t, s, SeekRange{}))

	// A second Persist queues; a third waits for room (back-pressure).
	_, err = s.Persist()
	require.NoError(t, err)
	require.NoError(t, s.Put([]byte("c"), []byte("4")))
	third := make(chan error, 1)
	go func() {
		_, err := s.Persist()
		third <- err
	}()
	select {
	case <-third:
		t.Fatal("Persist must wait when DefaultMaxPending layers are queued")
	case <-time.After(50 * time.Millisecond):
	}
	require.Equal(t, "4", mustGet(t, s, "c"), "readers are not blocked by a waiting Persist")

	release()
	require.NoError(t, <-third)
	require.NoError(t, s.WaitPersist())
	require.Zero(t, s.Len())
	require.Equal(t, "3", mustGet(t, lower.Inner, "a"))
	require.Equal(t, "2", mustGet(t, lower.Inner, "b"))
	require.Equal(t, "4", mustGet(t, lower.Inner, "c"))
	requireMissing(t, lower.Inner, "d")
	require.Equal(t, 3, lower.PutChangeSetCalls())
}

func TestMemCachedBackgroundErrorSurfaces(t *testing.T) {
	lower := newFaultStore()
	lower.FailPutChangeSet(errBoom)
	s := NewMemCachedStore(lower)
	require.NoError(t, s.Put([]byte("a"), []byte("1")))
	_, err := s.Persist()
	require.NoError(t, err)
	require.ErrorIs(t, s.WaitPersist(), errBoom)
	require.ErrorIs(t, s.WaitPersist(), errBoom, "reported until retried")
	require.Equal(t, "1", mustGet(t, s, "a"), "the failed layer stays readable")
	require.Equal(t, []string{"61=31"}, seekAll(t, s, SeekRange{}))

	require.NoError(t, s.Put([]byte("b"), []byte("2")))
	_, err = s.Persist()
	require.ErrorIs(t, err, errBoom, "Persist reports the earlier failure")
	require.ErrorIs(t, s.WaitPersist(), errBoom, "the retry failed again")

	lower.FailPutChangeSet(nil)
	_, err = s.Persist()
	require.ErrorIs(t, err, errBoom)
	require.NoError(t, s.WaitPersist(), "the retry succeeded")
	require.Equal(t, "1", mustGet(t, lower.Inner, "a"))
	requireMissing(t, lower.Inner, "b")
	n, err := s.Persist()
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.NoError(t, s.WaitPersist())
	require.Equal(t, "2", mustGet(t, lower.Inner, "b"))
}

func TestMemCachedPersistSyncError(t *testing.T) {
	lower := newFaultStore()
	s := NewMemCachedStore(lower)
	require.NoError(t, s.Put([]byte("a"), []byte("1")))
	lower.FailPutChangeSet(errBoom)
	_, err := s.Persist()
	require.NoError(t, err)
	require.NoError(t, s.Put([]byte("b"), []byte("2")))
	_, err = s.PersistSync()
	require.ErrorIs(t, err, errBoom, "the pending layer fails first")
	require.Equal(t, "1", mustGet(t, s, "a"))
	require.Equal(t, "2", mustGet(t, s, "b"))

	lower.FailPutChangeSet(nil)
	n, err := s.PersistSync()
	require.NoError(t, err)
	require.Equal(t, 1, n, "the live layer held one key")
	require.Equal(t, "1", mustGet(t, lower.Inner, "a"))
	require.Equal(t, "2", mustGet(t, lower.Inner, "b"))

	// No pending layer: the live layer's own write fails and is kept.
	require.NoError(t, s.Put([]byte("c"), []byte("3")))
	lower.FailPutChangeSet(errBoom)
	_, err = s.PersistSync()
	require.ErrorIs(t, err, errBoom)
	require.Equal(t, "3", mustGet(t, s, "c"))
	lower.FailPutChangeSet(nil)
	n, err = s.PersistSync()
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, "3", mustGet(t, lower.Inner, "c"))

	require.NoError(t, s.Put([]byte("z"), []byte("9")))
	lower.FailPutChangeSet(errBoom)
	require.ErrorIs(t, s.Close(), errBoom, "Close reports a failed final write")
	_, err = s.Persist()
	require.ErrorIs(t, err, ErrClosed)
	_, err = s.PersistSync()
	require.ErrorIs(t, err, ErrClosed)
}

func TestCacheReadErrorsSurface(t *testing.T) {
	lower := newFaultStore()
	require.NoError(t, lower.Put([]byte("a"), []byte("1")))
	lower.FailSeek(errBoom)
	lower.FailGet(errBoom)
	cache := NewMemCachedStore(lower)
	require.NoError(t, cache.Put([]byte("b"), []byte("2")))
	snap := NewSnapshot(cache)
	require.NoError(t, snap.Put([]byte("c"), []byte("3")))
	for name, s := range map[string]Store{"memcached": cache, "snapshot": snap} {
		err := s.Seek(SeekRange{}, func(_, _ []byte) bool { return true })
		require.ErrorIs(t, err, errBoom, name)
		_, err = s.Get([]byte("a"))
		require.ErrorIs(t, err, errBoom, name)
	}
	require.Equal(t, "2", mustGet(t, snap, "b"), "cached keys do not touch the lower store")
}

func TestSeekKeysAreCopies(t *testing.T) {
	lower := NewMemoryStore()
	require.NoError(t, lower.Put([]byte("a1"), []byte("x")))
	cache := NewMemCachedStore(lower)
	require.NoError(t, cache.Put([]byte("a2"), []byte("y")))
	snap := NewSnapshot(cache)
	require.NoError(t, snap.Put([]byte("a3"), []byte("z")))
	var kept [][]byte
	require.NoError(t, snap.Seek(SeekRange{Prefix: []byte("a")}, func(k, _ []byte) bool {
		kept = append(kept, k)
		k[0] = 'X' // a misbehaving callback must not corrupt any layer
		return true
	}))
	require.Len(t, kept, 3)
	for _, k := range []string{"a1", "a2", "a3"} {
		mustGet(t, snap, k)
	}
	require.Equal(t, []string{"6131=78", "6132=79", "6133=7a"}, seekAll(t, snap, SeekRange{Prefix: []byte("a")}))
}

func TestSnapshotCommitDiscard(t *testing.T) {
	parent := NewMemCachedStore(NewMemoryStore())
	require.NoError(t, parent.Put([]byte("p"), []byte("parent")))
	require.NoError(t, parent.Put([]byte("q"), []byte("parent")))

	tx := NewSnapshot(parent)
	require.NoError(t, tx.Put([]byte("a"), []byte("tx")))
	require.NoError(t, tx.Delete([]byte("p")))
	call := NewSnapshot(tx)
	require.NoError(t, call.Put([]byte("b"), []byte("call")))
	require.NoError(t, call.Put([]byte("p"), []byte("call")))
	require.Equal(t, "call", mustGet(t, call, "p"))
	requireMissing(t, tx, "p")
	call.Discard() // e.g. a contract call that threw
	require.Zero(t, call.Len())
	requireMissing(t, call, "b")
	requireMissing(t, call, "p")

	require.NoError(t, call.Put([]byte("c"), []byte("call")))
	require.NoError(t, call.Commit())
	require.Equal(t, "call", mustGet(t, tx, "c"))
	require.Equal(t, 3, tx.Len())
	requireMissing(t, parent, "a")

	require.NoError(t, tx.Commit())
	require.Zero(t, tx.Len())
	require.Equal(t, []string{"61=7478", "63=63616c6c", "71=706172656e74"}, seekAll(t, parent, SeekRange{}))
	require.NoError(t, tx.Commit(), "empty commit")
	require.NoError(t, parent.Close())
	require.NoError(t, tx.Put([]byte("x"), nil))
	require.ErrorIs(t, tx.Commit(), ErrClosed, "commit into a closed parent fails")
	require.Equal(t, 1, tx.Len(), "and keeps the changes")
	require.NoError(t, tx.Close())
	require.ErrorIs(t, tx.Commit(), ErrClosed)
	require.ErrorIs(t, tx.Close(), ErrClosed)
}

func TestMemCachedCloseFlushes(t *testing.T) {
	dir := t.TempDir()
	s := NewMemCachedStore(openLevel(t, dir))
	require.NoError(t, s.Put([]byte("a"), []byte("1")))
	_, err := s.Persist()
	require.NoError(t, err)
	require.NoError(t, s.Put([]byte("b"), []byte("2")))
	require.NoError(t, s.Close())
	lower := openLevel(t, dir)
	defer func() { require.NoError(t, lower.Close()) }()
	require.Equal(t, "1", mustGet(t, lower, "a"))
	require.Equal(t, "2", mustGet(t, lower, "b"))
}

// TestMemCachedConcurrent runs readers and writers against a cache that
// persists in a loop; run it with -race. Every writer owns its keys, so it
// can check it always reads back its latest value.
func TestMemCachedConcurrent(t *testing.T) {
	s := NewMemCachedStore(openLevel(t, t.TempDir()))
	const writers, rounds = 4, 300
	var wg sync.WaitGroup
	errs := make(chan error, writers+1)
	stop := make(chan struct{})
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				k := []byte(fmt.Sprintf("w%d/%d", w, i%17))
				v := []byte(fmt.Sprint(i))
				if err := s.Put(k, v); err != nil {
					errs <- err
					return
				}
				got, err := s.Get(k)
				if err != nil || string(got) != string(v) {
					errs <- fmt.Errorf("writer %d read %q, %v; want %q", w, got, err, v)
					return
				}
				if i%50 == 0 {
					if err := s.Seek(SeekRange{Prefix: []byte(fmt.Sprintf("w%d/", w))}, func(_, _ []byte) bool { return true }); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	var pwg sync.WaitGroup
	pwg.Add(1)
	go func() {
		defer pwg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.Persist(); err != nil {
				errs <- err
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	wg.Wait()
	close(stop)
	pwg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.NoError(t, s.Close())
}

// TestLayerIndexConcurrentSeeks seeks a large cached layer from several
// goroutines while another writes between rounds; run it with -race.
func TestLayerIndexConcurrentSeeks(t *testing.T) {
	s := NewMemCachedStore(NewMemoryStore())
	m := map[string]string{}
	for i := range 2 * indexMinKeys {
		k := fmt.Sprintf("k%05d", i*2)
		m[k] = "v"
		require.NoError(t, s.Put([]byte(k), []byte("v")))
	}
	for round := range 3 {
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := SeekRange{Prefix: []byte("k0"), Start: []byte(fmt.Sprint(g)), Backwards: g%2 == 0}
				var got []string
				err := s.Seek(rng, func(k, v []byte) bool {
					got = append(got, fmt.Sprintf("%x=%x", k, v))
					return true
				})
				if err == nil && !slices.Equal(modelSeek(m, rng), got) {
					err = fmt.Errorf("round %d, goroutine %d: seek mismatch", round, g)
				}
				if err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		// New keys after the index was built, deletions, and a persist.
		for i := range 50 {
			k := fmt.Sprintf("k%05d", i*40+round+1)
			m[k] = "w"
			require.NoError(t, s.Put([]byte(k), []byte("w")))
			dk := fmt.Sprintf("k%05d", i*6)
			delete(m, dk)
			require.NoError(t, s.Delete([]byte(dk)))
		}
		if round == 1 {
			_, err := s.Persist()
			require.NoError(t, err)
		}
	}
	require.NoError(t, s.Close())
}

func TestMemCachedCloseWakesWaitingPersist(t *testing.T) {
	lower := newFaultStore()
	release := lower.Hold()
	s := NewMemCachedStore(lower)
	for i := range DefaultMaxPending {
		require.NoError(t, s.Put([]byte{byte('a' + i)}, nil))
		_, err := s.Persist()
		require.NoError(t, err)
	}
	<-lower.Started()
	require.NoError(t, s.Put([]byte("z"), nil))
	waiting := make(chan error, 1)
	go func() {
		_, err := s.Persist()
		waiting <- err
	}()
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	time.Sleep(20 * time.Millisecond)
	release()
	require.NoError(t, <-closed)
	err := <-waiting
	if err != nil {
		require.ErrorIs(t, err, ErrClosed, "a Persist racing Close either ran first or sees ErrClosed")
	}
	for _, k := range []string{"a", "b", "z"} {
		mustGet(t, lower.Inner, k)
	}
}
