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
	// ErrHeaderStateRootSetting is a header with or without a previous
	// state root on a network that says otherwise (StateRootInHeader).
	ErrHeaderStateRootSetting = errors.New("chain: state root setting mismatch")
	// ErrHeaderStateRoot is a header whose previous state root is not
	// the local one (StateRootInHeader).
	ErrHeaderStateRoot = errors.New("chain: state root for previous block is invalid")
	// ErrAlreadyExists is a block or transaction already on chain.
	ErrAlreadyExists = errors.New("chain: already exists")
	// ErrBlockIndex is a block that does not follow the current height.
	ErrBlockIndex = errors.New("chain: unexpected block index")
	// ErrClosed is a call on a closed chain.
	ErrClosed = errors.New("chain: closed")
	// ErrBroken is a chain whose write cache holds a half-added block: it
	// must be reopened.
	ErrBroken = errors.New("chain: stopped after a storage failure")
	// ErrStorage is a block or transaction refused because the store does
	// not take writes (a full disk, an I/O error): see StorageErr. It goes
	// away by itself once writes succeed again.
	ErrStorage = errors.New("chain: storage refuses writes")
	// ErrVersion is a database made by another program, network or mode.
	ErrVersion = errors.New("chain: incompatible database")
	// ErrNotFound is a block, transaction or record the chain does not have.
	ErrNotFound = errors.New("chain: not found")
	// ErrExecution is a block whose OnPersist or PostPersist did not HALT.
	ErrExecution = errors.New("chain: system script failed")
	// ErrWitness is a witness that does not verify.
	ErrWitness = errors.New("chain: witness verification failed")
)
