package node_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/consensus"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet"
)

// The double-signing check of the process-level soak (issue 16): an
// observer, a P2P client of its own in the test process (no chain, no
// pool, no consensus), connects to every validator, takes every dBFT
// payload they send or relay and fails the run when a validator signed
// two conflicting messages across its restarts:
//
//   - two Commits for one height with different block signatures
//     (signatures are deterministic, RFC 6979: the same block gives the
//     same signature), Commits carried inside RecoveryMessages included;
//   - two different PrepareRequests, or PrepareResponses, for one height
//     and view (the proposal inside a RecoveryMessage included);
//   - a PrepareRequest or PrepareResponse at a view above the one of its
//     own Commit at that height (a committed validator is locked).
//
// The observer refuses every payload (a plain error: nothing is relayed
// by it, its peers are not dropped) and pretends to hold every
// transaction, so it adds no load beyond the payloads and blocks it is
// sent.

// errObserverOnly is the observer's answer to every payload.
var errObserverOnly = errors.New("soak observer: not relayed")

type obsPrepKey struct {
	validator byte
	height    uint32
	view      byte
	typ       consensus.MessageType
}

type obsCommit struct {
	sig    [consensus.SignatureSize]byte
	view   byte
	source string
}

// dbftObserver records the dBFT payloads it is given and the conflicts
// among them. Safe for concurrent use.
type dbftObserver struct {
	magic uint32
	// validators are the public keys by validator index.
	validators keys.PublicKeys

	mu         sync.Mutex
	commits    map[[2]uint32]obsCommit // (validator, height)
	preps      map[obsPrepKey][]byte   // message bytes
	maxPrep    map[[2]uint32]byte      // highest view of a Prepare* per (validator, height)
	violations []string
	payloads   int // dBFT payloads taken
	byType     map[consensus.MessageType]int
	recovered  int // Commits and proposals read out of RecoveryMessages
	badWitness int
	// watch is closed on the next own PrepareRequest (or Commit, unless
	// watchProposal) of validator watchIdx at a height of at least
	// watchHeight (a targeted kill waits on it).
	watch         chan struct{}
	watchIdx      byte
	watchProposal bool
	watchHeight   uint32

	blocks map[uint32]*block.Block
	byHash map[util.Uint256]*block.Block
	height uint32
}

func newDbftObserver(magic uint32, validators keys.PublicKeys) *dbftObserver {
	return &dbftObserver{magic: magic, validators: validators,
		commits: map[[2]uint32]obsCommit{}, preps: map[obsPrepKey][]byte{}, maxPrep: map[[2]uint32]byte{},
		byType: map[consensus.MessageType]int{},
		blocks: map[uint32]*block.Block{}, byHash: map[util.Uint256]*block.Block{}}
}

// onExtensible is the observer server's OnExtensible.
func (o *dbftObserver) onExtensible(e *payload.Extensible) error {
	if e.Category != consensus.Category {
		return errObserverOnly
	}
	p, err := consensus.PayloadFromExtensible(o.magic, e)
	if err != nil {
		o.fail("undecodable dBFT payload %s: %v", e.Hash().StringLE(), err)
		return errObserverOnly
	}
	o.take(p)
	return errObserverOnly
}

// take checks one received payload.
func (o *dbftObserver) take(p *consensus.Payload) {
	m := p.Msg
	pub, err := p.VerifyWitness()
	o.mu.Lock()
	defer o.mu.Unlock()
	if err != nil || int(m.ValidatorIndex) >= len(o.validators) || !pub.Equal(o.validators[m.ValidatorIndex]) {
		o.badWitness++
		return
	}
	o.payloads++
	o.byType[m.Type]++
	src := fmt.Sprintf("payload %s", p.Hash().StringLE())
	switch body := m.Body.(type) {
	case *consensus.Commit:
		o.commitLocked(m.ValidatorIndex, m.BlockIndex, m.ViewNumber, body.Sig, src)
		o.fireLocked(&m)
	case *consensus.PrepareRequest:
		o.prepLocked(&m, src)
		o.fireLocked(&m)
	case *consensus.PrepareResponse:
		o.prepLocked(&m, src)
	case *consensus.RecoveryMessage:
		// What the sender holds of the others: their signatures were
		// verified by it (and by the validators that used them).
		for _, c := range body.Commits {
			o.recovered++
			o.commitLocked(c.ValidatorIndex, m.BlockIndex, c.ViewNumber, c.Signature,
				fmt.Sprintf("recovery %s of validator %d", p.Hash().StringLE(), m.ValidatorIndex))
		}
		if body.PrepareRequest != nil {
			o.recovered++
			o.prepLocked(body.PrepareRequest, fmt.Sprintf("recovery %s of validator %d",
				p.Hash().StringLE(), m.ValidatorIndex))
		}
	}
}

func (o *dbftObserver) fireLocked(m *consensus.Message) {
	if o.watch != nil && o.watchIdx == m.ValidatorIndex && m.BlockIndex >= o.watchHeight &&
		(!o.watchProposal || m.Type == consensus.PrepareRequestType) {
		close(o.watch)
		o.watch = nil
	}
}

// next returns a channel closed on validator idx's next PrepareRequest
// (or Commit, unless proposal) at height minHeight or above.
func (o *dbftObserver) next(idx byte, proposal bool, minHeight uint32) <-chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.watch, o.watchIdx, o.watchProposal, o.watchHeight = make(chan struct{}), idx, proposal, minHeight
	return o.watch
}

func (o *dbftObserver) commitLocked(v byte, h uint32, view byte, sig [consensus.SignatureSize]byte, src string) {
	k := [2]uint32{uint32(v), h}
	prev, ok := o.commits[k]
	switch {
	case !ok:
		o.commits[k] = obsCommit{sig: sig, view: view, source: src}
		if mv, ok := o.maxPrep[k]; ok && mv > view {
			o.failLocked("validator %d committed at height %d view %d after a Prepare* at view %d (%s)",
				v, h, view, mv, src)
		}
	case prev.sig != sig:
		o.failLocked("validator %d signed two different Commits at height %d: view %d (%s) and view %d (%s)",
			v, h, prev.view, prev.source, view, src)
	}
}

func (o *dbftObserver) prepLocked(m *consensus.Message, src string) {
	data, err := m.Bytes()
	if err != nil {
		o.failLocked("encoding a %s: %v", m.Type, err)
		return
	}
	k := obsPrepKey{validator: m.ValidatorIndex, height: m.BlockIndex, view: m.ViewNumber, typ: m.Type}
	if prev, ok := o.preps[k]; ok && !bytes.Equal(prev, data) {
		o.failLocked("validator %d signed two different %s at height %d view %d (%s)",
			m.ValidatorIndex, m.Type, m.BlockIndex, m.ViewNumber, src)
	} else if !ok {
		o.preps[k] = data
	}
	ck := [2]uint32{uint32(m.ValidatorIndex), m.BlockIndex}
	if c, ok := o.commits[ck]; ok && m.ViewNumber > c.view {
		o.failLocked("validator %d sent a %s at height %d view %d after its Commit at view %d (%s)",
			m.ValidatorIndex, m.Type, m.BlockIndex, m.ViewNumber, c.view, src)
	}
	if mv, ok := o.maxPrep[ck]; !ok || m.ViewNumber > mv {
		o.maxPrep[ck] = m.ViewNumber
	}
}

func (o *dbftObserver) fail(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.failLocked(format, args...)
}

func (o *dbftObserver) failLocked(format string, args ...any) {
	o.violations = append(o.violations, fmt.Sprintf(format, args...))
}

// Violations returns the conflicts found so far.
func (o *dbftObserver) Violations() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.violations...)
}

// Summary is a line of figures for the soak's log.
func (o *dbftObserver) Summary() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	heights := map[uint32]bool{}
	for k := range o.commits {
		heights[k[1]] = true
	}
	return fmt.Sprintf("dBFT payloads checked %d (PrepareRequest %d, PrepareResponse %d, Commit %d, ChangeView %d, "+
		"Recovery %d/%d), from recoveries %d, Commits recorded %d over %d heights, bad witnesses %d, "+
		"observer blocks %d, violations %d",
		o.payloads, o.byType[consensus.PrepareRequestType], o.byType[consensus.PrepareResponseType],
		o.byType[consensus.CommitType], o.byType[consensus.ChangeViewType], o.byType[consensus.RecoveryRequestType],
		o.byType[consensus.RecoveryMessageType], o.recovered, len(o.commits), len(heights), o.badWitness,
		o.height, len(o.violations))
}

// The observer's network.Ledger and BlockSink: blocks its peers send,
// unverified, kept so that it stays in sync (and so that it asks for
// nothing twice).

func (o *dbftObserver) BlockHeight() uint32 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.height
}

func (o *dbftObserver) GetHeaderHash(index uint32) (util.Uint256, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if b, ok := o.blocks[index]; ok {
		return b.Hash(), true
	}
	return util.Uint256{}, false
}

func (o *dbftObserver) GetBlock(hash util.Uint256) (*block.Block, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if b, ok := o.byHash[hash]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("soak observer: no block %s", hash.StringLE())
}

func (o *dbftObserver) GetHeader(hash util.Uint256) (*block.Header, error) {
	b, err := o.GetBlock(hash)
	if err != nil {
		return nil, err
	}
	return &b.Header, nil
}

func (o *dbftObserver) Put(b *block.Block) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if b.Index <= o.height {
		return nil
	}
	if _, ok := o.blocks[b.Index]; !ok {
		o.blocks[b.Index] = b
		o.byHash[b.Hash()] = b
	}
	for {
		if _, ok := o.blocks[o.height+1]; !ok {
			return nil
		}
		o.height++
	}
}

// The observer's network.TxPool: every transaction is "known", none is
// requested.
type obsPool struct{}

func (obsPool) ContainsTx(util.Uint256) bool                        { return true }
func (obsPool) GetTx(util.Uint256) (*transaction.Transaction, bool) { return nil, false }
func (obsPool) TxHashes() []util.Uint256                            { return nil }

// startObserver runs an observer server dialling the validators' P2P
// addresses until the test ends.
func startObserver(t *testing.T, o *dbftObserver, seeds []string) {
	t.Helper()
	srv, err := network.New(network.Config{
		Magic: o.magic, Seeds: seeds, TimePerBlock: time.Second,
		ProtoTickInterval: 250 * time.Millisecond, DialTimeout: time.Second,
		MinPeers: len(seeds), MaxPeers: 2 * len(seeds), AttemptConnPeers: len(seeds),
		UserAgent: "/n3d-soak-observer/", Ledger: o, Blocks: o, Pool: obsPool{},
		OnExtensible: o.onExtensible, Registerer: prometheus.NewRegistry(),
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
}

// soak4Validators returns the public keys of the four privnet validators
// by validator index (sorted, as the chain orders them) and, for each
// node i (wallet i+1), its validator index.
func soak4Validators(t *testing.T) (keys.PublicKeys, []byte) {
	t.Helper()
	own := make(keys.PublicKeys, 4)
	for i := range own {
		w, err := wallet.Open(filepath.Join("..", "..", "pkg", "wallet", "testdata", fmt.Sprintf("neogo_wallet%d.json", i+1)))
		require.NoError(t, err)
		for _, a := range w.Accounts {
			if a.Contract == nil {
				continue
			}
			if raw, ok := scripts.ParseSignatureContract(a.Contract.Script); ok {
				own[i], err = keys.NewPublicKeyFromBytes(raw)
				require.NoError(t, err)
			}
		}
		require.NotNil(t, own[i], "wallet %d has no single-key account", i+1)
	}
	sorted := append(keys.PublicKeys(nil), own...)
	sorted.Sort()
	idx := make([]byte, 4)
	for i, k := range own {
		for j, s := range sorted {
			if k.Equal(s) {
				idx[i] = byte(j)
			}
		}
	}
	return sorted, idx
}
