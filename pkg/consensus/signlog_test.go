package consensus

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

func openTestSignLog(t *testing.T, path string) *FileSignLog {
	t.Helper()
	l, err := OpenSignLog(path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	return l
}

func TestSignLogRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sign.log")
	l := openTestSignLog(t, path)
	require.Empty(t, l.Entries(1))
	a := []LogEntry{{Data: []byte("request of another")}, {Own: true, Data: []byte("our response")}}
	require.NoError(t, l.Append(7, a...))
	require.NoError(t, l.Append(8, LogEntry{Own: true, Data: []byte{}}))
	require.NoError(t, l.Append(7, LogEntry{Own: true, Data: []byte("our commit")}))
	require.NoError(t, l.Append(7)) // nothing
	want7 := append(a, LogEntry{Own: true, Data: []byte("our commit")})
	require.Equal(t, want7, l.Entries(7))
	require.NoError(t, l.Close())
	require.Error(t, l.Append(7, LogEntry{Data: []byte("x")}), "closed")

	l = openTestSignLog(t, path)
	require.Equal(t, want7, l.Entries(7))
	require.Len(t, l.Entries(8), 1)
	require.True(t, l.Entries(8)[0].Own)
	require.Empty(t, l.Entries(8)[0].Data)
}

// A record the crash cut short (or garbled) ends the log: the whole
// records before it are kept, it is cut off, and the log goes on.
func TestSignLogTornTail(t *testing.T) {
	for _, tc := range []struct {
		name string
		tail func(rec []byte) []byte
	}{
		{"short header", func(rec []byte) []byte { return rec[:5] }},
		{"short body", func(rec []byte) []byte { return rec[:len(rec)-1] }},
		{"bad checksum", func(rec []byte) []byte { r := bytes.Clone(rec); r[len(r)-1] ^= 1; return r }},
		{"huge length", func([]byte) []byte { return []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sign.log")
			l := openTestSignLog(t, path)
			require.NoError(t, l.Append(3, LogEntry{Own: true, Data: []byte("kept")}))
			require.NoError(t, l.Close())
			good, err := os.ReadFile(path)
			require.NoError(t, err)
			rec := appendSignLogRecord(nil, 3, LogEntry{Own: true, Data: []byte("torn")})
			require.NoError(t, os.WriteFile(path, append(bytes.Clone(good), tc.tail(rec)...), 0o600))

			l = openTestSignLog(t, path)
			require.Equal(t, []LogEntry{{Own: true, Data: []byte("kept")}}, l.Entries(3))
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, good, after, "torn record truncated")
			require.NoError(t, l.Append(3, LogEntry{Own: true, Data: []byte("next")}))
			require.NoError(t, l.Close())
			l = openTestSignLog(t, path)
			require.Len(t, l.Entries(3), 2)
		})
	}
}

func TestSignLogNotOurs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sign.log")
	require.NoError(t, os.WriteFile(path, []byte("something else entirely"), 0o600))
	_, err := OpenSignLog(path)
	require.ErrorIs(t, err, errSignLogFormat)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "something else entirely", string(b), "left alone")
}

// Prune forgets old heights at once and rewrites the file once they
// take more than the slack.
func TestSignLogPrune(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sign.log")
	l := openTestSignLog(t, path)
	data := bytes.Repeat([]byte{0xab}, 1000)
	const heights = 2 * signLogSlack / 1000
	for h := uint32(1); h <= heights; h++ {
		require.NoError(t, l.Append(h, LogEntry{Own: true, Data: data}))
	}
	require.NoError(t, l.Prune(3))
	require.Empty(t, l.Entries(2))
	require.Len(t, l.Entries(3), 1)
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Greater(t, st.Size(), int64(heights*1000), "below the slack: not rewritten")

	require.NoError(t, l.Prune(heights))
	st, err = os.Stat(path)
	require.NoError(t, err)
	require.Less(t, st.Size(), int64(2000), "rewritten with the last height only")
	require.NoError(t, l.Append(heights+1, LogEntry{Own: true, Data: []byte("after")}))
	require.NoError(t, l.Close())

	l = openTestSignLog(t, path)
	require.Empty(t, l.Entries(heights-1))
	require.Len(t, l.Entries(heights), 1)
	require.Equal(t, []LogEntry{{Own: true, Data: []byte("after")}}, l.Entries(heights+1))
}

func TestSignLogEntryBound(t *testing.T) {
	l := openTestSignLog(t, filepath.Join(t.TempDir(), "sign.log"))
	require.ErrorIs(t, l.Append(1, LogEntry{Data: make([]byte, maxSignLogEntry+1)}), errSignLogRecord)
}

// FuzzReadSignLog: any file reads without panic, and the records read
// encode back to exactly the bytes they were read from.
func FuzzReadSignLog(f *testing.F) {
	f.Add([]byte(signLogMagic))
	f.Add(appendSignLogRecord([]byte(signLogMagic), 9, LogEntry{Own: true, Data: []byte("payload")}))
	f.Add(append([]byte(signLogMagic), 5, 0, 0, 0, 1, 2, 3, 4))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, end, err := readSignLog(bytes.NewReader(data))
		if err != nil {
			return
		}
		buf := []byte(signLogMagic)
		for _, r := range recs {
			buf = appendSignLogRecord(buf, r.height, r.entry)
		}
		if int64(len(buf)) != end || !bytes.Equal(buf, data[:end]) {
			t.Fatal(fmt.Sprintf("re-encoding differs: %d records, end %d", len(recs), end))
		}
	})
}

// BenchmarkSignLogAppend measures one recorded message (a Commit-sized
// payload with its proposal): one write and one fsync.
func BenchmarkSignLogAppend(b *testing.B) {
	l, err := OpenSignLog(filepath.Join(b.TempDir(), "sign.log"))
	require.NoError(b, err)
	defer l.Close()
	req, commit := make([]byte, 200), make([]byte, 180)
	b.ResetTimer()
	for i := range b.N {
		h := uint32(i)
		if err := l.Append(h, LogEntry{Data: req}, LogEntry{Own: true, Data: commit}); err != nil {
			b.Fatal(err)
		}
		if h > signLogKeep {
			if err := l.Prune(h - signLogKeep); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// The log keeps where its records lie, not their payloads: signLogKeep
// heights of full-block proposals stay on disk, and the heap grows by
// far less than they weigh. Entries still returns every one of them, and
// after a rewrite (which moves them) too.
func TestSignLogKeepsPayloadsOnDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sign.log")
	l := openTestSignLog(t, path)
	const size = 256 << 10 // a PrepareRequest of ~8k hashes
	payload := func(h uint32) []byte { return bytes.Repeat([]byte{byte(h)}, size) }
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for h := uint32(1); h <= signLogKeep; h++ {
		require.NoError(t, l.Append(h, LogEntry{Data: payload(h)}, LogEntry{Own: true, Data: []byte("commit")}))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	require.Less(t, held, int64(signLogKeep*size/8), "payloads held in memory: %d bytes", held)

	check := func(from uint32) {
		t.Helper()
		for h := from; h <= signLogKeep; h++ {
			e := l.Entries(h)
			require.Len(t, e, 2, "height %d", h)
			require.Equal(t, payload(h), e[0].Data, "height %d", h)
			require.Equal(t, LogEntry{Own: true, Data: []byte("commit")}, e[1])
		}
	}
	check(1)
	const from = signLogKeep/2 + 2 // more pruned than kept: rewritten
	require.NoError(t, l.Prune(from))
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Less(t, st.Size(), int64((signLogKeep-from+2)*(size+64)), "rewritten")
	require.Empty(t, l.Entries(from-1))
	check(from)
	require.NoError(t, l.Append(signLogKeep+1, LogEntry{Own: true, Data: []byte("next")}))
	require.NoError(t, l.Close())
	l = openTestSignLog(t, path)
	check(from)
	require.Len(t, l.Entries(signLogKeep+1), 1)
}

// A validator of full blocks prunes a large proposal at every height: the
// file is rewritten about once in signLogKeep heights, not every time.
func TestSignLogRewritesAmortised(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sign.log")
	l := openTestSignLog(t, path)
	data := bytes.Repeat([]byte{0xcd}, 100<<10)
	var rewrites int
	var last int64
	const heights = 5 * signLogKeep
	for h := uint32(1); h <= heights; h++ {
		require.NoError(t, l.Append(h, LogEntry{Data: data}, LogEntry{Own: true, Data: []byte("commit")}))
		if h > signLogKeep {
			require.NoError(t, l.Prune(h-signLogKeep))
		}
		st, err := os.Stat(path)
		require.NoError(t, err)
		if st.Size() < last {
			rewrites++
		}
		last = st.Size()
	}
	require.GreaterOrEqual(t, rewrites, 3)
	require.LessOrEqual(t, rewrites, 5)
	require.Less(t, last, int64(2*(signLogKeep+2)*(len(data)+64)), "bounded")
	require.Len(t, l.Entries(heights-signLogKeep), 2)
	require.Empty(t, l.Entries(heights-signLogKeep-1))
}

// A record that no longer reads back as written (the file changed under
// the node) breaks the log: Entries gives nothing and the node may sign
// nothing more.
func TestSignLogUnreadableRecordBreaks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sign.log")
	l := openTestSignLog(t, path)
	require.NoError(t, l.Append(5, LogEntry{Own: true, Data: []byte("our commit at 5")}))
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte{'X'}, signLogHeader+signLogRecHeader+signLogBodyFixed)
	require.NoError(t, errors.Join(err, f.Close()))
	require.Empty(t, l.Entries(5))
	require.ErrorIs(t, l.Append(5, LogEntry{Own: true, Data: []byte("another commit")}), errSignLogBroken)
}
