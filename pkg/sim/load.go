package sim

import (
	"context"
	"fmt"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// sent is one submitted transaction.
type sent struct {
	tx   *transaction.Transaction
	at   time.Time
	node int
}

// signer signs transfers from the validators' BFT multisig account.
type signer struct {
	verif []byte
	from  util.Uint160
	ks    []*keys.PrivateKey // the m signers in the contract's key order
	magic uint32
	gas   util.Uint160
}

func (w *world) newSigner() (*signer, error) {
	pubs := make(keys.PublicKeys, len(w.keys))
	for i, k := range w.keys {
		pubs[i] = k.PublicKey()
	}
	m := scripts.BFTThreshold(len(pubs))
	verif, err := scripts.MultiSigContract(m, pubs)
	if err != nil {
		return nil, fmt.Errorf("sim: multisig: %w", err)
	}
	_, ordered, ok := scripts.ParseMultiSigContract(verif)
	if !ok {
		return nil, fmt.Errorf("sim: multisig contract does not parse")
	}
	s := &signer{verif: verif, from: scripts.ScriptHash(verif)}
	for _, pub := range ordered[:m] {
		for _, k := range w.keys {
			if k.PublicKey().Equal(pub) {
				s.ks = append(s.ks, k)
			}
		}
	}
	w.mu.Lock() // a fault may restart node 0 meanwhile
	n0 := w.nodes[0].n
	w.mu.Unlock()
	s.magic = uint32(n0.Chain().Config().Magic)
	s.gas = n0.Natives().Governance.GAS.Metadata().Hash
	return s, nil
}

// transfer is a signed GAS transfer of amount to to, valid until vub.
func (s *signer) transfer(nonce uint32, to util.Uint160, amount int64, vub uint32) (*transaction.Transaction, error) {
	script, err := emit.NewBuilder().AppCall(s.gas, "transfer", byte(callflag.All), s.from, to, amount, nil).
		Opcodes(opcode.ASSERT).Script()
	if err != nil {
		return nil, fmt.Errorf("sim: transfer script: %w", err)
	}
	tx := &transaction.Transaction{Nonce: nonce, SystemFee: 1_0000_0000, NetworkFee: 1_0000_0000,
		ValidUntilBlock: vub, Script: script,
		Signers: []transaction.Signer{{Account: s.from, Scopes: transaction.CalledByEntry}}}
	data := tx.SignData(s.magic)
	var inv []byte
	for _, k := range s.ks {
		inv = append(inv, byte(opcode.PUSHDATA1), 64)
		inv = append(inv, k.Sign(data)...)
	}
	tx.Witnesses = []transaction.Witness{{InvocationScript: inv, VerificationScript: s.verif}}
	tx.InvalidateCache()
	return tx, nil
}

// load runs the faults (counted from now) and the submissions, and
// returns once both have ended.
func (w *world) load(ctx context.Context) ([]sent, int, error) {
	wait := w.runFaults(ctx, time.Now())
	acc, refused, err := w.submit(ctx)
	wait()
	return acc, refused, err
}

// submit submits transactions at the configured rate for the configured
// duration to the relay nodes (the validators if there are none; the next
// live node when the chosen one is down); it returns those the node
// accepted and the number refused.
func (w *world) submit(ctx context.Context) ([]sent, int, error) {
	if w.cfg.TxRate <= 0 {
		return nil, 0, nil
	}
	s, err := w.newSigner()
	if err != nil {
		return nil, 0, err
	}
	first := w.cfg.Validators
	if first == w.cfg.Nodes {
		first = 0
	}
	total := int(w.cfg.TxRate * w.cfg.Duration.Seconds())
	interval := time.Duration(float64(time.Second) / w.cfg.TxRate)
	start := time.Now()
	var (
		acc     []sent
		refused int
	)
	for i := range total {
		due := start.Add(time.Duration(i) * interval)
		if d := time.Until(due); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
				return acc, refused, ctx.Err()
			case <-t.C:
			}
		}
		target := first + w.rng.Intn(w.cfg.Nodes-first)
		var to util.Uint160
		w.rng.Read(to[:])
		n, target := w.liveNode(first, target)
		if n == nil {
			refused++
			continue
		}
		tx, err := s.transfer(uint32(w.cfg.Seed)*1_000_003+uint32(i), to, 1+int64(w.rng.Intn(1000)),
			n.Chain().BlockHeight()+100)
		if err != nil {
			return acc, refused, err
		}
		at := time.Now()
		if w.cfg.loseEvery > 0 && i%w.cfg.loseEvery == w.cfg.loseEvery-1 {
			acc = append(acc, sent{tx: tx, at: at, node: target})
			continue
		}
		if err := n.SubmitTx(ctx, tx); err != nil {
			refused++
			w.cfg.Log.Debug("tx refused")
			continue
		}
		acc = append(acc, sent{tx: tx, at: at, node: target})
	}
	return acc, refused, nil
}
