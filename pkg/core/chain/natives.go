package chain

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/vm"
)

// NativeSet is the native contract set of pkg/core/native as the chain
// uses it: the registry the interop layer runs, plus Policy values.
type NativeSet struct {
	*native.Registry
	Core       *native.Core
	Governance *native.Governance
}

var _ Natives = (*NativeSet)(nil)

// NewNativeSet builds every native of the network in the reference's
// order.
func NewNativeSet(p *config.ProtocolConfiguration) (*NativeSet, error) {
	core := native.NewCore(p)
	gov, err := native.NewGovernance(p, core)
	if err != nil {
		return nil, fmt.Errorf("chain: natives: %w", err)
	}
	return &NativeSet{Registry: native.NewRegistry(p, gov.Contracts(core)...), Core: core, Governance: gov}, nil
}

// ExecFeeFactor implements Natives: the Policy value (its default before
// Policy is initialised) in picoGAS.
func (n *NativeSet) ExecFeeFactor(d *dao.DAO) (int64, error) {
	f, err := n.Core.Policy.ExecFeeFactor(d)
	if err != nil {
		return 0, err
	}
	if f == 0 {
		f = native.DefaultExecFeeFactor
	}
	return f * vm.FeeFactor, nil
}

// StoragePrice implements Natives (the default before Policy is
// initialised).
func (n *NativeSet) StoragePrice(d *dao.DAO) (int64, error) {
	p, err := n.Core.Policy.StoragePrice(d)
	if err != nil {
		return 0, err
	}
	if p == 0 {
		p = native.DefaultStoragePrice
	}
	return p, nil
}

// useHeaders lets the Ledger contract resolve block indexes through the
// chain.
func (n *NativeSet) useHeaders(h native.HeaderHashes) { n.Core.Ledger.Headers = h }

// headerUser is implemented by native sets that need the chain's header
// index.
type headerUser interface {
	useHeaders(native.HeaderHashes)
}
