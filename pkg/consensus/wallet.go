package consensus

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/wallet"
)

// ErrNoConsensusKey means no account of the wallet could be unlocked.
var ErrNoConsensusKey = errors.New("consensus: no key could be unlocked in the wallet")

// KeysFromWallet decrypts the single-signature accounts of a NEP-6 wallet
// with password and returns their keys, for Config.Keys. Locked accounts,
// accounts without a key and multisignature accounts (which hold a copy
// of a member's key) are skipped; each distinct encrypted key is
// decrypted once. It fails when no key could be decrypted.
func KeysFromWallet(w *wallet.Wallet, password string) ([]*keys.PrivateKey, error) {
	var (
		out  []*keys.PrivateKey
		errs []error
		seen = map[string]bool{}
	)
	for _, a := range w.Accounts {
		if a.Locked || !a.HasKey() || seen[*a.Key] {
			continue
		}
		if a.Contract != nil && len(a.Contract.Script) != 0 && !scripts.IsSignatureContract(a.Contract.Script) {
			continue
		}
		seen[*a.Key] = true
		if err := a.Decrypt(password, w.Scrypt); err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, a.PrivateKey())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %w", ErrNoConsensusKey, errors.Join(errs...))
	}
	return out, nil
}
