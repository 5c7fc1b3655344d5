package config

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/stretchr/testify/require"
)

// effectiveDefaults parses the comment the reference run appended to a
// conformance protocol.yml: "# --- effective values ... ---" followed by
// comment lines of "Key: value" pairs separated by commas.
func effectiveDefaults(t *testing.T, data []byte) map[string]string {
	t.Helper()
	lines := strings.Split(string(data), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "#") && strings.Contains(l, "effective values") {
			start = i + 1
		}
	}
	require.NotEqual(t, -1, start, "no effective-values comment")
	var body strings.Builder
	for _, l := range lines[start:] {
		if !strings.HasPrefix(l, "#") {
			break
		}
		body.WriteString(strings.TrimPrefix(l, "#"))
		body.WriteString(",")
	}
	out := map[string]string{}
	for _, item := range strings.Split(body.String(), ",") {
		item = strings.TrimSuffix(strings.TrimSpace(item), ".")
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, ": ")
		require.True(t, ok, "unparsable item %q", item)
		out[k] = v
	}
	return out
}

func TestConformanceConfigs(t *testing.T) {
	dir := conformanceDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "chains", "*", "*.yml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			cfg, err := LoadFile(f, "")
			require.NoError(t, err)
			if filepath.Base(f) != "protocol.yml" {
				return // upstream copies: loading is the check
			}
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			checkEffective(t, &cfg.ProtocolConfiguration, effectiveDefaults(t, data))
			raw, err := Decode(data)
			require.NoError(t, err)
			checkListedHeights(t, &cfg.ProtocolConfiguration, raw.ProtocolConfiguration.Hardforks)
		})
	}
}

func checkEffective(t *testing.T, p *ProtocolConfiguration, want map[string]string) {
	actual := map[string]string{
		"MaxBlockSize":                        strconv.FormatUint(uint64(p.MaxBlockSize), 10),
		"MaxTransactionsPerBlock":             strconv.FormatUint(uint64(p.MaxTransactionsPerBlock), 10),
		"MaxValidUntilBlockIncrement":         strconv.FormatUint(uint64(p.MaxValidUntilBlockIncrement), 10),
		"MaxTraceableBlocks":                  strconv.FormatUint(uint64(p.MaxTraceableBlocks), 10),
		"Genesis.MaxTraceableBlocks":          strconv.FormatUint(uint64(p.Genesis.MaxTraceableBlocks), 10),
		"Genesis.MaxValidUntilBlockIncrement": strconv.FormatUint(uint64(p.Genesis.MaxValidUntilBlockIncrement), 10),
		"InitialGASSupply":                    p.InitialGASSupply.String() + " GAS",
		"StateRootInHeader":                   strconv.FormatBool(p.StateRootInHeader),
		"MemPoolSize":                         strconv.Itoa(p.MemPoolSize),
		"MaxBlockSystemFee":                   strconv.FormatInt(p.MaxBlockSystemFee, 10),
	}
	checked := 0
	for k, v := range want {
		if names, ok := strings.CutPrefix(k, "Hardforks "); ok {
			require.True(t, strings.HasPrefix(v, "disabled"), "only 'disabled' hardfork notes are understood: %q", v)
			for _, name := range strings.Split(names, "/") {
				hf, err := protocol.HardforkFromString(name)
				require.NoError(t, err)
				_, on := p.HardforkHeight(hf)
				require.False(t, on, "%s must be disabled", name)
			}
			checked++
			continue
		}
		got, known := actual[k]
		require.True(t, known, "the effective-values comment has %q, which this test does not check", k)
		require.Equal(t, v, got, k)
		checked++
	}
	require.GreaterOrEqual(t, checked, 5)
}

func checkListedHeights(t *testing.T, p *ProtocolConfiguration, listed map[string]uint32) {
	for name, h := range listed {
		hf, err := protocol.HardforkFromString(name)
		require.NoError(t, err)
		require.True(t, p.Enabled(hf, h), name)
		if h > 0 {
			require.False(t, p.Enabled(hf, h-1), name)
		}
	}
}

// TestNeoGoConfigs loads neo-go's own node configs, unchanged, when
// N3D_NEOGO_CONFIGS names a directory holding them (neo-go's config/ or any
// copy); they are not vendored here.
func TestNeoGoConfigs(t *testing.T) {
	dir := os.Getenv("N3D_NEOGO_CONFIGS")
	if dir == "" {
		t.Skip("set N3D_NEOGO_CONFIGS to a directory of neo-go protocol.*.yml files to run")
	}
	files, err := filepath.Glob(filepath.Join(dir, "protocol.*.yml"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no protocol.*.yml in %s", dir)
	for _, f := range files {
		_, err := LoadFile(f, "")
		require.NoError(t, err, f)
	}
	// Our shipped files must carry the same protocol rules as neo-go's.
	for ours, theirs := range map[string]string{
		NetMainNet:       "protocol.mainnet.yml",
		NetTestNet:       "protocol.testnet.yml",
		NetPrivNet:       "protocol.privnet.yml",
		NetUnitTestNet:   "protocol.unit_testnet.yml",
		NetPrivNetSingle: "protocol.privnet.docker.single.yml",
	} {
		want, err := LoadFile(filepath.Join(dir, theirs), "")
		require.NoError(t, err, theirs)
		data, _ := Embedded(ours)
		got, err := Parse(data, "")
		require.NoError(t, err, ours)
		if ours == NetPrivNetSingle {
			want.ProtocolConfiguration.SeedList = got.ProtocolConfiguration.SeedList // docker host names
		}
		require.Equal(t, want.ProtocolConfiguration, got.ProtocolConfiguration, "%s vs neo-go's %s", ours, theirs)
	}
}
