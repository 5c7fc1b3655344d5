package mempool

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func journalTxs(n int) []*transaction.Transaction {
	txs := make([]*transaction.Transaction, n)
	for i := range txs {
		txs[i] = txSpec{nonce: uint32(i + 1), signers: []util.Uint160{acc(i % 5)}, netFee: int64(100 + i)}.build()
	}
	return txs
}

func openJournal(t *testing.T, path string, max int) (*Journal, []*transaction.Transaction) {
	t.Helper()
	j, txs, err := OpenJournal(JournalConfig{Path: path, MaxTransactions: max})
	require.NoError(t, err)
	return j, txs
}

// TestJournalSurvivesCrash appends transactions and reopens the file
// without closing the journal (what a SIGKILL leaves: every Append is one
// write(2) that returned), then after a clean Close.
func TestJournalSurvivesCrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mempool")
	j, got := openJournal(t, path, 100)
	require.Empty(t, got)
	txs := journalTxs(10)
	for _, tx := range txs {
		require.NoError(t, j.Append(tx))
	}
	require.NoError(t, j.Append(txs[3])) // a duplicate is not written twice
	_, got = openJournal(t, path, 100)   // the first one is never closed
	require.Equal(t, hashes(txs), hashes(got))

	j2, got := openJournal(t, path, 100)
	require.Equal(t, hashes(txs), hashes(got))
	require.NoError(t, j2.Close(txs[5:7]))
	_, got = openJournal(t, path, 100)
	require.Equal(t, hashes(txs[5:7]), hashes(got), "a clean stop saves the pool as it is")
	require.NoError(t, j.Close(nil))
}

// TestJournalBounded keeps the last MaxTransactions distinct transactions
// and compacts once the records exceed twice that.
func TestJournalBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mempool")
	j, _ := openJournal(t, path, 4)
	txs := journalTxs(9)
	for _, tx := range txs {
		require.NoError(t, j.Append(tx))
	}
	require.True(t, j.NeedsCompaction())
	_, got := openJournal(t, path, 4)
	require.Equal(t, hashes(txs[5:]), hashes(got))
	require.NoError(t, j.Compact(txs[:6]))
	require.False(t, j.NeedsCompaction())
	_, got = openJournal(t, path, 100)
	require.Equal(t, hashes(txs[:4]), hashes(got), "compaction keeps at most MaxTransactions")
}

// TestJournalTornTail cuts the file inside its last record and flips a
// byte of another copy: reading keeps every record before the damage.
func TestJournalTornTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mempool")
	j, _ := openJournal(t, path, 100)
	txs := journalTxs(3)
	for _, tx := range txs {
		require.NoError(t, j.Append(tx))
	}
	require.NoError(t, j.Close(txs))
	raw, err := os.ReadFile(path)
	require.NoError(t, err)

	require.NoError(t, os.WriteFile(path, raw[:len(raw)-3], 0o600))
	_, got := openJournal(t, path, 100)
	require.Equal(t, hashes(txs[:2]), hashes(got))

	bad := bytes.Clone(raw)
	bad[len(journalMagic)+8+2] ^= 0xff // inside the first transaction
	require.NoError(t, os.WriteFile(path, bad, 0o600))
	_, got = openJournal(t, path, 100)
	require.Empty(t, got)

	require.NoError(t, os.WriteFile(path, []byte("notapool and more"), 0o600))
	_, got = openJournal(t, path, 100)
	require.Empty(t, got, "another file's content is not a pool")
}

func TestJournalConfig(t *testing.T) {
	_, _, err := OpenJournal(JournalConfig{MaxTransactions: 1})
	require.ErrorIs(t, err, ErrBadConfig)
	_, _, err = OpenJournal(JournalConfig{Path: filepath.Join(t.TempDir(), "p")})
	require.ErrorIs(t, err, ErrBadConfig)
	_, _, err = OpenJournal(JournalConfig{Path: filepath.Join(t.TempDir(), "no", "dir", "p"), MaxTransactions: 1})
	require.ErrorIs(t, err, ErrJournal)
}

// TestJournalFollowAndReload follows a pool, "crashes" (the journal is
// dropped without Close) and reloads into a fresh pool through a verifier
// that rejects one transaction as included meanwhile.
func TestJournalFollowAndReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mempool")
	p, l := newPool(t, 100)
	j, _ := openJournal(t, path, 100)
	stop := j.Follow(p)
	txs := journalTxs(20)
	for _, tx := range txs {
		require.NoError(t, add(p, l, tx))
	}
	require.NoError(t, j.Append(txs[0])) // the accept path may append first
	stop()                               // Follow has handled every event it got before stop
	_, saved := openJournal(t, path, 100)
	require.ElementsMatch(t, hashes(txs), hashes(saved))

	p2, l2 := newPool(t, 100)
	l2.height.Store(7)
	included := txs[4].Hash()
	added, dropped := Reload(p2, saved, func(tx *transaction.Transaction) (uint32, error) {
		if tx.Hash() == included {
			return 0, errors.New("already on chain")
		}
		return l2.BlockHeight(), nil
	})
	require.Equal(t, 1, dropped)
	require.Len(t, added, 19)
	require.Equal(t, 19, p2.Count())
	require.False(t, p2.Contains(included))
}

// TestJournalFollowCatchesUp makes Follow's subscription drop (the journal
// is held busy during a burst larger than its buffer): it compacts to the
// pool and goes on.
func TestJournalFollowCatchesUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mempool")
	p, l := newPool(t, 2*followCapacity)
	j, _ := openJournal(t, path, 2*followCapacity)
	j.subCap = followCapacity
	stop := j.Follow(p)
	all := journalTxs(followCapacity + 501)
	j.mu.Lock() // Follow blocks on its first Stage: the subscription overflows
	for _, tx := range all[:followCapacity+500] {
		require.NoError(t, add(p, l, tx))
	}
	j.mu.Unlock()
	require.NoError(t, add(p, l, all[len(all)-1]))
	stop()
	_, saved := openJournal(t, path, 2*followCapacity)
	require.ElementsMatch(t, hashes(all), hashes(saved))
}

func FuzzJournalDecode(f *testing.F) {
	var buf []byte
	buf = append(buf, journalMagic...)
	for _, tx := range journalTxs(2) {
		var err error
		buf, err = appendRecord(buf, tx)
		require.NoError(f, err)
	}
	f.Add(buf)
	f.Add([]byte(journalMagic + "\x05\x00\x00\x00\x00\x00\x00\x00abcde"))
	f.Fuzz(func(t *testing.T, data []byte) {
		txs, _ := decodeJournal(bytes.NewReader(data))
		var again []byte
		again = append(again, journalMagic...)
		for _, tx := range txs {
			var err error
			again, err = appendRecord(again, tx)
			require.NoError(t, err)
		}
		back, err := decodeJournal(bytes.NewReader(again))
		require.NoError(t, err)
		require.Equal(t, hashes(txs), hashes(back))
	})
}

// TestJournalCompactStreams: a rewrite writes the pool through a small
// buffer instead of building the whole file in memory (a loaded node's pool
// is megabytes of records, rewritten every few blocks). It allocates less
// than half the file it writes (mostly the new hash set; the version that
// built the file allocated 5.6 times its size: the file, its growth and a
// buffer per record), and the size it records is the file's.
func TestJournalCompactStreams(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mempool")
	txs := journalTxs(4000)
	for _, tx := range txs { // the sizes of a NEO transfer's parts
		tx.Script = bytes.Repeat([]byte{0x40}, 100)
		tx.Witnesses[0] = transaction.Witness{InvocationScript: make([]byte, 66), VerificationScript: make([]byte, 40)}
	}
	j, _ := openJournal(t, path, len(txs))
	require.NoError(t, j.Compact(txs))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	allocated := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if err := j.Compact(txs); err != nil {
				b.Fatal(err)
			}
		}
	}).AllocedBytesPerOp()
	t.Logf("allocated %d bytes per rewrite of a %d-byte file", allocated, fi.Size())
	require.Less(t, allocated, fi.Size()/2, "file %d bytes", fi.Size())
	require.Equal(t, fi.Size(), j.size)
	_, got := openJournal(t, path, len(txs))
	require.Equal(t, hashes(txs), hashes(got))
	require.NoError(t, j.Close(txs))
}
