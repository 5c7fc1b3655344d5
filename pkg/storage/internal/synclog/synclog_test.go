package synclog

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

var testID = bytes.Repeat([]byte{7}, IDLen)

func TestRecordsRoundTrip(t *testing.T) {
	var raw []byte
	raw = AppendRecord(raw, 1, []byte("a"), []byte("1"))
	raw = AppendRecord(raw, 2, []byte("b"), nil)
	raw = AppendRecord(raw, 3, []byte("a"), []byte("3"))
	recs, top := ReadRecords(raw, 0)
	require.Equal(t, map[string][]byte{"a": []byte("3"), "b": {}}, recs)
	require.Equal(t, uint64(3), top)

	recs, top = ReadRecords(raw, 2) // generations up to 2 folded
	require.Equal(t, map[string][]byte{"a": []byte("3")}, recs)
	require.Equal(t, uint64(3), top)

	// A torn or corrupt tail ends the log.
	for cut := 1; cut < 20; cut++ {
		recs, _ = ReadRecords(raw[:len(raw)-cut], 0)
		require.Equal(t, map[string][]byte{"a": []byte("1"), "b": {}}, recs, cut)
	}
	bad := bytes.Clone(raw)
	bad[len(bad)-5] ^= 1
	recs, _ = ReadRecords(bad, 0)
	require.Len(t, recs, 2)
}

func TestLogPutSealFolded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	l, err := Start(path, testID, 4)
	require.NoError(t, err)
	require.False(t, l.Pending())
	require.NoError(t, l.Put([]byte("k1"), []byte("v1")))
	v, ok := l.Get([]byte("k1"))
	require.True(t, ok)
	require.Equal(t, []byte("v1"), v)
	require.True(t, l.Overlaps([]byte("k"), []byte("l")))
	require.False(t, l.Overlaps([]byte("l"), nil))

	recs, gen := l.Seal()
	require.Equal(t, uint64(5), gen)
	require.Equal(t, map[string][]byte{"k1": []byte("v1")}, recs)
	require.NoError(t, l.Put([]byte("k2"), []byte("v2"))) // generation 6, not part of the fold

	// Before the fold commits, a crash leaves both in the file.
	got, top, err := Read(path, testID, 4)
	require.NoError(t, err)
	require.Equal(t, map[string][]byte{"k1": []byte("v1"), "k2": []byte("v2")}, got)
	require.Equal(t, uint64(6), top)

	require.NoError(t, l.Folded(gen))
	_, ok = l.Get([]byte("k1"))
	require.False(t, ok)
	_, ok = l.Get([]byte("k2"))
	require.True(t, ok)
	got, _, err = Read(path, testID, gen)
	require.NoError(t, err)
	require.Equal(t, map[string][]byte{"k2": []byte("v2")}, got)
	// Another database's id: nothing.
	got, _, err = Read(path, bytes.Repeat([]byte{8}, IDLen), 0)
	require.NoError(t, err)
	require.Empty(t, got)

	recs, gen = l.Seal()
	require.Len(t, recs, 1)
	require.NoError(t, l.Folded(gen))
	require.False(t, l.Pending())
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, int64(hdrLen), fi.Size()) // emptied
	require.NoError(t, l.Close())
	require.ErrorIs(t, l.Put([]byte("k"), nil), ErrClosed)
	require.NoError(t, l.Close())
}

func TestReadMissing(t *testing.T) {
	recs, top, err := Read(filepath.Join(t.TempDir(), "none"), testID, 9)
	require.NoError(t, err)
	require.Empty(t, recs)
	require.Equal(t, uint64(9), top)
}

func FuzzReadRecords(f *testing.F) {
	f.Add(AppendRecord(AppendRecord(nil, 1, []byte("a"), []byte("x")), 2, []byte("b"), nil), uint64(0))
	f.Add([]byte{}, uint64(1))
	f.Fuzz(func(t *testing.T, raw []byte, folded uint64) {
		recs, top := ReadRecords(raw, folded)
		require.GreaterOrEqual(t, top, folded)
		// What was read encodes back into a log that reads the same.
		var again []byte
		for k, v := range recs {
			require.NotEmpty(t, k)
			again = AppendRecord(again, top, []byte(k), v)
		}
		back, _ := ReadRecords(again, folded)
		require.Len(t, back, len(recs))
		for k, v := range recs {
			require.Equal(t, v, back[k])
		}
	})
}

// TestPutWritesRecords checks that Put's three-part append writes exactly
// the records AppendRecord encodes, and that they read back.
func TestPutWritesRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	l, err := Start(path, testID, 4)
	require.NoError(t, err)
	defer func() { require.NoError(t, l.Close()) }()
	big := bytes.Repeat([]byte{0xab}, 1<<20)
	require.NoError(t, l.Put([]byte("block"), big))
	require.NoError(t, l.Put([]byte("e"), nil))
	require.NoError(t, l.Put([]byte("x"), []byte("1")))

	want := append([]byte(magic), testID...)
	want = AppendRecord(want, 5, []byte("block"), big)
	want = AppendRecord(want, 5, []byte("e"), nil)
	want = AppendRecord(want, 5, []byte("x"), []byte("1"))
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, want, raw)

	recs, top, err := Read(path, testID, 4)
	require.NoError(t, err)
	require.Equal(t, uint64(5), top)
	require.Equal(t, map[string][]byte{"block": big, "e": {}, "x": []byte("1")}, recs)
	v, ok := l.Get([]byte("block"))
	require.True(t, ok)
	require.Equal(t, big, v)
	v, ok = l.Get([]byte("e"))
	require.True(t, ok)
	require.NotNil(t, v)
	require.Empty(t, v)
}
