package interop

import (
	"encoding/binary"
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// signData is what container witnesses sign: network magic (u32 LE) ‖
// container hash.
func (ic *Context) signData() ([]byte, error) {
	if ic.cfg.Container == nil {
		return nil, fmt.Errorf("%w: no script container", ErrNotAllowed)
	}
	h := ic.cfg.Container.Hash()
	return append(binary.LittleEndian.AppendUint32(make([]byte, 0, 36), ic.cfg.Network), h[:]...), nil
}

func verify(k *keys.PublicKey, sig, msg []byte) bool {
	return len(sig) == 64 && k.VerifyMessage(sig, msg)
}

func checkSig(ic *Context) error {
	pub, err := ic.popBytes()
	if err != nil {
		return err
	}
	sig, err := ic.popBytes()
	if err != nil {
		return err
	}
	msg, err := ic.signData()
	if err != nil {
		return err
	}
	k, err := decodeKey(pub)
	if err != nil {
		return err
	}
	ic.push(stackitem.Bool(verify(k, sig, msg)))
	return nil
}

func checkMultisig(ic *Context) error {
	pubs, err := ic.popBytesArray()
	if err != nil {
		return err
	}
	sigs, err := ic.popBytesArray()
	if err != nil {
		return err
	}
	msg, err := ic.signData()
	if err != nil {
		return err
	}
	m, n := len(sigs), len(pubs)
	switch {
	case n == 0:
		return fmt.Errorf("%w: no public keys", ErrInvalidArgument)
	case m == 0:
		return fmt.Errorf("%w: no signatures", ErrInvalidArgument)
	case m > n:
		return fmt.Errorf("%w: %d signatures for %d keys", ErrInvalidArgument, m, n)
	}
	if err := ic.chargeExec(CheckSigPrice * int64(n)); err != nil {
		return err
	}
	ok := true
	for i, j := 0, 0; i < m && j < n; {
		k, err := decodeKey(pubs[j])
		if err != nil {
			return err
		}
		if verify(k, sigs[i], msg) {
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
