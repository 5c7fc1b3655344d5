package consensus

import (
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"go.uber.org/zap"
)

// An agreed block the chain refuses (Config.ProcessBlock fails: a full
// disk, a store refusing writes) is not dropped. dBFT has sent its
// Commit and made the block: it is locked at that height, proposes
// nothing else and waits for the chain to grow. With no other validator
// to supply the block (a single validator, or every validator's chain
// refusing it) the network would stop there for good, even after the
// storage is writable again. So the service keeps the block and hands it
// to the chain again every block time until the chain takes it or has a
// block at that height from elsewhere; each attempt is also what lets a
// chain in its storage-failure state retry its writes when no other
// block arrives.

// keepUnsaved keeps blk for retryUnsaved and arms the retry timer.
func (s *Service) keepUnsaved(blk *block.Block) {
	s.unsaved = blk
	s.armUnsavedRetry()
}

func (s *Service) armUnsavedRetry() {
	if s.unsavedRetry != nil {
		s.unsavedRetry.Stop()
	}
	s.unsavedRetry = s.clock.NewTimer(s.cfg.TimePerBlock())
}

// retryC is the retry timer's channel, nil (never ready) when no block
// waits.
func (s *Service) retryC() <-chan time.Time {
	if s.unsavedRetry == nil {
		return nil
	}
	return s.unsavedRetry.C()
}

// retryUnsaved hands the kept block to the chain again; afterEvent then
// moves dBFT to the next height when the chain took it.
func (s *Service) retryUnsaved() {
	b := s.unsaved
	s.unsavedRetry = nil
	if b == nil {
		return
	}
	if s.cfg.Ledger.BlockHeight() >= b.Index {
		s.unsaved = nil // the chain has the height (relayed, or this block)
		return
	}
	if err := s.cfg.ProcessBlock(b); err != nil {
		s.log.Debug("the chain still refuses the agreed block", zap.Uint32("index", b.Index), zap.Error(err))
		s.armUnsavedRetry()
		return
	}
	s.log.Info("the chain took the agreed block on a retry", zap.Uint32("index", b.Index),
		zap.Stringer("hash", b.Hash()))
	s.unsaved = nil
}
