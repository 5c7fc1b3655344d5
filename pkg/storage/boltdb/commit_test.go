package boltdb

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/stretchr/testify/require"
)

var errCrash = errors.New("simulated crash")

const (
	faultKeys   = 1000 // keys of each generation's change set
	faultRange  = 128  // entries per range
	faultRanges = 8    // ranges of a generation and the sync log record
)

// crashAt is an afterStep hook that fails (as a crash would) at step n.
func crashAt(n int) func(int) error {
	return func(i int) error {
		if i == n {
			return errCrash
		}
		return nil
	}
}

func faultKey(i int) string { return fmt.Sprintf("\x70%05d", i) }

// faultSet is generation gen's change set: every key rewritten, except
// that each fifth key is deleted in even generations.
func faultSet(gen int) (map[string][]byte, map[string]struct{}) {
	puts := make(map[string][]byte)
	dels := make(map[string]struct{})
	for i := range faultKeys {
		if gen%2 == 0 && i%5 == 0 {
			dels[faultKey(i)] = struct{}{}
			continue
		}
		puts[faultKey(i)] = bytes.Repeat([]byte{byte(gen)}, 50+i%300)
	}
	return puts, dels
}

// faultState reads every data key of s (the marker aside).
func faultState(t *testing.T, s *Store) map[string]string {
	t.Helper()
	got := make(map[string]string)
	require.NoError(t, s.Seek(kv.SeekRange{Prefix: []byte{0x70}}, func(k, v []byte) bool {
		got[string(k)] = string(v)
		return true
	}))
	return got
}

// wantState is the store's data after generations 1..gen.
func wantState(gen int) map[string]string {
	want := make(map[string]string)
	for g := 1; g <= gen; g++ {
		puts, dels := faultSet(g)
		for k := range dels {
			delete(want, k)
		}
		for k, v := range puts {
			want[k] = string(v)
		}
	}
	return want
}

func openSmallRanges(t *testing.T, path string) *Store {
	t.Helper()
	s := openAt(t, path)
	s.rangeEntries = faultRange
	return s
}

// A crash after the redo record is synced, or between any two ranges,
// or after the last, leaves the whole change set after reopening; a crash
// during the redo write (a torn record) leaves none of it.
func TestRangeCommitCrashAtEveryStep(t *testing.T) {
	for step := 0; step <= faultRanges; step++ {
		t.Run(fmt.Sprint("step", step), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "db.bolt")
			s := openSmallRanges(t, path)
			require.NoError(t, s.PutChangeSet(faultSet(1)))
			require.NoError(t, s.PutSync([]byte("\x70logged"), []byte("L")))
			var reached []int
			s.afterStep = func(i int) error {
				reached = append(reached, i)
				if i == step {
					return errCrash
				}
				return nil
			}
			require.ErrorIs(t, s.PutChangeSet(faultSet(2)), errCrash)
			require.Len(t, reached, step+1)
			crashClose(t, s)

			s = openSmallRanges(t, path)
			want := wantState(2)
			want["\x70logged"] = "L"
			require.Equal(t, want, faultState(t, s))
			require.NoError(t, s.Close())
		})
	}
}

func TestRangeCommitTornRedoLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "db.bolt")
	s := openSmallRanges(t, path)
	require.NoError(t, s.PutChangeSet(faultSet(1)))
	s.afterStep = func(int) error { return errCrash }
	require.ErrorIs(t, s.PutChangeSet(faultSet(2)), errCrash)
	crashClose(t, s)
	raw, err := os.ReadFile(path + redoSuffix)
	require.NoError(t, err)
	db, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, cut := range []int{0, 1, redoHdrLen, len(raw) / 3, len(raw) / 2, len(raw) - redoTrlLen, len(raw) - 1} {
		// The database as the crash left it, the record cut at cut.
		require.NoError(t, os.WriteFile(path, db, 0o600))
		require.NoError(t, os.WriteFile(path+redoSuffix, raw[:cut], 0o600))
		s = openSmallRanges(t, path)
		require.Equal(t, wantState(1), faultState(t, s), "record cut at %d of %d", cut, len(raw))
		// The next record is still replayed after a crash, though the
		// torn one carried no usable generation.
		s.afterStep = crashAt(2)
		require.ErrorIs(t, s.PutChangeSet(faultSet(2)), errCrash)
		crashClose(t, s)
		s = openSmallRanges(t, path)
		require.Equal(t, wantState(2), faultState(t, s), "after a record cut at %d", cut)
		require.NoError(t, s.Close())
	}
}

func TestRangeCommitCorruptRedoIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.bolt")
	s := openSmallRanges(t, path)
	s.afterStep = crashAt(2)
	require.ErrorIs(t, s.PutChangeSet(faultSet(1)), errCrash)
	crashClose(t, s)
	raw, err := os.ReadFile(path + redoSuffix)
	require.NoError(t, err)
	raw[redoHdrLen+5] ^= 1
	require.NoError(t, os.WriteFile(path+redoSuffix, raw, 0o600))
	_, err = Open(Options{FilePath: path})
	require.ErrorIs(t, err, kv.ErrCorrupted)
	require.ErrorContains(t, err, path+redoSuffix)
}

// A change set cut short without a crash (an I/O error) is completed
// before the next write, so reopening cannot replay it over that write.
func TestRangeCommitErrorThenWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.bolt")
	s := openSmallRanges(t, path)
	require.NoError(t, s.PutChangeSet(faultSet(1)))
	s.afterStep = crashAt(3)
	require.ErrorIs(t, s.PutChangeSet(faultSet(2)), errCrash)
	s.afterStep = nil
	require.NoError(t, s.Put([]byte(faultKey(1)), []byte("after")))
	crashClose(t, s)
	s = openSmallRanges(t, path)
	want := wantState(2)
	want[faultKey(1)] = "after"
	require.Equal(t, want, faultState(t, s))
	require.NoError(t, s.PutChangeSet(faultSet(3)))
	require.Equal(t, wantState(3), faultState(t, s))
	require.NoError(t, s.Close())
}

// A read-only open refuses a database whose change set a crash cut short
// until a read-write open has completed it.
func TestRangeCommitReadOnlyAfterCrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.bolt")
	s := openSmallRanges(t, path)
	s.afterStep = crashAt(1)
	require.ErrorIs(t, s.PutChangeSet(faultSet(1)), errCrash)
	crashClose(t, s)
	_, err := Open(Options{FilePath: path, ReadOnly: true})
	require.ErrorContains(t, err, "cut short")
	require.NoError(t, openAt(t, path).Close())
	ro, err := Open(Options{FilePath: path, ReadOnly: true})
	require.NoError(t, err)
	require.Equal(t, wantState(1), faultState(t, ro))
	require.NoError(t, ro.Close())
}

func TestRangeCommitRefusesBeforeWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.bolt")
	s := openSmallRanges(t, path)
	puts, dels := faultSet(1)
	puts["\x70"+string(make([]byte, maxRedoKey))] = nil
	require.Error(t, s.PutChangeSet(puts, dels))
	require.Empty(t, faultState(t, s))
	require.NoError(t, s.Close())
}
