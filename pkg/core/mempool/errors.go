package mempool

import (
	"errors"
	"fmt"
)

// Errors of Add. Each corresponds to a reference VerifyResult, so a caller
// (the RPC server) can report the reference's answer with errors.Is.
var (
	// ErrDup is a transaction already in the pool (AlreadyInPool).
	ErrDup = errors.New("mempool: already in the pool")
	// ErrConflict is a transaction the Conflicts rules keep out: it names
	// a pooled transaction none of whose signers it shares, or it does not
	// pay more network fee than the pooled transactions it would replace
	// (HasConflicts).
	ErrConflict = errors.New("mempool: conflicts with pooled transactions")
	// ErrInsufficientFunds is a sender whose GAS does not cover the fees of
	// its pooled transactions plus this one (InsufficientFunds).
	ErrInsufficientFunds = errors.New("mempool: sender cannot pay the fees of its pooled transactions")
	// ErrOracleResponse is a second response to the same oracle request;
	// the reference reports it as InsufficientFunds, so it wraps that.
	ErrOracleResponse = fmt.Errorf("%w: oracle request already answered in the pool", ErrInsufficientFunds)
	// ErrOOM is a transaction that does not beat the lowest-priority one
	// of a full pool (OutOfMemory).
	ErrOOM = errors.New("mempool: full and the transaction does not beat the lowest one")
	// ErrStale is a transaction verified against a state the chain has
	// since moved past: verify it again.
	ErrStale = errors.New("mempool: verified against an outdated state")
	// ErrBadConfig is an invalid Config.
	ErrBadConfig = errors.New("mempool: invalid configuration")
	// ErrSlowSubscriber closes a subscription whose channel was full.
	ErrSlowSubscriber = errors.New("mempool: subscriber too slow, dropped")
)
