package oracle

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
)

// process handles one unit of work: a new request is fetched, answered
// and signed; a retry falls back to the backup transaction.
func (s *Service) process(ctx context.Context, r request) error {
	var p chain.OracleParams
	if r.params != nil {
		p = *r.params
	} else {
		var err error
		if p, err = s.cfg.Ledger.OracleParams(); err != nil {
			return fmt.Errorf("oracle: chain values: %w", err)
		}
	}
	key := s.ourKey(p.OracleNodes)
	if key == nil {
		s.log.Debug("not a designated oracle node, request skipped", zap.Uint64("request", r.ID))
		return nil
	}
	if r.Req == nil {
		s.retry(key, r.ID)
		return nil
	}
	t := s.response(r.ID, true)
	if t == nil {
		return nil // expired at the last pass
	}
	acc, err := newOracleAccount(p.OracleNodes)
	if err != nil {
		return err
	}
	start := time.Now()
	resp, served := s.fetch(ctx, r.ID, r.Req)
	if ctx.Err() != nil {
		return nil // stopping: an interrupted fetch is not an answer
	}
	if served && r.params != nil {
		// The reference builds the response after the fetch: one that
		// waited for a server sees the request's block stored and its
		// transaction out of the pool.
		r.params, r.pooled = nil, false
		if p, err = s.cfg.Ledger.OracleParams(); err != nil {
			return fmt.Errorf("oracle: chain values: %w", err)
		}
		if acc, err = newOracleAccount(p.OracleNodes); err != nil {
			return err
		}
		if key = s.ourKey(p.OracleNodes); key == nil {
			return nil
		}
	}
	s.metrics.fetch.Observe(time.Since(start).Seconds())
	s.metrics.requests.WithLabelValues(resp.Code.String()).Inc()
	s.log.Info("oracle request answered", zap.Uint64("request", r.ID), zap.String("url", r.Req.URL),
		zap.Stringer("code", resp.Code), zap.Int("result", len(resp.Result)))

	tx, backup, err := s.responseTxs(p, acc, r, resp)
	if err != nil {
		return err
	}
	txSig := key.Sign(tx.SignData(s.cfg.Magic))
	backupSig := key.Sign(backup.SignData(s.cfg.Magic))

	t.mu.Lock()
	t.mu.request = r.Req
	t.setTxsLocked(s.cfg.Magic, acc, tx, backup)
	t.addSigLocked(key.PublicKey(), txSig, false)
	t.addSigLocked(key.PublicKey(), backupSig, true)
	ready, isBackup, ok := t.readyLocked(false)
	t.mu.last = s.cfg.Now()
	t.mu.attempts++
	t.mu.Unlock()

	s.broadcast(key, r.ID, txSig)
	if ok {
		s.relay(ready, isBackup)
	}
	return nil
}

// responseTxs builds the main response transaction (valid until the
// request's block + MaxValidUntilBlockIncrement) and the backup one
// (ConsensusUnreachable, valid until the first such step past the
// current height), as the reference does.
func (s *Service) responseTxs(p chain.OracleParams, acc *oracleAccount, r request,
	resp *transaction.OracleResponse) (*transaction.Transaction, *transaction.Transaction, error) {
	h, err := s.requestHeight(r.Req.OriginalTxID, p.Height, r.pooled)
	if err != nil {
		return nil, nil, err
	}
	inc := p.MaxValidUntilBlockIncrement
	vub := h + inc // wraps for a pooled transaction, as in the reference
	tx, err := s.buildResponseTx(p, acc, r.Req.GasForResponse, vub, resp)
	if err != nil {
		return nil, nil, err
	}
	for inc > 0 && vub <= p.Height {
		vub += inc
	}
	backup, err := s.buildResponseTx(p, acc, r.Req.GasForResponse, vub,
		&transaction.OracleResponse{ID: r.ID, Code: transaction.OracleConsensusUnreachable})
	if err != nil {
		return nil, nil, err
	}
	return tx, backup, nil
}

// requestHeight is the height neo-go takes for the request's transaction:
// 2^32-1 while it is pooled, its block's once stored, the current height
// when it is neither (its block is being stored).
func (s *Service) requestHeight(h util.Uint256, current uint32, pooled bool) (uint32, error) {
	if pooled || (s.cfg.PooledTx != nil && s.cfg.PooledTx(h)) {
		return math.MaxUint32, nil
	}
	_, height, err := s.cfg.Ledger.GetTransaction(h)
	if err != nil {
		if !errors.Is(err, chain.ErrNotFound) {
			return 0, fmt.Errorf("oracle: request transaction: %w", err)
		}
		return current, nil
	}
	return height, nil
}

// retry is the refresh pass's second try of request id: a relayed
// transaction is relayed again, else the node sends its backup signature
// again and relays the backup transaction if it is complete.
func (s *Service) retry(key *keys.PrivateKey, id uint64) {
	t := s.response(id, false)
	if t == nil {
		return // finished meanwhile
	}
	t.mu.Lock()
	if t.mu.sent {
		tx := t.mu.relayed
		t.mu.Unlock()
		s.relay(tx, false)
		return
	}
	ready, _, ok := t.readyLocked(true)
	t.mu.last = s.cfg.Now()
	t.mu.attempts++
	var sig []byte
	if own := t.mu.backupSigs[string(key.PublicKey().Bytes())]; own != nil {
		sig = own.sig
	}
	t.mu.Unlock()
	s.log.Info("oracle request retried with the backup response", zap.Uint64("request", id))
	if sig != nil {
		s.broadcast(key, id, sig)
	}
	if ok {
		s.relay(ready, true)
	}
}

// broadcast sends this node's signature of request id to the others.
func (s *Service) broadcast(key *keys.PrivateKey, id uint64, txSig []byte) {
	pub := key.PublicKey()
	s.cfg.Broadcast(Response{PublicKey: pub, RequestID: id, TxSignature: txSig,
		MsgSignature: key.Sign(ResponseMessage(pub, id, txSig))})
}

// AddResponse records another oracle node's signature of the response to
// request reqID (submitoracleresponse, after its message signature was
// checked with VerifyResponse). A signature that matches neither
// transaction is dropped; one that completes a transaction relays it.
func (s *Service) AddResponse(pub *keys.PublicKey, reqID uint64, txSig []byte) {
	t := s.response(reqID, true)
	if t == nil {
		return
	}
	t.mu.Lock()
	backup := false
	if t.mu.tx != nil {
		switch {
		case pub.VerifyMessage(txSig, t.mu.tx.SignData(s.cfg.Magic)):
		case pub.VerifyMessage(txSig, t.mu.backupTx.SignData(s.cfg.Magic)):
			backup = true
		default:
			t.mu.Unlock()
			s.metrics.signatures.WithLabelValues("invalid").Inc()
			s.log.Debug("invalid oracle response signature", zap.Uint64("request", reqID), zap.Stringer("key", pub))
			return
		}
	}
	t.addSigLocked(pub, txSig, backup)
	ready, isBackup, ok := t.readyLocked(false)
	t.mu.Unlock()
	s.metrics.signatures.WithLabelValues("accepted").Inc()
	if ok {
		s.relay(ready, isBackup)
	}
}
