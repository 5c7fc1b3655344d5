package oracle

import (
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

// txSig is one node's signature of a response transaction.
type txSig struct {
	pub *keys.PublicKey
	sig []byte
	// ok is set once sig was checked against the transaction (a signature
	// that arrived before this node built it waits unchecked).
	ok bool
}

// incompleteTx is the state of one request: its main and backup response
// transactions and the signatures collected for each.
type incompleteTx struct {
	mu struct {
		sync.Mutex
		sent       bool                     // a completed transaction was relayed
		relayed    *transaction.Transaction // that transaction
		attempts   int                      // times the request was processed
		last       time.Time
		request    *neostate.OracleRequest
		acc        *oracleAccount
		tx         *transaction.Transaction
		backupTx   *transaction.Transaction
		sigs       map[string]*txSig
		backupSigs map[string]*txSig
	}
}

func newIncompleteTx() *incompleteTx {
	t := &incompleteTx{}
	t.mu.sigs = make(map[string]*txSig)
	t.mu.backupSigs = make(map[string]*txSig)
	return t
}

// setTxsLocked installs freshly built transactions and checks the
// signatures that arrived before them: one matching the backup
// transaction moves there.
func (t *incompleteTx) setTxsLocked(magic uint32, acc *oracleAccount, tx, backup *transaction.Transaction) {
	t.mu.acc, t.mu.tx, t.mu.backupTx = acc, tx, backup
	data, backupData := tx.SignData(magic), backup.SignData(magic)
	for k, s := range t.mu.sigs {
		if s.ok {
			continue
		}
		switch {
		case s.pub.VerifyMessage(s.sig, data):
			s.ok = true
		case s.pub.VerifyMessage(s.sig, backupData):
			t.mu.backupSigs[k] = &txSig{pub: s.pub, sig: s.sig, ok: true}
			delete(t.mu.sigs, k)
		}
	}
}

// addSigLocked records pub's signature of the main or backup transaction;
// it counts as checked when that transaction exists (the caller checked
// it).
func (t *incompleteTx) addSigLocked(pub *keys.PublicKey, sig []byte, backup bool) {
	tx, sigs := t.mu.tx, t.mu.sigs
	if backup {
		tx, sigs = t.mu.backupTx, t.mu.backupSigs
	}
	sigs[string(pub.Bytes())] = &txSig{pub: pub, sig: sig, ok: tx != nil}
}

// readyLocked returns the completed main transaction, else the completed
// backup one (only the backup with backupOnly) and whether it is the
// backup, once: after a transaction was returned, it returns false.
func (t *incompleteTx) readyLocked(backupOnly bool) (*transaction.Transaction, bool, bool) {
	var out *transaction.Transaction
	ok, backup := false, false
	if !backupOnly {
		out, ok = finalize(t.mu.acc, t.mu.tx, t.mu.sigs)
	}
	if !ok {
		out, ok = finalize(t.mu.acc, t.mu.backupTx, t.mu.backupSigs)
		backup = true
	}
	if !ok || t.mu.sent {
		return nil, false, false
	}
	t.mu.sent, t.mu.relayed = true, out
	return out, backup, true
}
