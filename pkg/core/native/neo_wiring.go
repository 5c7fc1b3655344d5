package native

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/config/netconfig"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

// Governance holds the natives of this file family, wired to each other
// and to Policy: NeoToken, GasToken, RoleManagement, OracleContract, Notary
// and Treasury.
type Governance struct {
	NEO       *NEO
	GAS       *GAS
	Designate *Designate
	Oracle    *Oracle
	Notary    *Notary
	Treasury  *Treasury
}

// NewGovernance builds the governance natives for cfg and wires them with
// the core natives (Policy.NEO and Management.NEO are set to the NeoToken
// for committee checks).
func NewGovernance(cfg *netconfig.ProtocolConfiguration, core *Core) (*Governance, error) {
	policy := core.Policy
	ks, err := keys.NewPublicKeysFromStrings(cfg.StandbyCommittee)
	if err != nil {
		return nil, fmt.Errorf("%w: standby committee: %w", ErrInvalidArgument, err)
	}
	if len(ks) < cfg.CommitteeSize(0) || int(cfg.ValidatorsCountAt(0)) > len(ks) {
		return nil, fmt.Errorf("%w: %d standby keys for the committee and validators", ErrInvalidArgument, len(ks))
	}
	standby := make([][]byte, len(ks))
	for i, k := range ks {
		standby[i] = k.Bytes()
	}
	bft, err := standbyValidatorsAddress(standby, int(cfg.ValidatorsCountAt(0)))
	if err != nil {
		return nil, err
	}
	roles, err := genesisRoles(cfg.Genesis.Roles)
	if err != nil {
		return nil, err
	}
	g := &Governance{
		NEO:       newNEO(*cfg, standby),
		GAS:       newGAS(int64(cfg.InitialGASSupply), bft),
		Designate: newDesignate(roles),
		Oracle:    newOracle(),
		Notary:    newNotary(),
		Treasury:  newTreasury(),
	}
	g.NEO.GAS, g.NEO.Policy = g.GAS, policy
	g.GAS.NEO, g.GAS.Policy = g.NEO, policy
	g.Designate.NEO = g.NEO
	g.Oracle.GAS, g.Oracle.NEO, g.Oracle.Designate = g.GAS, g.NEO, g.Designate
	g.Notary.GAS, g.Notary.NEO, g.Notary.Policy, g.Notary.Designate = g.GAS, g.NEO, policy, g.Designate
	g.Treasury.NEO = g.NEO
	policy.NEO = g.NEO
	if core.Management != nil {
		core.Management.NEO = g.NEO
	}
	return g, nil
}

// Contracts returns every native, core ones included, in the reference's
// order (the argument list of NewRegistry).
func (g *Governance) Contracts(core *Core) []Contract {
	return []Contract{core.Management, core.Std, core.Crypto, core.Ledger, g.NEO, g.GAS, core.Policy,
		g.Designate, g.Oracle, g.Notary, g.Treasury}
}
