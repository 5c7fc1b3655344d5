package consensus

import (
	"errors"
	"fmt"

	"github.com/nspcc-dev/dbft"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
)

// errBadSignature is the Verify error of a commit signature that does not
// match the header.
var errBadSignature = errors.New("consensus: header signature does not verify")

// dbftBlock is the proposed block as dBFT handles it: a block whose
// header is signed over magic ‖ hash.
type dbftBlock struct {
	b     block.Block
	magic uint32
	sig   []byte
	// guard, when set, is asked before Sign signs: an error refuses the
	// signature, a signature is used as it is (see headerSignature).
	guard func(*dbftBlock) ([]byte, error)
}

var (
	_ dbft.Block[util.Uint256]       = (*dbftBlock)(nil)
	_ dbft.Transaction[util.Uint256] = (*transaction.Transaction)(nil)
)

// Hash implements dbft.Block.
func (d *dbftBlock) Hash() util.Uint256 { return d.b.Hash() }

// PrevHash implements dbft.Block.
func (d *dbftBlock) PrevHash() util.Uint256 { return d.b.PrevHash }

// MerkleRoot implements dbft.Block.
func (d *dbftBlock) MerkleRoot() util.Uint256 { return d.b.MerkleRoot }

// Index implements dbft.Block.
func (d *dbftBlock) Index() uint32 { return d.b.Index }

// Signature implements dbft.Block.
func (d *dbftBlock) Signature() []byte { return d.sig }

// Sign implements dbft.Block.
func (d *dbftBlock) Sign(key dbft.PrivateKey) error {
	k, ok := key.(*keys.PrivateKey)
	if !ok || k == nil {
		return fmt.Errorf("%w: no signing key", ErrBadConfig)
	}
	if d.guard != nil {
		sig, err := d.guard(d)
		if err != nil {
			return err
		}
		if sig != nil {
			d.sig = sig
			return nil
		}
	}
	d.sig = k.Sign(d.b.SignData(d.magic))
	return nil
}

// Verify implements dbft.Block.
func (d *dbftBlock) Verify(key dbft.PublicKey, sig []byte) error {
	k, ok := key.(*keys.PublicKey)
	if !ok || !k.VerifyMessage(sig, d.b.SignData(d.magic)) {
		return errBadSignature
	}
	return nil
}

// Transactions implements dbft.Block.
func (d *dbftBlock) Transactions() []dbft.Transaction[util.Uint256] {
	txs := make([]dbft.Transaction[util.Uint256], len(d.b.Transactions))
	for i, tx := range d.b.Transactions {
		txs[i] = tx
	}
	return txs
}

// SetTransactions implements dbft.Block.
func (d *dbftBlock) SetTransactions(txs []dbft.Transaction[util.Uint256]) {
	d.b.Transactions = make([]*transaction.Transaction, len(txs))
	for i, tx := range txs {
		d.b.Transactions[i] = tx.(*transaction.Transaction)
	}
	d.b.InvalidateCache()
}
