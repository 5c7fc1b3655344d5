package netconfig

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/stretchr/testify/require"
)

// The expectations follow the reference rules: C# ProtocolSettings
// (EnsureOmmitedHardforks, IsHardforkEnabled) and neo-go's hardfork
// fix-ups, which agree: omitted leading hardforks are active from 0, those
// after the last listed one are off, no map means every stable one at 0.
func TestHardforkSemantics(t *testing.T) {
	off := ^uint32(0) // marker: disabled
	stableAtZero := map[protocol.Hardfork]uint32{}
	for _, hf := range protocol.Hardforks() {
		stableAtZero[hf] = off
	}
	for _, hf := range protocol.StableHardforks() {
		stableAtZero[hf] = 0
	}
	cases := []struct {
		name string
		m    map[string]uint32
		want map[protocol.Hardfork]uint32 // unlisted hardforks: off
	}{
		{"absent", nil, stableAtZero},
		{"empty", map[string]uint32{}, stableAtZero},
		{"prefix", map[string]uint32{"Aspidochelone": 1, "Basilisk": 2, "Cockatrice": 3, "Domovoi": 4, "Echidna": 5},
			map[protocol.Hardfork]uint32{protocol.HFAspidochelone: 1, protocol.HFBasilisk: 2, protocol.HFCockatrice: 3,
				protocol.HFDomovoi: 4, protocol.HFEchidna: 5}},
		{"leading omitted", map[string]uint32{"Basilisk": 2},
			map[protocol.Hardfork]uint32{protocol.HFAspidochelone: 0, protocol.HFBasilisk: 2}},
		{"explicit zeros", map[string]uint32{"Aspidochelone": 0, "Basilisk": 0},
			map[protocol.Hardfork]uint32{protocol.HFAspidochelone: 0, protocol.HFBasilisk: 0}},
		{"unstable listed", map[string]uint32{"Huyao": 10}, func() map[protocol.Hardfork]uint32 {
			m := map[protocol.Hardfork]uint32{}
			for _, hf := range protocol.Hardforks() {
				m[hf] = 0
			}
			m[protocol.HFHuyao] = 10
			return m
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := ProtocolConfiguration{Hardforks: tc.m}
			require.NoError(t, p.validateHardforks())
			check := func(p *ProtocolConfiguration) {
				for _, hf := range protocol.Hardforks() {
					h, listed := tc.want[hf]
					if !listed || h == off {
						_, ok := p.HardforkHeight(hf)
						require.False(t, ok, "%s must be off", hf)
						require.False(t, p.Enabled(hf, 1<<31), "%s must be off", hf)
						continue
					}
					got, ok := p.HardforkHeight(hf)
					require.True(t, ok, "%s must be on", hf)
					require.Equal(t, h, got, hf.String())
					require.True(t, p.Enabled(hf, h))
					if h > 0 {
						require.False(t, p.Enabled(hf, h-1))
					}
				}
				require.True(t, p.Enabled(protocol.HFDefault, 0))
			}
			check(&p)
			before := p.HardforkHeights()
			p.ApplyDefaults() // resolves the map; answers must not change
			require.Equal(t, before, p.HardforkHeights())
			check(&p)
			require.NoError(t, p.validateHardforks(), "the resolved map is valid too")
		})
	}
}

func TestActiveHardforks(t *testing.T) {
	p := ProtocolConfiguration{Hardforks: map[string]uint32{"Aspidochelone": 1, "Basilisk": 2, "Cockatrice": 2}}
	require.Empty(t, p.ActiveHardforks(0))
	require.Equal(t, []protocol.Hardfork{protocol.HFAspidochelone}, p.ActiveHardforks(1))
	require.Equal(t, []protocol.Hardfork{protocol.HFAspidochelone, protocol.HFBasilisk, protocol.HFCockatrice}, p.ActiveHardforks(2))
	require.Equal(t, []protocol.Hardfork{protocol.HFBasilisk, protocol.HFCockatrice}, p.HardforksActivatingAt(2))
	require.Empty(t, p.HardforksActivatingAt(3))

	var all ProtocolConfiguration
	require.Equal(t, protocol.StableHardforks(), all.HardforksActivatingAt(0))
	require.Equal(t, protocol.StableHardforks(), all.ActiveHardforks(0))
}
