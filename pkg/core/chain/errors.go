package chain

import "errors"

// Sentinel errors, returned wrapped with the block or transaction they
// concern.
var (
	// ErrBadConfig is a protocol configuration the chain cannot run with.
	ErrBadConfig = errors.New("chain: bad configuration")
	// ErrHeaderPrimary is a primary index not below the validators count.
	ErrHeaderPrimary = errors.New("chain: invalid primary index")
	// ErrHeaderIndex is a header that does not follow its predecessor.
	ErrHeaderIndex = errors.New("chain: invalid header index")
	// ErrHeaderPrevHash is a header whose previous hash is not its
	// predecessor's.
	ErrHeaderPrevHash = errors.New("chain: previous hash mismatch")
	// ErrHeaderTimestamp is a timestamp not after the predecessor's.
	ErrHeaderTimestamp = errors.New("chain: timestamp not increasing")
	// ErrWitness is a witness that does not verify.
	ErrWitness = errors.New("chain: witness verification failed")
)
