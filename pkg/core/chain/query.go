package chain

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
)

// CurrentBlockHash returns the hash of the block at the current height.
func (c *Chain) CurrentBlockHash() util.Uint256 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.headers[len(c.mu.headers)-1]
}

// GetHeaderHash returns the hash of the block at index, false above the
// height.
func (c *Chain) GetHeaderHash(index uint32) (util.Uint256, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if int64(index) >= int64(len(c.mu.headers)) {
		return util.Uint256{}, false
	}
	return c.mu.headers[index], true
}

// GetBlock returns the block with hash h.
func (c *Chain) GetBlock(h util.Uint256) (*block.Block, error) {
	b, err := c.dao.GetBlock(h)
	if err != nil {
		return nil, c.notFound("block", h, err)
	}
	return b, nil
}

// AppendBlockBytes appends block h serialized (as block.Block.Bytes has
// it) to dst: the newest block from its block log record kept in memory
// (recent.go), any other copied from the stored records without decoding
// its transaction objects.
func (c *Chain) AppendBlockBytes(dst []byte, h util.Uint256) ([]byte, error) {
	if out, ok := c.recent.appendTo(dst, h); ok {
		return out, nil
	}
	dst, err := c.dao.AppendBlockBytes(dst, h)
	if err != nil {
		return dst, c.notFound("block", h, err)
	}
	return dst, nil
}

// GetBlockByIndex returns the block at index.
func (c *Chain) GetBlockByIndex(index uint32) (*block.Block, error) {
	h, ok := c.GetHeaderHash(index)
	if !ok {
		return nil, fmt.Errorf("%w: block %d above height %d", ErrNotFound, index, c.BlockHeight())
	}
	return c.GetBlock(h)
}

// GetHeader returns the header of block h.
func (c *Chain) GetHeader(h util.Uint256) (*block.Header, error) {
	t, err := c.dao.GetTrimmedBlock(h)
	if err != nil {
		return nil, c.notFound("header", h, err)
	}
	return &t.Header, nil
}

// HasTransaction reports whether transaction h is on chain; the common
// answer (no) comes from the bloom filter without a database read.
func (c *Chain) HasTransaction(h util.Uint256) (bool, error) {
	if !c.bloom.ContainsHash(bloomKey(h)) {
		return false, nil
	}
	_, _, err := c.dao.GetTransaction(h)
	if dao.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// GetTransaction returns transaction h and the index of its block.
func (c *Chain) GetTransaction(h util.Uint256) (*transaction.Transaction, uint32, error) {
	tx, height, err := c.dao.GetTransaction(h)
	if err != nil {
		return nil, 0, c.notFound("transaction", h, err)
	}
	return tx, height, nil
}

// GetAppExecResults returns the application logs of a block or
// transaction whose trigger is in trig.
func (c *Chain) GetAppExecResults(h util.Uint256, trig trigger.Type) ([]state.AppExecResult, error) {
	r, err := c.dao.GetAppExecResults(h, trig)
	if err != nil {
		return nil, c.notFound("application log", h, err)
	}
	return r, nil
}

// StateRoot returns the local state root of block index.
func (c *Chain) StateRoot(index uint32) (*StateRoot, error) {
	if index > c.BlockHeight() {
		return nil, fmt.Errorf("%w: state root %d above height %d", ErrNotFound, index, c.BlockHeight())
	}
	return getStateRoot(c.cache, index)
}

// CurrentStateRoot returns the state root after the current block.
func (c *Chain) CurrentStateRoot() util.Uint256 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.stateRoot
}

func (c *Chain) notFound(what string, h util.Uint256, err error) error {
	if dao.IsNotFound(err) {
		return fmt.Errorf("%w: %s %s", ErrNotFound, what, h.String())
	}
	return fmt.Errorf("chain: %s %s: %w", what, h.String(), err)
}
