package chain

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

// NextBlockValidators returns the validators of the next block (NEO's
// getNextBlockValidators on the current state), in the contract's order.
// Safe for concurrent use: it reads a private view.
func (c *Chain) NextBlockValidators() (keys.PublicKeys, error) {
	n, err := c.ledgerNativeSet()
	if err != nil {
		return nil, err
	}
	d := c.view()
	raw, err := n.Governance.NEO.NextBlockValidators(d)
	if err = errors.Join(err, d.Discard()); err != nil {
		return nil, fmt.Errorf("next block validators: %w", err)
	}
	return publicKeys(raw)
}

// ComputeNextBlockValidators returns the validators the current votes
// elect for the block after the current height (NEO's
// ComputeNextBlockValidators): at a committee refresh height they give a
// proposal's NextConsensus. Safe for concurrent use.
func (c *Chain) ComputeNextBlockValidators() (keys.PublicKeys, error) {
	n, err := c.ledgerNativeSet()
	if err != nil {
		return nil, err
	}
	d := c.view()
	raw, err := n.Governance.NEO.ComputeNextBlockValidators(d, c.BlockHeight()+1)
	if err = errors.Join(err, d.Discard()); err != nil {
		return nil, fmt.Errorf("elected validators: %w", err)
	}
	return publicKeys(raw)
}

// publicKeys decodes compressed public keys.
func publicKeys(raw [][]byte) (keys.PublicKeys, error) {
	out := make(keys.PublicKeys, len(raw))
	for i, b := range raw {
		k, err := keys.NewPublicKeyFromBytes(b)
		if err != nil {
			return nil, fmt.Errorf("validator key %d: %w", i, err)
		}
		out[i] = k
	}
	return out, nil
}
