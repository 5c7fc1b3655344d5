package native

import (
	"fmt"
	"math"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// HeaderHashes maps a block index to its hash; the chain implements it.
type HeaderHashes interface {
	GetHeaderHash(index uint32) (util.Uint256, bool)
}

// Ledger is the LedgerContract native: read access to blocks and
// transactions for contracts. Its records are the DAO's block and
// transaction records (not contract storage, not in the state trie); the
// chain stores them with their execution results. Ledger's PostPersist
// marks the persisting block as the current one, so the PostPersist hooks
// after it see it, as in the reference.
type Ledger struct {
	md *ContractMD
	// Headers resolves block indexes; required by getBlock and
	// getTransactionFromBlock with an index.
	Headers HeaderHashes
	// Policy gives MaxTraceableBlocks from Echidna on.
	Policy *Policy
	// MaxTraceableBlocks is the configured value used before Echidna.
	MaxTraceableBlocks uint32
}

var _ Contract = (*Ledger)(nil)

// NewLedger returns the LedgerContract.
func NewLedger(policy *Policy, maxTraceableBlocks uint32) *Ledger {
	l := &Ledger{md: NewContractMD(LedgerName, LedgerID, protocol.HFDefault), Policy: policy, MaxTraceableBlocks: maxTraceableBlocks}
	p := manifest.NewParameter
	add := func(name string, ret smartcontract.ParamType, fee int64, h Handler, ps ...manifest.Parameter) {
		l.md.AddMethod(Method{Name: name, Params: ps, Return: ret, CPUFee: fee, Flags: callflag.ReadStates, Handler: h})
	}
	const (
		h256  = smartcontract.Hash256Type
		bytes = smartcontract.ByteArrayType
		arr   = smartcontract.ArrayType
		intT  = smartcontract.IntegerType
	)
	add("currentHash", h256, 1<<15, l.currentHash)
	add("currentIndex", intT, 1<<15, l.currentIndex)
	add("getBlock", arr, 1<<15, l.getBlock, p("indexOrHash", bytes))
	add("getTransaction", arr, 1<<15, l.getTransaction, p("hash", h256))
	add("getTransactionHeight", intT, 1<<15, l.getTransactionHeight, p("hash", h256))
	add("getTransactionFromBlock", arr, 1<<16, l.getTransactionFromBlock, p("blockIndexOrHash", bytes), p("txIndex", intT))
	add("getTransactionSigners", arr, 1<<15, l.getTransactionSigners, p("hash", h256))
	add("getTransactionVMState", intT, 1<<15, l.getTransactionVMState, p("hash", h256))
	l.md.Seal()
	return l
}

// Metadata implements Contract.
func (l *Ledger) Metadata() *ContractMD { return l.md }

// Initialize implements Contract: Ledger has no contract storage.
func (l *Ledger) Initialize(*interop.Context, protocol.Hardfork) error { return nil }

// OnPersist implements Contract.
func (l *Ledger) OnPersist(*interop.Context) error { return nil }

// PostPersist implements Contract: the persisting block becomes the
// current block.
func (l *Ledger) PostPersist(ic *interop.Context) error {
	b := ic.Block()
	if b == nil {
		return fmt.Errorf("%w: PostPersist without a block", ErrInvalidArgument)
	}
	return ic.DAO().StoreAsCurrentBlock(b)
}

// current returns the hash and index of the current block.
func (l *Ledger) current(ic *interop.Context) (util.Uint256, uint32, error) {
	h, i, err := ic.DAO().GetCurrentBlock()
	if err != nil {
		return util.Uint256{}, 0, fmt.Errorf("%w: current block: %w", ErrInvalidState, err)
	}
	return h, i, nil
}

func (l *Ledger) currentHash(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	h, _, err := l.current(ic)
	if err != nil {
		return nil, err
	}
	return stackitem.ByteString(h.BytesLE()), nil
}

func (l *Ledger) currentIndex(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	_, i, err := l.current(ic)
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(int64(i)), nil
}

// isTraceable reports whether block index is visible at the current
// height (MaxTraceableBlocks from Policy once Echidna is enabled).
func (l *Ledger) isTraceable(ic *interop.Context, index uint32) (bool, error) {
	_, cur, err := l.current(ic)
	if err != nil {
		return false, err
	}
	mtb := l.MaxTraceableBlocks
	if ic.IsHardforkEnabled(protocol.HFEchidna) && l.Policy != nil {
		if mtb, err = l.Policy.MaxTraceableBlocks(ic.DAO()); err != nil {
			return false, err
		}
	}
	return index <= cur && uint64(index)+uint64(mtb) > uint64(cur), nil
}

// blockHash resolves an index (an integer within uint32 the item converts
// to) or a 32-byte hash; ok=false for an index above the current height.
func (l *Ledger) blockHash(ic *interop.Context, it stackitem.Item) (util.Uint256, bool, error) {
	b, err := argBytes(it)
	if err != nil {
		return util.Uint256{}, false, err
	}
	if len(b) > util.Uint256Size {
		return util.Uint256{}, false, interop.Faultf(ErrInvalidArgument, "failed to decode hash: expected []byte of size %d got %d", util.Uint256Size, len(b))
	}
	if len(b) < util.Uint256Size {
		n := bigint.FromBytes(b)
		if n.Sign() < 0 || !n.IsUint64() {
			// The reference reads what is not a uint64 as a hash.
			return util.Uint256{}, false, interop.Faultf(ErrInvalidArgument, "failed to decode hash: expected []byte of size %d got %d", util.Uint256Size, len(b))
		}
		if n.Uint64() > math.MaxUint32 {
			return util.Uint256{}, false, interop.Fault(ErrInvalidArgument, "bad block index")
		}
		idx := uint32(n.Uint64())
		_, cur, err := l.current(ic)
		if err != nil {
			return util.Uint256{}, false, err
		}
		if idx > cur || l.Headers == nil {
			return util.Uint256{}, false, nil
		}
		h, ok := l.Headers.GetHeaderHash(idx)
		return h, ok, nil
	}
	h, err := util.Uint256DecodeBytesLE(b)
	if err != nil {
		return util.Uint256{}, false, fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return h, true, nil
}

// traceableBlock returns the trimmed block it designates, nil if absent or
// not traceable.
func (l *Ledger) traceableBlock(ic *interop.Context, it stackitem.Item) (*block.Trimmed, error) {
	h, ok, err := l.blockHash(ic, it)
	if err != nil || !ok {
		return nil, err
	}
	b, err := ic.DAO().GetTrimmedBlock(h)
	if err != nil {
		return nil, nil //nolint:nilerr // an absent block is Null, as in the reference
	}
	if ok, err := l.isTraceable(ic, b.Index); err != nil || !ok {
		return nil, err
	}
	return b, nil
}

func (l *Ledger) getBlock(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := l.traceableBlock(ic, args[0])
	if err != nil || b == nil {
		return stackitem.Null{}, err
	}
	return trimmedBlockToStackItem(b), nil
}

// trimmedBlockToStackItem is the reference TrimmedBlock.ToStackItem.
func trimmedBlockToStackItem(b *block.Trimmed) stackitem.Item {
	h := b.Hash()
	items := []stackitem.Item{
		stackitem.ByteString(h.BytesLE()),
		stackitem.NewInt(int64(b.Version)),
		stackitem.ByteString(b.PrevHash.BytesLE()),
		stackitem.ByteString(b.MerkleRoot.BytesLE()),
		stackitem.Make(b.Timestamp),
		stackitem.Make(b.Nonce),
		stackitem.NewInt(int64(b.Index)),
		stackitem.NewInt(int64(b.PrimaryIndex)),
		stackitem.ByteString(b.NextConsensus.BytesLE()),
		stackitem.NewInt(int64(len(b.Hashes))),
	}
	if b.StateRootEnabled {
		// neo-go's extension (StateRootInHeader) appends the previous
		// state root, big-endian as neo-go writes it.
		items = append(items, stackitem.ByteString(b.PrevStateRoot.BytesBE()))
	}
	return stackitem.NewArray(items)
}

// traceableTx returns the transaction with the hash argument and its
// height, nil if absent or not traceable.
func (l *Ledger) traceableTx(ic *interop.Context, it stackitem.Item) (*transaction.Transaction, uint32, error) {
	h, err := argUint256(it)
	if err != nil {
		return nil, 0, err
	}
	tx, height, err := ic.DAO().GetTransaction(h)
	if err != nil {
		return nil, 0, nil //nolint:nilerr // an absent transaction is Null
	}
	if ok, err := l.isTraceable(ic, height); err != nil || !ok {
		return nil, 0, err
	}
	return tx, height, nil
}

func (l *Ledger) getTransaction(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	tx, _, err := l.traceableTx(ic, args[0])
	if err != nil || tx == nil {
		return stackitem.Null{}, err
	}
	return state.TransactionToStackItem(tx), nil
}

func (l *Ledger) getTransactionHeight(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	tx, h, err := l.traceableTx(ic, args[0])
	if err != nil {
		return nil, err
	}
	if tx == nil {
		return stackitem.NewInt(-1), nil
	}
	return stackitem.NewInt(int64(h)), nil
}

func (l *Ledger) getTransactionSigners(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	tx, _, err := l.traceableTx(ic, args[0])
	if err != nil || tx == nil {
		return stackitem.Null{}, err
	}
	items := make([]stackitem.Item, len(tx.Signers))
	for i := range tx.Signers {
		items[i] = state.SignerToStackItem(&tx.Signers[i])
	}
	return stackitem.NewArray(items), nil
}

func (l *Ledger) getTransactionVMState(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	tx, _, err := l.traceableTx(ic, args[0])
	if err != nil {
		return nil, err
	}
	if tx == nil {
		return stackitem.NewInt(int64(vm.NoneState)), nil
	}
	res, err := ic.DAO().GetAppExecResults(tx.Hash(), trigger.Application)
	if err != nil || len(res) == 0 {
		return stackitem.NewInt(int64(vm.NoneState)), nil //nolint:nilerr // no record: NONE
	}
	return stackitem.NewInt(int64(res[0].VMState)), nil
}

func (l *Ledger) getTransactionFromBlock(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	b, err := l.traceableBlock(ic, args[0])
	if err != nil {
		return nil, err
	}
	idx, err := argInt32(args[1])
	if err != nil {
		return nil, err
	}
	if b == nil {
		return stackitem.Null{}, nil
	}
	if idx < 0 || int(idx) >= len(b.Hashes) {
		return nil, interop.Fault(ErrInvalidArgument, "wrong transaction index")
	}
	tx, _, err := ic.DAO().GetTransaction(b.Hashes[idx])
	if err != nil {
		return nil, fmt.Errorf("%w: transaction %s of block %d: %w", ErrInvalidState, b.Hashes[idx], b.Index, err)
	}
	return state.TransactionToStackItem(tx), nil
}
