package native

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/stretchr/testify/require"
)

// refMethod is one [ContractMethod] of the C# sources.
type refMethod struct {
	name       string
	params     int
	cpu, store int64
	flags      callflag.CallFlag
	from, till protocol.Hardfork
}

func (m refMethod) String() string {
	return fmt.Sprintf("%s/%d cpu=%d storage=%d flags=%s from=%s till=%s",
		m.name, m.params, m.cpu, m.store, m.flags, m.from, m.till)
}

var (
	csAttr  = regexp.MustCompile(`\[ContractMethod\(([^\]]*)\)\]`)
	csSig   = regexp.MustCompile(`(?:public|private|internal|protected)[^\n(=]*?\b(\w+)\s*\(`)
	csParam = regexp.MustCompile(`\[[^\]]*\]|/\*.*?\*/`)
	csFee   = regexp.MustCompile(`^(\d+)(?:\s*<<\s*(\d+))?$`)
)

// csharpMethods parses the [ContractMethod] attributes of C# sources and
// the signatures they annotate (srcs: file name to its text).
func csharpMethods(t *testing.T, srcs map[string]string, files ...string) []refMethod {
	t.Helper()
	var out []refMethod
	for _, f := range files {
		s, ok := srcs[f]
		require.True(t, ok, "C# source %s not given", f)
		for _, loc := range csAttr.FindAllStringSubmatchIndex(s, -1) {
			rest := s[loc[1]:]
			sig := csSig.FindStringSubmatchIndex(rest)
			require.NotNil(t, sig, "%s: no signature after %s", f, s[loc[0]:loc[1]])
			m := parseCSAttr(t, s[loc[2]:loc[3]])
			if m.name == "" {
				m.name = rest[sig[2]:sig[3]]
			}
			m.name = strings.ToLower(m.name[:1]) + m.name[1:]
			m.params = countCSParams(rest[sig[1]:])
			out = append(out, m)
		}
	}
	return out
}

func parseCSAttr(t *testing.T, args string) refMethod {
	t.Helper()
	var m refMethod
	var positional []string
	for _, a := range strings.Split(args, ",") {
		a = strings.TrimSpace(a)
		k, v, named := strings.Cut(a, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case !named:
			positional = append(positional, a)
		case k == "Name":
			m.name = strings.Trim(v, `"`)
		case k == "CpuFee" || k == "StorageFee":
			f := csFee.FindStringSubmatch(v)
			require.NotNil(t, f, "fee %q", v)
			n, _ := strconv.ParseInt(f[1], 10, 64)
			if f[2] != "" {
				sh, _ := strconv.Atoi(f[2])
				n <<= sh
			}
			if k == "CpuFee" {
				m.cpu = n
			} else {
				m.store = n
			}
		case k == "RequiredCallFlags":
			for _, fl := range strings.Split(v, "|") {
				fl = strings.TrimPrefix(strings.TrimSpace(fl), "CallFlags.")
				f, ok := map[string]callflag.CallFlag{"None": callflag.None, "ReadStates": callflag.ReadStates,
					"WriteStates": callflag.WriteStates, "AllowCall": callflag.AllowCall, "AllowNotify": callflag.AllowNotify,
					"States": callflag.States, "ReadOnly": callflag.ReadOnly, "All": callflag.All}[fl]
				require.True(t, ok, "flag %q", fl)
				m.flags |= f
			}
		default:
			t.Fatalf("unknown attribute argument %q", a)
		}
	}
	hf := func(s string) protocol.Hardfork {
		h, err := protocol.HardforkFromString(strings.TrimPrefix(s, "Hardfork."))
		require.NoError(t, err, s)
		return h
	}
	switch {
	case len(positional) == 2 && positional[0] == "true":
		m.till = hf(positional[1])
	case len(positional) == 2:
		m.from, m.till = hf(positional[0]), hf(positional[1])
	case len(positional) == 1 && positional[0] != "":
		m.from = hf(positional[0])
	}
	return m
}

// countCSParams counts the parameters of a C# signature starting after
// its "(", leaving out an injected engine or snapshot first parameter.
func countCSParams(s string) int {
	depth, end := 1, 0
	for i, r := range s {
		if r == '(' {
			depth++
		} else if r == ')' {
			if depth--; depth == 0 {
				end = i
				break
			}
		}
	}
	list := strings.TrimSpace(csParam.ReplaceAllString(s[:end], ""))
	if list == "" {
		return 0
	}
	ps := strings.Split(list, ",")
	first := strings.Fields(ps[0])[0]
	switch first {
	case "ApplicationEngine", "DataCache", "IReadOnlyStore":
		ps = ps[1:]
	}
	return len(ps)
}

// csharpFiles lists, per core native, the C# sources holding its
// [ContractMethod] attributes (under src/Neo/SmartContract/Native/).
var csharpFiles = []struct {
	name  string
	files []string
}{
	{ManagementName, []string{"ContractManagement.cs"}},
	{StdLibName, []string{"StdLib.cs"}},
	{CryptoLibName, []string{"CryptoLib.cs", "CryptoLib.BLS12_381.cs"}},
	{LedgerName, []string{"LedgerContract.cs"}},
	{PolicyName, []string{"PolicyContract.cs"}},
}

// TestNativePricesAgainstCSharp checks every method of the core natives
// against the C# [ContractMethod] attributes captured in
// testdata/csharp-native-methods.json: CPU and storage fee, call flags and
// hardfork range, and that no method is missing on either side.
func TestNativePricesAgainstCSharp(t *testing.T) {
	ref := readCSharpMethods(t)
	core := NewCore(&config.ProtocolConfiguration{})
	for _, md := range []*ContractMD{core.Management.md, core.Std.md, core.Crypto.md, core.Ledger.md, core.Policy.md} {
		t.Run(md.Name, func(t *testing.T) {
			want, ok := ref.Methods[md.Name]
			require.True(t, ok, "%s not in the captured C# methods", md.Name)
			var got []string
			for _, m := range md.methods {
				got = append(got, refMethod{name: m.Name, params: len(m.Params), cpu: m.CPUFee, store: m.StorageFee,
					flags: m.Flags, from: m.From, till: m.Till}.String())
			}
			require.ElementsMatch(t, want, got)
		})
	}
}
