package interop

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// signData is what container witnesses sign: network magic (u32 LE) ‖
// container hash.
func (ic *Context) signData() ([]byte, error) {
	if ic.cfg.Container == nil {
		return nil, Fault(ErrNotAllowed, "unknown script container")
	}
	h := ic.cfg.Container.Hash()
	return append(binary.LittleEndian.AppendUint32(make([]byte, 0, 36), ic.cfg.Network), h[:]...), nil
}

// errSigLength is a signature that is not 64 bytes (Gorgon+).
var errSigLength = fmt.Errorf("%w: signature length", ErrInvalidArgument)

// signDigest is SHA-256 of the sign data, what container signatures sign.
func (ic *Context) signDigest() ([]byte, error) {
	msg, err := ic.signData()
	if err != nil {
		return nil, err
	}
	d := sha256.Sum256(msg)
	return d[:], nil
}

// verifySig is the reference Crypto.VerifySignature from Gorgon on (a
// signature that is not 64 bytes is an exception) or VerifySignatureV0
// before (it is false). A configured SigCache answers signatures that
// verified before.
func (ic *Context) verifySig(k *keys.PublicKey, sig, digest []byte, gorgon bool) (bool, error) {
	if len(sig) != keys.SignatureLen {
		if gorgon {
			return false, Faultf(errSigLength, "wrong signature length: expected %d, got %d", keys.SignatureLen, len(sig))
		}
		return false, nil
	}
	if c := ic.cfg.SigCache; c != nil {
		return c.Verify(k, sig, digest), nil
	}
	return k.Verify(sig, digest), nil
}

// checkSig is System.Crypto.CheckSig: the public key must decode (an
// exception otherwise, before and after Gorgon).
func checkSig(ic *Context) error {
	pub, err := ic.popBytes()
	if err != nil {
		return err
	}
	sig, err := ic.popBytes()
	if err != nil {
		return err
	}
	k, err := decodeKey(pub)
	if err != nil {
		return err
	}
	digest, err := ic.signDigest()
	if err != nil {
		return err
	}
	ok, err := ic.verifySig(k, sig, digest, ic.IsHardforkEnabled(protocol.HFGorgon))
	if err != nil {
		return err
	}
	ic.push(stackitem.Bool(ok))
	return nil
}

// checkMultisig is System.Crypto.CheckMultisig: signatures are matched to
// keys in order; keys are decoded only when the loop reaches them.
func checkMultisig(ic *Context) error {
	pubs, err := ic.popBytesArray()
	if err != nil {
		return err
	}
	sigs, err := ic.popBytesArray()
	if err != nil {
		return err
	}
	digest, err := ic.signDigest()
	if err != nil {
		return err
	}
	m, n := len(sigs), len(pubs)
	switch {
	case n == 0:
		return Fault(ErrInvalidArgument, "wrong key parameters: less than one element in the array")
	case m == 0:
		return Fault(ErrInvalidArgument, "wrong signature parameters: less than one element in the array")
	case m > n:
		return Fault(ErrInvalidArgument, "more signatures than there are keys")
	}
	if err := ic.chargeExec(CheckSigPrice * int64(n)); err != nil {
		return err
	}
	gorgon := ic.IsHardforkEnabled(protocol.HFGorgon)
	ok := true
	for i, j := 0, 0; i < m && j < n; {
		k, err := decodeKey(pubs[j])
		if err != nil {
			return err
		}
		valid, err := ic.verifySig(k, sigs[i], digest, gorgon)
		if err != nil {
			return Faultf(errSigLength, "wrong signature #%d length: expected %d, got %d", i, keys.SignatureLen, len(sigs[i]))
		}
		if valid {
			i++
		}
		j++
		if m-i > n-j {
			ok = false
			break
		}
	}
	ic.push(stackitem.Bool(ok))
	return nil
}
