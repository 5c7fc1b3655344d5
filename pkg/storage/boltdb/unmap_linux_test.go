package boltdb

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// mappedRSS returns the resident kB of the mapping that starts at addr,
// from /proc/self/smaps.
func mappedRSS(t *testing.T, addr uintptr) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	require.NoError(t, err)
	defer f.Close()
	head := fmt.Sprintf("%x-", addr)
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, head) {
			in = true
			continue
		}
		if v, ok := strings.CutPrefix(line, "Rss:"); ok && in {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			require.NoError(t, err)
			return kb
		}
	}
	require.NoError(t, sc.Err())
	t.Fatalf("no mapping at %#x in /proc/self/smaps", addr)
	return 0
}

// TestUnmapResident reads every record of a 14 MB file through the map,
// drops the map's resident pages and checks that they left the process's
// RSS and that every record still reads the same.
func TestUnmapResident(t *testing.T) {
	s := open(t)
	s.unmapEvery = 0 // only the explicit drop below
	const n = 20_000
	puts := make(map[string][]byte, n)
	for i := range n {
		puts[fmt.Sprintf("k%06d", i)] = bytes.Repeat([]byte{byte(i)}, 700)
	}
	require.NoError(t, s.PutChangeSet(puts, nil))
	readAll := func() {
		for k, v := range puts {
			got, err := s.Get([]byte(k))
			require.NoError(t, err)
			require.Equal(t, v, got)
		}
	}
	readAll()
	var addr uintptr
	require.NoError(t, s.db.View(func(*bolt.Tx) error { addr = s.db.Info().Data; return nil }))
	before := mappedRSS(t, addr)
	require.Greater(t, before, 8<<10, "reading the file should have mapped most of it (kB)")
	require.NoError(t, s.unmapResident())
	after := mappedRSS(t, addr)
	t.Logf("map resident: %d kB before the drop, %d kB after", before, after)
	require.Less(t, after, before/4, "resident kB of the map after the drop")
	readAll()
}

// TestMaybeUnmapInterval checks that PutChangeSet drops the map at most
// once per interval: a long interval keeps the pages a read mapped.
func TestMaybeUnmapInterval(t *testing.T) {
	s := open(t)
	s.unmapEvery = time.Hour // never again after the first
	put := func(i int) {
		require.NoError(t, s.PutChangeSet(map[string][]byte{fmt.Sprint(i): bytes.Repeat([]byte{1}, 5000)}, nil))
	}
	put(0) // the first commit drops (lastUnmap was 0)
	require.NotZero(t, s.lastUnmap.Load())
	last := s.lastUnmap.Load()
	for i := 1; i < 10; i++ {
		put(i)
	}
	require.Equal(t, last, s.lastUnmap.Load())
}
