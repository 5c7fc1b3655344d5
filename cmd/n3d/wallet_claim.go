package main

import (
	"context"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/urfave/cli/v3"
)

func claimCommand(act actionMaker) *cli.Command {
	return &cli.Command{
		Name:      "claim",
		Usage:     "Claim GAS",
		UsageText: "n3d wallet claim -w wallet [--wallet-config path] [-g gas] [-e sysgas] -a address -r endpoint [-s timeout] [--out file] [--force] [--await]",
		Description: "Claims the GAS the NEO of the account generated, with a NEO transfer of 0\n" +
			"from the account to itself.",
		Flags: append(append(walletFlags(true, addressFlag("Address to claim GAS for", true)), txFlags()...),
			rpcFlags(true)...),
		Action: act(claimGas, false),
	}
}

// claimGas sends 0 NEO from the account to itself, which pays out its
// unclaimed GAS.
func claimGas(ctx context.Context, c *walletCtx) error {
	return neoAction(ctx, c, transaction.CalledByEntry, func(_ *rpcSession, h util.Uint160, _ *keys.PublicKey) ([]byte, txbuild.Fees, error) {
		sc, err := txbuild.TransferScript([]txbuild.Transfer{{Token: txbuild.NeoHash, From: h, To: h, Amount: new(big.Int)}})
		return sc, txbuild.Fees{}, err
	})
}
