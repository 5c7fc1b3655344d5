package mempool

import (
	"errors"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// fakeLedger is a chain with settable height and balances.
type fakeLedger struct {
	height atomic.Uint32
	reads  atomic.Int64

	mu       sync.Mutex
	balances map[util.Uint160]*big.Int
	def      *big.Int // balance of accounts not in balances
	err      error
}

func newLedger() *fakeLedger {
	return &fakeLedger{balances: map[util.Uint160]*big.Int{}, def: big.NewInt(1 << 50)}
}

func (l *fakeLedger) BlockHeight() uint32 { return l.height.Load() }

func (l *fakeLedger) GASBalance(acc util.Uint160) (*big.Int, error) {
	l.reads.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return nil, l.err
	}
	if b, ok := l.balances[acc]; ok {
		return new(big.Int).Set(b), nil
	}
	return new(big.Int).Set(l.def), nil
}

func (l *fakeLedger) setBalance(acc util.Uint160, v int64) {
	l.mu.Lock()
	l.balances[acc] = big.NewInt(v)
	l.mu.Unlock()
}

var errLedger = errors.New("test ledger failure")

func acc(i int) util.Uint160 { return util.Uint160{byte(i), byte(i >> 8), 0xAC} }

// txSpec describes a test transaction.
type txSpec struct {
	nonce   uint32
	signers []util.Uint160 // first one is the sender
	netFee  int64
	sysFee  int64
	high    bool
	oracle  *uint64
	confl   []util.Uint256
}

func (s txSpec) build() *transaction.Transaction {
	tx := &transaction.Transaction{
		Nonce:           s.nonce,
		SystemFee:       s.sysFee,
		NetworkFee:      s.netFee,
		ValidUntilBlock: 100,
		Script:          []byte{0x40}, // RET
	}
	signers := s.signers
	if len(signers) == 0 {
		signers = []util.Uint160{acc(1)}
	}
	for _, a := range signers {
		tx.Signers = append(tx.Signers, transaction.Signer{Account: a, Scopes: transaction.CalledByEntry})
		tx.Witnesses = append(tx.Witnesses, transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{}})
	}
	if s.high {
		tx.Attributes = append(tx.Attributes, transaction.Attribute{Type: transaction.AttrHighPriority})
	}
	if s.oracle != nil {
		tx.Attributes = append(tx.Attributes, transaction.Attribute{Type: transaction.AttrOracleResponse,
			Value: &transaction.OracleResponse{ID: *s.oracle, Code: transaction.OracleResponseCode(0), Result: []byte{}}})
	}
	for _, h := range s.confl {
		tx.Attributes = append(tx.Attributes, transaction.Attribute{Type: transaction.AttrConflicts,
			Value: &transaction.Conflicts{Hash: h}})
	}
	return tx
}

func newPool(t testing.TB, capacity int) (*Pool, *fakeLedger) {
	l := newLedger()
	p, err := New(Config{Capacity: capacity, Ledger: l})
	require.NoError(t, err)
	return p, l
}

func add(p *Pool, l *fakeLedger, tx *transaction.Transaction) error {
	return p.Add(tx, l.BlockHeight())
}

func hashes(txs []*transaction.Transaction) []util.Uint256 {
	res := make([]util.Uint256, len(txs))
	for i, tx := range txs {
		res[i] = tx.Hash()
	}
	return res
}

// drain returns the events pending on s.
func drain(s *Subscription) []Event {
	var res []Event
	for {
		select {
		case ev, ok := <-s.C:
			if !ok {
				return res
			}
			res = append(res, ev)
		default:
			return res
		}
	}
}
