package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/urfave/cli/v3"
)

// `n3d util txdump` and `n3d util sendtx`: the transaction of a signing
// context file (neo-go's ContractParametersContext), shown or sent.

func txDumpCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "txdump",
		Usage:     "Dump transaction stored in file",
		UsageText: "n3d util txdump [-r <endpoint>] <file.in>",
		Description: "Dumps the transaction from the given parameter context file to the output\n" +
			"(as `n3d query tx -v` shows a transaction not yet in a block). With -r the result\n" +
			"of a test run of its script (invokescript with its signers) follows.",
		Flags: rpcFlags(false),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			pc, err := readContextArg(cmd)
			if err != nil {
				return err
			}
			if err := writeTxState(e.stdout, pc.Tx, nil, true); err != nil {
				return err
			}
			if cmd.String("rpc-endpoint") == "" {
				return nil
			}
			return dumpInvocation(ctx, &walletCtx{cmd: cmd, out: e.stdout}, pc.Tx)
		},
	}
}

// dumpInvocation prints the node's invokescript result for tx's script and
// signers as indented JSON.
func dumpInvocation(ctx context.Context, c *walletCtx, tx *transaction.Transaction) error {
	s, err := c.dial(ctx)
	if err != nil {
		return fmt.Errorf("failed to create RPC client: %w", err)
	}
	defer s.close()
	params := []any{tx.Script}
	if len(tx.Signers) > 0 {
		params = append(params, tx.Signers)
	}
	var res invocationJSON
	if err := s.c.Call(s.ctx, "invokescript", params, &res); err != nil {
		return fmt.Errorf("invokescript: %w", err)
	}
	if len(res.Exception) == 0 {
		res.Exception = json.RawMessage("null")
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("invokescript result: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", " "); err != nil {
		return fmt.Errorf("invokescript result: %w", err)
	}
	out.WriteByte('\n')
	_, err = c.out.Write(out.Bytes())
	return err
}

// invocationJSON is an invokescript result with its fields in the order
// neo-go prints them (its own encoding of the answer, whatever the node's
// order), the values as the node sent them.
type invocationJSON struct {
	State         json.RawMessage `json:"state"`
	GasConsumed   json.RawMessage `json:"gasconsumed"`
	Script        json.RawMessage `json:"script"`
	Stack         json.RawMessage `json:"stack"`
	Exception     json.RawMessage `json:"exception"`
	Notifications json.RawMessage `json:"notifications"`
	Tx            json.RawMessage `json:"tx,omitempty"`
	Diagnostics   json.RawMessage `json:"diagnostics,omitempty"`
	Session       json.RawMessage `json:"session,omitempty"`
}

func sendTxCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "sendtx",
		Usage:     "Send complete transaction stored in a context file",
		UsageText: "n3d util sendtx [-r <endpoint>] [--await] <file.in>",
		Description: "Sends the transaction from the given context file to the given RPC node if it's\n" +
			"completely signed and ready, and prints its hash. With --await it waits for the\n" +
			"transaction to be included in a block and prints its execution state.",
		Flags: append(rpcFlags(false),
			&cli.BoolFlag{Name: "await", Usage: "Wait for the transaction to be included in a block"}),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			pc, err := readContextArg(cmd)
			if err != nil {
				return err
			}
			tx, err := pc.CompleteTransaction()
			if err != nil {
				return fmt.Errorf("failed to complete transaction: %w", err)
			}
			c := &walletCtx{cmd: cmd, out: e.stdout}
			s, err := c.dial(ctx)
			if err != nil {
				return fmt.Errorf("failed to create RPC client: %w", err)
			}
			defer s.close()
			if err := c.send(s, tx); err != nil {
				return fmt.Errorf("failed to submit transaction to RPC node: %w", err)
			}
			return nil
		},
	}
}

// readContextArg reads the context file named by the only argument.
func readContextArg(cmd *cli.Command) (*txbuild.Context, error) {
	switch cmd.Args().Len() {
	case 0:
		return nil, errors.New("missing input file")
	case 1:
	default:
		return nil, errors.New("only one input file is accepted")
	}
	return txbuild.ReadContext(cmd.Args().First())
}
