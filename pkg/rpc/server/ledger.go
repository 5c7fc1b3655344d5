package server

import (
	"math/big"

	"github.com/n3d-io/n3d/pkg/config/netconfig"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
)

// Ledger is what the server reads from the chain; *chain.Chain implements
// it. Every method is safe for concurrent use. Missing records are
// reported with errors wrapping chain.ErrNotFound.
type Ledger interface {
	// BlockHeight is the index of the last block.
	BlockHeight() uint32
	// CurrentBlockHash is the hash of the last block.
	CurrentBlockHash() util.Uint256
	// GetHeaderHash is the hash of block index (false above the height).
	GetHeaderHash(index uint32) (util.Uint256, bool)
	GetBlock(h util.Uint256) (*block.Block, error)
	// AppendBlockBytes appends the serialized block h to dst (its stored
	// bytes, no transaction decoded).
	AppendBlockBytes(dst []byte, h util.Uint256) ([]byte, error)
	GetHeader(h util.Uint256) (*block.Header, error)
	// GetTransaction returns a transaction and the index of its block.
	GetTransaction(h util.Uint256) (*transaction.Transaction, uint32, error)
	GetAppExecResults(h util.Uint256, trig trigger.Type) ([]state.AppExecResult, error)
	// StateRoot is the state root after block index (with the state
	// validators' witness once validated).
	StateRoot(index uint32) (*chain.StateRoot, error)
	// ValidatedStateHeight is the index of the last validated state root.
	ValidatedStateHeight() (uint32, error)
	// LatestView is a read-only view of the latest state, ViewAt of the
	// state after block height (read from the state trie), ViewAtRoot of
	// the contract storage under a state root, TrieAt the state trie at a
	// root (with proofs). Each request takes views of its own.
	LatestView() *chain.StateView
	// LatestViewAsOf is the latest state with block index as the Ledger
	// contract's current block (a test run mocking block index+1).
	LatestViewAsOf(index uint32) (*chain.StateView, error)
	ViewAt(height uint32) (*chain.StateView, error)
	ViewAtRoot(root util.Uint256) (*chain.StateView, error)
	TrieAt(root util.Uint256) (*chain.TrieView, error)
	Config() *netconfig.ProtocolConfiguration
	// LimitsAt is the block time and limits in force at a height (Policy's
	// values from Echidna on, the configuration's before).
	LimitsAt(height uint32) (chain.Limits, error)
	// VerifyWitness runs witness w of account h for container with at most
	// gasLimit datoshi and returns the GAS it consumed.
	VerifyWitness(h util.Uint160, container any, w *transaction.Witness, gasLimit int64) (int64, error)
}

var _ Ledger = (*chain.Chain)(nil)

// StateView is what a request reads of one state of the chain
// (*chain.StateView): contracts, contract storage, the native contracts'
// values, and test runs on a private layer. Safe for concurrent use, also
// while blocks are added. Missing records are reported with errors
// wrapping chain.ErrNotFound.
type StateView interface {
	// Height is the index of the block whose state the view reads.
	Height() uint32
	GetContract(h util.Uint160) (*state.Contract, error)
	GetContractHashByID(id int32) (util.Uint160, error)
	GetStorageItem(id int32, key []byte) ([]byte, error)
	// SeekStorage walks contract id's items under prefix in key order
	// until fn returns false (fn must not call the view).
	SeekStorage(id int32, prefix []byte, fn func(k, v []byte) bool) error
	// ContractsWithStandard lists the contracts declaring std, by id.
	ContractsWithStandard(std string) ([]*state.Contract, error)
	// NativeContracts lists the deployed natives in the reference's
	// order; IsNative tells a native's hash (deployed or not).
	NativeContracts() ([]*state.Contract, error)
	IsNative(h util.Uint160) bool
	// CommitteeKeys is the committee sorted by key, NextBlockValidators
	// the validators of the next block; both compressed keys.
	CommitteeKeys() ([][]byte, error)
	NextBlockValidators() ([][]byte, error)
	// Candidates are the registered, unblocked candidates in key order.
	Candidates() (neostate.Committee, error)
	NEOBalance(h util.Uint160) (*big.Int, error)
	UnclaimedGAS(h util.Uint160, end uint32) (*big.Int, error)
	FeePerByte() (int64, error)
	AttributeFee(t transaction.AttrType) (int64, error)
	// MaxValidUntilBlockIncrement is Policy's stored value (0 before
	// Echidna).
	MaxValidUntilBlockIncrement() (uint32, error)
	IsBlocked(h util.Uint160) (bool, error)
	// TestContext prepares a run of trigger trig on a private layer over
	// the view (never persisted): tx is the container (nil: none), b the
	// persisting block (nil: none), gas the limit in datoshi.
	TestContext(trig trigger.Type, tx *transaction.Transaction, b *block.Block, gas int64) (*interop.Context, error)
}

var _ StateView = (*chain.StateView)(nil)

// TrieView reads contract storage straight from the state trie at one
// root, with proofs (*chain.TrieView). Read errors are the trie's
// (mpt.ErrNotFound, mpt.ErrMissingNode). Safe for concurrent use.
type TrieView interface {
	// Contract reads a contract's state (chain.ErrBadRecord when it does
	// not decode).
	Contract(h util.Uint160) (*state.Contract, error)
	Get(id int32, key []byte) ([]byte, error)
	// Proof returns the trie key of key of contract id and its proof.
	Proof(id int32, key []byte) ([]byte, [][]byte, error)
	// Find returns at most max items under prefix, after prefix ‖ from.
	Find(id int32, prefix, from []byte, max int) ([]chain.StorageItem, error)
}

var _ TrieView = (*chain.TrieView)(nil)
