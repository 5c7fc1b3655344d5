package native

import (
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/util"
)

// GAS is the GasToken native: a NEP-17 token with 8 decimals. The initial
// supply is minted at genesis to the standby validators' BFT address; in
// every OnPersist the fees of the block's transactions are burned from
// their senders and the network fees (minus the notary rewards) minted to
// the block's primary.
type GAS struct {
	token
	initialSupply int64
	bftAddress    util.Uint160
	// NEO gives the next block validators; Policy the attribute fees. Both
	// are set by NewGovernance.
	NEO    *NEO
	Policy *Policy
}

var _ Contract = (*GAS)(nil)

// newGAS builds GasToken for the configuration's initial supply and
// standby validators' address.
func newGAS(initialSupply int64, bft util.Uint160) *GAS {
	g := &GAS{initialSupply: initialSupply, bftAddress: bft}
	g.token = token{
		md:       NewContractMD(GasName, GasID, protocol.HFDefault),
		symbol:   "GAS",
		decimals: 8,
		decode: func(b []byte) (accountState, error) {
			return neostate.NEP17BalanceFromBytes(b)
		},
		empty: func() accountState { return new(neostate.NEP17Balance) },
	}
	g.md.Standards = func(protocol.Hardfork) []string { return []string{"NEP-17"} }
	g.addTokenMethods()
	g.md.Seal()
	return g
}

// Metadata implements Contract.
func (g *GAS) Metadata() *ContractMD { return g.md }

// Initialize implements Contract: the initial distribution at genesis.
func (g *GAS) Initialize(ic *interop.Context, hf protocol.Hardfork) error {
	if hf != g.md.ActiveIn {
		return nil
	}
	return g.Mint(ic, g.bftAddress, big.NewInt(g.initialSupply), false)
}

// OnPersist implements Contract: fees burned, network fees to the primary.
func (g *GAS) OnPersist(ic *interop.Context) error {
	b := ic.Block()
	if b == nil {
		return fmt.Errorf("%w: GAS OnPersist without a block", ErrInvalidArgument)
	}
	var netFee int64
	burned := new(big.Int)
	for _, tx := range b.Transactions {
		fee := big.NewInt(tx.SystemFee + tx.NetworkFee)
		if err := g.burn(ic, tx.Sender(), fee, false); err != nil {
			return err
		}
		burned.Add(burned, fee)
		netFee += tx.NetworkFee
		if attrs := tx.GetAttributes(transaction.AttrNotaryAssisted); len(attrs) > 0 {
			na, ok := attrs[0].Value.(*transaction.NotaryAssisted)
			if !ok {
				return fmt.Errorf("%w: NotaryAssisted attribute", ErrInvalidArgument)
			}
			fee, err := g.Policy.AttributeFee(ic.DAO(), transaction.AttrNotaryAssisted)
			if err != nil {
				return err
			}
			netFee -= (int64(na.NKeys) + 1) * fee
		}
	}
	if burned.Sign() != 0 {
		if err := g.addSupply(ic.DAO(), burned.Neg(burned)); err != nil {
			return err
		}
	}
	vals, err := g.NEO.NextBlockValidators(ic.DAO())
	if err != nil {
		return err
	}
	if int(b.PrimaryIndex) >= len(vals) {
		return fmt.Errorf("%w: primary index %d of %d validators", ErrInvalidArgument, b.PrimaryIndex, len(vals))
	}
	pk, err := keys.NewPublicKeyFromBytes(vals[b.PrimaryIndex])
	if err != nil {
		return fmt.Errorf("%w: validator key: %w", ErrInvalidState, err)
	}
	return g.Mint(ic, pk.ScriptHash(), big.NewInt(netFee), false)
}

// PostPersist implements Contract.
func (g *GAS) PostPersist(*interop.Context) error { return nil }
