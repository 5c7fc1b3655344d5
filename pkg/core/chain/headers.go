package chain

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// The header chain ahead of the blocks (neo-go's AddHeaders and header
// hash list): a node that synchronises state learns the headers up to the
// sync point and beyond before it has the blocks. Headers above the
// current block are verified as block headers are (index, previous hash,
// increasing timestamp, primary index, witness against the previous
// header's NextConsensus; the previous state root can only be checked when
// the block is executed) and stored as neo-go stores them:
//
//   - the header itself as a block record without transactions
//     (DataExecutable ‖ hash), which the block replaces when it arrives;
//   - SYSCurrentHeader: the hash and index of the highest header;
//   - IXHeaderHashList: the batch of headerBatch hashes ending at every
//     multiple of headerBatch the header chain passes.
//
// At open the hashes above the current block come from the batches and,
// for the rest, from walking back from the highest header. A block added
// while its header is known must have that header's hash; a reset drops
// the headers above its height.

// ErrHeaderMismatch is a block or header that differs from the header the
// chain already holds at its index.
var ErrHeaderMismatch = errors.New("chain: header differs from the stored one")

// HeaderHeight returns the index of the highest known header: the current
// block, or above it when headers were added ahead of the blocks.
func (c *Chain) HeaderHeight() uint32 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.headerHeightLocked()
}

// headerHeightLocked is HeaderHeight. REQUIRES: c.mu held.
func (c *Chain) headerHeightLocked() uint32 {
	return uint32(len(c.mu.headers)) - 1 + uint32(len(c.mu.ahead))
}

// HeaderHashAt returns the hash of the header at index, blocks and headers
// ahead of them alike (GetHeaderHash answers for blocks only); false above
// HeaderHeight.
func (c *Chain) HeaderHashAt(index uint32) (util.Uint256, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	n := uint32(len(c.mu.headers))
	switch {
	case index < n:
		return c.mu.headers[index], true
	case uint64(index-n) < uint64(len(c.mu.ahead)):
		return c.mu.ahead[index-n], true
	}
	return util.Uint256{}, false
}

// knownHashLocked is the hash at index, which must be at most the header
// height. REQUIRES: c.mu held.
func (c *Chain) knownHashLocked(index uint32) util.Uint256 {
	if n := uint32(len(c.mu.headers)); index >= n {
		return c.mu.ahead[index-n]
	}
	return c.mu.headers[index]
}

// GetHeaderByIndex returns the header at index (a block's or one ahead of
// the blocks).
func (c *Chain) GetHeaderByIndex(index uint32) (*block.Header, error) {
	h, ok := c.HeaderHashAt(index)
	if !ok {
		return nil, fmt.Errorf("%w: header %d above header height %d", ErrNotFound, index, c.HeaderHeight())
	}
	return c.GetHeader(h)
}

// topHeaderLocked is the highest known header. REQUIRES: c.mu held.
func (c *Chain) topHeaderLocked() *block.Header {
	if c.mu.top != nil {
		return c.mu.top
	}
	return c.mu.tip
}

// AddHeaders verifies and stores headers ahead of the blocks. They must
// continue the known header chain in order; headers at or below
// HeaderHeight that equal the known ones are skipped (peers send
// overlapping batches), a different one fails with ErrHeaderMismatch.
// The headers before a failing one are kept; the error names the failing
// header.
func (c *Chain) AddHeaders(hdrs ...*block.Header) error {
	c.addMu.Lock()
	defer c.addMu.Unlock()
	if err := c.writable(); err != nil {
		return err
	}
	pico, err := c.exec.execFeeFactor(c.dao)
	if err != nil {
		return err
	}
	c.mu.RLock()
	prev := c.topHeaderLocked()
	c.mu.RUnlock()
	var added []*block.Header
	var failed error
	for _, h := range hdrs {
		if h.Index <= prev.Index {
			if err := c.knownHeader(h); err != nil {
				failed = blockError(h, err)
				break
			}
			continue
		}
		if err := c.hv.verifyLink(h, prev, pico); err != nil {
			failed = blockError(h, err)
			break
		}
		added = append(added, h)
		prev = h
	}
	if len(added) != 0 {
		if err := c.storeHeaders(added); err != nil {
			return errors.Join(failed, err)
		}
	}
	return failed
}

// knownHeader checks a header at or below HeaderHeight against the known
// one.
func (c *Chain) knownHeader(h *block.Header) error {
	known, _ := c.HeaderHashAt(h.Index)
	if known != h.Hash() {
		return fmt.Errorf("%w: index %d holds %s", ErrHeaderMismatch, h.Index, known.String())
	}
	return nil
}

// storeHeaders writes verified headers that continue the header chain in
// one layer, then makes them visible. REQUIRES: addMu held.
func (c *Chain) storeHeaders(hdrs []*block.Header) error {
	d := c.cacheDAO().Private()
	for _, h := range hdrs {
		if err := d.StoreHeader(h); err != nil {
			return errors.Join(err, d.Discard())
		}
	}
	top := hdrs[len(hdrs)-1]
	if err := d.PutCurrentHeader(top.Hash(), top.Index); err != nil {
		return errors.Join(err, d.Discard())
	}
	added := make([]util.Uint256, len(hdrs))
	for i, h := range hdrs {
		added[i] = h.Hash()
	}
	first := hdrs[0].Index
	for _, h := range hdrs {
		if (h.Index+1)%headerBatch != 0 {
			continue
		}
		start := h.Index + 1 - headerBatch
		batch := make([]util.Uint256, 0, headerBatch)
		if start < first {
			c.mu.RLock()
			for i := start; i < first; i++ {
				batch = append(batch, c.knownHashLocked(i))
			}
			c.mu.RUnlock()
		}
		batch = append(batch, added[max(start, first)-first:h.Index+1-first]...)
		if err := d.StoreHeaderHashes(batch, start); err != nil {
			return errors.Join(err, d.Discard())
		}
	}
	if err := d.Persist(); err != nil {
		return err
	}
	c.mu.Lock()
	c.mu.ahead = append(c.mu.ahead, added...)
	c.mu.top = top
	c.metrics.headers.Set(float64(top.Index))
	c.mu.Unlock()
	c.log.Debug("headers added", zap.Uint32("from", hdrs[0].Index), zap.Uint32("to", top.Index))
	return nil
}

// checkAheadHeader refuses a block whose index has a known header of
// another hash. REQUIRES: addMu held.
func (c *Chain) checkAheadHeader(b *block.Block) error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if len(c.mu.ahead) == 0 || uint32(len(c.mu.headers)) != b.Index {
		return nil
	}
	if want := c.mu.ahead[0]; want != b.Hash() {
		return fmt.Errorf("%w: header %s", ErrHeaderMismatch, want.String())
	}
	return nil
}

// headersAbove reports whether headers are known above the block being
// added (checkAheadHeader passed: the first header ahead, if any, is its
// own); the current header pointer then stays where AddHeaders put it.
func (c *Chain) headersAbove() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.mu.ahead) > 1
}

// blockAddedLocked moves the first header ahead, that of the block just
// added, to the block list. REQUIRES: c.mu held for writing.
func (c *Chain) blockAddedLocked(h util.Uint256) {
	c.mu.headers = append(c.mu.headers, h)
	if len(c.mu.ahead) != 0 {
		c.mu.ahead = c.mu.ahead[1:]
	}
	if len(c.mu.ahead) == 0 {
		c.mu.top = nil
	}
}

// loadAhead reads the headers stored above the current block (height,
// hashes of the blocks): nil when there are none, or when they do not
// continue the blocks (they are then forgotten: the header pointer is
// moved back to the current block by the next block or reset).
func (c *Chain) loadAhead(blocks []util.Uint256) ([]util.Uint256, *block.Header, error) {
	height := uint32(len(blocks)) - 1
	top, hh, err := c.dao.GetCurrentHeader()
	if err != nil {
		if dao.IsNotFound(err) {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("chain: current header: %w", err)
	}
	if hh <= height {
		return nil, nil, nil
	}
	ahead := make([]util.Uint256, hh-height)
	filled := uint32(0) // ahead[:filled] come from batches
	for start := (height + 1) / headerBatch * headerBatch; start+headerBatch <= hh+1; start += headerBatch {
		batch, err := c.dao.GetHeaderHashes(start)
		if err != nil {
			return nil, nil, fmt.Errorf("chain: header hashes at %d: %w", start, err)
		}
		if len(batch) != headerBatch {
			return nil, nil, fmt.Errorf("chain: header hashes at %d: %d in batch", start, len(batch))
		}
		for i, h := range batch {
			if idx := start + uint32(i); idx > height {
				ahead[idx-height-1] = h
			}
		}
		filled = start + headerBatch - height - 1
	}
	var topHdr *block.Header
	h := top
	for i := int(hh - height - 1); i >= int(filled); i-- {
		ahead[i] = h
		t, err := c.dao.GetTrimmedBlock(h)
		if err != nil {
			return nil, nil, fmt.Errorf("chain: header %s: %w", h.String(), err)
		}
		if topHdr == nil {
			topHdr = &t.Header
		}
		h = t.PrevHash
	}
	first, err := c.dao.GetTrimmedBlock(ahead[0])
	if err != nil {
		return nil, nil, fmt.Errorf("chain: header %s: %w", ahead[0].String(), err)
	}
	if first.PrevHash != blocks[height] {
		c.log.Warn("stored headers do not continue the blocks, dropped", zap.Uint32("height", height),
			zap.Uint32("header_height", hh))
		return nil, nil, nil
	}
	if topHdr == nil {
		t, err := c.dao.GetTrimmedBlock(top)
		if err != nil {
			return nil, nil, fmt.Errorf("chain: header %s: %w", top.String(), err)
		}
		topHdr = &t.Header
	}
	return ahead, topHdr, nil
}

// cacheDAO is a DAO straight over the write cache, for records written
// outside block execution (headers, blocks stored by state sync): their
// change sets must not reach the recorder, which takes one per block.
func (c *Chain) cacheDAO() *dao.DAO {
	d := dao.New(c.cache)
	d.SetStateRootInHeader(c.proto.StateRootInHeader)
	return d
}

// writable is nil when the chain may take a write: neither closed nor
// broken by a failed persist (REQUIRES: c.addMu held).
func (c *Chain) writable() error {
	if c.closed.Load() {
		return ErrClosed
	}
	return c.broken
}
