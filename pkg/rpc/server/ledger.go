package server

import (
	"math/big"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/dao"
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
	GetHeader(h util.Uint256) (*block.Header, error)
	// GetTransaction returns a transaction and the index of its block.
	GetTransaction(h util.Uint256) (*transaction.Transaction, uint32, error)
	GetAppExecResults(h util.Uint256, trig trigger.Type) ([]state.AppExecResult, error)
	// StateRoot is the state root after block index (with the state
	// validators' witness once validated).
	StateRoot(index uint32) (*chain.StateRoot, error)
	// ValidatedStateHeight is the index of the last validated state root.
	ValidatedStateHeight() (uint32, error)
	// DAO is the chain's committed state. The server reads it only through
	// DAOs of its own over DAO().Store() (a DAO is not safe for concurrent
	// use; the store is).
	DAO() *dao.DAO
	Config() *config.ProtocolConfiguration
	// LimitsAt is the block time and limits in force at a height (Policy's
	// values from Echidna on, the configuration's before).
	LimitsAt(height uint32) (chain.Limits, error)
	// VerifyWitness runs witness w of account h for container with at most
	// gasLimit datoshi and returns the GAS it consumed.
	VerifyWitness(h util.Uint160, container any, w *transaction.Witness, gasLimit int64) (int64, error)
}

var _ Ledger = (*chain.Chain)(nil)

// Natives is what the server reads from the native contracts and needs to
// run test invocations. Every getter reads the state of d. NewNatives
// adapts the chain's native set.
type Natives interface {
	interop.Natives
	interop.Policy
	// ExecPicoFeeFactor is the opcode price multiplier (picoGAS) of a run
	// with trigger trig in block index.
	ExecPicoFeeFactor(d *dao.DAO, index uint32, trig trigger.Type) (int64, error)
	StoragePrice(d *dao.DAO) (int64, error)
	FeePerByte(d *dao.DAO) (int64, error)
	AttributeFee(d *dao.DAO, t transaction.AttrType) (int64, error)
	// Policy values stored from Echidna on (0 before).
	MillisecondsPerBlock(d *dao.DAO) (uint32, error)
	MaxValidUntilBlockIncrement(d *dao.DAO) (uint32, error)
	MaxTraceableBlocks(d *dao.DAO) (uint32, error)
	// CommitteeKeys is the committee sorted by key, NextBlockValidators
	// the validators of the next block; both compressed keys.
	CommitteeKeys(d *dao.DAO) ([][]byte, error)
	NextBlockValidators(d *dao.DAO) ([][]byte, error)
	// Candidates are the registered, unblocked candidates in key order.
	Candidates(d *dao.DAO) (neostate.Committee, error)
	NEOBalance(d *dao.DAO, h util.Uint160) (*big.Int, error)
	UnclaimedGAS(d *dao.DAO, h util.Uint160, end uint32) (*big.Int, error)
}

// nativeSet adapts *chain.NativeSet to Natives.
type nativeSet struct {
	*chain.NativeSet
}

// NewNatives adapts the chain's native contract set.
func NewNatives(ns *chain.NativeSet) Natives { return nativeSet{ns} }

func (n nativeSet) ExecPicoFeeFactor(d *dao.DAO, index uint32, trig trigger.Type) (int64, error) {
	return n.Core.Policy.ExecPicoFeeFactor(d, index, trig)
}

func (n nativeSet) MillisecondsPerBlock(d *dao.DAO) (uint32, error) {
	return n.Core.Policy.MillisecondsPerBlock(d)
}

func (n nativeSet) CommitteeKeys(d *dao.DAO) ([][]byte, error) {
	return n.Governance.NEO.CommitteeKeys(d)
}

func (n nativeSet) NextBlockValidators(d *dao.DAO) ([][]byte, error) {
	return n.Governance.NEO.NextBlockValidators(d)
}

func (n nativeSet) Candidates(d *dao.DAO) (neostate.Committee, error) {
	return n.Governance.NEO.Candidates(d)
}

func (n nativeSet) NEOBalance(d *dao.DAO, h util.Uint160) (*big.Int, error) {
	return n.Governance.NEO.BalanceOf(d, h)
}

func (n nativeSet) UnclaimedGAS(d *dao.DAO, h util.Uint160, end uint32) (*big.Int, error) {
	return n.Governance.NEO.UnclaimedGAS(d, h, end)
}
