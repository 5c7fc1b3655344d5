package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/urfave/cli/v3"
)

func signCommand(act actionMaker) *cli.Command {
	return &cli.Command{
		Name:      "sign",
		Usage:     "Cosign transaction with multisig/contract/additional account",
		UsageText: "n3d wallet sign -w wallet [--wallet-config path] --address <address> --in <file.in> [--out <file.out>] [-r <endpoint>] [--await]",
		Description: "Signs the given (in file.in) context (which must be a transaction signing context)\n" +
			"for the given address using the given wallet. Prints the resulting JSON when\n" +
			"neither --out nor -r is given, saves it with --out (which can be the input file),\n" +
			"and with -r builds the complete transaction and sends it (printing its hash).",
		Flags: append(walletFlags(true,
			&cli.StringFlag{Name: "out", Usage: "File (JSON) to put signature context with a transaction to"},
			&cli.BoolFlag{Name: "await", Usage: "Wait for the transaction to be included in a block"},
			&cli.StringFlag{Name: "in", Required: true, Usage: "File with JSON transaction"},
			addressFlag("Address to use", false)), rpcFlags(false)...),
		Action: act(signContext, false),
	}
}

// signContext adds the signature of -a to a context file, then prints,
// saves and/or sends it.
func signContext(ctx context.Context, c *walletCtx) error {
	in := c.cmd.String("in")
	if in == "" {
		return errors.New("required flag --in is empty")
	}
	pc, err := txbuild.ReadContext(in)
	if err != nil {
		return err
	}
	if c.cmd.String("address") == "" {
		return errors.New("address was not provided")
	}
	h, err := c.hashFlag("address")
	if err != nil {
		return err
	}
	w, pass, err := c.readWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	acc, err := c.walletAccount(w, h, pass)
	if err != nil {
		return err
	}
	if !pc.Tx.HasSigner(h) {
		return errors.New("tx signers don't contain provided account")
	}
	rpc := c.cmd.String("rpc-endpoint")
	out := c.cmd.String("out")
	if k := acc.PrivateKey(); k != nil && acc.CanSign() {
		sig := k.Sign(pc.Tx.SignData(pc.Network))
		if err := pc.AddSignature(h, acc.Contract, k.PublicKey(), sig); err != nil {
			return fmt.Errorf("can't add signature: %w", err)
		}
	} else if rpc == "" {
		return errors.New("can't sign transactions with the given account and no RPC endpoint given to send anything signed")
	}
	if out == "" && rpc == "" {
		b, err := json.MarshalIndent(pc, " ", "     ")
		if err != nil {
			return fmt.Errorf("can't display resulting context: %w", err)
		}
		_, err = fmt.Fprintln(c.out, string(b))
		return err
	}
	if out != "" {
		if err := pc.Save(out); err != nil {
			return fmt.Errorf("can't save resulting context: %w", err)
		}
	}
	if rpc == "" {
		return printTxInfo(c, pc.Tx.Hash(), nil)
	}
	tx, err := pc.CompleteTransaction()
	if err != nil {
		return fmt.Errorf("failed to complete transaction: %w", err)
	}
	s, err := c.dial(ctx)
	if err != nil {
		return fmt.Errorf("failed to create RPC client: %w", err)
	}
	defer s.close()
	if err := c.send(s, tx); err != nil {
		return fmt.Errorf("failed to submit transaction to RPC node: %w", err)
	}
	return nil
}
