package boltdb

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/stretchr/testify/require"
)

var testRedoID = bytes.Repeat([]byte{7}, 16)

func testRedoEntries(n int) []redoEntry {
	ents := make([]redoEntry, 0, n)
	for i := range n {
		e := redoEntry{key: "k" + strconv.Itoa(1000+i)}
		if i%3 == 2 {
			e.del = true
		} else {
			e.val = bytes.Repeat([]byte{byte(i)}, i%7)
		}
		ents = append(ents, e)
	}
	return ents
}

// encodeRedo writes a record through redoWriter and returns the file's
// bytes.
func encodeRedo(t testing.TB, h redoHeader, ents []redoEntry) []byte {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "r"))
	require.NoError(t, err)
	defer f.Close()
	var w redoWriter
	require.NoError(t, w.begin(f, testRedoID, h))
	for _, e := range ents {
		require.NoError(t, w.add(e))
	}
	require.NoError(t, w.finish())
	raw, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	return raw
}

// decodeRedo reads a record from raw; ok is false for a torn one.
func decodeRedo(raw []byte) (redoHeader, []redoEntry, bool, error) {
	r := bytes.NewReader(raw)
	h, ok, err := readRedoHeader(r, int64(len(raw)), testRedoID)
	if err != nil || !ok {
		return h, nil, ok, err
	}
	var ents []redoEntry
	err = readRedoEntries(r, int64(len(raw)), func(e redoEntry) error {
		ents = append(ents, e)
		return nil
	})
	return h, ents, true, err
}

func TestRedoRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 50} {
		h := redoHeader{gen: 9, fold: uint64(n)}
		ents := testRedoEntries(n)
		raw := encodeRedo(t, h, ents)
		got, back, ok, err := decodeRedo(raw)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, h, got)
		require.Len(t, back, n)
		for i := range ents {
			require.Equal(t, ents[i].key, back[i].key)
			require.Equal(t, ents[i].del, back[i].del)
			require.Equal(t, len(ents[i].val), len(back[i].val))
			require.True(t, bytes.Equal(ents[i].val, back[i].val))
		}
		// Rewriting into the same file starts over.
		require.Equal(t, raw, encodeRedo(t, h, ents))
	}
}

func TestRedoTornIsIgnored(t *testing.T) {
	raw := encodeRedo(t, redoHeader{gen: 3}, testRedoEntries(20))
	for cut := range len(raw) {
		_, _, ok, err := decodeRedo(raw[:cut])
		require.NoError(t, err, "cut at %d", cut)
		require.False(t, ok, "cut at %d", cut)
	}
}

func TestRedoOfAnotherDatabaseIsIgnored(t *testing.T) {
	raw := encodeRedo(t, redoHeader{gen: 3}, testRedoEntries(5))
	_, ok, err := readRedoHeader(bytes.NewReader(raw), int64(len(raw)), bytes.Repeat([]byte{8}, 16))
	require.NoError(t, err)
	require.False(t, ok)
}

// Every byte of the entries flipped under a valid trailer is corruption.
func TestRedoCorruptEntry(t *testing.T) {
	raw := encodeRedo(t, redoHeader{gen: 3}, testRedoEntries(10))
	for i := redoHdrLen; i < len(raw)-redoTrlLen; i++ {
		bad := bytes.Clone(raw)
		bad[i] ^= 0x40
		_, _, ok, err := decodeRedo(bad)
		require.True(t, ok)
		require.ErrorIs(t, err, errRedoCorrupt, "byte %d", i)
		require.ErrorIs(t, err, kv.ErrCorrupted)
	}
}

func FuzzRedoDecode(f *testing.F) {
	f.Add(encodeRedo(f, redoHeader{gen: 1, fold: 2}, testRedoEntries(4)))
	f.Add(encodeRedo(f, redoHeader{gen: 5}, nil))
	f.Add([]byte(redoMagic))
	f.Fuzz(func(t *testing.T, raw []byte) {
		h, ents, ok, err := decodeRedo(raw)
		if !ok || err != nil {
			if err != nil && !errors.Is(err, errRedoCorrupt) {
				t.Fatalf("error not marked as corruption: %v", err)
			}
			return
		}
		// What decodes fully encodes back to the same bytes.
		require.Equal(t, raw, encodeRedo(t, h, ents))
	})
}
