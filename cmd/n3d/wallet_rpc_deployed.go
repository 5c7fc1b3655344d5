package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/urfave/cli/v3"
)

func importDeployedCommand(act actionMaker) *cli.Command {
	return &cli.Command{
		Name:      "import-deployed",
		Usage:     "Import deployed contract",
		UsageText: "n3d wallet import-deployed -w wallet [--wallet-config path] --wif <wif> --contract <hash> --rpc-endpoint <endpoint> [-s <timeout>] [--name <account_name>]",
		Flags: append(walletFlags(true, wifFlag(), nameFlag(),
			&cli.StringFlag{Name: "contract", Aliases: []string{"c"}, Required: true, Usage: "Contract hash or address"}),
			rpcFlags(true)...),
		Action: act(importDeployed, false),
	}
}

// importDeployed adds an account of a deployed contract with a boolean
// verify method, keyed with --wif.
func importDeployed(ctx context.Context, c *walletCtx) error {
	w, pass, err := c.openWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	h, err := c.hashFlag("contract")
	if err != nil {
		return err
	}
	if !c.cmd.IsSet("wif") {
		return errors.New("--wif is required")
	}
	acc, err := c.accountFromWIF(c.cmd.String("wif"), w.Scrypt, c.label(), pass)
	if err != nil {
		return err
	}
	defer acc.Close()
	s, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	cs, err := s.c.GetContractState(s.ctx, h)
	if err != nil {
		return fmt.Errorf("can't fetch contract info: %w", err)
	}
	md := cs.Manifest.ABI.GetMethod("verify", -1)
	if md == nil || md.ReturnType != smartcontract.BoolType {
		return errors.New("contract has no `verify` method with boolean return")
	}
	acc.Address = address.Uint160ToString(cs.Hash)
	params := make([]wallet.ContractParam, 0, len(md.Parameters))
	for _, p := range md.Parameters {
		params = append(params, wallet.ContractParam{Name: p.Name, Type: p.Type})
	}
	acc.Contract = &wallet.Contract{Parameters: params, Deployed: true}
	return addAccountAndSave(w, acc)
}
