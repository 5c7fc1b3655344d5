package scripts

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

// VerifyMultiSig checks m signatures against n keys exactly as the
// reference's System.Crypto.CheckMultisig does: signatures must appear in
// the order of their keys, each key is tried at most once, and the check
// stops as soon as the remaining keys cannot cover the remaining
// signatures. Empty lists or more signatures than keys are an error (the
// reference throws, which FAULTs the VM).
func VerifyMultiSig(digest []byte, pubs keys.PublicKeys, sigs [][]byte) (bool, error) {
	m, n := len(sigs), len(pubs)
	if n == 0 || m == 0 || m > n {
		return false, fmt.Errorf("%w: %d signatures for %d keys", ErrMultisigParams, m, n)
	}
	for i, j := 0, 0; i < m && j < n; {
		if pubs[j].Verify(sigs[i], digest) {
			i++
		}
		j++
		if m-i > n-j {
			return false, nil
		}
	}
	return true, nil
}
