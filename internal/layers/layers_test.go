package layers

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/n3d-io/n3d/"

// group is a set of package trees that may import each other freely; a
// package may import its own group and any group of a lower layer.
type group struct {
	layer string // L0..L5, L6 for cmd; "L3w" sorts between L3 and L4
	name  string
	trees []string // path prefixes under the module
}

// table is the layer table of docs/architecture.md, as enforced. Within a
// layer, groups are separate: an import from one to another is sideways
// and fails like an upward one.
var table = []group{
	{"L0", "foundations", []string{"pkg/util", "pkg/io", "pkg/crypto", "pkg/encoding", "pkg/protocol",
		"pkg/buildinfo", "pkg/logging", "pkg/clock", "pkg/config", "config", "internal/promutil", "internal/conformance", "internal/layers", "internal/neogotest", "internal/cputime", "internal/memlimit"}},
	{"L1", "execution", []string{"pkg/vm", "pkg/smartcontract"}},
	{"L2", "storage", []string{"pkg/storage"}},
	{"L2", "mpt", []string{"pkg/mpt"}},
	{"L2", "wallet", []string{"pkg/wallet", "internal/testwallet"}},
	{"L3", "chain", []string{"pkg/core", "internal/nativetest"}},
	// The P2P wire types (payloads, capabilities, message frames): pure
	// encodings over the chain's types, which the services that speak
	// through the network (consensus, a state-root service) share with
	// the P2P server.
	{"L3w", "p2p wire", []string{"pkg/network/payload", "pkg/network/capability", "pkg/network/message"}},
	{"L4", "network", []string{"pkg/network"}},
	{"L4", "consensus", []string{"pkg/consensus"}},
	{"L4", "rpc", []string{"pkg/rpc"}},
	{"L4", "txbuild", []string{"pkg/wallet/txbuild"}},
	{"L4", "services", []string{"pkg/services"}}, // each pkg/services/<name> is a group of its own
	{"L5", "node", []string{"pkg/node"}},
	// The simulator runs many nodes in one process; only cmd is above it.
	{"L5s", "sim", []string{"pkg/sim"}},
	{"L6", "cmd", []string{"cmd"}},
}

// allowed are the known imports that break the table, each with why it is
// still there. Entries are "from -> to" package paths under the module,
// mapped to the reason; TestLayers fails when an entry is no longer
// needed, so the list only shrinks. It is empty: consensus's import of the
// Extensible payload type, the one exception, went away when the P2P wire
// types got their own group (L3w) below the services. A new import that
// breaks the table must be fixed, not added here.
var allowed = map[string]string{}

// appConfigUsers are the only packages that may import pkg/config, the
// whole application YAML; the protocol part is pkg/config/netconfig (L0),
// which any package may import. The chain still takes an application
// section (chain.Config.Ledger); pkg/node builds every service's Config
// from it (the RPC server's with node.RPCConfig), cmd loads it. Any other package takes a Config of its
// own. TestLayers fails when an entry no longer imports pkg/config, so the
// list only shrinks.
var appConfigUsers = map[string]string{
	"pkg/core/chain":      "chain.Config.Protocol (protocol part) and .Ledger (application section)",
	"pkg/node":            "builds every service's Config",
	"pkg/node/nodetest":   "builds the test privnet's config.Config for node.New",
	"pkg/sim":             "builds each simulated node's config.Config for node.New",
	"pkg/services/oracle": "oracle.Config.Oracle is neo-go's ApplicationConfiguration.Oracle section as is",
	"cmd/n3d":             "loads the files",
}

// groupOf returns the group of a module package path (without the module
// prefix), the longest matching tree winning.
func groupOf(pkg string) (group, bool) {
	best, bestLen, found := group{}, -1, false
	for _, g := range table {
		for _, tr := range g.trees {
			if (pkg == tr || strings.HasPrefix(pkg, tr+"/")) && len(tr) > bestLen {
				best, bestLen, found = g, len(tr), true
			}
		}
	}
	if found && best.name == "services" {
		// pkg/services/<name>: one group per service.
		parts := strings.SplitN(pkg, "/", 4)
		if len(parts) >= 3 {
			best.name = strings.Join(parts[:3], "/")
		}
	}
	return best, found
}

// imports lists every package of the module with its non-test imports of
// other module packages.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	res := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || !strings.HasPrefix(f[0], module) {
			continue
		}
		from := strings.TrimPrefix(f[0], module)
		res[from] = nil
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, module) {
				res[from] = append(res[from], strings.TrimPrefix(imp, module))
			}
		}
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, res)
	return res
}

// violations checks deps against the table and returns the imports that
// go up or sideways (minus the allowed ones) and the packages the table
// does not place.
func violations(deps map[string][]string) (bad []string, unplaced []string, usedAllowed map[string]bool) {
	usedAllowed = map[string]bool{}
	for from, imps := range deps {
		gf, ok := groupOf(from)
		if !ok {
			unplaced = append(unplaced, from)
			continue
		}
		for _, to := range imps {
			gt, ok := groupOf(to)
			if !ok {
				continue // reported as unplaced for its own entry
			}
			if gt.layer < gf.layer || gt.name == gf.name { // layer names sort in table order
				if to == "pkg/config" {
					if _, ok := appConfigUsers[from]; !ok {
						bad = append(bad, from+" -> "+to+" (the application YAML: take a Config of your own)")
					}
				}
				continue
			}
			key := from + " -> " + to
			if _, ok := allowed[key]; ok {
				usedAllowed[key] = true
				continue
			}
			dir := "up"
			if gt.layer == gf.layer {
				dir = "sideways"
			}
			bad = append(bad, key+" ("+dir+": "+gf.layer+" "+gf.name+" -> "+gt.layer+" "+gt.name+")")
		}
	}
	sort.Strings(bad)
	sort.Strings(unplaced)
	return bad, unplaced, usedAllowed
}

// TestLayers: no package imports a higher layer or another group of its
// own layer, except the commented exceptions; every package is placed;
// every exception is still needed (so the list only shrinks).
func TestLayers(t *testing.T) {
	deps := imports(t)
	bad, unplaced, used := violations(deps)
	require.Empty(t, unplaced, "packages missing from the layer table (internal/layers/layers_test.go and docs/architecture.md)")
	require.Empty(t, bad, "imports against the layer table (docs/architecture.md)")
	for k := range allowed {
		require.True(t, used[k], "allowed exception %q is no longer needed: remove it", k)
	}
	for k := range appConfigUsers {
		if !slices.Contains(deps[k], "pkg/config") {
			t.Errorf("%q no longer imports pkg/config: remove it from appConfigUsers", k)
		}
	}
}

// TestLayersCatchUpwardImports: the check itself reports an upward, a
// sideways and an application-config import, and a package outside the
// table.
func TestLayersCatchUpwardImports(t *testing.T) {
	bad, unplaced, _ := violations(map[string][]string{
		"pkg/core/chain":      {"pkg/rpc/server", "pkg/storage"},
		"pkg/network":         {"pkg/consensus"},
		"pkg/core/dao":        {"pkg/config"},
		"pkg/consensus":       {"pkg/network/payload"},
		"pkg/network/payload": {"pkg/network"},
		"pkg/elsewhere":       {"pkg/util"},
		"pkg/services/a":      {"pkg/services/b"},
		"pkg/services/a2":     {"pkg/services/a2/inner"},
	})
	require.Equal(t, []string{
		"pkg/core/chain -> pkg/rpc/server (up: L3 chain -> L4 rpc)",
		"pkg/core/dao -> pkg/config (the application YAML: take a Config of your own)",
		"pkg/network -> pkg/consensus (sideways: L4 network -> L4 consensus)",
		"pkg/network/payload -> pkg/network (up: L3w p2p wire -> L4 network)",
		"pkg/services/a -> pkg/services/b (sideways: L4 pkg/services/a -> L4 pkg/services/b)",
	}, bad)
	require.Equal(t, []string{"pkg/elsewhere"}, unplaced)
}
