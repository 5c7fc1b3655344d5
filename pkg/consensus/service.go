package consensus

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nspcc-dev/dbft"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

// Input queue sizes: payloads and transactions wait here for the service
// goroutine; a full queue makes OnPayload/OnTransaction wait.
const (
	messageQueue     = 100
	transactionQueue = 100
)

// errAlreadyRunning is returned by a second Run.
var errAlreadyRunning = errors.New("consensus: service already running")

// Service is the dBFT 2.0 consensus service. One goroutine, Run's, owns
// the dBFT state machine: payloads, transactions, timer ticks and chain
// progress reach it through channels, and every dBFT callback runs on it.
// The On*/Notify* methods are safe from any goroutine.
type Service struct {
	cfg   Config
	log   *zap.Logger
	magic uint32
	dbft  *dbft.DBFT[util.Uint256]

	messages  chan *Payload
	txs       chan *transaction.Transaction
	blockWake chan struct{} // cap 1: the chain may have grown
	poolWake  chan struct{} // cap 1: the mempool got a transaction
	peerWake  chan struct{} // cap 1: a peer connected
	clock     Clock
	timer     *roundTimer // dBFT's

	started atomic.Bool
	done    chan struct{} // closed when Run returns
	needTxs atomic.Bool   // the round misses proposed transactions

	// Owned by the service goroutine.
	lastTimestamp uint64 // ms, of the last block seen
	poolSub       bool   // dBFT waits for a mempool transaction
	validators    keys.PublicKeys
	witnessSize   int            // expected size of the block witness
	rejected      []util.Uint256 // transactions that failed the last proposal check
	journal       journal        // the SignLog's records of the current height
	unsaved       *block.Block   // an agreed block the chain refused (blockretry.go)
	unsavedRetry  ClockTimer     // fires when it is handed to the chain again
	metrics       *metrics       // the Prometheus collectors (metrics.go)
}

// New creates a service; Run starts it.
func New(cfg Config) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.applyDefaults()
	m, err := newMetrics(cfg.Registerer)
	if err != nil {
		return nil, err
	}
	s := &Service{
		metrics:   m,
		cfg:       cfg,
		log:       cfg.Logger,
		magic:     uint32(cfg.Protocol.Magic),
		messages:  make(chan *Payload, messageQueue),
		txs:       make(chan *transaction.Transaction, transactionQueue),
		blockWake: make(chan struct{}, 1),
		poolWake:  make(chan struct{}, 1),
		peerWake:  make(chan struct{}, 1),
		done:      make(chan struct{}),
		clock:     cfg.Clock,
	}
	tm := newRoundTimer(cfg.Clock)
	s.timer = tm
	opts := []func(*dbft.Config[util.Uint256]){
		dbft.WithLogger[util.Uint256](s.log.Named("dbft")),
		dbft.WithTimer[util.Uint256](tm),
		dbft.WithTimePerBlock[util.Uint256](cfg.TimePerBlock),
		dbft.WithGetKeyPair[util.Uint256](s.getKeyPair),
		dbft.WithRequestTx[util.Uint256](s.requestTx),
		dbft.WithStopTxFlow[util.Uint256](s.stopTxFlow),
		dbft.WithGetTx[util.Uint256](s.getTx),
		dbft.WithGetVerified[util.Uint256](s.getVerified),
		dbft.WithBroadcast[util.Uint256](s.broadcast),
		dbft.WithProcessBlock[util.Uint256](s.processBlock),
		dbft.WithVerifyBlock[util.Uint256](s.verifyBlock),
		dbft.WithNewBlockFromContext[util.Uint256](s.newBlockFromContext),
		dbft.WithCurrentHeight[util.Uint256](cfg.Ledger.BlockHeight),
		dbft.WithCurrentBlockHash[util.Uint256](cfg.Ledger.CurrentBlockHash),
		dbft.WithGetValidators[util.Uint256](s.getValidators),
		dbft.WithNewConsensusPayload[util.Uint256](s.newPayload),
		dbft.WithNewPrepareRequest[util.Uint256](s.newPrepareRequest),
		dbft.WithNewPrepareResponse[util.Uint256](newPrepareResponse),
		dbft.WithNewChangeView[util.Uint256](s.newChangeView),
		dbft.WithNewCommit[util.Uint256](newCommit),
		dbft.WithNewRecoveryRequest[util.Uint256](newRecoveryRequest),
		dbft.WithNewRecoveryMessage[util.Uint256](newRecoveryMessage),
		dbft.WithVerifyPrepareRequest[util.Uint256](s.verifyRequest),
	}
	if mt := cfg.Protocol.MaxTimePerBlock; mt > 0 {
		opts = append(opts,
			dbft.WithMaxTimePerBlock[util.Uint256](func() time.Duration { return mt }),
			dbft.WithSubscribeForTxs[util.Uint256](s.subscribeForTxs))
	}
	d, err := dbft.New[util.Uint256](opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadConfig, err)
	}
	s.dbft = d
	return s, nil
}

// Run runs the service until ctx is done; it returns nil then, or the
// error that prevented the start. It may be called once.
func (s *Service) Run(ctx context.Context) error {
	if !s.started.CompareAndSwap(false, true) {
		return errAlreadyRunning
	}
	defer close(s.done)
	if _, err := s.cfg.Ledger.GetHeader(s.cfg.Ledger.CurrentBlockHash()); err != nil {
		return fmt.Errorf("consensus: current header: %w", err)
	}
	first, ok := s.waitForPeers(ctx)
	if !ok {
		s.log.Info("consensus stopped")
		return nil
	}
	if err := s.start(); err != nil {
		return err
	}
	if first != nil {
		s.catchUp()
		s.onMessage(first)
	}
	s.afterEvent()
	for {
		var poolWake <-chan struct{} // enabled only while dBFT waits for transactions
		if s.poolSub {
			poolWake = s.poolWake
		}
		select {
		case <-ctx.Done():
			if s.unsavedRetry != nil {
				s.unsavedRetry.Stop()
			}
			s.log.Info("consensus stopped")
			return nil
		case <-s.dbft.Timer.C():
			s.dbft.OnTimeout(s.dbft.Timer.Height(), s.dbft.Timer.View())
		case p := <-s.messages:
			// A block of p's round may have reached the chain since the
			// last event: dBFT must see p as stale, not verify a proposal
			// for a height the chain has (a needless ChangeView).
			s.catchUp()
			s.onMessage(p)
		case tx := <-s.txs:
			s.dbft.OnTransaction(tx)
		case <-s.retryC():
			s.retryUnsaved()
		case <-s.blockWake:
		case <-poolWake:
			s.poolSub = false
			s.dbft.OnNewTransaction()
		}
		s.afterEvent()
	}
}

// start starts dBFT at the height after the chain's, rebuilds the round from the
// sign log and asks the others for the round's state.
func (s *Service) start() error {
	hdr, err := s.cfg.Ledger.GetHeader(s.cfg.Ledger.CurrentBlockHash())
	if err != nil {
		return fmt.Errorf("consensus: current header: %w", err)
	}
	s.lastTimestamp = hdr.Timestamp
	s.loadJournal(hdr.Index + 1)
	s.log.Info("starting consensus", zap.Uint32("height", hdr.Index+1))
	s.dbft.Start(hdr.Timestamp * nsPerMs)
	s.fixFirstTimeout()
	if s.dbft.BlockIndex == hdr.Index+1 {
		s.restore()
	}
	s.requestRecovery()
	return nil
}

// fixFirstTimeout gives a backup starting at height 1 its full view 0
// timeout. dBFT takes the time since the previous block off it, and
// before its first round it counts that from the zero time: the backup
// would time out at once and, having heard two others already, ask for a
// view change at the start of the network.
func (s *Service) fixFirstTimeout() {
	if s.dbft.BlockIndex == 1 && s.dbft.IsBackup() && s.timer.firedAtOnce() {
		s.timer.Reset(s.dbft.BlockIndex, s.dbft.ViewNumber, s.cfg.TimePerBlock()<<1)
	}
}

// afterEvent catches up with the chain and publishes whether the round
// needs transactions.
func (s *Service) afterEvent() {
	s.catchUp()
	s.needTxs.Store(len(s.dbft.MissingTransactions) > 0)
	s.metrics.round(s.dbft.BlockIndex, s.dbft.ViewNumber)
}

// catchUp resets dBFT to the height after the chain's (a block of ours or
// one from the network).
func (s *Service) catchUp() {
	for s.cfg.Ledger.BlockHeight() >= s.dbft.BlockIndex {
		hdr, err := s.cfg.Ledger.GetHeader(s.cfg.Ledger.CurrentBlockHash())
		if err != nil {
			s.log.Error("cannot read the current header", zap.Error(err))
			break
		}
		s.lastTimestamp = max(s.lastTimestamp, hdr.Timestamp)
		s.rejected = nil
		s.enterHeight(hdr.Index + 1)
		s.dbft.Reset(hdr.Timestamp * nsPerMs)
	}
}

// onMessage hands a verified payload to dBFT if its sender is the
// validator it claims to be.
func (s *Service) onMessage(p *Payload) {
	idx := int(p.Msg.ValidatorIndex)
	vals := s.dbft.Validators
	if idx >= len(vals) || !vals[idx].(*keys.PublicKey).Equal(p.signer) {
		s.log.Debug("payload from a non-validator dropped",
			zap.Stringer("type", p.Msg.Type), zap.Int("index", idx), zap.Uint32("height", p.Msg.BlockIndex))
		return
	}
	if rm, ok := p.Msg.Body.(*RecoveryMessage); ok {
		s.log.Info("recovery message", zap.Int("from", idx), zap.Int("changeViews", len(rm.ChangeViews)),
			zap.Bool("request", rm.PrepareRequest != nil), zap.Int("preparations", len(rm.Preparations)),
			zap.Int("commits", len(rm.Commits)))
	}
	s.dbft.OnReceive(p)
}

// OnPayload takes a dBFT extensible payload from the network: it decodes
// the message and checks the sender's witness here, on the caller's
// goroutine, then queues it (waiting while the queue is full). The error
// tells the network the payload is invalid; ErrNotRunning that the
// service does not run.
func (s *Service) OnPayload(e *payload.Extensible) error {
	p, err := PayloadFromExtensibleSR(s.magic, s.cfg.Protocol.StateRootInHeader, e)
	if err != nil {
		return err
	}
	if p.signer, err = p.VerifyWitness(); err != nil {
		return err
	}
	if !s.started.Load() {
		return ErrNotRunning
	}
	select {
	case s.messages <- p:
		return nil
	case <-s.done:
		return ErrNotRunning
	}
}

// OnTransaction gives the service a transaction received from the
// network; it is passed to dBFT only while the round misses proposed
// transactions.
func (s *Service) OnTransaction(tx *transaction.Transaction) {
	if !s.needTxs.Load() || !s.started.Load() {
		return
	}
	select {
	case s.txs <- tx:
	case <-s.done:
	}
}

// NotifyBlock tells the service that the chain may have a new block. It
// never blocks; cmd calls it for every block the chain adds.
func (s *Service) NotifyBlock() {
	select {
	case s.blockWake <- struct{}{}:
	default:
	}
}

// NotifyPoolTransaction tells the service that the mempool got a
// transaction (used with MaxTimePerBlock). It never blocks.
func (s *Service) NotifyPoolTransaction() {
	select {
	case s.poolWake <- struct{}{}:
	default:
	}
}

// requestTx opens OnTransaction before asking the network, so that no
// answer is turned away.
func (s *Service) requestTx(hashes ...util.Uint256) {
	s.needTxs.Store(true)
	s.cfg.RequestTx(hashes...)
}

// subscribeForTxs makes the next mempool transaction wake dBFT. A signal
// from before the subscription is dropped: dBFT looks at the mempool
// again right after subscribing.
func (s *Service) subscribeForTxs() {
	select {
	case <-s.poolWake:
	default:
	}
	s.poolSub = true
}

func (s *Service) stopTxFlow() {
	s.needTxs.Store(false)
	s.cfg.StopTxFlow()
}
