package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/client"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/urfave/cli/v3"
)

// The wallet verbs that talk to a node: neo-go's flags (-r, -s, -g, -e,
// --out, --force, --await), output (the transaction hash on stdout) and
// confirmation prompt.

const (
	// defaultRPCTimeout bounds a command's RPC work (neo-go's default).
	defaultRPCTimeout = 10 * time.Second
	// defaultAwaitTimeout is the bound with --await and no -s (three
	// mainnet blocks, as neo-go).
	defaultAwaitTimeout = 45 * time.Second
	// promptRelay asks to confirm a transaction.
	promptRelay = "Relay transaction (y|N)> "
)

var (
	errCancelled     = errors.New("cancelled")
	errTxExpired     = errors.New("transaction expired: its ValidUntilBlock has passed")
	errNoRPCEndpoint = errors.New("required flag --rpc-endpoint is empty")
)

// rpcFlags are -r and -s; required makes -r mandatory.
func rpcFlags(required bool) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "rpc-endpoint", Aliases: []string{"r"}, Usage: "RPC node address", Required: required},
		&cli.DurationFlag{Name: "timeout", Aliases: []string{"s"}, Value: defaultRPCTimeout,
			Usage: "Timeout for the operation"},
	}
}

// txFlags are the flags of the verbs that make a transaction.
func txFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "gas", Aliases: []string{"g"}, Usage: "Network fee to add to the transaction (prioritizing it)"},
		&cli.StringFlag{Name: "sysgas", Aliases: []string{"e"}, Usage: "System fee to add to the transaction (compensating for execution)"},
		&cli.StringFlag{Name: "out", Usage: "File (JSON) to put signature context with a transaction to"},
		&cli.BoolFlag{Name: "force", Usage: "Do not ask for a confirmation (and ignore errors)"},
		&cli.BoolFlag{Name: "await", Usage: "Wait for the transaction to be included in a block"},
	}
}

// rpcSession is a client of the -r endpoint bounded by the -s timeout.
type rpcSession struct {
	ctx     context.Context
	cancel  context.CancelFunc
	c       *client.Client
	version *result.Version
}

// dial connects to -r and reads the node's version (network magic and
// protocol limits).
func (c *walletCtx) dial(ctx context.Context) (*rpcSession, error) {
	endpoint := c.cmd.String("rpc-endpoint")
	if endpoint == "" {
		return nil, errNoRPCEndpoint
	}
	d := c.cmd.Duration("timeout")
	if !c.cmd.IsSet("timeout") && hasFlag(c.cmd, "await") && c.cmd.Bool("await") {
		d = defaultAwaitTimeout
	}
	if d <= 0 {
		d = defaultRPCTimeout
	}
	cl, err := client.New(endpoint, client.Options{Timeout: -1})
	if err != nil {
		return nil, err
	}
	s := &rpcSession{c: cl}
	s.ctx, s.cancel = context.WithTimeout(ctx, d)
	if s.version, err = cl.GetVersion(s.ctx); err != nil {
		s.cancel()
		return nil, err
	}
	return s, nil
}

func (s *rpcSession) close() { s.cancel() }

// unlock decrypts acc with the --wallet-config password or one asked for.
func (c *walletCtx) unlock(w *wallet.Wallet, acc *wallet.Account, cfgPass *string) error {
	if acc.CanSign() || !acc.HasKey() {
		return nil
	}
	pass := ""
	if cfgPass != nil {
		pass = *cfgPass
	} else {
		var err error
		if pass, err = c.in.readPassword(fmt.Sprintf("Enter account %s password > ", acc.Address)); err != nil {
			return fmt.Errorf("error reading password: %w", err)
		}
	}
	return acc.Decrypt(pass, w.Scrypt)
}

// walletAccount returns the account of h, decrypted.
func (c *walletCtx) walletAccount(w *wallet.Wallet, h util.Uint160, cfgPass *string) (*wallet.Account, error) {
	acc := w.GetAccount(h)
	if acc == nil {
		return nil, fmt.Errorf("wallet contains no account for '%s'", address.Uint160ToString(h))
	}
	if err := c.unlock(w, acc, cfgPass); err != nil {
		return nil, err
	}
	return acc, nil
}

// signers returns the sender with scope followed by the cosigners, each
// with its (decrypted) wallet account; a cosigner that is the sender
// replaces the sender's scope.
func (c *walletCtx) signers(w *wallet.Wallet, sender *wallet.Account, scope transaction.WitnessScope,
	cosigners []transaction.Signer, cfgPass *string) ([]txbuild.Signer, error) {
	first, err := txbuild.AccountSigner(sender, scope)
	if err != nil {
		return nil, err
	}
	out := []txbuild.Signer{first}
	for i, s := range cosigners {
		if s.Account == first.Account {
			out[0].Signer = s
			continue
		}
		acc := w.GetAccount(s.Account)
		if acc == nil {
			return nil, fmt.Errorf("invalid signers: no account was found in the wallet for signer #%d (%s)",
				i, address.Uint160ToString(s.Account))
		}
		if err := c.unlock(w, acc, cfgPass); err != nil {
			return nil, err
		}
		out = append(out, txbuild.Signer{Signer: s, WalletAccount: acc})
	}
	for i := range out {
		ks, err := c.memberKeys(w, out[i].WalletAccount, cfgPass)
		if err != nil {
			return nil, err
		}
		out[i].Keys = ks
	}
	return out, nil
}

// memberKeys opens, for an m-of-n multisig account, the keys of other
// accounts of the wallet that are among its n keys, until m keys are open
// (the account's own key counts).
func (c *walletCtx) memberKeys(w *wallet.Wallet, acc *wallet.Account, cfgPass *string) ([]*keys.PrivateKey, error) {
	if acc.Contract == nil {
		return nil, nil
	}
	m, pubs, ok := scripts.ParseMultiSigContract(acc.Contract.Script)
	if !ok || m < 2 {
		return nil, nil
	}
	have := 0
	if acc.CanSign() && acc.PublicKey() != nil && pubs.Contains(acc.PublicKey()) {
		have = 1
	}
	var out []*keys.PrivateKey
	for _, a := range w.Accounts {
		if have >= m {
			break
		}
		if a == acc || !a.HasKey() || a.Contract == nil {
			continue
		}
		pub, ok := scripts.ParseSignatureContract(a.Contract.Script)
		if !ok || (acc.PublicKey() != nil && string(pub) == string(acc.PublicKey().Bytes())) {
			continue
		}
		// An account whose key does not parse is not a member: skip it.
		k, err := keys.NewPublicKeyFromBytes(pub)
		if err != nil || !pubs.Contains(k) {
			continue
		}
		if err := c.unlock(w, a, cfgPass); err != nil {
			return nil, err
		}
		out = append(out, a.PrivateKey())
		have++
	}
	return out, nil
}

// gasFlag reads a Fixed8 GAS amount flag (0 when unset).
func (c *walletCtx) gasFlag(name string) (int64, error) {
	s := c.cmd.String(name)
	if s == "" {
		return 0, nil
	}
	v, err := util.Fixed8FromString(s)
	if err != nil {
		return 0, fmt.Errorf("invalid --%s value: %w", name, err)
	}
	if v < 0 {
		return 0, fmt.Errorf("invalid --%s value %q: a non-negative GAS amount", name, s)
	}
	return int64(v), nil
}

// makeAndSend builds the transaction of script for signers, then saves it
// as a context (--out) or, after confirmation unless --force, signs and
// relays it (and waits with --await); it prints the hash as neo-go does.
func (c *walletCtx) makeAndSend(s *rpcSession, script []byte, signers []txbuild.Signer) error {
	return c.makeAndSendWithFees(s, script, signers, txbuild.Fees{})
}

// makeAndSendWithFees is makeAndSend with fees added to the computed ones
// (-g and -e add to these).
func (c *walletCtx) makeAndSendWithFees(s *rpcSession, script []byte, signers []txbuild.Signer, fees txbuild.Fees) error {
	return c.makeAndSendVia(s, s.c, "can't make transaction", script, signers, fees)
}

// makeAndSendVia is makeAndSendWithFees with the node that computes the
// fees given (a test run already made can stand in for the system fee)
// and the wording of a failure to build (neo-go's differs by command).
func (c *walletCtx) makeAndSendVia(s *rpcSession, node txbuild.Node, cantMake string, script []byte,
	signers []txbuild.Signer, fees txbuild.Fees) error {
	gas, err := c.gasFlag("gas")
	if err != nil {
		return err
	}
	sysgas, err := c.gasFlag("sysgas")
	if err != nil {
		return err
	}
	fees.ExtraSystem += sysgas
	fees.ExtraNetwork += gas
	b := txbuild.Builder{Node: node, MaxValidUntilBlockIncrement: s.version.Protocol.MaxValidUntilBlockIncrement}
	tx, err := b.Make(s.ctx, script, signers, fees)
	if err != nil {
		return fmt.Errorf("%s: %w", cantMake, err)
	}
	magic := s.version.Protocol.Network
	if out := c.cmd.String("out"); out != "" {
		return c.saveContext(tx, magic, signers[0], out)
	}
	if !c.cmd.Bool("force") {
		if err := c.confirmTx(tx); err != nil {
			return err
		}
	}
	if err := txbuild.Sign(tx, magic, signers); err != nil {
		return err
	}
	return c.send(s, tx)
}

// saveContext writes tx as a signing context, signed by the sender when
// its key is open, and prints the hash.
func (c *walletCtx) saveContext(tx *transaction.Transaction, magic uint32, sender txbuild.Signer, path string) error {
	pc := txbuild.NewContext(magic, tx)
	acc := sender.WalletAccount
	if k := acc.PrivateKey(); k != nil && acc.CanSign() {
		sig := k.Sign(tx.SignData(magic))
		if err := pc.AddSignature(sender.Account, acc.Contract, k.PublicKey(), sig); err != nil {
			return fmt.Errorf("can't add signature: %w", err)
		}
	}
	if err := pc.Save(path); err != nil {
		return err
	}
	return printTxInfo(c, tx.Hash(), nil)
}

// confirmTx prints the fees and asks whether to relay.
func (c *walletCtx) confirmTx(tx *transaction.Transaction) error {
	fmt.Fprintf(c.out, "Network fee: %s\n", util.Fixed8(tx.NetworkFee))
	fmt.Fprintf(c.out, "System fee: %s\n", util.Fixed8(tx.SystemFee))
	fmt.Fprintf(c.out, "Total fee: %s\n", util.Fixed8(tx.NetworkFee+tx.SystemFee))
	ans, err := c.in.readLine(promptRelay)
	if err != nil {
		return err
	}
	if ans != "" && (ans[0] == 'y' || ans[0] == 'Y') {
		return nil
	}
	return errCancelled
}

// send relays a signed transaction, waits for it with --await and prints
// the result.
func (c *walletCtx) send(s *rpcSession, tx *transaction.Transaction) error {
	h, err := s.c.SendRawTransaction(s.ctx, tx)
	if err != nil {
		return err
	}
	var exec *appExec
	if hasFlag(c.cmd, "await") && c.cmd.Bool("await") {
		if exec, err = awaitTx(s, h, tx.ValidUntilBlock); err != nil {
			return fmt.Errorf("failed to await transaction %s: %w", h.StringBE(), err)
		}
	}
	return printTxInfo(c, h, exec)
}

// appExec is what --await prints of a transaction's execution.
type appExec struct {
	state, fault string
}

// awaitTx polls the node until h is in a block, its ValidUntilBlock has
// passed or the session's time is out.
func awaitTx(s *rpcSession, h util.Uint256, vub uint32) (*appExec, error) {
	period := time.Duration(s.version.Protocol.MillisecondsPerBlock) * time.Millisecond / 10
	period = min(max(period, 20*time.Millisecond), time.Second)
	for {
		l, err := s.c.GetApplicationLog(s.ctx, h)
		if err == nil && len(l.Executions) > 0 {
			e := l.Executions[0]
			return &appExec{state: e.VMState.String(), fault: e.FaultException}, nil
		}
		var re *result.Error
		if err != nil && !errors.As(err, &re) {
			return nil, err
		}
		n, err := s.c.GetBlockCount(s.ctx)
		if err != nil {
			return nil, err
		}
		if n > 0 && n-1 > vub {
			return nil, errTxExpired
		}
		select {
		case <-s.ctx.Done():
			return nil, s.ctx.Err()
		case <-time.After(period):
		}
	}
}

// printTxInfo prints the hash and, when awaited, the execution.
func printTxInfo(c *walletCtx, h util.Uint256, e *appExec) error {
	fmt.Fprintln(c.out, h.StringBE())
	if e != nil {
		fmt.Fprintf(c.out, "OnChain:\t%t\n", true)
		fmt.Fprintf(c.out, "VMState:\t%s\n", e.state)
		if e.fault != "" {
			fmt.Fprintf(c.out, "FaultException:\t%s\n", e.fault)
		}
	}
	return nil
}

// senderAddress returns --from, else the wallet's default account.
func (c *walletCtx) senderAddress(w *wallet.Wallet) (util.Uint160, error) {
	if s := c.cmd.String("from"); s != "" {
		return parseAddress(s)
	}
	acc := w.DefaultAccount()
	if acc == nil {
		return util.Uint160{}, errors.New("can't get default address")
	}
	return acc.ScriptHash()
}

// hashFlag reads a required address flag in neo-go's syntax.
func (c *walletCtx) hashFlag(name string) (util.Uint160, error) {
	s := strings.TrimSpace(c.cmd.String(name))
	if s == "" {
		return util.Uint160{}, fmt.Errorf("required flag --%s is not set", name)
	}
	return parseAddress(s)
}

// walletRPCCommands are neo-go's wallet verbs that need a node.
func walletRPCCommands(act actionMaker) []*cli.Command {
	return []*cli.Command{
		claimCommand(act),
		importDeployedCommand(act),
		signCommand(act),
		nep17Command(act),
		nep11Command(act),
		candidateCommand(act),
	}
}
