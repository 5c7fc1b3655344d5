package notary

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
)

// witnessKind is how a main transaction's witness is completed.
type witnessKind byte

const (
	kindSignature witnessKind = iota + 1 // one signature of one key
	kindMultiSig                         // m signatures of n keys
	kindContract                         // a contract account: nothing to collect
)

// sigPrefix is PUSHDATA1 64: every collected signature is pushed so.
var sigPrefix = []byte{0x0c, keys.SignatureLen}

// slot is what is collected for one witness of a main transaction.
type slot struct {
	kind witnessKind
	left int             // signatures still missing
	pubs keys.PublicKeys // the keys, in script order
	sigs map[int][]byte  // collected pushes by key index (multisig)
}

// parseSlots checks the shape of a main transaction's witnesses as neo-go
// does before collecting signatures: at least two signers, the Notary
// contract among them, contract witnesses with empty scripts, standard
// (multi)signature witnesses whose verification script hashes to the
// signer and whose invocation script is empty or one signature push, and
// as many keys in all as the NotaryAssisted attribute's NKeys.
func parseSlots(tx *transaction.Transaction, notary util.Uint160, nKeys uint8) ([]slot, error) {
	if len(tx.Signers) < 2 {
		return nil, errors.New("transaction should have at least 2 signers")
	}
	if !tx.HasSigner(notary) {
		return nil, errors.New("the Notary contract is not a signer")
	}
	if len(tx.Witnesses) != len(tx.Signers) {
		return nil, fmt.Errorf("%d witnesses for %d signers", len(tx.Witnesses), len(tx.Signers))
	}
	out := make([]slot, len(tx.Signers))
	total := 0
	for i, w := range tx.Witnesses {
		if len(w.VerificationScript) == 0 {
			if len(w.InvocationScript) != 0 {
				return nil, fmt.Errorf("witness #%d: a contract witness must have an empty invocation script", i)
			}
			out[i] = slot{kind: kindContract}
			continue
		}
		if tx.Signers[i].Account != w.ScriptHash() {
			return nil, fmt.Errorf("witness #%d: verification script does not hash to the signer", i)
		}
		if len(w.InvocationScript) != 0 &&
			(len(w.InvocationScript) != 2+keys.SignatureLen || !bytes.HasPrefix(w.InvocationScript, sigPrefix)) {
			return nil, fmt.Errorf("witness #%d: invocation script is not empty nor one signature push", i)
		}
		if m, pubs, ok := scripts.ParseMultiSigContract(w.VerificationScript); ok {
			out[i] = slot{kind: kindMultiSig, left: m, pubs: pubs, sigs: make(map[int][]byte)}
			total += len(pubs)
			continue
		}
		if kb, ok := scripts.ParseSignatureContract(w.VerificationScript); ok {
			pub, err := keys.NewPublicKeyFromBytes(kb)
			if err != nil {
				return nil, fmt.Errorf("witness #%d: %w", i, err)
			}
			out[i] = slot{kind: kindSignature, left: 1, pubs: keys.PublicKeys{pub}}
			total++
			continue
		}
		return nil, fmt.Errorf("witness #%d: only signature, multisignature and contract witnesses are supported", i)
	}
	if total != int(nKeys) {
		return nil, fmt.Errorf("NKeys is %d, the witnesses have %d keys", nKeys, total)
	}
	return out, nil
}

// add takes the signature push inv of witness i of main (digest: the
// SHA-256 of main's sign data) when it is a valid signature not collected
// yet; it reports whether the slot became complete, with the invocation
// script to put in the witness.
func (s *slot) add(inv, digest []byte) (complete bool, script []byte) {
	if s.left == 0 || len(inv) != 2+keys.SignatureLen {
		return false, nil
	}
	sig := inv[2:]
	switch s.kind {
	case kindSignature:
		if !s.pubs[0].Verify(sig, digest) {
			return false, nil
		}
		s.left = 0
		return true, inv
	case kindMultiSig:
		for j, pub := range s.pubs {
			if _, ok := s.sigs[j]; ok || !pub.Verify(sig, digest) {
				continue
			}
			s.sigs[j] = inv
			s.left--
			if s.left > 0 {
				return false, nil
			}
			var out []byte
			for k := range s.pubs { // in key order, as CheckMultisig walks them
				out = append(out, s.sigs[k]...)
			}
			return true, out
		}
	}
	return false, nil
}
