package config

import (
	"os"
	"path/filepath"
	"testing"

	embedded "github.com/n3d-io/n3d/config"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// FuzzConfigLoad feeds arbitrary bytes to the loader: it must never panic,
// and a config it accepts must survive a marshal/parse round trip.
func FuzzConfigLoad(f *testing.F) {
	for _, seed := range [][]byte{embedded.MainNet, embedded.TestNet, embedded.PrivNet,
		embedded.PrivNetSingle, embedded.UnitTestNet} {
		f.Add(seed)
	}
	if files, err := filepath.Glob("../../internal/conformance/testdata/chains/*/protocol.yml"); err == nil {
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("ProtocolConfiguration:\n  Magic: 1\n  StandbyCommittee: [x]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data, "")
		if err != nil {
			return
		}
		out, err := yaml.Marshal(cfg)
		require.NoError(t, err)
		again, err := Parse(out, "")
		require.NoError(t, err, "re-parsing an accepted config:\n%s", out)
		out2, err := yaml.Marshal(again)
		require.NoError(t, err)
		require.Equal(t, string(out), string(out2))
	})
}
