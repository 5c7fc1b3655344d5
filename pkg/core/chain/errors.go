package chain

import "errors"

// Sentinel errors, returned wrapped with the block or transaction they
// concern.
var (
	// ErrBadConfig is a protocol configuration the chain cannot run with.
	ErrBadConfig = errors.New("chain: bad configuration")
)
