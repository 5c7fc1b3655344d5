package txpipe

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/mempool"
)

// Errors of Submit and SubmitWait.
var (
	// ErrKnown is a transaction already pooled or processed recently
	// (a peer announcing it again is answered without any work).
	ErrKnown = errors.New("txpipe: transaction already known")
	// ErrInFlight is a transaction being processed already (Submit only:
	// SubmitWait waits for that processing's verdict instead).
	ErrInFlight = errors.New("txpipe: transaction already being processed")
	// ErrQueueFull is a source whose queue is full, or a pipeline holding
	// MaxQueued transactions.
	ErrQueueFull = errors.New("txpipe: queue full")
	// ErrPoolFull is a transaction the full pool would not take (checked
	// before the verification is spent on it); it wraps mempool.ErrOOM,
	// the reference's OutOfMemory.
	ErrPoolFull = fmt.Errorf("txpipe: not verified: %w", mempool.ErrOOM)
	// ErrStopped is a pipeline that is no longer running.
	ErrStopped = errors.New("txpipe: stopped")
	// ErrRunning is a second Run.
	ErrRunning = errors.New("txpipe: already running")
	// ErrBadConfig is an invalid Config.
	ErrBadConfig = errors.New("txpipe: invalid configuration")
)
