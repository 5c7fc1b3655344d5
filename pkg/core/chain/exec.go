package chain

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
)

// Natives is what the chain needs from the native contract set: the
// contracts the interop layer runs, and the Policy values the chain reads
// itself. The getters read the state of d and return the reference's
// defaults while Policy is not initialised (the genesis block).
type Natives interface {
	interop.Natives
	// ExecFeeFactor is the opcode price multiplier in picoGAS of a script
	// run with trigger trig in block index (Policy stores datoshi before
	// Faun and picoGAS from Faun on, with a special case in the OnPersist
	// of Faun's first block).
	ExecFeeFactor(d *dao.DAO, index uint32, trig trigger.Type) (int64, error)
	// StoragePrice is the price of a stored byte in datoshi.
	StoragePrice(d *dao.DAO) (int64, error)
}

// executor runs a block's scripts on the block's DAO layer.
type executor interface {
	execute(d *dao.DAO, b *block.Block) (*blockResult, error)
	// execFeeFactor is the current exec fee factor in picoGAS.
	execFeeFactor(d *dao.DAO) (int64, error)
}

// interopExecutor executes blocks through the interop layer as the
// reference does: OnPersist, each transaction in its own layer under the
// Application trigger (a FAULT discards its changes; its fees are charged
// by the natives' OnPersist regardless), PostPersist.
type interopExecutor struct {
	c *Chain
	// The chain's methods the interop configuration takes, made into
	// func values once (newInteropExecutor) instead of once per script.
	hardforkEnabled      func(protocol.Hardfork, uint32) bool
	oracleRequestSigners func(*dao.DAO, uint64) ([]transaction.Signer, error)
}

func newInteropExecutor(c *Chain) *interopExecutor {
	return &interopExecutor{c: c, hardforkEnabled: c.proto.Enabled, oracleRequestSigners: c.oracleRequestSigners}
}

var (
	onPersistScript   = mustScript(interop.ContractNativeOnPersist)
	postPersistScript = mustScript(interop.ContractNativePostPersist)
)

func mustScript(syscall string) []byte {
	s, err := emit.NewBuilder().Syscall(syscall).Script()
	if err != nil {
		panic(err)
	}
	return s
}

// execFeeFactor is the factor of verifications at the current height (no
// persisting block).
func (e *interopExecutor) execFeeFactor(d *dao.DAO) (int64, error) {
	return e.c.verificationFeeFactor(d)
}

func (e *interopExecutor) execute(d *dao.DAO, b *block.Block) (*blockResult, error) {
	res := new(blockResult)
	var err error
	if res.onPersist, err = e.runSystem(d, b, trigger.OnPersist, onPersistScript); err != nil {
		return nil, err
	}
	// Recorded at once (storeLedger skips the transactions then), the
	// results' notifications and stacks do not pile up over the block: a
	// NEO transfer's are ~750 B, ~15 MB of live heap at the end of a block
	// of 20k transfers. The records are invisible to the block's later
	// transactions: the ledger's height is still the previous block's.
	res.txsStored = e.c.recordTxsAsTheyRun()
	if !res.txsStored {
		res.txs = make([]*state.AppExecResult, len(b.Transactions))
	}
	// One layer and one interop context reused by every transaction.
	var (
		txDAO *dao.DAO
		ic    *interop.Context
		aer   *state.AppExecResult
	)
	for i, tx := range b.Transactions {
		txDAO = d.PrivateReusing(txDAO)
		aer, ic, err = e.runTx(txDAO, b, tx, ic)
		switch {
		case err != nil:
		case res.txsStored:
			err = d.StoreAsTransaction(tx, b.Index, aer)
		default:
			res.txs[i] = aer
		}
		if err != nil {
			return nil, fmt.Errorf("transaction %s: %w", tx.Hash().String(), err)
		}
	}
	if res.postPersist, err = e.runSystem(d, b, trigger.PostPersist, postPersistScript); err != nil {
		return nil, err
	}
	return res, nil
}

// context returns an interop context for one script run on d, reusing
// spare (a finished context, see interop.Context.Reuse) when not nil.
func (e *interopExecutor) context(d *dao.DAO, b *block.Block, trig trigger.Type,
	container interop.Container, gas int64, spare *interop.Context) (*interop.Context, error) {
	n := e.c.cfg.Natives
	pico, err := n.ExecFeeFactor(d, b.Index, trig)
	if err != nil {
		return nil, fmt.Errorf("exec fee factor: %w", err)
	}
	sp, err := n.StoragePrice(d)
	if err != nil {
		return nil, fmt.Errorf("storage price: %w", err)
	}
	cfg := interop.Config{
		Trigger:         trig,
		Container:       container,
		Block:           b,
		Network:         uint32(e.c.proto.Magic),
		AddressVersion:  address.NEO3Prefix,
		HardforkEnabled: e.hardforkEnabled,
		ExecFeeFactor:   pico,
		StoragePrice:    sp,
		GasLimit:        gas,
		Natives:         n,
		// CheckWitness inside an OracleResponse transaction needs the
		// signers of the original request.
		OracleRequestSigners: e.oracleRequestSigners,
	}
	cfg.Policy = n
	return spare.Reuse(cfg, d), nil
}

// runSystem runs OnPersist or PostPersist on the block layer; anything but
// HALT makes the block invalid.
func (e *interopExecutor) runSystem(d *dao.DAO, b *block.Block, trig trigger.Type, script []byte) (*state.AppExecResult, error) {
	ic, err := e.context(d, b, trig, nil, 0, nil)
	if err != nil {
		return nil, err
	}
	if _, err := ic.LoadScript(script, callflag.All, -1, 0); err != nil {
		return nil, fmt.Errorf("%s: %w", trig, err)
	}
	if err := ic.Run(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrExecution, trig, err)
	}
	ex := ic.Execution()
	if ex.VMState != vm.HaltState {
		return nil, fmt.Errorf("%w: %s ended in %s", ErrExecution, trig, ex.VMState)
	}
	return &state.AppExecResult{Container: b.Hash(), Execution: ex}, nil
}

// runTx runs a transaction's script in txDAO, an empty private layer of
// the block layer, committed only on HALT. It returns the interop context
// it ran in (made from spare, see context) for the next transaction.
func (e *interopExecutor) runTx(txDAO *dao.DAO, b *block.Block, tx *transaction.Transaction,
	spare *interop.Context) (*state.AppExecResult, *interop.Context, error) {
	ic, err := e.context(txDAO, b, trigger.Application, tx, tx.SystemFee, spare)
	if err != nil {
		return nil, spare, err
	}
	if _, err := ic.LoadScript(tx.Script, callflag.All, -1, 0); err != nil {
		return nil, nil, err
	}
	runErr := ic.Run()
	ex := ic.Execution()
	if ex.VMState == vm.HaltState && runErr == nil {
		if err := txDAO.Persist(); err != nil {
			return nil, nil, err
		}
	} else {
		ex.VMState = vm.FaultState
		if ex.FaultException == "" && runErr != nil {
			ex.FaultException = runErr.Error()
		}
		if err := txDAO.Discard(); err != nil {
			return nil, nil, err
		}
	}
	return &state.AppExecResult{Container: tx.Hash(), Execution: ex}, ic, nil
}
