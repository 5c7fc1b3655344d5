package dao

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// conflictStubLen is the length of a conflict record: ExecTransaction ‖
// u32 LE height.
const conflictStubLen = 1 + 4

// maxHeaderHashes bounds one header hash batch.
const maxHeaderHashes = 1 << 16

func executableKey(h util.Uint256) []byte {
	return append([]byte{byte(storage.DataExecutable)}, h[:]...)
}

// StoreAsBlock stores the trimmed block with the execution results of its
// OnPersist and PostPersist runs (either may be nil).
func (d *DAO) StoreAsBlock(b *block.Block, aers ...*state.AppExecResult) error {
	w := io.NewBufBinWriter()
	// Room for the trimmed block and the system runs' results (OnPersist
	// has a notification per transaction: its fee burn).
	w.Grow(1 + b.Header.Size() + io.GetVarSize(len(b.Transactions)) +
		len(b.Transactions)*(util.Uint256Size+blockExecSizeHint) + 2*execResultSizeHint)
	w.WriteU8(storage.ExecBlock)
	// The trimmed form (block.Trimmed), written without building it.
	b.Header.EncodeBinary(w.BinWriter)
	w.WriteVarUint(uint64(len(b.Transactions)))
	for _, tx := range b.Transactions {
		h := tx.Hash()
		w.WriteBytes(h[:])
	}
	for _, a := range aers {
		if a != nil {
			a.EncodeBinary(w.BinWriter)
		}
	}
	if w.Err != nil {
		return fmt.Errorf("dao: encode block: %w", w.Err)
	}
	return d.put(executableKey(b.Hash()), w.Bytes())
}

// StoreHeader stores a header alone (a trimmed block with no transactions).
func (d *DAO) StoreHeader(h *block.Header) error {
	w := io.NewBufBinWriter()
	w.WriteU8(storage.ExecBlock)
	h.EncodeBinary(w.BinWriter)
	w.WriteVarUint(0)
	if w.Err != nil {
		return fmt.Errorf("dao: encode header: %w", w.Err)
	}
	return d.put(executableKey(h.Hash()), w.Bytes())
}

func (d *DAO) put(key, value []byte) error {
	if err := d.store.Put(key, value); err != nil {
		return fmt.Errorf("dao: put: %w", err)
	}
	return nil
}

// readBlock decodes the trimmed block at the start of a block record and
// returns the reader positioned after it.
func (d *DAO) readBlock(h util.Uint256) (*block.Trimmed, *io.BinReader, error) {
	v, err := d.get(executableKey(h))
	if err != nil {
		return nil, nil, err
	}
	if len(v) == 0 || v[0] != storage.ExecBlock {
		return nil, nil, fmt.Errorf("%w: block %s", ErrNotFound, h)
	}
	r := io.NewBinReaderFromBuf(v[1:])
	t := &block.Trimmed{Header: block.Header{StateRootEnabled: d.srInHeader}}
	t.DecodeBinary(r)
	if r.Err != nil {
		return nil, nil, fmt.Errorf("%w: block %s: %w", ErrCorrupted, h, r.Err)
	}
	return t, r, nil
}

// GetTrimmedBlock returns the header and transaction hashes of block h.
func (d *DAO) GetTrimmedBlock(h util.Uint256) (*block.Trimmed, error) {
	t, _, err := d.readBlock(h)
	return t, err
}

// GetBlock returns block h with its transactions.
func (d *DAO) GetBlock(h util.Uint256) (*block.Block, error) {
	t, _, err := d.readBlock(h)
	if err != nil {
		return nil, err
	}
	if len(t.Hashes) == 0 && t.MerkleRoot != (util.Uint256{}) {
		// A header stored ahead of its block (StoreHeader): a block
		// without transactions has the zero Merkle root.
		return nil, fmt.Errorf("%w: block %s (only its header is stored)", ErrNotFound, h)
	}
	b := &block.Block{Header: t.Header, Transactions: make([]*transaction.Transaction, len(t.Hashes))}
	for i, th := range t.Hashes {
		tx, _, err := d.GetTransaction(th)
		if err != nil {
			return nil, fmt.Errorf("dao: block %s tx %s: %w", h, th, err)
		}
		b.Transactions[i] = tx
	}
	return b, nil
}

// AppendBlockBytes appends block h serialized as block.Block.EncodeBinary
// writes it to dst: the header and the transaction count from the block
// record, each transaction's bytes as they are in its own record (written
// by the same encoder, so no transaction is decoded into objects).
func (d *DAO) AppendBlockBytes(dst []byte, h util.Uint256) ([]byte, error) {
	v, err := d.get(executableKey(h))
	if err != nil {
		return dst, err
	}
	if len(v) == 0 || v[0] != storage.ExecBlock {
		return dst, fmt.Errorf("%w: block %s", ErrNotFound, h)
	}
	r := io.NewBinReaderFromBuf(v[1:])
	hdr := block.Header{StateRootEnabled: d.srInHeader}
	hdr.DecodeBinary(r)
	hdrEnd := len(v) - r.Len()
	n := r.ReadVarLen(block.MaxTransactionsPerBlock)
	if r.Err == nil && n*util.Uint256Size > r.Len() {
		return dst, fmt.Errorf("%w: block %s: %d hashes in %d bytes", ErrCorrupted, h, n, r.Len())
	}
	if r.Err != nil {
		return dst, fmt.Errorf("%w: block %s: %w", ErrCorrupted, h, r.Err)
	}
	if n == 0 && hdr.MerkleRoot != (util.Uint256{}) {
		return dst, fmt.Errorf("%w: block %s (only its header is stored)", ErrNotFound, h)
	}
	dst = append(dst, v[1:hdrEnd]...)
	var count [9]byte
	dst = append(dst, count[:io.PutVarUint(count[:], uint64(n))]...)
	hashes := v[len(v)-r.Len():]
	var key [1 + util.Uint256Size]byte
	key[0] = byte(storage.DataExecutable)
	for i := range n {
		copy(key[1:], hashes[i*util.Uint256Size:])
		before := len(dst)
		if dst, err = d.appendTxBytes(dst, key[:]); err != nil {
			return dst, fmt.Errorf("dao: block %s tx %d: %w", h, i, err)
		}
		if i == 0 {
			// Room for the rest at about the first one's size (a block's
			// transactions are mostly alike), not a doubling per append.
			dst = slices.Grow(dst, (n-1)*(len(dst)-before)*9/8)
		}
	}
	return dst, nil
}

// appendTxBytes appends the transaction of the record at key to dst.
func (d *DAO) appendTxBytes(dst, key []byte) ([]byte, error) {
	v, err := d.get(key)
	if err != nil {
		return dst, err
	}
	if len(v) <= conflictStubLen || v[0] != storage.ExecTransaction {
		return dst, fmt.Errorf("%w: transaction %s", ErrNotFound, util.Uint256(key[1:]))
	}
	n, err := transaction.EncodedLen(v[conflictStubLen:])
	if err != nil {
		return dst, fmt.Errorf("%w: transaction %s: %w", ErrCorrupted, util.Uint256(key[1:]), err)
	}
	return append(dst, v[conflictStubLen:conflictStubLen+n]...), nil
}

// GetAppExecResults returns the stored execution results of container h
// (a block or a transaction) whose trigger is in trig.
func (d *DAO) GetAppExecResults(h util.Uint256, trig trigger.Type) ([]state.AppExecResult, error) {
	v, err := d.get(executableKey(h))
	if err != nil {
		return nil, err
	}
	var r *io.BinReader
	switch {
	case len(v) > 0 && v[0] == storage.ExecBlock:
		_, r, err = d.readBlock(h)
		if err != nil {
			return nil, err
		}
	case len(v) > conflictStubLen && v[0] == storage.ExecTransaction:
		r = io.NewBinReaderFromBuf(v[conflictStubLen:])
		new(transaction.Transaction).DecodeBinary(r)
	default:
		return nil, fmt.Errorf("%w: executable %s", ErrNotFound, h)
	}
	var res []state.AppExecResult
	for r.Err == nil && r.Len() > 0 {
		var a state.AppExecResult
		a.DecodeBinary(r)
		if r.Err == nil && a.Trigger&trig != 0 {
			res = append(res, a)
		}
	}
	if r.Err != nil {
		return nil, fmt.Errorf("%w: executable %s: %w", ErrCorrupted, h, r.Err)
	}
	return res, nil
}

// execResultSizeHint is room for a transfer's execution result (VM state,
// GAS, one result, a Transfer notification) in a stored transaction record.
const execResultSizeHint = 256

// blockExecSizeHint is room per transaction in a stored block record for
// its fee burn's notification in the OnPersist result.
const blockExecSizeHint = 72

// StoreAsTransaction stores tx included at height with its execution result
// (nil allowed), and a conflict stub for every Conflicts attribute (for
// the conflicting hash, and for that hash with each signer), unless a block
// with that hash exists.
//
// The record is encoded in a buffer d reuses and copied, at its exact
// size, into d's record arena (see recordArena).
func (d *DAO) StoreAsTransaction(tx *transaction.Transaction, height uint32, aer *state.AppExecResult) error {
	if d.enc == nil {
		d.enc = io.NewBufBinWriter()
	}
	w := d.enc
	w.Reset()
	w.WriteU8(storage.ExecTransaction)
	w.WriteU32LE(height)
	tx.EncodeBinary(w.BinWriter)
	if aer != nil {
		aer.EncodeBinary(w.BinWriter)
	}
	if w.Err != nil {
		return fmt.Errorf("dao: encode tx: %w", w.Err)
	}
	h := tx.Hash()
	key := append(d.scratch(0), byte(storage.DataExecutable))
	key = append(key, h[:]...)
	d.keyBuf = key[:0]
	if err := d.put(key, d.recs.copy(w.Bytes())); err != nil {
		return err
	}
	stub := make([]byte, conflictStubLen)
	stub[0] = storage.ExecTransaction
	binary.LittleEndian.PutUint32(stub[1:], height)
	for _, a := range tx.GetAttributes(transaction.AttrConflicts) {
		c, ok := a.Value.(*transaction.Conflicts)
		if !ok {
			continue
		}
		key := executableKey(c.Hash)
		if v, err := d.store.Get(key); err == nil && len(v) > 0 && v[0] != storage.ExecTransaction {
			continue // a block has this hash: no transaction can
		}
		if err := d.put(key, stub); err != nil {
			return err
		}
		for _, s := range tx.Signers {
			if err := d.put(append(key[:len(key):len(key)], s.Account[:]...), stub); err != nil {
				return err
			}
		}
	}
	return nil
}

// GetTransaction returns transaction h and the height of its block.
// Conflict stubs are reported as absent.
func (d *DAO) GetTransaction(h util.Uint256) (*transaction.Transaction, uint32, error) {
	v, err := d.get(executableKey(h))
	if err != nil {
		return nil, 0, err
	}
	if len(v) <= conflictStubLen || v[0] != storage.ExecTransaction {
		return nil, 0, fmt.Errorf("%w: transaction %s", ErrNotFound, h)
	}
	height := binary.LittleEndian.Uint32(v[1:])
	r := io.NewBinReaderFromBuf(v[conflictStubLen:])
	tx := new(transaction.Transaction)
	tx.DecodeBinary(r)
	if r.Err != nil {
		return nil, 0, fmt.Errorf("%w: transaction %s: %w", ErrCorrupted, h, r.Err)
	}
	return tx, height, nil
}

// HasTransaction returns nil when h may be added to the chain at
// currentHeight: ErrAlreadyExists if it is on chain, ErrHasConflicts if an
// on-chain transaction within maxTraceable blocks declared it conflicting
// and shares a signer with signers (any signer when signers is empty).
func (d *DAO) HasTransaction(h util.Uint256, signers []transaction.Signer, currentHeight, maxTraceable uint32) error {
	key := executableKey(h)
	v, err := d.store.Get(key)
	if err != nil || len(v) < conflictStubLen || v[0] != storage.ExecTransaction {
		return nil
	}
	if len(v) != conflictStubLen {
		return ErrAlreadyExists
	}
	if len(signers) == 0 {
		return ErrHasConflicts
	}
	if !traceable(v[1:], currentHeight, maxTraceable) {
		return nil
	}
	for _, s := range signers {
		sv, err := d.store.Get(append(key[:len(key):len(key)], s.Account[:]...))
		if err == nil && len(sv) == conflictStubLen && traceable(sv[1:], currentHeight, maxTraceable) {
			return ErrHasConflicts
		}
	}
	return nil
}

func traceable(heightLE []byte, current, maxTraceable uint32) bool {
	h := binary.LittleEndian.Uint32(heightLE)
	return h <= current && uint64(h)+uint64(maxTraceable) > uint64(current)
}

func pointer(h util.Uint256, height uint32) []byte {
	return binary.LittleEndian.AppendUint32(h.BytesLE(), height)
}

func (d *DAO) readPointer(p storage.KeyPrefix) (util.Uint256, uint32, error) {
	v, err := d.get(p.Bytes())
	if err != nil {
		return util.Uint256{}, 0, err
	}
	if len(v) != util.Uint256Size+4 {
		return util.Uint256{}, 0, fmt.Errorf("%w: pointer 0x%02x of %d bytes", ErrCorrupted, byte(p), len(v))
	}
	h, _ := util.Uint256DecodeBytesLE(v[:util.Uint256Size]) // length checked
	return h, binary.LittleEndian.Uint32(v[util.Uint256Size:]), nil
}

// StoreAsCurrentBlock records b as the last persisted block.
func (d *DAO) StoreAsCurrentBlock(b *block.Block) error {
	return d.put(storage.SYSCurrentBlock.Bytes(), pointer(b.Hash(), b.Index))
}

// PutCurrentBlock records block height with hash h as the last persisted
// block (a test run's made-up view of the chain; blocks are recorded with
// StoreAsCurrentBlock).
func (d *DAO) PutCurrentBlock(h util.Uint256, height uint32) error {
	return d.put(storage.SYSCurrentBlock.Bytes(), pointer(h, height))
}

// GetCurrentBlock returns the hash and height of the last persisted block.
func (d *DAO) GetCurrentBlock() (util.Uint256, uint32, error) {
	return d.readPointer(storage.SYSCurrentBlock)
}

// PutCurrentHeader records the last stored header.
// The header pointer keeps the hash byte-reversed, as neo-go's layout does.
func (d *DAO) PutCurrentHeader(h util.Uint256, height uint32) error {
	return d.put(storage.SYSCurrentHeader.Bytes(), pointer(h.Reverse(), height))
}

// GetCurrentHeader returns the hash and height of the last stored header.
func (d *DAO) GetCurrentHeader() (util.Uint256, uint32, error) {
	h, height, err := d.readPointer(storage.SYSCurrentHeader)
	return h.Reverse(), height, err
}

func headerHashKey(height uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{byte(storage.IXHeaderHashList)}, height)
}

// StoreHeaderHashes stores a batch of header hashes starting at height.
func (d *DAO) StoreHeaderHashes(hashes []util.Uint256, height uint32) error {
	w := io.NewBufBinWriter()
	w.WriteVarUint(uint64(len(hashes)))
	for i := range hashes {
		w.WriteBytes(hashes[i][:])
	}
	return d.put(headerHashKey(height), w.Bytes())
}

// GetHeaderHashes returns the batch of header hashes stored at height.
func (d *DAO) GetHeaderHashes(height uint32) ([]util.Uint256, error) {
	v, err := d.get(headerHashKey(height))
	if err != nil {
		return nil, err
	}
	r := io.NewBinReaderFromBuf(v)
	n := r.ReadVarLen(maxHeaderHashes)
	hashes := make([]util.Uint256, 0, min(n, 1<<12))
	for range n {
		var h util.Uint256
		r.ReadBytes(h[:])
		hashes = append(hashes, h)
	}
	if r.Err != nil || r.Len() != 0 {
		return nil, fmt.Errorf("%w: header hashes at %d: %v", ErrCorrupted, height, r.Err)
	}
	return hashes, nil
}
