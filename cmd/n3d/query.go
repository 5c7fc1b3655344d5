package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/urfave/cli/v3"
)

// `n3d query`: neo-go's read-only verbs that ask a node over JSON-RPC
// (-r, -s as the wallet's node verbs) and print tables.

func queryCommand(e *env) *cli.Command {
	act := func(f walletAction) cli.ActionFunc {
		return func(ctx context.Context, cmd *cli.Command) error {
			return f(ctx, &walletCtx{cmd: cmd, out: e.stdout, in: newPrompter(e.stdin, e.stderr)})
		}
	}
	return &cli.Command{
		Name:  "query",
		Usage: "Query data from RPC node",
		Commands: []*cli.Command{
			{
				Name:      "candidates",
				Usage:     "Get candidates and votes",
				UsageText: "n3d query candidates -r endpoint [-s timeout]",
				Flags:     rpcFlags(true),
				Action:    act(queryCandidates),
			},
			{
				Name:      "committee",
				Usage:     "Get committee list",
				UsageText: "n3d query committee -r endpoint [-s timeout]",
				Flags:     rpcFlags(true),
				Action:    act(queryCommittee),
			},
			{
				Name:      "height",
				Usage:     "Get node height",
				UsageText: "n3d query height -r endpoint [-s timeout]",
				Flags:     rpcFlags(true),
				Action:    act(queryHeight),
			},
			{
				Name:      "tx",
				Usage:     "Query transaction status",
				UsageText: "n3d query tx -r endpoint [-s timeout] [-v] <hash>",
				Flags: append([]cli.Flag{&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"},
					Usage: "Output full tx info and execution logs"}}, rpcFlags(true)...),
				Action: act(queryTx),
			},
			{
				Name:      "voter",
				Usage:     "Print NEO holder account state",
				UsageText: "n3d query voter -r endpoint [-s timeout] <address>",
				// The address argument is handed to `wallet candidate
				// getstate`'s code through this flag.
				Flags:  append([]cli.Flag{&cli.StringFlag{Name: "address", Hidden: true}}, rpcFlags(true)...),
				Action: act(queryVoter),
			},
		},
	}
}

// queryCommittee prints the committee's keys, one a line.
func queryCommittee(ctx context.Context, c *walletCtx) error {
	if err := ensureNoArgs(c.cmd); err != nil {
		return err
	}
	s, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	comm, err := s.c.GetCommittee(s.ctx)
	if err != nil {
		return err
	}
	for _, k := range comm {
		fmt.Fprintln(c.out, k.String())
	}
	return nil
}

// queryHeight prints the node's height and, when it answers
// getstateheight, the height of the latest validated state root.
func queryHeight(ctx context.Context, c *walletCtx) error {
	if err := ensureNoArgs(c.cmd); err != nil {
		return err
	}
	s, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	n, err := s.c.GetBlockCount(s.ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "Latest block: %d\n", n-1)
	// A node without the state root methods just has no such line.
	if sh, err := s.c.GetStateHeight(s.ctx); err == nil {
		fmt.Fprintf(c.out, "Validated state: %d\n", sh.Validated)
	}
	return nil
}

// candidate is a getcandidates entry, parsed.
type candidate struct {
	key    *keys.PublicKey
	votes  *big.Int
	active bool
}

// queryCandidates prints the candidates as neo-go does: a table of key,
// votes, committee and consensus membership, the inactive ones first, then
// by votes and key, ascending.
func queryCandidates(ctx context.Context, c *walletCtx) error {
	if err := ensureNoArgs(c.cmd); err != nil {
		return err
	}
	s, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	raw, err := s.c.GetCandidates(s.ctx)
	if err != nil {
		return err
	}
	comm, err := s.c.GetCommittee(s.ctx)
	if err != nil {
		return err
	}
	cands := make([]candidate, len(raw))
	for i, r := range raw {
		k, err := keys.NewPublicKeyFromString(r.PublicKey)
		if err != nil {
			return fmt.Errorf("getcandidates: candidate %q: %w", r.PublicKey, err)
		}
		v, ok := new(big.Int).SetString(r.Votes, 10)
		if !ok {
			return fmt.Errorf("getcandidates: candidate %s: votes %q are not a number", r.PublicKey, r.Votes)
		}
		cands[i] = candidate{key: k, votes: v, active: r.Active}
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.active != b.active {
			if a.active {
				return 1
			}
			return -1
		}
		return cmp.Or(a.votes.Cmp(b.votes), a.key.Cmp(b.key))
	})
	var buf []byte
	buf = append(buf, "Key\tVotes\tCommittee\tConsensus\n"...)
	for _, cd := range cands {
		buf = fmt.Appendf(buf, "%s\t%s\t%t\t%t\n", cd.key, cd.votes, comm.Contains(cd.key), cd.active)
	}
	tw := tabwriter.NewWriter(c.out, 0, 2, 2, ' ', 0)
	if _, err := tw.Write(buf); err != nil {
		return err
	}
	return tw.Flush()
}

// queryVoter prints the NEO account state of the address argument with
// `wallet candidate getstate`'s code.
func queryVoter(ctx context.Context, c *walletCtx) error {
	args := c.cmd.Args().Slice()
	switch {
	case len(args) == 0:
		return errors.New("no address specified")
	case len(args) > 1:
		return errors.New("this command only accepts one address")
	}
	if _, err := parseAddress(args[0]); err != nil {
		return fmt.Errorf("wrong address: %s", args[0])
	}
	if err := c.cmd.Set("address", args[0]); err != nil {
		return err
	}
	return voterState(ctx, c)
}

// queryTx prints the state of a transaction: in a block or not, its
// success, with -v its signers, fees, script and any exception.
func queryTx(ctx context.Context, c *walletCtx) error {
	args := c.cmd.Args().Slice()
	switch {
	case len(args) == 0:
		return errors.New("transaction hash is missing")
	case len(args) > 1:
		return errors.New("only one transaction hash is accepted")
	}
	h, err := util.Uint256DecodeStringBE(strings.TrimPrefix(args[0], "0x"))
	if err != nil {
		return fmt.Errorf("invalid tx hash: %s", args[0])
	}
	s, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	info, err := s.c.GetRawTransactionVerbose(s.ctx, h)
	if err != nil {
		return err
	}
	var execs *txExecutions
	if info.BlockHash != nil && !info.BlockHash.IsZero() {
		l, err := s.c.GetApplicationLog(s.ctx, h)
		if err != nil {
			return err
		}
		execs = &txExecutions{block: *info.BlockHash, log: l.Executions}
	}
	return writeTxState(c.out, info.Transaction, execs, c.cmd.Bool("verbose"))
}
