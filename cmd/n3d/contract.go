package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/rpc/client"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/urfave/cli/v3"
)

// `n3d contract`: neo-go's contract verbs that need a node or files but no
// compiler. Parameters and signers use the wallet verbs' syntax
// (wallet_rpc_params.go), transactions the wallet verbs' build, sign and
// send path (wallet_rpc.go).

var (
	errNoScriptHash = errors.New("no smart contract hash was provided, specify one as the first argument")
	errNoMethod     = errors.New("no method specified for function invocation command")
)

// maxContractFile bounds the NEF and manifest files read.
const maxContractFile = 4 << 20

func contractCommand(e *env) *cli.Command {
	act := func(f walletAction) cli.ActionFunc {
		return func(ctx context.Context, cmd *cli.Command) error {
			return f(ctx, &walletCtx{cmd: cmd, out: e.stdout, in: newPrompter(e.stdin, e.stderr)})
		}
	}
	return &cli.Command{
		Name:   "contract",
		Usage:  "Deploy and invoke smart contracts",
		Before: keepRawArgs,
		Commands: []*cli.Command{
			calcHashCommand(act),
			deployCommand(act),
			invokeFunctionCommand(act),
			{
				Name:      "testinvokefunction",
				Usage:     "Invoke deployed contract on the blockchain (test mode)",
				UsageText: "n3d contract testinvokefunction -r endpoint [-s timeout] scripthash [method] [arguments...] [--] [signers...]",
				Flags:     rpcFlags(true),
				Action:    act(testInvokeFunction),
			},
			{
				Name:      "testinvokescript",
				Usage:     "Invoke compiled AVM code in NEF format on the blockchain (test mode, not creating a transaction for it)",
				UsageText: "n3d contract testinvokescript -r endpoint [-s timeout] -i input.nef [signers...]",
				Flags:     append([]cli.Flag{inFlag("Input file for the smart contract (*.nef)")}, rpcFlags(true)...),
				Action:    act(testInvokeScript),
			},
		},
	}
}

func inFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "in", Aliases: []string{"i"}, Usage: usage, Required: true}
}

func manifestFlag() cli.Flag {
	return &cli.StringFlag{Name: "manifest", Aliases: []string{"m"}, Usage: "Manifest input file (*.manifest.json)", Required: true}
}

// nativeNames maps neo-go's short and full (lower-case) native contract
// names to the contract names.
var nativeNames = map[string]string{
	"contractmanagement": native.ManagementName, "management": native.ManagementName,
	"ledgercontract": native.LedgerName, "ledger": native.LedgerName,
	"neotoken": native.NeoName, "neo": native.NeoName,
	"gastoken": native.GasName, "gas": native.GasName,
	"policycontract": native.PolicyName, "policy": native.PolicyName,
	"oraclecontract": native.OracleName, "oracle": native.OracleName,
	"rolemanagement": native.DesignateName, "designation": native.DesignateName,
	"notary":    native.NotaryName,
	"cryptolib": native.CryptoLibName, "crypto": native.CryptoLibName,
	"stdlib": native.StdLibName, "std": native.StdLibName,
	"treasury": native.TreasuryName,
}

// contractHashArg reads a script hash, an address or a native contract
// name.
func contractHashArg(s string) (util.Uint160, error) {
	if h, err := parseAddress(s); err == nil {
		return h, nil
	}
	name, ok := nativeNames[strings.ToLower(s)]
	if !ok {
		return util.Uint160{}, fmt.Errorf("incorrect script hash or invalid native contract name: unknown native contract: %s", s)
	}
	return smartcontract.CreateNativeContractHash(name), nil
}

// invocation is a parsed `hash method [params...] [-- signers...]`.
type invocation struct {
	contract util.Uint160
	method   string
	params   []client.Param
	signers  []transaction.Signer
}

func parseInvocation(ctx context.Context, c *walletCtx) (*invocation, error) {
	lead, cosArgs := splitCosigners(ctx, c.cmd.Args().Slice())
	if len(lead) == 0 {
		return nil, errNoScriptHash
	}
	h, err := contractHashArg(lead[0])
	if err != nil {
		return nil, err
	}
	if len(lead) < 2 {
		return nil, errNoMethod
	}
	inv := &invocation{contract: h, method: lead[1]}
	if inv.params, err = parseParams(lead[2:]); err != nil {
		return nil, err
	}
	if inv.signers, err = parseSigners(cosArgs); err != nil {
		return nil, err
	}
	return inv, nil
}

// parseParams reads the parameters of a call.
func parseParams(args []string) ([]client.Param, error) {
	var out []client.Param
	for len(args) > 0 {
		v, rest, err := parseParam(args, 0)
		if err != nil {
			return nil, err
		}
		p, err := toParam(v)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
		args = rest
	}
	return out, nil
}

// toParam types a parsed parameter value for the RPC. A Hash256 goes as
// the bytes the node would push for it.
func toParam(v any) (client.Param, error) {
	switch x := v.(type) {
	case nil:
		return client.Param{Type: smartcontract.AnyType}, nil
	case *big.Int:
		return client.Param{Type: smartcontract.IntegerType, Value: x}, nil
	case bool:
		return client.Param{Type: smartcontract.BoolType, Value: x}, nil
	case string:
		return client.Param{Type: smartcontract.StringType, Value: x}, nil
	case util.Uint160:
		return client.Param{Type: smartcontract.Hash160Type, Value: x}, nil
	case util.Uint256:
		return client.Param{Type: smartcontract.ByteArrayType, Value: x.BytesLE()}, nil
	case []byte:
		return client.Param{Type: smartcontract.ByteArrayType, Value: x}, nil
	case []any:
		ps := make([]client.Param, 0, len(x))
		for _, it := range x {
			p, err := toParam(it)
			if err != nil {
				return client.Param{}, err
			}
			ps = append(ps, p)
		}
		return client.Param{Type: smartcontract.ArrayType, Value: ps}, nil
	}
	return client.Param{}, fmt.Errorf("unsupported parameter value %T", v)
}

// testRun is a test invocation as the node answered it and as parsed.
type testRun struct {
	raw json.RawMessage
	res client.Invoke
}

func invokeFunctionRaw(s *rpcSession, inv *invocation) (*testRun, error) {
	params := inv.params
	if params == nil {
		params = []client.Param{}
	}
	ps := []any{inv.contract.String(), inv.method, params}
	if len(inv.signers) > 0 {
		ps = append(ps, inv.signers)
	}
	return callInvoke(s, "invokefunction", ps)
}

func callInvoke(s *rpcSession, method string, ps []any) (*testRun, error) {
	r := new(testRun)
	if err := s.c.Call(s.ctx, method, ps, &r.raw); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(r.raw, &r.res); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return r, nil
}

// print writes the node's answer indented, as neo-go prints it.
func (r *testRun) print(c *walletCtx) error {
	var b bytes.Buffer
	if err := json.Indent(&b, r.raw, "", "  "); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err := c.out.Write(b.Bytes())
	return err
}

func (r *testRun) warning() string {
	return fmt.Sprintf("Warning: %s VM state returned from the RPC node: %s", r.res.State, r.res.FaultException)
}

func testInvokeFunction(ctx context.Context, c *walletCtx) error {
	inv, err := parseInvocation(ctx, c)
	if err != nil {
		return err
	}
	s, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	r, err := invokeFunctionRaw(s, inv)
	if err != nil {
		return err
	}
	if r.res.State != client.HaltState {
		return errors.New(r.warning())
	}
	return r.print(c)
}

func testInvokeScript(ctx context.Context, c *walletCtx) error {
	script, err := readScriptFile(c.cmd.String("in"))
	if err != nil {
		return err
	}
	// Every argument is a signer; a "--" before them is allowed.
	args := c.cmd.Args().Slice()
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	signers, err := parseSigners(args)
	if err != nil {
		return err
	}
	s, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	ps := []any{script}
	if len(signers) > 0 {
		ps = append(ps, signers)
	}
	r, err := callInvoke(s, "invokescript", ps)
	if err != nil {
		return err
	}
	return r.print(c)
}

// readFileLimited reads a file of at most maxContractFile bytes.
func readFileLimited(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxContractFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxContractFile)
	}
	return os.ReadFile(path)
}

// readScriptFile returns the script of a NEF file or, for a file that
// does not start as a NEF does, the file's bytes as a raw script.
func readScriptFile(path string) ([]byte, error) {
	b, err := readFileLimited(path)
	if err != nil {
		return nil, err
	}
	f, err := nef.FileFromBytes(b)
	if err == nil {
		return f.Script, nil
	}
	if bytes.HasPrefix(b, []byte("NEF3")) || len(b) == 0 {
		return nil, fmt.Errorf("failed to restore .nef file: %w", err)
	}
	return b, nil
}

// readNEF reads and checks a NEF file, returning it and its bytes.
func readNEF(path string) (*nef.File, []byte, error) {
	b, err := readFileLimited(path)
	if err != nil {
		return nil, nil, fmt.Errorf("can't read .nef file: %w", err)
	}
	f, err := nef.FileFromBytes(b)
	if err != nil {
		return nil, nil, fmt.Errorf("can't unmarshal .nef file: %w", err)
	}
	return f, b, nil
}

// readManifest reads a manifest file, returning it and its bytes.
func readManifest(path string) (*manifest.Manifest, []byte, error) {
	b, err := readFileLimited(path)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to read manifest file: %w", err)
	}
	m := new(manifest.Manifest)
	if err := json.Unmarshal(b, m); err != nil {
		return nil, nil, fmt.Errorf("failed to restore manifest file: %w", err)
	}
	return m, b, nil
}

func calcHashCommand(act func(walletAction) cli.ActionFunc) *cli.Command {
	return &cli.Command{
		Name:      "calc-hash",
		Usage:     "Calculates hash of a contract after deployment",
		UsageText: "n3d contract calc-hash -i nef -m manifest -s address",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "sender", Aliases: []string{"s"}, Required: true, Usage: "Sender script hash or address"},
			&cli.StringFlag{Name: "in", Aliases: []string{"i"}, Required: true, Usage: "Path to NEF file"},
			&cli.StringFlag{Name: "manifest", Aliases: []string{"m"}, Required: true, Usage: "Path to manifest file"},
		},
		Action: act(calcHash),
	}
}

func calcHash(_ context.Context, c *walletCtx) error {
	if err := ensureNoArgs(c.cmd); err != nil {
		return err
	}
	sender, err := c.hashFlag("sender")
	if err != nil {
		return err
	}
	f, _, err := readNEF(c.cmd.String("in"))
	if err != nil {
		return err
	}
	m, _, err := readManifest(c.cmd.String("manifest"))
	if err != nil {
		return err
	}
	h := smartcontract.CreateContractHash(sender, f.Checksum, m.Name)
	_, err = fmt.Fprintln(c.out, "Contract hash:", h.StringBE())
	return err
}
