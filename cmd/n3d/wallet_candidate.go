package main

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/client"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/urfave/cli/v3"
)

// neoDecimals are NEO's decimals (0).
const neoDecimals = 0

func candidateCommand(act actionMaker) *cli.Command {
	accFlag := func(usage string) cli.Flag { return addressFlag(usage, true) }
	flags := func(extra ...cli.Flag) []cli.Flag {
		return append(append(walletFlags(true, extra...), txFlags()...), rpcFlags(true)...)
	}
	return &cli.Command{
		Name:  "candidate",
		Usage: "Work with candidates",
		Commands: []*cli.Command{
			{
				Name:      "register",
				Usage:     "Register as a new candidate",
				UsageText: "n3d wallet candidate register -w <path> -r <rpc> [-s timeout] -a <addr> [-g gas] [-e sysgas] [--out file] [--force] [--await]",
				Flags: flags(accFlag("Address to register"), &cli.BoolFlag{Name: "useRegisterCall",
					Usage: "Use a call to registerCandidate method instead of NEP-17 GAS transfer"}),
				Action: act(registerCandidate, false),
			},
			{
				Name:      "unregister",
				Usage:     "Unregister self as a candidate",
				UsageText: "n3d wallet candidate unregister -w <path> -r <rpc> [-s timeout] -a <addr> [-g gas] [-e sysgas] [--out file] [--force] [--await]",
				Flags:     flags(accFlag("Address to unregister")),
				Action:    act(unregisterCandidate, false),
			},
			{
				Name:      "vote",
				Usage:     "Vote for a validator",
				UsageText: "n3d wallet candidate vote -w <path> -r <rpc> [-s <timeout>] [-g gas] [-e sysgas] -a <addr> [-c <public key>] [--out file] [--force] [--await]",
				Description: "Votes for a validator by calling \"vote\" method of a NEO native contract.\n" +
					"Do not provide candidate argument to perform unvoting.",
				Flags: flags(accFlag("Address to vote from"),
					&cli.StringFlag{Name: "candidate", Aliases: []string{"c"}, Usage: "Public key of candidate to vote for"}),
				Action: act(voteCandidate, false),
			},
			{
				Name:      "getstate",
				Usage:     "Print NEO holder account state (neo-go's `query voter`)",
				UsageText: "n3d wallet candidate getstate -a <addr> -r <rpc> [-s timeout]",
				Flags:     append([]cli.Flag{addressFlag("Address to get state of", true)}, rpcFlags(true)...),
				Action:    act(voterState, false),
			},
		},
	}
}

// neoAction makes a NEO-governance transaction for the -a account with
// scope; script gets the account and its public key.
func neoAction(ctx context.Context, c *walletCtx, scope transaction.WitnessScope,
	script func(s *rpcSession, h util.Uint160, pub *keys.PublicKey) ([]byte, txbuild.Fees, error)) error {
	w, pass, err := c.readWallet()
	if err != nil {
		return err
	}
	defer w.Close()
	h, err := c.hashFlag("address")
	if err != nil {
		return err
	}
	acc, err := c.walletAccount(w, h, pass)
	if err != nil {
		return err
	}
	signers, err := c.signers(w, acc, scope, nil, pass)
	if err != nil {
		return err
	}
	s, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	sc, fees, err := script(s, h, acc.PublicKey())
	if err != nil {
		return err
	}
	return c.makeAndSendWithFees(s, sc, signers, fees)
}

// needKey checks that the account has a key.
func needKey(pub *keys.PublicKey) error {
	if pub == nil {
		return errors.New("account has no key to register")
	}
	return nil
}

// registerCandidate pays the registration price as a GAS transfer to NEO
// with the key as data (Global scope), or calls registerCandidate with
// --useRegisterCall: its system fee is then the price plus the GAS of an
// unregisterCandidate run (a test run of the registration itself would
// exceed the test GAS limit), as neo-go does.
func registerCandidate(ctx context.Context, c *walletCtx) error {
	useCall := c.cmd.Bool("useRegisterCall")
	scope := transaction.Global
	if useCall {
		scope = transaction.CalledByEntry
	}
	return neoAction(ctx, c, scope, func(s *rpcSession, h util.Uint160, pub *keys.PublicKey) ([]byte, txbuild.Fees, error) {
		if err := needKey(pub); err != nil {
			return nil, txbuild.Fees{}, err
		}
		price, err := registerPrice(s)
		if err != nil {
			return nil, txbuild.Fees{}, err
		}
		if !useCall {
			sc, err := txbuild.TransferScript([]txbuild.Transfer{{Token: txbuild.GasHash, From: h, To: txbuild.NeoHash,
				Amount: big.NewInt(price), Data: pub.Bytes()}})
			return sc, txbuild.Fees{}, err
		}
		test, err := txbuild.CallScript(txbuild.NeoHash, "unregisterCandidate", pub.Bytes())
		if err != nil {
			return nil, txbuild.Fees{}, err
		}
		sc, err := txbuild.CallScript(txbuild.NeoHash, "registerCandidate", pub.Bytes())
		return sc, txbuild.Fees{ExtraSystem: price, TestScript: test}, err
	})
}

// registerPrice reads NEO's getRegisterPrice.
func registerPrice(s *rpcSession) (int64, error) {
	r, err := s.c.InvokeFunction(s.ctx, txbuild.NeoHash, "getRegisterPrice", nil, nil)
	if err != nil {
		return 0, err
	}
	it, err := r.TopItem()
	if err != nil {
		return 0, err
	}
	n, err := it.BigInt()
	if err != nil {
		return 0, fmt.Errorf("%w: register price: %w", client.ErrStack, err)
	}
	if !n.IsInt64() {
		return 0, fmt.Errorf("%w: register price %v", client.ErrStack, n)
	}
	return n.Int64(), nil
}

func unregisterCandidate(ctx context.Context, c *walletCtx) error {
	return neoAction(ctx, c, transaction.CalledByEntry, func(_ *rpcSession, _ util.Uint160, pub *keys.PublicKey) ([]byte, txbuild.Fees, error) {
		if err := needKey(pub); err != nil {
			return nil, txbuild.Fees{}, err
		}
		sc, err := txbuild.CallScript(txbuild.NeoHash, "unregisterCandidate", pub.Bytes())
		return sc, txbuild.Fees{}, err
	})
}

func voteCandidate(ctx context.Context, c *walletCtx) error {
	var to any
	if s := c.cmd.String("candidate"); s != "" {
		k, err := keys.NewPublicKeyFromString(s)
		if err != nil {
			return fmt.Errorf("invalid public key: '%s': %w", s, err)
		}
		to = k.Bytes()
	}
	return neoAction(ctx, c, transaction.CalledByEntry, func(_ *rpcSession, h util.Uint160, _ *keys.PublicKey) ([]byte, txbuild.Fees, error) {
		sc, err := txbuild.CallScript(txbuild.NeoHash, "vote", h, to)
		return sc, txbuild.Fees{}, err
	})
}

// voterState prints NEO's getAccountState of -a as neo-go's `query voter`.
func voterState(ctx context.Context, c *walletCtx) error {
	h, err := c.hashFlag("address")
	if err != nil {
		return err
	}
	s, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	script, err := emit.NewBuilder().AppCall(txbuild.NeoHash, "getAccountState", byte(callflag.ReadOnly), h).Script()
	if err != nil {
		return err
	}
	r, err := s.c.InvokeScript(s.ctx, script, nil)
	if err != nil {
		return err
	}
	it, err := r.TopItem()
	if err != nil {
		return err
	}
	st, err := parseNEOState(it)
	if err != nil {
		return err
	}
	voted := "null"
	if st.voteTo != nil {
		voted = fmt.Sprintf("%s (%s)", st.voteTo.String(), address.Uint160ToString(st.voteTo.ScriptHash()))
	}
	fmt.Fprintf(c.out, "\tVoted: %s\n", voted)
	fmt.Fprintf(c.out, "\tAmount : %s\n", formatAmount(st.balance, neoDecimals))
	fmt.Fprintf(c.out, "\tBlock: %d\n", st.height)
	return nil
}

// neoState is NEO's account state: [balance, height, voteTo, lastGasPerVote].
type neoState struct {
	balance *big.Int
	height  uint64
	voteTo  *keys.PublicKey
}

// parseNEOState reads getAccountState's answer (Null for an account that
// never held NEO).
func parseNEOState(it stackitem.Item) (*neoState, error) {
	st := &neoState{balance: new(big.Int)}
	if it.Type() == stackitem.AnyT {
		return st, nil
	}
	arr, ok := it.(*stackitem.Array)
	if !ok || len(arr.Items()) < 3 {
		return nil, fmt.Errorf("%w: account state %v", client.ErrStack, it)
	}
	items := arr.Items()
	b, err := items[0].BigInt()
	if err != nil {
		return nil, fmt.Errorf("%w: balance: %w", client.ErrStack, err)
	}
	st.balance = b
	hgt, err := items[1].BigInt()
	if err != nil {
		return nil, fmt.Errorf("%w: balance height: %w", client.ErrStack, err)
	}
	if !hgt.IsUint64() {
		return nil, fmt.Errorf("%w: balance height %v", client.ErrStack, hgt)
	}
	st.height = hgt.Uint64()
	if items[2].Type() != stackitem.AnyT {
		kb, err := items[2].Bytes()
		if err != nil {
			return nil, fmt.Errorf("%w: vote: %w", client.ErrStack, err)
		}
		if st.voteTo, err = keys.NewPublicKeyFromBytes(kb); err != nil {
			return nil, fmt.Errorf("%w: vote: %w", client.ErrStack, err)
		}
	}
	return st, nil
}
