package mempool

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/stretchr/testify/require"
)

// fileRecords is every record of the saved pool at path, duplicates and
// transactions no longer pooled included (what a restart re-verifies).
func fileRecords(t *testing.T, path string) []*transaction.Transaction {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	txs, err := decodeJournal(bytes.NewReader(raw))
	require.NoError(t, err)
	return txs
}

// TestJournalStageFlush: staged records reach the file only with Flush;
// concurrent Flushes all return with their own records written.
func TestJournalStageFlush(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mempool")
	j, _ := openJournal(t, path, 1000)
	txs := journalTxs(200)
	for _, tx := range txs[:5] {
		require.NoError(t, j.Stage(tx))
	}
	require.Empty(t, fileRecords(t, path), "staged only")
	require.NoError(t, j.Flush())
	require.Equal(t, hashes(txs[:5]), hashes(fileRecords(t, path)))
	require.NoError(t, j.Flush()) // nothing staged: no-op

	var wg sync.WaitGroup
	errs := make(chan error, len(txs))
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 5 + w; i < len(txs); i += 8 {
				if err := j.Stage(txs[i]); err != nil {
					errs <- err
					return
				}
				if err := j.Flush(); err != nil {
					errs <- err
					return
				}
				// What the caller was promised: its record is in the file.
				if !containsHash(fileRecordsNoT(path), txs[i]) {
					errs <- errors.New("flushed record missing: " + txs[i].Hash().StringLE())
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.ElementsMatch(t, hashes(txs), hashes(fileRecords(t, path)))
	require.NoError(t, j.Close(nil))
	require.Error(t, j.Stage(txs[0]), "closed")
}

func fileRecordsNoT(path string) []*transaction.Transaction {
	raw, _ := os.ReadFile(path)
	txs, _ := decodeJournal(bytes.NewReader(raw))
	return txs
}

func containsHash(txs []*transaction.Transaction, tx *transaction.Transaction) bool {
	for _, t := range txs {
		if t.Hash() == tx.Hash() {
			return true
		}
	}
	return false
}

// TestJournalCompactKeepsStaged: a rewrite from a pool snapshot taken
// before a transaction was staged keeps that transaction, written.
func TestJournalCompactKeepsStaged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mempool")
	j, _ := openJournal(t, path, 100)
	txs := journalTxs(4)
	require.NoError(t, j.Append(txs[0]))
	require.NoError(t, j.Stage(txs[1]))
	require.NoError(t, j.Stage(txs[2]))
	require.NoError(t, j.Compact(txs[2:])) // the snapshot has txs[2] and txs[3], not txs[1]
	require.ElementsMatch(t, hashes(txs[1:]), hashes(fileRecords(t, path)))
	require.NoError(t, j.Flush())
	require.Len(t, fileRecords(t, path), 3, "nothing staged is written twice")
}

// TestJournalTrimsIncluded: transactions a block removes from the pool
// leave the file without waiting for it to reach twice MaxTransactions,
// so a restart does not re-verify them.
func TestJournalTrimsIncluded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mempool")
	p, l := newPool(t, 100)
	j, _ := openJournal(t, path, 100)
	stop := j.Follow(p)
	txs := journalTxs(80)
	for _, tx := range txs {
		require.NoError(t, add(p, l, tx))
	}
	p.UpdateForBlock(txs[:70], func(*transaction.Transaction) bool { return true })
	require.Equal(t, 10, p.Count())
	stop() // every event delivered before has been handled
	require.ElementsMatch(t, hashes(txs[70:]), hashes(fileRecords(t, path)))
	require.NoError(t, j.Close(p.GetVerifiedTransactions()))
}

// failingFile fails its write after writing part of it.
type failingFile struct {
	wrote     []byte
	truncated int64
}

func (f *failingFile) Write(b []byte) (int, error) {
	f.wrote = append(f.wrote, b[:len(b)/2]...)
	return len(b) / 2, errors.New("no space left on device")
}
func (f *failingFile) Sync() error { return nil }
func (f *failingFile) Truncate(n int64) error {
	f.truncated = n
	return nil
}

// TestWriteRecordsCutsTornTail: a failed write cuts the file back to its
// last whole record, so records written after it are readable.
func TestWriteRecordsCutsTornTail(t *testing.T) {
	f := &failingFile{truncated: -1}
	err := writeRecords(f, 123, []byte("record"), false)
	require.ErrorIs(t, err, ErrJournal)
	require.ErrorContains(t, err, "no space left")
	require.Equal(t, int64(123), f.truncated)
}

// A written group's buffer is kept for the next group, unless it grew
// past maxSpare (a rare huge group is not held on to).
func TestJournalKeepsBoundedSpare(t *testing.T) {
	j, _, err := OpenJournal(JournalConfig{Path: filepath.Join(t.TempDir(), "mempool"), MaxTransactions: 30000})
	require.NoError(t, err)
	defer func() { require.NoError(t, j.Close(nil)) }()
	txs := benchTxs(20000)
	require.NoError(t, j.Append(txs[0]))
	require.Positive(t, cap(j.spare), "small group kept")
	require.NoError(t, j.Stage(txs[1]))
	require.Nil(t, j.spare, "taken by the next group")
	for _, tx := range txs[2:] {
		require.NoError(t, j.Stage(tx))
	}
	require.Greater(t, cap(j.pending), maxSpare)
	require.NoError(t, j.Flush())
	require.Nil(t, j.spare, "huge group dropped")
	require.Equal(t, 20000, j.records)
}
