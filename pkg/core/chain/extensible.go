package chain

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
)

// ExtensibleSenders returns, sorted, the accounts allowed to send
// extensible payloads of any category at the current height (neo-go's
// extensible whitelist): the committee's address, the BFT multisig
// address of the next block's validators and each of their standard
// accounts, and, when state validators are designated for the current
// height, each of their standard accounts and the BFT multisig address of
// the latest StateValidator designation. Each service then applies the
// rule of its own category. Safe for concurrent use: it reads a private
// view.
func (c *Chain) ExtensibleSenders() ([]util.Uint160, error) {
	n, err := c.ledgerNativeSet()
	if err != nil {
		return nil, err
	}
	height := c.BlockHeight()
	d := c.view()
	out, err := extensibleSenders(n, d, height)
	if err = errors.Join(err, d.Discard()); err != nil {
		return nil, fmt.Errorf("chain: extensible senders: %w", err)
	}
	slices.SortFunc(out, util.Uint160.Compare)
	return slices.Compact(out), nil
}

func extensibleSenders(n *NativeSet, d *dao.DAO, height uint32) ([]util.Uint160, error) {
	committee, err := n.Governance.NEO.CommitteeAddress(d)
	if err != nil {
		return nil, fmt.Errorf("committee: %w", err)
	}
	rawVals, err := n.Governance.NEO.NextBlockValidators(d)
	if err != nil {
		return nil, fmt.Errorf("next validators: %w", err)
	}
	vals, err := publicKeys(rawVals)
	if err != nil {
		return nil, err
	}
	out := []util.Uint160{committee}
	if out, err = appendBFTSet(out, vals, vals); err != nil {
		return nil, err
	}
	svs, err := designated(n, d, height)
	if err != nil || len(svs) == 0 {
		return out, err
	}
	// As the reference: the accounts of the set in force at the height,
	// the multisig of the latest designation (it may take effect later).
	latest, err := designated(n, d, math.MaxUint32)
	if err != nil {
		return nil, err
	}
	return appendBFTSet(out, svs, latest)
}

// appendBFTSet appends the standard account of every key of accs and the
// BFT multisig address of multi.
func appendBFTSet(out []util.Uint160, accs, multi keys.PublicKeys) ([]util.Uint160, error) {
	for _, k := range accs {
		out = append(out, k.ScriptHash())
	}
	if len(multi) == 0 {
		return out, nil
	}
	script, err := scripts.DefaultMultiSigContract(multi)
	if err != nil {
		return nil, err
	}
	return append(out, scripts.ScriptHash(script)), nil
}

// designated returns the state validators designated for block index.
func designated(n *NativeSet, d *dao.DAO, index uint32) (keys.PublicKeys, error) {
	raw, err := n.Governance.Designate.DesignatedByRole(d, native.RoleStateValidator, index)
	if err != nil {
		return nil, fmt.Errorf("state validators: %w", err)
	}
	out := make(keys.PublicKeys, len(raw))
	for i, b := range raw {
		if out[i], err = keys.NewPublicKeyFromBytes(b); err != nil {
			return nil, fmt.Errorf("state validator %d: %w", i, err)
		}
	}
	return out, nil
}
