package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/urfave/cli/v3"
)

// `n3d util canceltx`: a transaction of one RET with a Conflicts
// attribute naming the target, paying more than it when the node has it
// in its memory pool (neo-go's canceltx).

func cancelTxCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "canceltx",
		Usage: "Cancel transaction by sending conflicting transaction",
		UsageText: "n3d util canceltx -r <endpoint> --wallet <wallet> [--address <account>] [--wallet-config <path>] " +
			"[--gas <gas>] [--await] <txid>",
		Description: "Sends a transaction conflicting with <txid>, signed by --address (default: the wallet's\n" +
			"default account). When the node has the target in its memory pool, the conflicting one\n" +
			"pays the target's network fee plus one (at least its own fee) and shares its\n" +
			"ValidUntilBlock; --gas adds to the network fee. --await waits until one of them is in a block.",
		Flags: append(walletFlags(true,
			addressFlag("Address to use as conflicting transaction signee (and gas source)", false),
			&cli.StringFlag{Name: "gas", Aliases: []string{"g"}, Usage: "Network fee to add to the transaction (prioritizing it)"},
			&cli.BoolFlag{Name: "await", Usage: "Wait for the transaction to be included in a block"}),
			rpcFlags(true)...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return cancelTx(ctx, &walletCtx{cmd: cmd, out: e.stdout, in: newPrompter(e.stdin, e.stderr)})
		},
	}
}

func cancelTx(ctx context.Context, c *walletCtx) error {
	args := c.cmd.Args().Slice()
	switch {
	case len(args) == 0:
		return errors.New("transaction hash is missing")
	case len(args) > 1:
		return errors.New("only one transaction hash is accepted")
	}
	target, err := util.Uint256DecodeStringBE(strings.TrimPrefix(args[0], "0x"))
	if err != nil {
		return fmt.Errorf("invalid tx hash: %s", args[0])
	}
	gas, err := c.gasFlag("gas")
	if err != nil {
		return err
	}
	w, signers, err := c.cancelSigner()
	if err != nil {
		return err
	}
	defer w.Close() // wipes the keys
	s, err := c.dial(ctx)
	if err != nil {
		return fmt.Errorf("failed to create RPC client: %w", err)
	}
	defer s.close()
	main, _ := s.c.GetRawTransactionVerbose(s.ctx, target) // unknown to the node: not an error
	if main != nil && main.BlockHash != nil && !main.BlockHash.Equals(util.Uint256{}) {
		return fmt.Errorf("target transaction %s is accepted at block %s", target.StringBE(), main.BlockHash.StringBE())
	}
	if main != nil && !main.Transaction.HasSigner(signers[0].Account) {
		return fmt.Errorf("account %s is not a signer of the conflicting transaction", signers[0].WalletAccount.Address)
	}
	var mainTx *transaction.Transaction
	if main != nil {
		mainTx = main.Transaction
	}
	tx, err := conflictingTx(s, signers, target, mainTx, gas)
	if err != nil {
		return fmt.Errorf("failed to send conflicting transaction: %w", err)
	}
	h, err := s.c.SendRawTransaction(s.ctx, tx)
	if err != nil {
		return fmt.Errorf("failed to send conflicting transaction: %w", err)
	}
	if !c.cmd.Bool("await") {
		return printTxInfo(c, h, nil)
	}
	return c.awaitCancel(s, target, h, tx.ValidUntilBlock, mainTx != nil)
}

// cancelSigner is --address (or the wallet's default account), decrypted,
// as a CalledByEntry signer, and its wallet (to close once signed).
func (c *walletCtx) cancelSigner() (*wallet.Wallet, []txbuild.Signer, error) {
	w, pass, err := c.readWallet()
	if err != nil {
		return nil, nil, fmt.Errorf("failed to get account from context to sign the conflicting transaction: %w", err)
	}
	signers, err := c.walletSigner(w, pass)
	if err != nil {
		w.Close()
		return nil, nil, err
	}
	return w, signers, nil
}

func (c *walletCtx) walletSigner(w *wallet.Wallet, pass *string) ([]txbuild.Signer, error) {
	var err error
	var h util.Uint160
	if c.cmd.String("address") != "" {
		h, err = c.hashFlag("address")
	} else {
		h, err = c.senderAddress(w)
	}
	if err != nil {
		return nil, fmt.Errorf("failed to get account from context to sign the conflicting transaction: %w", err)
	}
	acc, err := c.walletAccount(w, h, pass)
	if err != nil {
		return nil, fmt.Errorf("failed to get account from context to sign the conflicting transaction: %w", err)
	}
	signers, err := c.signers(w, acc, transaction.CalledByEntry, nil, pass)
	if err != nil {
		return nil, fmt.Errorf("invalid signers: %w", err)
	}
	return signers, nil
}

// conflictingTx makes and signs the RET transaction conflicting with
// target; main is the target when the node has it in its memory pool.
func conflictingTx(s *rpcSession, signers []txbuild.Signer, target util.Uint256, main *transaction.Transaction,
	gas int64) (*transaction.Transaction, error) {
	b := txbuild.Builder{Node: s.c, MaxValidUntilBlockIncrement: s.version.Protocol.MaxValidUntilBlockIncrement}
	tx, err := b.Make(s.ctx, []byte{byte(opcode.RET)}, signers, txbuild.Fees{})
	if err != nil {
		return nil, err
	}
	tx.Attributes = []transaction.Attribute{{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: target}}}
	// The attribute adds to the size and has a price of its own.
	if tx.NetworkFee, err = s.c.CalculateNetworkFee(s.ctx, tx); err != nil {
		return nil, fmt.Errorf("calculating network fee: %w", err)
	}
	if main != nil {
		tx.NetworkFee = max(tx.NetworkFee, main.NetworkFee+1)
		tx.ValidUntilBlock = main.ValidUntilBlock
	} else if tx.ValidUntilBlock, err = shortValidUntilBlock(s); err != nil {
		return nil, err
	}
	tx.NetworkFee += gas
	tx.InvalidateCache()
	if err := txbuild.Sign(tx, s.version.Protocol.Network, signers); err != nil {
		return nil, err
	}
	return tx, nil
}

// shortValidUntilBlock is neo-go's actor lifetime: block count plus the
// validators count (of the latest ValidatorsHistory entry in force) plus 1,
// so that --await learns soon that neither transaction made it.
func shortValidUntilBlock(s *rpcSession) (uint32, error) {
	count, err := s.c.GetBlockCount(s.ctx)
	if err != nil {
		return 0, fmt.Errorf("can't get block count: %w", err)
	}
	vc, best := uint32(s.version.Protocol.ValidatorsCount), uint32(0)
	for h, n := range s.version.Protocol.ValidatorsHistory {
		if h >= best && h <= count {
			vc, best = n, h
		}
	}
	return count + vc + 1, nil
}

// awaitCancel waits until the target or the conflicting transaction is in
// a block or vub has passed, and reports which as neo-go does.
func (c *walletCtx) awaitCancel(s *rpcSession, target, h util.Uint256, vub uint32, known bool) error {
	which, exec, err := awaitEither(s, []util.Uint256{target, h}, vub)
	switch {
	case errors.Is(err, errTxExpired) && !known:
		return fmt.Errorf("neither target nor conflicting transaction is accepted before the current height %d "+
			"(ValidUntilBlock value of conlicting transaction). Main transaction is unknown to the provided RPC node, "+
			"thus still has chances to be accepted, you may try cancellation again", vub)
	case errors.Is(err, errTxExpired):
		_, err = fmt.Fprintf(c.out, "Neither target nor conflicting transaction is accepted before the current height %d "+
			"(ValidUntilBlock value of both target and conflicting transactions). Main transaction is not valid anymore, "+
			"cancellation is successful\n", vub)
		return err
	case err != nil:
		return fmt.Errorf("failed to await target/ conflicting transaction %s/ %s: %w", target.StringBE(), h.StringBE(), err)
	case which == 0:
		info, err := s.c.GetRawTransactionVerbose(s.ctx, target)
		if err != nil || info.BlockHash == nil {
			return fmt.Errorf("target transaction %s is accepted", target.StringBE())
		}
		return fmt.Errorf("target transaction %s is accepted at block %s", target.StringBE(), info.BlockHash.StringBE())
	}
	fmt.Fprintln(c.out, "Conflicting transaction accepted")
	return printTxInfo(c, h, exec)
}

// awaitEither polls the node until one of hs has an application log (its
// index is returned), vub has passed or the session's time is out.
func awaitEither(s *rpcSession, hs []util.Uint256, vub uint32) (int, *appExec, error) {
	period := time.Duration(s.version.Protocol.MillisecondsPerBlock) * time.Millisecond / 10
	period = min(max(period, 20*time.Millisecond), time.Second)
	for {
		for i, h := range hs {
			l, err := s.c.GetApplicationLog(s.ctx, h)
			if err == nil && len(l.Executions) > 0 {
				e := l.Executions[0]
				return i, &appExec{state: e.VMState.String(), fault: e.FaultException}, nil
			}
			if err != nil && !isRPCError(err) {
				return 0, nil, err
			}
		}
		n, err := s.c.GetBlockCount(s.ctx)
		if err != nil {
			return 0, nil, err
		}
		if n > 0 && n-1 > vub {
			return 0, nil, errTxExpired
		}
		select {
		case <-s.ctx.Done():
			return 0, nil, s.ctx.Err()
		case <-time.After(period):
		}
	}
}

// isRPCError tells an error answer of the node (such as an unknown
// application log) from a failure to reach it.
func isRPCError(err error) bool {
	var re *result.Error
	return errors.As(err, &re)
}
