package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/urfave/cli/v3"
)

// maxFileBytes bounds a 'filebytes:' argument.
const maxFileBytes = 1 << 20

// maxParamDepth bounds nested '[' arrays.
const maxParamDepth = 16

var errDataParams = errors.New("'data' should be represented as a single parameter")

// rawArgsKey keys the wallet command's unparsed arguments in a context.
type rawArgsKey struct{}

// keepRawArgs records the arguments of `wallet` as given: urfave/cli drops
// the "--" that separates a transfer's data from its cosigners, so the
// verbs find it here.
func keepRawArgs(ctx context.Context, cmd *cli.Command) (context.Context, error) {
	return context.WithValue(ctx, rawArgsKey{}, cmd.Args().Slice()), nil
}

// splitCosigners splits the positional arguments args of a verb into
// those before the "--" of the command line and the signers after it.
func splitCosigners(ctx context.Context, args []string) (lead, cosigners []string) {
	// A "--" met once flag parsing had stopped (after the first positional
	// argument) is still there.
	if i := slices.Index(args, "--"); i >= 0 {
		return args[:i], args[i+1:]
	}
	raw, _ := ctx.Value(rawArgsKey{}).([]string)
	i := slices.Index(raw, "--")
	if i < 0 {
		return args, nil
	}
	n := len(raw) - i - 1
	if n > len(args) {
		return args, nil
	}
	return args[:len(args)-n], args[len(args)-n:]
}

// parseSigners reads neo-go's signer[:scope[,scope...]] arguments;
// CustomContracts and CustomGroups take ':'-separated hashes and keys.
func parseSigners(args []string) ([]transaction.Signer, error) {
	out := make([]transaction.Signer, 0, len(args))
	for i, a := range args {
		s, err := parseSigner(a)
		if err != nil {
			return nil, fmt.Errorf("failed to parse signer #%d: %w", i, err)
		}
		out = append(out, s)
	}
	return out, nil
}

func parseSigner(arg string) (transaction.Signer, error) {
	acc, scopes, _ := strings.Cut(arg, ":")
	h, err := parseAddress(acc)
	if err != nil {
		return transaction.Signer{}, err
	}
	s := transaction.Signer{Account: h, Scopes: transaction.CalledByEntry}
	if scopes == "" {
		return s, nil
	}
	s.Scopes = 0
	for part := range strings.SplitSeq(scopes, ",") {
		sub := strings.Split(part, ":")
		sc, err := transaction.ScopesFromString(sub[0])
		if err != nil {
			return transaction.Signer{}, err
		}
		if sc == transaction.Global && s.Scopes != 0 || sc != transaction.Global && s.Scopes&transaction.Global != 0 {
			return transaction.Signer{}, errors.New("'Global' scope can not be combined with other scopes")
		}
		s.Scopes |= sc
		switch sc {
		case transaction.CustomContracts:
			if len(sub) == 1 {
				return transaction.Signer{}, errors.New("CustomContracts scope must refer to at least one contract")
			}
			for _, c := range sub[1:] {
				ch, err := parseAddress(c)
				if err != nil {
					return transaction.Signer{}, err
				}
				s.AllowedContracts = append(s.AllowedContracts, ch)
			}
		case transaction.CustomGroups:
			if len(sub) == 1 {
				return transaction.Signer{}, errors.New("CustomGroups scope must refer to at least one group")
			}
			for _, g := range sub[1:] {
				k, err := keys.NewPublicKeyFromString(g)
				if err != nil {
					return transaction.Signer{}, err
				}
				s.AllowedGroups = append(s.AllowedGroups, transaction.ECPoint(k.Compressed()))
			}
		}
	}
	return s, nil
}

// parseData reads the optional 'data' argument of a transfer: none, or
// one parameter in neo-go's syntax (type:value, an inferred value, nil, or
// a '[ ... ]' array).
func parseData(args []string) (any, error) {
	if len(args) == 0 {
		return nil, nil
	}
	v, rest, err := parseParam(args, 0)
	if err != nil {
		return nil, fmt.Errorf("unable to parse 'data' parameter: %w", err)
	}
	if len(rest) != 0 {
		return nil, errDataParams
	}
	return v, nil
}

// parseParam reads one parameter from the head of args.
func parseParam(args []string, depth int) (any, []string, error) {
	if depth > maxParamDepth {
		return nil, nil, errors.New("arrays nested too deep")
	}
	switch args[0] {
	case "]":
		return nil, nil, errors.New("unexpected ']'")
	case "[":
		items := []any{}
		rest := args[1:]
		for len(rest) > 0 && rest[0] != "]" {
			var v any
			var err error
			if v, rest, err = parseParam(rest, depth+1); err != nil {
				return nil, nil, err
			}
			items = append(items, v)
		}
		if len(rest) == 0 {
			return nil, nil, errors.New("missing ']'")
		}
		return items, rest[1:], nil
	}
	v, err := parseScalar(args[0])
	return v, args[1:], err
}

// splitTyped splits "type:value" at the first unescaped ':' and undoes
// the '\' escapes of an untyped value.
func splitTyped(s string) (typ, val string, typed bool) {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			i++
			sb.WriteByte(s[i])
		case s[i] == ':':
			return sb.String(), s[i+1:], true
		default:
			sb.WriteByte(s[i])
		}
	}
	return "", sb.String(), false
}

func parseScalar(s string) (any, error) {
	if s == "nil" {
		return nil, nil
	}
	typ, val, typed := splitTyped(s)
	if !typed {
		return inferValue(val), nil
	}
	switch typ {
	case "int", "integer":
		n, ok := new(big.Int).SetString(val, 10)
		if !ok {
			return nil, fmt.Errorf("failed to parse integer %q", val)
		}
		return n, nil
	case "bool", "boolean":
		switch val {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("invalid boolean value: %s", val)
	case "string":
		return val, nil
	case "hash160":
		return parseAddress(val)
	case "hash256":
		return util.Uint256DecodeStringBE(strings.TrimPrefix(val, "0x"))
	case "bytes", "bytearray", "signature", "key":
		b, err := hex.DecodeString(val)
		if err != nil {
			return nil, fmt.Errorf("invalid %s value: %w", typ, err)
		}
		if typ == "signature" && len(b) != keys.SignatureLen {
			return nil, fmt.Errorf("invalid signature length %d", len(b))
		}
		if typ == "key" {
			if _, err := keys.NewPublicKeyFromBytes(b); err != nil {
				return nil, err
			}
		}
		return b, nil
	case "filebytes":
		return readFileBytes(val)
	}
	return nil, fmt.Errorf("unsupported parameter type %q", typ)
}

func readFileBytes(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxFileBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxFileBytes)
	}
	return os.ReadFile(path)
}

// inferValue types an untyped value as neo-go does.
func inferValue(s string) any {
	if n, ok := new(big.Int).SetString(s, 10); ok {
		return n
	}
	switch s {
	case "true":
		return true
	case "false":
		return false
	}
	if h, err := address.StringToUint160(s); err == nil {
		return h
	}
	if b, err := hex.DecodeString(s); err == nil && len(b) > 0 {
		switch len(b) {
		case util.Uint160Size:
			h, _ := util.Uint160DecodeBytesBE(b)
			return h
		case util.Uint256Size:
			h, _ := util.Uint256DecodeBytesBE(b)
			return h
		}
		return b
	}
	return s
}
