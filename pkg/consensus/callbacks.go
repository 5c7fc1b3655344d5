package consensus

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nspcc-dev/dbft"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
)

// This file holds the dBFT callbacks; all run on the service goroutine.

// Proposal check errors (the primary's PrepareRequest is refused and the
// node asks for a view change).
var (
	errPrevHash     = errors.New("consensus: proposal on a different previous block")
	errVersion      = errors.New("consensus: proposal with an unknown block version")
	errTooManyTxs   = errors.New("consensus: proposal exceeds MaxTransactionsPerBlock")
	errTimestamp    = errors.New("consensus: proposal timestamp out of range")
	errStateRoot    = errors.New("consensus: proposal with another previous state root")
	errNoValidators = errors.New("consensus: no validators")
)

// futureBlockTimes is how many block times ahead of the clock a proposal's
// timestamp may be (the reference's bound).
const futureBlockTimes = 8

func (s *Service) getKeyPair(pubs []dbft.PublicKey) (int, dbft.PrivateKey, dbft.PublicKey) {
	for i, p := range pubs {
		pub := p.(*keys.PublicKey)
		for _, k := range s.cfg.Keys {
			if k.PublicKey().Equal(pub) {
				return i, k, pub
			}
		}
	}
	return -1, nil, nil
}

// getValidators returns the validators of the block being made. On a
// chain error it keeps the last known set (the standby validators at
// first), since dBFT cannot run without one.
func (s *Service) getValidators(...dbft.Transaction[util.Uint256]) []dbft.PublicKey {
	vals, err := s.cfg.NextBlockValidators()
	if err == nil && len(vals) == 0 {
		err = errNoValidators
	}
	if err != nil {
		s.log.Error("cannot get the next block validators", zap.Error(err))
		vals = s.validators
		if len(vals) == 0 {
			vals = s.standbyValidators()
		}
	}
	if !slices.EqualFunc(vals, s.validators, (*keys.PublicKey).Equal) {
		s.validators = vals
		s.witnessSize = witnessSize(vals)
	}
	out := make([]dbft.PublicKey, len(vals))
	for i, k := range vals {
		out[i] = k
	}
	return out
}

func (s *Service) standbyValidators() keys.PublicKeys {
	all, err := keys.NewPublicKeysFromStrings(s.cfg.Protocol.StandbyCommittee)
	n := s.cfg.Protocol.ValidatorsCountAt(0)
	if err != nil || len(all) < n {
		panic(fmt.Sprintf("consensus: standby validators: %v", err)) // Validate()d config
	}
	vals := all[:n].Copy()
	vals.Sort()
	return vals
}

// witnessSize is the size of a block witness of the validators: M
// signature pushes and the M-of-N verification script.
func witnessSize(vals keys.PublicKeys) int {
	if len(vals) == 0 {
		return 0
	}
	m := scripts.BFTThreshold(len(vals))
	script, err := scripts.MultiSigContract(m, vals)
	if err != nil {
		return 0
	}
	inv := m * invocationSize
	return io.GetVarSize(inv) + inv + io.GetVarSize(len(script)) + len(script)
}

// expectedBlockSize is the size of a signed block of n transactions
// totalling txSize bytes.
func (s *Service) expectedBlockSize(n, txSize int) int {
	return block.UnsignedSize(s.cfg.Protocol.StateRootInHeader) + 1 + s.witnessSize + io.GetVarSize(n) + txSize
}

func (s *Service) getTx(h util.Uint256) dbft.Transaction[util.Uint256] {
	if tx, ok := s.cfg.GetPooledTransaction(h); ok && tx != nil {
		return tx
	}
	return nil
}

// getVerified proposes the mempool's best transactions that fit the
// block limits, stopping at the first that does not (as the reference).
func (s *Service) getVerified() []dbft.Transaction[util.Uint256] {
	pool := s.cfg.GetVerifiedTransactions()
	p := &s.cfg.Protocol
	if maxTxs := int(p.MaxTransactionsPerBlock); maxTxs > 0 && len(pool) > maxTxs {
		pool = pool[:maxTxs]
	}
	size := s.expectedBlockSize(len(pool), 0)
	var sysFee int64
	out := make([]dbft.Transaction[util.Uint256], 0, len(pool))
	for _, tx := range pool {
		size += tx.Size()
		if p.MaxBlockSize > 0 && size > int(p.MaxBlockSize) {
			break
		}
		sysFee += tx.SystemFee
		if p.MaxBlockSystemFee > 0 && sysFee > p.MaxBlockSystemFee {
			break
		}
		out = append(out, tx)
	}
	return out
}

func (s *Service) newPayload(c *dbft.Context[util.Uint256], t dbft.MessageType, msg any) dbft.ConsensusPayload[util.Uint256] {
	if req, ok := msg.(*PrepareRequest); ok {
		req.Version = block.VersionInitial
		req.PrevHash = c.PrevHash
		s.reuseProposal(c, req)
	}
	p := NewPayload(s.magic, Message{Type: MessageType(t), BlockIndex: c.BlockIndex,
		ValidatorIndex: byte(c.MyIndex), ViewNumber: c.ViewNumber, Body: msg.(Body)})
	if c.MyIndex >= 0 {
		p.Sender = c.Validators[c.MyIndex].(*keys.PublicKey).ScriptHash()
	}
	return p
}

func (s *Service) newPrepareRequest(ts, nonce uint64, hashes []util.Uint256) dbft.PrepareRequest[util.Uint256] {
	req := &PrepareRequest{TimestampMS: ts / nsPerMs, NonceValue: nonce, Hashes: hashes}
	if s.cfg.Protocol.StateRootInHeader {
		req.StateRootEnabled = true
		root, err := s.prevStateRoot(s.dbft.BlockIndex)
		if err != nil {
			// dBFT has no way to refuse here: the backups will refuse a
			// wrong root and change view.
			s.log.Error("no state root for the proposal", zap.Error(err))
		}
		req.StateRoot = root
	}
	return req
}

// prevStateRoot is the local state root after the block before index.
func (s *Service) prevStateRoot(index uint32) (util.Uint256, error) {
	if index == 0 {
		return util.Uint256{}, fmt.Errorf("%w: no block before 0", errStateRoot)
	}
	root, err := s.cfg.StateRootAt(index - 1)
	if err != nil {
		return util.Uint256{}, fmt.Errorf("%w: %d: %w", errStateRoot, index-1, err)
	}
	return root, nil
}

func newPrepareResponse(h util.Uint256) dbft.PrepareResponse[util.Uint256] {
	return &PrepareResponse{Preparation: h}
}

// newChangeView names the transactions the last proposal check rejected
// when that is the reason.
func (s *Service) newChangeView(view byte, reason dbft.ChangeViewReason, ts uint64) dbft.ChangeView {
	cv := &ChangeView{TimestampMS: ts / nsPerMs, ChangeReason: reason, newViewNumber: view}
	if hasRejected(reason) {
		cv.RejectedHashes = slices.Clone(s.rejected)
	}
	return cv
}

func newCommit(sig []byte) dbft.Commit {
	c := new(Commit)
	copy(c.Sig[:], sig)
	return c
}

func newRecoveryRequest(ts uint64) dbft.RecoveryRequest {
	return &RecoveryRequest{TimestampMS: ts / nsPerMs}
}

func newRecoveryMessage() dbft.RecoveryMessage[util.Uint256] { return new(RecoveryMessage) }

// broadcast signs a payload of ours, records it in the sign log and
// sends it. A payload that conflicts with one signed before is not
// signed (nor sent); one that cannot be recorded is not sent, and dBFT
// forgets it.
func (s *Service) broadcast(cp dbft.ConsensusPayload[util.Uint256]) {
	p := cp.(*Payload)
	k, ok := s.dbft.Priv.(*keys.PrivateKey)
	if !ok {
		s.log.Error("no key to sign a consensus payload", zap.Stringer("type", p.Msg.Type))
		return
	}
	if !s.mayBroadcast(p) {
		return
	}
	p.Sign(k)
	if err := s.record(p); err != nil {
		s.log.Error("consensus message not sent: it cannot be recorded first", zap.Error(err))
		s.forget(p)
		return
	}
	e := p.Extensible
	s.cfg.Broadcast(&e)
}

// verifyRequest checks the proposal's header fields.
func (s *Service) verifyRequest(cp dbft.ConsensusPayload[util.Uint256]) error {
	req := cp.(*Payload).Msg.Body.(*PrepareRequest)
	if req.PrevHash != s.dbft.PrevHash {
		return fmt.Errorf("%w: %s", errPrevHash, req.PrevHash.String())
	}
	if req.Version != block.VersionInitial {
		return fmt.Errorf("%w: %d", errVersion, req.Version)
	}
	if s.cfg.Protocol.StateRootInHeader {
		root, err := s.prevStateRoot(s.dbft.BlockIndex)
		if err != nil {
			return err
		}
		if !req.StateRootEnabled || req.StateRoot != root {
			return fmt.Errorf("%w: proposed %s, local %s", errStateRoot, req.StateRoot.String(), root.String())
		}
	}
	if maxTxs := int(s.cfg.Protocol.MaxTransactionsPerBlock); maxTxs > 0 && len(req.Hashes) > maxTxs {
		return fmt.Errorf("%w: %d > %d", errTooManyTxs, len(req.Hashes), maxTxs)
	}
	limit := uint64(s.dbft.Timer.Now().Add(futureBlockTimes * s.cfg.TimePerBlock()).UnixMilli())
	if req.TimestampMS <= s.lastTimestamp || req.TimestampMS > limit {
		return fmt.Errorf("%w: %d not in (%d, %d]", errTimestamp, req.TimestampMS, s.lastTimestamp, limit)
	}
	return nil
}

// verifyBlock checks a complete proposal: limits, and every transaction
// not in the mempool verified against the current state (the pooled ones
// were verified on entry). Transactions of the block that conflict with
// each other are refused too.
func (s *Service) verifyBlock(b dbft.Block[util.Uint256]) bool {
	blk := &b.(*dbftBlock).b
	if s.cfg.Ledger.BlockHeight() >= blk.Index {
		s.log.Debug("proposal outdated", zap.Uint32("index", blk.Index))
		return false
	}
	p := &s.cfg.Protocol
	var size int
	var sysFee int64
	for _, tx := range blk.Transactions {
		size += tx.Size()
		sysFee += tx.SystemFee
	}
	if size = s.expectedBlockSize(len(blk.Transactions), size); p.MaxBlockSize > 0 && size > int(p.MaxBlockSize) {
		s.log.Warn("proposal exceeds MaxBlockSize", zap.Int("size", size))
		return false
	}
	if p.MaxBlockSystemFee > 0 && sysFee > p.MaxBlockSystemFee {
		s.log.Warn("proposal exceeds MaxBlockSystemFee", zap.Int64("fee", sysFee))
		return false
	}
	if h, err := s.checkTransactions(blk.Transactions); err != nil {
		s.rejected = []util.Uint256{h}
		s.log.Warn("proposal has an invalid transaction", zap.Stringer("hash", h), zap.Error(err))
		return false
	}
	return true
}

var errInBlockConflict = errors.New("consensus: transaction conflicts with another one of the proposal")

func (s *Service) checkTransactions(txs []*transaction.Transaction) (util.Uint256, error) {
	inBlock := make(map[util.Uint256]struct{}, len(txs))
	for _, tx := range txs {
		inBlock[tx.Hash()] = struct{}{}
	}
	for _, tx := range txs {
		h := tx.Hash()
		for _, a := range tx.GetAttributes(transaction.AttrConflicts) {
			if c, ok := a.Value.(*transaction.Conflicts); ok {
				if _, ok := inBlock[c.Hash]; ok {
					return h, fmt.Errorf("%w: %s", errInBlockConflict, c.Hash.String())
				}
			}
		}
		if _, ok := s.cfg.GetPooledTransaction(h); ok {
			continue
		}
		if err := s.cfg.VerifyTx(tx); err != nil {
			return h, err
		}
	}
	return util.Uint256{}, nil
}

// newBlockFromContext builds the proposed block's header.
func (s *Service) newBlockFromContext(c *dbft.Context[util.Uint256]) dbft.Block[util.Uint256] {
	b := &dbftBlock{magic: s.magic, guard: s.headerSignature}
	b.b.Version = block.VersionInitial
	b.b.PrevHash = c.PrevHash
	b.b.MerkleRoot = hash.MerkleRoot(c.TransactionHashes)
	b.b.Timestamp = c.Timestamp / nsPerMs
	b.b.Nonce = c.Nonce
	b.b.Index = c.BlockIndex
	b.b.PrimaryIndex = byte(c.PrimaryIndex)
	b.b.NextConsensus = s.nextConsensus(c.BlockIndex)
	if s.cfg.Protocol.StateRootInHeader {
		// The proposal's root was checked equal to ours (verifyRequest).
		root, err := s.prevStateRoot(c.BlockIndex)
		if err != nil {
			s.log.Error("no state root for the block", zap.Error(err))
		}
		b.b.StateRootEnabled, b.b.PrevStateRoot = true, root
	}
	return b
}

// nextConsensus is the BFT address of the validators of the block after
// index: recomputed from the votes at a committee refresh height.
func (s *Service) nextConsensus(index uint32) util.Uint160 {
	get := s.cfg.NextBlockValidators
	if s.cfg.Protocol.ShouldUpdateCommitteeAt(index) {
		get = s.cfg.ComputeNextBlockValidators
	}
	vals, err := get()
	if err != nil || len(vals) == 0 {
		s.log.Error("cannot get the validators of the next block, keeping the current ones", zap.Error(err))
		vals = s.validators
	}
	script, err := scripts.DefaultMultiSigContract(vals)
	if err != nil {
		s.log.Error("cannot make the BFT address", zap.Error(err))
		return util.Uint160{}
	}
	return scripts.ScriptHash(script)
}

// processBlock signs the agreed block with the commits' multisignature and
// hands it to the chain. It never fails: dBFT would stop the process.
func (s *Service) processBlock(b dbft.Block[util.Uint256]) error {
	blk := &b.(*dbftBlock).b
	w, err := s.blockWitness()
	if err != nil {
		s.log.Error("cannot make the block witness", zap.Error(err))
		return nil
	}
	blk.Witness = w
	blk.InvalidateCache()
	s.log.Info("block agreed", zap.Uint32("index", blk.Index), zap.Stringer("hash", blk.Hash()),
		zap.Int("txs", len(blk.Transactions)), zap.Uint8("view", s.dbft.ViewNumber))
	if err := s.cfg.ProcessBlock(blk); err != nil {
		s.log.Warn("the chain did not take the agreed block, it is handed to it again later",
			zap.Uint32("index", blk.Index), zap.Error(err))
		s.keepUnsaved(blk)
	}
	s.lastTimestamp = max(s.lastTimestamp, blk.Timestamp)
	return nil
}

// blockWitness pushes M commit signatures of the current view in the
// order of the sorted validator keys, as CheckMultisig wants them.
func (s *Service) blockWitness() (transaction.Witness, error) {
	n := len(s.dbft.Validators)
	vals := make(keys.PublicKeys, n)
	sigs := make(map[[keys.CompressedLen]byte][]byte, n)
	for i, v := range s.dbft.Validators {
		vals[i] = v.(*keys.PublicKey)
		if p := s.dbft.CommitPayloads[i]; p != nil && p.ViewNumber() == s.dbft.ViewNumber {
			sigs[vals[i].Compressed()] = p.GetCommit().Signature()
		}
	}
	m := s.dbft.M()
	script, err := scripts.MultiSigContract(m, vals)
	if err != nil {
		return transaction.Witness{}, err
	}
	sorted := vals.Copy()
	sorted.Sort()
	inv := make([]byte, 0, m*invocationSize)
	for _, k := range sorted {
		if sig, ok := sigs[k.Compressed()]; ok && len(inv) < m*invocationSize {
			inv = append(inv, opPUSHDATA1, SignatureSize)
			inv = append(inv, sig...)
		}
	}
	if len(inv) < m*invocationSize {
		return transaction.Witness{}, fmt.Errorf("consensus: %d commits of %d needed", len(inv)/invocationSize, m)
	}
	return transaction.Witness{InvocationScript: inv, VerificationScript: script}, nil
}
