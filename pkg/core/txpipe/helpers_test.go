package txpipe

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

const testMagic = 894710606 // N3 TestNet

// fakeChain is a Verifier and a mempool.Ledger: every account holds plenty
// of GAS; verify decides (nil: accept) and may block.
type fakeChain struct {
	height atomic.Uint32
	calls  atomic.Int64

	mu     sync.Mutex
	order  []util.Uint256 // hashes in verification order
	verify func(tx *transaction.Transaction) error
}

func (c *fakeChain) BlockHeight() uint32 { return c.height.Load() }

func (c *fakeChain) GASBalance(util.Uint160) (*big.Int, error) { return big.NewInt(1 << 60), nil }

func (c *fakeChain) VerifyTx(tx *transaction.Transaction) error {
	c.calls.Add(1)
	c.mu.Lock()
	c.order = append(c.order, tx.Hash())
	f := c.verify
	c.mu.Unlock()
	if f != nil {
		return f(tx)
	}
	return nil
}

func (c *fakeChain) verified() []util.Uint256 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]util.Uint256(nil), c.order...)
}

var errInvalid = errors.New("test: invalid transaction")

func testTx(nonce uint32, netFee int64) *transaction.Transaction {
	return &transaction.Transaction{
		Nonce:           nonce,
		NetworkFee:      netFee,
		ValidUntilBlock: 100,
		Script:          []byte{byte(opcode.RET)},
		Signers:         []transaction.Signer{{Account: util.Uint160{1}, Scopes: transaction.CalledByEntry}},
		Witnesses:       []transaction.Witness{{InvocationScript: []byte{}, VerificationScript: []byte{}}},
	}
}

type harness struct {
	chain *fakeChain
	pool  *mempool.Pool
	pipe  *Pipeline
	cfg   Config
}

func newHarness(t testing.TB, capacity int, edit func(*Config)) *harness {
	h := &harness{chain: &fakeChain{}}
	var err error
	h.pool, err = mempool.New(mempool.Config{Capacity: capacity, Ledger: h.chain})
	require.NoError(t, err)
	h.cfg = Config{Verifier: h.chain, Pool: h.pool, Workers: 2}
	if edit != nil {
		edit(&h.cfg)
	}
	h.pipe, err = New(h.cfg)
	require.NoError(t, err)
	return h
}

// start runs the pipeline until the test ends (or stop is called).
func (h *harness) start(t testing.TB) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	res := make(chan error, 1)
	go func() { res <- h.pipe.Run(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-res:
			case <-time.After(10 * time.Second):
				err = fmt.Errorf("Run did not return")
			}
		})
		return err
	}
	t.Cleanup(func() { require.NoError(t, stop()) })
	return stop
}

// signedTx is a transaction of a standard account with a real signature.
func signedTx(t testing.TB, priv *keys.PrivateKey, nonce uint32) *transaction.Transaction {
	pub := priv.PublicKey()
	tx := &transaction.Transaction{
		Nonce:           nonce,
		NetworkFee:      1_000_000,
		ValidUntilBlock: 100,
		Script:          []byte{byte(opcode.RET)},
		Signers:         []transaction.Signer{{Account: pub.ScriptHash(), Scopes: transaction.CalledByEntry}},
	}
	sig := priv.Sign(tx.SignData(testMagic))
	tx.Witnesses = []transaction.Witness{{
		InvocationScript:   append([]byte{byte(opcode.PUSHDATA1), byte(len(sig))}, sig...),
		VerificationScript: pub.VerificationScript(),
	}}
	tx.InvalidateCache()
	require.Equal(t, pub.ScriptHash(), tx.Witnesses[0].ScriptHash())
	return tx
}

// verifySignature checks the single standard witness of tx, the work the
// chain's state-independent verification does for most transactions.
func verifySignature(tx *transaction.Transaction) error {
	w := &tx.Witnesses[0]
	key, ok := scripts.ParseSignatureContract(w.VerificationScript)
	if !ok || len(w.InvocationScript) != 66 {
		return fmt.Errorf("%w: not a signature contract", errInvalid)
	}
	pub, err := keys.NewPublicKeyFromBytes(key)
	if err != nil {
		return err
	}
	if !pub.VerifyMessage(w.InvocationScript[2:], tx.SignData(testMagic)) {
		return fmt.Errorf("%w: bad signature", errInvalid)
	}
	return nil
}
