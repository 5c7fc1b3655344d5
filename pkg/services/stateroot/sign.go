package stateroot

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
)

// opPushData1 is PUSHDATA1: an invocation script pushes each signature
// with it.
const opPushData1 = 0x0C

// RootSignData is what a state validator signs for a root: magic (u32 LE)
// ‖ SHA-256(version ‖ index ‖ root).
func RootSignData(magic uint32, sr *chain.StateRoot) []byte {
	w := io.NewBufBinWriter()
	sr.EncodeUnsigned(w.BinWriter)
	h := sha256.Sum256(w.Bytes())
	return append(binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(h)), magic), h[:]...)
}

// pushSignatures is an invocation script pushing sigs in order.
func pushSignatures(sigs ...[]byte) []byte {
	out := make([]byte, 0, len(sigs)*(2+SignatureLen))
	for _, s := range sigs {
		out = append(out, opPushData1, byte(len(s)))
		out = append(out, s...)
	}
	return out
}

// parseSignatures reads an invocation script made of PUSHDATA1 pushes of
// 64-byte signatures only.
func parseSignatures(inv []byte) ([][]byte, bool) {
	var sigs [][]byte
	for len(inv) != 0 {
		if len(inv) < 2+SignatureLen || inv[0] != opPushData1 || inv[1] != SignatureLen {
			return nil, false
		}
		sigs = append(sigs, inv[2:2+SignatureLen])
		inv = inv[2+SignatureLen:]
	}
	return sigs, len(sigs) != 0
}

// newExtensible builds a StateService payload from key's standard account,
// valid for [start, end), and signs it.
func newExtensible(magic uint32, key *keys.PrivateKey, start, end uint32, m *Message) (*payload.Extensible, error) {
	data, err := m.Bytes()
	if err != nil {
		return nil, err
	}
	e := &payload.Extensible{
		Category:        Category,
		ValidBlockStart: start,
		ValidBlockEnd:   end,
		Sender:          key.ScriptHash(),
		Data:            data,
	}
	e.Witness = transaction.Witness{
		InvocationScript:   pushSignatures(key.Sign(e.SignData(magic))),
		VerificationScript: key.PublicKey().VerificationScript(),
	}
	return e, nil
}

// senderKey returns the key among svs whose standard account is e's
// sender, after checking e's witness is that key's signature.
func senderKey(magic uint32, e *payload.Extensible, svs keys.PublicKeys) (*keys.PublicKey, error) {
	for _, pub := range svs {
		if pub.ScriptHash() != e.Sender {
			continue
		}
		if !bytes.Equal(e.Witness.VerificationScript, pub.VerificationScript()) {
			return nil, fmt.Errorf("%w: verification script is not the sender's", ErrInvalidPayload)
		}
		sigs, ok := parseSignatures(e.Witness.InvocationScript)
		if !ok || len(sigs) != 1 || !pub.VerifyMessage(sigs[0], e.SignData(magic)) {
			return nil, fmt.Errorf("%w: bad signature of %s", ErrInvalidPayload, e.Sender.String())
		}
		return pub, nil
	}
	return nil, fmt.Errorf("%w: sender %s is not a state validator", ErrInvalidPayload, e.Sender.String())
}

// rootWitness is the multisignature witness of svs (sorted) for sigs, the
// first m valid signatures in key order.
func rootWitness(svs keys.PublicKeys, sigs [][]byte) (transaction.Witness, error) {
	verif, err := scripts.DefaultMultiSigContract(svs)
	if err != nil {
		return transaction.Witness{}, err
	}
	return transaction.Witness{InvocationScript: pushSignatures(sigs...), VerificationScript: verif}, nil
}

// verifyRoot checks a validated root's witness against the state
// validators designated for its block, as the reference's VM run of the
// multisig verification script decides it: the script must be their
// default multisig script and the invocation push exactly m signatures
// that CheckMultisig accepts.
func verifyRoot(magic uint32, sr *chain.StateRoot, svs keys.PublicKeys) error {
	if len(sr.Witnesses) != 1 {
		return fmt.Errorf("%w: state root %d has %d witnesses", ErrInvalidPayload, sr.Index, len(sr.Witnesses))
	}
	if len(svs) == 0 {
		return fmt.Errorf("%w: no state validators at %d", ErrInvalidPayload, sr.Index)
	}
	w := &sr.Witnesses[0]
	sorted := svs.Copy()
	sorted.Sort()
	verif, err := scripts.DefaultMultiSigContract(sorted)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidPayload, err)
	}
	if !bytes.Equal(w.VerificationScript, verif) {
		return fmt.Errorf("%w: state root %d: not the state validators' script", ErrInvalidPayload, sr.Index)
	}
	sigs, ok := parseSignatures(w.InvocationScript)
	if !ok || len(sigs) != scripts.BFTThreshold(len(sorted)) {
		return fmt.Errorf("%w: state root %d: malformed invocation script", ErrInvalidPayload, sr.Index)
	}
	digest := sha256.Sum256(RootSignData(magic, sr))
	if ok, err := scripts.VerifyMultiSig(digest[:], sorted, sigs); err != nil || !ok {
		return fmt.Errorf("%w: state root %d: signatures do not verify", ErrInvalidPayload, sr.Index)
	}
	return nil
}
