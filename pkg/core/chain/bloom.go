package chain

import (
	"encoding/binary"
	"errors"
	"fmt"

	bloomfilter "github.com/holiman/bloomfilter/v2"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// The "is this transaction on chain?" filter (query.go's HasTransaction
// asks it before the database) is kept across restarts:
//
//	key    SYSVersion(0xf0) ‖ "txbloom"   (chain-private, next to the version record)
//	value  u8 version(2) ‖ u32 LE height ‖ block hash at height (32, wire order)
//	       ‖ holiman/bloomfilter binary form (k, n, m, bits, SHA-384 of them)
//
// The filter holds the hash of every transaction and of every conflict
// record (the hashes Conflicts attributes name): a hash it does not hold
// has no record under DataExecutable as a transaction. The record covers
// blocks 0..height. At open the
// filter is restored from it when the block at height still has that hash
// (walking back from the current block proves it) and the transactions of
// the blocks after it are added; a missing, corrupt or foreign record, or
// one whose filter would be over capacity, makes a full rebuild from the
// transaction records, sized for what the database holds (a filter is over
// capacity when its false positive probability for the transactions it
// holds exceeds the 1% it was built for). The record is
// then rewritten for the current height, so the next open only tops up the
// blocks added since. A filter may hold more than the record claims (that
// only costs false positives), never less.
var bloomRecordKey = append(storage.SYSVersion.Bytes(), "txbloom"...)

const (
	// bloomRecordVersion 2: the filter holds conflict record hashes too
	// (a version 1 record is rebuilt).
	bloomRecordVersion = 2
	bloomRecordHeader  = 1 + 4 + util.Uint256Size
	// minBloomCapacity is the smallest filter built at open.
	minBloomCapacity   = 1 << 16
	bloomFalsePositive = 0.01
)

// bloomCapacity sizes a filter for n stored transactions: room for as many
// again, at least the configured capacity and minBloomCapacity.
func bloomCapacity(configured int, n uint64) uint64 {
	return max(uint64(max(configured, 0)), 2*n, minBloomCapacity)
}

// bloomLoad says how the filter was obtained at open.
type bloomLoad struct {
	rebuilt  bool   // full scan of the transaction records
	reason   string // why the record was not used
	toppedUp uint32 // blocks added on top of the record
	bits     uint64 // filter size
	count    uint64 // transactions in the filter
}

// fillBloom restores (or rebuilds) the filter at open for the persisted
// chain and rewrites its record.
func (c *Chain) fillBloom() error {
	hash, height, err := c.dao.GetCurrentBlock()
	if err != nil {
		return fmt.Errorf("chain: bloom: current block: %w", err)
	}
	f, res, err := c.loadBloom(hash, height)
	if err != nil {
		return err
	}
	c.bloom = f
	c.log.Info("transaction filter ready", zap.Bool("rebuilt", res.rebuilt), zap.String("reason", res.reason),
		zap.Uint32("blocks_topped_up", res.toppedUp), zap.Uint64("transactions", res.count),
		zap.Uint64("bits", res.bits))
	if res.rebuilt || res.toppedUp > 0 {
		return c.saveBloom(f, hash, height)
	}
	return nil
}

// loadBloom restores the persisted filter for the chain ending at block
// (hash, height), or rebuilds it.
func (c *Chain) loadBloom(hash util.Uint256, height uint32) (*bloomfilter.Filter, bloomLoad, error) {
	f, recHeight, recHash, reason := c.readBloomRecord()
	if f != nil && recHeight > height {
		f, reason = nil, fmt.Sprintf("record at height %d above the chain's %d", recHeight, height)
	}
	if f != nil {
		topped, err := c.topUpBloom(f, hash, height, recHeight, recHash)
		switch {
		case err != nil:
			reason = err.Error()
		case f.FalsePosititveProbability() > bloomFalsePositive:
			reason = fmt.Sprintf("%d transactions exceed the filter's capacity", f.N())
		default:
			return f, bloomLoad{toppedUp: topped, bits: f.M(), count: f.N()}, nil
		}
	}
	f, err := c.rebuildBloom()
	if err != nil {
		return nil, bloomLoad{}, err
	}
	return f, bloomLoad{rebuilt: true, reason: reason, bits: f.M(), count: f.N()}, nil
}

// readBloomRecord decodes the stored record; f is nil (with the reason)
// when there is none or it does not decode.
func (c *Chain) readBloomRecord() (f *bloomfilter.Filter, height uint32, hash util.Uint256, reason string) {
	v, err := c.cache.Get(bloomRecordKey)
	if errors.Is(err, storage.ErrKeyNotFound) {
		return nil, 0, hash, "no stored filter"
	}
	if err != nil {
		return nil, 0, hash, err.Error()
	}
	if len(v) < bloomRecordHeader || v[0] != bloomRecordVersion {
		return nil, 0, hash, "unknown filter record format"
	}
	height = binary.LittleEndian.Uint32(v[1:])
	copy(hash[:], v[5:bloomRecordHeader])
	f = new(bloomfilter.Filter)
	if err := f.UnmarshalBinary(v[bloomRecordHeader:]); err != nil {
		return nil, 0, hash, "stored filter: " + err.Error()
	}
	return f, height, hash, ""
}

// topUpBloom adds the transactions (and conflict records) of blocks recHeight+1..height to f,
// walking back from the current block, and checks that the walk reaches
// recHash at recHeight.
func (c *Chain) topUpBloom(f *bloomfilter.Filter, hash util.Uint256, height, recHeight uint32, recHash util.Uint256) (uint32, error) {
	h := hash
	for i := height; i > recHeight; i-- {
		b, err := c.dao.GetBlock(h)
		if err != nil {
			return 0, fmt.Errorf("block %d (%s): %w", i, h.String(), err)
		}
		addBlockHashes(f, b)
		h = b.PrevHash
	}
	if h != recHash {
		return 0, fmt.Errorf("stored filter covers block %s at %d, the chain has %s", recHash.String(), recHeight, h.String())
	}
	return height - recHeight, nil
}

// rebuildBloom builds the filter from every stored transaction record
// (DataExecutable ‖ hash in wire order; conflict stubs, type and height
// only, are left out), sized for their number.
func (c *Chain) rebuildBloom() (*bloomfilter.Filter, error) {
	var keys []uint64
	err := c.cache.Seek(storage.SeekRange{Prefix: storage.DataExecutable.Bytes()}, func(k, v []byte) bool {
		// Transactions and conflict records (a 5-byte value) alike.
		if len(k) == 1+util.Uint256Size && len(v) >= 1+4 && v[0] == storage.ExecTransaction {
			keys = append(keys, binary.LittleEndian.Uint64(k[1:]))
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("chain: bloom: %w", err)
	}
	capacity := bloomCapacity(c.cfg.BloomCapacity, uint64(len(keys)))
	f, err := bloomfilter.NewOptimal(capacity, bloomFalsePositive)
	if err != nil {
		return nil, fmt.Errorf("chain: bloom filter: %w", err)
	}
	for _, k := range keys {
		f.AddHash(k)
	}
	return f, nil
}

// saveBloom writes the record of f covering the chain up to block (hash,
// height) into the write cache (it reaches the database with the next
// block or at Close, after the blocks it covers).
func (c *Chain) saveBloom(f *bloomfilter.Filter, hash util.Uint256, height uint32) error {
	data, err := f.MarshalBinary()
	if err != nil {
		return fmt.Errorf("chain: bloom: %w", err)
	}
	v := make([]byte, bloomRecordHeader, bloomRecordHeader+len(data))
	v[0] = bloomRecordVersion
	binary.LittleEndian.PutUint32(v[1:], height)
	copy(v[5:], hash[:])
	if err := c.cache.Put(bloomRecordKey, append(v, data...)); err != nil {
		return fmt.Errorf("chain: bloom: %w", err)
	}
	return nil
}

// persistBloom writes the record of the current filter for the current
// height: with it at Close, the next open needs no top-up at all. It must
// run under addMu (no block being added).
func (c *Chain) persistBloom() error {
	return c.saveBloom(c.bloom, c.CurrentBlockHash(), c.BlockHeight())
}
