package chain

import (
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
)

// NativeSet is the native contract set of pkg/core/native as the chain
// uses it: the registry the interop layer runs, plus Policy values.
type NativeSet struct {
	*native.Registry
	Core       *native.Core
	Governance *native.Governance
}

var (
	_ Natives        = (*NativeSet)(nil)
	_ interop.Policy = (*NativeSet)(nil)
)

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

// ExecFeeFactor implements Natives through Policy's per-run factor.
func (n *NativeSet) ExecFeeFactor(d *dao.DAO, index uint32, trig trigger.Type) (int64, error) {
	return n.Core.Policy.ExecPicoFeeFactor(d, index, trig)
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

// ledgerNatives is what transaction and witness verification read from the
// native contracts beyond Natives; NativeSet implements it. Every getter
// reads the state of d.
type ledgerNatives interface {
	// StoredExecFeeFactor is Policy's stored exec fee factor (datoshi
	// units before Faun's initialisation, picoGAS after).
	StoredExecFeeFactor(d *dao.DAO) (int64, error)
	FeePerByte(d *dao.DAO) (int64, error)
	AttributeFee(d *dao.DAO, t transaction.AttrType) (int64, error)
	IsBlocked(d *dao.DAO, h util.Uint160) (bool, error)
	// MaxValidUntilBlockIncrement and MaxTraceableBlocks are the Policy
	// values (meaningful from Echidna on).
	MaxValidUntilBlockIncrement(d *dao.DAO) (uint32, error)
	MaxTraceableBlocks(d *dao.DAO) (uint32, error)
	CommitteeAddress(d *dao.DAO) (util.Uint160, error)
	GASBalance(d *dao.DAO, h util.Uint160) (*big.Int, error)
	// OracleRequest returns request id, nil when there is none.
	OracleRequest(d *dao.DAO, id uint64) (*neostate.OracleRequest, error)
	// OracleNodes are the nodes designated for the Oracle role at index.
	OracleNodes(d *dao.DAO, index uint32) (keys.PublicKeys, error)
}

var _ ledgerNatives = (*NativeSet)(nil)

// StoredExecFeeFactor implements ledgerNatives.
func (n *NativeSet) StoredExecFeeFactor(d *dao.DAO) (int64, error) {
	return n.Core.Policy.ExecFeeFactor(d)
}

// FeePerByte implements ledgerNatives.
func (n *NativeSet) FeePerByte(d *dao.DAO) (int64, error) { return n.Core.Policy.FeePerByte(d) }

// AttributeFee implements ledgerNatives.
func (n *NativeSet) AttributeFee(d *dao.DAO, t transaction.AttrType) (int64, error) {
	return n.Core.Policy.AttributeFee(d, t)
}

// IsBlocked implements ledgerNatives.
func (n *NativeSet) IsBlocked(d *dao.DAO, h util.Uint160) (bool, error) {
	return n.Core.Policy.IsBlocked(d, h)
}

// MaxValidUntilBlockIncrement implements ledgerNatives.
func (n *NativeSet) MaxValidUntilBlockIncrement(d *dao.DAO) (uint32, error) {
	return n.Core.Policy.MaxValidUntilBlockIncrement(d)
}

// MaxTraceableBlocks implements ledgerNatives.
func (n *NativeSet) MaxTraceableBlocks(d *dao.DAO) (uint32, error) {
	return n.Core.Policy.MaxTraceableBlocks(d)
}

// CommitteeAddress implements ledgerNatives.
func (n *NativeSet) CommitteeAddress(d *dao.DAO) (util.Uint160, error) {
	return n.Governance.NEO.CommitteeAddress(d)
}

// GASBalance implements ledgerNatives.
func (n *NativeSet) GASBalance(d *dao.DAO, h util.Uint160) (*big.Int, error) {
	return n.Governance.GAS.BalanceOf(d, h)
}

// OracleRequest implements ledgerNatives.
func (n *NativeSet) OracleRequest(d *dao.DAO, id uint64) (*neostate.OracleRequest, error) {
	return n.Governance.Oracle.Request(d, id)
}

// OracleNodes implements ledgerNatives.
func (n *NativeSet) OracleNodes(d *dao.DAO, index uint32) (keys.PublicKeys, error) {
	l, err := n.Governance.Designate.DesignatedByRole(d, native.RoleOracle, index)
	if err != nil {
		return nil, err
	}
	out := make(keys.PublicKeys, len(l))
	for i, b := range l {
		if out[i], err = keys.NewPublicKeyFromBytes(b); err != nil {
			return nil, fmt.Errorf("chain: oracle node %d: %w", i, err)
		}
	}
	return out, nil
}
