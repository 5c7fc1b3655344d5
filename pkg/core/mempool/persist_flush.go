package mempool

import (
	"fmt"
	"io"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
)

// Group commit of the saved pool. The accept path stages a record per
// transaction (memory only); whoever must not go on before the record is
// written (RPC's answer, the announcement to peers) calls Flush, which
// writes everything staged so far in one write(2). A Flush that finds a
// write under way waits for it and, if its records were not in it, writes
// the rest itself: concurrent callers share writes instead of each paying
// one.

// Stage records tx (a transaction the pool accepted) in memory, unless
// the file has it already; the next Flush writes it. Call Flush before
// telling anyone the transaction was accepted.
func (j *Journal) Stage(tx *transaction.Transaction) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return fmt.Errorf("%w: closed", ErrJournal)
	}
	h := tx.Hash()
	if _, ok := j.inFile[h]; ok {
		return nil
	}
	if j.pending == nil && j.spare != nil {
		j.pending, j.pendingTx, j.spare, j.spareTx = j.spare, j.spareTx, nil, nil
	}
	rec, err := appendRecord(j.pending, tx)
	if err != nil {
		return err
	}
	j.pending = rec
	j.pendingTx = append(j.pendingTx, pendingRecord{hash: h, end: len(rec)})
	j.inFile[h] = struct{}{}
	j.records++
	j.staged++
	return nil
}

// Flush writes every record staged before the call (and those staged
// while it waits) before returning. A failed write keeps the records
// staged (the file is cut back to its last whole record first), so the
// next Flush tries them again.
func (j *Journal) Flush() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	target := j.staged
	for j.written < target {
		if j.closed {
			return fmt.Errorf("%w: closed", ErrJournal)
		}
		if j.flushing {
			j.flushDone.Wait()
			continue
		}
		// No yield before writing: on a busy node the yielding writer
		// waited behind every runnable goroutine while all the callers
		// waited for it. Records staged during a write go in the next
		// one, which is where groups form under load.
		if err := j.writePendingLocked(); err != nil {
			return err
		}
	}
	return nil
}

// writePendingLocked writes the staged records, releasing mu during the
// write (REQUIRES: j.mu held, no other write under way).
func (j *Journal) writePendingLocked() error {
	buf, recs, upto, f, size := j.pending, j.pendingTx, j.staged, j.f, j.size
	j.pending, j.pendingTx = nil, nil
	j.flushing = true
	j.mu.Unlock()
	err := writeRecords(f, size, buf, j.cfg.Sync)
	j.mu.Lock()
	j.flushing = false
	j.flushDone.Broadcast()
	if err != nil {
		// The records go back in front of those staged meanwhile.
		for _, r := range j.pendingTx {
			recs = append(recs, pendingRecord{hash: r.hash, end: len(buf) + r.end})
		}
		j.pending, j.pendingTx = append(buf, j.pending...), recs
		return err
	}
	j.size += int64(len(buf))
	j.written = upto
	j.writes++
	if cap(buf) <= maxSpare {
		j.spare, j.spareTx = buf[:0], recs[:0]
	}
	return nil
}

// maxSpare bounds the buffer kept from one group write for the next: a
// group under load is a few hundred records of a few hundred bytes, so
// the accept path stops growing a fresh buffer from nothing for every
// write (BenchmarkJournalAccept: 480 → 201 B per transaction) while a rare huge group is not
// held on to.
const maxSpare = 1 << 20

// writeRecords appends buf to f (O_APPEND), whose first size bytes are
// whole records, and fsyncs it when sync is set. A failed write cuts f
// back to size, so no torn record hides the ones written after it.
func writeRecords(f interface {
	Write([]byte) (int, error)
	Sync() error
	Truncate(int64) error
}, size int64, buf []byte, sync bool) error {
	_, err := f.Write(buf)
	if err == nil && sync {
		err = f.Sync()
	}
	if err != nil {
		if terr := f.Truncate(size); terr != nil {
			err = fmt.Errorf("%w (cutting back the torn tail: %w)", err, terr)
		}
		return fmt.Errorf("%w: %w", ErrJournal, err)
	}
	return nil
}

// writePendingTo writes to w the staged records of transactions not in
// inFile and still pooled, adding their hashes to inFile (a rewrite keeps
// what was staged after its snapshot of the pool). REQUIRES: j.mu held.
func (j *Journal) writePendingTo(w io.Writer, inFile map[util.Uint256]struct{}) error {
	start := 0
	for _, r := range j.pendingTx {
		rec := j.pending[start:r.end]
		start = r.end
		if _, ok := inFile[r.hash]; ok {
			continue
		}
		if _, live := j.inFile[r.hash]; !live { // left the pool (Forget)
			continue
		}
		inFile[r.hash] = struct{}{}
		if _, err := w.Write(rec); err != nil {
			return err
		}
	}
	return nil
}

// Forget notes that the transaction h left the pool: its record no
// longer counts as live, and once such records outnumber the live ones
// NeedsCompaction says so. A later Stage of it records it again.
func (j *Journal) Forget(h util.Uint256) {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.inFile, h)
}
