package nativetest

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/n3d-io/n3d/pkg/config/netconfig"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// Network is the magic of test chains.
const Network = 0x6e336474

// Options configure a test chain.
type Options struct {
	// Committee is the standby committee size (default 7).
	Committee int
	// Validators is the validators count (default 4, at most Committee).
	Validators int
	// Hardforks is the configuration's Hardforks map (name → height);
	// nil enables every stable hardfork from genesis.
	Hardforks map[string]uint32
	// Configure, if set, adjusts the configuration before the natives are
	// built.
	Configure func(*netconfig.ProtocolConfiguration)
}

// Chain is a test chain: the natives, a DAO over a MemoryStore holding
// the persisted blocks' state, and the standby committee's keys.
type Chain struct {
	t    testing.TB
	Cfg  *netconfig.ProtocolConfiguration
	Core *native.Core
	Gov  *native.Governance
	Reg  *native.Registry
	DAO  *dao.DAO
	// Keys are the standby committee's private keys in config order.
	Keys []*keys.PrivateKey

	height uint32 // index of the last persisted block
	nonce  uint32
}

// Key returns a deterministic private key for seed (distinct seeds give
// distinct keys).
func Key(t testing.TB, seed string) *keys.PrivateKey {
	t.Helper()
	for i := uint32(0); ; i++ {
		h := sha256.Sum256(binary.LittleEndian.AppendUint32([]byte("n3d nativetest "+seed), i))
		k, err := keys.NewPrivateKeyFromBytes(h[:])
		if err == nil {
			return k
		}
	}
}

// New builds the natives for opts and persists the genesis block.
func New(t testing.TB, opts Options) *Chain {
	t.Helper()
	if opts.Committee == 0 {
		opts.Committee = 7
	}
	if opts.Validators == 0 {
		opts.Validators = min(4, opts.Committee)
	}
	c := &Chain{t: t}
	cfg := &netconfig.ProtocolConfiguration{
		Magic:                       Network,
		MaxTraceableBlocks:          netconfig.DefaultMaxTraceableBlocks,
		MaxValidUntilBlockIncrement: 5760,
		InitialGASSupply:            netconfig.DefaultInitialGASSupply,
		ValidatorsCount:             uint32(opts.Validators),
		TimePerBlock:                netconfig.DefaultTimePerBlock,
		Hardforks:                   opts.Hardforks,
	}
	cfg.Genesis.TimePerBlock = netconfig.DefaultTimePerBlock
	cfg.Genesis.MaxTraceableBlocks = netconfig.DefaultMaxTraceableBlocks
	cfg.Genesis.MaxValidUntilBlockIncrement = 5760
	for i := range opts.Committee {
		k := Key(t, fmt.Sprintf("standby %d", i))
		c.Keys = append(c.Keys, k)
		cfg.StandbyCommittee = append(cfg.StandbyCommittee, fmt.Sprintf("%x", k.PublicKey().Bytes()))
	}
	if opts.Configure != nil {
		opts.Configure(cfg)
	}
	c.Cfg = cfg
	c.Core = native.NewCore(cfg)
	g, err := native.NewGovernance(cfg, c.Core)
	require.NoError(t, err)
	c.Gov = g
	c.Reg = native.NewRegistry(cfg, g.Contracts(c.Core)...)
	c.DAO = dao.New(storage.NewMemoryStore())
	c.persist(&block.Block{Header: block.Header{Index: 0}})
	return c
}

// Height is the index of the last persisted block.
func (c *Chain) Height() uint32 { return c.height }

// StandbyKeys returns the standby committee's public keys in config order.
func (c *Chain) StandbyKeys() keys.PublicKeys {
	out := make(keys.PublicKeys, len(c.Keys))
	for i, k := range c.Keys {
		out[i] = k.PublicKey()
	}
	return out
}

// CommitteeAddress is the majority multisig account of the standby
// committee (the committee until votes elect another).
func (c *Chain) CommitteeAddress() util.Uint160 {
	s, err := scripts.MajorityMultiSigContract(c.StandbyKeys())
	require.NoError(c.t, err)
	return hash.Hash160(s)
}

// ValidatorsAddress is the BFT multisig account of the standby
// validators, which receives the whole NEO and initial GAS supply.
func (c *Chain) ValidatorsAddress() util.Uint160 {
	s, err := scripts.DefaultMultiSigContract(c.StandbyKeys()[:c.Cfg.ValidatorsCount])
	require.NoError(c.t, err)
	return hash.Hash160(s)
}

// Result is the outcome of one script.
type Result struct {
	State       vm.State
	Stack       []stackitem.Item
	Events      []state.NotificationEvent
	GasConsumed int64
	Fault       error
}

// BlockResult is the outcome of one persisted block.
type BlockResult struct {
	Block       *block.Block
	OnPersist   *Result
	Txs         []*Result
	PostPersist *Result
}

// CalledByEntry returns CalledByEntry signers for accs (the first is the
// sender).
func CalledByEntry(accs ...util.Uint160) []transaction.Signer {
	out := make([]transaction.Signer, len(accs))
	for i, a := range accs {
		out[i] = transaction.Signer{Account: a, Scopes: transaction.CalledByEntry}
	}
	return out
}

// Global returns Global signers for accs.
func Global(accs ...util.Uint160) []transaction.Signer {
	out := make([]transaction.Signer, len(accs))
	for i, a := range accs {
		out[i] = transaction.Signer{Account: a, Scopes: transaction.Global}
	}
	return out
}

// Tx returns a transaction with script and signers, no fees, valid for the
// next blocks.
func (c *Chain) Tx(script []byte, signers []transaction.Signer) *transaction.Transaction {
	c.nonce++
	return &transaction.Transaction{
		Nonce:           c.nonce,
		ValidUntilBlock: c.height + 100,
		Signers:         signers,
		Script:          script,
		Witnesses:       make([]transaction.Witness, len(signers)),
	}
}

// Script builds an invocation script from b.
func Script(t testing.TB, b *emit.Builder) []byte {
	t.Helper()
	s, err := b.Script()
	require.NoError(t, err)
	return s
}

// CallScript is the script of one System.Contract.Call with all flags.
func CallScript(t testing.TB, h util.Uint160, method string, args ...any) []byte {
	t.Helper()
	return Script(t, emit.NewBuilder().AppCall(h, method, byte(callflag.All), args...))
}

// NextBlock returns an unpersisted block at height+1 holding txs.
func (c *Chain) NextBlock(txs ...*transaction.Transaction) *block.Block {
	return &block.Block{
		Header:       block.Header{Index: c.height + 1, Timestamp: uint64(c.height+1) * 15000, Nonce: uint64(c.height) + 7},
		Transactions: txs,
	}
}

// AddBlock persists the next block with txs (each FAULTed transaction's
// changes are dropped) and returns every script's result. OnPersist and
// PostPersist must HALT.
func (c *Chain) AddBlock(txs ...*transaction.Transaction) *BlockResult {
	c.t.Helper()
	return c.persist(c.NextBlock(txs...))
}

// AddBlocks persists n empty blocks.
func (c *Chain) AddBlocks(n int) {
	c.t.Helper()
	for range n {
		c.AddBlock()
	}
}

// PersistBlock persists b, which must be the next block.
func (c *Chain) PersistBlock(b *block.Block) *BlockResult {
	c.t.Helper()
	require.Equal(c.t, c.height+1, b.Index, "blocks are persisted in order")
	return c.persist(b)
}

func (c *Chain) persist(b *block.Block) *BlockResult {
	c.t.Helper()
	br := &BlockResult{Block: b}
	br.OnPersist = c.run(c.DAO, b, trigger.OnPersist, nil, Script(c.t, emit.NewBuilder().Syscall(interop.ContractNativeOnPersist)), -1)
	require.Equal(c.t, vm.HaltState, br.OnPersist.State, "OnPersist of %d: %v", b.Index, br.OnPersist.Fault)
	for _, tx := range b.Transactions {
		d := c.DAO.Private()
		limit := int64(-1)
		if tx.SystemFee > 0 {
			limit = tx.SystemFee
		}
		r := c.run(d, b, trigger.Application, tx, tx.Script, limit)
		if r.State == vm.HaltState {
			require.NoError(c.t, d.Persist())
		} else {
			require.NoError(c.t, d.Discard())
		}
		br.Txs = append(br.Txs, r)
	}
	br.PostPersist = c.run(c.DAO, b, trigger.PostPersist, nil, Script(c.t, emit.NewBuilder().Syscall(interop.ContractNativePostPersist)), -1)
	require.Equal(c.t, vm.HaltState, br.PostPersist.State, "PostPersist of %d: %v", b.Index, br.PostPersist.Fault)
	c.height = b.Index
	return br
}

// Invoke persists a block with one transaction of script signed by
// signers and returns its result.
func (c *Chain) Invoke(signers []transaction.Signer, script []byte) *Result {
	c.t.Helper()
	return c.AddBlock(c.Tx(script, signers)).Txs[0]
}

// Call runs script in a transaction of the next block without persisting
// anything (the reference's test invocation with a persisting block).
func (c *Chain) Call(signers []transaction.Signer, script []byte) *Result {
	c.t.Helper()
	tx := c.Tx(script, signers)
	d := c.DAO.Private()
	defer func() { require.NoError(c.t, d.Discard()) }()
	return c.run(d, c.NextBlock(tx), trigger.Application, tx, script, -1)
}

// Context returns an interop context over d for block b with container
// cont (nil: none), ready for LoadScript; for tests that drive a native
// directly.
func (c *Chain) Context(d *dao.DAO, b *block.Block, trig trigger.Type, cont interop.Container, gasLimit int64) *interop.Context {
	c.t.Helper()
	index := c.height + 1
	if b != nil {
		index = b.Index
	}
	exec, err := c.Core.Policy.ExecPicoFeeFactor(d, index, trig)
	require.NoError(c.t, err)
	price, err := c.Core.Policy.StoragePrice(d)
	require.NoError(c.t, err)
	if price == 0 {
		price = native.DefaultStoragePrice
	}
	var pol interop.Policy = c.Core.Policy
	if p, ok := any(c.Reg).(interop.Policy); ok {
		pol = p
	}
	return interop.NewContext(interop.Config{
		Trigger:         trig,
		Container:       cont,
		Block:           b,
		Network:         Network,
		AddressVersion:  0x35,
		HardforkEnabled: c.Cfg.Enabled,
		ExecFeeFactor:   exec,
		StoragePrice:    price,
		GasLimit:        gasLimit,
		Natives:         c.Reg,
		Policy:          pol,
	}, d)
}

func (c *Chain) run(d *dao.DAO, b *block.Block, trig trigger.Type, tx *transaction.Transaction, script []byte, limit int64) *Result {
	c.t.Helper()
	var cont interop.Container
	if tx != nil {
		cont = tx
	}
	ic := c.Context(d, b, trig, cont, limit)
	_, err := ic.LoadScript(script, callflag.All, -1, 0)
	require.NoError(c.t, err)
	runErr := ic.Run()
	ex := ic.Execution()
	r := &Result{State: ex.VMState, Stack: ex.Stack, Events: ex.Events, GasConsumed: ex.GasConsumed}
	if r.State != vm.HaltState {
		r.State = vm.FaultState
		r.Fault = ic.VM().FaultException()
		if r.Fault == nil {
			r.Fault = runErr
		}
		if r.Fault == nil {
			r.Fault = fmt.Errorf("nativetest: %s", ex.FaultException)
		}
	}
	return r
}

// Hardfork enables hf and every earlier hardfork at height and nothing
// after it (a Hardforks map for Options).
func Hardfork(hf protocol.Hardfork, height uint32) map[string]uint32 {
	m := map[string]uint32{}
	for _, h := range protocol.Hardforks() {
		if h < hf {
			m[h.String()] = 0
		}
	}
	m[hf.String()] = height
	return m
}
