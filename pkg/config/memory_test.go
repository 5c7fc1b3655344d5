package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMemoryModes(t *testing.T) {
	for _, c := range []struct {
		in    string
		mode  string
		bytes int64
	}{
		{"", MemoryAuto, 0},
		{"auto", MemoryAuto, 0},
		{"AUTO", MemoryAuto, 0},
		{"off", MemoryOff, 0},
		{"1048576", "fixed", 1 << 20},
		{"2000000B", "fixed", 2000000},
		{"512KiB", "fixed", 512 << 10},
		{"300MiB", "fixed", 300 << 20},
		{"2GiB", "fixed", 2 << 30},
		{"1TiB", "fixed", 1 << 40},
	} {
		m := Memory{SoftLimit: c.in}
		require.Equal(t, c.mode, m.Mode(), c.in)
		n, ok := m.FixedLimit()
		require.Equal(t, c.bytes, n, c.in)
		require.Equal(t, c.bytes != 0, ok, c.in)
		if c.bytes >= 1<<20 || c.bytes == 0 {
			require.NoError(t, m.validate(), c.in)
		}
	}
}

func TestMemoryDecode(t *testing.T) {
	y := strings.Replace(unitTestNetYAML(t), "ApplicationConfiguration:\n",
		"ApplicationConfiguration:\n  Memory:\n    SoftLimit: 400MiB\n    HeapPercent: 30\n", 1)
	cfg, err := Parse([]byte(y), "")
	require.NoError(t, err)
	require.Equal(t, Memory{SoftLimit: "400MiB", HeapPercent: 30}, cfg.ApplicationConfiguration.Memory)
}
