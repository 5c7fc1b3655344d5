package leveldb

import (
	"fmt"
	"sync"
	"testing"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/stretchr/testify/require"
)

// TestRecoverWritesUnderLoad reopens the database while readers run,
// some of them reading from inside a Seek callback (which must not
// deadlock against the reopen), and writers write: every acknowledged
// write is there afterwards.
func TestRecoverWritesUnderLoad(t *testing.T) {
	s, err := Open(Options{DataDirectoryPath: t.TempDir()})
	require.NoError(t, err)
	for i := range 100 {
		require.NoError(t, s.Put([]byte{0x70, byte(i)}, []byte{byte(i)}))
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := range 4 {
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				key := []byte(fmt.Sprintf("w%d-%d", w, n))
				if err := s.Put(key, key); err != nil {
					errs <- err
					return
				}
				err := s.Seek(kv.SeekRange{Prefix: []byte{0x70}}, func(k, v []byte) bool {
					got, err := s.Get(key) // nested operation of the same goroutine
					if err != nil || string(got) != string(key) {
						errs <- fmt.Errorf("nested get %q: %q, %w", key, got, err)
						return false
					}
					return k[1] < 10
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for range 5 {
		require.NoError(t, s.RecoverWrites())
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	for i := range 100 {
		v, err := s.Get([]byte{0x70, byte(i)})
		require.NoError(t, err)
		require.Equal(t, []byte{byte(i)}, v)
	}
	require.NoError(t, s.Close())
	require.ErrorIs(t, s.RecoverWrites(), kv.ErrClosed)
}
