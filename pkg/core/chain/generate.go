package chain

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chaindump"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"go.uber.org/zap"
)

// ErrGenerate is a chain the generator cannot build (missing validator
// keys, a chain that is not fresh, a transaction that did not HALT).
var ErrGenerate = errors.New("chain: generate")

// Defaults of GenerateOptions.
const (
	DefaultGenerateTxPerBlock = 4
	DefaultGenerateAccounts   = 8
)

// GenerateOptions configures Generate.
type GenerateOptions struct {
	// Blocks is the number of blocks to add after the genesis.
	Blocks uint32
	// TxPerBlock is the number of workload transactions per block from
	// block 2 on (DefaultGenerateTxPerBlock when 0; negative: none).
	TxPerBlock int
	// Accounts is the number of single-signature accounts the workload
	// uses (DefaultGenerateAccounts when 0, at least 2).
	Accounts int
	// Validators are private keys of the standby validators, at least the
	// BFT threshold of them (extra keys are ignored).
	Validators []*keys.PrivateKey
	// Seed derives the accounts' keys and the block nonces: the same
	// options and configuration always give the same dump.
	Seed string
	// Log receives progress (zap.NewNop when nil).
	Log *zap.Logger
	// ProgressEvery is the interval of progress logs (10 s when 0).
	ProgressEvery time.Duration
}

// GenerateResult sums up a generated chain.
type GenerateResult struct {
	// Height is the index of the last block.
	Height uint32
	// Transactions counts the transactions of all blocks.
	Transactions int
	// StateRoot is the state root after the last block.
	StateRoot util.Uint256
	Elapsed   time.Duration
}

// Generate builds a valid chain on c, which must hold only its genesis,
// and writes it to w as a plain .acc dump (genesis included, as neo-go's
// db dump writes it). Block 1 moves NEO and GAS from the validators'
// multisignature account to o.Accounts single-signature accounts, block 2
// deploys a small storage contract, and every block from 2 on carries
// o.TxPerBlock transactions: NEO transfers, GAS transfers and storage
// writes (new keys and overwrites). Every transaction's system fee is the
// GAS its dry run consumed and its network fee is exactly the size fee plus
// the verification fee; every block is signed by the validators and added
// to c (so verified and executed by our own chain) before it is written.
func Generate(ctx context.Context, c *Chain, w io.Writer, o GenerateOptions) (GenerateResult, error) {
	var res GenerateResult
	g, err := newGenerator(c, o)
	if err != nil {
		return res, err
	}
	begin := time.Now()
	dw, err := chaindump.NewWriter(w, chaindump.Plain, 0, o.Blocks+1)
	if err != nil {
		return res, err
	}
	genesis, err := c.GetBlockByIndex(0)
	if err != nil {
		return res, err
	}
	if err := dw.WriteBlock(genesis); err != nil {
		return res, err
	}
	p := progress{log: g.log, every: g.opts.ProgressEvery, last: begin}
	for i := uint32(1); i <= o.Blocks; i++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		b, err := g.nextBlock()
		if err != nil {
			return res, fmt.Errorf("%w: block %d: %w", ErrGenerate, i, err)
		}
		if err := dw.WriteBlock(b); err != nil {
			return res, fmt.Errorf("block %d: %w", i, err)
		}
		res.Transactions += len(b.Transactions)
		p.tick(i, o.Blocks-i, 0, i)
	}
	if err := dw.Close(); err != nil {
		return res, err
	}
	res.Height, res.StateRoot, res.Elapsed = c.BlockHeight(), c.CurrentStateRoot(), time.Since(begin)
	g.log.Info("chain generated", zap.Uint32("height", res.Height), zap.Int("transactions", res.Transactions),
		zap.Stringer("hash", c.CurrentBlockHash()), zap.Stringer("stateroot", res.StateRoot),
		zap.Duration("elapsed", res.Elapsed))
	return res, nil
}

// account is an account the generator can sign for: a standard
// verification script and the keys of exactly as many signatures as it
// needs, in the order of its keys in the script.
type account struct {
	hash   util.Uint160
	script []byte
	keys   []*keys.PrivateKey
}

// witness signs data (a SignData) for the account.
func (a *account) witness(data []byte) transaction.Witness {
	inv := make([]byte, 0, len(a.keys)*sigPushLen)
	for _, k := range a.keys {
		inv = append(inv, byte(opcode.PUSHDATA1), 64)
		inv = append(inv, k.Sign(data)...)
	}
	return transaction.Witness{InvocationScript: inv, VerificationScript: a.script}
}

// placeholder is a witness of the signed size (for the size fee).
func (a *account) placeholder() transaction.Witness {
	return transaction.Witness{InvocationScript: make([]byte, len(a.keys)*sigPushLen), VerificationScript: a.script}
}

func singleSigAccount(k *keys.PrivateKey) *account {
	s := scripts.SignatureContract(k.PublicKey())
	return &account{hash: scripts.ScriptHash(s), script: s, keys: []*keys.PrivateKey{k}}
}

// multiSigAccount is the m-of-pubs account signed with the first m of the
// given keys that belong to it.
func multiSigAccount(m int, pubs keys.PublicKeys, have []*keys.PrivateKey) (*account, error) {
	s, err := scripts.MultiSigContract(m, pubs)
	if err != nil {
		return nil, err
	}
	_, ordered, _ := scripts.ParseMultiSigContract(s)
	a := &account{hash: scripts.ScriptHash(s), script: s}
	for _, pub := range ordered {
		for _, k := range have {
			if len(a.keys) < m && k.PublicKey().Equal(pub) {
				a.keys = append(a.keys, k)
				break
			}
		}
	}
	if len(a.keys) < m {
		return nil, fmt.Errorf("%w: %d of the %d validator keys needed for %s", ErrGenerate, len(a.keys), m,
			a.hash.String())
	}
	return a, nil
}

// generator holds the state of one Generate run.
type generator struct {
	c       *Chain
	n       *NativeSet
	exec    *interopExecutor
	opts    GenerateOptions
	log     *zap.Logger
	magic   uint32
	spacing uint64 // block timestamp step in ms

	// bft signs blocks and the setup transaction: the standby validators'
	// BFT multisignature account.
	bft      *account
	users    []*account
	contract util.Uint160 // the storage contract (block 2 on)
	nonce    uint32       // transaction nonce counter
	txCount  uint64       // workload transactions so far
}

func newGenerator(c *Chain, o GenerateOptions) (*generator, error) {
	if c.BlockHeight() != 0 {
		return nil, fmt.Errorf("%w: the chain is at height %d, not a fresh one", ErrGenerate, c.BlockHeight())
	}
	return makeGenerator(c, o)
}

// makeGenerator is newGenerator without the check for a fresh chain: on a
// chain a generator with the same options built (blocks 1 and 2 at
// least), the workload goes on from the chain's height (the crash test
// restarts a generating process).
func makeGenerator(c *Chain, o GenerateOptions) (*generator, error) {
	n := c.cfg.Natives
	if n == nil {
		return nil, fmt.Errorf("%w: needs the chain's NativeSet", ErrGenerate)
	}
	if o.TxPerBlock == 0 {
		o.TxPerBlock = DefaultGenerateTxPerBlock
	}
	if o.Accounts == 0 {
		o.Accounts = DefaultGenerateAccounts
	}
	if o.Accounts < 2 {
		return nil, fmt.Errorf("%w: %d accounts, at least 2 needed", ErrGenerate, o.Accounts)
	}
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 10 * time.Second
	}
	validators, err := StandbyValidators(c.proto)
	if err != nil {
		return nil, err
	}
	bft, err := multiSigAccount(scripts.BFTThreshold(len(validators)), validators, o.Validators)
	if err != nil {
		return nil, err
	}
	g := &generator{c: c, n: n, exec: newInteropExecutor(c), opts: o, log: o.Log, magic: uint32(c.proto.Magic),
		spacing: uint64(c.proto.TimePerBlock.Milliseconds()), bft: bft}
	if g.spacing == 0 {
		g.spacing = 1
	}
	for i := range o.Accounts {
		seed := sha256.Sum256(fmt.Appendf(nil, "n3d generate %q account %d", o.Seed, i))
		k, err := keys.NewPrivateKeyFromBytes(seed[:])
		if err != nil {
			return nil, fmt.Errorf("%w: account key %d: %w", ErrGenerate, i, err)
		}
		g.users = append(g.users, singleSigAccount(k))
	}
	if h := c.BlockHeight(); h >= 2 {
		if _, g.contract, err = g.deployScript(g.users[0].hash); err != nil {
			return nil, err
		}
		// Nonces and workload differ from those of the blocks before.
		g.nonce = h << 12
		g.txCount = uint64(h) * uint64(max(o.TxPerBlock, 1))
	}
	return g, nil
}

// nextBlock builds, signs and adds the block after the current one.
func (g *generator) nextBlock() (*block.Block, error) {
	b, err := g.buildBlock()
	if err != nil {
		return nil, err
	}
	if err := g.c.AddBlock(b); err != nil {
		return nil, err
	}
	return b, g.checkResults(b)
}

// buildBlock builds and signs the block after the current one.
func (g *generator) buildBlock() (*block.Block, error) {
	g.c.mu.RLock()
	prev, prevRoot := g.c.mu.tip, g.c.mu.stateRoot
	g.c.mu.RUnlock()
	index := prev.Index + 1
	nonce := sha256.Sum256(fmt.Appendf(nil, "n3d generate %q block %d", g.opts.Seed, index))
	nextConsensus, err := g.nextConsensus()
	if err != nil {
		return nil, err
	}
	b := &block.Block{Header: block.Header{
		Version:       block.VersionInitial,
		PrevHash:      prev.Hash(),
		Timestamp:     prev.Timestamp + g.spacing,
		Nonce:         binary.LittleEndian.Uint64(nonce[:8]),
		Index:         index,
		PrimaryIndex:  byte(index % uint32(g.c.proto.ValidatorsCountAt(index))),
		NextConsensus: nextConsensus,
	}}
	if g.c.proto.StateRootInHeader {
		b.StateRootEnabled, b.PrevStateRoot = true, prevRoot
	}
	if err := g.fillBlock(b); err != nil {
		return nil, err
	}
	b.RebuildMerkleRoot()
	signer, err := g.blockSigner(prev.NextConsensus)
	if err != nil {
		return nil, err
	}
	b.Witness = signer.witness(b.SignData(g.magic))
	b.InvalidateCache()
	return b, nil
}

// nextConsensus is the BFT address of the validators NEO elects for the
// next block.
func (g *generator) nextConsensus() (util.Uint160, error) {
	raw, err := g.n.Governance.NEO.NextBlockValidators(g.c.dao)
	if err != nil {
		return util.Uint160{}, err
	}
	pubs := make(keys.PublicKeys, len(raw))
	for i, b := range raw {
		if pubs[i], err = keys.NewPublicKeyFromBytes(b); err != nil {
			return util.Uint160{}, err
		}
	}
	return BFTAddress(pubs)
}

// blockSigner is the account of the BFT address a block must be signed
// for; the generator never votes, so it is the standby validators'.
func (g *generator) blockSigner(h util.Uint160) (*account, error) {
	if h != g.bft.hash {
		return nil, fmt.Errorf("%w: block must be signed by %s, the generator holds keys of %s",
			ErrGenerate, h.String(), g.bft.hash.String())
	}
	return g.bft, nil
}

// fillBlock adds the block's transactions, each dry-run in a scratch
// layer holding the effects of the block's OnPersist and of the
// transactions before it (so its system fee is what it will consume).
func (g *generator) fillBlock(b *block.Block) (err error) {
	scratch := g.c.dao.Private()
	defer func() { err = errors.Join(err, scratch.Discard()) }()
	if _, err := g.exec.runSystem(scratch, b, trigger.OnPersist, onPersistScript); err != nil {
		return err
	}
	add := func(from *account, script []byte) error {
		tx, err := g.tx(scratch, b, from, script)
		if err != nil {
			return err
		}
		b.Transactions = append(b.Transactions, tx)
		return nil
	}
	switch {
	case b.Index == 1:
		script, err := g.setupScript()
		if err != nil {
			return err
		}
		return add(g.bft, script)
	case b.Index == 2:
		script, h, err := g.deployScript(g.users[0].hash)
		if err != nil {
			return err
		}
		if err := add(g.users[0], script); err != nil {
			return err
		}
		g.contract = h
	}
	for range max(g.opts.TxPerBlock, 0) {
		from, script, err := g.workload()
		if err != nil {
			return err
		}
		if err := add(from, script); err != nil {
			return err
		}
	}
	return nil
}

// dryRunGas bounds a transaction's dry run, in datoshi.
const dryRunGas int64 = 1000_00000000

// validUntil is how many blocks a generated transaction stays valid.
const validUntil = 10

// tx builds a transaction of from running script in block b: dry-run on d
// (which keeps its effects) for the system fee, exact network fee, signed.
func (g *generator) tx(d *dao.DAO, b *block.Block, from *account, script []byte) (*transaction.Transaction, error) {
	g.nonce++
	tx := &transaction.Transaction{
		Nonce:           g.nonce,
		SystemFee:       dryRunGas,
		ValidUntilBlock: b.Index + validUntil,
		Signers:         []transaction.Signer{{Account: from.hash, Scopes: transaction.CalledByEntry}},
		Script:          script,
		Witnesses:       []transaction.Witness{from.placeholder()},
	}
	res, _, err := g.exec.runTx(d.Private(), b, tx, nil)
	if err != nil {
		return nil, err
	}
	if res.VMState != vm.HaltState {
		return nil, fmt.Errorf("%w: dry run of a transaction of %s ended in %s: %s", ErrGenerate,
			from.hash.String(), res.VMState, res.FaultException)
	}
	tx.SystemFee = res.GasConsumed
	tx.InvalidateCache()
	feePerByte, err := g.n.Core.Policy.FeePerByte(d)
	if err != nil {
		return nil, err
	}
	// Transactions are verified at the height before their block.
	pico, err := g.n.ExecFeeFactor(d, b.Index-1, trigger.Verification)
	if err != nil {
		return nil, err
	}
	verifyFee := verificationFee(from, pico)
	tx.NetworkFee = int64(tx.Size())*feePerByte + verifyFee
	tx.InvalidateCache()
	signData := tx.SignData(g.magic)
	tx.Witnesses[0] = from.witness(signData)
	tx.InvalidateCache()
	// The chain's own witness check must agree with the fee paid.
	fee, err := verifyWitness(witnessParams{signData: signData, picoFee: pico, gasLimit: dryRunGas, container: tx},
		from.hash, &tx.Witnesses[0], nil)
	if err != nil {
		return nil, err
	}
	if fee != verifyFee {
		return nil, fmt.Errorf("%w: verification fee %d, computed %d", ErrGenerate, fee, verifyFee)
	}
	return tx, nil
}

// verificationFee is the GAS (datoshi) the verification of a's witness
// costs at the exec fee factor pico (picoGAS per price unit): the
// reference's CalculateNetworkFee for standard accounts.
func verificationFee(a *account, pico int64) int64 {
	push, syscall := vm.OpcodePrice(opcode.PUSHDATA1), vm.OpcodePrice(opcode.SYSCALL)
	units := push*int64(len(a.keys)) + syscall
	if _, ok := scripts.ParseSignatureContract(a.script); ok {
		units += push + checkSigPrice
	} else {
		m, n, _ := scripts.MultiSigCounts(a.script)
		units += push*int64(n) + pushIntPrice(m) + pushIntPrice(n) + int64(n)*checkSigPrice
	}
	return (units*pico + vm.FeeFactor - 1) / vm.FeeFactor
}

// checkResults makes sure every transaction of an added block HALTed
// having consumed exactly its system fee.
func (g *generator) checkResults(b *block.Block) error {
	for _, tx := range b.Transactions {
		logs, err := g.c.GetAppExecResults(tx.Hash(), trigger.Application)
		if err != nil {
			return err
		}
		if len(logs) != 1 || logs[0].VMState != vm.HaltState || logs[0].GasConsumed != tx.SystemFee {
			return fmt.Errorf("%w: transaction %s did not run as its dry run did", ErrGenerate, tx.Hash().String())
		}
	}
	return nil
}
