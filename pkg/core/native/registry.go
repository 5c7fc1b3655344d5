package native

import (
	"github.com/n3d-io/n3d/pkg/config/netconfig"
)

// Core is the set of natives this package provides besides the tokens
// and services: ContractManagement, StdLib, CryptoLib, LedgerContract and
// PolicyContract, wired to each other. The chain builds the full registry
// in the reference's order:
//
//	NewRegistry(cfg, core.Management, core.Std, core.Crypto, core.Ledger,
//	    neo, gas, core.Policy, designate, oracle, notary, treasury)
//
// and sets Management.NEO and Policy.NEO (committee checks) and
// Ledger.Headers (block index → hash).
type Core struct {
	Management *Management
	Std        *Std
	Crypto     *Crypto
	Ledger     *Ledger
	Policy     *Policy
}

// NewCore builds the core natives for the protocol configuration cfg.
func NewCore(cfg *netconfig.ProtocolConfiguration) *Core {
	policy := NewPolicy(cfg)
	return &Core{
		Management: NewManagement(policy),
		Std:        NewStd(),
		Crypto:     NewCrypto(),
		Ledger:     NewLedger(policy, cfg.MaxTraceableBlocks),
		Policy:     policy,
	}
}

// Contracts returns the core natives in the reference's relative order.
func (c *Core) Contracts() []Contract {
	return []Contract{c.Management, c.Std, c.Crypto, c.Ledger, c.Policy}
}
