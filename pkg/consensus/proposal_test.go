package consensus

import (
	"errors"
	"testing"
	"time"

	"github.com/nspcc-dev/dbft"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

type fakeLedger struct{ height uint32 }

func (l *fakeLedger) BlockHeight() uint32            { return l.height }
func (l *fakeLedger) CurrentBlockHash() util.Uint256 { return util.Uint256{} }
func (l *fakeLedger) GetHeader(util.Uint256) (*block.Header, error) {
	return &block.Header{Index: l.height}, nil
}

// unitService is a service that never runs, for its callbacks.
func unitService(t *testing.T, pool []*transaction.Transaction, verify func(*transaction.Transaction) error) *Service {
	ks, err := validatorKeys()
	require.NoError(t, err)
	cfg := loadConfig(t, "protocol.privnet.yml")
	pubs := make(keys.PublicKeys, len(ks))
	for i, k := range ks {
		pubs[i] = k.PublicKey()
	}
	pubs.Sort()
	s, err := New(Config{
		Protocol:                cfg.ProtocolConfiguration,
		Ledger:                  &fakeLedger{},
		NextBlockValidators:     func() (keys.PublicKeys, error) { return pubs, nil },
		GetVerifiedTransactions: func() []*transaction.Transaction { return pool },
		GetPooledTransaction: func(h util.Uint256) (*transaction.Transaction, bool) {
			for _, tx := range pool {
				if tx.Hash() == h {
					return tx, true
				}
			}
			return nil, false
		},
		VerifyTx:     verify,
		ProcessBlock: func(*block.Block) error { return nil },
		Broadcast:    func(*payload.Extensible) {},
	})
	require.NoError(t, err)
	s.getValidators()
	return s
}

func sizedTx(nonce uint32, scriptLen int, sysFee int64) *transaction.Transaction {
	tx := &transaction.Transaction{Nonce: nonce, SystemFee: sysFee, ValidUntilBlock: 1, Script: make([]byte, scriptLen),
		Signers:   []transaction.Signer{{Account: util.Uint160{byte(nonce)}}},
		Witnesses: []transaction.Witness{{}}}
	return tx
}

// The proposal is the longest pool prefix within each block limit.
func TestProposalLimits(t *testing.T) {
	pool := []*transaction.Transaction{sizedTx(1, 100, 10), sizedTx(2, 100, 10), sizedTx(3, 100, 10), sizedTx(4, 100, 10)}
	s := unitService(t, pool, func(*transaction.Transaction) error { return nil })
	require.Len(t, s.getVerified(), 4)

	s.cfg.Protocol.MaxTransactionsPerBlock = 3
	require.Len(t, s.getVerified(), 3)

	s.cfg.Protocol.MaxTransactionsPerBlock = 100
	s.cfg.Protocol.MaxBlockSystemFee = 25
	require.Len(t, s.getVerified(), 2)

	s.cfg.Protocol.MaxBlockSystemFee = 1000
	// Room for exactly two transactions with the header and the 3-of-4 witness.
	s.cfg.Protocol.MaxBlockSize = uint32(s.expectedBlockSize(4, 2*pool[0].Size()))
	got := s.getVerified()
	require.Len(t, got, 2)
	require.Equal(t, pool[0].Hash(), got[0].Hash())

	// The witness size is that of M signatures and the multisig script.
	b := &block.Block{Transactions: pool[:2]}
	var err error
	b.Witness, err = s.witnessForSize()
	require.NoError(t, err)
	require.Equal(t, b.Size(), s.expectedBlockSize(2, 2*pool[0].Size()))
}

// witnessForSize is a block witness with zero signatures of the signed size.
func (s *Service) witnessForSize() (transaction.Witness, error) {
	s.dbft.Validators = s.getValidators()
	m := s.dbft.M()
	s.dbft.CommitPayloads = make([]dbft.ConsensusPayload[util.Uint256], len(s.dbft.Validators))
	for i := range m {
		s.dbft.CommitPayloads[i] = NewPayload(s.magic, Message{Type: CommitType, Body: new(Commit)})
	}
	return s.blockWitness()
}

// A backup refuses a proposal with a transaction that fails verification
// (not pooled) or conflicts with another one of the block, and names it
// in its ChangeView.
func TestVerifyBlockRejects(t *testing.T) {
	pooled := sizedTx(1, 10, 1)
	bad := sizedTx(2, 10, 1)
	good := sizedTx(3, 10, 1)
	errBad := errors.New("bad")
	s := unitService(t, []*transaction.Transaction{pooled}, func(tx *transaction.Transaction) error {
		if tx == bad {
			return errBad
		}
		return nil
	})
	mk := func(txs ...*transaction.Transaction) *dbftBlock {
		b := &dbftBlock{magic: s.magic}
		b.b.Index = 1
		b.b.Transactions = txs
		return b
	}
	require.True(t, s.verifyBlock(mk(pooled, good)))
	require.False(t, s.verifyBlock(mk(pooled, bad, good)))
	require.Equal(t, []util.Uint256{bad.Hash()}, s.rejected)
	cv := s.newChangeView(1, dbft.CVTxInvalid, uint64(time.Now().UnixNano())).(*ChangeView)
	require.Equal(t, []util.Uint256{bad.Hash()}, cv.RejectedHashes)

	conflicting := sizedTx(4, 10, 1)
	conflicting.Attributes = []transaction.Attribute{{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: good.Hash()}}}
	require.False(t, s.verifyBlock(mk(good, conflicting)))
	require.Equal(t, []util.Uint256{conflicting.Hash()}, s.rejected)

	// Limits and an outdated height.
	s.cfg.Protocol.MaxBlockSystemFee = 1
	require.False(t, s.verifyBlock(mk(pooled, good)))
	s.cfg.Protocol.MaxBlockSystemFee = 100
	s.cfg.Ledger.(*fakeLedger).height = 1
	require.False(t, s.verifyBlock(mk(pooled)))
}
