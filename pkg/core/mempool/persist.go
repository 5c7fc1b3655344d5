package mempool

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	nio "github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// The saved pool (Journal): the pool's transactions in a file, so that
// those still valid are back in the pool after a clean stop and after a
// crash (SIGKILL included).
//
// File format: the magic "n3dpool1", then one record per transaction:
// u32 LE length of the transaction bytes, u32 LE CRC-32C of them, the
// transaction as on the wire. Records are appended as transactions are
// accepted: Stage buffers a record, Flush writes every buffered record in
// one write(2) (group commit: callers arriving while a write is under way
// wait for it and are served by the next one), Append does both. A
// written record survives the process, and a power loss too with
// JournalConfig.Sync. Transactions that leave the pool are not recorded;
// the file is rewritten (Compact: temporary file, rename; fsync'd with
// Sync, and always at open and at a clean stop) with the
// pool's current transactions when most of its records are of
// transactions no longer pooled (Forget), when it holds more than twice
// MaxTransactions records, and at a clean stop. Reading stops
// at the first torn or corrupt record (the tail of a crashed append) and
// keeps the last MaxTransactions distinct transactions read; re-adding them
// goes through the chain's verification (Reload), so the included, expired
// or otherwise invalid ones are dropped there.

// journalMagic starts a saved pool file.
const journalMagic = "n3dpool1"

// maxJournalTx bounds one record (the protocol's MaxTransactionSize).
const maxJournalTx = transaction.MaxTransactionSize

// ErrJournal is a saved pool that cannot be read or written.
var ErrJournal = errors.New("mempool: saved pool")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// JournalConfig configures a Journal.
type JournalConfig struct {
	// Path is the file (storage.SidecarPath(db, "mempool") next to the
	// database); required.
	Path string
	// MaxTransactions bounds the transactions reloaded and, at twice the
	// value, the records before the file is compacted; required.
	MaxTransactions int
	// Sync fsyncs each appended record (survives a power loss, slower).
	Sync bool
	// Log receives warnings about a damaged file (zap.NewNop when nil).
	Log *zap.Logger
}

// Journal is the saved pool. It is safe for concurrent use.
type Journal struct {
	cfg JournalConfig

	mu      sync.Mutex
	f       *os.File
	size    int64                     // bytes of f known written whole
	inFile  map[util.Uint256]struct{} // pooled transactions with a record in f or pending
	records int                       // records in f and pending
	closed  bool

	// Group commit (persist_flush.go): records staged but not written,
	// sequence numbers of the last staged and the last written record,
	// and whether a Flush is writing (outside mu).
	pending   []byte
	pendingTx []pendingRecord
	spare     []byte          // a written group's buffer, for the next group (bounded by maxSpare)
	spareTx   []pendingRecord // and its record list
	staged    uint64
	written   uint64
	flushing  bool
	flushDone *sync.Cond // on mu: a write ended
	writes    int        // Flush's writes (benchmarks)

	subCap int // Follow's subscription capacity when set (tests)
}

// pendingRecord is a staged record: its transaction and end in pending.
type pendingRecord struct {
	hash util.Uint256
	end  int
}

// OpenJournal opens (creating it when absent) the saved pool and returns
// the transactions it holds, oldest first, at most MaxTransactions
// distinct ones; the file is compacted to them.
func OpenJournal(cfg JournalConfig) (*Journal, []*transaction.Transaction, error) {
	if cfg.Path == "" || cfg.MaxTransactions <= 0 {
		return nil, nil, fmt.Errorf("%w: path %q, %d transactions", ErrBadConfig, cfg.Path, cfg.MaxTransactions)
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	txs, err := readJournal(cfg.Path, cfg.MaxTransactions, cfg.Log)
	if err != nil {
		return nil, nil, err
	}
	j := &Journal{cfg: cfg}
	j.flushDone = sync.NewCond(&j.mu)
	if err := j.rewrite(txs, true); err != nil {
		return nil, nil, err
	}
	return j, txs, nil
}

// readJournal reads the records of the file at path.
func readJournal(path string, max int, log *zap.Logger) ([]*transaction.Transaction, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrJournal, err)
	}
	defer f.Close()
	txs, err := decodeJournal(bufio.NewReader(f))
	if err != nil {
		log.Warn("saved pool damaged: keeping the transactions before the damage", zap.String("path", path),
			zap.Int("kept", len(txs)), zap.Error(err))
	}
	return lastDistinct(txs, max), nil
}

// decodeJournal reads a saved pool: the transactions of every whole,
// intact record, and the reason it stopped before the end (nil at a clean
// end of the file).
func decodeJournal(r io.Reader) ([]*transaction.Transaction, error) {
	magic := make([]byte, len(journalMagic))
	if _, err := io.ReadFull(r, magic); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil // empty file: a crash right after creation
		}
		return nil, fmt.Errorf("%w: header: %w", ErrJournal, err)
	}
	if string(magic) != journalMagic {
		return nil, fmt.Errorf("%w: not a saved pool (magic %q)", ErrJournal, magic)
	}
	var txs []*transaction.Transaction
	var head [8]byte
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return txs, nil
			}
			return txs, fmt.Errorf("%w: record %d: %w", ErrJournal, len(txs), err)
		}
		n := binary.LittleEndian.Uint32(head[:4])
		if n == 0 || n > maxJournalTx {
			return txs, fmt.Errorf("%w: record %d: length %d", ErrJournal, len(txs), n)
		}
		buf := make([]byte, n) // the decoded transaction keeps slices of it
		if _, err := io.ReadFull(r, buf); err != nil {
			return txs, fmt.Errorf("%w: record %d: %w", ErrJournal, len(txs), err)
		}
		if crc32.Checksum(buf, castagnoli) != binary.LittleEndian.Uint32(head[4:]) {
			return txs, fmt.Errorf("%w: record %d: checksum mismatch", ErrJournal, len(txs))
		}
		tx, err := transaction.NewTransactionFromBytes(buf)
		if err != nil {
			return txs, fmt.Errorf("%w: record %d: %w", ErrJournal, len(txs), err)
		}
		txs = append(txs, tx)
	}
}

// lastDistinct returns the last max distinct transactions of txs, in
// their order.
func lastDistinct(txs []*transaction.Transaction, max int) []*transaction.Transaction {
	seen := make(map[util.Uint256]struct{}, len(txs))
	out := make([]*transaction.Transaction, 0, min(len(txs), max))
	for i := len(txs) - 1; i >= 0 && len(out) < max; i-- {
		h := txs[i].Hash()
		if _, ok := seen[h]; ok {
			continue
		}
		seen[h] = struct{}{}
		out = append(out, txs[i])
	}
	for i, k := 0, len(out)-1; i < k; i, k = i+1, k-1 {
		out[i], out[k] = out[k], out[i]
	}
	return out
}

// appendRecord appends tx's record to dst: the transaction is encoded in
// place after its header (length and CRC, filled in afterwards), not
// into a buffer of its own. On error dst is returned as it was.
func appendRecord(dst []byte, tx *transaction.Transaction) ([]byte, error) {
	start := len(dst)
	buf := bytes.NewBuffer(slices.Grow(dst, recordHeaderLen+tx.Size()))
	buf.Write(make([]byte, recordHeaderLen))
	w := nio.NewBinWriterFromIO(buf)
	tx.EncodeBinary(w)
	if w.Err != nil {
		return dst, fmt.Errorf("%w: transaction %s: %w", ErrJournal, tx.Hash().String(), w.Err)
	}
	out := buf.Bytes()
	raw := out[start+recordHeaderLen:]
	binary.LittleEndian.PutUint32(out[start:], uint32(len(raw)))
	binary.LittleEndian.PutUint32(out[start+4:], crc32.Checksum(raw, castagnoli))
	return out, nil
}

// encodeRecord encodes tx's record into bw (reset first) and returns it;
// it stays valid until bw is used again.
func encodeRecord(bw *nio.BufBinWriter, tx *transaction.Transaction) ([]byte, error) {
	bw.Reset()
	var head [recordHeaderLen]byte
	bw.WriteBytes(head[:])
	tx.EncodeBinary(bw.BinWriter)
	if bw.Err != nil {
		return nil, fmt.Errorf("%w: transaction %s: %w", ErrJournal, tx.Hash().String(), bw.Err)
	}
	out := bw.Bytes()
	raw := out[recordHeaderLen:]
	binary.LittleEndian.PutUint32(out, uint32(len(raw)))
	binary.LittleEndian.PutUint32(out[4:], crc32.Checksum(raw, castagnoli))
	return out, nil
}

// recordHeaderLen is the length and CRC-32C before each record's
// transaction.
const recordHeaderLen = 8

// Append records tx (a transaction the pool accepted) and writes it
// before returning (Stage and Flush), unless the file has it already.
func (j *Journal) Append(tx *transaction.Transaction) error {
	if err := j.Stage(tx); err != nil {
		return err
	}
	return j.Flush()
}

// NeedsCompaction reports whether the file holds more than twice
// MaxTransactions records, or more records of transactions no longer
// pooled (Forget) than of pooled ones and at least compactSlack of them.
func (j *Journal) NeedsCompaction() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	dead := j.records - len(j.inFile)
	slack := min(compactSlack, j.cfg.MaxTransactions/4+1)
	return j.records > 2*j.cfg.MaxTransactions || (dead >= slack && dead > len(j.inFile))
}

// compactSlack is the most records of transactions no longer pooled the
// file keeps beyond its live ones (a quarter of MaxTransactions when that
// is less): a file holds at most twice the pool's transactions plus this
// many records, and a rewrite (O(pool)) comes after at least as many
// removals as it writes, so the work per block stays proportional to the
// transactions the block removes.
const compactSlack = 1024

// Compact rewrites the file with txs (the pool's current transactions;
// at most MaxTransactions of them are kept, the first ones). The new file
// is fsync'd only with JournalConfig.Sync, as appended records are: a
// compaction comes every few blocks under load and must not stall the
// accept path on the disk.
func (j *Journal) Compact(txs []*transaction.Transaction) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return fmt.Errorf("%w: closed", ErrJournal)
	}
	return j.rewrite(txs, j.cfg.Sync)
}

// compactPool is Compact with p's transactions read under j.mu: a
// transaction p accepts meanwhile is staged after the rewrite, so none
// written to the old file is missing from the new one.
func (j *Journal) compactPool(p *Pool) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return fmt.Errorf("%w: closed", ErrJournal)
	}
	return j.rewrite(p.GetVerifiedTransactions(), j.cfg.Sync)
}

// Close saves txs (the pool at a clean stop) and closes the file.
func (j *Journal) Close(txs []*transaction.Transaction) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil
	}
	err := j.rewrite(txs, true)
	j.closed = true
	if j.f != nil {
		err = errors.Join(err, j.f.Close())
		j.f = nil
	}
	return err
}

// rewrite replaces the file with one holding txs: a temporary file
// renamed over the old one, so a crash of the process leaves either file
// whole; with sync the file and the directory are fsync'd, so a power loss
// does too. REQUIRES: j.mu held.
func (j *Journal) rewrite(txs []*transaction.Transaction, sync bool) error {
	for j.flushing { // a Flush writing outside mu must not hit the old file
		j.flushDone.Wait()
	}
	if len(txs) > j.cfg.MaxTransactions {
		txs = txs[:j.cfg.MaxTransactions]
	}
	tmp := j.cfg.Path + ".tmp"
	inFile := make(map[util.Uint256]struct{}, len(txs)+len(j.pendingTx))
	size, err := writeFile(tmp, sync, func(w io.Writer) error {
		return j.writeSnapshot(w, txs, inFile)
	})
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, j.cfg.Path); err != nil {
		return fmt.Errorf("%w: %w", ErrJournal, err)
	}
	if sync {
		if err := syncDir(filepath.Dir(j.cfg.Path)); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(j.cfg.Path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrJournal, err)
	}
	if j.f != nil {
		_ = j.f.Close() // replaced by the rename: nothing unwritten in it
	}
	j.f, j.inFile, j.records, j.size = f, inFile, len(inFile), size
	j.pending, j.pendingTx, j.written = j.pending[:0], j.pendingTx[:0], j.staged
	j.flushDone.Broadcast()
	return nil
}

// writeSnapshot writes a whole saved pool to w: the magic, a record of
// each of txs (once per hash) and the staged records still pooled that
// txs lacks; inFile gets their hashes. REQUIRES: j.mu held.
func (j *Journal) writeSnapshot(w io.Writer, txs []*transaction.Transaction, inFile map[util.Uint256]struct{}) error {
	if _, err := io.WriteString(w, journalMagic); err != nil {
		return err
	}
	bw := nio.NewBufBinWriter() // one record at a time: the file is not built in memory
	for _, tx := range txs {
		if _, ok := inFile[tx.Hash()]; ok {
			continue
		}
		inFile[tx.Hash()] = struct{}{}
		rec, err := encodeRecord(bw, tx)
		if err != nil {
			return err
		}
		if _, err = w.Write(rec); err != nil {
			return err
		}
	}
	return j.writePendingTo(w, inFile) // staged after txs was read: kept
}

// snapshotBuffer is the write buffer of a rewrite: a rewrite writes the
// whole pool (tens of thousands of records under load) through it instead
// of building the file in memory first.
const snapshotBuffer = 64 << 10

// writeFile creates the file at path with what fill writes, fsync'd with
// sync, and returns its size. On error the file is removed.
func writeFile(path string, sync bool, fill func(io.Writer) error) (int64, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrJournal, err)
	}
	cw := &countingWriter{w: f}
	bw := bufio.NewWriterSize(cw, snapshotBuffer)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrJournal, errors.Join(err, os.Remove(path)))
	}
	return cw.n, nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrJournal, err)
	}
	err = d.Sync()
	if err = errors.Join(err, d.Close()); err != nil {
		return fmt.Errorf("%w: %w", ErrJournal, err)
	}
	return nil
}
