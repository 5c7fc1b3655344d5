package dao

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// Removal of ledger records, for a state reset (the chain's db reset): the
// inverse of StoreAsBlock and StoreAsTransaction.

// DeleteBlock removes block h, its transactions with their execution
// results, and the conflict records its transactions wrote: a record is
// removed only when it still carries this block's index (a later block
// may have rewritten it; an earlier record it overwrote is not restored,
// as in neo-go). It returns the removed block.
func (d *DAO) DeleteBlock(h util.Uint256) (*block.Block, error) {
	b, err := d.GetBlock(h)
	if err != nil {
		return nil, err
	}
	if err := d.del(executableKey(h)); err != nil {
		return nil, err
	}
	for _, tx := range b.Transactions {
		if err := d.del(executableKey(tx.Hash())); err != nil {
			return nil, err
		}
		if err := d.deleteConflictStubs(tx, b.Index); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// deleteConflictStubs removes the conflict records of tx's Conflicts
// attributes (plain and per signer) that were written at index.
func (d *DAO) deleteConflictStubs(tx *transaction.Transaction, index uint32) error {
	for _, a := range tx.GetAttributes(transaction.AttrConflicts) {
		c, ok := a.Value.(*transaction.Conflicts)
		if !ok {
			continue
		}
		key := executableKey(c.Hash)
		if err := d.deleteStubAt(key, index); err != nil {
			return err
		}
		for _, s := range tx.Signers {
			if err := d.deleteStubAt(append(key[:len(key):len(key)], s.Account[:]...), index); err != nil {
				return err
			}
		}
	}
	return nil
}

// deleteStubAt removes the conflict record at key if it was written at
// index; anything else there (a block, a transaction, a newer record) stays.
func (d *DAO) deleteStubAt(key []byte, index uint32) error {
	v, err := d.store.Get(key)
	if err != nil {
		if errors.Is(err, storage.ErrKeyNotFound) {
			return nil
		}
		return fmt.Errorf("dao: get: %w", err)
	}
	if len(v) != conflictStubLen || v[0] != storage.ExecTransaction || binary.LittleEndian.Uint32(v[1:]) != index {
		return nil
	}
	return d.del(key)
}

// DeleteHeaderHashes removes the batch of header hashes stored at height.
func (d *DAO) DeleteHeaderHashes(height uint32) error {
	return d.del(headerHashKey(height))
}

func (d *DAO) del(key []byte) error {
	if err := d.store.Delete(key); err != nil {
		return fmt.Errorf("dao: delete: %w", err)
	}
	return nil
}
