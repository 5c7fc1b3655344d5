package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/rpc/client"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/urfave/cli/v3"
)

// The contract verbs that send a transaction: the node test-runs the call
// (invokefunction), the transaction carries the script the node returned
// and the GAS it consumed as system fee, as neo-go's.

// sendFlags are invokefunction's and deploy's flags.
func sendFlags(extra ...cli.Flag) []cli.Flag {
	fs := walletFlags(true, addressFlag("Address to use as transaction signee (and gas source)", false))
	fs = append(fs, extra...)
	fs = append(fs, txFlags()...)
	return append(fs, rpcFlags(true)...)
}

func invokeFunctionCommand(act func(walletAction) cli.ActionFunc) *cli.Command {
	return &cli.Command{
		Name:      "invokefunction",
		Usage:     "Invoke deployed contract on the blockchain",
		UsageText: "n3d contract invokefunction -r endpoint -w wallet [-a address] [-g gas] [-e sysgas] [--out file] [--force] [--await] scripthash [method] [arguments...] [--] [signers...]",
		Flags:     sendFlags(),
		Action:    act(invokeFunction),
	}
}

func deployCommand(act func(walletAction) cli.ActionFunc) *cli.Command {
	return &cli.Command{
		Name:      "deploy",
		Usage:     "Deploy a smart contract (.nef with description)",
		UsageText: "n3d contract deploy -r endpoint -w wallet [-a address] [-g gas] [-e sysgas] --in contract.nef --manifest contract.manifest.json [--out file] [--force] [--await] [data] [-- signers...]",
		Flags:     sendFlags(inFlag("Input file for the smart contract (*.nef)"), manifestFlag()),
		Action:    act(contractDeploy),
	}
}

// sendSetup is the opened wallet and the node of a sending verb.
type sendSetup struct {
	w      *wallet.Wallet
	sender util.Uint160
	pass   *string
	acc    *wallet.Account
	s      *rpcSession
}

func (t *sendSetup) close() {
	if t.s != nil {
		t.s.close()
	}
	if t.w != nil {
		t.w.Close()
	}
}

// openSender opens the wallet and the -a account (else the default one).
func (c *walletCtx) openSender() (*sendSetup, error) {
	t := new(sendSetup)
	var err error
	if t.w, t.pass, err = c.readWallet(); err != nil {
		return t, err
	}
	if a := c.cmd.String("address"); a != "" {
		if t.sender, err = parseAddress(a); err != nil {
			return t, err
		}
	} else {
		acc := t.w.DefaultAccount()
		if acc == nil {
			return t, errors.New("can't get default address")
		}
		if t.sender, err = acc.ScriptHash(); err != nil {
			return t, err
		}
	}
	t.acc, err = c.walletAccount(t.w, t.sender, t.pass)
	return t, err
}

// invokeAndSend test-runs inv with the sender (scope None unless a
// cosigner names it) and the cosigners, then sends the transaction.
func (c *walletCtx) invokeAndSend(ctx context.Context, t *sendSetup, inv *invocation) error {
	signers, err := c.signers(t.w, t.acc, transaction.None, inv.signers, t.pass)
	if err != nil {
		return fmt.Errorf("invalid signers: %w", err)
	}
	if t.s, err = c.dial(ctx); err != nil {
		return err
	}
	inv.signers = make([]transaction.Signer, len(signers))
	for i := range signers {
		inv.signers[i] = signers[i].Signer
	}
	r, err := invokeFunctionRaw(t.s, inv)
	if err != nil {
		return err
	}
	if r.res.State != client.HaltState {
		action, process := "send", "Sending"
		if c.cmd.String("out") != "" {
			action, process = "save", "Saving"
		}
		if !c.cmd.Bool("force") {
			// neo-go ends this message with a full stop.
			return fmt.Errorf("%s.\nUse --force flag to %s the transaction anyway.", r.warning(), action)
		}
		fmt.Fprintf(c.out, "%s.\n%s transaction...\n", r.warning(), process)
	}
	if len(r.res.Script) == 0 {
		return errors.New("no script returned from the RPC node")
	}
	return c.sendRun(t.s, &r.res, signers)
}

// knownSystemFee is a node whose test run already happened.
type knownSystemFee struct {
	*client.Client
	gas int64
}

func (k knownSystemFee) SystemFee(context.Context, []byte, []transaction.Signer) (int64, error) {
	return k.gas, nil
}

// sendRun makes the transaction of a test run (its script, its GAS plus
// -e as system fee), then saves it (--out) or signs and relays it as the
// wallet verbs do.
func (c *walletCtx) sendRun(s *rpcSession, r *client.Invoke, signers []txbuild.Signer) error {
	return c.makeAndSendVia(s, knownSystemFee{Client: s.c, gas: r.GasConsumed}, "failed to create tx",
		r.Script, signers, txbuild.Fees{})
}

func invokeFunction(ctx context.Context, c *walletCtx) error {
	inv, err := parseInvocation(ctx, c)
	if err != nil {
		return err
	}
	t, err := c.openSender()
	defer t.close()
	if err != nil {
		return err
	}
	return c.invokeAndSend(ctx, t, inv)
}

// contractDeploy calls ContractManagement.deploy with the NEF and manifest
// files (and the data argument) and prints the new contract's hash.
func contractDeploy(ctx context.Context, c *walletCtx) error {
	f, nefBytes, err := readNEF(c.cmd.String("in"))
	if err != nil {
		return err
	}
	m, manBytes, err := readManifest(c.cmd.String("manifest"))
	if err != nil {
		return err
	}
	dataArgs, cosArgs := splitCosigners(ctx, c.cmd.Args().Slice())
	data, err := parseData(dataArgs)
	if err != nil {
		return err
	}
	inv := &invocation{contract: smartcontract.CreateNativeContractHash(native.ManagementName), method: "deploy",
		params: []client.Param{{Type: smartcontract.ByteArrayType, Value: nefBytes},
			{Type: smartcontract.ByteArrayType, Value: manBytes}}}
	if len(dataArgs) > 0 {
		p, err := toParam(data)
		if err != nil {
			return err
		}
		inv.params = append(inv.params, p)
	}
	if inv.signers, err = parseSigners(cosArgs); err != nil {
		return err
	}
	t, err := c.openSender()
	defer t.close()
	if err != nil {
		return fmt.Errorf("can't get sender address: %w", err)
	}
	if len(inv.signers) == 0 {
		inv.signers = []transaction.Signer{{Account: t.sender, Scopes: transaction.CalledByEntry}}
	}
	if err := c.invokeAndSend(ctx, t, inv); err != nil {
		return err
	}
	h := smartcontract.CreateContractHash(t.sender, f.Checksum, m.Name)
	_, err = fmt.Fprintf(c.out, "Contract: %s\n", h.StringBE())
	return err
}
