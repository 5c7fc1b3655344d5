package storagetest_test

import (
	"errors"
	"testing"

	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/storage/storagetest"
	"github.com/stretchr/testify/require"
)

func TestFaultStore(t *testing.T) {
	boom := errors.New("boom")
	f := storagetest.NewFaultStore(storage.NewMemoryStore())
	require.NoError(t, f.Put([]byte("a"), []byte("1")))

	f.FailGet(boom)
	_, err := f.Get([]byte("a"))
	require.ErrorIs(t, err, boom)
	f.FailGet(nil)
	v, err := f.Get([]byte("a"))
	require.NoError(t, err)
	require.Equal(t, []byte("1"), v)

	f.FailSeek(boom)
	require.ErrorIs(t, f.Seek(storage.SeekRange{}, func(_, _ []byte) bool { return true }), boom)
	f.FailSeek(nil)
	require.NoError(t, f.Seek(storage.SeekRange{}, func(_, _ []byte) bool { return true }))

	f.FailPutChangeSet(boom)
	require.ErrorIs(t, f.PutChangeSet(map[string][]byte{"b": nil}, nil), boom)
	_, err = f.Get([]byte("b"))
	require.ErrorIs(t, err, storage.ErrKeyNotFound)
	f.FailPutChangeSet(nil)

	release := f.Hold()
	done := make(chan error, 1)
	go func() { done <- f.PutChangeSet(map[string][]byte{"b": nil}, map[string]struct{}{"a": {}}) }()
	<-f.Started()
	select {
	case <-done:
		t.Fatal("PutChangeSet must wait for release")
	default:
	}
	release()
	require.NoError(t, <-done)
	require.Equal(t, 2, f.PutChangeSetCalls())
	require.NoError(t, f.Delete([]byte("b")))

	f.LeaveOpen = true
	require.NoError(t, f.Close())
	require.NoError(t, f.Inner.Put([]byte("c"), nil), "inner left open")
	f.LeaveOpen = false
	require.NoError(t, f.Close())
	require.ErrorIs(t, f.Inner.Put([]byte("c"), nil), storage.ErrClosed)
}
