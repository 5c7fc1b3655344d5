package boltdb

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

func open(t *testing.T) *Store {
	s, err := Open(Options{FilePath: filepath.Join(t.TempDir(), "x", "db.bolt")})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestOpenNoPath(t *testing.T) {
	_, err := Open(Options{})
	require.ErrorIs(t, err, ErrNoPath)
}

// TestSeekChunks walks ranges much larger than one chunk, forward and
// backward, and checks them against a sorted list.
func TestSeekChunks(t *testing.T) {
	s := open(t)
	const n = 3 * seekChunkEntries
	puts := make(map[string][]byte, n)
	var all [][]byte
	for i := range n {
		k := binary.BigEndian.AppendUint16([]byte{byte(i % 3)}, uint16(i))
		puts[string(k)] = []byte(fmt.Sprint(i))
		all = append(all, k)
	}
	require.NoError(t, s.PutChangeSet(puts, nil))
	all = append(all, kv.MarkerKey)
	slices.SortFunc(all, bytes.Compare)
	for _, rng := range []kv.SeekRange{
		{}, {Backwards: true},
		{Prefix: []byte{1}}, {Prefix: []byte{1}, Backwards: true},
		{Prefix: []byte{1}, Start: []byte{2, 0}}, {Prefix: []byte{1}, Start: []byte{2, 0}, Backwards: true},
	} {
		lo, hi := kv.Bounds(rng)
		var want [][]byte
		for _, k := range all {
			if kv.InRangeBytes(k, lo, hi) {
				want = append(want, k)
			}
		}
		if rng.Backwards {
			slices.Reverse(want)
		}
		var got [][]byte
		require.NoError(t, s.Seek(rng, func(k, v []byte) bool {
			got = append(got, bytes.Clone(k))
			return true
		}))
		require.Equal(t, want, got, "%+v", rng)
	}
}

// TestSeekResumeAfterConcurrentDelete deletes the key a chunk ended on
// before the next chunk is read (as another goroutine might): the walk
// resumes at the right place in both directions.
func TestSeekResumeAfterConcurrentDelete(t *testing.T) {
	s := open(t)
	const n = 2*seekChunkEntries + 10
	puts := make(map[string][]byte, n)
	for i := range n {
		puts[string(binary.BigEndian.AppendUint16([]byte{7}, uint16(i)))] = nil
	}
	require.NoError(t, s.PutChangeSet(puts, nil))
	for _, back := range []bool{false, true} {
		var got []uint16
		require.NoError(t, s.Seek(kv.SeekRange{Prefix: []byte{7}, Backwards: back}, func(k, _ []byte) bool {
			got = append(got, binary.BigEndian.Uint16(k[1:]))
			if len(got)%seekChunkEntries == 0 {
				require.NoError(t, s.Delete(k)) // the resume key vanishes
			}
			return true
		}))
		require.Len(t, got, n, "backwards=%v", back)
		require.True(t, slices.IsSortedFunc(got, func(a, b uint16) int {
			if back {
				a, b = b, a
			}
			return int(a) - int(b)
		}))
		require.NoError(t, s.PutChangeSet(puts, nil))
	}
}

func TestReadOnlyWithoutBucket(t *testing.T) {
	file := filepath.Join(t.TempDir(), "raw.bolt")
	db, err := bolt.Open(file, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	_, err = Open(Options{FilePath: file, ReadOnly: true})
	require.ErrorIs(t, err, ErrNoBucket)
}

func TestPutChangeSetTooLargeKeyIsAtomic(t *testing.T) {
	s := open(t)
	huge := string(make([]byte, bolt.MaxKeySize+1))
	huge = "\x70" + huge[1:]
	err := s.PutChangeSet(map[string][]byte{"\x70ok": {1}, huge: {2}}, map[string]struct{}{string(kv.MarkerKey): {}})
	require.Error(t, err)
	_, err = s.Get([]byte("\x70ok"))
	require.ErrorIs(t, err, kv.ErrKeyNotFound, "nothing of a failed changeset is applied")
	_, err = s.Get(kv.MarkerKey)
	require.NoError(t, err, "nor its deletions")
	require.Error(t, s.Put([]byte(huge), nil))
}
