package chain

import (
	"errors"
	"fmt"
	"time"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/vm"
)

// Limits are the block time and the limits a block and its transactions
// are held to, as they apply at one height. From Echidna on the block
// time, MaxValidUntilBlockIncrement and MaxTraceableBlocks are Policy's
// stored values; before it they come from the protocol configuration. The
// fee factors are always Policy's.
//
// Every reader of these values (transaction verification, the consensus
// block timer, RPC's getversion and test invocations) takes them from
// LimitsAt, so the rule lives in one place.
type Limits struct {
	// TimePerBlock is the block time (Policy's MillisecondsPerBlock from
	// Echidna on; the configured TimePerBlock before, or while Policy
	// holds no value).
	TimePerBlock time.Duration
	// MaxValidUntilBlockIncrement bounds a transaction's ValidUntilBlock
	// above the current height.
	MaxValidUntilBlockIncrement uint32
	// MaxTraceableBlocks is how far back the chain answers for blocks and
	// transactions.
	MaxTraceableBlocks uint32
	// MaxTransactionsPerBlock, MaxBlockSize and MaxBlockSystemFee are the
	// configured block limits (not in Policy).
	MaxTransactionsPerBlock uint16
	MaxBlockSize            uint32
	MaxBlockSystemFee       int64
	// FeePerByte is Policy's network fee per transaction byte (datoshi).
	FeePerByte int64
	// ExecFeeFactor is the opcode price multiplier in datoshi per price
	// unit (Policy stores picoGAS from Faun on; this is that value divided
	// by vm.FeeFactor then).
	ExecFeeFactor int64
}

// LimitsAt returns the limits in force at height, reading Policy's values
// in the current state (the state after the last block). height decides
// which hardforks apply; callers pass BlockHeight() for the next block's
// checks. Safe for concurrent use: it reads a private view.
func (c *Chain) LimitsAt(height uint32) (Limits, error) {
	d := c.view()
	l, err := c.limitsOn(d, height)
	return l, errors.Join(err, d.Discard())
}

// limitsOn is LimitsAt on the state of d.
func (c *Chain) limitsOn(d *dao.DAO, height uint32) (Limits, error) {
	n, err := c.ledgerNativeSet()
	if err != nil {
		return Limits{}, err
	}
	p := c.proto
	l := Limits{
		TimePerBlock:                p.TimePerBlock,
		MaxValidUntilBlockIncrement: p.MaxValidUntilBlockIncrement,
		MaxTraceableBlocks:          p.MaxTraceableBlocks,
		MaxTransactionsPerBlock:     p.MaxTransactionsPerBlock,
		MaxBlockSize:                p.MaxBlockSize,
		MaxBlockSystemFee:           p.MaxBlockSystemFee,
	}
	if l.FeePerByte, err = n.FeePerByte(d); err != nil {
		return Limits{}, fmt.Errorf("fee per byte: %w", err)
	}
	if l.ExecFeeFactor, err = n.StoredExecFeeFactor(d); err != nil {
		return Limits{}, fmt.Errorf("exec fee factor: %w", err)
	}
	if p.Enabled(protocol.HFFaun, height) {
		l.ExecFeeFactor /= vm.FeeFactor // stored in picoGAS from Faun on
	}
	if !p.Enabled(protocol.HFEchidna, height) {
		return l, nil
	}
	ms, err := n.Core.Policy.MillisecondsPerBlock(d)
	if err != nil {
		return Limits{}, fmt.Errorf("MillisecondsPerBlock: %w", err)
	}
	if ms != 0 {
		l.TimePerBlock = time.Duration(ms) * time.Millisecond
	}
	if l.MaxValidUntilBlockIncrement, err = n.MaxValidUntilBlockIncrement(d); err != nil {
		return Limits{}, fmt.Errorf("MaxValidUntilBlockIncrement: %w", err)
	}
	if l.MaxTraceableBlocks, err = n.MaxTraceableBlocks(d); err != nil {
		return Limits{}, fmt.Errorf("MaxTraceableBlocks: %w", err)
	}
	return l, nil
}

// genLimits are the limits read at one height of one tip generation.
type genLimits struct {
	gen    uint64
	height uint32
	l      Limits
}

// limitsOfGen is limitsOn for a view d of the committed state taken after
// the tip generation gen was read, cached per (gen, height). Policy's
// values change only with the state, and AddBlock makes a block's state
// visible before it bumps the generation, so a view taken after reading
// gen is of that generation's state or, while a block is being stored,
// already of the next one; an entry read from such a torn view lives
// only until the bump, as the torn verdicts themselves (Pool.Add refuses
// a verdict of a height the chain has left, and UpdateForBlock re-checks
// the pool with fresh values after every block).
func (c *Chain) limitsOfGen(d *dao.DAO, gen uint64, height uint32) (Limits, error) {
	if e := c.poolLimits.Load(); e != nil && e.gen == gen && e.height == height {
		return e.l, nil
	}
	l, err := c.limitsOn(d, height)
	if err != nil {
		return Limits{}, err
	}
	c.poolLimits.Store(&genLimits{gen: gen, height: height, l: l})
	return l, nil
}
